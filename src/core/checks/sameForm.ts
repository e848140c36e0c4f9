/**
 * Comparing a writer's field with a record's field up to form: what differs only in braces, case
 * protection, TeX accents, case, punctuation, dashes (`--` vs `–`), abbreviated given names or a
 * `Proc. of` for a full proceedings name is the same value. The record checks raise nothing for
 * a difference these functions call the same.
 */
import { texToText } from '../bibliography/texToText.js';
import type { Entry, Person } from '../corpus/schema.js';

/** Letters NFKD does not decompose, spelled as ASCII (ß, æ, ø, ł, đ, ı, þ). */
const LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ı: 'i', þ: 'th', ð: 'd' };

/**
 * A text folded for comparison: TeX decoded (`texToText`), accents dropped (NFKD without marks),
 * lower case, `&` as "and", every run of characters other than letters and digits one space.
 */
export function foldText(s: string): string {
  return texToText(s, 4000).normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase()
    .replace(/[ßæœøłđıþð]/g, (c) => LETTERS[c] ?? c).replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Whether two titles are the same up to form. */
export function sameTitle(a: string, b: string): boolean {
  return foldText(a) === foldText(b);
}

/** Particles that may be written with the family name or apart from it (`von Werra`, `Werra, Leandro von`). */
const PARTICLES = new Set(['van', 'von', 'der', 'den', 'de', 'del', 'della', 'di', 'da', 'du', 'dos', 'das', 'la', 'le', 'ten', 'ter', 'zu', 'al', 'el', 'bin', 'ibn']);

/** A family name folded: particles dropped, blanks and hyphens removed (`Lamy-Poirier` = `Lamy Poirier`). */
export function foldFamily(family: string): string {
  const words = foldText(family).split(' ').filter(Boolean);
  const core = words.filter((w, i) => i === words.length - 1 || !PARTICLES.has(w));
  return core.join('');
}

/** A person's family name (an organisation's name), folded. */
export function personFamily(p: Person): string {
  return 'literal' in p ? foldText(p.literal).replace(/ /g, '') : foldFamily(p.family);
}

/** A person's whole name folded, without blanks or hyphens: given names then family name. */
function fullName(p: Person): string {
  return ('literal' in p ? foldText(p.literal) : foldText(`${p.given} ${p.family}`)).replace(/ /g, '');
}

/** The first letters of a person's given names, folded (`H. Brendan` → `hb`); '' for none or an organisation. */
function initialsOf(p: Person): string {
  return 'literal' in p ? '' : foldText(p.given).split(' ').map((w) => w.charAt(0)).join('');
}

/**
 * Whether two names are the same person's up to form: the same family name (particles and
 * hyphens aside), and given names that agree in their initials (`W.` = `Woosuk`; `H. Brendan` =
 * `Brendan`: one's first initial among the other's); a name without given names agrees with any.
 */
export function samePerson(a: Person, b: Person): boolean {
  // The whole name alike, however it is split (`Reza Yazdani Aminabadi` read by BibTeX as family `Aminabadi`).
  if (fullName(a) === fullName(b)) return true;
  // The same names in the other order (`Li Fei-Fei`, as the ImageNet paper prints her name, for the record's Fei-Fei Li).
  if (!('literal' in a) && !('literal' in b) && a.given && b.given && foldFamily(a.family) === foldFamily(b.given) && foldFamily(a.given) === foldFamily(b.family)) return true;
  if (personFamily(a) !== personFamily(b)) return false;
  const ia = initialsOf(a);
  const ib = initialsOf(b);
  return !ia || !ib || ib.includes(ia.charAt(0)) || ia.includes(ib.charAt(0));
}

/** A page range's first and last page, as written but folded: dashes of any kind, `pp.`, blanks and article numbers (`55:1`) aside. */
export function pageRange(pages: string): { first: string; last?: string } | undefined {
  const t = texToText(pages, 200).replace(/^\s*pp?\.?\s*/i, '').replace(/[\s{}]/g, '');
  const parts = t.split(/[-‐‑‒–—―]+/).filter(Boolean).map((p) => p.replace(/^\d+:/, '').toLowerCase());
  if (!parts.length) return undefined;
  return parts.length > 1 ? { first: parts[0]!, last: parts[parts.length - 1]! } : { first: parts[0]! };
}

/**
 * Whether two page ranges agree: the same first page, and the same last page when both give one.
 * A single number against a range that starts at 1 is an article number (ACM's `58` for pages
 * `58:1--58:15`, which DBLP writes `pages = {58}`), not a page: it agrees. Two ranges of as many
 * pages from different first pages are two editions' paginations (CVF's and IEEE Xplore's): they agree.
 */
export function samePages(a: string, b: string): boolean {
  const x = pageRange(a);
  const y = pageRange(b);
  if (!x || !y) return true;
  if ((x.last === undefined && y.first === '1' && y.last !== undefined) || (y.last === undefined && x.first === '1' && x.last !== undefined)) return true;
  if (x.first === y.first && (x.last === undefined || y.last === undefined || x.last === y.last)) return true;
  // Another edition's pagination: as many pages from another first page (CVF's open-access
  // proceedings and IEEE Xplore paginate CVPR and ICCV apart: 2961–2969 and 2980–2988).
  const span = (r: { first: string; last?: string }) => (r.last !== undefined && /^\d+$/.test(r.first) && /^\d+$/.test(r.last) ? Number(r.last) - Number(r.first) : undefined);
  const sx = span(x);
  return sx !== undefined && sx > 0 && sx === span(y);
}

/** Words of a venue's name that say nothing about which venue it is. */
const VENUE_STOP = new Set([
  'proceedings', 'proc', 'of', 'the', 'on', 'in', 'and', 'for', 'at', 'annual', 'international', 'intl', 'int', 'conference', 'conf',
  'symposium', 'symp', 'acm', 'ieee', 'usenix', 'sigops', 'sigplan', 'sigarch', 'sigmicro', 'sigbed', 'st', 'nd', 'rd', 'th', 'volume', 'vol', 'part', 'pp', 'co', 'located', 'with', 'held', 'joint', 'companion',
]);

/** The same venue's other short names. */
const VENUE_SYNONYMS: Record<string, readonly string[]> = {
  neurips: ['nips'], nips: ['neurips'], mlsys: ['sysml'], sysml: ['mlsys'], vldb: ['pvldb'], pvldb: ['vldb'], atc: ['usenixatc'],
};

/** The words of a venue's name that name it: folded, stop words, ordinals, years and numbers dropped. */
function venueWords(s: string): string[] {
  return foldText(s).replace(/\b(?:association for computing machinery|ieee computer society)\b/g, ' ').split(' ').filter((w) => w && !VENUE_STOP.has(w) && !/^\d+(?:st|nd|rd|th)?$/.test(w) && !/^'?\d\d$/.test(w));
}

/** Short names of a record's venue: its `venue` words, and the acronyms in parentheses of its long names (`(OSDI 22)` → `osdi`). */
function venueAcronyms(e: Entry): Set<string> {
  const out = new Set<string>();
  const add = (w: string) => {
    if (w.length < 2) return;
    out.add(w);
    for (const s of VENUE_SYNONYMS[w] ?? []) out.add(s);
  };
  if (e.venue) for (const w of venueWords(e.venue)) add(w);
  for (const long of [e.booktitle, e.venue_full, e.journal]) {
    for (const m of long?.matchAll(/\(([^()]*)\)/g) ?? []) {
      const words = venueWords(m[1]!);
      // An acronym: one word in capitals in the original (`OSDI 22`, `SOSP 2023`).
      if (words.length === 1 && /[A-Z]{2,}/.test(m[1]!)) add(words[0]!);
    }
  }
  return out;
}

/** Whether a venue word of a record is written (in full or abbreviated, `Syst.` for `Systems`) among a container's words. */
function written(word: string, words: readonly string[]): boolean {
  return words.some((w) => w === word || (w.length >= 3 && word.startsWith(w)) || (word.length >= 3 && w.startsWith(word)));
}

/**
 * Whether a writer's container names the record's venue, up to form: it holds one of the venue's
 * short names as a word (`Proc. of SOSP '23`, `NIPS` for NeurIPS), or every word that names the
 * venue in the record's long name (`booktitle`, `journal`, `venue_full`), each in full or as an
 * abbreviation (`Proc. ACM Symp. Oper. Syst. Princ.`); or, for a venue named only by common words
 * (`Proceedings of the IEEE`), those words both ways.
 *
 * @param container - the writer's `booktitle`/`journal` or CSL `container-title`, as plain text
 */
export function sameVenue(container: string, e: Entry): boolean {
  if (sameCommonName(container, e)) return true;
  const words = venueWords(container);
  if (!words.length) return false;
  const joined = words.join('');
  for (const a of venueAcronyms(e)) if (words.includes(a) || joined === a) return true;
  for (const long of [e.type === 'article' ? e.journal : e.booktitle, e.venue_full]) {
    if (!long) continue;
    const need = venueWords(ownName(long).replace(/\([^()]*\)/g, ' '));
    if (need.length && need.every((w) => written(w, words))) return true;
  }
  return false;
}

/**
 * A proceedings title without what DBLP appends after its first comma (`…, CVPR 2018, Salt Lake
 * City, UT, USA, June 18-22, 2018`: acronym, place, dates), when words of the name come before it.
 */
function ownName(long: string): string {
  const head = long.split(',')[0]!;
  return venueWords(head.replace(/\([^()]*\)/g, ' ')).length ? head : long;
}

/** Articles and prepositions: the words a name made only of common words (`Proceedings of the IEEE`) is compared without. */
const NAME_GLUE = new Set(['of', 'the', 'on', 'in', 'and', 'for', 'at']);

/**
 * Whether a container names a record whose venue names are made only of common words
 * (`Proceedings of the IEEE`, `Proc. IEEE`: every word a stop word of {@link venueWords}): the
 * same words both ways, each in full or abbreviated (`Proc.`), articles and prepositions aside.
 */
function sameCommonName(container: string, e: Entry): boolean {
  const loose = (s: string) => foldText(s).split(' ').filter((w) => w && !NAME_GLUE.has(w));
  const have = loose(container);
  if (!have.length) return false;
  return [e.type === 'article' ? e.journal : e.booktitle, e.venue_full, e.venue].some((name) => {
    if (!name || venueWords(name).length) return false;
    const need = loose(name);
    return need.length > 0 && need.every((w) => written(w, have)) && have.every((w) => written(w, need));
  });
}
