/**
 * Comparing fields in form only: what two records (or an entry and a record) may write differently
 * and still say the same. Ignored: case, braces, TeX accents against Unicode (both decoded before),
 * diacritics, `-` against `--` and dashes in general, white space, DBLP's homonym numbers, and
 * abbreviated given names (`M. Frans` and `M. F.` against `M. Frans`). Anything else is a
 * difference.
 */
import { foldAscii } from '../../src/core/cite/key.js';
import { displayName } from '../../src/core/cite/names.js';
import type { Person } from '../../src/core/corpus/schema.js';

/** Text folded for comparison: ASCII letters and digits, lower case, words split by one space. */
export function fold(s: string | undefined): string {
  return foldAscii((s ?? '').replace(/[{}]/g, '')).replace(/[^a-z0-9]+/g, ' ').trim();
}

/** Whether two titles are the same in all but form. */
export function sameTitle(a: string, b: string): boolean {
  return fold(a) === fold(b);
}

/** A person's given name(s), family name, folded; an organisation has only a family. */
function parts(p: Person): { given: string[]; family: string } {
  if ('literal' in p) return { given: [], family: fold(p.literal) };
  return { given: fold(p.given.replace(/\s+\d{4}$/, '')).split(' ').filter(Boolean), family: fold(p.family.replace(/\s+\d{4}$/, '')) };
}

/**
 * Whether two given names agree: equal, or every word of the shorter one is the other's word or its
 * initial, in order (`M F` against `M Frans`, `Frans` against `M Frans` is not: a dropped first
 * name is a difference).
 */
function sameGiven(a: string[], b: string[]): boolean {
  if (a.join(' ') === b.join(' ')) return true;
  // Hyphenated and joined given names (`Gyeong In` against `Gyeongin`) compare without spaces.
  if (a.join('') === b.join('')) return true;
  const [s, l] = a.length <= b.length ? [a, b] : [b, a];
  if (!s.length) return false;
  let j = 0;
  for (const w of s) {
    while (j < l.length && !(l[j] === w || (w.length === 1 && l[j]!.startsWith(w)) || (l[j]!.length === 1 && w.startsWith(l[j]!)))) j++;
    if (j >= l.length) return false;
    j++;
  }
  return s[0]![0] === l[0]![0];
}

/** Whether two persons are the same name in all but form (also when split differently into given and family). */
export function samePerson(a: Person, b: Person): boolean {
  const pa = parts(a);
  const pb = parts(b);
  if (pa.family === pb.family) return sameGiven(pa.given, pb.given) || (!pa.given.length && !pb.given.length);
  // Split differently (`De Sa` as family or `De` as a given name): the whole name decides.
  const whole = (p: Person) => fold(displayName(p).replace(/\s+\d{4}$/, '')).replace(/ /g, '');
  return whole(a) === whole(b);
}

/** The first difference between two author lists: which (`authors`, or `authors[2]` 0-based), and each side. */
export interface AuthorMismatch { field: string; ours: string; theirs: string }

/** The first difference between two author lists, or undefined when they agree in form. */
export function authorMismatch(ours: readonly Person[], theirs: readonly Person[]): AuthorMismatch | undefined {
  if (ours.length !== theirs.length) {
    const list = (ps: readonly Person[]) => `${ps.length} authors (${ps.map(displayName).join(', ')})`;
    return { field: 'authors', ours: list(ours), theirs: list(theirs) };
  }
  for (let i = 0; i < ours.length; i++) {
    if (!samePerson(ours[i]!, theirs[i]!)) return { field: `authors[${i}]`, ours: displayName(ours[i]!), theirs: displayName(theirs[i]!) };
  }
  return undefined;
}

/** The first difference between two author lists as text, or undefined when they agree in form. */
export function authorDifference(ours: readonly Person[], theirs: readonly Person[]): string | undefined {
  const m = authorMismatch(ours, theirs);
  return m && (m.field === 'authors' ? `${ours.length} authors vs ${theirs.length}` : `author ${Number(m.field.slice(8, -1)) + 1} "${m.ours}" vs "${m.theirs}"`);
}

/** Pages folded: dashes of any length as one `-`, no spaces. */
export function foldPages(p: string | undefined): string {
  return (p ?? '').replace(/\s/g, '').replace(/[-–—]+/g, '-');
}
