/**
 * Where a document's bibliography is declared, and how to declare one.
 *
 * LaTeX: `\bibliography{a,b}` (BibTeX; names without `.bib`), `\addbibresource[…]{x.bib}`
 * (biblatex manual §3.7.1), and the `% !TEX root = main.tex` magic comment (as TeXShop, TeXstudio
 * and LaTeX Workshop read it). Markdown: the YAML front matter's `bibliography:` (a string or a
 * list), as Pandoc's User's Guide ("Specifying bibliographic data") defines it.
 */
import { parseYaml } from '../yaml.js';

/** Removes LaTeX comments (an unescaped `%` to the end of the line), keeping offsets. */
function stripTexComments(text: string): string {
  return text.replace(/(^|[^\\])(%.*)$/gm, (_m, pre: string, comment: string) => pre + ' '.repeat(comment.length));
}

/**
 * The root file named by a `% !TEX root = …` magic comment in the first 20 lines.
 *
 * @returns the path as written (relative to the document's folder), or undefined
 */
export function texRootOf(text: string): string | undefined {
  const head = text.split(/\r?\n/, 20).join('\n');
  return /^\s*%\s*!TeX\s+root\s*=\s*(.+?)\s*$/im.exec(head)?.[1];
}

/** A bibliography file declared by a document, relative to the document's folder. */
export interface BibDeclaration {
  path: string;
  /** `bibtex` for `\bibliography`, `biblatex` for `\addbibresource`, `pandoc` for front matter. */
  via: 'bibtex' | 'biblatex' | 'pandoc';
}

/**
 * The bibliography files a LaTeX document declares, in order.
 * `\bibliography{refs,more}` gives `refs.bib` and `more.bib`.
 */
export function latexBibliographies(text: string): BibDeclaration[] {
  const clean = stripTexComments(text);
  const out: BibDeclaration[] = [];
  for (const m of clean.matchAll(/\\(bibliography|addbibresource)\s*(?:\[[^\]]*\])?\s*\{([^}]*)\}/g)) {
    const via = m[1] === 'bibliography' ? 'bibtex' : 'biblatex';
    // \bibliography takes a comma-separated list; \addbibresource takes one file.
    for (const raw of via === 'bibtex' ? m[2]!.split(',') : [m[2]!]) {
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

/** The bibliography files a Markdown document's front matter declares (`bibliography:` string or list). */
export function markdownBibliographies(text: string): BibDeclaration[] {
  const bib = frontMatterOf(text)?.data?.bibliography;
  const list = typeof bib === 'string' ? [bib] : Array.isArray(bib) ? bib.filter((b): b is string => typeof b === 'string') : [];
  return list.map((path) => ({ path, via: 'pandoc' as const }));
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
 * before `\end{document}`.
 *
 * @param file - the file name relative to the document, e.g. `references.bib`
 * @returns the insertions in ascending offset order, or undefined when the document has no `\end{document}`
 */
export function planLatexBibDeclaration(text: string, file: string, eol = '\n'): Insertion[] | undefined {
  const clean = stripTexComments(text);
  const end = clean.lastIndexOf('\\end{document}');
  if (end < 0) return undefined;
  const lineStart = (o: number) => text.lastIndexOf('\n', o - 1) + 1;
  if (/\\usepackage\s*(\[[^\]]*\])?\s*\{[^}]*\bbiblatex\b[^}]*\}/.test(clean)) {
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
