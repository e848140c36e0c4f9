/**
 * Reading a user's `.bib` file and planning additions to it that touch nothing else.
 *
 * Parsing is Citation.js's BibTeX parser (`@citation-js/plugin-bibtex`, the grammar of the BibTeX
 * manual plus biblatex's field set); what we add is positions (where a key is defined) and the
 * append plan, which keeps comments, `@string`/`@preamble` blocks, formatting, line endings and
 * a byte-order mark as they are.
 */
import { parse as parseBibtex } from '@citation-js/plugin-bibtex/lib/input/file.js';

/** One entry of a `.bib` file, with field names lower-cased and values as parsed (macros expanded). */
export interface BibEntry {
  key: string;
  type: string;
  fields: Record<string, string>;
}

/** Where a `.bib` file stops being parseable. `line` and `column` are 1-based. */
export interface BibSyntaxError {
  line: number;
  column: number;
  message: string;
}

/** A parsed `.bib` file: its entries, or the error that stopped the parse. */
export interface ParsedBib {
  entries: BibEntry[];
  error?: BibSyntaxError;
}

/**
 * Parses a `.bib` file.
 *
 * @param text - the file's text (a leading BOM is allowed)
 * @returns the entries in file order; on a syntax error, no entries and the error's position
 */
export function parseBib(text: string): ParsedBib {
  try {
    const raw = parseBibtex(text.replace(/^\uFEFF/, '')) as { type: string; label: string; properties: Record<string, string> }[];
    return {
      entries: raw.map((r) => ({
        key: r.label,
        type: r.type.toLowerCase(),
        fields: Object.fromEntries(Object.entries(r.properties).map(([k, v]) => [k.toLowerCase(), String(v)])),
      })),
    };
  } catch (e) {
    const message = ((e as Error).message ?? String(e)).split('\n')[0]!.replace(/:$/, '');
    // An unclosed brace makes the parser fail far below, at the end of the file or in a later
    // entry; the entry whose braces never close is where the user must look.
    const open = unclosedEntry(text);
    if (open) return { entries: [], error: { ...open, message: `entry "${open.key}" is not closed (unbalanced braces); ${message}` } };
    const m = /line (\d+) col (\d+)/.exec(message);
    return { entries: [], error: { line: m ? Number(m[1]) : 1, column: m ? Number(m[2]) : 1, message } };
  }
}

/** The first entry whose braces are still open when the next entry (a line starting with `@`) or the file ends. */
function unclosedEntry(text: string): { line: number; column: number; key: string } | undefined {
  let depth = 0;
  let start: { line: number; column: number; key: string } | undefined;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const at = /^\s*@([A-Za-z]+)\s*[{(]\s*([^,\s]*)/.exec(line);
    if (at) {
      if (depth > 0 && start) return start;
      depth = 0;
      start = { line: i + 1, column: line.indexOf('@') + 1, key: at[2] || at[1]! };
    }
    for (let j = 0; j < line.length; j++) {
      if (line[j] === '\\') { j++; continue; }
      if (line[j] === '{') depth++;
      else if (line[j] === '}') depth--;
    }
  }
  return depth > 0 ? start : undefined;
}

/**
 * Finds every place a key is defined (ignoring case, as BibTeX does): the offsets of the key in
 * `@type{key,`.
 *
 * @returns offsets (UTF-16 code units) of the key's first character, in file order
 */
export function findBibKeys(text: string, key: string): number[] {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [...text.matchAll(new RegExp(`@[A-Za-z]+\\s*[{(]\\s*(${escaped})\\s*,`, 'gi'))].map((m) => m.index! + m[0].indexOf(m[1]!));
}

/** Where a key is first defined, or -1 (see {@link findBibKeys}). */
export function findBibKey(text: string, key: string): number {
  return findBibKeys(text, key)[0] ?? -1;
}

/** The 1-based line and column of a UTF-16 offset in a text (a CR before a line break is part of its line). */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** Line ending used by a text: CRLF when its first line break is CRLF, else LF. */
export function eolOf(text: string): '\r\n' | '\n' {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
}

/**
 * Plans appending BibTeX entries to a `.bib` file: one insertion at the end, separated from the
 * existing text by one blank line, in the file's own line ending. Nothing before it changes.
 *
 * @param text - the current text of the file
 * @param bibtex - the entries to add, as BibTeX with LF line endings
 * @returns the insertion offset and text
 */
export function planBibAppend(text: string, bibtex: string): { offset: number; text: string } {
  const eol = eolOf(text);
  const body = bibtex.replace(/\s+$/, '').replace(/\r?\n/g, eol) + eol;
  const content = text.replace(/^\uFEFF/, '');
  if (!content.trim()) return { offset: text.length, text: body };
  const endsWithEol = /\r?\n$/.test(text);
  const endsWithBlank = /(\r?\n)\s*\r?\n$/.test(text);
  const lead = endsWithBlank ? '' : endsWithEol ? eol : eol + eol;
  return { offset: text.length, text: lead + body };
}

/** A title reduced for comparison: lower case, TeX commands and braces dropped, punctuation folded to spaces. */
export function normaliseTitle(t: string): string {
  return t.toLowerCase().normalize('NFKD').replace(/\\[a-zA-Z]+|[{}]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** What identifies a work, for finding the same work under another key. */
export interface WorkIdentity {
  doi?: string;
  arxiv?: string;
  title: string;
}

/** The identity of a `.bib` entry: DOI, arXiv id (from `eprint` with arXiv, or an arxiv.org URL) and title. */
export function bibIdentity(e: BibEntry): WorkIdentity {
  const f = e.fields;
  const arxivUrl = /arxiv\.org\/(?:abs|pdf)\/([0-9]{4}\.[0-9]{4,5})/i.exec(`${f.url ?? ''} ${f.journal ?? ''} ${f.note ?? ''}`);
  const eprintIsArxiv = f.eprint && (!f.archiveprefix || /arxiv/i.test(f.archiveprefix) || /arxiv/i.test(f.eprinttype ?? ''));
  return {
    doi: f.doi?.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '').toLowerCase(),
    arxiv: (eprintIsArxiv ? f.eprint!.replace(/^arxiv:/i, '').replace(/v\d+$/, '') : undefined) ?? arxivUrl?.[1],
    title: normaliseTitle(f.title ?? ''),
  };
}

/**
 * Whether two identities name the same work: same DOI, same arXiv id, or the same normalised title.
 */
export function sameWork(a: WorkIdentity, b: WorkIdentity): boolean {
  if (a.doi && b.doi && a.doi.toLowerCase() === b.doi.toLowerCase()) return true;
  if (a.arxiv && b.arxiv && a.arxiv === b.arxiv) return true;
  const ta = normaliseTitle(a.title);
  return !!ta && ta === normaliseTitle(b.title);
}

/** Keys defined more than once in a file (ignoring case, as BibTeX does), each with its occurrences. */
export function duplicateKeys(entries: readonly BibEntry[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.key.toLowerCase(), (counts.get(e.key.toLowerCase()) ?? 0) + 1);
  return new Map([...counts].filter(([, n]) => n > 1));
}
