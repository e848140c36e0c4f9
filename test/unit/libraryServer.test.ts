/**
 * The user's libraries in the language server (`src/server/libraryStore.ts`), over a real LSP
 * connection: loading with status, search beside the corpus (one row per work), completion, hover,
 * definition, problems, citing a library entry (its own text copied), never writing to a library,
 * duplicate keys across libraries, the tree's groups, edits of an open library, and the cache.
 */
import { describe, expect, it, vi } from 'vitest';
import { refusalText } from '../../src/core/bibliography/refusal.js';
import {
  CompletionRequest, DefinitionRequest, DidChangeConfigurationNotification, DocumentDiagnosticRequest, DidChangeTextDocumentNotification, DidChangeWatchedFilesNotification,
  FileChangeType, HoverRequest, LogMessageNotification, PublishDiagnosticsNotification,
  type CompletionList, type Diagnostic, type DidChangeWatchedFilesRegistrationOptions, type Hover, type LogMessageParams, type Location, type MarkupContent, type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import type { CitePlan } from '../../src/core/service/types.js';
import {
  Methods, type EntryResult, type LibraryEntriesResult, type LibraryGroupsResult, type LibraryStatusParams, type SearchResult,
} from '../../src/server/protocol.js';
import type { LibraryCache } from '../../src/server/libraryStore.js';
import { WORKSPACE_GLOB } from '../../src/server/watching.js';
import { start, type Session } from './serverHarness.js';

/** The texts `parseBib` (the citation service's own `.bib` reader) was given. */
const parsed = vi.hoisted(() => [] as string[]);
vi.mock('../../src/core/bibliography/bibtexFile.js', async (actual) => {
  const m = await actual<typeof import('../../src/core/bibliography/bibtexFile.js')>();
  return { ...m, parseBib: (text: string) => { parsed.push(text); return m.parseBib(text); } };
});

const LIB = '/ws/lib/zotero.bib';
const LIB_URI = URI.file(LIB).toString();

/** The user's library: the same work as a corpus entry under the user's key, macros, a crossref, a broken entry, keywords. */
const LIBRARY = [
  '% Exported by Better BibTeX',
  '@string{sosp = {Proceedings of the 29th Symposium on Operating Systems Principles}}',
  '@string{sospx = sosp # { (SOSP)}}',
  '',
  '@inproceedings{kwon2023vllm,',
  '  title = {Efficient Memory Management for Large Language Model Serving with {PagedAttention}},',
  '  author = {Kwon, Woosuk and Li, Zhuohan},',
  '  booktitle = sospx,',
  '  year = {2023},',
  '  doi = {10.1145/3600006.3613165},',
  '}',
  '',
  '@incollection{smith2024mystery,',
  '  title = {The Mystery of {Schr\\"o}dinger\'s Scheduler},',
  '  author = {Smith, Jane and {\\"U}nal, Ay{\\c{s}}e},',
  '  crossref = {proc2024},',
  '  keywords = {scheduling, gpu},',
  '  pages = {1--10},',
  '}',
  '',
  '@article{broken2020,',
  '  title = {Never closed,',
  '  year = 2020',
  '',
  '@proceedings{proc2024,',
  '  title = {Proceedings of the Mystery Workshop},',
  '  booktitle = {Proceedings of the Mystery Workshop},',
  '  year = {2024},',
  '  keywords = {workshops},',
  '}',
  '',
].join('\n');

const PAPER = '/ws/paper.tex';
const PAPER_URI = URI.file(PAPER).toString();
const paper = (body: string) => `\\documentclass{article}\n\\begin{document}\n${body}\n\\bibliography{references}\n\\end{document}\n`;

async function withLibrary(files: Record<string, string> = {}, settings: Record<string, unknown> = {}, extra = {}): Promise<Session> {
  const s = await start({ [LIB]: LIBRARY, '/ws/references.bib': '', ...files }, { citationStyle: 'apa', libraries: ['lib/zotero.bib'], ...settings }, extra);
  await s.notified<LibraryStatusParams>(Methods.libraryStatusChanged, (p) => p.files.length > 0 && p.files.every((f) => f.state !== 'loading'));
  return s;
}

const markdownOf = (h: Hover | null) => (h?.contents as MarkupContent | undefined)?.value ?? '';

describe('libraries in the language server', () => {
  it('loads a library, reports its status, and publishes its broken entry as a problem with its line', async () => {
    const s = await withLibrary();
    const status = await s.client.sendRequest<LibraryStatusParams>(Methods.libraryStatus);
    expect(status.files).toEqual([expect.objectContaining({ uri: LIB_URI, name: 'zotero.bib', state: 'ready', entries: 3, problems: 1, fromDocument: false })]);
    const diags = await s.notified<PublishDiagnosticsParams>(PublishDiagnosticsNotification.method, (p) => p.uri === LIB_URI && p.diagnostics.length > 0);
    expect(diags.diagnostics).toHaveLength(1);
    expect(diags.diagnostics[0]!.range.start.line).toBe(LIBRARY.split('\n').indexOf('@article{broken2020,'));
    // Not one of the library's entries (its text is no entry to copy), though BibTeX keeps its key.
    expect(diags.diagnostics[0]!.message).toMatch(/entry broken2020 is left out \(BibTeX keeps it with the fields before that\)$/);
  });

  it('searches library entries beside the corpus, with one row for a work both have', async () => {
    const s = await withLibrary();
    const mystery = await s.client.sendRequest<SearchResult>(Methods.search, { query: 'mystery scheduler' });
    expect(mystery.keys[0]).toBe('smith2024mystery');
    expect(mystery.entries?.[0]).toMatchObject({ key: 'smith2024mystery', title: "The Mystery of Schrödinger's Scheduler", library: { name: 'zotero.bib' } });
    expect(mystery.entries?.[0]?.authors).toEqual([{ given: 'Jane', family: 'Smith' }, { given: 'Ayşe', family: 'Ünal' }]);
    const paged = await s.client.sendRequest<SearchResult>(Methods.search, { query: 'paged attention memory management' });
    expect(paged.keys[0]).toBe('kwon2023efficient');
    expect(paged.keys).not.toContain('kwon2023vllm');
    expect(paged.sameWorkInLibraries?.kwon2023efficient).toEqual({ key: 'kwon2023vllm', library: 'zotero.bib' });
  });

  it('completes, hovers and goes to the definition of library keys', async () => {
    const s = await withLibrary();
    s.open(PAPER_URI, 'latex', paper('\\cite{myster}'));
    const list = await s.client.sendRequest(CompletionRequest.type, { textDocument: { uri: PAPER_URI }, position: { line: 2, character: 12 } }) as CompletionList;
    expect(list.items.map((i) => i.label)).toContain('smith2024mystery');
    // A corpus entry that the library has too is offered under the user's key.
    s.open(URI.file('/ws/b.tex').toString(), 'latex', paper('\\cite{pagedattention}'));
    const list2 = await s.client.sendRequest(CompletionRequest.type, { textDocument: { uri: URI.file('/ws/b.tex').toString() }, position: { line: 2, character: 20 } }) as CompletionList;
    expect(list2.items[0]?.label).toBe('kwon2023vllm');

    s.open(URI.file('/ws/c.tex').toString(), 'latex', paper('\\cite{smith2024mystery}'));
    const hover = await s.client.sendRequest(HoverRequest.type, { textDocument: { uri: URI.file('/ws/c.tex').toString() }, position: { line: 2, character: 10 } });
    expect(markdownOf(hover)).toMatch(/Mystery of Schrödinger's Scheduler/);
    expect(markdownOf(hover)).toMatch(/In zotero\\\.bib, line 13/);
    const def = await s.client.sendRequest(DefinitionRequest.type, { textDocument: { uri: URI.file('/ws/c.tex').toString() }, position: { line: 2, character: 10 } }) as Location;
    expect(def).toEqual({ uri: LIB_URI, range: { start: { line: 12, character: 0 }, end: { line: 12, character: 0 } } });
  });

  it('copies a library entry as written, with the macros and crossref parent it needs, into the document bibliography', async () => {
    const s = await withLibrary();
    s.open(PAPER_URI, 'latex', paper('See .'));
    const plan = await s.client.sendRequest<CitePlan>(Methods.planCitation, { uri: PAPER_URI, position: { line: 2, character: 4 }, keys: ['smith2024mystery'] });
    expect(plan.edit?.text).toBe('\\cite{smith2024mystery}');
    expect(plan.bibliography.kind).toBe('insert');
    const text = plan.bibliography.kind === 'insert' ? plan.bibliography.disk!.text : '';
    const entry = LIBRARY.slice(LIBRARY.indexOf('@incollection{smith2024mystery'), LIBRARY.indexOf('}\n\n@article{broken') + 1);
    const parent = LIBRARY.slice(LIBRARY.indexOf('@proceedings{proc2024'), LIBRARY.lastIndexOf('}') + 1);
    expect(text).toBe(`${entry}\n\n${parent}\n`);

    const twin = await s.client.sendRequest<CitePlan>(Methods.planCitation, { uri: PAPER_URI, position: { line: 2, character: 4 }, keys: ['kwon2023efficient'] });
    expect(twin.edit?.text).toBe('\\cite{kwon2023vllm}');
    const twinText = twin.bibliography.kind === 'insert' ? twin.bibliography.disk!.text : '';
    // Its macros first, in the order BibTeX needs (sospx uses sosp), then the entry as written.
    expect(twinText).toBe([
      '@string{sosp = {Proceedings of the 29th Symposium on Operating Systems Principles}}',
      '',
      '@string{sospx = sosp # { (SOSP)}}',
      '',
      LIBRARY.slice(LIBRARY.indexOf('@inproceedings{kwon2023vllm'), LIBRARY.indexOf('}\n\n@incollection') + 1),
      '',
    ].join('\n'));
  });

  it('cites the corpus key instead when the user prefers corpus keys', async () => {
    const s = await withLibrary({}, { preferCorpusKeys: true });
    s.open(PAPER_URI, 'latex', paper('See .'));
    const plan = await s.client.sendRequest<CitePlan>(Methods.planCitation, { uri: PAPER_URI, position: { line: 2, character: 4 }, keys: ['kwon2023efficient'] });
    expect(plan.edit?.text).toBe('\\cite{kwon2023efficient}');
  });

  it('never writes to a library: a document whose bibliography is a library gets a refusal that says so', async () => {
    const s = await withLibrary();
    const doc = URI.file('/ws/lib/paper.tex').toString();
    s.open(doc, 'latex', '\\documentclass{article}\n\\begin{document}\nSee .\n\\bibliography{zotero}\n\\end{document}\n');
    const plan = await s.client.sendRequest<CitePlan>(Methods.planCitation, { uri: doc, position: { line: 2, character: 4 }, keys: ['narayanan2021efficient'] });
    expect(plan.bibliography).toMatchObject({ kind: 'refuse', uri: LIB_URI, reason: 'library', keys: ['narayanan2021efficient'] });
    expect(plan.bibliography.kind === 'refuse' && refusalText(plan.bibliography)).toMatch(/one of your libraries/);
  });

  it('reports a key that an earlier library defines too, on the later library', async () => {
    const other = '/ws/lib/lab.bib';
    const s = await withLibrary({ [other]: '@misc{smith2024mystery,\n  title = {Another},\n}\n' }, { libraries: ['lib/zotero.bib', 'lib/lab.bib'] });
    const diags = await s.notified<PublishDiagnosticsParams>(PublishDiagnosticsNotification.method, (p) => p.uri === URI.file(other).toString() && p.diagnostics.length > 0);
    expect(diags.diagnostics[0]).toMatchObject({ code: 'duplicate-key', range: { start: { line: 0 } } });
    expect(diags.diagnostics[0]!.message).toMatch(/zotero\.bib defines it too/);
  });

  it('lists a library by keywords for the tree, newest first, and gives an entry with its fields as written', async () => {
    const s = await withLibrary();
    const { groups } = await s.client.sendRequest<LibraryGroupsResult>(Methods.libraryGroups, { uri: LIB_URI });
    expect(groups.map((g) => [g.label, g.count])).toEqual([['gpu', 1], ['scheduling', 1], ['workshops', 1], ['(no keywords)', 1]]);
    const r = await s.client.sendRequest<LibraryEntriesResult>(Methods.libraryEntries, { uri: LIB_URI, group: 'gpu' });
    expect(r.entries.map((e) => e.key)).toEqual(['smith2024mystery']);
    const e = await s.client.sendRequest<EntryResult>(Methods.entry, { key: 'smith2024mystery' });
    expect(e.fields).toMatchObject({ pages: '1--10', keywords: 'scheduling, gpu' });
  });

  it('reads an edited open library again where it changed', async () => {
    const s = await withLibrary();
    s.open(LIB_URI, 'bibtex', LIBRARY);
    const changed = LIBRARY.replace('The Mystery of', 'The Enigma of');
    await s.client.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: LIB_URI, version: 2 }, contentChanges: [{ text: changed }] });
    await s.notified(Methods.librariesChanged, (p: { version: number }) => p.version > 1);
    const hit = await s.client.sendRequest<SearchResult>(Methods.search, { query: 'enigma' });
    expect(hit.keys).toEqual(['smith2024mystery']);
    expect((await s.client.sendRequest<EntryResult>(Methods.entry, { key: 'smith2024mystery' })).entry?.title).toBe("The Enigma of Schrödinger's Scheduler");
    // The entries after it are where they were.
    const e = await s.client.sendRequest<EntryResult>(Methods.entry, { key: 'proc2024' });
    expect(e.entry?.library?.line).toBe(LIBRARY.split('\n').indexOf('@proceedings{proc2024,') + 1);
  });

  it('loads a library from the cache the second time', async () => {
    const saved = new Map<string, string>();
    let savedOne!: () => void;
    const firstSave = new Promise<void>((resolve) => { savedOne = resolve; });
    const cache: LibraryCache = {
      get: async (k) => saved.get(k),
      set: async (k, v) => {
        // The server saves in pieces, between requests.
        let text = '';
        if (typeof v === 'string') text = v; else for await (const piece of v) text += piece;
        saved.set(k, text);
        savedOne();
      },
    };
    const first = await withLibrary({}, {}, { libraryCache: () => cache });
    await firstSave;
    expect(saved.size).toBe(1);
    first.dispose();
    const second = await withLibrary({}, {}, { libraryCache: () => cache });
    const status = await second.client.sendRequest<LibraryStatusParams>(Methods.libraryStatus);
    expect(status.files[0]).toMatchObject({ state: 'ready', entries: 3, cached: true });
    expect((await second.client.sendRequest<SearchResult>(Methods.search, { query: 'mystery' })).keys).toContain('smith2024mystery');
  });

  it('copies a CSL-JSON library item as written into a CSL-JSON bibliography', async () => {
    const item = { id: 'doe2022json', type: 'article-journal', title: 'A JSON Library Item', author: [{ family: 'Doe', given: 'Jo' }], issued: { 'date-parts': [[2022]] }, 'container-title': 'Journal of Tests', note: 'kept as written' };
    const s = await start({ '/ws/lib/items.json': JSON.stringify([item], null, 2), '/ws/refs.json': '[]\n' }, { libraries: ['lib/items.json'] });
    await s.notified<LibraryStatusParams>(Methods.libraryStatusChanged, (p) => p.files.length > 0 && p.files.every((f) => f.state === 'ready'));
    const md = URI.file('/ws/notes.md').toString();
    s.open(md, 'markdown', '---\nbibliography: refs.json\n---\n\nSee .\n');
    const plan = await s.client.sendRequest<CitePlan>(Methods.planCitation, { uri: md, position: { line: 4, character: 4 }, keys: ['doe2022json'] });
    expect(plan.edit?.text).toBe('[@doe2022json]');
    const text = plan.bibliography.kind === 'insert' ? plan.bibliography.disk!.text : '';
    expect(JSON.parse(`[${text.replace(/^[\s,]*|[\s,\]]*$/g, '')}]`)).toEqual([item]);
  });

  it('puts a BibTeX library entry into a CSL-JSON bibliography with its container, volume and pages', async () => {
    const bib = '@article{lee2021tiles,\n  title = {Tiles for {GPUs}},\n  author = {Lee, Min},\n  journal = {Journal of Kernels},\n  volume = {12},\n  number = {3},\n  pages = {45--67},\n  year = {2021},\n}\n';
    const s = await start({ '/ws/lib/l.bib': bib, '/ws/refs.json': '[]\n' }, { libraries: ['lib/l.bib'] });
    await s.notified<LibraryStatusParams>(Methods.libraryStatusChanged, (p) => p.files.length > 0 && p.files.every((f) => f.state === 'ready'));
    const md = URI.file('/ws/n.md').toString();
    s.open(md, 'markdown', '---\nbibliography: refs.json\n---\n\nSee .\n');
    const plan = await s.client.sendRequest<CitePlan>(Methods.planCitation, { uri: md, position: { line: 4, character: 4 }, keys: ['lee2021tiles'] });
    const text = plan.bibliography.kind === 'insert' ? plan.bibliography.disk!.text : '';
    const [item] = JSON.parse(`[${text.replace(/^[\s,]*|[\s,\]]*$/g, '')}]`) as Record<string, unknown>[];
    expect(item).toMatchObject({ id: 'lee2021tiles', type: 'article-journal', title: 'Tiles for GPUs', 'container-title': 'Journal of Kernels', volume: '12', issue: '3', page: '45-67', issued: { 'date-parts': [[2021]] } });
  });

  it('an open document\'s bibliography is searched, but citing a corpus entry elsewhere does not copy its version', async () => {
    const s = await start({ '/ws/a/refs.bib': LIBRARY, '/ws/references.bib': '' }, { citationStyle: 'apa' });
    s.open(URI.file('/ws/a/paper.tex').toString(), 'latex', '\\bibliography{refs}\n\\cite{x}\n');
    await s.notified<LibraryStatusParams>(Methods.libraryStatusChanged, (p) => p.files.length > 0 && p.files.every((f) => f.state !== 'loading'));
    expect((await s.client.sendRequest<LibraryStatusParams>(Methods.libraryStatus)).files[0]).toMatchObject({ fromDocument: true, state: 'ready' });
    expect((await s.client.sendRequest<SearchResult>(Methods.search, { query: 'mystery scheduler' })).keys[0]).toBe('smith2024mystery');
    s.open(PAPER_URI, 'latex', paper('See .'));
    const plan = await s.client.sendRequest<CitePlan>(Methods.planCitation, { uri: PAPER_URI, position: { line: 2, character: 4 }, keys: ['kwon2023efficient'] });
    expect(plan.edit?.text).toBe('\\cite{kwon2023efficient}');
  });

  describe('a library outside the workspace folders', () => {
    const OUTSIDE = '/home/u/Zotero/My Library [2024].bib';
    const OUTSIDE_URI = URI.file(OUTSIDE).toString();
    const WATCH = { didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true } };
    /** The globs the server asked the client to watch, across its registrations. */
    const watched = (s: Session) => s.registrations.filter((r) => r.method === DidChangeWatchedFilesNotification.method)
      .flatMap((r) => (r.registerOptions as DidChangeWatchedFilesRegistrationOptions).watchers.map((w) => w.globPattern));
    const ready = (s: Session, entries: number) =>
      s.notified<LibraryStatusParams>(Methods.libraryStatusChanged, (p) => p.files.length > 0 && p.files.every((f) => f.state === 'ready' && f.entries === entries));

    it('is watched through a relative pattern on its folder, and read again when it changes on disk', async () => {
      const settings: Record<string, unknown> = { citationStyle: 'apa', libraries: [OUTSIDE] };
      const s = await start({ [OUTSIDE]: LIBRARY }, settings, {}, undefined, WATCH);
      await ready(s, 3);
      await s.registered(() => watched(s).length === 2);
      expect(watched(s)).toEqual([WORKSPACE_GLOB, { baseUri: URI.file('/home/u/Zotero').toString(), pattern: 'My Library [[]2024].bib' }]);

      // Zotero rewrites the export: the library follows, with no reload and no settings change.
      s.write(OUTSIDE, `${LIBRARY}\n@article{late2025entry,\n  title = {Quokka Tallies for Wombat Clusters},\n  year = {2025},\n}\n`);
      await s.client.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: OUTSIDE_URI, type: FileChangeType.Changed }] });
      await ready(s, 4);
      expect((await s.client.sendRequest<SearchResult>(Methods.search, { query: 'quokka wombat' })).keys[0]).toBe('late2025entry');

      // Named no more: its watcher goes.
      settings.libraries = [];
      await s.client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
      await s.registered(() => watched(s).length === 1);
      expect(watched(s)).toEqual([WORKSPACE_GLOB]);
      // A request after the client's answer: the server has read that answer before the session ends.
      await s.client.sendRequest(Methods.libraryStatus);
    });

    it('a change written after it was read and before its watcher was in place is read once the watcher is', async () => {
      // Zotero rewrites the export right after the server's first read, before the client watches it: no event tells of it.
      const rewritten = `${LIBRARY}\n@article{late2025entry,\n  title = {Quokka Tallies for Wombat Clusters},\n  year = {2025},\n}\n`;
      let text = LIBRARY;
      const fileSystem = {
        async readFile(uri: URI) {
          if (uri.toString() !== OUTSIDE_URI) return undefined;
          const read = text;
          text = rewritten;
          return { text: read, stamp: `len${read.length}` };
        },
        async stamp(uri: URI) { return uri.toString() === OUTSIDE_URI ? `len${text.length}` : undefined; },
      };
      const s = await start({ [OUTSIDE]: LIBRARY }, { citationStyle: 'apa', libraries: [OUTSIDE] }, { fileSystem }, undefined, WATCH);
      await s.registered(() => watched(s).length === 2);
      await ready(s, 4);
      expect((await s.client.sendRequest<SearchResult>(Methods.search, { query: 'quokka wombat' })).keys[0]).toBe('late2025entry');
    });

    it('is not watched twice, nor when the client cannot watch outside the workspace (it says so)', async () => {
      const s = await start({ [OUTSIDE]: LIBRARY, [LIB]: LIBRARY.replace(/@inproceedings\{kwon2023vllm/, '@inproceedings{kwon2023other') },
        { libraries: [OUTSIDE, 'lib/zotero.bib'] }, {}, undefined, WATCH);
      await s.notified<LibraryStatusParams>(Methods.libraryStatusChanged, (p) => p.files.length === 2 && p.files.every((f) => f.state !== 'loading'));
      // The library inside the workspace is seen by the workspace's watcher; only the other gets one of its own.
      await s.registered(() => watched(s).length === 2);
      expect(watched(s)).toHaveLength(2);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        // Messages are handled in order both ways: once a request is answered, the server has read
        // what was sent before it, and the client has handled every request the server sent before.
        const roundTrip = () => s.client.sendRequest(Methods.libraryStatus);
        await s.client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
        // The libraries reload 200 ms after the change; well past it, no second watcher was asked for.
        await roundTrip();
        await vi.advanceTimersByTimeAsync(2_000);
        await roundTrip();
        await s.notified(Methods.libraryStatusChanged);
        await vi.advanceTimersByTimeAsync(2_000);
        await roundTrip();
        expect(watched(s)).toHaveLength(2);
      } finally {
        vi.useRealTimers();
      }

      const old = await start({ [OUTSIDE]: LIBRARY }, { libraries: [OUTSIDE] }, {}, undefined, { didChangeWatchedFiles: { dynamicRegistration: true } });
      await ready(old, 3);
      const warning = await old.notified<LogMessageParams>(LogMessageNotification.method, (p) => p.message.includes('cannot watch files outside the workspace'));
      expect(warning.message).toContain(URI.file(OUTSIDE).toString(true));
      expect(watched(old)).toEqual([WORKSPACE_GLOB]);
    });
  });

  describe('a document whose bibliography is a library', () => {
    const CLEAN = LIBRARY.replace(/@article\{broken2020,\n {2}title = \{Never closed,\n {2}year = 2020\n\n/, '');
    const DOC = URI.file('/ws/lib/paper.tex').toString();
    const pull = async (s: Session) => ((await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: DOC } })) as { items: Diagnostic[] }).items.map((d) => d.message);

    it('checks the document against the library store\'s reading: the file is parsed once, and an edit of it is read where it changed', async () => {
      expect(CLEAN).not.toContain('broken2020');
      // On disk with a byte-order mark and CRLF, as some exporters write it.
      const s = await start({ [LIB]: `\uFEFF${CLEAN.replace(/\n/g, '\r\n')}` }, { citationStyle: 'apa', libraries: ['lib/zotero.bib'] });
      await s.notified<LibraryStatusParams>(Methods.libraryStatusChanged, (p) => p.files.length > 0 && p.files.every((f) => f.state === 'ready'));
      parsed.length = 0;
      s.open(DOC, 'latex', '\\bibliography{zotero}\n\\cite{smith2024mystery,nosuch2000}\n');
      expect(await pull(s)).toEqual(['Unknown citation key "nosuch2000": not in lib/zotero.bib, nor in the MLSys Papers corpus.']);

      // The library open in the editor (CRLF, no BOM there) and a key renamed: the document's check
      // follows at once, before the store's own pause after typing.
      const editor = CLEAN.replace(/\n/g, '\r\n');
      s.open(LIB_URI, 'bibtex', editor);
      await s.client.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: LIB_URI, version: 2 }, contentChanges: [{ text: editor.replace('smith2024mystery', 'smith2024enigma') }] });
      expect(await pull(s)).toEqual([
        'Unknown citation key "smith2024mystery": not in lib/zotero.bib, nor in the MLSys Papers corpus.',
        'Unknown citation key "nosuch2000": not in lib/zotero.bib, nor in the MLSys Papers corpus.',
      ]);
      expect(parsed.filter((t) => t.includes('@incollection{smith2024'))).toEqual([]);
    });

    it('with a broken entry: checked against the entries that read and the broken one\'s key (BibTeX keeps it), the error said once with its line, parsed once, not per pull (issue 20, finding 11; issue 21, cause 4; issue 28, cause 7)', async () => {
      const s = await start({ [LIB]: LIBRARY }, { citationStyle: 'apa', libraries: ['lib/zotero.bib'] });
      await s.notified<LibraryStatusParams>(Methods.libraryStatusChanged, (p) => p.files.length > 0 && p.files.every((f) => f.state === 'ready'));
      parsed.length = 0;
      s.open(DOC, 'latex', '\\bibliography{zotero}\n\\cite{smith2024mystery,proc2024}\n\\cite{broken2020}\n');
      const want = [
        'lib/zotero.bib, line 21: not closed: a "{" is still open where the next entry starts (line 22); entry broken2020 is read up to there, as BibTeX reads it (its key counts). The keys of its other entries are checked.',
      ];
      expect(await pull(s)).toEqual(want);
      expect(await pull(s)).toEqual(want);
      // The library leaves the broken entry out, so the store gives no reading of this file: the
      // service parses it as BibTeX reads it, once for its text, not on each pull.
      expect(parsed.filter((t) => t.includes('broken2020'))).toHaveLength(1);
    });
  });
});

describe('hostile CSL libraries in the language server (issue 20, finding 3)', () => {
  it('an item that contains itself, and one nested 12,000 deep: problems at their lines; search is answered', async () => {
    const yaml = 'references:\n- id: a\n  title: Alpha paper\n- &loop\n  id: loop\n  title: Loop paper\n  related: *loop\n';
    const json = `[\n{"id": "deep", "title": "Deep paper", "x": ${'['.repeat(12_000)}${']'.repeat(12_000)}},\n{"id": "b", "title": "Beta paper"}\n]`;
    const s = await start({ '/ws/lib/loop.yaml': yaml, '/ws/lib/deep.json': json }, { libraries: ['lib/loop.yaml', 'lib/deep.json'] });
    await s.notified<LibraryStatusParams>(Methods.libraryStatusChanged, (p) => p.files.length === 2 && p.files.every((f) => f.state === 'ready'));
    const found = await s.client.sendRequest<SearchResult>(Methods.search, { query: 'paper' });
    expect(found.keys).toEqual(expect.arrayContaining(['a', 'b']));
    expect(found.keys).not.toContain('loop');
    expect(found.keys).not.toContain('deep');
    for (const [file, line, message] of [['/ws/lib/loop.yaml', 4, /contains itself/], ['/ws/lib/deep.json', 1, /nested more than 100 levels deep/]] as const) {
      const uri = URI.file(file).toString();
      const d = await s.notified<PublishDiagnosticsParams>(PublishDiagnosticsNotification.method, (p) => p.uri === uri && p.diagnostics.length > 0);
      expect(d.diagnostics.map((x) => [x.range.start.line, x.message])).toEqual([[line, expect.stringMatching(message)]]);
    }
  });
});
