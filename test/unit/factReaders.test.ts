/**
 * The server's readers of a document's citations take them from the open document's facts
 * (`core/text/textFacts.ts`), not from a scan of its whole text per version (issue 27: "each text
 * is parsed once per version"). After a plain edit (a word typed in a line), definition, references,
 * code actions and the cited keys answer without joining the whole text, and answer as they would
 * on a fresh document with the same text.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CodeActionRequest, DefinitionRequest, DidChangeTextDocumentNotification, DocumentDiagnosticRequest, ReferencesRequest,
  type FullDocumentDiagnosticReport, type Location,
} from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { ClientRequests } from '../../src/server/protocol.js';
import { OpenDocument } from '../../src/server/openDocument.js';
import { start, type Session } from './serverHarness.js';

const REFS = '@article{smith2021paging,\n  title = {Paging Tricks for Everyone},\n  author = {Smith, Ann},\n  year = {2021}\n}\n';

const CASES = {
  latex: {
    name: 'paper.tex',
    lines: ['\\documentclass{article}', 'Plain words here.', 'As shown by \\cite{smith2021paging} and \\cite{kwon2023efficient}.', '\\bibliography{refs}'],
    at: { line: 2, character: 20 },
  },
  markdown: {
    name: 'paper.md',
    lines: ['---', 'bibliography: refs.bib', '---', 'Plain words here.', 'As shown by [@smith2021paging] and [@kwon2023efficient].'],
    at: { line: 4, character: 16 },
  },
} as const;

afterEach(() => {
  vi.restoreAllMocks();
});

/** How many times each request had an open document join its whole text. */
type Joins = Record<'definition' | 'references' | 'diagnostics' | 'codeActions' | 'citedKeys', number>;

/** What the readers answer at the citation: definition, references, code actions, cited keys, diagnostics; and the whole-text joins of each. */
async function answers(s: Session, uri: string, at: { line: number; character: number }, joins: Partial<Joins> = {}) {
  const whole = vi.spyOn(OpenDocument.prototype, 'getText');
  const counted = async <T>(name: keyof Joins, request: () => Promise<T>): Promise<T> => {
    whole.mockClear();
    const r = await request();
    joins[name] = whole.mock.calls.filter((args) => args[0] === undefined).length;
    return r;
  };
  const textDocument = { uri };
  const definition = await counted('definition', () => s.client.sendRequest(DefinitionRequest.type, { textDocument, position: at }));
  const references = ((await counted('references', () => s.client.sendRequest(ReferencesRequest.type, { textDocument, position: at, context: { includeDeclaration: false } }))) ?? []) as Location[];
  const diagnostics = (await counted('diagnostics', () => s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument })) as FullDocumentDiagnosticReport).items;
  const unknown = diagnostics.find((d) => /kwon2023efficient/.test(d.message));
  const actions = unknown ? await counted('codeActions', () => s.client.sendRequest(CodeActionRequest.type, { textDocument, range: unknown.range, context: { diagnostics: [unknown] } })) : [];
  const cited = await counted('citedKeys', () => s.client.sendRequest(ClientRequests.citedKeys, textDocument));
  whole.mockRestore();
  return {
    definition, cited, unknown: unknown?.range,
    // Only this document's: references are the workspace's, and the fresh document is another one.
    references: references.filter((l) => l.uri === uri).map((l) => l.range),
    actions: (actions ?? []).map((a) => ('title' in a ? a.title : '')),
  };
}

describe('readers of citations use the open document\'s facts', () => {
  it.each(['latex', 'markdown'] as const)('%s: after a plain edit, the readers of citations do not join the whole text, and answer as on a fresh document', async (kind) => {
    const c = CASES[kind];
    const s = await start({ '/ws/refs.bib': REFS });
    const uri = URI.file(`/ws/${c.name}`).toString();
    s.open(uri, kind, c.lines.join('\n'));
    await answers(s, uri, c.at);
    // A word typed in the plain line: the citations' facts are carried over it.
    await s.client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: c.at.line - 1, character: 6 }, end: { line: c.at.line - 1, character: 6 } }, text: 'more ' }],
    });
    const joins: Partial<Joins> = {};
    const edited = await answers(s, uri, c.at, joins);
    const lines: string[] = [...c.lines];
    lines[c.at.line - 1] = `${lines[c.at.line - 1]!.slice(0, 6)}more ${lines[c.at.line - 1]!.slice(6)}`;
    const freshUri = URI.file(`/ws/fresh-${c.name}`).toString();
    s.open(freshUri, kind, lines.join('\n'));
    const fresh = await answers(s, freshUri, c.at);
    expect(edited.cited).toEqual(['smith2021paging', 'kwon2023efficient']);
    expect(edited.unknown).toBeDefined();
    expect(edited.actions.length).toBeGreaterThan(0);
    expect({ ...edited, definition: JSON.stringify(edited.definition) }).toEqual({ ...fresh, definition: JSON.stringify(fresh.definition) });
    // Definition, code actions and the cited keys read the citations carried over the edit. The
    // diagnostics' named-system hints read the text (once per pull), as does the references'
    // snapshot of the workspace (once per version of each file it reads).
    expect(joins).toEqual({ definition: 0, references: 1, diagnostics: 1, codeActions: 0, citedKeys: 0 });
    s.dispose();
  });
});
