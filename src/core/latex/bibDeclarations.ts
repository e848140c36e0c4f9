/**
 * Where a document's bibliography is declared, and how to declare one.
 *
 * LaTeX: `\bibliography{a,b}` (BibTeX; names without `.bib`), `\addbibresource[…]{x.bib}`
 * (biblatex manual §3.7.1), and the `% !TEX root = main.tex` magic comment (as TeXShop, TeXstudio
 * and LaTeX Workshop read it). Markdown's (the front matter's `bibliography:`) are
 * `markdown/frontMatter.ts`'s, in the same {@link BibDeclaration} form.
 */
import type { URI } from 'vscode-uri';
import { latexCommands } from './commands.js';
import { isLetter, latexRegions, maskLatex } from './scan.js';
import { afterLine, type Span, type TextFact } from '../text/textFacts.js';

/**
 * The root file named by a `% !TEX root = …` magic comment in the first 20 lines: a comment (as
 * `latexRegions` finds them: not a `\%`, not inside verbatim text) that starts its line, spelled
 * `!TEX`, `!TeX` or any other case, as TeXShop, TeXstudio and LaTeX Workshop read it.
 *
 * @param text - a LaTeX document
 * @returns the path as written (relative to the document's folder), or undefined
 */
export function texRootOf(text: string): string | undefined {
  return texRootCommentOf(text)?.path;
}

/** A `% !TEX root` magic comment: the path it names and where it is. */
export interface TexRootComment {
  /** The path as written (relative to the document's folder). */
  path: string;
  /** 0-based line of the comment. */
  line: number;
  /** Offsets of the comment, `%` to the line end (UTF-16 code units). */
  start: number;
  end: number;
}

/** {@link texRootOf}, with the comment's line and offsets (for a diagnostic on a root that does not exist). */
export function texRootCommentOf(text: string): TexRootComment | undefined {
  let headEnd = 0;
  for (let line = 0; line < 20; line++) {
    const nl = text.indexOf('\n', headEnd);
    if (nl < 0) { headEnd = text.length; break; }
    headEnd = nl + 1;
  }
  for (const r of latexRegions(text, { end: headEnd })) {
    if (r.kind !== 'comment') continue;
    const lineStart = Math.max(text.lastIndexOf('\n', r.start - 1), text.lastIndexOf('\r', r.start - 1)) + 1;
    if (text.slice(lineStart, r.start).trim()) continue;
    const m = /^%\s*!TeX\s+root\s*=(.*)$/i.exec(text.slice(r.start, r.end));
    const root = m?.[1]!.trim();
    if (!root) continue;
    let line = 0;
    for (let k = 0; k < r.start; k++) {
      const c = text.charCodeAt(k);
      // A lone CR ends a line too; CRLF counts once.
      if (c === 10 || (c === 13 && text.charCodeAt(k + 1) !== 10)) line++;
    }
    return { path: root, line, start: r.start, end: r.end };
  }
  return undefined;
}

/** {@link texRootCommentOf} as a fact of a text (`text/textFacts.ts`): only an edit in the first 20 lines may change it. */
export const TEX_ROOT: TextFact<TexRootComment | undefined> = {
  name: 'texRoot',
  language: 'latex',
  value: texRootCommentOf,
  compute: (text) => ({ value: texRootCommentOf(text), spans: [{ start: 0, end: afterLine(text, 20) }] }),
};

/** A bibliography file declared by a document, relative to the document's folder. */
export interface BibDeclaration {
  path: string;
  /**
   * `bibtex` for `\bibliography` and the commands that name BibTeX databases like it (bibunits'
   * `\putbib`, bibtopic's `btSect`), `biblatex` for biblatex's resources (`\addbibresource`,
   * `\addglobalbib`, `\addsectionbib`, a `refsection`'s), `pandoc` for Markdown's.
   */
  via: 'bibtex' | 'biblatex' | 'pandoc';
  /**
   * The folder the path is relative to, when not the root's: the declaring file's for a `\subfix`
   * path, or a `\bibliography` in a subfiles document (set by the project model, which knows the
   * file); the working directory of a pandoc build that names the file. Resolving tries it first,
   * then the root's folder.
   */
  dir?: URI;
  /** Written as `\subfix{path}` (subfiles manual, "Fixing paths"): relative to the declaring file's folder. */
  subfix?: true;
  /** biblatex's `label=` option: a `refsection`'s optional argument may name the resource by it. */
  label?: string;
  /** From a `refsection` environment's optional argument: a resource, or the label of one. */
  section?: true;
  /**
   * A resource that is not a file we read: a URL (`location=remote`), another data type than
   * BibTeX's (`datatype=biblatexml`, `ris`, …), or a glob (`glob=true`, biber expands it).
   */
  unread?: 'remote' | 'datatype' | 'glob';
}

/** The commands that declare bibliography files, each with what it is: a BibTeX database list, or one biblatex resource. */
const DECLARING: ReadonlyMap<string, 'list' | 'resource'> = new Map([
  // LaTeX's \bibliography; bibentry's \nobibliography; bibunits' \defaultbibliography.
  ['bibliography', 'list'], ['nobibliography', 'list'], ['defaultbibliography', 'list'],
  // biblatex manual §3.8.1 (3.7.1 in older editions): \addbibresource, \addglobalbib, \addsectionbib.
  ['addbibresource', 'resource'], ['addglobalbib', 'resource'], ['addsectionbib', 'resource'],
  ['begin', 'list'],
]);

/** At most this many characters of an argument are read for its closing brace (paths are short). */
const ARGUMENT_MAX = 4096;

/** The offset of the `}` that closes the group opened at `open`, braces nested (`{\subfix{a}}`); -1 when none within {@link ARGUMENT_MAX}. */
function closingBrace(clean: string, open: number): number {
  let depth = 0;
  const end = Math.min(clean.length, open + ARGUMENT_MAX);
  for (let k = open; k < end; k++) {
    const c = clean.charCodeAt(k);
    if (c === 92) { k++; continue; }
    if (c === 123) depth++;
    else if (c === 125 && --depth === 0) return k;
  }
  return -1;
}

/** The text of an optional argument `[…]` at `at` (after blanks); undefined when none. */
function optionalAt(clean: string, at: number): string | undefined {
  const m = /^\s*\[([^\]]*)\]/.exec(clean.slice(at, at + ARGUMENT_MAX));
  return m?.[1];
}

/** A `key=value` option list (`location=remote, label={x}`) as a map, keys lower-cased, values unbraced. */
function keyValues(options: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of options.split(',')) {
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (key) out.set(key, eq < 0 ? 'true' : part.slice(eq + 1).trim().replace(/^\{(.*)\}$/s, '$1').trim());
  }
  return out;
}

/** One name of a declaration as written: `\subfix{p}` is `p` relative to the declaring file. */
function nameOf(raw: string): { name: string; subfix?: true } | undefined {
  const name = raw.trim();
  if (!name) return undefined;
  const fix = /^\\subfix\s*\{([^{}]*)\}$/.exec(name);
  return fix ? (fix[1]!.trim() ? { name: fix[1]!.trim(), subfix: true } : undefined) : { name };
}

/**
 * The bibliography files a LaTeX document declares, in order, outside comments, verbatim text and
 * `\iffalse` blocks (`maskLatex`):
 *
 * - `\bibliography{refs,more}` (and bibentry's `\nobibliography{…}`, bibunits'
 *   `\defaultbibliography{…}` and `\putbib[…]`, bibtopic's `\begin{btSect}[style]{…}`): BibTeX
 *   databases, `.bib` added to each name without it;
 * - biblatex's `\addbibresource`, `\addglobalbib` and `\addsectionbib` (`[options]{resource}`:
 *   `label=` names it, `location=remote` and a `datatype` other than `bibtex` make it a resource we
 *   do not read, as does `glob=true`), and `\begin{refsection}[a.bib,label]` (the resources of that
 *   section, files or labels). biblatex reads a section's citations from the global resources and
 *   the section's own (or else the default ones); the union of all of them is read here, so a key is
 *   never flagged that some section defines (checked with biber 2.18);
 * - the subfiles package's `\subfix{path}` in any of them: the path relative to the declaring file.
 *
 * @param text - a LaTeX document
 * @param clean - the document already masked by `maskLatex`, when the caller has it
 * @returns the declared files, paths as written (with `.bib` added to BibTeX database names)
 */
export function latexBibliographies(text: string, clean = maskLatex(text)): BibDeclaration[] {
  return declarationsIn(clean).map((f) => f.decl);
}

/**
 * Where a LaTeX document's own text declares each bibliography file ({@link latexBibliographies}'s
 * declarations, in the same order): the declaring command's offsets, from its backslash to the
 * brace that closes its argument (for `\putbib`, the command's name). For a diagnostic about the
 * file placed on the command that names it.
 *
 * @returns each declaration with `start` and `end` (UTF-16 offsets into `text`, end exclusive)
 */
export function latexBibliographySpans(text: string, clean = maskLatex(text)): { decl: BibDeclaration; start: number; end: number }[] {
  return declarationsIn(clean).map((f) => ({ decl: f.decl, start: f.at, end: f.end }));
}

/** The declarations of a masked LaTeX text with their commands' offsets, in text order (see {@link latexBibliographies}). */
function declarationsIn(clean: string): { at: number; end: number; decl: BibDeclaration }[] {
  const found: { at: number; end: number; decl: BibDeclaration }[] = [];
  const list = (at: number, end: number, names: string, via: BibDeclaration['via'], extra: Partial<BibDeclaration> = {}) => {
    for (const raw of names.split(',')) {
      const n = nameOf(raw);
      if (!n) continue;
      const path = via === 'bibtex' && !/\.bib$/i.test(n.name) ? `${n.name}.bib` : n.name;
      found.push({ at, end, decl: { path, via, ...(n.subfix ? { subfix: true } : {}), ...extra } });
    }
  };
  for (const cmd of latexCommands(clean, (name) => DECLARING.has(name), (name) => name === 'begin')) {
    const g = cmd.groups[0]!;
    const close = closingBrace(clean, g.open);
    if (close < 0) continue;
    const arg = clean.slice(g.open + 1, close);
    if (cmd.command === 'begin') {
      const env = arg.trim();
      // bibtopic's sections name their databases: \begin{btSect}[style]{books,articles} (bibtopic's
      // manual, section 3); BibTeX reads each as \bibliography would.
      if (env === 'btSect') {
        const second = cmd.groups[1];
        const end = second ? closingBrace(clean, second.open) : -1;
        if (second && end >= 0) list(cmd.start, end + 1, clean.slice(second.open + 1, end), 'bibtex');
      } else if (env === 'refsection') {
        const resources = optionalAt(clean, close + 1);
        if (resources !== undefined) list(cmd.start, close + 1, resources, 'biblatex', { section: true });
      }
      continue;
    }
    if (DECLARING.get(cmd.command) === 'list') { list(cmd.start, close + 1, arg, 'bibtex'); continue; }
    // One resource, with its options: \addbibresource[label=x,location=remote]{…}.
    const options = keyValues([...clean.slice(cmd.start, g.open).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!).join(','));
    const n = nameOf(arg);
    if (!n) continue;
    const datatype = options.get('datatype')?.toLowerCase();
    const unread = options.get('location')?.toLowerCase() === 'remote' || /^[a-z][a-z0-9+.-]*:\/\//i.test(n.name) ? 'remote'
      : datatype && datatype !== 'bibtex' ? 'datatype'
        : options.get('glob')?.toLowerCase() === 'true' ? 'glob' : undefined;
    const label = options.get('label');
    found.push({ at: cmd.start, end: close + 1, decl: { path: n.name, via: 'biblatex', ...(n.subfix ? { subfix: true } : {}), ...(label ? { label } : {}), ...(unread ? { unread } : {}) } });
  }
  // bibunits' \putbib[refs,more] names the unit's databases in its optional argument alone (bibunits
  // manual, "User interface"); without one the unit uses \defaultbibliography's.
  for (let at = clean.indexOf('\\putbib'); at >= 0; at = clean.indexOf('\\putbib', at + 7)) {
    let run = 0;
    while (at - run - 1 >= 0 && clean.charCodeAt(at - run - 1) === 92) run++;
    if (run % 2 === 1 || isLetter(clean.charCodeAt(at + 7))) continue;
    const names = optionalAt(clean, at + 7);
    if (names !== undefined) list(at, at + 7, names, 'bibtex');
  }
  return found.sort((a, b) => a.at - b.at);
}

/**
 * Where an edit could change {@link latexBibliographies}'s answer beyond moving it (for
 * `latex/fileFacts.ts`'s fact of a file): each declaring command from its backslash through the
 * reach of its arguments' reading (`closingBrace` and `optionalAt` read at most
 * {@link ARGUMENT_MAX} characters each), an environment's name, and each `\putbib` with its optional
 * argument.
 *
 * @param clean - the masked text (`maskLatex`)
 */
export function latexDeclarationSpans(clean: string): Span[] {
  const spans: Span[] = [];
  for (const cmd of latexCommands(clean, (name) => DECLARING.has(name), (name) => name === 'begin')) {
    const g = cmd.groups[0]!;
    const close = closingBrace(clean, g.open);
    const env = cmd.command === 'begin' && close >= 0 ? clean.slice(g.open + 1, close).trim() : '';
    // An environment's name is read to its closing brace; a declaration's arguments as far as they may be read.
    const reach = cmd.command !== 'begin' || env === 'btSect' || env === 'refsection' ? g.open + 3 * ARGUMENT_MAX : close >= 0 ? close : g.open + ARGUMENT_MAX;
    spans.push({ start: cmd.start, end: Math.max(cmd.groups[cmd.groups.length - 1]!.end, reach) });
  }
  for (let at = clean.indexOf('\\putbib'); at >= 0; at = clean.indexOf('\\putbib', at + 7)) spans.push({ start: at, end: at + 7 + ARGUMENT_MAX });
  return spans;
}

/**
 * The declarations of {@link latexBibliographies} that name files to read, in order: not a
 * resource we do not read, and not a `refsection`'s naming of a resource by its label (that
 * resource is declared already).
 *
 * @returns the files to read, and the resources that cannot be read (as written)
 */
export function readableDeclarations(decls: readonly BibDeclaration[]): { files: BibDeclaration[]; unread: string[] } {
  const labels = new Set(decls.flatMap((d) => (d.label ? [d.label] : [])));
  const files: BibDeclaration[] = [];
  const unread: string[] = [];
  for (const d of decls) {
    if (d.section && labels.has(d.path)) continue;
    if (d.unread) unread.push(d.path);
    else files.push(d);
  }
  return { files, unread };
}

/** An insertion into a document's text. */
export interface Insertion {
  offset: number;
  text: string;
}

/**
 * Plans declaring a new bibliography file in a LaTeX document: `\addbibresource{file}` in the
 * preamble when the document loads biblatex (and `\printbibliography` before `\end{document}` when
 * missing), else `\bibliographystyle{plain}` (when no style is set) and `\bibliography{name}`
 * before `\end{document}`. Commands in comments, verbatim text and `\iffalse` blocks (`maskLatex`)
 * count for nothing: a commented-out `\usepackage{biblatex}` does not make the document biblatex's.
 *
 * @param file - the file name relative to the document, e.g. `references.bib`
 * @returns the insertions in ascending offset order, or undefined when the document has no `\end{document}`
 */
export function planLatexBibDeclaration(text: string, file: string, eol = '\n'): Insertion[] | undefined {
  const clean = maskLatex(text);
  const end = clean.lastIndexOf('\\end{document}');
  if (end < 0) return undefined;
  const lineStart = (o: number) => text.lastIndexOf('\n', o - 1) + 1;
  const biblatex = latexCommands(clean, (name) => name === 'usepackage')
    .some((u) => u.groups[0]!.close >= 0 && /\bbiblatex\b/.test(clean.slice(u.groups[0]!.open + 1, u.groups[0]!.close)));
  if (biblatex) {
    const begin = clean.indexOf('\\begin{document}');
    const out: Insertion[] = [];
    if (begin >= 0) out.push({ offset: lineStart(begin), text: `\\addbibresource{${file}}${eol}` });
    if (!/\\printbibliography/.test(clean)) out.push({ offset: lineStart(end), text: `\\printbibliography${eol}` });
    return out;
  }
  const style = /\\bibliographystyle\s*\{/.test(clean) ? '' : `\\bibliographystyle{plain}${eol}`;
  return [{ offset: lineStart(end), text: `${style}\\bibliography{${file.replace(/\.bib$/i, '')}}${eol}` }];
}
