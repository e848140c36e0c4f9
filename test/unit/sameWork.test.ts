/**
 * The one "same work" rule (`src/core/corpus/sameWork.ts`) and everyone who uses it: the planner
 * (`planBibSync`), the catalog (a library entry that is a corpus entry's work) and the library
 * readers (an entry's arXiv id).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bibtexIdentity, cslIdentity, entryIdentity, sameWork, SameWorkIndex, type WorkIdentity } from '../../src/core/corpus/sameWork.js';
import { arxivId, arxivIdIn, bareDoi, bibtexArxiv, cslArxiv } from '../../src/core/corpus/identifiers.js';
import { planBibSync } from '../../src/core/bibliography/planAdditions.js';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import { Catalog, type CatalogLibrary } from '../../src/core/library/catalog.js';
import { crossCheck } from '../../src/core/corpus/readCorpus.js';
import { entryFromBibtex, entryFromCsl } from '../../src/core/library/entries.js';
import { loadLibrary } from '../../src/core/library/loadLibrary.js';
import { buildCorpus } from '../../src/core/corpus/model.js';
import { createSearchIndex } from '../../src/core/search/corpus/corpusIndex.js';
import { entry } from './helpers.js';

const LIB = { uri: 'file:///ws/lib.bib', name: 'lib.bib' };

describe('arXiv ids and DOIs', () => {
  it('reads an arXiv id wherever a .bib entry or CSL item writes it, version dropped, new and old style', () => {
    expect(bibtexArxiv({ eprint: '2309.06180v2', archiveprefix: 'arXiv' })).toBe('2309.06180');
    expect(bibtexArxiv({ eprint: 'arXiv:2309.06180', eprinttype: 'arxiv' })).toBe('2309.06180');
    expect(bibtexArxiv({ eprint: '2309.06180' })).toBe('2309.06180');
    // An eprint of another archive is not an arXiv id.
    expect(bibtexArxiv({ eprint: '2309.06180', eprinttype: 'jstor' })).toBeUndefined();
    // In a URL, with a version: old-style ids too (the old readers took new-style ids from URLs only).
    expect(bibtexArxiv({ url: 'https://arxiv.org/abs/hep-th/9901001v3' })).toBe('hep-th/9901001');
    expect(bibtexArxiv({ url: 'http://export.arxiv.org/pdf/math.gt/0309136v1.pdf' })).toBe('math.GT/0309136');
    expect(bibtexArxiv({ url: 'https://arxiv.org/pdf/2309.06180v2.pdf' })).toBe('2309.06180');
    // As Google Scholar writes a preprint, and as an arXiv DOI.
    expect(bibtexArxiv({ journal: 'arXiv preprint arXiv:2309.06180v1' })).toBe('2309.06180');
    expect(bibtexArxiv({ doi: 'https://doi.org/10.48550/arXiv.2309.06180' })).toBe('2309.06180');
    expect(cslArxiv({ number: 'arXiv:2309.06180v2' })).toBe('2309.06180');
    expect(cslArxiv({ URL: 'https://arxiv.org/abs/2309.06180v4' })).toBe('2309.06180');
    expect(cslArxiv({ DOI: '10.48550/ARXIV.2309.06180' })).toBe('2309.06180');
    // Not ids: more digits than an id has, a look-alike host, nothing.
    expect(arxivIdIn('arXiv:2309.061801')).toBeUndefined();
    expect(arxivIdIn('https://example.org/abs/2309.06180')).toBeUndefined();
    expect(arxivId('')).toBeUndefined();
  });

  it('takes resolver URLs and doi: off a DOI, keeping its case', () => {
    expect(bareDoi(' https://doi.org/10.1145/3600006.3613165 ')).toBe('10.1145/3600006.3613165');
    expect(bareDoi('http://dx.doi.org/10.1145/ABC')).toBe('10.1145/ABC');
    expect(bareDoi('doi:10.1145/x')).toBe('10.1145/x');
    expect(bareDoi('not a doi')).toBeUndefined();
  });

  it('gives library entries the same arXiv id the planner reads', () => {
    const raw = { key: 'k', type: 'article', fields: { title: 'T', journal: 'arXiv preprint arXiv:2309.06180' }, line: 1, start: 0, end: 0 } as Parameters<typeof entryFromBibtex>[0];
    expect(entryFromBibtex(raw, LIB).arxiv).toBe('2309.06180');
    expect(entryFromCsl({ id: 'k', URL: 'https://arxiv.org/abs/cs/0112017v1' }, 1, LIB, 'csl-json')!.arxiv).toBe('cs/0112017');
  });
});

describe('sameWork', () => {
  const TITLE = 'Attention Is All You Need';

  it('does not merge two works that share a title in different years (the old rule did)', () => {
    expect(sameWork(bibtexIdentity({ title: `{${TITLE}}`, year: '2017' }), entryIdentity(entry({ key: 'x', title: TITLE, year: 2019 })))).toBe(false);
  });

  it('finds a .bib entry without a year (or without any identifier) by its title', () => {
    const corpus = entryIdentity(entry({ key: 'x', title: TITLE, year: 2017, doi: '10.5555/3295222.3295349' }));
    expect(sameWork(bibtexIdentity({ title: `{A}ttention is all you need` }), corpus)).toBe(true);
    expect(sameWork(bibtexIdentity({ title: TITLE, date: '2017-12-04' }), corpus)).toBe(true);
  });

  it('does not merge two DOIs, or two arXiv ids, that differ, whatever the titles', () => {
    expect(sameWork(bibtexIdentity({ title: TITLE, doi: '10.1145/a' }), bibtexIdentity({ title: TITLE, doi: '10.1145/b' }))).toBe(false);
    expect(sameWork(bibtexIdentity({ title: TITLE, eprint: '1706.03762' }), bibtexIdentity({ title: TITLE, eprint: '1706.03763' }))).toBe(false);
  });

  it('merges on one DOI or one arXiv id whatever the titles and years; an arXiv DOI is the arXiv id', () => {
    expect(sameWork(bibtexIdentity({ title: 'A', year: '2020', doi: '10.1145/A' }), cslIdentity({ title: 'B', DOI: 'https://doi.org/10.1145/a', issued: { 'date-parts': [[2021]] } }))).toBe(true);
    expect(sameWork(bibtexIdentity({ doi: '10.48550/arXiv.1706.03762' }), entryIdentity(entry({ key: 'v', title: TITLE, arxiv: '1706.03762', doi: '10.5555/3295222.3295349' })))).toBe(true);
    expect(sameWork(bibtexIdentity({ title: '' }), bibtexIdentity({ title: '' }))).toBe(false);
  });

  it('a library entry read without a title has none (its key stands in for the title)', () => {
    const raw = { key: 'Attention', type: 'misc', fields: {}, line: 1, start: 0, end: 0 } as Parameters<typeof entryFromBibtex>[0];
    expect(entryIdentity(entryFromBibtex(raw, LIB)).title).toBe('');
  });

  /** A work's identifiers, written as a record would. */
  const work = fc.record({
    doi: fc.option(fc.stringMatching(/^10\.\d{4}\/[a-z0-9.]{1,8}$/), { nil: undefined }),
    arxiv: fc.option(fc.oneof(fc.stringMatching(/^\d{4}\.\d{5}$/), fc.stringMatching(/^(hep-th|cs|math\.GT)\/\d{7}$/)), { nil: undefined }),
    title: fc.constantFrom('', 'Orca', 'A Title: With Punctuation!', 'Ünïcode Títle', TITLE),
    year: fc.option(fc.integer({ min: 1990, max: 2030 }), { nil: undefined }),
  });
  type Work = typeof work extends fc.Arbitrary<infer W> ? W : never;

  /** The work as `.bib` fields, in one of the ways people write DOIs, arXiv ids, titles and years. */
  const asBibtex = (w: Work, style: number): Record<string, string> => {
    const f: Record<string, string> = {};
    if (w.title) f.title = style % 2 ? `{${w.title.toUpperCase()}}` : w.title;
    if (w.year !== undefined) f[style % 3 ? 'year' : 'date'] = style % 3 ? String(w.year) : `${w.year}-05-01`;
    if (w.doi) f.doi = [w.doi, `https://doi.org/${w.doi.toUpperCase()}`, `doi:${w.doi}`, `http://dx.doi.org/${w.doi}`][style % 4]!;
    if (w.arxiv) {
      const v = `v${1 + (style % 3)}`;
      const ways: [string, string][] = [['eprint', w.arxiv], ['eprint', `arXiv:${w.arxiv}${v}`], ['url', `https://arxiv.org/abs/${w.arxiv}${v}`], ['url', `https://arxiv.org/pdf/${w.arxiv}${v}.pdf`], ['journal', `arXiv preprint arXiv:${w.arxiv}`]];
      const [name, value] = ways[style % ways.length]!;
      f[name] = value;
      if (name === 'eprint' && style % 2) f.archiveprefix = 'arXiv';
    }
    return f;
  };
  /** The work as a CSL item. */
  const asCsl = (w: Work, style: number): Record<string, unknown> => ({
    id: 'k', title: w.title,
    ...(w.year !== undefined ? { issued: style % 2 ? { 'date-parts': [[w.year, 5]] } : { raw: `${w.year}-05` } } : {}),
    ...(w.doi ? { DOI: style % 2 ? w.doi : `https://doi.org/${w.doi}` } : {}),
    ...(w.arxiv ? (style % 2 ? { number: `arXiv:${w.arxiv}v2` } : { URL: `https://arxiv.org/abs/${w.arxiv}` }) : {}),
  });
  const identities = (w: Work, style: number): WorkIdentity[] => [
    bibtexIdentity(asBibtex(w, style)),
    cslIdentity(asCsl(w, style)),
    entryIdentity(entry({ key: 'k', title: w.title || 'k', year: w.year, doi: w.doi, arxiv: w.arxiv })),
  ];

  it('property: a work is the same work as itself however its DOI, arXiv id, title and year are written, in .bib, CSL or the corpus', () => {
    fc.assert(fc.property(work, fc.nat(60), fc.nat(60), (w, s1, s2) => {
      fc.pre(!!(w.title || w.doi || w.arxiv));
      for (const a of identities(w, s1)) for (const b of identities(w, s2)) expect(sameWork(a, b)).toBe(true);
    }), { numRuns: 500 });
  });

  it('property: the rule is symmetric, and the index finds what the rule says', () => {
    fc.assert(fc.property(work, work, fc.nat(60), fc.nat(60), (w1, w2, s1, s2) => {
      for (const a of identities(w1, s1)) {
        for (const b of identities(w2, s2)) {
          expect(sameWork(a, b)).toBe(sameWork(b, a));
          const index = new SameWorkIndex<string>();
          index.add(b, 'b');
          expect(index.find(a) === 'b').toBe(sameWork(a, b));
        }
      }
    }), { numRuns: 500 });
  });
});

describe('the rule, used', () => {
  const corpusEntry = entry({ key: 'vaswani2017attention', title: 'Attention Is All You Need', year: 2017, arxiv: '1706.03762' });

  it('the planner cites the bibliography\'s key for the same work, and adds a namesake of another year', () => {
    const bib = readBibFile('refs.bib', [
      '@misc{namesake, title = {Attention Is All You Need}, year = {2021}}',
      '@article{scholar, title = {Something else}, journal = {arXiv preprint arXiv:1706.03762v5}}',
    ].join('\n'))!;
    expect(planBibSync([corpusEntry], [bib]).citeAs.get('vaswani2017attention')).toBe('scholar');
    const onlyNamesake = readBibFile('refs.bib', '@misc{namesake, title = {Attention Is All You Need}, year = {2021}}\n')!;
    const plan = planBibSync([corpusEntry], [onlyNamesake]);
    expect(plan.add.map((e) => e.key)).toEqual(['vaswani2017attention']);
    const noYear = readBibFile('refs.json', '[{"id": "mine", "title": "Attention is all you need"}]')!;
    expect(planBibSync([corpusEntry], [noYear]).reused).toEqual([{ entry: corpusEntry, key: 'mine', path: 'refs.json' }]);
  });

  it('the catalog takes a library entry for a corpus entry\'s work by the same rule', () => {
    const corpus = buildCorpus({ topics: [{ id: 't', label: 'T', zh: 'T', children: [] }], entries: [corpusEntry] });
    const lib = (text: string): CatalogLibrary => ({ id: LIB.uri, name: LIB.name, lib: loadLibrary(text, 'bibtex', LIB), text, named: true });
    const side = { corpus, index: createSearchIndex(corpus) };
    expect(new Catalog(side, [lib('@misc{other, title = {Attention Is All You Need}, year = 2021}\n')]).sameWorkInLibrary('vaswani2017attention')).toBeUndefined();
    const found = new Catalog(side, [lib('@misc{mine, title = {Attention Is All You Need}}\n')]);
    expect(found.sameWorkInLibrary('vaswani2017attention')?.key).toBe('mine');
    expect(found.libraryEntry('mine')?.library?.sameWorkAs).toBe('vaswani2017attention');
    expect(new Catalog(side, [lib('@misc{pdf, title = {Transformers}, url = {https://arxiv.org/pdf/1706.03762v7}}\n')]).sameWorkInLibrary('vaswani2017attention')?.key).toBe('pdf');
  });

  it('the corpus check reports the same work twice by the same rule, named by the field that matched', () => {
    const at = (e: ReturnType<typeof entry>, line: number) => ({ file: 'e.yaml', line, entry: e });
    const problems = crossCheck([{ id: 't', label: 'T', zh: 'T', children: [] }], [
      at(corpusEntry, 1),
      at(entry({ key: 'namesake', title: 'Attention is all you need', year: 2021 }), 10),
      at(entry({ key: 'undated', title: 'Attention is all you need' }), 20),
      at(entry({ key: 'preprint', title: 'Other', arxiv: '1706.03762' }), 30),
    ]);
    expect(problems.map((p) => [p.field, p.message])).toEqual([
      ['undated.title', 'same title as "vaswani2017attention" (e.yaml:1)'],
      ['preprint.arxiv', 'same arxiv as "vaswani2017attention" (e.yaml:1)'],
    ]);
  });
});
