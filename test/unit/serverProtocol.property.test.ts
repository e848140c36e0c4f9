/**
 * Fuzzing the language server over LSP (in process, `serverHarness.ts`): random sequences of
 * requests (valid and malformed parameters, standard and `mlsysPapers/*`), document opens, edits
 * and closes, and watched-file changes that rewrite the libraries, against hostile libraries (a CSL
 * item that contains itself, CSL nested 12,000 deep, a huge field, broken BibTeX, control
 * characters and backticks in keys). It holds, per case:
 *
 * - every request is answered: each one sent is counted, and each gets a result or an error; the
 *   server never logs "Sending response failed." (what `vscode-jsonrpc` does when a result cannot
 *   be written, and the request then is never answered);
 * - an error is one of the codes the server's edge gives (`InvalidParams`, `RequestFailed`,
 *   `MethodNotFound` for a method it does not have), with a one-line message;
 * - no answer carries a stack trace;
 * - the server stays up: a last request after the case is answered.
 *
 * No assertion is about time: a request that is never answered fails the test by its timeout,
 * after the "Sending response failed." check has named the usual cause. `FUZZ_RUNS` cases (300 by
 * default, 10,000 in `npm run fuzz`), seed `FUZZ_SEED`.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CodeActionRequest, CompletionRequest, CompletionResolveRequest, DefinitionRequest, DidChangeTextDocumentNotification, DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification, DidOpenTextDocumentNotification, DocumentDiagnosticRequest, ErrorCodes, ExecuteCommandRequest, FileChangeType, HoverRequest,
  LogMessageNotification, LSPErrorCodes, ResponseError, ShutdownRequest, type LogMessageParams,
} from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { Methods, type LibraryStatusParams } from '../../src/server/protocol.js';
import { NUM_RUNS, SEED, TEST_TIMEOUT_MS } from './fuzz/harness.js';
import { connectOnly, start, type Session } from './serverHarness.js';

// --- Hostile libraries ---

const ESC = '\u001b';
/** A CSL-YAML item that contains itself through an alias. */
const SELF_ALIAS = '- &item\n  id: loop2024\n  type: article-journal\n  title: A loop that holds itself\n  note: *item\n';
/** A CSL-JSON item nested `n` levels deep in one of its fields. */
const deepJson = (n: number) => `[{"id":"deep${n}","type":"book","title":"Deep ${n}","note":${'['.repeat(n)}"x"${']'.repeat(n)}}]`;
/** A CSL-YAML item nested `n` levels deep (flow sequences). */
const deepYaml = (n: number) => `- id: deepy\n  title: Deep YAML\n  note: ${'['.repeat(n)}x${']'.repeat(n)}\n`;
const HUGE = (n: number) => `@misc{huge2024,\n  title = {${'Huge field '.repeat(n)}},\n  year = {2024},\n}\n`;
const CONTROL_BIB = [
  `@misc{esc${ESC}[2J2024,\n  title = {Clear ${ESC}]0;pwned\u0007 screen \u0000 nul \u009b C1},\n  author = {Mallory, ${ESC}[31mEve},\n  year = {2024},\n}`,
  '@misc{a`[x](command:workbench.action.terminal.new)`b,\n  title = {Backticks},\n}',
  '@misc{html2024,\n  title = {<img src=x onerror=alert(1)><script>alert(2)</script>},\n  url = {javascript:alert(3)},\n}',
].join('\n\n') + '\n';
const BROKEN_BIB = '@string{a = a # a}\n@article{open,\n  title = {never closed\n@article{x, title = }}}\n@@@\n@comment{\n@string{__proto__ = {p}}\n@misc{p, title = __proto__}\n';

/** The library files, their first texts, and what a watched-file change may replace them with. */
const LIBS: Record<string, string> = {
  '/ws/lib/loop.yaml': SELF_ALIAS,
  '/ws/lib/deep.json': deepJson(12_000),
  '/ws/lib/deep.yaml': deepYaml(200),
  '/ws/lib/huge.bib': HUGE(50_000),
  '/ws/lib/control.bib': CONTROL_BIB,
  '/ws/lib/broken.bib': BROKEN_BIB,
};
const LIB_PATHS = Object.keys(LIBS);
const libUri = (path: string) => URI.file(path).toString();

/** Texts a library may change to: the hostile ones, mutations of them, and random text. */
const libraryText = fc.oneof(
  fc.constantFrom(SELF_ALIAS, CONTROL_BIB, BROKEN_BIB, deepJson(3_000), deepYaml(150), '', '\uFEFF', '[', '- *a\n', '{"id": {"id": 1}}', '[{"id": ""}, {"id": "   "}]'),
  fc.tuple(fc.constantFrom(SELF_ALIAS, CONTROL_BIB, BROKEN_BIB, HUGE(10)), fc.nat(400), fc.string({ unit: 'binary', maxLength: 20 }))
    .map(([t, at, junk]) => t.slice(0, at % (t.length + 1)) + junk + t.slice(at % (t.length + 1))),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

// --- Documents ---

const DOCS = {
  tex: URI.file('/ws/a.tex').toString(),
  md: URI.file('/ws/b.md').toString(),
  bib: libUri('/ws/lib/control.bib'),
};
type DocName = keyof typeof DOCS;
const LANG: Record<DocName, string> = { tex: 'latex', md: 'markdown', bib: 'bibtex' };

const KEYS = ['kwon2023efficient', 'loop2024', 'deep12000', `esc${ESC}[2J2024`, 'a`[x](command:workbench.action.terminal.new)`b', 'html2024', 'huge2024', 'nosuch', ''];
const hostileString = fc.oneof(fc.constantFrom(...KEYS), fc.string({ unit: 'binary', maxLength: 30 }));
const docText = fc.oneof(
  fc.constantFrom(
    '\\bibliography{lib/loop.yaml,lib/control,lib/broken}\n\\cite{loop2024} \\cite{kwon',
    '---\nbibliography: [lib/loop.yaml, lib/deep.json, lib/huge.bib]\n---\nSee [@loop2024; @deep12000] and @huge2024.\n',
    `\\bibliography{lib/control}\n\\cite{esc${ESC}[2J2024,a\`[x](command:workbench.action.terminal.new)\`b}\n`,
    CONTROL_BIB,
  ),
  fc.tuple(fc.constantFrom('\\cite{', '[@', '\\bibliography{', '@misc{'), hostileString, fc.string({ unit: 'binary', maxLength: 40 })).map(([a, b, c]) => a + b + c),
);
const position = fc.record({ line: fc.nat(6), character: fc.nat(80) });
const range = fc.tuple(position, position).map(([start, end]) => ({ start, end }));

// --- Actions ---

type Action =
  | { kind: 'open'; doc: DocName; text: string }
  | { kind: 'change'; doc: DocName; text: string; range?: { start: { line: number; character: number }; end: { line: number; character: number } } }
  | { kind: 'close'; doc: DocName }
  | { kind: 'fileChanged'; path: string; text: string; type: 1 | 2 | 3 }
  | { kind: 'request'; method: string; params: unknown; needsOpen?: DocName }
  | { kind: 'notify'; method: string; params: unknown };

const docName = fc.constantFrom<DocName>('tex', 'md', 'bib');
const keysArb = fc.array(hostileString, { maxLength: 4 });
const lspPosition = (doc: DocName) => position.map((p) => ({ textDocument: { uri: DOCS[doc] }, position: p }));

/** Requests with valid parameters; those naming a document are sent only while it is open (else the server waits for its didOpen). */
const validRequest: fc.Arbitrary<Action> = fc.oneof(
  docName.chain((d) => fc.constantFrom(CompletionRequest.method, HoverRequest.method, DefinitionRequest.method).chain((m) => lspPosition(d).map((params) => ({ kind: 'request' as const, method: m, params })))),
  docName.map((d) => ({ kind: 'request' as const, method: DocumentDiagnosticRequest.method, params: { textDocument: { uri: DOCS[d] } } })),
  fc.tuple(docName, range, fc.constantFrom('unknown-key', 'not-in-bibliography', 'other')).map(([d, r, code]) => ({
    kind: 'request' as const, method: CodeActionRequest.method,
    params: { textDocument: { uri: DOCS[d] }, range: r, context: { diagnostics: [{ range: r, message: 'm', source: 'MLSys Papers', code }] } },
  })),
  fc.tuple(hostileString, docName).map(([key, d]) => ({ kind: 'request' as const, method: CompletionResolveRequest.method, params: { label: key, data: { key, uri: DOCS[d] } } })),
  fc.tuple(hostileString, fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined })).map(([query, limit]) => ({ kind: 'request' as const, method: Methods.search, params: { query, limit } })),
  hostileString.map((key) => ({ kind: 'request' as const, method: Methods.entry, params: { key } })),
  fc.constant({ kind: 'request' as const, method: Methods.libraryStatus, params: undefined }),
  fc.constantFrom(...LIB_PATHS).map((p) => ({ kind: 'request' as const, method: Methods.libraryGroups, params: { uri: libUri(p) } })),
  fc.tuple(fc.constantFrom(...LIB_PATHS), fc.oneof(fc.constant('\u0000none'), hostileString)).map(([p, group]) => ({ kind: 'request' as const, method: Methods.libraryEntries, params: { uri: libUri(p), group } })),
  hostileString.map((k) => ({ kind: 'request' as const, method: Methods.entryDocument, params: { uri: `mlsys-papers:/${encodeURIComponent(k)}.bib` } })),
  fc.tuple(docName, position, keysArb).map(([d, p, keys]) => ({ kind: 'request' as const, method: Methods.planCitation, params: { uri: DOCS[d], position: p, keys }, needsOpen: d })),
  fc.tuple(docName, keysArb).map(([d, keys]) => ({ kind: 'request' as const, method: Methods.planBibliography, params: { uri: DOCS[d], keys }, needsOpen: d })),
  fc.tuple(docName, fc.constantFrom('refs.bib', 'lib/control.bib', '../outside.bib', 'a\nb.bib')).map(([d, file]) => ({ kind: 'request' as const, method: Methods.planDeclaration, params: { uri: DOCS[d], file }, needsOpen: d })),
  docName.map((d) => ({ kind: 'request' as const, method: Methods.citedKeys, params: { uri: DOCS[d] }, needsOpen: d })),
  fc.tuple(fc.constantFrom('/ws/refs.bib', ...LIB_PATHS), keysArb).map(([p, keys]) => ({ kind: 'request' as const, method: Methods.planInsertion, params: { uri: libUri(p), keys } })),
  keysArb.map((keys) => ({ kind: 'request' as const, method: Methods.format, params: { keys } })),
  fc.tuple(docName, hostileString).map(([d, key]) => ({ kind: 'request' as const, method: ExecuteCommandRequest.method, params: { command: 'mlsysPapers.addToBibliography', arguments: [DOCS[d], key] } })),
  // The preview's text: citations of every form around the hostile keys, and random text.
  fc.tuple(docName, fc.array(fc.oneof(hostileString.map((k) => `[see @${k}, p. 3; -@{${k}}] @${k} [@${k}]`), fc.constantFrom('::: {#refs}\n', ':::\n', '---\nbibliography: lib/control.bib\nnocite: "@*"\n---\n', '\n\n', '`'), fc.string({ unit: 'binary', maxLength: 40 })), { maxLength: 12 }))
    .map(([d, parts]) => ({ kind: 'request' as const, method: Methods.previewCitations, params: { uri: DOCS[d], languageId: LANG[d], text: parts.join(' ') } })),
  fc.tuple(hostileString, fc.option(docName, { nil: undefined })).map(([key, d]) => ({ kind: 'request' as const, method: Methods.planNote, params: { key, ...(d ? { scope: DOCS[d] } : {}) } })),
);

const REQUEST_METHODS = [
  CompletionRequest.method, CompletionResolveRequest.method, HoverRequest.method, DefinitionRequest.method, DocumentDiagnosticRequest.method, CodeActionRequest.method,
  ExecuteCommandRequest.method, Methods.search, Methods.entry, Methods.libraryGroups, Methods.libraryEntries, Methods.entryDocument, Methods.planCitation,
  Methods.planBibliography, Methods.planDeclaration, Methods.citedKeys, Methods.planInsertion, Methods.format, Methods.previewCitations, Methods.planNote, 'mlsysPapers/noSuchMethod',
];
const NOTIFICATION_METHODS = [
  DidOpenTextDocumentNotification.method, DidChangeTextDocumentNotification.method, DidCloseTextDocumentNotification.method,
  DidChangeWatchedFilesNotification.method, 'workspace/didChangeConfiguration', 'workspace/didChangeWorkspaceFolders', Methods.readState,
];
/** Parameters of the wrong shape: anything JSON can carry, and near misses of the real shapes. */
const badParams = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, [], [1, 2], { textDocument: { uri: 5 } }, { textDocument: { uri: 'a b:c' }, position: { line: -1, character: 0 } },
    { query: { toString: 1 } }, { keys: 'x' }, { position: { line: 1.5, character: 0 }, keys: [] }, { contentChanges: [{ text: 5 }] }),
);
const malformed: fc.Arbitrary<Action> = fc.oneof(
  fc.tuple(fc.constantFrom(...REQUEST_METHODS), badParams).map(([method, params]) => ({ kind: 'request' as const, method, params })),
  fc.tuple(fc.constantFrom(...NOTIFICATION_METHODS), badParams).map(([method, params]) => ({ kind: 'notify' as const, method, params })),
);

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: fc.tuple(docName, docText).map(([doc, text]) => ({ kind: 'open' as const, doc, text })) },
  { weight: 2, arbitrary: fc.tuple(docName, docText, fc.option(range, { nil: undefined })).map(([doc, text, r]) => ({ kind: 'change' as const, doc, text, range: r })) },
  { weight: 1, arbitrary: docName.map((doc) => ({ kind: 'close' as const, doc })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...LIB_PATHS), libraryText, fc.constantFrom<1 | 2 | 3>(1, 2, 3)).map(([path, text, type]) => ({ kind: 'fileChanged' as const, path, text, type })) },
  { weight: 6, arbitrary: validRequest },
  { weight: 3, arbitrary: malformed },
);

// --- Checks ---

/** A V8 stack frame: `at f (file:///x.js:1:2)`, `at /x.ts:1:2`, `at node:internal/...`. */
const STACK_FRAME = /\bat (?:[^\n()]*\()?(?:file:|node:|\/|[A-Za-z]:\\)[^\n)]*:\d+:\d+\)?/;
/** Codes the server's edge answers with; `MethodNotFound` from vscode-jsonrpc for a method the server has not. */
const ERROR_CODES = new Set<number>([ErrorCodes.InvalidParams, LSPErrorCodes.RequestFailed, ErrorCodes.MethodNotFound]);

/** Counts over the run, printed at the end. */
const counts = { cases: 0, sent: 0, answered: 0, results: 0, errors: new Map<number, number>(), notifications: 0 };
afterAll(() => {
  const errors = [...counts.errors].map(([c, n]) => `${c}: ${n}`).join(', ');
  console.log(`[fuzz] server protocol: ${counts.cases} cases, ${counts.sent} requests sent, ${counts.answered} answered (${counts.results} results; errors ${errors || 'none'}), ${counts.sent - counts.answered} unanswered, ${counts.notifications} notifications`);
});

/** Fails with the method and why, for an answer that breaks the property. */
function checkAnswer(method: string, answer: { result: unknown } | { error: unknown }): void {
  if ('error' in answer) {
    const e = answer.error;
    if (!(e instanceof ResponseError)) throw new Error(`${method}: not a response error: ${String(e)}`);
    counts.errors.set(e.code, (counts.errors.get(e.code) ?? 0) + 1);
    if (!ERROR_CODES.has(e.code)) throw new Error(`${method}: error code ${e.code}: ${e.message}`);
    if (!e.message || e.message.includes('\n')) throw new Error(`${method}: the error's message is not one line: ${JSON.stringify(e.message)}`);
    if (STACK_FRAME.test(e.message) || STACK_FRAME.test(JSON.stringify(e.data ?? null))) throw new Error(`${method}: a stack trace in the error: ${e.message}`);
  } else {
    counts.results++;
    const text = JSON.stringify(answer.result ?? null);
    if (STACK_FRAME.test(text)) throw new Error(`${method}: a stack trace in the result: ${text.slice(0, 500)}`);
  }
}

/** Runs one case's actions on the session; resolves when every request it sent is answered. */
async function runCase(s: Session, actions: readonly Action[]): Promise<void> {
  const open = new Map<DocName, number>();
  const answers: Promise<void>[] = [];
  const send = (method: string, params: unknown) => {
    counts.sent++;
    const p = params === undefined ? s.client.sendRequest(method) : s.client.sendRequest(method, params);
    answers.push(p.then((result) => ({ result }), (error: unknown) => ({ error })).then((a) => { counts.answered++; checkAnswer(method, a); }));
  };
  const notify = (method: string, params: unknown) => { counts.notifications++; void s.client.sendNotification(method, params); };
  for (const a of actions) {
    switch (a.kind) {
      case 'open':
        if (open.has(a.doc)) break;
        open.set(a.doc, 1);
        notify(DidOpenTextDocumentNotification.method, { textDocument: { uri: DOCS[a.doc], languageId: LANG[a.doc], version: 1, text: a.text } });
        break;
      case 'change': {
        const v = open.get(a.doc);
        if (v === undefined) break;
        open.set(a.doc, v + 1);
        notify(DidChangeTextDocumentNotification.method, { textDocument: { uri: DOCS[a.doc], version: v + 1 }, contentChanges: [a.range ? { range: a.range, text: a.text } : { text: a.text }] });
        break;
      }
      case 'close':
        if (!open.delete(a.doc)) break;
        notify(DidCloseTextDocumentNotification.method, { textDocument: { uri: DOCS[a.doc] } });
        break;
      case 'fileChanged':
        s.write(a.path, a.text);
        notify(DidChangeWatchedFilesNotification.method, { changes: [{ uri: libUri(a.path), type: a.type }] });
        break;
      case 'request':
        if (a.needsOpen && !open.has(a.needsOpen)) break;
        send(a.method, a.params);
        break;
      case 'notify':
        counts.notifications++;
        void s.client.sendNotification(a.method, a.params);
        break;
    }
  }
  // Close what the case opened, so the next one starts from the libraries alone.
  for (const d of open.keys()) notify(DidCloseTextDocumentNotification.method, { textDocument: { uri: DOCS[d] } });
  // The server is still up: a last request is answered.
  send(Methods.libraryStatus, undefined);
  await Promise.all(answers);
}

/** A log line that says an answer was lost (vscode-jsonrpc could not write it). */
const lostAnswers = (s: Session) => s.notifications.filter((n) => n.method === LogMessageNotification.method && /Sending response failed/.test((n.params as LogMessageParams).message));

describe('the language server under random protocol traffic', () => {
  it('answers every request (result or one-line error, no stack trace) and stays up, against hostile libraries', async () => {
    const s = await start({ ...LIBS, '/ws/refs.bib': '' }, { citationStyle: 'apa', libraries: LIB_PATHS.map((p) => p.slice('/ws/'.length)) });
    await s.notified<LibraryStatusParams>(Methods.libraryStatusChanged, (p) => p.files.length === LIB_PATHS.length && p.files.every((f) => f.state !== 'loading'));
    await fc.assert(fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 8 }), async (actions) => {
      counts.cases++;
      await runCase(s, actions);
      const lost = lostAnswers(s);
      if (lost.length) throw new Error(`a response could not be sent (never answered): ${(lost[0]!.params as LogMessageParams).message}`);
      // Notifications pile up in the session: keep only what the next case may look at.
      s.notifications.length = 0;
    }), { seed: SEED, numRuns: NUM_RUNS, endOnFailure: true });
    expect(counts.answered).toBe(counts.sent);
  }, TEST_TIMEOUT_MS);

  it('answers ServerNotInitialized before initialize and InvalidRequest after shutdown, whatever the request', async () => {
    const before = connectOnly();
    const s = await start({});
    await s.client.sendRequest(ShutdownRequest.type);
    await fc.assert(fc.asyncProperty(fc.constantFrom(...REQUEST_METHODS.slice(0, -1)), fc.oneof(badParams, validRequest.map((a) => (a.kind === 'request' ? a.params : {}))), async (method, params) => {
      for (const [client, code] of [[before.client, ErrorCodes.ServerNotInitialized], [s.client, ErrorCodes.InvalidRequest]] as const) {
        const answer = await (params === undefined ? client.sendRequest(method) : client.sendRequest(method, params)).then((result) => ({ result }), (error: unknown) => ({ error }));
        // vscode-jsonrpc itself refuses parameters a typed request cannot take (none, or by position), before any handler.
        if ('error' in answer && answer.error instanceof ResponseError && (answer.error.code === code || answer.error.code === ErrorCodes.InvalidParams)) continue;
        throw new Error(`${method} ${JSON.stringify(params)}: expected error ${code}, got ${JSON.stringify(answer)}`);
      }
    }), { seed: SEED, numRuns: Math.min(NUM_RUNS, 1000) });
  }, TEST_TIMEOUT_MS);
});
