/**
 * Rename, find all citations, the entry lenses and unused entries through the language server
 * (`src/server/handlers.ts`) over a real LSP connection (`serverHarness.ts`): the capabilities, a
 * multi-file LaTeX project whose section file is not open, the refusals as `RequestFailed` errors
 * with their sentence, and the unused-entry hint with its quick fix.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  CodeActionRequest, CodeLensRefreshRequest, CodeLensRequest, DidChangeTextDocumentNotification, DidChangeWatchedFilesNotification, FileChangeType, HoverRequest, DocumentDiagnosticRequest, PrepareRenameRequest, ReferencesRequest, RenameRequest, ResponseError,
  type CodeAction, type CodeLens, type Diagnostic, type TextDocumentEdit, type WorkspaceEdit,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { LENS_REFRESH_MS } from '../../src/server/server.js';
import { start } from './serverHarness.js';

const MAIN = URI.file('/ws/main.tex').toString();
const REFS = URI.file('/ws/refs.bib').toString();
const MAIN_TEXT = '\\documentclass{article}\n\\begin{document}\nSee \\cite{smith2020,doe2021}.\n\\input{intro}\n\\bibliography{refs}\n\\end{document}\n';
const INTRO_TEXT = 'As \\citet{smith2020} shows.\n';
const REFS_TEXT = '@misc{smith2020, title = {A}}\n\n@misc{doe2021, title = {B}}\n\n@misc{spare, title = {C}}\n';
const FILES = { '/ws/main.tex': MAIN_TEXT, '/ws/intro.tex': INTRO_TEXT, '/ws/refs.bib': REFS_TEXT };
/** The host lists the workspace's files (the harness's lists none). */
const LISTING = { fileSystem: { listFiles: async (_folders: readonly URI[], extensions: readonly string[]) => Object.keys(FILES).filter((f) => extensions.some((e) => f.endsWith(e))).map((f) => URI.file(f)) } };
const EDITS = { workspaceEdit: { documentChanges: true, changeAnnotationSupport: { groupsOnLabel: false } } };

const where = (l: { uri: string; range: { start: { line: number; character: number } } }) => `${URI.parse(l.uri).path}:${l.range.start.line}:${l.range.start.character}`;

describe('rename and find all citations over LSP', () => {
  it('advertises the providers; prepareRename, rename across the project (a file not open too), references from the entry', async () => {
    const s = await start(FILES, undefined, LISTING, undefined, EDITS);
    expect(s.init.capabilities.renameProvider).toEqual({ prepareProvider: true });
    expect(s.init.capabilities.referencesProvider).toBe(true);
    expect(s.init.capabilities.codeLensProvider).toEqual({ resolveProvider: false });
    s.open(MAIN, 'latex', MAIN_TEXT);
    const at = { textDocument: { uri: MAIN }, position: { line: 2, character: 12 } };
    expect(await s.client.sendRequest(PrepareRenameRequest.type, at)).toEqual({ placeholder: 'smith2020', range: { start: { line: 2, character: 10 }, end: { line: 2, character: 19 } } });

    const edit = await s.client.sendRequest(RenameRequest.type, { ...at, newName: 'smith2020a' }) as WorkspaceEdit;
    const changed: Record<string, string> = {};
    for (const c of edit.documentChanges as TextDocumentEdit[]) {
      const path = URI.parse(c.textDocument.uri).path;
      changed[path] = TextDocument.applyEdits(TextDocument.create(c.textDocument.uri, 'x', 0, FILES[path as keyof typeof FILES]), c.edits);
    }
    expect(changed).toEqual({
      '/ws/main.tex': MAIN_TEXT.replace('smith2020,', 'smith2020a,'),
      '/ws/intro.tex': INTRO_TEXT.replace('smith2020', 'smith2020a'),
      '/ws/refs.bib': REFS_TEXT.replace('smith2020,', 'smith2020a,'),
    });
    expect((edit.documentChanges as TextDocumentEdit[]).find((c) => c.textDocument.uri === MAIN)!.textDocument.version).toBe(1);

    s.open(REFS, 'bibtex', REFS_TEXT);
    const refs = await s.client.sendRequest(ReferencesRequest.type, { textDocument: { uri: REFS }, position: { line: 0, character: 8 }, context: { includeDeclaration: false } });
    expect(refs!.map(where)).toEqual(['/ws/main.tex:2:10', '/ws/intro.tex:0:10']);
  });

  it('refuses with the sentence: a name that is taken, a name a LaTeX citation cannot hold', async () => {
    const s = await start(FILES, undefined, LISTING, undefined, EDITS);
    s.open(MAIN, 'latex', MAIN_TEXT);
    const at = { textDocument: { uri: MAIN }, position: { line: 2, character: 12 } };
    const refusal = async (newName: string) => {
      const e = await s.client.sendRequest(RenameRequest.type, { ...at, newName }).then(() => undefined, (x: unknown) => x);
      expect(e).toBeInstanceOf(ResponseError);
      return (e as ResponseError<unknown>).message;
    };
    expect(await refusal('doe2021')).toBe('"doe2021" already exists (in refs.bib); nothing was renamed.');
    expect(await refusal('smith 2020')).toBe('"smith 2020" cannot be a citation key here: a LaTeX citation cannot hold white space.');
  });
});

describe('entry lenses and unused entries over LSP', () => {
  it('reads a file that is not open once per stamp: a second lens request only asks its stamp', async () => {
    const s = await start(FILES, undefined, LISTING);
    s.open(REFS, 'bibtex', REFS_TEXT);
    const intro = URI.file('/ws/intro.tex').toString();
    const lenses = () => s.client.sendRequest(CodeLensRequest.type, { textDocument: { uri: REFS } });
    await lenses();
    const before = s.reads.filter((r) => r === intro).length;
    await lenses();
    // One stamp, no read (the harness records both as an access).
    expect(s.reads.filter((r) => r === intro).length - before).toBe(1);
  });
  it('lists the workspace\'s citing files again after a file is created or deleted, not after one is changed', async () => {
    let listings = 0;
    const fileSystem = { listFiles: async (folders: readonly URI[], extensions: readonly string[]) => { listings++; return LISTING.fileSystem.listFiles(folders, extensions); } };
    const s = await start(FILES, undefined, { fileSystem }, undefined, { didChangeWatchedFiles: { dynamicRegistration: true } });
    s.open(REFS, 'bibtex', REFS_TEXT);
    const lenses = () => s.client.sendRequest(CodeLensRequest.type, { textDocument: { uri: REFS } });
    const event = (type: FileChangeType) => s.client.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: URI.file('/ws/intro.tex').toString(), type }] });
    await lenses();
    const first = listings;
    await event(FileChangeType.Changed);
    await lenses();
    expect(listings).toBe(first);
    await event(FileChangeType.Created);
    await lenses();
    expect(listings).toBeGreaterThan(first);
  });
  it('a lens per entry; the unused entry is a Hint tagged Unnecessary whose quick fix removes it byte for byte', async () => {
    const s = await start(FILES, undefined, LISTING);
    s.open(REFS, 'bibtex', REFS_TEXT);
    const lenses = await s.client.sendRequest(CodeLensRequest.type, { textDocument: { uri: REFS } }) as CodeLens[];
    // Not VS Code (no clientCommands): the lens is text.
    expect(lenses.map((l) => `${l.range.start.line} ${l.command!.title} ${l.command!.command}`)).toEqual([
      '0 cited 2 times in 2 files ', '2 cited once in main.tex ', '4 not cited ',
    ]);
    const report = await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: REFS } }) as { items: Diagnostic[] };
    expect(report.items).toEqual([{
      range: { start: { line: 4, character: 6 }, end: { line: 4, character: 11 } }, severity: 4, tags: [1], source: 'MLSys Papers', code: 'unused-entry', data: { key: 'spare', start: 60 },
      message: 'Unused entry "spare": no document that reads this file cites it (main.tex).',
    }]);
    const actions = await s.client.sendRequest(CodeActionRequest.type, { textDocument: { uri: REFS }, range: report.items[0]!.range, context: { diagnostics: report.items } }) as CodeAction[];
    expect(actions.map((a) => a.title)).toEqual(['Remove unused entry spare']);
    const edit = actions[0]!.edit!;
    const change = (edit.documentChanges?.[0] as TextDocumentEdit | undefined) ?? { edits: edit.changes![REFS]! };
    expect(TextDocument.applyEdits(TextDocument.create(REFS, 'bibtex', 1, REFS_TEXT), change.edits)).toBe('@misc{smith2020, title = {A}}\n\n@misc{doe2021, title = {B}}\n');
  });

  it('asks for the lenses again once a citing document stops changing while a bibliography is open (workspace/codeLens/refresh)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const s = await start(FILES, undefined, LISTING, undefined, { codeLens: { refreshSupport: true } });
      let refreshes = 0;
      s.client.onRequest(CodeLensRefreshRequest.type, () => { refreshes++; });
      const roundTrip = () => s.client.sendRequest(HoverRequest.type, { textDocument: { uri: MAIN }, position: { line: 0, character: 0 } });
      const wait = async (ms: number) => { await roundTrip(); await vi.advanceTimersByTimeAsync(ms); await roundTrip(); };
      const change = (version: number) => s.client.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri: MAIN, version }, contentChanges: [{ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: 'x' }],
      });
      s.open(MAIN, 'latex', MAIN_TEXT);
      await change(2);
      await wait(LENS_REFRESH_MS * 4);
      // No bibliography open: nothing to refresh.
      expect(refreshes).toBe(0);
      s.open(REFS, 'bibtex', REFS_TEXT);
      await change(3);
      await wait(LENS_REFRESH_MS - 1);
      await change(4);
      await wait(LENS_REFRESH_MS - 1);
      expect(refreshes).toBe(0);
      await wait(1);
      expect(refreshes).toBe(1);
      await wait(LENS_REFRESH_MS * 4);
      expect(refreshes).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
