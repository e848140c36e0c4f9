/**
 * Where a document's bibliography is declared, and how to declare one.
 *
 * LaTeX: `\bibliography{a,b}` (BibTeX; names without `.bib`), `\addbibresource[…]{x.bib}`
 * (biblatex manual §3.7.1), and the `% !TEX root = main.tex` magic comment (as TeXShop, TeXstudio
 * and LaTeX Workshop read it). Markdown: the YAML front matter's `bibliography:` (a string or a
 * list), as Pandoc's User's Guide ("Specifying bibliographic data") defines it.
 */
import { parseYaml } from '../text/yaml.js';
import { latexCommands } from '../latex/commands.js';
import { latexRegions, maskLatex } from '../latex/scan.js';

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

/** A bibliography file declared by a document, relative to the document's folder. */
export interface BibDeclaration {
  path: string;
  /** `bibtex` for `\bibliography`, `biblatex` for `\addbibresource`, `pandoc` for front matter. */
  via: 'bibtex' | 'biblatex' | 'pandoc';
}

/**
 * The bibliography files a LaTeX document declares, in order, outside comments, verbatim text and
 * `\iffalse` blocks (`maskLatex`). `\bibliography{refs,more}` gives `refs.bib` and `more.bib`.
 *
 * @param text - a LaTeX document
 * @param clean - the document already masked by `maskLatex`, when the caller has it
 * @returns the declared files, paths as written (with `.bib` added to `\bibliography` names)
 */
export function latexBibliographies(text: string, clean = maskLatex(text)): BibDeclaration[] {
  const out: BibDeclaration[] = [];
  const wanted = (name: string) => name === 'bibliography' || name === 'addbibresource' || name === 'begin';
  for (const cmd of latexCommands(clean, wanted, (name) => name === 'begin')) {
    let arg = cmd.groups[0]!;
    if (arg.close < 0) continue;
    if (cmd.command === 'begin') {
      // bibtopic's sections name their databases: \begin{btSect}[style]{books,articles} (bibtopic's
      // manual, section 3); BibTeX reads each as \bibliography would.
      if (clean.slice(arg.open + 1, arg.close).trim() !== 'btSect') continue;
      arg = cmd.groups[1]!;
      if (!arg || arg.close < 0) continue;
    }
    const via = cmd.command === 'addbibresource' ? 'biblatex' : 'bibtex';
    const files = clean.slice(arg.open + 1, arg.close);
    // \bibliography takes a comma-separated list; \addbibresource takes one file.
    for (const raw of via === 'bibtex' ? files.split(',') : [files]) {
      const name = raw.trim();
      if (!name) continue;
      out.push({ path: via === 'bibtex' && !/\.bib$/i.test(name) ? `${name}.bib` : name, via });
    }
  }
  return out;
}

/** The YAML front matter of a Markdown document: its text and offsets (inside the fences). */
export interface FrontMatter {
  /** Offset of the first character after the opening `---` line. */
  start: number;
  /** Offset of the closing `---` (or `...`) line. */
  end: number;
  data: Record<string, unknown> | undefined;
}

/** Finds the YAML front matter block at the top of a Markdown document (after an optional BOM). */
export function frontMatterOf(text: string): FrontMatter | undefined {
  const m = /^(\uFEFF?)---[ \t]*\r?\n/.exec(text);
  if (!m) return undefined;
  const start = m[0].length;
  const close = /^(---|\.\.\.)[ \t]*$/m;
  const rest = text.slice(start);
  const c = close.exec(rest);
  if (!c) return undefined;
  const body = rest.slice(0, c.index);
  // A front matter that is not valid YAML declares nothing (Pandoc stops with an error on it).
  const parsed = parseYaml(body).value;
  const data = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  return { start, end: start + c.index, data };
}

/**
 * The bibliography files a Pandoc `bibliography:` metadata value declares (in a document's front
 * matter or a Quarto project's `_quarto.yml`).
 *
 * @param value - the parsed YAML value of `bibliography`: a string or a list (non-strings in it are
 *   skipped); anything else declares nothing
 * @returns the declared files, paths as written
 */
export function bibliographyDeclarations(value: unknown): BibDeclaration[] {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((b): b is string => typeof b === 'string') : [];
  return list.map((path) => ({ path, via: 'pandoc' as const }));
}

/** The bibliography files a Markdown document's front matter declares (`bibliography:` string or list). */
export function markdownBibliographies(text: string): BibDeclaration[] {
  return bibliographyDeclarations(frontMatterOf(text)?.data?.bibliography);
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

/**
 * Plans declaring a bibliography in a Markdown document: a `bibliography:` line at the end of the
 * front matter, or a new front matter block at the top.
 */
export function planMarkdownBibDeclaration(text: string, file: string, eol = '\n'): Insertion {
  const fm = frontMatterOf(text);
  if (fm) return { offset: fm.end, text: `bibliography: ${file}${eol}` };
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  return { offset: bom, text: `---${eol}bibliography: ${file}${eol}---${eol}${eol}` };
}
