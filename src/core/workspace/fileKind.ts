/**
 * What a file is, decided in one place: from the editor's language id when there is one, else
 * from the file's name. Every module that treats LaTeX, Markdown, bibliographies or `.bbl` files
 * differently asks {@link fileKind}, so that a `.qmd` opened as Markdown, a `.bib` opened as plain
 * text and a `.tex` file on disk are the same kind wherever they are met.
 */
import type { URI } from 'vscode-uri';
import { bibFormatOf, type BibFormat } from './bibFormat.js';

/**
 * The kinds of file the core reads: a LaTeX source, a Markdown document (Pandoc, R Markdown,
 * MDX), a Quarto document (Pandoc Markdown with Quarto's cross-references), a bibliography in one
 * of the three formats Pandoc reads ({@link BibFormat}), and a `.bbl` (BibTeX's output, a
 * `thebibliography` LaTeX inputs).
 */
export type FileKind = 'latex' | 'markdown' | 'quarto' | BibFormat | 'bbl';

/** The VS Code language ids of LaTeX documents. */
export const LATEX_LANGUAGES: ReadonlySet<string> = new Set(['latex', 'tex', 'latex-expl3']);
/** The VS Code language ids of Markdown documents (Quarto's among them). */
export const MARKDOWN_LANGUAGES: ReadonlySet<string> = new Set(['markdown', 'quarto', 'rmd', 'pandoc', 'mdx']);
/** The language id of BibTeX documents (VS Code's LaTeX Workshop and others). */
export const BIBTEX_LANGUAGE = 'bibtex';

/**
 * The kind of a file.
 *
 * - A language id of LaTeX ({@link LATEX_LANGUAGES}) or Markdown ({@link MARKDOWN_LANGUAGES})
 *   decides: a Markdown document is `quarto` when its id is `quarto` or its name ends in `.qmd`.
 * - `bibtex` as the language id, or a bibliography's name (`bibFormatOf`, Pandoc's rule:
 *   `.bib`/`.bibtex`, `.json`, `.yaml`/`.yml`), is a bibliography.
 * - Without a language id (a file on disk), the name decides: `.tex`, `.ltx`, `.latex` are
 *   LaTeX; `.qmd` Quarto; `.md`, `.markdown`, `.rmd` Markdown; `.bbl` BibTeX's output.
 * - A document of any other language (plain text, JSON) is known only as a bibliography by name.
 *
 * @param uri - the file (a URI, or a URI's or a file's path: only its name is read)
 * @param languageId - the editor's language id, for an open document
 * @returns undefined for a file the core does not read
 */
export function fileKind(uri: URI | string, languageId?: string): FileKind | undefined {
  const path = typeof uri === 'string' ? uri : uri.path;
  if (languageId !== undefined) {
    if (LATEX_LANGUAGES.has(languageId)) return 'latex';
    if (MARKDOWN_LANGUAGES.has(languageId)) return languageId === 'quarto' || /\.qmd$/i.test(path) ? 'quarto' : 'markdown';
    if (languageId === BIBTEX_LANGUAGE) return 'bibtex';
    return bibFormatOf(path);
  }
  if (/\.(tex|ltx|latex)$/i.test(path)) return 'latex';
  if (/\.qmd$/i.test(path)) return 'quarto';
  if (/\.(md|markdown|rmd)$/i.test(path)) return 'markdown';
  if (/\.bbl$/i.test(path)) return 'bbl';
  return bibFormatOf(path);
}

/** Whether a kind of file holds citations we read and write (LaTeX or Markdown). */
export function isCiting(kind: FileKind | undefined): kind is 'latex' | 'markdown' | 'quarto' {
  return kind === 'latex' || kind === 'markdown' || kind === 'quarto';
}

/** Whether a kind of file is Markdown (Quarto included). */
export function isMarkdown(kind: FileKind | undefined): kind is 'markdown' | 'quarto' {
  return kind === 'markdown' || kind === 'quarto';
}

/** Whether a kind of file is a bibliography, and in which format. */
export function isBibliography(kind: FileKind | undefined): kind is BibFormat {
  return kind === 'bibtex' || kind === 'csl-json' || kind === 'csl-yaml';
}
