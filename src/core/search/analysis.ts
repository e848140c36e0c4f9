/**
 * The search's text analysis, one for both indexes (the corpus's MiniSearch index and the library
 * index, `library/`): how text splits into terms (whole words, the parts of compound names,
 * character bigrams of Chinese and Japanese), how a term is stored (folded to ASCII lower case,
 * and its Porter stem, via `stemmer`) and looked up, and the field's abbreviations.
 */
import { stemmer } from 'stemmer';
import { foldAscii } from '../cite/key.js';

const fold = foldAscii;

/** Kana, CJK ideographs (and extension A) and Hangul syllables: the scripts indexed by character bigrams. */
const CJK_CHARS = '\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af';
/** A character of {@link CJK_CHARS}. */
export const CJK = new RegExp(`[${CJK_CHARS}]`);
/** Runs of CJK characters and runs of others, alternating. */
const CJK_RUNS = new RegExp(`[${CJK_CHARS}]+|[^${CJK_CHARS}]+`, 'g');
const SEPARATORS = /[\s,;:!?()[\]{}"'“”‘’/|·、，。：；！？（）《》]+/u;
const EDGE_JOINERS = /^[-.+_]+|[-.+_]+$/g;
const JOINERS = /[-_.+]+/;
/** Where a compound name splits: `Paged|Attention`, `NVL|Link`, `Flash|Attention|2`, `1|F|1|B`. */
const COMPOUND = /(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])/;
/** A word {@link COMPOUND} may split: each of its splits is at an upper-case letter after the first character, or beside a digit. */
const MAY_SPLIT = /\d|.[A-Z]/;

/**
 * Splits text into search terms. Besides whole words it emits the parts of compound names
 * (`PagedAttention` → `pagedattention`, `paged`, `attention`; `FlashAttention-2` → `flashattention`,
 * `flash`, `attention`, `2`; `1F1B` → `1f1b`, `1`, `f`, `1`, `b`) and, for Chinese and Japanese text, every character bigram of a run
 * (a whitespace tokenizer would leave a whole Chinese phrase as one term).
 *
 * It runs on every field of every entry when an index is built (a 100,000-entry library is some
 * 10 million words), so each costly step is skipped where it cannot apply: the CJK split on text
 * without CJK, the trimming and splitting at `-._+` on words without them, the compound split on
 * words with neither a digit nor a capital after their first letter.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  pushTokens(text, CJK.test(text), out);
  return out;
}

function pushTokens(text: string, cjk: boolean, out: string[]): void {
  for (const raw of text.split(SEPARATORS)) {
    if (!raw) continue;
    if (cjk && CJK.test(raw)) {
      for (const run of raw.match(CJK_RUNS) ?? []) {
        if (CJK.test(run)) {
          out.push(run);
          const chars = [...run];
          for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
          if (chars.length === 1) out.push(run);
        } else pushTokens(run, false, out);
      }
      continue;
    }
    const word = isJoiner(raw.charCodeAt(0)) || isJoiner(raw.charCodeAt(raw.length - 1)) ? raw.replace(EDGE_JOINERS, '') : raw;
    if (!word) continue;
    // Hyphenated and dotted names index by their pieces; compound names also by their parts.
    for (const piece of JOINERS.test(word) ? word.split(JOINERS) : [word]) {
      if (!piece) continue;
      out.push(piece);
      if (!MAY_SPLIT.test(piece)) continue;
      const parts = piece.split(COMPOUND);
      if (parts.length > 1) for (const p of parts) if (p.length > 1 || /\d/.test(p)) out.push(p);
    }
  }
}

/** `-`, `.`, `+` or `_`. */
function isJoiner(code: number): boolean {
  return code === 45 || code === 46 || code === 43 || code === 95;
}

/**
 * The words of a query, as both indexes look them up: {@link tokenize}'s tokens, except that a
 * Chinese or Japanese run of more than two characters is left to its character pairs (every index
 * has the pairs of every text; the run itself is a term only where a text has exactly that run),
 * so a phrase from the middle of a title, `深度学习` in `动手学深度学习`, finds it as well as a topic
 * label that begins with it.
 */
export function queryWords(text: string): string[] {
  return tokenize(text).filter((w) => !(CJK.test(w) && [...w].length > 2));
}

/** A word as it is stored in the index: folded to ASCII lower case, and its Porter stem if that differs. */
export function indexTerms(word: string): string[] {
  const term = fold(word);
  const stem = stemOf(term);
  return stem === term ? [term] : [term, stem];
}

/** A query word as it is looked up: its Porter stem (see {@link indexTerms}). */
export function queryTerm(word: string): string {
  return stemOf(fold(word));
}

/** Porter stem of a lower-case ASCII word; other terms (numbers, Chinese bigrams) are kept as they are. */
function stemOf(term: string): string {
  if (!/^[a-z]{3,}$/.test(term)) return term;
  let stem = stems.get(term);
  if (stem === undefined) {
    stem = stemmer(term);
    // Bounded: a library's vocabulary is a few hundred thousand words; past that, stems are recomputed.
    if (stems.size < 500_000) stems.set(term, stem);
  }
  return stem;
}
const stems = new Map<string, string>();

/**
 * Abbreviations of the field and what they stand for: a text with one also gets the other, so
 * `llm serving` finds "Large Language Model Serving" and `mixture of experts` finds "MoE". An
 * abbreviation counts as a word of its own or as the last part of a compound name, after a
 * lower-case letter (`FasterMoE`, `DeepSeekMoE`, `vLLM`), as {@link tokenize} splits it.
 */
const ABBREVIATIONS: [abbreviation: RegExp, expansion: RegExp, abbr: string, full: string][] = [
  [/(?:\b|(?<=[a-z]))LLMs?\b/, /\blarge[- ]language[- ]models?\b/i, 'LLM', 'large language model'],
  [/(?:\b|(?<=[a-z]))MoEs?\b/, /\bmixture[- ]of[- ]experts?\b/i, 'MoE', 'mixture of experts'],
  [/(?:\b|(?<=[a-z]))DNNs?\b/, /\bdeep neural networks?\b/i, 'DNN', 'deep neural network'],
];

/** Appends, for each abbreviation in {@link ABBREVIATIONS} that a text has in one form only, the other form. */
export function withAbbreviations(text: string): string {
  const extra: string[] = [];
  for (const [abbreviation, expansion, abbr, full] of ABBREVIATIONS) {
    const short = abbreviation.test(text);
    const long = expansion.test(text);
    if (short && !long) extra.push(full);
    else if (long && !short) extra.push(abbr);
  }
  return extra.length ? `${text} ${extra.join(' ')}` : text;
}

/**
 * The forms of a whole query as a name: the query folded, and, when the query is one of
 * {@link ABBREVIATIONS} or what it stands for, the other form (`mixture of experts` → `moe`;
 * `MoEs` → `mixture of experts`), so a work named by the abbreviation is an exact hit for either.
 *
 * @param text - a query's free text
 * @returns folded names, the query's own first; 1 or 2 of them
 */
export function nameForms(text: string): string[] {
  const name = fold(text).trim().replace(/\s+/g, ' ');
  for (const [abbreviation, expansion, abbr, full] of ABBREVIATIONS) {
    if (new RegExp(`^(?:${abbreviation.source})$`).test(text.trim())) return [name, full];
    if (new RegExp(`^(?:${expansion.source})$`, 'i').test(name)) return [name, fold(abbr)];
  }
  return [name];
}
