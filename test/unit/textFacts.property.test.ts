/**
 * An open document's facts, carried over its edits (`core/text/textFacts.ts`), are the facts a
 * full scan of its current text gives: on generated LaTeX and Markdown documents and random
 * sequences of edits (words typed anywhere, and the characters the scanners react to), after every
 * edit. And the document's text, edited in place (`core/text/lineText.ts`), is the text
 * `vscode-languageserver-textdocument` gives, with the same positions.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { TEX_ROOT } from '../../src/core/latex/bibDeclarations.js';
import { FRONT_MATTER } from '../../src/core/markdown/frontMatter.js';
import { citationAtIn, documentCitations, documentCitationsIn, LATEX_CITATIONS, PANDOC_KEYS } from '../../src/core/cite/citations.js';
import { LATEX_FILE_FACTS } from '../../src/core/latex/fileFacts.js';
import type { TextFact } from '../../src/core/text/textFacts.js';
import { OpenDocument } from '../../src/server/openDocument.js';

const LATEX_LINES = [
  '\\documentclass{article}', '% !TEX root = main.tex', 'Plain words in a sentence, and more.', 'As \\cite{a,b} shows, \\citep[p.~3]{c}.',
  '\\cite{d,', ' e}', '\\cites(pre)(post)[x]{f}{g}', '% \\cite{hidden} comment', 'x \\cite{h} % mlsys-papers: ignore', '\\verb|\\cite{v}| and \\url{a%b}',
  '\\begin{verbatim}', '\\cite{inverb}', '\\end{verbatim}', '\\iffalse', '\\cite{skipped}', '\\fi', '\\if0 \\cite{zero} \\fi', '\\newif\\ifdraft',
  '\\bibliography{refs,more}', '\\addbibresource[label=x]{lib.bib}', '\\input{chapter}', '\\input sub', '\\begin{thebibliography}{9}',
  '\\bibitem{k1} First item text', 'continues here.', '\\bibitem[K]{k2} Second.', '\\end{thebibliography}', '\\section{Title}\\label{s}',
  '\\begin{itemize}\\item one \\item two\\end{itemize}', '', '   ', 'a {brace', 'close} b', '\\begin', '{comment}', '\\end{comment}', '\\begin{refsection}[r.bib]',
];
const MARKDOWN_LINES = [
  '---', 'bibliography: refs.bib', 'nocite: |', '  @n1, @n2', '---', '# Heading', 'Plain words in a sentence, and more.', 'As [@a; @b] shows, @c says.',
  '[see', '@d, p. 3]', '- item @e', '1. first', 'A. letter', '', '```', '@incode', '```', 'mail me at x@y.org', '$x @m$ and `@code`', '<span @h>',
  '[link](http://x.org/@u "t") text', '::: {#refs}', ':::', '    indented @i', '> quote @q', 'Term', ': definition', '***', '===', '...', '(@ex) example', '<!-- @comment -->',
];
/** What an edit inserts: words mostly, and now and then what the scanners react to. */
const INSERTS = ['more ', 'x', ' ', 'word', 'a', '1', '.', ',', '\\', '%', '{', '}', '[', ']', '(', ')', '@', '\n', '\r\n', '*', '-', ':', '`', '$', '<', '>', '#', '~', 'cite', 'verb', 'fi', 'if', 'begin', 'end', '|', '---\n'];

const editArb = fc.record({ at: fc.nat(), length: fc.oneof(fc.constant(0), fc.constant(0), fc.nat(3)), text: fc.oneof(fc.constantFrom(...INSERTS), fc.constant('')) });

/** The fact as a full scan gives it, and as the document carries it, offsets in the current text. */
function both<T>(doc: OpenDocument, f: TextFact<T>, moved: (v: T, fromBase: (o: number) => number) => unknown): [unknown, unknown] {
  const view = doc.fact(f);
  return [moved(view.value, view.fromBase), moved(f.value(doc.getText()), (o) => o)];
}
const keysMoved = (v: { cited: { key: string; offset: number; length: number }[]; all: boolean }, from: (o: number) => number) => ({
  all: v.all, cited: v.cited.map((c) => ({ key: c.key, offset: from(c.offset), length: c.length })),
});
const same = <T>(v: T) => v;

function run(languageId: 'latex' | 'markdown', lines: readonly string[], edits: readonly { at: number; length: number; text: string }[]) {
  const text = lines.join('\n');
  const doc = new OpenDocument('file:///ws/doc', languageId, 1, text);
  let reference = TextDocument.create('file:///ws/doc', languageId, 1, text);
  const facts = languageId === 'latex' ? [LATEX_CITATIONS, LATEX_FILE_FACTS, TEX_ROOT] as TextFact<unknown>[] : [PANDOC_KEYS, FRONT_MATTER] as TextFact<unknown>[];
  for (const f of facts) doc.fact(f);
  let version = 1;
  for (const e of edits) {
    const length = doc.getText().length;
    const start = doc.positionAt(e.at % (length + 1));
    const end = doc.positionAt(Math.min(length, (e.at % (length + 1)) + e.length));
    doc.update([{ range: { start, end }, text: e.text }], ++version);
    reference = TextDocument.create('file:///ws/doc', languageId, version, TextDocument.applyEdits(reference, [{ range: { start, end }, newText: e.text }]));
    expect(doc.getText()).toBe(reference.getText());
    expect(doc.lineCount).toBe(reference.lineCount);
    const checks = languageId === 'latex'
      ? [both(doc, LATEX_CITATIONS, keysMoved), both(doc, LATEX_FILE_FACTS, same), both(doc, TEX_ROOT, same)]
      : [both(doc, PANDOC_KEYS, keysMoved), both(doc, FRONT_MATTER, same)];
    for (const [carried, full] of checks) expect(carried).toEqual(full);
  }
  // Every offset answers as the full scan of the text does, and so does the list of citations.
  const full = { text: doc.getText(), languageId };
  const open = { get text() { return doc.getText(); }, languageId, facts: doc };
  for (let o = 0; o <= full.text.length; o++) expect(citationAtIn(open, o)).toEqual(citationAtIn(full, o));
  expect(documentCitationsIn(open)).toEqual(documentCitations(full.text, languageId));
  for (let o = 0; o <= full.text.length; o += 7) {
    expect(doc.positionAt(o)).toEqual(reference.positionAt(o));
    expect(doc.offsetAt(reference.positionAt(o))).toBe(reference.offsetAt(reference.positionAt(o)));
  }
}

describe('facts carried over edits are the facts of a full scan', () => {
  for (const [languageId, lines] of [['latex', LATEX_LINES], ['markdown', MARKDOWN_LINES]] as const) {
    it(`${languageId}: after every edit of a random sequence`, () => {
      fc.assert(fc.property(fc.array(fc.constantFrom(...lines), { minLength: 1, maxLength: 40 }), fc.array(editArb, { maxLength: 30 }), (doc, edits) => {
        run(languageId, doc, edits);
      }), { numRuns: Number(process.env.FACT_RUNS ?? 300) });
    });
  }

  it('typing words in the middle of a LaTeX paper keeps the facts (no scan of the whole text)', () => {
    const text = Array.from({ length: 50 }, (_, i) => LATEX_LINES[i % LATEX_LINES.length]).join('\n');
    const doc = new OpenDocument('file:///ws/doc.tex', 'latex', 1, text);
    const first = doc.fact(LATEX_CITATIONS).value;
    const line = 2; // 'Plain words in a sentence, and more.'
    for (let v = 2; v < 20; v++) doc.update([{ range: { start: { line, character: 6 }, end: { line, character: 6 } }, text: 'more ' }], v);
    expect(doc.fact(LATEX_CITATIONS).value).toBe(first);
  });
});
