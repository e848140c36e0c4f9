/**
 * The one bibliography cache (`BibCache`, issue 22): the citation service reads it, the language
 * server's library store fills it (`publish`) and is asked on its miss (`BibReadings`), so a
 * `.bib` that is both a library and a document's bibliography is parsed once and its text is not
 * read again for the service.
 */
import { describe, expect, it, vi } from 'vitest';
import { DocumentDiagnosticRequest, type Diagnostic } from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { parseBib, type ParsedBib } from '../../src/core/bibliography/bibtexFile.js';
import { readBibFile, type BibFile } from '../../src/core/bibliography/bibFile.js';
import { BibCache } from '../../src/core/bibliography/bibCache.js';
import type { WorkspaceFiles } from '../../src/core/workspace/files.js';
import { Methods, type LibraryStatusParams } from '../../src/server/protocol.js';
import { start } from './serverHarness.js';

/** The texts a CSL-JSON reader was made for (the library store's load and the service's reading alike). */
const cslParsed = vi.hoisted(() => [] as string[]);
vi.mock('../../src/core/bibliography/readCslJson.js', async (actual) => {
  const m = await actual<typeof import('../../src/core/bibliography/readCslJson.js')>();
  class Counted extends m.CslJsonReader {
    constructor(text: string) { super(text); cslParsed.push(text); }
  }
  return { ...m, CslJsonReader: Counted };
});

/** The texts `parseBib` was given. */
const parsed = vi.hoisted(() => [] as string[]);
vi.mock('../../src/core/bibliography/bibtexFile.js', async (actual) => {
  const m = await actual<typeof import('../../src/core/bibliography/bibtexFile.js')>();
  return { ...m, parseBib: (text: string) => { parsed.push(text); return m.parseBib(text); } };
});

const REFS = URI.file('/ws/refs.bib');
const TEXT = '@article{k,\n  title = {A Key},\n  year = {2024},\n}\n';

/** A workspace of one file whose text and stamp the test sets; counts the reads of its text. */
function workspace(): WorkspaceFiles & { text: string; stampOf: string; reads: number } {
  return {
    folders: [URI.file('/ws')], foldsCase: false, text: TEXT, stampOf: 's1', reads: 0,
    async readText() { this.reads++; return this.text; },
    async readDisk() { return this.text; },
    async stamp() { return this.stampOf; },
    async exists() { return true; },
    realPath: async (uri) => uri,
    openDocument: () => undefined,
    listFolder: async () => [],
  };
}
const bibOf = (cache: BibCache, ws: WorkspaceFiles) => cache.get(ws, REFS, 'bib', (t) => readBibFile(REFS.path, t));

describe('BibCache with a host that reads BibTeX files', () => {
  it('takes a published reading without reading the file, and not once the host says it moved on', async () => {
    const ws = workspace();
    const readings = { readingOf: vi.fn(async (): Promise<BibFile | undefined> => undefined) };
    const cache = new BibCache(64, readings);
    let current = true;
    const reading = vi.fn((): BibFile | undefined => (current ? { path: REFS.path, format: 'bibtex', text: TEXT, entries: [{ key: 'published', type: 'article', fields: {} }] } : undefined));
    cache.publish(REFS, 's1', reading);
    expect((await bibOf(cache, ws))?.entries.map((e) => e.key)).toEqual(['published']);
    expect(await bibOf(cache, ws)).toMatchObject({ path: REFS.path, format: 'bibtex', text: TEXT });
    expect([ws.reads, reading.mock.calls.length, parsed.length]).toEqual([0, 1, 0]);

    // Published under another stamp: a miss, asked of the host before it is parsed here.
    current = false;
    cache.publish(REFS, 's0', reading);
    parsed.length = 0;
    expect((await bibOf(cache, ws))?.entries.map((e) => e.key)).toEqual(['k']);
    expect([ws.reads, readings.readingOf.mock.calls.length, parsed.length]).toEqual([1, 1, 1]);

    // Under this stamp, but the host's reading moved on since: a miss too.
    cache.publish(REFS, 's1', reading);
    expect((await bibOf(cache, ws))?.entries.map((e) => e.key)).toEqual(['k']);
    expect([ws.reads, readings.readingOf.mock.calls.length]).toEqual([2, 2]);
  });

  it('asks the host on a miss and parses nothing when it has the reading; other kinds are made as before, and a CSL file the host lacks', async () => {
    const ws = workspace();
    const readings = { readingOf: vi.fn(async (_uri: URI, text: string): Promise<BibFile> => ({ path: REFS.path, format: 'bibtex', text, entries: [{ key: `host:${text.length}`, type: 'article', fields: {} }] })) };
    const cache = new BibCache(64, readings);
    parsed.length = 0;
    expect((await bibOf(cache, ws))?.entries.map((e) => e.key)).toEqual([`host:${TEXT.length}`]);
    expect(parsed).toEqual([]);
    // Once per stamp.
    await bibOf(cache, ws);
    expect(readings.readingOf).toHaveBeenCalledTimes(1);
    expect(await cache.get(ws, REFS, 'latex', (t) => t.length)).toBe(TEXT.length);
    const json = URI.file('/ws/refs.json');
    ws.text = '[]';
    // A CSL file is asked of the host too (a CSL library is a BibFile as well); this host has none of it, so it is made.
    readings.readingOf.mockImplementationOnce(async () => undefined as unknown as BibFile);
    expect(await cache.get(ws, json, 'bib', (t) => readBibFile(json.path, t))).toMatchObject({ format: 'csl-json', entries: [] });
    expect(readings.readingOf).toHaveBeenCalledTimes(2);
    expect(parseBib(TEXT).entries.map((e) => e.key)).toEqual(['k']);
  });
});

describe('BibCache requests at the same time', () => {
  it('share one read of a file per stamp: two requests while the file is read, of any kind, read and parse it once', async () => {
    const ws = workspace();
    const cache = new BibCache(64);
    parsed.length = 0;
    const both = await Promise.all([bibOf(cache, ws), bibOf(cache, ws)]);
    expect(both[0]).toBe(both[1]);
    expect([ws.reads, parsed.length]).toEqual([1, 1]);
    const make = vi.fn((t: string) => t.length);
    expect(await Promise.all([cache.get(ws, REFS, 'latex', make), cache.get(ws, REFS, 'latex', make)])).toEqual([TEXT.length, TEXT.length]);
    expect([ws.reads, make.mock.calls.length]).toEqual([2, 1]);
    // A new stamp is a new read, and a file gone is null to every request.
    ws.stampOf = 's2';
    await Promise.all([bibOf(cache, ws), bibOf(cache, ws)]);
    expect(ws.reads).toBe(3);
    ws.readText = async function () { this.reads++; return undefined; };
    ws.stampOf = 's3';
    expect(await Promise.all([bibOf(cache, ws), bibOf(cache, ws)])).toEqual([null, null]);
    expect(ws.reads).toBe(4);
  });
});

describe('the language server\'s one bibliography cache', () => {
  it('gives a document the library store\'s reading of its .bib: the text is read once, by the store, and parsed by no one else', async () => {
    // The stamp the harness's reads give (the Node host's stat and read agree the same way).
    const stamps = { [REFS.toString()]: `len${TEXT.length}` };
    const s = await start({ '/ws/refs.bib': TEXT }, { citationStyle: 'apa', libraries: ['refs.bib'] }, { fileSystem: { stamp: async (uri) => stamps[uri.toString()] } });
    await s.notified<LibraryStatusParams>(Methods.libraryStatusChanged, (p) => p.files.length > 0 && p.files.every((f) => f.state === 'ready'));
    const reads = () => s.reads.filter((u) => u === REFS.toString()).length;
    expect(reads()).toBe(1);
    parsed.length = 0;
    const doc = URI.file('/ws/paper.tex').toString();
    s.open(doc, 'latex', '\\cite{k,nosuch}\n\\bibliography{refs}\n');
    const pull = async () => ((await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: doc } })) as { items: Diagnostic[] }).items.map((d) => d.message);
    expect(await pull()).toEqual(['Unknown citation key "nosuch": not in refs.bib, nor in the MLSys Papers corpus.']);
    expect(await pull()).toHaveLength(1);
    expect(reads()).toBe(1);
    expect(parsed).toEqual([]);
  });

  it('gives a document the library store\'s reading of its CSL-JSON bibliography too: read once and parsed once, by the store', async () => {
    const json = URI.file('/ws/refs.json');
    const csl = '[{"id": "k", "type": "article-journal", "title": "A Key", "issued": {"date-parts": [[2024]]}}]';
    const stamps = { [json.toString()]: `len${csl.length}` };
    const s = await start({ '/ws/refs.json': csl }, { citationStyle: 'apa', libraries: ['refs.json'] }, { fileSystem: { stamp: async (uri) => stamps[uri.toString()] } });
    await s.notified<LibraryStatusParams>(Methods.libraryStatusChanged, (p) => p.files.length > 0 && p.files.every((f) => f.state === 'ready'));
    const reads = () => s.reads.filter((u) => u === json.toString()).length;
    expect([reads(), cslParsed.filter((t) => t === csl).length]).toEqual([1, 1]);
    const doc = URI.file('/ws/paper.md').toString();
    s.open(doc, 'markdown', '---\nbibliography: refs.json\n---\n\nSee [@k; @nosuch].\n');
    const pull = async () => ((await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: doc } })) as { items: Diagnostic[] }).items.map((d) => d.message);
    expect(await pull()).toEqual([expect.stringContaining('"nosuch"')]);
    expect(await pull()).toHaveLength(1);
    expect([reads(), cslParsed.filter((t) => t === csl).length]).toEqual([1, 1]);
  });
});
