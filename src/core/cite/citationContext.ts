/**
 * Where in a document a citation key may go: inside the key list of a LaTeX citation command, or
 * in a Pandoc citation in Markdown. Pure functions over text and a cursor offset (UTF-16 code units,
 * as VS Code's `document.offsetAt` gives them).
 */

import { latexCiteCommands } from '../latex/commands.js';
import { latexRegionAt, latexRegions, maskLatex } from '../latex/scan.js';
import { isCrossReference, NO_CROSSREFS, type CrossrefSyntax } from '../markdown/crossref.js';
import { inRegions, scanPandoc } from '../markdown/pandoc.js';
import { fileKind, isMarkdown } from '../workspace/fileKind.js';

/** How far LaTeX context detection looks before and after the cursor (completion reads this much). */
const LATEX_LOOK_BACK = 2000;
const LATEX_LOOK_AHEAD = 1000;

/** A citation context found at the cursor. */
export interface CiteContext {
  /** `latex`: inside `\cite{…}`; `pandoc`: after `@` or inside `[@…]` in Markdown. */
  syntax: 'latex' | 'pandoc';
  /** The citation command, for LaTeX (`citep`); '' for Pandoc. */
  command: string;
  /** Offset where the partial key under the cursor starts (for completion's replace range). */
  keyStart: number;
  /** Offset where the partial key under the cursor ends. */
  keyEnd: number;
  /** The partial key typed so far (from keyStart to the cursor). */
  prefix: string;
  /** Keys already in this citation (all of the list, excluding the partial one). */
  existing: string[];
  /** Start and end of the whole key list (LaTeX: inside the braces; Pandoc: inside the brackets, or the bare `@key`). */
  listStart: number;
  listEnd: number;
  /** Pandoc only: whether the cursor is inside a bracketed citation `[…]`. */
  bracketed: boolean;
}

const LATEX_KEY_CHAR = /[^\s,{}%\\]/;
const PANDOC_KEY_CHAR = /[\p{L}\p{N}_:.#$%&+?<>~/-]/u;

/**
 * Detects a LaTeX citation key list around `offset`: the cursor is inside the `{…}` of a citation
 * command (any command whose name contains `cite` or `Cite`: `\cite`, natbib's `\citep`/`\citet*`,
 * biblatex's `\parencite`, `\textcite`, `\autocite`, `\footcite`, `\nocite`, and the later lists of
 * multicite commands like `\cites{a}{b}`), the command starting at most 2,000 characters before the
 * cursor. Not in a comment, verbatim text (`\verb`, `lstlisting`, …) or an `\iffalse` block: the
 * text is read with `latexRegions` (`latex/scan.ts`), from its start to 1,000 characters past the
 * cursor, so a cursor deep in a long listing is known to be in it.
 *
 * @param text - the whole document: a piece of it cannot tell whether it starts in a verbatim
 *   environment, an `\iffalse` block or a comment's line (scanning and masking 300 KB takes a few
 *   milliseconds)
 * @param offset - cursor offset in `text`
 * @returns the context, or undefined when the cursor is not inside the braces of a citation command
 * @example latexCiteContext('\\cite{a,|}', 8) // { command: 'cite', existing: ['a'], prefix: '' … }
 */
export function latexCiteContext(text: string, offset: number): CiteContext | undefined {
  const windowStart = Math.max(0, offset - LATEX_LOOK_BACK);
  const windowEnd = Math.min(text.length, offset + LATEX_LOOK_AHEAD);
  const regions = latexRegions(text, { end: windowEnd });
  if (latexRegionAt(regions, offset)) return undefined;
  const code = maskLatex(text, regions);
  let found: { command: string; open: number; close: number } | undefined;
  for (const cmd of latexCiteCommands(code, windowStart, windowEnd)) {
    if (cmd.start >= offset) break;
    for (const list of cmd.groups) {
      if (list.open < offset && offset <= list.end) found = { command: cmd.command, open: list.open, close: list.close };
    }
  }
  if (!found) return undefined;
  const { open } = found;
  // An unclosed list (the user is typing) ends at the cursor.
  const close = found.close >= 0 ? found.close : offset;
  let keyStart = offset;
  while (keyStart > open + 1 && LATEX_KEY_CHAR.test(code[keyStart - 1]!)) keyStart--;
  // A cursor at the start of a key inserts before it; inside or after a key, that key is the partial one.
  let keyEnd = offset;
  if (keyStart < offset) while (keyEnd < close && LATEX_KEY_CHAR.test(code[keyEnd]!)) keyEnd++;
  const partial = code.slice(keyStart, keyEnd);
  // Comments inside the list are blank in `code`.
  const existing = code.slice(open + 1, close).split(',').map((k) => k.trim()).filter((k) => k && k !== partial);
  return {
    syntax: 'latex', command: found.command, keyStart, keyEnd, prefix: text.slice(keyStart, offset), existing,
    listStart: open + 1, listEnd: close, bracketed: true,
  };
}

/**
 * Detects a Pandoc citation around `offset` in Markdown: after `@` (`@key`, `[@a; @b]`, `[-@a]`,
 * `[@a,@b]`, `@a [p. 3]`), but not in an e-mail address (`me@example.org`) or inside a word, not
 * in code, math, comments, raw blocks or metadata (`markdown/pandoc.ts` reads the whole document:
 * a cursor deep in a fenced block is known to be in it), and not where the key typed is a
 * cross-reference (`@fig-` in Quarto, `@fig:` with pandoc-crossref).
 *
 * @param crossrefs - the document's cross-reference syntax (by default none)
 * @returns the context, or undefined. `prefix` is the key typed after `@` so far. When the cursor
 *   is inside a bracketed citation but not right after an `@`, `prefix` is '' and keyStart = offset.
 */
export function pandocCiteContext(text: string, offset: number, crossrefs: CrossrefSyntax = NO_CROSSREFS): CiteContext | undefined {
  // The key under the cursor, if any.
  let keyStart = offset;
  while (keyStart > 0 && PANDOC_KEY_CHAR.test(text[keyStart - 1]!)) keyStart--;
  // Pandoc keys may end in punctuation that is not part of the key, but while typing we keep it.
  const at = keyStart > 0 && text[keyStart - 1] === '@';
  const beforeAt = keyStart >= 2 ? text[keyStart - 2]! : '';
  // Pandoc's `notAfterString`: not right after a word or a word's `.`.
  const atOk = at && (beforeAt === '' || !/[\p{L}\p{N}.]/u.test(beforeAt));
  const bracket = enclosingBracket(text, offset);
  if (!atOk && !bracket) return undefined;
  if (!atOk && bracket && !text.slice(bracket.start, bracket.end).includes('@')) return undefined;
  let keyEnd = offset;
  if (atOk) while (keyEnd < text.length && PANDOC_KEY_CHAR.test(text[keyEnd]!)) keyEnd++;
  const partial = atOk ? text.slice(keyStart, keyEnd) : '';
  if (partial && isCrossReference(partial, crossrefs)) return undefined;
  if (!inMarkdownText(scanPandoc(text).text, offset)) return undefined;
  const prefix = atOk ? text.slice(keyStart, offset) : '';
  const listStart = bracket ? bracket.start : keyStart - 1;
  const listEnd = bracket ? bracket.end : keyEnd;
  const existing = [...text.slice(listStart, listEnd).matchAll(/(?:^|[\s[;,-])@([\p{L}\p{N}_][\p{L}\p{N}_:.#$%&+?<>~/-]*)/gu)]
    .map((m) => m[1]!.replace(/[.:,;?]+$/, ''))
    .filter((k) => k !== partial);
  return {
    syntax: 'pandoc', command: '', keyStart: atOk ? keyStart : offset, keyEnd: atOk ? keyEnd : offset, prefix,
    existing, listStart, listEnd, bracketed: !!bracket,
  };
}

/** Whether a cursor is in Markdown text (a region of `scanPandoc`'s `text`, its end included: typing there extends it). */
const inMarkdownText = (regions: readonly { start: number; end: number }[], offset: number): boolean => inRegions(regions, offset, true);

/** The `[…]` that encloses `offset` on the same paragraph, if any (offsets of its inside). */
function enclosingBracket(text: string, offset: number): { start: number; end: number } | undefined {
  let start = -1;
  for (let i = offset - 1; i >= Math.max(0, offset - 1000); i--) {
    const c = text[i];
    if (c === ']' || (c === '\n' && text[i - 1] === '\n')) return undefined;
    if (c === '[') { start = i + 1; break; }
  }
  if (start < 0) return undefined;
  let end = -1;
  for (let i = offset; i < Math.min(text.length, offset + 1000); i++) {
    const c = text[i];
    if (c === '[' || (c === '\n' && text[i + 1] === '\n')) return undefined;
    if (c === ']') { end = i; break; }
  }
  if (end < 0) return undefined;
  // A Markdown link's text `[text](url)` is not a citation.
  if (text[end + 1] === '(') return undefined;
  return { start, end };
}

/**
 * Detects the citation context for a document of the given language.
 *
 * @param languageId - VS Code language id (`latex`, `markdown`, …)
 * @param crossrefs - Markdown: the document's cross-reference syntax; by default Quarto's for the
 *   `quarto` language, none for the others
 */
export function citeContextAt(text: string, offset: number, languageId: string, crossrefs?: CrossrefSyntax): CiteContext | undefined {
  const kind = fileKind('', languageId);
  if (kind === 'latex') return latexCiteContext(text, offset);
  if (isMarkdown(kind)) return pandocCiteContext(text, offset, crossrefs ?? { ...NO_CROSSREFS, quarto: kind === 'quarto' });
  return undefined;
}
