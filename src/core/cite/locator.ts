/**
 * The locator of a Pandoc citation (`[@key, pp. 33-35, note]`: the label `page`, the locator
 * `33-35`, the suffix `, note`), read from the citation's suffix as pandoc 2.17 reads it, with the
 * terms of the style's locale, for a CSL processor's citation item (`locator`, `label`, `suffix`).
 *
 * Source: pandoc 2.17's `src/Text/Pandoc/Citeproc/Locator.hs` (`parseLocator`, `pLocatorWords`,
 * `pLocatorDelimited`, `pLocatorIntegrated`, `pLocatorLabel'`, `pPageSeq`, `pBalancedBraces`,
 * `maybeAddComma`, `toLocatorMap`): the suffix is split into words, blanks and single punctuation
 * characters (`:` stays in words); after an optional `,` and blank comes either `{label locator}`
 * or a label (the longest run of words that is a locale term, followed by a locator word) and
 * locator words (`33`, `33-35`, `iv`, `1(a)`, separated by `,` or `;`), or, with no label, locator
 * words with digits (the label is `page`). The rest is the suffix, with `, ` put before it when it
 * starts with a word. The CSL 1.0.2 specification's "Locators" names the labels.
 *
 * Pure and bounded: a suffix of more than {@link MAX_LOCATOR_TOKENS} words is not searched for a locator.
 */

/** The CSL locator labels pandoc reads (`locatorTerms` of pandoc 2.17; CSL 1.0.2, "Locators"). */
export const LOCATOR_LABELS = [
  'book', 'chapter', 'column', 'figure', 'folio', 'issue', 'line', 'note', 'opus', 'page', 'number-of-pages',
  'paragraph', 'part', 'section', 'sub-verbo', 'verse', 'volume',
] as const;

/** Case-folded locale term (`p.`, `pages`, `chap.`, `§`) → CSL locator label. */
export type LocatorTerms = ReadonlyMap<string, string>;

/** Suffixes with more words than this are passed on whole, without a locator (a suffix is a few words). */
export const MAX_LOCATOR_TOKENS = 256;

const TERM = /<term\s+name="([\w-]+)"(?:\s+form="([\w-]+)")?\s*(\/>|>([\s\S]*?)<\/term>)/g;
const SINGLE_OR_MULTIPLE = /<(?:single|multiple)>([^<]*)<\/(?:single|multiple)>/g;

/**
 * Decodes the character references a CSL file's text or attribute may hold (XML 1.0 §4.1:
 * `&#167;`, `&#xA7;`, and the five predefined entities `&amp;` `&lt;` `&gt;` `&quot;` `&apos;`).
 */
export function xmlText(s: string): string {
  return s.replace(/&(?:#(\d+)|#x([\da-f]+)|(amp|lt|gt|quot|apos));/gi, (m, dec: string | undefined, hex: string | undefined, name: string | undefined) =>
    dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[name!.toLowerCase()] ?? m);
}

/**
 * The locator terms of CSL locale files (`csl/locales/locales-en-US.xml`): every form of each
 * locator label's term, singular and plural, case-folded (pandoc's `toLocatorMap`).
 *
 * @param localeXml - locale files, later ones taking precedence (the style's language, then `en-US`
 *   underneath: pass `[enUS, styleLocale]`)
 */
export function locatorTerms(...localeXml: readonly string[]): LocatorTerms {
  const rank = new Map<string, number>(LOCATOR_LABELS.map((l, i) => [l, i]));
  const out = new Map<string, string>();
  for (const xml of localeXml) {
    // Within one locale a term two labels share (`p.`: page and number-of-pages) is the earlier
    // label's, as pandoc's `foldr` over its list leaves it; a later locale overrides an earlier one.
    const mine = new Map<string, string>();
    TERM.lastIndex = 0;
    for (let m = TERM.exec(xml); m; m = TERM.exec(xml)) {
      const name = m[1]!;
      if (!rank.has(name)) continue;
      const body = m[4] ?? '';
      const texts = body.includes('<single>') || body.includes('<multiple>') ? [...body.matchAll(SINGLE_OR_MULTIPLE)].map((x) => x[1]!) : [body];
      for (const t of texts) {
        const term = xmlText(t).trim().toLowerCase();
        const had = mine.get(term);
        if (term && (had === undefined || rank.get(name)! < rank.get(had)!)) mine.set(term, name);
      }
    }
    for (const [term, name] of mine) out.set(term, name);
  }
  return out;
}

/** A CSL citation item's locator, read from a Pandoc suffix. */
export interface Locator {
  /** The CSL label (`page`, `chapter`, …); absent with no locator. */
  label?: string;
  /** The locator (`33-35`); absent with none. */
  locator?: string;
  /** What is left of the suffix, for the citation item's `suffix`. */
  suffix: string;
}

type Token = string;
const isSpace = (t: Token | undefined): boolean => !!t && /^\s/.test(t);
const PUNCT = /^[\p{P}\p{S}]$/u;
/** Haskell's `isPunctuation` (Unicode general category P*), which pandoc splits words at. */
const isPunctuation = (c: string): boolean => /^\p{P}$/u.test(c);
/** Punctuation that ends a locator unit: not `-`, `–` (ranges) or `:` (`vol:page`). */
const isLocatorPunct = (t: Token | undefined): boolean => !!t && t.length === 1 && t !== '-' && t !== '\u2013' && t !== ':' && isPunctuation(t);
const ROMAN = /^M{0,4}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/;
const BRACES: readonly [string, string][] = [['(', ')'], ['[', ']'], ['{', '}']];

/** The suffix as pandoc's `splitInp` splits it: blanks, single punctuation characters (not `:`), words. */
function tokenize(s: string): Token[] {
  const out: Token[] = [];
  let word = '';
  const flush = () => { if (word) { out.push(word); word = ''; } };
  for (let i = 0; i < s.length;) {
    const cp = s.codePointAt(i)!;
    const c = String.fromCodePoint(cp);
    if (/\s/.test(c)) {
      flush();
      let j = i;
      while (j < s.length && /\s/.test(s[j]!)) j++;
      out.push(s.slice(i, j));
      i = j;
      continue;
    }
    if (c !== ':' && isPunctuation(c)) { flush(); out.push(c); } else word += c;
    i += c.length;
  }
  flush();
  return out;
}

/**
 * A page unit at `i` (`pPageUnit`): a roman numeral word, or words up to a blank or locator
 * punctuation; returns its end and whether it is digit-like, or undefined.
 */
function pageUnit(ts: readonly Token[], i: number): { end: number; digits: boolean; text: string } | undefined {
  const t = ts[i];
  if (t !== undefined && !isSpace(t) && !PUNCT.test(t) && ROMAN.test(t.toUpperCase()) && t.length > 0) return { end: i + 1, digits: true, text: t };
  let j = i;
  while (j < ts.length && !isSpace(ts[j]) && !isLocatorPunct(ts[j])) j++;
  if (j === i) return undefined;
  const text = ts.slice(i, j).join('');
  return { end: j, digits: /\d/.test(text), text };
}

/** `pPageSeq`: a unit then `.unit`s, or `.unit`s. */
function pageSeq(ts: readonly Token[], i: number): { end: number; digits: boolean; text: string } | undefined {
  let at = i, digits = false, text = '';
  const first = pageUnit(ts, at);
  if (first) { at = first.end; digits = first.digits; text = first.text; }
  for (;;) {
    if (ts[at] !== '.') break;
    const u = pageUnit(ts, at + 1);
    if (!u) break;
    at = u.end; digits ||= u.digits; text += `.${u.text}`;
  }
  return at > i ? { end: at, digits, text } : undefined;
}

/** `pBalancedBraces [(),[],{}] pPageSeq`: one or more page sequences or bracketed parts. */
function balanced(ts: readonly Token[], i: number, depth = 0): { end: number; digits: boolean; text: string } | undefined {
  let at = i, digits = false, text = '';
  for (;;) {
    const pair = depth < 8 ? BRACES.find(([o]) => ts[at] === o) : undefined;
    if (pair) {
      const inner = balanced(ts, at + 1, depth + 1);
      const close = inner ? inner.end : at + 1;
      if (ts[close] !== pair[1]) break;
      digits ||= !!inner?.digits;
      text += `${pair[0]}${inner?.text ?? ''}${pair[1]}`;
      at = close + 1;
      continue;
    }
    if (BRACES.some(([o, c]) => ts[at] === o || ts[at] === c)) break;
    const seq = pageSeq(ts, at);
    if (!seq) break;
    digits ||= seq.digits; text += seq.text; at = seq.end;
  }
  return at > i ? { end: at, digits, text } : undefined;
}

/** `pLocatorWordIntegrated`: an optional `,`/`;` (not for the first word), an optional blank, then {@link balanced}. */
function locatorWord(ts: readonly Token[], i: number, first: boolean): { end: number; digits: boolean; text: string } | undefined {
  let at = i, text = '';
  if (!first && (ts[at] === ',' || ts[at] === ';')) { text += ts[at]; at++; }
  if (isSpace(ts[at])) { text += ' '; at++; }
  const b = balanced(ts, at);
  return b ? { end: b.end, digits: b.digits, text: text + b.text } : undefined;
}

/**
 * `pLocatorLabel'`: the longest run of tokens from `i` that, trimmed and case-folded, is a term,
 * ending where `lim` holds.
 */
function label(ts: readonly Token[], i: number, terms: LocatorTerms, lim: (at: number) => boolean): { end: number; label: string } | undefined {
  let best: { end: number; label: string } | undefined;
  for (let p = i + 1; p <= ts.length; p++) {
    if (!lim(p)) continue;
    const l = terms.get(ts.slice(i, p).join('').trim().toLowerCase());
    if (l) best = { end: p, label: l };
  }
  return best;
}

/** `maybeAddComma`: a suffix that starts with a word gets `, ` before it. */
function withComma(ts: readonly Token[]): string {
  const s = ts.join('');
  if (!s) return '';
  const first = ts[0]!;
  return isSpace(first) || (first.length === 1 && isPunctuation(first)) || isPunctuation(String.fromCodePoint(first.codePointAt(0)!)) ? s : `, ${s}`;
}

/**
 * Reads the locator at the start of a Pandoc citation's suffix (see the module's documentation).
 *
 * @param suffix - the suffix as written (`, pp. 33-35, note`), a leading blank kept
 * @param terms - the style's locale's terms ({@link locatorTerms})
 */
export function parseLocator(suffix: string, terms: LocatorTerms): Locator {
  const ts = tokenize(suffix);
  if (ts.length > MAX_LOCATOR_TOKENS) return { suffix };
  let at = 0;
  if (ts[at] === ',') at++;
  if (isSpace(ts[at])) at++;
  const found = delimited(ts, at, terms) ?? integrated(ts, at, terms);
  if (!found) return { suffix: withComma(ts) };
  if (!found.label && !found.locator) return { suffix: withComma(ts.slice(found.end)) };
  return { label: found.label, locator: found.locator, suffix: ts.slice(found.end).join('') };
}

/** `pLocatorDelimited`: `{label locator}`, the label `page` when none is written. */
function delimited(ts: readonly Token[], i: number, terms: LocatorTerms): { end: number; label: string; locator: string } | undefined {
  if (ts[i] !== '{') return undefined;
  let at = i + 1;
  while (isSpace(ts[at])) at++;
  const l = label(ts, at, terms, (p) => p < ts.length);
  if (l) at = l.end;
  let depth = 0, text = '';
  for (; at < ts.length; at++) {
    const t = ts[at]!;
    if (t === '{' || t === '[') depth++;
    else if ((t === '}' || t === ']') && depth > 0) depth--;
    else if (t === '}') return { end: at + 1, label: l?.label ?? 'page', locator: text };
    text += t;
  }
  return undefined;
}

/** `pLocatorIntegrated`: a label and locator words, or locator words with digits (label `page`). */
function integrated(ts: readonly Token[], i: number, terms: LocatorTerms): { end: number; label: string; locator: string } | undefined {
  const digitLike = (w: { digits: boolean } | undefined) => !!w?.digits;
  const l = label(ts, i, terms, (p) => digitLike(locatorWord(ts, p, true)));
  let at: number;
  let need: (w: { digits: boolean; text: string }) => boolean;
  let first: boolean;
  if (l) { at = l.end; need = (w) => w.digits; first = true; } else {
    const w = locatorWord(ts, i, true);
    if (!w || !/\d/.test(w.text)) return undefined;
    at = i; need = (x) => /\d/.test(x.text); first = false;
  }
  const words: string[] = [];
  for (;;) {
    const w = locatorWord(ts, at, first && words.length === 0);
    if (!w || !need(w)) break;
    words.push(w.text);
    at = w.end;
  }
  if (!words.length) return undefined;
  return { end: at, label: l?.label ?? 'page', locator: words.join('') };
}
