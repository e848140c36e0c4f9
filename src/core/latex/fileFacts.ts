/**
 * What one LaTeX file links to and declares, read from its text alone: the facts the project model
 * (`project.ts`) builds its graph from, kept per file and recomputed once per change of its text.
 *
 * How links are read, and where each rule comes from:
 * - `\input{file}` and `\input file` (LaTeX2e `ltfiles.dtx`: with braces LaTeX's `\input`, without
 *   them TeX's primitive, whose file name ends at a blank); `\include{file}`;
 *   `\InputIfFileExists{file}`; the subfiles package's `\subfile{file}` and `\subfileinclude{file}`.
 * - The import package's `\import{dir}{file}` and `\subimport{dir}{file}`, and their `\inputfrom`,
 *   `\includefrom`, `\subinputfrom`, `\subincludefrom` forms (import package manual, "\import",
 *   "\subimport"), kept with their folder argument.
 * - A root is a file with `\documentclass` (or LaTeX 2.09's `\documentstyle`); a subfiles document
 *   (`\documentclass[main.tex]{subfiles}`, subfiles manual §2) names its main file.
 * - Its `\bibliography` and `\addbibresource` declarations (`bibDeclarations.ts`) and its
 *   `\bibitem`s (`bibitems.ts`).
 * - Every command is read outside comments, verbatim text and `\iffalse` blocks (`maskLatex`); a
 *   path holding a macro (`\input{\dir/a}`) or a macro parameter (`#1`) is not followed.
 *
 * Pure: no `node:`, no `vscode`.
 */
import { latexBibliographies, latexDeclarationSpans, type BibDeclaration } from './bibDeclarations.js';
import { latexBibitems, type LatexThebibliography } from './bibitems.js';
import { latexCommands } from './commands.js';
import { BACKSLASH, isLetter, LBRACE, maskLatex } from './scan.js';
import type { Span, TextFact } from '../text/textFacts.js';

/** How a file is pulled in. */
export type LatexLinkKind = 'input' | 'include' | 'subfile' | 'import' | 'subimport';

/** One link from a LaTeX file to another, as written. */
export interface LatexLink {
  kind: LatexLinkKind;
  /** The file as written (quotes and blanks around it removed). */
  path: string;
  /** `import`/`subimport`: the folder argument as written ('' for none). */
  dir?: string;
}

/** What the project keeps of one file: read from its text once per change. */
export interface LatexFileFacts {
  links: LatexLink[];
  /** Its `\bibliography` and `\addbibresource` declarations, paths as written. */
  bibs: BibDeclaration[];
  /** It has `\documentclass` (or `\documentstyle`): it can be compiled. */
  documentClass: boolean;
  /** Its `\bibitem`s and `thebibliography` environments (`bibitems.ts`). */
  thebibliography: LatexThebibliography;
  /** A subfiles document: the main file its `\documentclass[main]{subfiles}` names, as written ('' when none). */
  subfilesMain?: string;
}

/** Commands that pull in one file, by name (without backslash or star). */
const INCLUDE_COMMANDS: ReadonlyMap<string, LatexLinkKind> = new Map([
  ['input', 'input'], ['include', 'include'], ['InputIfFileExists', 'input'], ['subfile', 'subfile'], ['subfileinclude', 'subfile'],
  ['import', 'import'], ['inputfrom', 'import'], ['includefrom', 'import'],
  ['subimport', 'subimport'], ['subinputfrom', 'subimport'], ['subincludefrom', 'subimport'],
]);

/** Whether a character ends the file name of TeX's primitive `\input name` (a blank, a line end, or a character that starts TeX code). */
const endsBareName = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === BACKSLASH || c === LBRACE || c === 125 || c === 37;

/** A path as written, or undefined when it cannot be followed statically (empty, a macro, a parameter). */
function cleanPath(raw: string): string | undefined {
  let p = raw.trim();
  if (p.length >= 2 && p.startsWith('"') && p.endsWith('"')) p = p.slice(1, -1).trim();
  if (!p || /[\\#{}%]/.test(p)) return undefined;
  return p;
}

/**
 * What a LaTeX file links to and declares (see the module's documentation for the rules).
 *
 * @param text - the file's text
 * @returns its links in order, its bibliography declarations, whether it is a root
 */
export function latexFileFacts(text: string, clean = maskLatex(text)): LatexFileFacts {
  const links: LatexLink[] = [];
  const several = (name: string) => INCLUDE_COMMANDS.get(name) === 'import' || INCLUDE_COMMANDS.get(name) === 'subimport';
  for (const cmd of latexCommands(clean, (name) => INCLUDE_COMMANDS.has(name), several)) {
    const kind = INCLUDE_COMMANDS.get(cmd.command)!;
    const closed = cmd.groups.filter((g) => g.close >= 0);
    const arg = (i: number) => (closed[i] ? clean.slice(closed[i]!.open + 1, closed[i]!.close) : undefined);
    if (kind === 'import' || kind === 'subimport') {
      const dir = arg(0);
      const path = cleanPath(arg(1) ?? '');
      const d = dir === undefined ? undefined : dir.trim() === '' ? '' : cleanPath(dir);
      if (path && d !== undefined) links.push({ kind, path, dir: d });
      continue;
    }
    const path = cleanPath(arg(0) ?? '');
    if (path) links.push({ kind, path });
  }
  // TeX's primitive form: `\input name` (no braces).
  for (let at = clean.indexOf('\\input'); at >= 0; at = clean.indexOf('\\input', at + 6)) {
    let run = 0;
    while (at - run - 1 >= 0 && clean.charCodeAt(at - run - 1) === BACKSLASH) run++;
    if (run % 2 === 1) continue;
    let k = at + 6;
    if (k < clean.length && isLetter(clean.charCodeAt(k))) continue;
    while (k < clean.length && (clean.charCodeAt(k) === 32 || clean.charCodeAt(k) === 9)) k++;
    if (k >= clean.length || clean.charCodeAt(k) === LBRACE) continue;
    const s = k;
    while (k < clean.length && !endsBareName(clean.charCodeAt(k))) k++;
    const path = cleanPath(clean.slice(s, k));
    if (path) links.push({ kind: 'input', path });
  }
  let documentClass = false;
  let subfilesMain: string | undefined;
  for (const cmd of latexCommands(clean, (name) => name === 'documentclass' || name === 'documentstyle')) {
    const g = cmd.groups[0]!;
    if (g.close < 0) continue;
    documentClass = true;
    if (clean.slice(g.open + 1, g.close).trim() === 'subfiles') {
      const option = /\[([^\]]*)\]/.exec(clean.slice(cmd.start, g.open));
      // A subfiles document without the option names no main file ('').
      subfilesMain = (option && cleanPath(option[1]!)) ?? '';
    }
  }
  return { links, bibs: latexBibliographies(text, clean), documentClass, subfilesMain, thebibliography: latexBibitems(text, clean) };
}

/**
 * {@link latexFileFacts} as a fact of a text (`text/textFacts.ts`). An edit may change it where
 * its declarations are read (`latexDeclarationSpans`), inside the arguments of a link,
 * `\documentclass`, `\begin` or `\end` (read with every argument that follows), an
 * optional argument after them (`\begin{refsection}[refs.bib]`), a `\input name` and the line after
 * it, or from the first `\bibitem` on (an item's text runs to the next one); an edit before a
 * `\bibitem` moves its offset.
 */
export const LATEX_FILE_FACTS: TextFact<LatexFileFacts> = {
  name: 'latexFileFacts',
  language: 'latex',
  value: (text) => latexFileFacts(text),
  compute(text) {
    const clean = maskLatex(text);
    const value = latexFileFacts(text, clean);
    const n = clean.length;
    const spans: Span[] = latexDeclarationSpans(clean);
    const read = (name: string) => INCLUDE_COMMANDS.has(name) || name === 'documentclass' || name === 'documentstyle' || name === 'begin' || name === 'end';
    for (const cmd of latexCommands(clean, read, () => true)) {
      let end = cmd.groups[cmd.groups.length - 1]!.end;
      let k = end + 1;
      while (k < n && /\s/.test(clean[k]!)) k++;
      if (clean[k] === '[') { const close = clean.indexOf(']', k); end = close < 0 ? n : close; }
      spans.push({ start: cmd.start, end });
    }
    for (let at = clean.indexOf('\\input'); at >= 0; at = clean.indexOf('\\input', at + 6)) {
      let end = at;
      for (let line = 0; line < 2 && end < n; line++) {
        while (end < n && clean[end] !== '\n' && clean[end] !== '\r') end++;
        end++;
      }
      spans.push({ start: at, end });
    }
    const first = clean.indexOf('\\bibitem');
    if (first >= 0) spans.push({ start: first, end: n });
    return { value, spans };
  },
  shift(value, at, delta) {
    if (!value.thebibliography.items.some((i) => i.offset >= at)) return value;
    const items = value.thebibliography.items.map((i) => (i.offset >= at ? { ...i, offset: i.offset + delta } : i));
    return { ...value, thebibliography: { ...value.thebibliography, items } };
  },
};
