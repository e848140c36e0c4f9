/**
 * Rename a citation key (`core/service/renameKey.ts`) and find all its citations
 * (`keyReferences.ts`) on in-memory multi-file projects: a LaTeX project read from its root (files
 * not open too), a pandoc document and a Quarto project that read the same `.bib`, every citation
 * form, the entry's key and the fields that name it, and each refusal with its sentence.
 */
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position, TextDocumentEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import type { CitationService, EditAbilities } from '../../src/core/service/service.js';
import { corpusView } from '../../src/core/service/types.js';
import { createSearchIndex } from '../../src/core/search/corpus/corpusIndex.js';
import { cursor, realCorpus } from './helpers.js';
import { projectServiceOver, type ProjectService } from './memoryWorkspace.js';

const CAN: EditAbilities = { documentChanges: true, changeAnnotations: true };

const MAIN = [
  '\\documentclass{article}',
  '\\usepackage{biblatex}',
  '\\addbibresource{refs.bib}',
  '\\begin{document}',
  'See \\cite{vaswani2017,smith2020} and \\cites{Smith2020}{doe2021}.',
  '\\input{sections/intro}',
  '\\end{document}',
  '',
].join('\n');
const INTRO = 'Intro \\parencite[p.~3]{smith2020}.\n% \\cite{smith2020} in a comment is no citation\n';
const REFS = [
  '% My references',
  '@article{smith2020,',
  '  title = {A Paper},',
  '  author = {Smith, Ann},',
  '  year = 2020,',
  '}',
  '',
  '@inproceedings{doe2021,',
  '  title = {Another},',
  '  crossref = {smith2020},',
  '}',
  '',
  '@misc{vaswani2017, title = {Attention}}',
  '',
].join('\n');
const NOTES = [
  '---',
  'bibliography: refs.bib',
  'nocite: |',
  '  @smith2020',
  '---',
  '',
  'As [@smith2020; @doe2021, p. 3] show, @smith2020 says so.',
  '',
].join('\n');
const OTHER = '\\documentclass{article}\n\\begin{document}\n\\cite{smith2020}\n\\bibliography{other}\n\\end{document}\n';
const OTHER_BIB = '@misc{smith2020, title = {Not the same}}\n';

const files = (): Record<string, string> => ({
  '/ws/main.tex': MAIN, '/ws/sections/intro.tex': INTRO, '/ws/refs.bib': REFS, '/ws/notes.md': NOTES,
  '/ws/other/other.tex': OTHER, '/ws/other/other.bib': OTHER_BIB,
});

/** A document of the workspace as the editor has it: the open text, else the file's. */
async function docOf(p: ProjectService, path: string, languageId: string): Promise<TextDocument> {
  const uri = URI.file(path);
  const open = p.ws.openDocument(uri);
  return TextDocument.create(uri.toString(), languageId, open?.version ?? 0, open?.text ?? (await p.ws.readText(uri))!);
}

/** The position of the cursor marker in `marked`, which must be the file's text with the marker added. */
function at(marked: string): { text: string; position: (doc: TextDocument) => Position } {
  const { text, offset } = cursor(marked);
  return { text, position: (doc) => doc.positionAt(offset) };
}

/** Applies a workspace edit to the workspace (disk for closed files, the open text for open ones); returns the changed texts by path. */
async function apply(p: ProjectService, edit: WorkspaceEdit): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const changes = (edit.documentChanges as TextDocumentEdit[] | undefined) ?? Object.entries(edit.changes ?? {}).map(([uri, edits]) => ({ textDocument: { uri, version: null }, edits }));
  for (const c of changes) {
    const uri = URI.parse(c.textDocument.uri);
    const open = p.ws.openDocument(uri);
    if (c.textDocument.version !== null) expect(c.textDocument.version).toBe(open?.version);
    const before = open?.text ?? (await p.ws.readText(uri))!;
    const after = TextDocument.applyEdits(TextDocument.create(c.textDocument.uri, 'x', 0, before), c.edits);
    if (open) p.open(uri.path, open.version + 1, after); else p.write(uri.path, after);
    out[uri.path] = after;
  }
  return out;
}

async function rename(p: ProjectService, path: string, languageId: string, marked: string, newName: string, can = CAN) {
  const m = at(marked);
  const doc = await docOf(p, path, languageId);
  expect(doc.getText()).toBe(m.text);
  return p.service.rename(doc, m.position(doc), newName, can);
}

const sv = (p: ProjectService): CitationService => p.service;

describe('rename a citation key across its scope', () => {
  it('from a citation in the root: every citation form in the LaTeX project and the pandoc document, the entry and the crossref that names it; nothing outside the scope', async () => {
    const p = await projectServiceOver(files());
    const r = await rename(p, '/ws/main.tex', 'latex', MAIN.replace('smith2020}', 'smi\u2038th2020}'), 'smith2020a');
    expect(r && 'edit' in r).toBe(true);
    const changed = await apply(p, (r as { edit: WorkspaceEdit }).edit);
    expect(Object.keys(changed).sort()).toEqual(['/ws/main.tex', '/ws/notes.md', '/ws/refs.bib', '/ws/sections/intro.tex']);
    expect(changed['/ws/main.tex']).toBe(MAIN.replace('smith2020}', 'smith2020a}').replace('{Smith2020}', '{smith2020a}'));
    expect(changed['/ws/sections/intro.tex']).toBe(INTRO.replace('{smith2020}.', '{smith2020a}.'));
    expect(changed['/ws/notes.md']).toBe(NOTES.replaceAll('@smith2020', '@smith2020a'));
    expect(changed['/ws/refs.bib']).toBe(REFS.replace('@article{smith2020,', '@article{smith2020a,').replace('crossref = {smith2020}', 'crossref = {smith2020a}'));
    expect(p.ws.text('/ws/other/other.tex')).toBe(OTHER);
    expect(p.ws.text('/ws/other/other.bib')).toBe(OTHER_BIB);
  });

  it('from the entry in the .bib, with the same edit; an open document is edited at its version', async () => {
    const p = await projectServiceOver(files());
    p.open('/ws/sections/intro.tex', 7, INTRO);
    const r = await rename(p, '/ws/refs.bib', 'bibtex', REFS.replace('@article{smith2020', '@article{smith20\u203820'), 'smith2020a');
    const edit = (r as { edit: WorkspaceEdit }).edit;
    const intro = (edit.documentChanges as TextDocumentEdit[]).find((c) => c.textDocument.uri.endsWith('intro.tex'))!;
    expect(intro.textDocument.version).toBe(7);
    expect((edit.documentChanges as TextDocumentEdit[]).find((c) => c.textDocument.uri.endsWith('main.tex'))!.textDocument.version).toBeNull();
    const changed = await apply(p, edit);
    expect(changed['/ws/notes.md']).toBe(NOTES.replaceAll('@smith2020', '@smith2020a'));
    expect(changed['/ws/sections/intro.tex']).toBe(INTRO.replace('{smith2020}.', '{smith2020a}.'));
  });

  it('from an item of a CSL-JSON and a CSL-YAML bibliography: the id and the pandoc citations', async () => {
    const json = '[\n  {"id": "lee2022", "type": "book", "title": "J"},\n  {"id": "kim2021", "type": "book"}\n]\n';
    const yaml = 'references:\n- id: park2020\n  type: book\n  title: Y\n';
    const note = '---\nbibliography: [refs.json, refs.yaml]\n---\n\n[@lee2022; @park2020] and @kim2021.\n';
    const p = await projectServiceOver({ '/ws/note.md': note, '/ws/refs.json': json, '/ws/refs.yaml': yaml });
    const fromJson = await rename(p, '/ws/refs.json', 'json', json.replace('"lee2022"', '"lee\u20382022"'), 'lee2022a');
    const changed = await apply(p, (fromJson as { edit: WorkspaceEdit }).edit);
    expect(changed).toEqual({ '/ws/refs.json': json.replace('"lee2022"', '"lee2022a"'), '/ws/note.md': note.replace('@lee2022', '@lee2022a') });
    const note2 = changed['/ws/note.md']!;
    const fromYaml = await rename(p, '/ws/refs.yaml', 'yaml', yaml.replace('park2020', 'pa\u2038rk2020'), 'park2020b');
    expect(await apply(p, (fromYaml as { edit: WorkspaceEdit }).edit)).toEqual({ '/ws/refs.yaml': yaml.replace('park2020', 'park2020b'), '/ws/note.md': note2.replace('@park2020', '@park2020b') });
  });

  it('prepareRename gives the key and its range; off a key, nothing', async () => {
    const p = await projectServiceOver(files());
    const m = at(NOTES.replace('[@smith2020;', '[@smith\u20382020;'));
    const doc = await docOf(p, '/ws/notes.md', 'markdown');
    const prep = await sv(p).prepareRename(doc, m.position(doc));
    expect(prep).toEqual({ placeholder: 'smith2020', range: { start: { line: 6, character: 5 }, end: { line: 6, character: 14 } } });
    const off = at(NOTES.replace('As [', 'A\u2038s ['));
    expect(await sv(p).prepareRename(doc, off.position(doc))).toBeUndefined();
  });

  it('find all citations: every citation in the scope, and the entry with includeDeclaration', async () => {
    const p = await projectServiceOver(files());
    const m = at(INTRO.replace('{smith2020}.', '{smith2\u2038020}.'));
    const doc = await docOf(p, '/ws/sections/intro.tex', 'latex');
    const refs = await sv(p).references(doc, m.position(doc), true);
    const where = refs!.map((l) => `${URI.parse(l.uri).path}:${l.range.start.line}:${l.range.start.character}`);
    // The entry, then the document asked from, then the other readers in workspace order.
    expect(where).toEqual([
      '/ws/refs.bib:1:9',
      '/ws/sections/intro.tex:0:23',
      '/ws/main.tex:4:22', '/ws/main.tex:4:44',
      '/ws/notes.md:3:3', '/ws/notes.md:6:5', '/ws/notes.md:6:39',
    ]);
    const without = await sv(p).references(doc, m.position(doc), false);
    expect(without).toHaveLength(6);
  });
});

describe('rename refusals', () => {
  it('a new name that exists already, in the scope\'s bibliography or cited', async () => {
    const p = await projectServiceOver(files());
    const r = await rename(p, '/ws/main.tex', 'latex', MAIN.replace('smith2020}', 'smi\u2038th2020}'), 'DOE2021');
    expect(r).toEqual({ refusal: '"DOE2021" already exists (in refs.bib); nothing was renamed.' });
  });

  it('a new name that a LaTeX citation or pandoc cannot hold', async () => {
    const p = await projectServiceOver(files());
    const r = await rename(p, '/ws/main.tex', 'latex', MAIN.replace('smith2020}', 'smi\u2038th2020}'), 'smith 2020');
    expect(r).toEqual({ refusal: '"smith 2020" cannot be a citation key here: a LaTeX citation cannot hold white space.' });
    const r2 = await rename(p, '/ws/main.tex', 'latex', MAIN.replace('smith2020}', 'smi\u2038th2020}'), 'smith2020.');
    expect(r2).toEqual({ refusal: '"smith2020." cannot be a citation key here: pandoc reads a citation key as letters, digits and _, with punctuation only between them.' });
  });

  it('a key of the corpus only: renaming changes only the citations, after the user confirms; an editor that cannot confirm is refused with that sentence', async () => {
    const text = '\\documentclass{article}\n\\begin{document}\n\\cite{kwon2023efficient}\n\\bibliography{refs}\n\\end{document}\n';
    const p = await projectServiceOver({ '/ws/paper.tex': text, '/ws/refs.bib': '@misc{a, title = {A}}\n' });
    const r = await rename(p, '/ws/paper.tex', 'latex', text.replace('kwon2023', 'kwon\u20382023'), 'kwon2023vllm');
    const edit = (r as { edit: WorkspaceEdit }).edit;
    expect(edit.changeAnnotations).toEqual({
      'mlsysPapers.citationsOnly': {
        label: 'Rename only the citations of kwon2023efficient', needsConfirmation: true,
        description: '"kwon2023efficient" is an entry of the MLSys Papers corpus, not of a bibliography file of yours: renaming changes only the citations.',
      },
    });
    expect((edit.documentChanges as TextDocumentEdit[]).map((c) => c.edits.map((e) => ('annotationId' in e ? e.annotationId : undefined)))).toEqual([['mlsysPapers.citationsOnly']]);
    expect((await apply(p, edit))['/ws/paper.tex']).toBe(text.replace('kwon2023efficient', 'kwon2023vllm'));
    const refused = await rename(p, '/ws/paper.tex', 'latex', text.replace('kwon2023efficient', 'kwon2023vl\u2038lm'), 'kwon2023b', { documentChanges: true, changeAnnotations: false });
    expect(refused).toEqual({ refusal: '"kwon2023vllm" is defined in no bibliography: renaming changes only the citations. Your editor cannot ask you to confirm such an edit, so nothing was renamed.' });
  });

  it('a key of a library file the document reads: the citations only, after the user confirms; the library is not written', async () => {
    const text = '\\documentclass{article}\n\\begin{document}\n\\cite{mine2020}\n\\bibliography{lib}\n\\end{document}\n';
    const lib = '@misc{mine2020, title = {Mine}}\n';
    const corpus = realCorpus();
    const base = corpusView(corpus, createSearchIndex(corpus));
    const p = await projectServiceOver({ '/ws/paper.tex': text, '/ws/lib.bib': lib }, { corpus: () => ({ ...base, isLibrary: (uri: string) => uri.endsWith('/lib.bib') }) });
    const r = await rename(p, '/ws/paper.tex', 'latex', text.replace('mine2020', 'mi\u2038ne2020'), 'mine2020b');
    const edit = (r as { edit: WorkspaceEdit }).edit;
    expect(Object.values(edit.changeAnnotations!).map((a) => a.description)).toEqual(['"mine2020" is in your library lib.bib, which MLSys Papers never writes: renaming changes only the citations, and lib.bib keeps "mine2020".']);
    const changed = await apply(p, edit);
    expect(Object.keys(changed)).toEqual(['/ws/paper.tex']);
    expect(changed['/ws/paper.tex']).toBe(text.replace('mine2020', 'mine2020b'));
  });

  it('a key a \\bibitem defines: refused at prepareRename', async () => {
    const text = '\\documentclass{article}\n\\begin{document}\n\\cite{knuth}\n\\begin{thebibliography}{9}\n\\bibitem{knuth} D. Knuth.\n\\end{thebibliography}\n\\end{document}\n';
    const p = await projectServiceOver({ '/ws/paper.tex': text });
    const m = at(text.replace('\\cite{knuth}', '\\cite{kn\u2038uth}'));
    const doc = await docOf(p, '/ws/paper.tex', 'latex');
    expect(await sv(p).prepareRename(doc, m.position(doc))).toEqual({ refusal: '"knuth" is defined by a \\bibitem in paper.tex, which MLSys Papers does not write; rename it there and in its citations by hand.' });
  });

  it('a file with mixed line endings that is not open: refused, nothing planned', async () => {
    const p = await projectServiceOver({ ...files(), '/ws/sections/intro.tex': 'Intro \\cite{smith2020}.\r\nMore.\nEnd\r\n' });
    const r = await rename(p, '/ws/main.tex', 'latex', MAIN.replace('smith2020}', 'smi\u2038th2020}'), 'smith2020a');
    expect(r).toEqual({ refusal: 'sections/intro.tex has mixed line endings, which the editor would change; nothing was renamed.' });
  });
});
