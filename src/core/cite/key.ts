/**
 * Citation keys in the Google-Scholar style that `corpus/README.md` documents:
 * first author's family name + year + first significant title word, e.g. `kwon2023efficient`.
 */
import type { Person } from '../corpus/schema.js';

/** Title words skipped when choosing the key's word (`A Survey on …` → `survey`). */
export const KEY_STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'on', 'of', 'in', 'for', 'to', 'and', 'with', 'via', 'towards', 'toward', 'from',
  'by', 'at', 'as', 'is', 'are',
]);

const ASCII = /^[\x00-\x7f]*$/;

/** Folds text to lower-case ASCII: NFKD, combining marks dropped, a few letters spelled out. */
export function foldAscii(s: string): string {
  // ASCII text has nothing to fold but case (NFKD and the letters below are all outside ASCII).
  if (ASCII.test(s)) return s.toLowerCase();
  return s
    .replace(/[ßæœøłđþ]/gi, (c) => ({ ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', þ: 'th' } as Record<string, string>)[c.toLowerCase()] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();
}

/**
 * Computes the citation key for a work.
 *
 * @param authors - the ordered author list; the first one's family name (or first word of `literal`) is used
 * @param year - the year, or undefined (`nd`)
 * @param title - the English title (use `title_en` for works whose title is not English)
 * @param fallback - used instead of a family name when there is no author: the venue or site (`Zhihu`)
 * @returns e.g. `kwon2023efficient`; letters and digits only; not yet disambiguated
 * @example makeCitationKey([{ given: 'Woosuk', family: 'Kwon' }], 2023, 'Efficient Memory Management …') // 'kwon2023efficient'
 */
export function makeCitationKey(authors: readonly Person[], year: number | undefined, title: string, fallback = 'anon'): string {
  const first = authors[0];
  const name = first ? ('literal' in first ? first.literal.split(/\s+/)[0] ?? '' : first.family) : fallback.split(/\s+/)[0] ?? '';
  // A name with no Latin letters (a Chinese pen name) falls back to the venue, like a missing author.
  const fam = foldAscii(name).replace(/[^a-z]/g, '') || foldAscii(fallback.split(/\s+/)[0] ?? '').replace(/[^a-z]/g, '') || 'anon';
  const words = foldAscii(title).split(/[^a-z0-9]+/).filter(Boolean);
  const word = words.find((w) => !KEY_STOP_WORDS.has(w)) ?? words[0] ?? '';
  return `${fam}${year ?? 'nd'}${word}`;
}

/** Whether a key follows the scheme (base key, optionally one disambiguating letter). */
export function followsKeyScheme(key: string): boolean {
  return /^[a-z]+(\d{4}|nd)[a-z0-9]+$/.test(key);
}
