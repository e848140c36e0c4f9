/**
 * The language server (`src/server/server.ts`) over a real LSP connection, in-process (see
 * `serverHarness.ts`).
 */
import { describe, expect, it, vi } from 'vitest';
// The client side: `vscode-languageserver/node` re-exports `vscode-languageserver-protocol/node` and `vscode-jsonrpc/node`.
import {
  CodeActionRequest, CompletionRequest, CompletionResolveRequest, DefinitionRequest, DidChangeTextDocumentNotification, DocumentDiagnosticRequest,
  ExecuteCommandRequest, HoverRequest, PublishDiagnosticsNotification, ShutdownRequest, type CompletionItem, type CompletionList, type Diagnostic,
  type DocumentDiagnosticReport, type Hover, type MarkupContent, type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { toBibtex } from '../../src/core/cite/writeBibtex.js';
import { onReadingList } from '../../src/core/corpus/schema.js';
import type { CitePlan } from '../../src/core/service/types.js';
import { Methods, type EntriesResult, type FormatResult, type SearchResult, type TopicChildrenResult, type TopicsResult } from '../../src/server/protocol.js';
import type { Clock } from '../../src/server/server.js';
import { bundled, ROOT, start } from './serverHarness.js';

/** `kwon2023efficient` in APA (the bundled `csl/styles/apa.csl`, through citeproc-js). */
const APA_KWON = 'Kwon, W., Li, Z., Zhuang, S., Sheng, Y., Zheng, L., Yu, C. H., Gonzalez, J. E., Zhang, H., & Stoica, I. (2023). Efficient Memory Management for Large Language Model Serving with PagedAttention. Proceedings of the ACM SIGOPS 29th Symposium on Operating Systems Principles, 611–626. https://doi.org/10.1145/3600006.3613165';
/** Text as Markdown shows it as is (what `escapeMarkdown` does). */
const markdownEscaped = (t: string) => t.replace(/([\\`*_{}[\]()#+\-.!|<>])/g, '\\$1');

const MAIN = URI.file('/ws/main.tex').toString();
const REFS = URI.file('/ws/refs.bib').toString();
const SMITH = '@article{smith2021paging,\n  title = {Paging Tricks for Everyone},\n  author = {Smith, Ann},\n  year = {2021}\n}\n';
/** `\bibliography{refs}` on line 0, the citation on line 1: `\cite{pag` ends at character 9. */
const PAPER = '\\bibliography{refs}\n\\cite{pag}, \\cite{kwon2023efficient,nosuch1999}.\n';

describe('language server over LSP', () => {
  it('answers completion, resolve, hover, definition, diagnostics, code actions and the custom requests', async () => {
    const s = await start({ '/ws/refs.bib': SMITH });
    expect(s.init.capabilities.completionProvider).toEqual({ triggerCharacters: ['{', ',', '@'], resolveProvider: true });
    expect(s.init.capabilities.executeCommandProvider).toEqual({ commands: ['mlsysPapers.addToBibliography'] });
    s.open(MAIN, 'latex', PAPER);
    const doc = { uri: MAIN };

    const list = await s.client.sendRequest(CompletionRequest.type, { textDocument: doc, position: { line: 1, character: 9 } }) as CompletionList;
    expect(list.isIncomplete).toBe(true);
    expect(list.items.slice(0, 3).map((i) => i.label)).toEqual(['smith2021paging', 'kwon2023efficient', 'vllm2023vllm']);
    const kwon = list.items[1]!;
    expect(kwon.textEdit).toEqual({ newText: 'kwon2023efficient', insert: { start: { line: 1, character: 6 }, end: { line: 1, character: 9 } }, replace: { start: { line: 1, character: 6 }, end: { line: 1, character: 9 } } });

    // Resolve: the card and the APA reference, formatted by citeproc with the bundled style.
    const resolved = await s.client.sendRequest(CompletionResolveRequest.type, kwon) as CompletionItem;
    const doc1 = (resolved.documentation as MarkupContent).value;
    expect(doc1.startsWith('**Efficient Memory Management for Large Language Model Serving with PagedAttention**')).toBe(true);
    const [, reference, more] = doc1.split('\n\n---\n\n');
    expect(reference).toBe(markdownEscaped(APA_KWON));
    expect(more).toBeUndefined();

    const hover = await s.client.sendRequest(HoverRequest.type, { textDocument: doc, position: { line: 1, character: 20 } }) as Hover;
    expect(hover.range).toEqual({ start: { line: 1, character: 18 }, end: { line: 1, character: 35 } });
    const hoverText = (hover.contents as MarkupContent).value;
    expect(hoverText.startsWith('**Efficient Memory Management')).toBe(true);
    expect(hoverText.endsWith('\n\n---\n\n✗ not in refs\\.bib')).toBe(true);
    expect(hoverText).toContain('Kwon, W\\.');

    // This client is not VS Code (no clientCommands): no `mlsys-papers:` document it could not open.
    expect(await s.client.sendRequest(DefinitionRequest.type, { textDocument: doc, position: { line: 1, character: 20 } })).toBeNull();
    expect(await s.client.sendRequest(Methods.entryDocument, { uri: 'mlsys-papers:/kwon2023efficient.bib' })).toContain('@inproceedings{kwon2023efficient,\n');

    const report = await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: doc }) as DocumentDiagnosticReport;
    expect(report.kind).toBe('full');
    const items = (report as { items: Diagnostic[] }).items;
    expect(items).toEqual([
      {
        range: { start: { line: 1, character: 6 }, end: { line: 1, character: 9 } }, severity: 2, source: 'MLSys Papers', code: 'unknown-key',
        message: 'Unknown citation key "pag": not in refs.bib, nor in the MLSys Papers corpus.',
      },
      {
        range: { start: { line: 1, character: 18 }, end: { line: 1, character: 35 } }, severity: 2, source: 'MLSys Papers', code: 'not-in-bibliography',
        message: '"kwon2023efficient" is in the MLSys Papers corpus but not in refs.bib.',
      },
      {
        range: { start: { line: 1, character: 36 }, end: { line: 1, character: 46 } }, severity: 2, source: 'MLSys Papers', code: 'unknown-key',
        message: 'Unknown citation key "nosuch1999": not in refs.bib, nor in the MLSys Papers corpus.',
      },
    ]);
    const actions = await s.client.sendRequest(CodeActionRequest.type, { textDocument: doc, range: items[1]!.range, context: { diagnostics: items.slice(1) } });
    expect(actions!.map((a) => ('command' in a && typeof a.command === 'object' ? [a.title, a.command.command, a.command.arguments] : a.title))).toEqual([
      ['Add kwon2023efficient to the bibliography', 'mlsysPapers.addToBibliography', [MAIN, 'kwon2023efficient']],
    ]);

    const search = await s.client.sendRequest(Methods.search, { query: 'paged attention' }) as SearchResult;
    expect(search.keys.slice(0, 3)).toContain('kwon2023efficient');
    expect(search.invalid).toEqual([]);
    expect((await s.client.sendRequest(Methods.search, { query: 'paged attention', limit: 2 }) as SearchResult).keys).toHaveLength(2);

    const formatted = await s.client.sendRequest(Methods.format, { keys: ['kwon2023efficient', 'nosuch1999'], scope: MAIN }) as FormatResult;
    expect('references' in formatted && formatted.references).toHaveLength(1);
    const ref = (formatted as { references: string[] }).references[0]!;
    expect(ref).toBe(APA_KWON);

    // Citing at `\cite{pag` (the partial key is replaced) adds the entry to refs.bib, planned on its bytes.
    const plan = await s.client.sendRequest(Methods.planCitation, { uri: MAIN, position: { line: 1, character: 9 }, keys: ['kwon2023efficient'] }) as CitePlan;
    expect(plan.version).toBe(1);
    expect(plan.edit).toEqual({ offset: 26, length: 3, text: 'kwon2023efficient' });
    expect(plan.added).toEqual(['kwon2023efficient']);
    expect(plan.bibliography).toMatchObject({ kind: 'insert', uri: REFS, keys: ['kwon2023efficient'], disk: { offset: SMITH.length, length: SMITH.length, editorSafe: true } });
    const [kwonEntry] = (await s.client.sendRequest(Methods.entries, { keys: ['KWON2023efficient', 'nosuchkey'] }) as EntriesResult).entries;
    expect(kwonEntry!.key).toBe('kwon2023efficient');
    expect((plan.bibliography as { disk: { text: string } }).disk.text).toBe(`\n${toBibtex(kwonEntry!)}`);
    const all = await s.client.sendRequest(Methods.entries, { keys: bundled.entries.map((e) => e.key) }) as EntriesResult;
    expect(all.entries).toHaveLength(bundled.entries.length);
    // The taxonomy, without entries, is what a client holds.
    expect((await s.client.sendRequest(Methods.topics) as TopicsResult).topics.map((t) => t.id)).toEqual(bundled.topics.map((t) => t.id));

    expect(await s.client.sendRequest(ShutdownRequest.type)).toBeNull();
  });

  it('follows document changes, and adds to the bibliography through workspace/applyEdit for other editors', async () => {
    const s = await start({ '/ws/refs.bib': SMITH });
    s.open(MAIN, 'latex', PAPER);
    await s.client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: MAIN, version: 2 },
      contentChanges: [{ range: { start: { line: 1, character: 36 }, end: { line: 1, character: 46 } }, text: 'smith2021paging' }],
    });
    const report = await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: MAIN } }) as { items: Diagnostic[] };
    // `nosuch1999` became `smith2021paging`, which refs.bib has.
    expect(report.items.map((d) => d.message)).toEqual([
      'Unknown citation key "pag": not in refs.bib, nor in the MLSys Papers corpus.',
      '"kwon2023efficient" is in the MLSys Papers corpus but not in refs.bib.',
    ]);
    await s.client.sendRequest(ExecuteCommandRequest.type, { command: 'mlsysPapers.addToBibliography', arguments: [MAIN, 'kwon2023efficient'] });
    expect(s.edits).toHaveLength(1);
    expect(s.edits[0]!.label).toBe('Add kwon2023efficient to the bibliography');
    const kwonBib = toBibtex(bundled.entries.find((e) => e.key === 'kwon2023efficient')!);
    // refs.bib is closed: the edit is planned on its text on disk, at its end (line 5, after the last LF).
    expect(s.edits[0]!.edit).toEqual({ changes: { [REFS]: [{ range: { start: { line: 5, character: 0 }, end: { line: 5, character: 0 } }, newText: `\n${kwonBib}` }] } });

    // The same plans through the custom requests.
    expect(await s.client.sendRequest(Methods.planBibliography, { uri: MAIN, keys: ['kwon2023efficient'] })).toMatchObject({
      reused: [], bibliography: { kind: 'insert', uri: REFS, keys: ['kwon2023efficient'], disk: { offset: SMITH.length, text: `\n${kwonBib}` } },
    });
    const fresh = URI.file('/ws/references.bib').toString();
    expect(await s.client.sendRequest(Methods.planInsertion, { uri: fresh, keys: ['kwon2023efficient'] }))
      .toEqual({ kind: 'create', uri: fresh, text: kwonBib, keys: ['kwon2023efficient'] });
    expect(await s.client.sendRequest(Methods.planInsertion, { uri: URI.file('/elsewhere/refs.bib').toString(), keys: ['kwon2023efficient'] }))
      .toMatchObject({ kind: 'refuse', reason: 'outside-workspace', keys: [] });
  });

  it('answers a request that arrives before its document\'s didOpen, and refuses one whose document never opens', async () => {
    const s = await start({ '/ws/refs.bib': SMITH });
    // VS Code's client, started by the command that asks, sends the request before the didOpen.
    const keys = s.client.sendRequest(Methods.citedKeys, { uri: MAIN });
    const plan = s.client.sendRequest<CitePlan>(Methods.planCitation, { uri: MAIN, position: { line: 1, character: 9 }, keys: ['kwon2023efficient'] });
    s.open(MAIN, 'latex', PAPER);
    expect(await keys).toEqual(['pag', 'kwon2023efficient', 'nosuch1999']);
    expect((await plan).edit).toEqual({ offset: 26, length: 3, text: 'kwon2023efficient' });

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const closed = URI.file('/ws/closed.tex').toString();
      const refused = s.client.sendRequest(Methods.planCitation, { uri: closed, position: { line: 0, character: 0 }, keys: [] });
      const none = s.client.sendRequest(Methods.citedKeys, { uri: closed });
      const settled = expect(refused).rejects.toThrow('file:///ws/closed.tex is not open');
      await s.client.sendRequest(HoverRequest.type, { textDocument: { uri: MAIN }, position: { line: 0, character: 0 } });
      await vi.advanceTimersByTimeAsync(5_000);
      await settled;
      expect(await none).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs its timers on the clock the host gives: a request for a document that never opens is refused at 5 s of that clock', async () => {
    // A clock the test moves by hand; the global timers are left alone.
    let now = 0;
    let next = 0;
    const timers = new Map<number, { at: number; run: () => void }>();
    const clock: Clock = {
      now: () => now,
      setTimeout: (run, ms) => { timers.set(++next, { at: now + ms, run }); return next; },
      clearTimeout: (id) => { timers.delete(id as number); },
    };
    const advance = (ms: number) => {
      now += ms;
      for (const [id, t] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at > now || !timers.has(id)) continue;
        timers.delete(id);
        t.run();
      }
    };
    const s = await start({}, undefined, { clock });
    const roundTrip = () => s.client.sendRequest(HoverRequest.type, { textDocument: { uri: MAIN }, position: { line: 0, character: 0 } });
    const closed = URI.file('/ws/closed.tex').toString();
    let refused = false;
    const plan = s.client.sendRequest(Methods.planCitation, { uri: closed, position: { line: 0, character: 0 }, keys: [] });
    const settled = expect(plan.finally(() => { refused = true; })).rejects.toThrow('file:///ws/closed.tex is not open');
    await roundTrip();
    advance(4_999);
    await roundTrip();
    expect(refused).toBe(false);
    advance(1);
    await settled;
  });

  it('asks a pulling client to refresh when no pull follows a change of a citing document, and not when one does', async () => {
    // The whole session runs on fake timers (the server's clock is the global one): no wait is a sleep.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const s = await start({ '/ws/refs.bib': SMITH }, undefined, {}, undefined, { diagnostics: { refreshSupport: true } });
      // Messages are handled in order both ways: once a hover is answered, the server has read what
      // was sent before it, and the client has handled every request the server sent before the answer.
      const roundTrip = () => s.client.sendRequest(HoverRequest.type, { textDocument: { uri: MAIN }, position: { line: 0, character: 0 } });
      const wait = async (ms: number) => { await roundTrip(); await vi.advanceTimersByTimeAsync(ms); await roundTrip(); };
      const change = (uri: string, version: number) => s.client.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version }, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'x' }],
      });
      s.open(MAIN, 'latex', PAPER);
      await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: MAIN } });
      // The document's bibliography joins the libraries (after 200 ms), whose load ends in a refresh of its own (200 ms later).
      const loaded = s.notified(Methods.librariesChanged);
      await wait(1_000);
      await loaded;
      await wait(1_000);
      const before = s.refreshes();
      expect(before).toBeGreaterThan(0);
      // Pulled after each change, as VS Code's client does: nothing to ask.
      await change(MAIN, 2);
      await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: MAIN } });
      await wait(5_000);
      expect(s.refreshes()).toBe(before);
      // A change no pull follows (the client lost track of the document): one refresh, then quiet.
      await change(MAIN, 3);
      await wait(5_000);
      expect(s.refreshes()).toBe(before + 1);
      await wait(10_000);
      expect(s.refreshes()).toBe(before + 1);
      // A document the client does not pull for (not a citing language) is not watched.
      const notes = URI.file('/ws/notes.txt').toString();
      s.open(notes, 'plaintext', 'notes');
      await change(notes, 2);
      await wait(5_000);
      expect(s.refreshes()).toBe(before + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('marks read entries in the cards after mlsysPapers/readState', async () => {
    const s = await start({});
    s.open(MAIN, 'latex', '\\cite{kwon2023efficient}\n');
    const card = async () => ((await s.client.sendRequest(HoverRequest.type, { textDocument: { uri: MAIN }, position: { line: 0, character: 8 } }) as Hover).contents as MarkupContent).value;
    expect(await card()).not.toContain('✓ read');
    await s.client.sendNotification(Methods.readState, { keys: ['KWON2023EFFICIENT'] });
    expect(await card()).toContain(' · ✓ read · `kwon2023efficient`');
  });

  it('formats a reference once per style: hovers and completion resolves of the same key reuse it', async () => {
    const s = await start({});
    s.open(MAIN, 'latex', '\\cite{kwon2023efficient}\n');
    const card = async () => ((await s.client.sendRequest(HoverRequest.type, { textDocument: { uri: MAIN }, position: { line: 0, character: 8 } }) as Hover).contents as MarkupContent).value;
    const first = await card();
    expect(first).toContain(markdownEscaped(APA_KWON));
    expect(s.cslLoads()).toBe(1);
    expect(await card()).toBe(first);
    const resolved = await s.client.sendRequest(CompletionResolveRequest.type, { label: 'kwon2023efficient', data: { key: 'kwon2023efficient', uri: MAIN } }) as CompletionItem;
    expect((resolved.documentation as MarkupContent).value).toContain(markdownEscaped(APA_KWON));
    expect(s.cslLoads()).toBe(1);
    // Several entries together are formatted each time (a numeric style numbers them among each other).
    await s.client.sendRequest(Methods.format, { keys: ['kwon2023efficient', 'yu2022orca'], scope: MAIN });
    expect(s.cslLoads()).toBe(2);
  });

  it('reports a CSL style it cannot use through mlsysPapers/format, and shows cards without a reference', async () => {
    const s = await start({}, { citationStyle: 'styles/mine.csl' });
    const why = 'MLSys Papers: cannot read the CSL style "styles/mine.csl" (setting mlsysPapers.citationStyle)';
    const formatted = await s.client.sendRequest(Methods.format, { keys: ['kwon2023efficient'] }) as FormatResult;
    expect(formatted).toEqual({ error: why });
    expect(s.reads).toContain(URI.file('/ws/styles/mine.csl').toString());
    s.open(MAIN, 'latex', '\\cite{pag}\n');
    const list = await s.client.sendRequest(CompletionRequest.type, { textDocument: { uri: MAIN }, position: { line: 0, character: 9 } }) as CompletionList;
    const resolved = await s.client.sendRequest(CompletionResolveRequest.type, list.items[0]!) as CompletionItem;
    const md = (resolved.documentation as MarkupContent).value;
    expect(md.startsWith('**Efficient Memory Management')).toBe(true);
    expect(md).not.toContain('---');
    const logged = await s.notified<{ type: number; message: string }>('window/logMessage', (m) => m.message.startsWith('formatting kwon2023efficient'));
    expect(logged).toEqual({ type: 2, message: `formatting kwon2023efficient for a hover: ${why}` });
  });

  it('refuses a CSL file outside the workspace named by the workspace settings', async () => {
    const s = await start({ '/elsewhere/mine.csl': '<style/>' }, { citationStyle: '/elsewhere/mine.csl', __fromWorkspace: ['citationStyle'] });
    const formatted = await s.client.sendRequest(Methods.format, { keys: ['kwon2023efficient'] }) as FormatResult;
    expect('error' in formatted && formatted.error).toMatch(/^MLSys Papers: the CSL style "\/elsewhere\/mine.csl" named by the workspace settings \(mlsysPapers.citationStyle\) is outside the workspace folders/);
    expect(s.reads).not.toContain(URI.file('/elsewhere/mine.csl').toString());
  });
});

/** A corpus entry file of the user's: one entry in the corpus's YAML schema (key on line 1). */
const MINE = `- key: mine2024paging
  type: misc
  kind: paper
  title: "Notes on Paged Key-Value Caches"
  authors:
    - {given: Ann, family: Smith}
  year: 2024
  venue: arXiv
  topics: [serving.memory]
  level: optional
  aliases: []
  summary: "Our own notes on paging the KV cache."
  sources: [curated]
  seed_urls: []
  verified: ["https://example.org/notes"]
`;

describe('corpusFiles', () => {
  it("adds the user's entries to the corpus, and publishes the problems of a broken file on their line", async () => {
    // Line 7 of the broken file is `  year: soon`.
    const broken = MINE.replace('mine2024paging', 'broken2024entry').replace('year: 2024', 'year: soon');
    expect(broken.split('\n')[6]).toBe('  year: soon');
    const s = await start({ '/ws/mine.yaml': MINE, '/ws/broken.yaml': broken }, { corpusFiles: ['mine.yaml', 'broken.yaml'] });
    const changed = await s.notified<{ version: number }>(Methods.corpusChanged);
    expect((await s.client.sendRequest(Methods.topics) as TopicsResult).version).toBe(changed.version);
    const found = await s.client.sendRequest(Methods.entries, { keys: ['mine2024paging', 'broken2024entry'] }) as EntriesResult;
    expect(found.entries.map((e) => e.key)).toEqual(['mine2024paging']);
    // Listed under its topic in the Topics view, with the topic's count.
    const rows = (await s.client.sendRequest(Methods.topicChildren, { parent: { topic: 'serving' }, scope: 'readingList', levels: ['must-read', 'optional', 'advanced'] }) as TopicChildrenResult).nodes;
    const memory = rows.find((n) => n.kind === 'topic' && n.topic.id === 'serving.memory');
    const under = (await s.client.sendRequest(Methods.topicChildren, { parent: { topic: 'serving.memory' }, scope: 'readingList', levels: ['optional'] }) as TopicChildrenResult).nodes;
    expect(under.flatMap((n) => (n.kind === 'entry' ? [n.entry.key] : []))).toContain('mine2024paging');
    // The reading list's count (the user's entry is one of it: `sources: [curated]`); in this scope, no "more".
    expect(memory).toMatchObject({ kind: 'topic', readingList: bundled.entries.filter((e) => onReadingList(e) && e.topics.includes('serving.memory')).length + 1, read: 0, more: 0 });

    const published = await s.notified<PublishDiagnosticsParams>(PublishDiagnosticsNotification.type.method);
    expect(published.uri).toBe(URI.file('/ws/broken.yaml').toString());
    expect(published.diagnostics.map((d) => [d.range.start.line, d.severity, d.source])).toEqual([[6, 1, 'MLSys Papers']]);
    expect(published.diagnostics[0]!.message.startsWith('[0].year: ')).toBe(true);
    expect(s.notifications.filter((n) => n.method === PublishDiagnosticsNotification.type.method && (n.params as PublishDiagnosticsParams).uri.endsWith('.yaml')))
      .toHaveLength(1);

    // The new entry is searched and completed like the bundled ones.
    expect((await s.client.sendRequest(Methods.search, { query: 'paged key-value caches notes' }) as SearchResult).keys[0]).toBe('mine2024paging');
    s.open(MAIN, 'latex', '\\cite{mine2024}\n');
    const list = await s.client.sendRequest(CompletionRequest.type, { textDocument: { uri: MAIN }, position: { line: 0, character: 14 } }) as CompletionList;
    expect(list.items[0]!.label).toBe('mine2024paging');
  });

  it('does not read a file outside the workspace named by the workspace settings', async () => {
    const files = { '/ws/mine.yaml': MINE, '/elsewhere/theirs.yaml': MINE.replace('mine2024paging', 'theirs2024paging') };
    const corpusFiles = ['mine.yaml', '/elsewhere/theirs.yaml'];
    const restricted = await start(files, { corpusFiles, __fromWorkspace: ['corpusFiles'] });
    await restricted.notified(Methods.corpusChanged);
    const keys = (await restricted.client.sendRequest(Methods.entries, { keys: ['mine2024paging', 'theirs2024paging'] }) as EntriesResult).entries.map((e) => e.key);
    expect(keys).toEqual(['mine2024paging']);
    expect(restricted.reads).toContain(URI.file('/ws/mine.yaml').toString());
    expect(restricted.reads).not.toContain(URI.file('/elsewhere/theirs.yaml').toString());
    expect(restricted.messages.map((m) => [m.type, m.message])).toEqual([[2,
      'MLSys Papers: the workspace settings name corpus files outside the workspace (/elsewhere/theirs.yaml); they were not read. Name them in your user settings to use them.']]);

    // From the user's settings, the same file is read.
    const user = await start(files, { corpusFiles });
    await user.notified(Methods.corpusChanged);
    const userKeys = (await user.client.sendRequest(Methods.entries, { keys: ['theirs2024paging'] }) as EntriesResult).entries.map((e) => e.key);
    expect(userKeys).toEqual(['theirs2024paging']);
    expect(user.messages).toEqual([]);
  });
});
