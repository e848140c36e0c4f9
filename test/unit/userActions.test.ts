/**
 * Issue 27's three user actions, walked over LSP with the work counted (ARCHITECTURE.md, "The three
 * user actions, walked again"): what each reads of the workspace and how many diagnostics rounds it
 * costs, once the server has started and loaded the document's bibliography.
 * - Typing `\cite{` in a chapter: completion stats the root's `.bib` and reads nothing.
 * - Insert Citation: the plan reads the `.bib`'s bytes once (the insertion is planned on them) and
 *   parses nothing again; at start, the first plan reads its text too, and the library load of the
 *   root's bibliography reads it once more (the library store's own read, issue 27's move 2).
 * - Saving a broken `.bib`: one `workspace/diagnostic/refresh`, sent after the reload, so the pull
 *   that follows already carries the error, on the `\bibliography` line.
 * The server runs on fake timers: no wait is a sleep.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CompletionRequest, DidChangeWatchedFilesNotification, DocumentDiagnosticRequest, FileChangeType, HoverRequest,
  type CompletionList, type FullDocumentDiagnosticReport,
} from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { ClientRequests, Methods } from '../../src/server/protocol.js';
import { memoryFileSystem, start, type Session } from './serverHarness.js';

const SMITH = '@article{smith2021paging,\n  title = {Paging Tricks for Everyone},\n  author = {Smith, Ann},\n  year = {2021}\n}\n';
const MAIN_TEXT = '\\documentclass{article}\n\\begin{document}\n\\input{ch1}\nSee \\cite{smith2021paging} and \\cite{}.\n\\bibliography{refs}\n\\end{document}\n';
const CH1_TEXT = 'In this chapter \\cite{smi}.\n';
const uri = (p: string) => URI.file(p).toString();
const MAIN = uri('/ws/main.tex');
const CH1 = uri('/ws/ch1.tex');
const REFS = uri('/ws/refs.bib');

afterEach(() => {
  vi.useRealTimers();
});

/** A paper (a root, a chapter it inputs, refs.bib), its host's reads and stats of files logged as `read refs.bib`, `stat refs.bib`. */
async function paper(): Promise<Session & { log: string[]; wait(ms: number): Promise<void>; save(path: string, text: string): void }> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const files: Record<string, string> = { '/ws/refs.bib': SMITH, '/ws/main.tex': MAIN_TEXT, '/ws/ch1.tex': CH1_TEXT };
  const disk = new Map(Object.entries(files).map(([p, t]) => [uri(p), t]));
  const base = memoryFileSystem(disk, []);
  const log: string[] = [];
  const name = (u: URI) => u.path.slice('/ws/'.length);
  const s = await start(files, undefined, {
    fileSystem: {
      readFile: (u, max) => { log.push(`read ${name(u)}`); return base.readFile(u, max); },
      stamp: (u) => { log.push(`stat ${name(u)}`); return base.stamp(u); },
      listFiles: async () => [URI.file('/ws/main.tex'), URI.file('/ws/ch1.tex')],
    },
  }, undefined, { diagnostics: { refreshSupport: true } });
  // Once a hover is answered, the server has read what was sent before it (messages are handled in order).
  const roundTrip = () => s.client.sendRequest(HoverRequest.type, { textDocument: { uri: MAIN }, position: { line: 0, character: 0 } });
  const wait = async (ms: number) => { await roundTrip(); await vi.advanceTimersByTimeAsync(ms); await roundTrip(); };
  const save = (path: string, text: string) => { s.write(path, text); disk.set(uri(path), text); };
  return Object.assign(s, { log, wait, save });
}

/** Opens the root and lets the server index the project and load the root's bibliography as a library. */
async function settled(s: Session & { wait(ms: number): Promise<void> }): Promise<void> {
  const loaded = s.notified(Methods.librariesChanged);
  s.open(MAIN, 'latex', MAIN_TEXT);
  await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: MAIN } });
  await s.wait(1_000);
  await loaded;
  await s.wait(1_000);
}

describe('the three user actions, with their work counted', () => {
  it('typing \\cite{ in a chapter: completion stats the root\'s .bib and reads nothing', async () => {
    const s = await paper();
    await settled(s);
    s.open(CH1, 'latex', CH1_TEXT);
    await s.wait(1_000);
    s.log.length = 0;
    const list = await s.client.sendRequest(CompletionRequest.type, { textDocument: { uri: CH1 }, position: { line: 0, character: 25 } }) as CompletionList;
    expect(list.items.map((i) => i.label)).toContain('smith2021paging');
    expect(s.log).toEqual(['stat refs.bib']);
  });

  it('Insert Citation: one read of the .bib\'s bytes per plan; at start, one more for the library load', async () => {
    const s = await paper();
    s.open(MAIN, 'latex', MAIN_TEXT);
    // The first plan reads the .bib's text (its resolver, into the BibCache) and its bytes; the
    // library load that follows at start takes the cache's reading for its resolver and reads the
    // text once more for the library store (issue 27's move 2: the store's own read).
    const first = await s.client.sendRequest(ClientRequests.planCitation, { uri: MAIN, position: { line: 3, character: 37 }, keys: ['kwon2023efficient'] });
    expect(first.added).toEqual(['kwon2023efficient']);
    await s.wait(1_000);
    expect(s.log.filter((l) => l === 'read refs.bib')).toHaveLength(3);
    await s.wait(1_000);
    s.log.length = 0;
    const again = await s.client.sendRequest(ClientRequests.planCitation, { uri: MAIN, position: { line: 3, character: 37 }, keys: ['kwon2023efficient'] });
    expect(again).toEqual(first);
    expect(s.log).toEqual(['stat refs.bib', 'read refs.bib']);
  });

  it('saving a broken .bib: one refresh, after the reload, and the pull then carries the error on the \\bibliography line', async () => {
    const s = await paper();
    await settled(s);
    const before = s.refreshes();
    s.save('/ws/refs.bib', SMITH.replace('Everyone}', 'Everyone'));
    await s.client.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: REFS, type: FileChangeType.Changed }] });
    let pulled: FullDocumentDiagnosticReport | undefined;
    for (let t = 0; t < 50 && !pulled; t++) {
      await s.wait(100);
      if (s.refreshes() > before) pulled = await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: MAIN } }) as FullDocumentDiagnosticReport;
    }
    expect(pulled?.items.map((d) => `${d.range.start.line}: ${d.message.slice(0, 16)}`)).toEqual(['4: refs.bib, line 1']);
    await s.wait(5_000);
    expect(s.refreshes()).toBe(before + 1);
  });
});
