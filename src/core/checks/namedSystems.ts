/**
 * Systems named but not cited: the first mention in a document's prose of a system the corpus
 * knows by name (vLLM, PagedAttention, ZeRO-Offload, Megatron-LM, FlashAttention-2, Orca), with no
 * citation in the same sentence, when the document cites none of that name's works.
 *
 * What counts as a name ({@link isSystemName}): one token of four characters or more that cannot
 * be an ordinary word: a capital after its first letter (`vLLM`, `GPipe`, `DeepSpeed`, `FSDP`,
 * `ORCA`), a digit beside letters (`FlashAttention-2`), or a hyphenated part of that kind
 * (`Megatron-LM`). Not a name: a capitalised word (`Orca`, `Focus`, `Pack`, `Llama`, `Parallax`,
 * `Unity`, `Triton` are words, or other products, as often as the system: measured on real
 * ML-systems books and papers), `JAX`, `MoE`, `DDP` (too short to be one thing), and a
 * name a company or lab that wrote works of the corpus goes by (`DeepSeek` of "DeepSeek-AI",
 * `Google`): it names the company as much as a system (a project's own team, "vLLM Team", does not
 * count). Only papers and reports are offered (not a project's repository, nor the posts and talks
 * that also mention a name), papers first.
 *
 * How a mention is read: the token as written (case counts), or its start before a hyphen and a
 * lower-case word (`vLLM-based`, `GPipe-style`); never before a capitalised word, a digit or a
 * version (`PaLM-2`, `PaLM-E`, `vLLM-Ascend`, `Gemini 2.0`, `TensorFlow Lite`, `MLPerf Inference`:
 * another system, or another version), nor in a table's row.
 *
 * Where it looks: prose only. LaTeX: the document's body (after `\begin{document}` when there is
 * one), without comments, verbatim text and `\iffalse` blocks (`latex/scan.ts`), math (`$…$`,
 * `\(…\)`, `\[…\]`, math environments), headings and the arguments of commands that are not prose
 * (`\label`, `\ref`, `\cite…`, `\url`, `\href`'s address, `\texttt`, `\input`, …), tables and
 * pictures. Markdown: the text pandoc reads as text (`markdown/pandoc.ts`: no code, math, raw TeX,
 * comments, metadata, link addresses), without headings and link texts. Never inside a URL, a
 * path, an e-mail address or a file name. Linear in the document.
 */
import type { Entry } from '../corpus/schema.js';
import { LATEX_LANGUAGES, MARKDOWN_LANGUAGES } from '../workspace/fileKind.js';
import { latexRegions, maskLatex } from '../latex/scan.js';
import { scanPandoc } from '../markdown/pandoc.js';

/**
 * Kinds of entries a citation of a system name may offer: the papers and reports that present a
 * system, not its repository (`vLLM` offers the SOSP paper, not the GitHub project), nor the posts
 * and talks that mention it.
 */
const CITABLE_KINDS = new Set(['paper', 'report']);

/** Words after an organisation's name that make it a project's own team (`vLLM Team`, `PyTorch Team`): then the name is the project's. */
const PROJECT_TEAM = /^(?:team|project|developers|contributors|community|authors)$/;

/** Whether an alias is a system's name rather than a word or an abbreviation (see the module comment). */
export function isSystemName(alias: string): boolean {
  // Four characters at least: `MoE`, `JAX`, `DDP`, `AMP`, `C4` are abbreviations of many things.
  if (alias.length < 4 || /[^\p{L}\p{N}\-+]/u.test(alias) || !/\p{L}/u.test(alias) || /^-|-$/.test(alias)) return false;
  return alias.split('-').some((p) => /\p{Lu}/u.test(p.slice(1)) || (/\p{L}/u.test(p) && /\p{N}/u.test(p)));
}

/** A name and the works it names (citable ones, papers first). */
export interface SystemName {
  alias: string;
  entries: readonly Entry[];
}

/** The corpus's system names, indexed for a linear scan. */
export class SystemNames {
  private readonly byAlias = new Map<string, SystemName>();
  private static readonly built = new WeakMap<readonly Entry[], SystemNames>();

  /** The names of an entry list, built once while the list lives. */
  static of(entries: readonly Entry[]): SystemNames {
    let n = SystemNames.built.get(entries);
    if (!n) SystemNames.built.set(entries, (n = new SystemNames(entries)));
    return n;
  }

  constructor(entries: readonly Entry[]) {
    // The names organisations that wrote works go by: each word of an organisation author, and the whole.
    const orgs = new Set<string>();
    for (const e of entries) {
      for (const p of e.authors ?? []) {
        if (!('literal' in p)) continue;
        const words = p.literal.toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}]+/gu, ' ').trim().split(' ');
        if (words.some((w) => PROJECT_TEAM.test(w))) continue;
        orgs.add(words.join(''));
        for (const w of words) if (w.length >= 4) orgs.add(w);
      }
    }
    const works = new Map<string, Entry[]>();
    for (const e of entries) {
      if (e.library || !CITABLE_KINDS.has(e.kind)) continue;
      for (const a of new Set(e.aliases ?? [])) {
        const list = works.get(a);
        if (list) list.push(e);
        else works.set(a, [e]);
      }
    }
    const rank = (e: Entry) => (e.kind === 'paper' ? 0 : 1);
    for (const [alias, list] of works) {
      if (!isSystemName(alias) || orgs.has(alias.toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}]+/gu, ''))) continue;
      this.byAlias.set(alias, { alias, entries: [...list].sort((a, b) => rank(a) - rank(b) || (a.year ?? 9999) - (b.year ?? 9999)) });
    }
  }

  /** How many names there are. */
  get size(): number {
    return this.byAlias.size;
  }

  /** The name written exactly so (case counts). */
  get(alias: string): SystemName | undefined {
    return this.byAlias.get(alias);
  }
}

/** A mention of a system name in prose: `[offset, offset + length)` of the document. */
export interface SystemMention {
  name: SystemName;
  offset: number;
  length: number;
}

/** Prose ranges of a document, `[start, end)`, ascending. */
type Ranges = { start: number; end: number }[];

/**
 * The first prose mention of each system name the document does not cite (see the module
 * comment), in document order; once per system: a name whose works were all offered already is
 * not mentioned again.
 *
 * @param citations - the document's citations (offsets in `text`): a mention in their sentence is cited
 * @param isCited - whether the document cites an entry (by its key, or the same work under its own key)
 */
export function uncitedMentions(text: string, languageId: string, names: SystemNames, citations: readonly { offset: number }[], isCited: (e: Entry) => boolean): SystemMention[] {
  if (!names.size) return [];
  const latex = LATEX_LANGUAGES.has(languageId);
  if (!latex && !MARKDOWN_LANGUAGES.has(languageId)) return [];
  // LaTeX is read without its comments and verbatim text (blanked, offsets kept), sentences too.
  const t = latex ? maskLatex(text, latexRegions(text)) : text;
  const prose = latex ? latexProse(t) : markdownProse(text);
  const cites = citations.map((c) => c.offset).sort((a, b) => a - b);
  const seen = new Set<string>();
  const offered = new Set<Entry>();
  const out: SystemMention[] = [];
  for (const r of prose) {
    TOKEN.lastIndex = r.start;
    for (let m = TOKEN.exec(t); m && m.index + m[0].length <= r.end; m = TOKEN.exec(t)) {
      const at = m.index;
      const before = t[at - 1] ?? ' ';
      const after = t[at + m[0].length] ?? ' ';
      // Part of a URL, a path, an address, a file or domain name, a macro.
      if (/[\\/@.:#_~=&?%]/.test(before) || (/[./@:_]/.test(after) && /[\p{L}\p{N}]/u.test(t[at + m[0].length + 1] ?? ''))) continue;
      const hit = nameIn(m[0], names);
      if (!hit) continue;
      // Another version (`Gemini 2.0`, `PaLM 2`), or a longer product name (`TensorFlow Lite`,
      // `MLPerf Inference`, `TensorFlow Serving`), or a table's cell: another thing, or no prose.
      const rest = t.slice(at + hit.alias.length, at + hit.alias.length + 48);
      if (/^[ \t~]+(?:v?\d)/.test(rest) || /^[ \t]+\p{Lu}/u.test(rest) || inTableRow(t, at)) continue;
      if (seen.has(hit.alias)) continue;
      seen.add(hit.alias);
      if (hit.entries.every((e) => offered.has(e))) continue;
      if (hit.entries.some(isCited)) continue;
      if (citedInSentence(t, at, cites)) continue;
      for (const e of hit.entries) offered.add(e);
      out.push({ name: hit, offset: at, length: hit.alias.length });
    }
  }
  return out;
}

/** A run of letters, digits, `-` and `+` that starts with a letter or digit. */
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}+-]*/gu;

/**
 * The name a token is or starts with: the token, else its start before a hyphen followed by
 * lower-case letters only (`vLLM-based` → vLLM, `GPipe-style-training` → GPipe; not `PaLM-2`,
 * `PaLM-E`, `vLLM-Ascend`), longest first.
 */
function nameIn(token: string, names: SystemNames): SystemName | undefined {
  const t = token.replace(/-+$/, '');
  const direct = names.get(t);
  if (direct) return direct;
  for (let i = t.lastIndexOf('-'); i > 0; i = t.lastIndexOf('-', i - 1)) {
    if (!/^[a-z]+(?:-[a-z]+)*$/.test(t.slice(i + 1))) continue;
    const n = names.get(t.slice(0, i));
    if (n) return n;
  }
  return undefined;
}

/** Abbreviations whose period ends no sentence. */
const ABBREVIATIONS = /(?:\b(?:e\.g|i\.e|et al|etc|vs|cf|fig|figs|sec|secs|eq|eqs|tab|ch|no|vol|pp|resp|approx|incl|viz|dr|mr|ms|prof|st|al)|\b\p{Lu})\.$/iu;

/** How far a sentence is looked at either side of a mention (a sentence longer than this counts as ending there). */
const SENTENCE_WINDOW = 1500;

/** Whether a sentence ends at the terminator at `i` (`.`, `!`, `?`, followed by white space or the end, not an abbreviation). */
function endsSentence(text: string, i: number): boolean {
  const c = text[i];
  if (c !== '.' && c !== '!' && c !== '?') return false;
  const next = text[i + 1];
  if (next !== undefined && !/[\s"')\]}]/.test(next)) return false;
  return c !== '.' || !ABBREVIATIONS.test(text.slice(Math.max(0, i - 8), i + 1));
}

/** A paragraph break (a blank line) between `i` and the line break at `i`. */
function blankLineAt(text: string, i: number): boolean {
  if (text[i] !== '\n') return false;
  let j = i + 1;
  while (text[j] === ' ' || text[j] === '\t' || text[j] === '\r') j++;
  return text[j] === '\n';
}

/** Where the sentence holding `at` starts. */
function sentenceStart(text: string, at: number): number {
  const low = Math.max(0, at - SENTENCE_WINDOW);
  for (let i = at - 1; i >= low; i--) if (endsSentence(text, i) || blankLineAt(text, i)) return i + 1;
  return low;
}

/** Where the sentence holding `at` ends. */
function sentenceEnd(text: string, at: number): number {
  const high = Math.min(text.length, at + SENTENCE_WINDOW);
  for (let i = at; i < high; i++) if (endsSentence(text, i) || blankLineAt(text, i)) return i + 1;
  return high;
}

/** Whether `at` is on a row of a Markdown table (a line that starts with `|` or `+`) or a LaTeX table row (a line with `&` cells). */
function inTableRow(text: string, at: number): boolean {
  let ls = at;
  while (ls > 0 && text[ls - 1] !== '\n' && text[ls - 1] !== '\r') ls--;
  let le = at;
  while (le < text.length && text[le] !== '\n' && text[le] !== '\r') le++;
  const line = text.slice(ls, le);
  return /^\s*[|+]/.test(line) || /(?<!\\)&.*\\\\\s*$/.test(line);
}

/** Whether a citation stands in the sentence of `at`. */
function citedInSentence(text: string, at: number, cites: readonly number[]): boolean {
  const s = sentenceStart(text, at);
  const e = sentenceEnd(text, at);
  let lo = 0, hi = cites.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cites[mid]! < s) lo = mid + 1; else hi = mid;
  }
  return lo < cites.length && cites[lo]! < e;
}

// ---------------------------------------------------------------------------------------------
// Prose of a LaTeX document

/** Commands whose every argument is not prose. */
const NOT_PROSE = new Set([
  'label', 'ref', 'eqref', 'pageref', 'autoref', 'cref', 'Cref', 'vref', 'nameref', 'url', 'path', 'texttt', 'verb', 'input', 'include', 'subfile',
  'import', 'subimport', 'includegraphics', 'includeonly', 'bibliography', 'bibliographystyle', 'addbibresource', 'usepackage', 'RequirePackage',
  'documentclass', 'newcommand', 'renewcommand', 'providecommand', 'newenvironment', 'renewenvironment', 'def', 'let', 'hypersetup', 'setlength',
  'addtolength', 'setcounter', 'vspace', 'hspace', 'color', 'pagestyle', 'thispagestyle', 'lstinline', 'mintinline', 'inputminted', 'lstinputlisting',
  'section', 'subsection', 'subsubsection', 'chapter', 'part', 'paragraph', 'subparagraph', 'title', 'author', 'date', 'affiliation', 'institute',
  'email', 'keywords', 'acmConference', 'acmBooktitle', 'acmDOI', 'acmISBN', 'thanks', 'footnotetext', 'graphicspath', 'DeclareMathOperator',
  'newtheorem', 'definecolor', 'textcolor', 'colorbox', 'fcolorbox', 'resizebox', 'scalebox', 'multicolumn', 'multirow', 'cline', 'cmidrule',
  'lstset', 'tikz', 'pgfplotsset', 'tikzset', 'nocite', 'bibitem', 'newif', 'crefname', 'Crefname', 'captionsetup', 'geometry',
]);

/** Commands of which only the first argument is not prose (`\href{url}{text}`). */
const FIRST_ARG_NOT_PROSE = new Set(['href']);

/** Environments whose content is not prose: math, tables, pictures, code, the bibliography. */
const NOT_PROSE_ENVS = /^(?:equation|align|alignat|gather|multline|flalign|eqnarray|math|displaymath|split|array|matrix|pmatrix|bmatrix|tabular|tabularx|tabulary|longtable|tabu|tikzpicture|pgfpicture|picture|axis|algorithmic|algorithm2e|lstlisting|minted|verbatim|Verbatim|comment|thebibliography|filecontents)\*?$/;

/** The end of a `{…}` group at `i` (after its `}`), or `i` when none starts there. */
function groupEnd(t: string, i: number): number {
  if (t[i] !== '{') return i;
  let depth = 0;
  for (let j = i; j < t.length; j++) {
    const c = t[j];
    if (c === '\\') { j++; continue; }
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return j + 1;
  }
  return t.length;
}

/** The longest `[…]` read as an option: a longer one is text. */
const OPTION_LIMIT = 2000;

/** A blank line: a paragraph's end (CRLF, or white space only between the breaks). */
const BLANK_LINE = /\n[ \t\r]*\n/g;

/**
 * Ends of `[…]` options in one text, read left to right: the next `]` and the next blank line are
 * searched for again only once the scan has passed them, so a text full of `[` never closed is
 * still read in linear time (a search to the end per `[` took 101 s on a 1.7 MB CRLF document).
 */
class Options {
  private close = -2;
  private blank = -2;

  constructor(private readonly t: string) {}

  /** The end of a `[…]` option at `i` (closed before a blank line, within {@link OPTION_LIMIT}), or `i`. */
  end(i: number): number {
    const t = this.t;
    if (t[i] !== '[') return i;
    if (this.close !== -1 && this.close < i) this.close = t.indexOf(']', i);
    if (this.blank !== -1 && this.blank < i) {
      BLANK_LINE.lastIndex = i;
      this.blank = BLANK_LINE.exec(t)?.index ?? -1;
    }
    const close = this.close;
    if (close < 0 || close - i > OPTION_LIMIT || (this.blank >= 0 && this.blank < close)) return i;
    return close + 1;
  }
}

/** After blanks (one line break at most). */
function skipBlank(t: string, i: number): number {
  while (t[i] === ' ' || t[i] === '\t') i++;
  return i;
}

/**
 * The prose of a LaTeX document: its body without math, headings, non-prose command arguments
 * and non-prose environments. One pass.
 *
 * @param masked - the document with its comments, verbatim text and `\iffalse` blocks blanked (`maskLatex`)
 */
export function latexProse(masked: string): Ranges {
  const t = masked;
  const options = new Options(t);
  const begin = t.indexOf('\\begin{document}');
  let i = begin >= 0 ? begin + '\\begin{document}'.length : 0;
  const stop = (() => { const e = t.indexOf('\\end{document}', i); return e >= 0 ? e : t.length; })();
  const out: Ranges = [];
  let from = i;
  const cut = (to: number) => { if (to > from) out.push({ start: from, end: to }); };
  while (i < stop) {
    const c = t[i];
    if (c === '\\') {
      const m = /^\\([A-Za-z@]+)\*?|^\\./.exec(t.slice(i, i + 64));
      const name = m?.[1];
      cut(i);
      let j = i + (m?.[0].length ?? 1);
      if (name === 'begin') {
        const envEnd = groupEnd(t, skipBlank(t, j));
        const env = t.slice(skipBlank(t, j) + 1, envEnd - 1);
        if (NOT_PROSE_ENVS.test(env)) {
          const close = t.indexOf(`\\end{${env}}`, envEnd);
          j = close < 0 ? stop : close + `\\end{${env}}`.length;
        } else {
          j = envEnd;
          // An environment's own arguments (`{tabular}{lll}`, `[t]`) are not prose.
          for (let k = 0; k < 3; k++) { const a = options.end(skipBlank(t, j)); j = groupEnd(t, a) > a ? groupEnd(t, a) : a; if (j === a && t[a] !== '[') break; }
        }
      } else if (name === 'end') {
        j = groupEnd(t, skipBlank(t, j));
      } else if (t.startsWith('\\(', i)) {
        const close = t.indexOf('\\)', i + 2);
        j = close < 0 ? stop : close + 2;
      } else if (t.startsWith('\\[', i)) {
        const close = t.indexOf('\\]', i + 2);
        j = close < 0 ? stop : close + 2;
      } else if (name && (NOT_PROSE.has(name) || /cite|^(?:foot)?fullcite$/i.test(name))) {
        for (;;) {
          const a = skipBlank(t, j);
          const o = options.end(a);
          const g = groupEnd(t, o);
          if (g === o && o === a) break;
          j = g;
        }
      } else if (name && FIRST_ARG_NOT_PROSE.has(name)) {
        j = groupEnd(t, skipBlank(t, j));
      }
      i = Math.max(j, i + 1);
      from = i;
      continue;
    }
    if (c === '$') {
      cut(i);
      const double = t[i + 1] === '$';
      let j = i + (double ? 2 : 1);
      for (; j < stop; j++) {
        if (t[j] === '\\') { j++; continue; }
        if (t[j] === '$') break;
      }
      i = Math.min(stop, j + (double ? 2 : 1));
      from = i;
      continue;
    }
    i++;
  }
  cut(stop);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Prose of a Markdown document

/**
 * The prose of a Markdown document: the text regions pandoc reads as text (`scanPandoc`), less
 * ATX and setext headings and link texts (`[vLLM](https://…)` names and links the system).
 */
export function markdownProse(text: string): Ranges {
  const out: Ranges = [];
  for (const r of scanPandoc(text).text) {
    let s = r.start;
    // Line by line within the region: a heading line (`# …`, or a line above `===`/`---`) is no prose.
    while (s < r.end) {
      let e = text.indexOf('\n', s);
      if (e < 0 || e > r.end) e = r.end;
      const line = text.slice(s, e);
      const lineStart = text.lastIndexOf('\n', s - 1) + 1;
      const heading = /^ {0,3}#{1,6}(?:\s|$)/.test(text.slice(lineStart, e)) || setextUnderline(text, e);
      if (!heading) cutLinks(text, s, s + line.length, out);
      s = e + 1;
    }
  }
  return out;
}

/** Whether the line after the line break at `e` is a setext underline (`===` or `---`). */
function setextUnderline(text: string, e: number): boolean {
  if (text[e] !== '\n') return false;
  const next = text.indexOf('\n', e + 1);
  return /^ {0,3}(?:=+|-{2,})[ \t]*\r?$/.test(text.slice(e + 1, next < 0 ? text.length : next));
}

/** Adds `[s, e)` without the texts of links (`[text](…)`, `[text][ref]`). */
function cutLinks(text: string, s: number, e: number, out: Ranges): void {
  let from = s;
  for (let i = s; i < e; i++) {
    if (text[i] !== '[' || text[i - 1] === '\\' || text[i + 1] === '@') continue;
    const close = text.indexOf(']', i);
    if (close < 0 || close >= e) break;
    if (text[close + 1] !== '(' && text[close + 1] !== '[') continue;
    if (i > from) out.push({ start: from, end: i });
    from = close + 1;
    i = close;
  }
  if (e > from) out.push({ start: from, end: e });
}
