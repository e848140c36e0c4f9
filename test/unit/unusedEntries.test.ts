/**
 * Unused entries (`core/service/unusedEntries.ts`) and the entries' counts (`entryLens.ts`) on
 * in-memory projects: which entries are hinted and which are not (cited through a section file,
 * named by a cited entry's crossref, a library, a file nobody reads), the cases where the project
 * is not known in full (said on the first line instead), the quick fixes byte for byte, and the
 * three bibliography formats.
 */
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, DiagnosticTag, type CodeAction, type Diagnostic, type TextDocumentEdit } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { corpusView } from '../../src/core/service/types.js';
import { createSearchIndex } from '../../src/core/search/corpus/corpusIndex.js';
import { realCorpus } from './helpers.js';
import { projectServiceOver, type ProjectService } from './memoryWorkspace.js';

const MAIN = '\\documentclass{article}\n\\begin{document}\nSee \\cite{used}.\n\\input{intro}\n\\bibliography{refs}\n\\end{document}\n';
const INTRO = 'As \\citet{child} shows.\n';
const REFS = [
  '@misc{used, title = {Used}}',
  '',
  '@misc{spare, title = {Spare}}',
  '',
  '@inproceedings{child, title = {Child}, crossref = {parent}}',
  '',
  '@proceedings{parent, title = {Parent}}',
  '',
  '@misc{alsospare,',
  '  title = {Also spare},',
  '}',
  '',
].join('\n');

async function bibDoc(p: ProjectService, path: string, languageId = 'bibtex'): Promise<TextDocument> {
  const uri = URI.file(path);
  const open = p.ws.openDocument(uri);
  return TextDocument.create(uri.toString(), languageId, open?.version ?? 1, open?.text ?? (await p.ws.readText(uri))!);
}

const hinted = (ds: Diagnostic[]) => ds.filter((d) => d.code === 'unused-entry').map((d) => `${d.range.start.line}:${d.range.start.character} ${d.message}`);

describe('unused entries', () => {
  it('an entry no reader cites is a Hint tagged Unnecessary on its key; cited through an included file or named by a cited entry\'s crossref, it is used', async () => {
    const p = await projectServiceOver({ '/ws/main.tex': MAIN, '/ws/intro.tex': INTRO, '/ws/refs.bib': REFS });
    const ds = await p.service.diagnostics(await bibDoc(p, '/ws/refs.bib'));
    expect(hinted(ds)).toEqual([
      '2:6 Unused entry "spare": no document that reads this file cites it (main.tex).',
      '8:6 Unused entry "alsospare": no document that reads this file cites it (main.tex).',
    ]);
    const d = ds.find((x) => x.code === 'unused-entry')!;
    expect(d.severity).toBe(DiagnosticSeverity.Hint);
    expect(d.tags).toEqual([DiagnosticTag.Unnecessary]);
    expect(d.source).toBe('MLSys Papers');
  });

  it('quick fixes: remove one entry with its lines, remove all; each the open document at its version, byte for byte', async () => {
    const p = await projectServiceOver({ '/ws/main.tex': MAIN, '/ws/intro.tex': INTRO, '/ws/refs.bib': REFS });
    p.open('/ws/refs.bib', 4, REFS);
    const doc = await bibDoc(p, '/ws/refs.bib');
    const ds = (await p.service.diagnostics(doc)).filter((x) => x.code === 'unused-entry');
    const actions = await p.service.codeActions(doc, ds[0]!.range, [ds[0]!]);
    expect(actions.map((a) => a.title)).toEqual(['Remove unused entry spare', 'Remove all 2 unused entries']);
    const applied = (a: CodeAction) => {
      const change = a.edit!.documentChanges![0] as TextDocumentEdit;
      expect(change.textDocument).toEqual({ uri: doc.uri, version: 4 });
      return TextDocument.applyEdits(doc, change.edits);
    };
    expect(applied(actions[0]!)).toBe(REFS.replace('@misc{spare, title = {Spare}}\n\n', ''));
    expect(applied(actions[1]!)).toBe(REFS.replace('@misc{spare, title = {Spare}}\n\n', '').replace('\n@misc{alsospare,\n  title = {Also spare},\n}\n', ''));
  });

  it('CRLF, a comment above an entry, an entry sharing its line: only the entry and its line go, the comment keeps its blank line', async () => {
    const refs = '@misc{used, title = {U}}\r\n\r\n% keep this comment\r\n@misc{spare, title = {S}}\r\n\r\n@misc{b, title = {B}} @misc{spare2, title = {S2}}\r\n';
    const p = await projectServiceOver({ '/ws/main.tex': MAIN.replace('\\input{intro}\n', '\\cite{b}\n'), '/ws/refs.bib': refs });
    const doc = await bibDoc(p, '/ws/refs.bib');
    const ds = (await p.service.diagnostics(doc)).filter((x) => x.code === 'unused-entry');
    expect(ds.map((d) => d.message.split(':')[0])).toEqual(['Unused entry "spare"', 'Unused entry "spare2"']);
    const all = (await p.service.codeActions(doc, ds[0]!.range, ds)).find((a) => a.title.startsWith('Remove all'))!;
    expect(TextDocument.applyEdits(doc, (all.edit!.documentChanges![0] as TextDocumentEdit).edits))
      .toBe('@misc{used, title = {U}}\r\n\r\n% keep this comment\r\n\r\n@misc{b, title = {B}} \r\n');
  });

  it('CSL-JSON and CSL-YAML bibliographies of a pandoc document: hinted and removed with their separators', async () => {
    const json = '[\n  {"id": "used", "type": "book", "title": "U"},\n  {"id": "spare", "type": "book", "title": "S"},\n  {"id": "last", "type": "book", "title": "L"}\n]\n';
    const yaml = 'references:\n- id: used\n  type: book\n  title: U\n- id: spare\n  type: book\n  title: S\n- id: last\n  type: book\n  title: L\n';
    const note = '---\nbibliography: [refs.json, refs.yaml]\n---\n\n[@used] and @last.\n';
    const p = await projectServiceOver({ '/ws/note.md': note, '/ws/refs.json': json, '/ws/refs.yaml': yaml });
    for (const [path, lang, expected] of [
      ['/ws/refs.json', 'json', '[\n  {"id": "used", "type": "book", "title": "U"},\n  {"id": "last", "type": "book", "title": "L"}\n]\n'],
      ['/ws/refs.yaml', 'yaml', 'references:\n- id: used\n  type: book\n  title: U\n- id: last\n  type: book\n  title: L\n'],
    ] as const) {
      const doc = await bibDoc(p, path, lang);
      const ds = (await p.service.diagnostics(doc)).filter((x) => x.code === 'unused-entry');
      expect(ds.map((d) => d.message)).toEqual(['Unused entry "spare": no document that reads this file cites it (note.md).']);
      const [remove] = await p.service.codeActions(doc, ds[0]!.range, ds);
      expect(TextDocument.applyEdits(doc, (remove!.edit!.documentChanges![0] as TextDocumentEdit).edits)).toBe(expected);
    }
  });

  it('the last CSL items: the separator before them goes', async () => {
    const json = '[\n  {"id": "used", "type": "book"},\n  {"id": "x", "type": "book"},\n  {"id": "y", "type": "book"}\n]';
    const yaml = '---\nreferences:\n  - id: used\n    type: book\n  - id: x\n    type: book\n    note: >\n      two\n\n      lines\n...\n';
    const p = await projectServiceOver({ '/ws/note.md': '---\nbibliography: [refs.json, refs.yaml]\n---\n@used\n', '/ws/refs.json': json, '/ws/refs.yaml': yaml });
    const jdoc = await bibDoc(p, '/ws/refs.json', 'json');
    const jds = (await p.service.diagnostics(jdoc)).filter((x) => x.code === 'unused-entry');
    const jall = (await p.service.codeActions(jdoc, jds[0]!.range, jds)).find((a) => a.title.startsWith('Remove all'))!;
    expect(TextDocument.applyEdits(jdoc, (jall.edit!.documentChanges![0] as TextDocumentEdit).edits)).toBe('[\n  {"id": "used", "type": "book"}\n]');
    const ydoc = await bibDoc(p, '/ws/refs.yaml', 'yaml');
    const yds = (await p.service.diagnostics(ydoc)).filter((x) => x.code === 'unused-entry');
    const [remove] = await p.service.codeActions(ydoc, yds[0]!.range, [yds[0]!]);
    expect(TextDocument.applyEdits(ydoc, (remove!.edit!.documentChanges![0] as TextDocumentEdit).edits)).toBe('---\nreferences:\n  - id: used\n    type: book\n  - id: x\n    type: book\n    note: >\n      two\n\n      lines\n...\n'.replace('  - id: x\n    type: book\n    note: >\n      two\n\n      lines\n', ''));
  });

  it('a Quarto project: the documents that use _quarto.yml\'s bibliography read it together', async () => {
    const p = await projectServiceOver({
      '/ws/book/_quarto.yml': 'project:\n  type: book\nbibliography: refs.bib\n',
      '/ws/book/a.qmd': 'See @one and @fig-plot.\n',
      '/ws/book/b.qmd': 'And [@two].\n',
      '/ws/book/refs.bib': '@misc{one, title = {1}}\n@misc{two, title = {2}}\n@misc{three, title = {3}}\n',
    });
    const ds = await p.service.diagnostics(await bibDoc(p, '/ws/book/refs.bib'));
    expect(hinted(ds)).toEqual(['2:6 Unused entry "three": no document that reads this file cites it (book/_quarto.yml).']);
  });
});

describe('unused entries are not marked while the project is not known in full, and the first line says why', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['\\nocite{*}', { '/ws/main.tex': MAIN.replace('See', '\\nocite{*}See') }, 'Unused entries are not marked: main.tex cites every entry (\\nocite{*}).'],
    ['nocite: @*', { '/ws/note.md': '---\nbibliography: refs.bib\nnocite: "@*"\n---\n@used\n' }, 'Unused entries are not marked: note.md cites every entry (nocite: \'@*\').'],
    ['an \\input of a file not in the workspace', { '/ws/main.tex': MAIN.replace('\\input{intro}', '\\input{glyphtounicode}') }, 'Unused entries are not marked: main.tex inputs "glyphtounicode", which is not in the workspace and may cite.'],
    ['bibtopic\'s \\btPrintNotCited (a false alarm on the real bibtopic sample before)', { '/ws/main.tex': MAIN.replace('\\bibliography{refs}', '\\begin{btSect}{refs}\n\\btPrintCited\n\\btPrintNotCited\n\\end{btSect}') }, 'Unused entries are not marked: main.tex prints the entries it does not cite too (\\btPrintNotCited, \\btPrintAll).'],
    ['a macro that cites through its argument', { '/ws/main.tex': MAIN.replace('\\begin{document}', '\\newcommand{\\see}[1]{\\cite{#1}}\n\\begin{document}') }, 'Unused entries are not marked: main.tex defines a macro that cites through its argument, and what it is given cannot be read.'],
  ];
  for (const [name, files, why] of cases) {
    it(name, async () => {
      const p = await projectServiceOver({ '/ws/intro.tex': INTRO, '/ws/refs.bib': REFS, ...files });
      const doc = await bibDoc(p, '/ws/refs.bib');
      expect(hinted(await p.service.diagnostics(doc))).toEqual([]);
      const lenses = await p.service.codeLenses(doc);
      expect(lenses[0]).toEqual({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, command: { title: why, command: '' } });
    });
  }

  it('a bibliography outside the workspace, read by a document inside it', async () => {
    const p = await projectServiceOver({ '/ws/main.tex': MAIN.replace('{refs}', '{/shared/refs}'), '/ws/intro.tex': INTRO, '/shared/refs.bib': REFS });
    const doc = await bibDoc(p, '/shared/refs.bib');
    expect(hinted(await p.service.diagnostics(doc))).toEqual([]);
    expect((await p.service.codeLenses(doc))[0]!.command!.title).toBe('Unused entries are not marked: this file is outside the workspace, where other documents may read it.');
  });

  it('a listing cut short', async () => {
    const p = await projectServiceOver({ '/ws/main.tex': MAIN, '/ws/intro.tex': INTRO, '/ws/refs.bib': REFS }, {}, { listing: 'cut' });
    expect(hinted(await p.service.diagnostics(await bibDoc(p, '/ws/refs.bib')))).toEqual([]);
  });

  it('an \\input of a workspace file that is not .tex is read as LaTeX: its citations count', async () => {
    const p = await projectServiceOver({ '/ws/main.tex': MAIN.replace('\\input{intro}', '\\input{table.tikz}\n\\input{intro}'), '/ws/intro.tex': INTRO, '/ws/table.tikz': '\\node {\\cite{spare}};\n', '/ws/refs.bib': REFS });
    expect(hinted(await p.service.diagnostics(await bibDoc(p, '/ws/refs.bib'))).map((h) => h.split(' ')[3])).toEqual(['"alsospare":']);
  });

  it('a JSON or YAML file that is no bibliography (package.json, a CI file): no hint, no lens, no hover', async () => {
    const p = await projectServiceOver({ '/ws/main.tex': MAIN, '/ws/intro.tex': INTRO, '/ws/refs.bib': REFS, '/ws/package.json': '{"name": "x", "id": "spare"}\n', '/ws/ci.yml': 'jobs:\n  - id: spare\n' });
    for (const [path, lang] of [['/ws/package.json', 'json'], ['/ws/ci.yml', 'yaml']] as const) {
      const doc = await bibDoc(p, path, lang);
      expect(await p.service.diagnostics(doc)).toEqual([]);
      expect(await p.service.codeLenses(doc)).toEqual([]);
      expect(await p.service.hover(doc, { line: 0, character: 20 })).toBeUndefined();
    }
  });

  it('never in a library, nor in a file no document reads', async () => {
    const corpus = realCorpus();
    const base = corpusView(corpus, createSearchIndex(corpus));
    const p = await projectServiceOver({ '/ws/main.tex': MAIN, '/ws/intro.tex': INTRO, '/ws/refs.bib': REFS, '/ws/loose.bib': '@misc{x, title = {X}}\n' }, {
      corpus: () => ({ ...base, isLibrary: (uri: string) => uri.endsWith('/refs.bib') }),
    });
    expect(hinted(await p.service.diagnostics(await bibDoc(p, '/ws/refs.bib')))).toEqual([]);
    expect(hinted(await p.service.diagnostics(await bibDoc(p, '/ws/loose.bib')))).toEqual([]);
    expect(await p.service.codeLenses(await bibDoc(p, '/ws/loose.bib'))).toEqual([]);
  });
});

describe('how often an entry is cited: code lens and hover', () => {
  it('a lens on each entry\'s key; in VS Code it opens the citations', async () => {
    const p = await projectServiceOver({
      '/ws/main.tex': MAIN.replace('See \\cite{used}.', 'See \\cite{used} and \\cite{used,child}.'),
      '/ws/intro.tex': 'As \\citet{used} shows.\n', '/ws/refs.bib': REFS,
    }, { clientUi: () => true });
    const doc = await bibDoc(p, '/ws/refs.bib');
    const lenses = await p.service.codeLenses(doc);
    expect(lenses.map((l) => `${l.range.start.line} ${l.command!.title}`)).toEqual([
      '0 cited 3 times in 2 files', '2 not cited', '4 cited once in main.tex', '6 not cited', '8 not cited',
    ]);
    const first = lenses[0]!.command!;
    expect(first.command).toBe('mlsysPapers.showCitations');
    expect(first.arguments![0]).toBe(doc.uri);
    expect((first.arguments![2] as { uri: string }[]).map((l) => URI.parse(l.uri).path)).toEqual(['/ws/main.tex', '/ws/main.tex', '/ws/intro.tex']);
    expect(lenses[1]!.command!.command).toBe('');
  });

  it('the hover on an entry\'s key', async () => {
    const p = await projectServiceOver({ '/ws/main.tex': MAIN, '/ws/intro.tex': 'As \\citet{used} shows.\n', '/ws/refs.bib': REFS });
    const doc = await bibDoc(p, '/ws/refs.bib');
    const h = await p.service.hover(doc, { line: 0, character: 8 });
    expect(h!.contents).toEqual({ kind: 'markdown', value: '`used` cited 2 times in 2 files\n\n- main\\.tex\n- intro\\.tex' });
    expect(await p.service.hover(doc, { line: 0, character: 18 })).toBeUndefined();
  });
});
