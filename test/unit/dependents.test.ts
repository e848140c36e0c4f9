/**
 * Diagnostics recompute only the dependents of a change (issue 27, move 3): a.tex cites from
 * a.bib, b.tex from b.bib (neither a library: `includeDocumentBibliography` off). After b.bib
 * changes on disk, b.tex is computed again exactly once and a.tex not at all: a pushing client gets
 * b.tex pushed alone; a pulling client's pull of a.tex is answered `unchanged` (LSP 3.17
 * `previousResultId`), of b.tex in full. The service's computations are counted; the server runs
 * on fake timers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DidChangeTextDocumentNotification, DidChangeWatchedFilesNotification, DocumentDiagnosticRequest, FileChangeType, HoverRequest, PublishDiagnosticsNotification,
  type DocumentDiagnosticReport, type FullDocumentDiagnosticReport, type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { Methods } from '../../src/server/protocol.js';
import { start, type Session } from './serverHarness.js';

/** The URIs the citation service computed diagnostics for, in order. */
const computed = vi.hoisted(() => [] as string[]);
vi.mock('../../src/core/service/service.js', async (actual) => {
  const m = await actual<typeof import('../../src/core/service/service.js')>();
  return {
    ...m,
    createCitationService: (opts: Parameters<typeof m.createCitationService>[0]) => {
      const service = m.createCitationService(opts);
      return { ...service, check: (doc: Parameters<typeof service.check>[0], token?: Parameters<typeof service.check>[1]) => { computed.push(doc.uri); return service.check(doc, token); } };
    },
  };
});

/** How many times a document's bibliography was resolved (`resolveBibliography`). */
const resolved = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/core/bibliography/resolve.js', async (actual) => {
  const m = await actual<typeof import('../../src/core/bibliography/resolve.js')>();
  return { ...m, resolveBibliography: (...args: Parameters<typeof m.resolveBibliography>) => { resolved.count++; return m.resolveBibliography(...args); } };
});

const uri = (p: string) => URI.file(p).toString();
const A = uri('/ws/a.tex');
const B = uri('/ws/b.tex');
const entry = (key: string, title: string) => `@article{${key},\n  title = {${title}},\n  author = {Doe, Jo},\n  year = {2024},\n}\n`;
const paper = (key: string, bib: string) => `\\documentclass{article}\n\\begin{document}\n\\cite{${key}}\n\\bibliography{${bib}}\n\\end{document}\n`;
const FILES = { '/ws/a.bib': entry('ka', 'From a.bib'), '/ws/b.bib': entry('kb', 'From b.bib'), '/ws/a.tex': paper('ka', 'a'), '/ws/b.tex': paper('kb', 'b') };

afterEach(() => {
  vi.useRealTimers();
});

/**
 * Moves the server's fake clock by `ms`, with a round trip before and after, so that the server has
 * handled what was sent and what the timers started: a hover on `doc` at 0:0, where no citation is.
 */
function stepper(s: Session, doc: string): (ms: number) => Promise<void> {
  const roundTrip = () => s.client.sendRequest(HoverRequest.type, { textDocument: { uri: doc }, position: { line: 0, character: 0 } });
  return async (ms) => { await roundTrip(); await vi.advanceTimersByTimeAsync(ms); await roundTrip(); };
}

/** A pull of `doc`'s diagnostics, with the result id the client holds. */
const puller = (s: Session) => (doc: string, previousResultId?: string) =>
  s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: doc }, ...(previousResultId ? { previousResultId } : {}) }) as Promise<DocumentDiagnosticReport>;

/** How many times the server said the libraries changed (a load or a reload ended). */
const librariesChanged = (s: Session): number => s.notifications.filter((n) => n.method === Methods.librariesChanged).length;

/** Computations of `doc`'s diagnostics since `computed` was last emptied. */
const count = (doc: string) => computed.filter((u) => u === doc).length;

async function session(pull: boolean): Promise<Session & { wait(ms: number): Promise<void>; count(doc: string): number }> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const s = await start(FILES, { citationStyle: 'apa', includeDocumentBibliography: false }, {}, undefined, pull ? { diagnostics: { refreshSupport: true } } : {}, '/ws', pull);
  return Object.assign(s, { wait: stepper(s, A), count });
}

/** a.tex and b.tex open, and every timer their opening started run out. */
async function openBoth(s: Session & { wait(ms: number): Promise<void> }): Promise<void> {
  s.open(A, 'latex', FILES['/ws/a.tex']);
  s.open(B, 'latex', FILES['/ws/b.tex']);
  await s.wait(2_000);
}

/** b.bib's key changes on disk, and the client is told. */
async function changeB(s: Session): Promise<void> {
  s.write('/ws/b.bib', entry('kb2', 'From b.bib, renamed'));
  await s.client.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri('/ws/b.bib'), type: FileChangeType.Changed }] });
}

describe('after a change of b.bib, only the documents citing from it are computed again', () => {
  it('pushing client: b.tex is pushed once, a.tex not at all', async () => {
    const s = await session(false);
    await openBoth(s);
    // Each document's first push is in (a push is sent once its computation ends, which no timer waits for).
    for (const doc of [A, B]) await s.notified<PublishDiagnosticsParams>(PublishDiagnosticsNotification.method, (p) => p.uri === doc);
    await s.wait(2_000);
    expect(s.count(A)).toBeGreaterThan(0);
    computed.length = 0;
    const pushes = (doc: string) => s.notifications.filter((n) => n.method === PublishDiagnosticsNotification.method && (n.params as PublishDiagnosticsParams).uri === doc);
    const before = { a: pushes(A).length, b: pushes(B).length };
    await changeB(s);
    await s.wait(2_000);
    await s.notified<PublishDiagnosticsParams>(PublishDiagnosticsNotification.method, (p) => p.uri === B && p.diagnostics.length > 0);
    await s.wait(2_000);
    expect({ a: s.count(A), b: s.count(B) }).toEqual({ a: 0, b: 1 });
    expect({ a: pushes(A).length - before.a, b: pushes(B).length - before.b }).toEqual({ a: 0, b: 1 });
    // b.tex's citation of the key b.bib no longer defines is reported.
    expect((pushes(B).at(-1)!.params as PublishDiagnosticsParams).diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/"kb"/)]);
  });

  it('pulling client: one refresh; a.tex is answered unchanged without a computation, b.tex in full, once', async () => {
    const s = await session(true);
    await openBoth(s);
    const pull = puller(s);
    const first = { a: await pull(A), b: await pull(B) };
    expect(first.a.resultId).toBeDefined();
    // Nothing changed: both unchanged.
    expect((await pull(A, first.a.resultId)).kind).toBe('unchanged');
    computed.length = 0;
    const refreshes = s.refreshes();
    await changeB(s);
    await s.wait(2_000);
    expect(s.refreshes()).toBe(refreshes + 1);
    const again = { a: await pull(A, first.a.resultId), b: await pull(B, first.b.resultId) };
    expect(again.a.kind).toBe('unchanged');
    expect(again.b.kind).toBe('full');
    expect({ a: s.count(A), b: s.count(B) }).toEqual({ a: 0, b: 1 });
  });
});

describe('no refresh before the reload it depends on', () => {
  it('a library changed on disk: the refresh waits for its reload, and there is one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // The library store asks its cache first: while the gate is shut, a load (and a reload) waits.
    let gate: Promise<void> = Promise.resolve();
    let opening = () => {};
    const cache = { get: async () => { await gate; return undefined; }, set: async () => {} };
    const s = await start(FILES, { citationStyle: 'apa', libraries: ['b.bib'] }, { libraryCache: () => cache }, undefined, { diagnostics: { refreshSupport: true } }, '/ws', true);
    const wait = stepper(s, B);
    s.open(B, 'latex', FILES['/ws/b.tex']);
    await wait(2_000);
    await s.notified(Methods.librariesChanged);
    await wait(2_000);
    gate = new Promise<void>((resolve) => { opening = resolve; });
    const refreshes = s.refreshes();
    const loaded = librariesChanged(s);
    await changeB(s);
    await wait(2_000);
    expect(s.refreshes()).toBe(refreshes);
    opening();
    for (let i = 0; i < 20 && librariesChanged(s) === loaded; i++) await wait(100);
    await wait(2_000);
    expect(s.refreshes()).toBe(refreshes + 1);
  });
});

describe('a bibliography created on disk', () => {
  it('a document that declares it (missing until now) is computed again, though its last computation did not read it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const both = '\\documentclass{article}\n\\begin{document}\n\\cite{ka,kc}\n\\bibliography{a,c}\n\\end{document}\n';
    const s = await start({ ...FILES, '/ws/both.tex': both }, { citationStyle: 'apa', includeDocumentBibliography: false }, {}, undefined, {}, '/ws', false);
    const wait = stepper(s, A);
    const BOTH = uri('/ws/both.tex');
    const published = () => s.notifications.filter((n) => n.method === PublishDiagnosticsNotification.method && (n.params as PublishDiagnosticsParams).uri === BOTH).length;
    const last = () => (s.notifications.filter((n) => n.method === PublishDiagnosticsNotification.method && (n.params as PublishDiagnosticsParams).uri === BOTH).at(-1)?.params as PublishDiagnosticsParams | undefined)?.diagnostics.map((d) => d.message) ?? [];
    s.open(BOTH, 'latex', both);
    await wait(2_000);
    await s.notified<PublishDiagnosticsParams>(PublishDiagnosticsNotification.method, (p) => p.uri === BOTH);
    expect(last()).toEqual([expect.stringMatching(/"kc": not in a\.bib/)]);
    await wait(2_000);
    const before = published();
    s.write('/ws/c.bib', entry('kc', 'From c.bib'));
    await s.client.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri('/ws/c.bib'), type: FileChangeType.Created }] });
    for (let i = 0; i < 50 && published() === before; i++) await wait(100);
    expect(last()).toEqual([]);
  });
});

describe('one computation of a document\'s diagnostics', () => {
  it('resolves its bibliography once, and remembers the files it read from that resolution', async () => {
    const s = await session(true);
    await openBoth(s);
    await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: B } });
    const pull = () => puller(s)(A);
    await pull();
    computed.length = 0;
    resolved.count = 0;
    const { resultId } = await pull();
    expect({ computations: s.count(A), resolutions: resolved.count }).toEqual({ computations: 1, resolutions: 1 });
    // What it read is remembered: after a change of b.bib, a.tex's pull is answered unchanged.
    await changeB(s);
    await s.wait(2_000);
    const again = await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: A }, previousResultId: resultId }) as DocumentDiagnosticReport;
    expect(again.kind).toBe('unchanged');
  });
});

describe('after a change of the LaTeX project, only the documents whose roots it touched are computed again', () => {
  it('a file a.tex inputs declares another bibliography on disk: a.tex is computed again, once; b.tex is answered unchanged', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const withInput = '\\documentclass{article}\n\\begin{document}\n\\cite{ka,kc}\n\\input{abib}\n\\end{document}\n';
    const files = { ...FILES, '/ws/a.tex': withInput, '/ws/abib.tex': '\\bibliography{a}\n', '/ws/other/c.bib': entry('kc', 'From c.bib') };
    // The host lists the workspace's .tex files: the project indexes them.
    const listFiles = async () => Object.keys(files).filter((p) => p.endsWith('.tex')).map((p) => URI.file(p));
    const s = await start(files, { citationStyle: 'apa', includeDocumentBibliography: false }, { fileSystem: { listFiles } }, undefined, { diagnostics: { refreshSupport: true } }, '/ws', true);
    const wait = stepper(s, A);
    const pull = puller(s);
    s.open(A, 'latex', withInput);
    s.open(B, 'latex', FILES['/ws/b.tex']);
    await wait(2_000);
    const first = { a: await pull(A), b: await pull(B) };
    expect((first.a as FullDocumentDiagnosticReport).items.map((d) => d.message)).toEqual([expect.stringMatching(/"kc": not in a\.bib/)]);
    computed.length = 0;
    const refreshes = s.refreshes();
    s.write('/ws/abib.tex', '\\bibliography{a,other/c}\n');
    await s.client.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri('/ws/abib.tex'), type: FileChangeType.Changed }] });
    for (let i = 0; i < 20 && s.refreshes() === refreshes; i++) await wait(100);
    await wait(2_000);
    expect(s.refreshes()).toBe(refreshes + 1);
    const again = { a: await pull(A, first.a.resultId), b: await pull(B, first.b.resultId) };
    expect(again.b.kind).toBe('unchanged');
    expect((again.a as FullDocumentDiagnosticReport).items).toEqual([]);
    expect({ a: count(A), b: count(B) }).toEqual({ a: 1, b: 0 });
  });
});

describe('an edit of an open library', () => {
  it('gives one diagnostics round, after the store has read the edit: one refresh, its reader computed once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const s = await start(FILES, { citationStyle: 'apa', libraries: ['b.bib'] }, {}, undefined, { diagnostics: { refreshSupport: true } }, '/ws', true);
    const wait = stepper(s, B);
    const pull = puller(s);
    const LIB = uri('/ws/b.bib');
    s.open(B, 'latex', FILES['/ws/b.tex']);
    s.open(LIB, 'bibtex', FILES['/ws/b.bib']);
    await wait(2_000);
    await s.notified(Methods.librariesChanged);
    await wait(2_000);
    const first = await pull(B);
    expect((first as FullDocumentDiagnosticReport).items).toEqual([]);
    await pull(LIB);
    computed.length = 0;
    const refreshes = s.refreshes();
    const changes = librariesChanged(s);
    // The key kb becomes kb2 in the open library.
    await s.client.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: LIB, version: 2 }, contentChanges: [{ text: entry('kb2', 'From b.bib, renamed') }] });
    for (let i = 0; i < 20 && librariesChanged(s) === changes; i++) await wait(100);
    await wait(2_000);
    expect(s.refreshes()).toBe(refreshes + 1);
    const again = await pull(B, first.resultId);
    expect((again as FullDocumentDiagnosticReport).items.map((d) => d.message)).toEqual([expect.stringMatching(/"kb"/)]);
    expect(count(B)).toBe(1);
  });
});
