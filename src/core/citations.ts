/**
 * Every citation key a document cites, with its position: for diagnostics, hover and go to definition.
 * LaTeX: the key lists of citation commands (`\cite`, natbib, biblatex, `\nocite`, multicite
 * `\cites{a}{b}`), outside comments, verbatim text and `\iffalse` blocks (`latex/scan.ts`).
 * Markdown: Pandoc citations (`[@a; @b]`, `@a`, `[-@a]`) outside code, and the front matter's
 * `nocite:` (Pandoc's User's Guide, "Citation syntax").
 */
import { frontMatterOf } from './bib/locate.js';
import { LATEX_LANGUAGES, MARKDOWN_LANGUAGES } from './context.js';
import { latexCiteCommands } from './latex/commands.js';
import { maskLatex } from './latex/scan.js';

/** One cited key: `offset` and `length` in UTF-16 code units. */
export interface CitedKey {
  key: string;
  offset: number;
  length: number;
}

function blankOut(text: string, re: RegExp): string {
  return text.replace(re, (m) => m.replace(/[^\n]/g, ' '));
}

/**
 * Keys cited in a LaTeX document: the keys of every closed key list of a citation command
 * (`latexCiteCommands`), outside comments, verbatim text and `\iffalse` blocks (`maskLatex`). A key
 * with a blank, `{` or `\` in it is not a key (a list left open while typing, a macro).
 *
 * @param text - the whole document
 * @returns the keys in document order, with their offsets in `text`
 */
export function latexCitations(text: string): CitedKey[] {
  const code = maskLatex(text);
  const out: CitedKey[] = [];
  for (const cmd of latexCiteCommands(code)) {
    for (const list of cmd.groups) {
      if (list.close < 0) continue;
      let pos = list.open + 1;
      for (const part of code.slice(list.open + 1, list.close).split(',')) {
        const lead = part.length - part.trimStart().length;
        const key = part.trim();
        if (key && !/[\s{\\]/.test(key)) out.push({ key, offset: pos + lead, length: key.length });
        pos += part.length + 1;
      }
    }
  }
  return out;
}

/** Keys cited in a Markdown document. */
export function pandocCitations(text: string): CitedKey[] {
  const fm = frontMatterOf(text);
  let body = text;
  const out: CitedKey[] = [];
  if (fm) {
    // Only `nocite:` in the front matter cites; the rest (e-mail addresses in `author:`) does not.
    const head = text.slice(fm.start, fm.end);
    const nocite = /^nocite:(.*(?:\n[ \t]+.*)*)/m.exec(head);
    if (nocite) {
      const base = fm.start + nocite.index + 'nocite:'.length;
      for (const k of nocite[1]!.matchAll(/@([\p{L}\p{N}_][\p{L}\p{N}_:.#$%&+?<>~/-]*)/gu)) {
        const key = k[1]!.replace(/[.:,;?]+$/, '');
        if (key !== '*') out.push({ key, offset: base + k.index! + 1, length: key.length });
      }
    }
    body = ' '.repeat(fm.end) + text.slice(fm.end);
  }
  body = blankOut(body, /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm);
  body = blankOut(body, /`[^`\n]*`/g);
  for (const m of body.matchAll(/(^|[\s[;(-])@([\p{L}\p{N}_][\p{L}\p{N}_:.#$%&+?<>~/-]*)/gu)) {
    const key = m[2]!.replace(/[.:,;?]+$/, '');
    out.push({ key, offset: m.index! + m[1]!.length + 1, length: key.length });
  }
  return out.sort((a, b) => a.offset - b.offset);
}

/** Keys cited in a document of the given VS Code language id; [] for other languages. */
export function citationsIn(text: string, languageId: string): CitedKey[] {
  if (LATEX_LANGUAGES.has(languageId)) return latexCitations(text);
  if (MARKDOWN_LANGUAGES.has(languageId)) return pandocCitations(text);
  return [];
}

/** The distinct keys a document cites, in order of first citation (what a numeric style numbers by). */
export function citedKeys(text: string, languageId: string): string[] {
  return [...new Set(citationsIn(text, languageId).map((c) => c.key))];
}

/** The cited key at an offset, if any. */
export function citationAt(text: string, offset: number, languageId: string): CitedKey | undefined {
  return citationsIn(text, languageId).find((c) => offset >= c.offset && offset <= c.offset + c.length);
}
