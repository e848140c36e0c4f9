/**
 * No false alarms, against the REAL corpus (every work it holds, as `corpus/` has it when the
 * test runs: re-run it whenever the corpus grows). Generated entries that are near misses of a
 * corpus work are never flagged by the record checks (`core/checks/checkRecords.ts`):
 *
 * - a title one edit away (a word dropped, added, replaced or moved, a letter changed, the
 *   subtitle dropped or added), with the work's year and first author, as a preprint or at the
 *   work's own venue;
 * - the work's exact title with another first author, or a year two or more away;
 * - a journal extension (the exact title, in a journal, a year later), a workshop version (the
 *   exact title at a workshop);
 * - a work the corpus holds only as an arXiv preprint, cited as one;
 * - the work cited correctly, in another form only: words in braces or another case, initials for
 *   given names, names given-name first, `-` or `–` for `--`, `Proc. of` and the short venue name.
 *
 * And so that the test can fail: the exact preprint of a work with a version of record is found,
 * and a correct entry with its year one off is found.
 *
 * `FUZZ_RUNS` cases per property (300 by default), seed 42 (`FUZZ_SEED`); see vitest.fuzz.config.mts.
 */
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import { checkBibFile } from '../../src/core/checks/checkRecords.js';
import { RecordMatcher } from '../../src/core/checks/matchRecord.js';
import { isVersionOfRecord } from '../../src/core/checks/recordFields.js';
import { foldText, sameVenue } from '../../src/core/checks/sameForm.js';
import type { Entry, Person } from '../../src/core/corpus/schema.js';
import { check, runFuzz, Skip, tallies, TEST_TIMEOUT_MS } from './fuzz/harness.js';
import { realCorpus } from './helpers.js';

const corpus = realCorpus();
const matcher = RecordMatcher.of(corpus.entries);
const WORKS = corpus.entries.filter(isVersionOfRecord);
const ARXIV_ONLY = corpus.entries.filter((e) => e.arxiv && (e.venue === 'arXiv' || !e.venue));
const TITLES = new Set(corpus.entries.flatMap((e) => [e.title, e.title_en].filter((t): t is string => !!t).map(foldText)));
const show = (v: unknown) => JSON.stringify(v);

/** A value as a braced BibTeX field (braces in it balanced by construction). */
const braced = (v: string) => `{${v.replace(/[{}]/g, '')}}`;
const nameOf = (p: Person) => ('literal' in p ? `{${p.literal}}` : p.given ? `${p.family}, ${p.given}` : p.family);

/** A `.bib` entry from fields. */
function bib(type: string, key: string, fields: Record<string, string | undefined>): string {
  return `@${type}{${key},\n${Object.entries(fields).filter(([, v]) => v !== undefined).map(([k, v]) => `  ${k} = ${v},`).join('\n')}\n}\n`;
}

/** What checking one entry finds: `key:kind` lines. */
function findings(text: string): string[] {
  return checkBibFile(readBibFile('refs.bib', text)!, matcher).map((f) => `${f.key}:${f.kind}:${f.record.key}${f.kind === 'mismatch' ? `:${show(f.fields)}` : ''}`);
}

const WORDS = ['Efficient', 'Scalable', 'Fast', 'Distributed', 'Large', 'Towards', 'via', 'Deep', 'Learning', 'Serving', 'Training', 'Model', 'Systems', 'for', 'the', 'GPU', 'Memory', 'Inference'];

type Edit = { t: 'drop' | 'add' | 'replace' | 'swap' | 'letter' | 'subtitle' | 'nosubtitle'; at: number; word: string; letter: string };
const editArb: fc.Arbitrary<Edit> = fc.record({
  t: fc.constantFrom('drop', 'add', 'replace', 'swap', 'letter', 'subtitle', 'nosubtitle'),
  at: fc.nat({ max: 30 }), word: fc.constantFrom(...WORDS), letter: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'.split('')),
});

/** A title one edit away from `title`. */
function nearTitle(title: string, e: Edit): string {
  const w = title.split(' ');
  const i = e.at % w.length;
  switch (e.t) {
    case 'drop': if (w.length > 1) w.splice(i, 1); break;
    case 'add': w.splice(i, 0, e.word); break;
    case 'replace': w[i] = e.word; break;
    case 'swap': if (w.length > 1) { const j = (i + 1) % w.length; [w[i], w[j]] = [w[j]!, w[i]!]; } break;
    case 'letter': {
      const word = w[i]!;
      const k = e.at % Math.max(1, word.length);
      w[i] = word.slice(0, k) + e.letter + word.slice(k + 1);
      break;
    }
    case 'subtitle': return `${title}: A Case Study`;
    case 'nosubtitle': return title.includes(':') ? title.slice(0, title.indexOf(':')) : `${title} Revisited`;
  }
  return w.join(' ');
}

interface Near {
  work: Entry;
  edit: Edit;
  form: 'scholar' | 'misc' | 'venue';
}

/** A near-miss title is never flagged, however it is cited. */
function nearTitleProperty({ work, edit, form }: Near): void {
  const title = nearTitle(work.title, edit);
  if (foldText(title) === foldText(work.title) || TITLES.has(foldText(title))) throw new Skip('not a near miss (the same title up to form, or another corpus title)');
  const author = work.authors.map(nameOf).join(' and ');
  const text = form === 'scholar'
    ? bib('article', 'near', { title: braced(title), author: braced(author), journal: '{arXiv preprint}', year: braced(String(work.year)) })
    : form === 'misc'
      ? bib('misc', 'near', { title: braced(title), author: braced(author), howpublished: '{arXiv}', year: braced(String(work.year)) })
      : bib(work.type, 'near', { title: braced(title), author: braced(author), [work.type === 'article' ? 'journal' : 'booktitle']: braced(work.journal ?? work.booktitle ?? work.venue ?? ''), year: braced(String(work.year)), pages: work.pages && braced(work.pages) });
  const found = findings(text);
  check('a near-miss title is not flagged', found.length === 0, () => `${show(title)} for ${work.key}: ${show(found)}`);
}

const FAMILIES = ['Smith', 'Garcia', 'Nguyen', 'Müller', 'Wang', 'Kim', 'Rossi', 'Dubois', 'Okafor', 'Tanaka'];

/** Another first author, or a year two or more away: another work, not flagged. */
function otherWorkProperty({ work, family, years, form }: { work: Entry; family: string; years: number; form: 'author' | 'year' }): void {
  const authors = [...work.authors];
  if (form === 'author') {
    const first = authors[0]!;
    if ('literal' in first || foldText(first.family) === foldText(family)) throw new Skip('same family');
    authors[0] = { given: 'first' in first ? 'A.' : first.given, family };
  }
  const year = form === 'year' ? (work.year ?? 2000) + years : work.year;
  const text = bib('article', 'other', { title: braced(work.title), author: braced(authors.map(nameOf).join(' and ')), journal: '{arXiv preprint}', year: braced(String(year)) });
  const found = findings(text);
  check('another work with the same title is not flagged', found.length === 0, () => show(found));
}

const JOURNALS = ['ACM Transactions on Computer Systems', 'IEEE Transactions on Parallel and Distributed Systems', 'Communications of the ACM', 'ACM Computing Surveys', 'IEEE Micro'];
const WORKSHOPS = ['Workshop on Machine Learning for Systems at NeurIPS', 'Proceedings of the Workshop on Hot Topics in Operating Systems', 'ICML Workshop on Efficient Systems for Foundation Models', 'EuroMLSys Workshop'];

/** A journal extension or a workshop version with the exact title is not flagged. */
function versionProperty({ work, journal, workshop, form, dy }: { work: Entry; journal: string; workshop: string; form: 'journal' | 'workshop'; dy: number }): void {
  const author = braced(work.authors.map(nameOf).join(' and '));
  const text = form === 'journal'
    ? bib('article', 'ext', { title: braced(work.title), author, journal: braced(journal), year: braced(String((work.year ?? 2000) + 1)), pages: '{1--30}' })
    : bib('inproceedings', 'ws', { title: braced(work.title), author, booktitle: braced(workshop), year: braced(String((work.year ?? 2000) - dy)), pages: '{1--8}' });
  if (form === 'journal' && sameVenue(journal, work)) throw new Skip('the journal is the work\'s own');
  const found = findings(text);
  check(`a ${form} version is not flagged`, found.length === 0, () => show(found));
}

/** A work the corpus holds only as a preprint, cited as a preprint (with its id), is not flagged. */
function arxivOnlyProperty(work: Entry): void {
  const text = bib('article', 'pre', { title: braced(work.title), author: braced(work.authors.map(nameOf).join(' and ')), journal: `{arXiv preprint arXiv:${work.arxiv}}`, year: braced(String(work.year)) });
  const found = findings(text);
  check('an arXiv-only work is not flagged', found.length === 0, () => show(found));
}

interface Form {
  work: Entry;
  caseFlips: number[];
  braces: number[];
  initials: boolean;
  givenFirst: boolean;
  dash: '-' | '–' | '--';
  venue: 'short' | 'proc' | 'full';
  doubleBrace: boolean;
}

/** The work cited correctly, in another form only: not flagged. */
function formOnlyProperty(f: Form): void {
  const { work } = f;
  const words = work.title.split(' ').map((w, i) => {
    let x = f.caseFlips.includes(i) ? (w === w.toLowerCase() ? w.toUpperCase() : w.toLowerCase()) : w;
    if (f.braces.includes(i)) x = `{${x}}`;
    return x;
  });
  const title = f.doubleBrace ? `{{${words.join(' ')}}}` : `{${words.join(' ')}}`;
  const name = (p: Person) => {
    if ('literal' in p) return `{${p.literal}}`;
    const given = f.initials ? p.given.split(/([\s-]+)/).map((g) => (/^[\s-]+$/.test(g) ? g : g ? `${g[0]}.` : g)).join('') : p.given;
    return f.givenFirst && !/\s/.test(p.family) ? `${given} ${p.family}`.trim() : given ? `${p.family}, ${given}` : p.family;
  };
  const venue = f.venue === 'short' ? work.venue! : f.venue === 'proc' ? `Proc. of ${work.venue}` : (work.type === 'article' ? work.journal : work.booktitle) ?? work.venue!;
  const text = bib(work.type, 'ok', {
    title, author: `{${work.authors.map(name).join(' and ')}}`,
    [work.type === 'article' ? 'journal' : 'booktitle']: braced(venue),
    year: String(work.year),
    pages: work.pages && !work.unverified?.includes('pages') ? braced(work.pages.replace('--', f.dash)) : undefined,
  });
  const found = findings(text);
  check('a difference in form only is not flagged', found.length === 0, () => `${text}\n${show(found)}`);
}

describe('no false alarm on near misses of the real corpus\'s works', () => {
  afterAll(() => console.log(tallies.map((t) => t.summary()).join('\n')));
  const work = fc.constantFrom(...WORKS);

  it('the checks can fail: an exact preprint is found, and a correct entry with its year one off', () => {
    runFuzz('near/controls', work, (w) => {
      const pre = findings(bib('article', 'pre', { title: braced(w.title), author: braced(w.authors.map(nameOf).join(' and ')), journal: '{arXiv preprint}', year: braced(String(w.year)) }));
      check('an exact preprint is found', pre.length === 1 && pre[0]!.startsWith(`pre:version-of-record:${w.key}`), () => show(pre));
      const venue = (w.type === 'article' ? w.journal : w.booktitle) ?? w.venue!;
      const off = findings(bib(w.type, 'off', { title: braced(w.title), author: braced(w.authors.map(nameOf).join(' and ')), [w.type === 'article' ? 'journal' : 'booktitle']: braced(venue), year: String((w.year ?? 2000) + 1) }));
      check('a wrong year is found', off.length === 1 && off[0]!.includes('"field":"year"'), () => show(off));
    }, { minChecked: 0.9 });
  }, TEST_TIMEOUT_MS);

  it('near-miss titles', () => {
    runFuzz('near/titles', fc.record({ work, edit: editArb, form: fc.constantFrom('scholar', 'misc', 'venue') }), nearTitleProperty, { minChecked: 0.8 });
  }, TEST_TIMEOUT_MS);

  it('another first author, or a year two or more away', () => {
    runFuzz('near/other-work', fc.record({ work, family: fc.constantFrom(...FAMILIES), years: fc.constantFrom(-5, -3, -2, 2, 3, 4), form: fc.constantFrom('author', 'year') }), otherWorkProperty, { minChecked: 0.8 });
  }, TEST_TIMEOUT_MS);

  it('journal extensions and workshop versions', () => {
    runFuzz('near/versions', fc.record({ work, journal: fc.constantFrom(...JOURNALS), workshop: fc.constantFrom(...WORKSHOPS), form: fc.constantFrom('journal', 'workshop'), dy: fc.constantFrom(0, 1) }), versionProperty, { minChecked: 0.8 });
  }, TEST_TIMEOUT_MS);

  it('arXiv-only works', () => {
    if (!ARXIV_ONLY.length) return;
    runFuzz('near/arxiv-only', fc.constantFrom(...ARXIV_ONLY), arxivOnlyProperty, { minChecked: 0.9 });
  }, TEST_TIMEOUT_MS);

  it('differences in form only', () => {
    const formArb: fc.Arbitrary<Form> = fc.record({
      work, caseFlips: fc.array(fc.nat({ max: 12 }), { maxLength: 4 }), braces: fc.array(fc.nat({ max: 12 }), { maxLength: 3 }),
      initials: fc.boolean(), givenFirst: fc.boolean(), dash: fc.constantFrom('-', '–', '--'), venue: fc.constantFrom('short', 'proc', 'full'), doubleBrace: fc.boolean(),
    });
    runFuzz('near/form-only', formArb, formOnlyProperty, { minChecked: 0.9 });
  }, TEST_TIMEOUT_MS);
});
