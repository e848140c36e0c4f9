/**
 * Author names for display and for citation text.
 */
import type { Person } from '../corpus/schema.js';

/** `Given Family`, or the organisation's name. */
export function displayName(p: Person): string {
  return 'literal' in p ? p.literal : [p.given, p.family].filter(Boolean).join(' ');
}

/** The family name, or the organisation's name. */
export function familyName(p: Person): string {
  return 'literal' in p ? p.literal : p.family;
}

/**
 * A short author line: `Kwon, Li, Zhuang et al.` (up to `max` family names, then "et al.").
 *
 * @param max - how many names to show before "et al." (default 3)
 */
export function shortAuthors(authors: readonly Person[], max = 3): string {
  const names = authors.slice(0, max).map(familyName);
  return authors.length > max ? `${names.join(', ')} et al.` : names.join(', ');
}

/** All authors as `A, B and C`. */
export function allAuthors(authors: readonly Person[]): string {
  const names = authors.map(displayName);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
