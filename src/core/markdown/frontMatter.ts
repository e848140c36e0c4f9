/**
 * A Markdown document's YAML front matter, and the bibliography it declares: `bibliography:` (a
 * string or a list), as Pandoc's User's Guide ("Specifying bibliographic data") defines it.
 */
import { parseYaml } from '../text/yaml.js';
import { afterLine, type TextFact } from '../text/textFacts.js';
import type { BibDeclaration, Insertion } from '../latex/bibDeclarations.js';

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

/**
 * Where a Markdown document's front matter declares its bibliographies: the `bibliography:` line
 * (a key at the start of a line of the front matter, the line up to its end).
 *
 * @returns UTF-16 offsets into `text` (end exclusive), or undefined when the front matter has no such line
 */
export function frontMatterBibliographySpan(text: string): { start: number; end: number } | undefined {
  const fm = frontMatterOf(text);
  if (!fm) return undefined;
  const m = /^bibliography[ \t]*:[^\r\n]*/m.exec(text.slice(fm.start, fm.end));
  return m ? { start: fm.start + m.index, end: fm.start + m.index + m[0].trimEnd().length } : undefined;
}

/** The bibliography files a Markdown document's front matter declares (`bibliography:` string or list). */
export function markdownBibliographies(text: string): BibDeclaration[] {
  return bibliographyDeclarations(frontMatterOf(text)?.data?.bibliography);
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

/**
 * A Markdown document's front matter with all that comes before it: the text from its start through
 * the front matter's closing line, '' when it has none (what {@link frontMatterOf},
 * {@link markdownBibliographies}, `inlineReferences` and `crossrefSyntaxOf` read, with the same
 * answers as on the whole text). A fact of the text (`text/textFacts.ts`): only an edit in it, or
 * on the first line, may change it.
 */
export const FRONT_MATTER: TextFact<string> = {
  name: 'frontMatter',
  language: 'markdown',
  value(text) { return FRONT_MATTER.compute(text).value; },
  compute(text) {
    const fm = frontMatterOf(text);
    if (!fm) return { value: '', spans: [{ start: 0, end: afterLine(text, 0) }] };
    // The closing line ends the head: from fm.end, the line's end and its break.
    const head = text.slice(0, afterLine(text, 0, fm.end));
    return { value: head, spans: [{ start: 0, end: head.length }] };
  },
};
