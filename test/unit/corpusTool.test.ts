/**
 * The corpus tool (scripts/corpus/): reading records into the corpus's forms, comparing fields in
 * form only, telling a venue's main proceedings from its workshops, the check of entries against
 * records, and the YAML it writes. None of it needs ../shared: the records here are made up.
 */
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { entryLocations } from '../../src/core/corpus/readCorpus.js';
import { aliasOf } from '../../scripts/corpus/build.js';
import { checkRecords, findingLine } from '../../scripts/corpus/check.js';
import { authorMismatch, samePerson, sameTitle } from '../../scripts/corpus/compare.js';
import { RecordIndex } from '../../scripts/corpus/pairs.js';
import { classifyVolumes, fieldText, pagesOf, personOf, type PubRecord } from '../../scripts/corpus/records.js';
import { entriesFileYaml, insertRecords, personYaml } from '../../scripts/corpus/yamlOut.js';
import { entry } from './helpers.js';

describe('records in the corpus forms', () => {
  it.each([
    ['Wei Wang 0001', { given: 'Wei', family: 'Wang' }],
    ['Roland van Rijswijk-Deij', { given: 'Roland', family: 'van Rijswijk-Deij' }],
    ['Christopher De Sa', { given: 'Christopher', family: 'De Sa' }],
    ['Carl A. Waldspurger Jr.', { given: 'Carl A.', family: 'Waldspurger Jr.' }],
    ['Jo{\\~a}o Felix', { given: 'João', family: 'Felix' }],
    ['Abhishta', { given: '', family: 'Abhishta' }],
  ])('%s → %j', (name, person) => {
    expect(personOf(name)).toEqual(person);
  });

  it('reads DBLP\'s inline math superscript as the superscript character', () => {
    expect(fieldText('VF\\({}^{\\mbox{2}}\\)Boost: Very Fast')).toBe('VF²Boost: Very Fast');
    expect(fieldText('{GTS:} {A} Fast   Method')).toBe('GTS: A Fast Method');
  });

  it('writes page ranges with --, and reads a cut article number as one', () => {
    expect(pagesOf('1-18')).toEqual({ pages: '1--18' });
    expect(pagesOf('{521--538}')).toEqual({ pages: '521--538' });
    expect(pagesOf('7')).toEqual({ pages: '7' });
    expect(pagesOf('15-1')).toEqual({ unreadable: true, articleNo: 15 });
    expect(pagesOf(undefined)).toEqual({});
  });

  it('takes a system name from a title that leads with one, and nothing else', () => {
    expect(aliasOf('Orca: A Distributed Serving System for Transformer-Based Generative Models')).toBe('Orca');
    expect(aliasOf('ZeRO-Offload: Democratizing Billion-Scale Model Training')).toBe('ZeRO-Offload');
    expect(aliasOf('TensorFlow Eager: A multi-stage, Python-embedded DSL')).toBe('TensorFlow Eager');
    expect(aliasOf('Towards Federated Learning at Scale: System Design')).toBeUndefined();
    expect(aliasOf('Deep Learning: A Survey')).toBeUndefined();
    expect(aliasOf('Serving DNNs like Clockwork: Performance Predictability from the Bottom Up')).toBeUndefined();
  });
});

describe('comparing in form only', () => {
  it('ignores case, braces, accents and dashes in titles, not words', () => {
    expect(sameTitle('{TVM}: An Automated End-to-End Optimizing Compiler', 'TVM: an automated end-to-end optimizing compiler')).toBe(true);
    expect(sameTitle('Schr\u00f6dinger -- a study', 'Schrodinger - a study')).toBe(true);
    expect(sameTitle('Serving DNNs', 'Serving RNNs')).toBe(false);
  });
  it('takes an initial for the given name it abbreviates, and a homonym number for nothing', () => {
    expect(samePerson({ given: 'J.', family: 'Smith' }, { given: 'John', family: 'Smith' })).toBe(true);
    expect(samePerson({ given: 'Gyeong-In', family: 'Yu' }, { given: 'Gyeong In', family: 'Yu' })).toBe(true);
    expect(samePerson({ given: 'Wei', family: 'Wang 0001' }, { given: 'Wei', family: 'Wang' })).toBe(true);
    expect(samePerson({ given: 'Christopher', family: 'De Sa' }, { given: 'Christopher De', family: 'Sa' })).toBe(true);
    expect(samePerson({ given: 'Frans', family: 'Kaashoek' }, { given: 'M. Frans', family: 'Kaashoek' })).toBe(false);
    expect(samePerson({ given: 'Guilio', family: 'Zhou' }, { given: 'Giulio', family: 'Zhou' })).toBe(false);
  });
  it('names the first author that differs, or the counts', () => {
    const a = [{ given: 'A', family: 'X' }, { given: 'B', family: 'Y' }];
    expect(authorMismatch(a, [a[0]!, { given: 'C', family: 'Y' }])).toEqual({ field: 'authors[1]', ours: 'B Y', theirs: 'C Y' });
    expect(authorMismatch(a, [a[0]!])?.field).toBe('authors');
    expect(authorMismatch(a, a)).toBeUndefined();
  });
});

/** A made-up DBLP systems record. */
const rec = (over: Partial<PubRecord> & Pick<PubRecord, 'id'>): PubRecord => ({
  source: 'dblp-systems', file: 'dblp-systems/sosp.xtx', type: 'inproceedings', venue: 'SOSP', year: 2019,
  title: over.id, authors: [{ given: 'Ann', family: 'Smith' }], ...over,
});

describe('main proceedings and workshops (page chains)', () => {
  it('puts the run that covers the pages with the fewest papers in the main volume, and a workshop detour out', () => {
    // Main: 1-15, 16-29, then 14-page papers to 300. Workshop: 1-7, 8-15, 16-22, 23-29, 30-36 (a detour
    // that rejoins the main run at page 30 and would cover the same pages with more papers).
    const main = [rec({ id: 'm1', pages: '1--15' }), rec({ id: 'm2', pages: '16--29' })];
    for (let p = 30; p < 300; p += 14) main.push(rec({ id: `m${p}`, pages: `${p}--${p + 13}` }));
    const ws = ['1--7', '8--15', '16--22', '23--29', '30--36'].map((pages, i) => rec({ id: `w${i}`, pages }));
    const art = rec({ id: 'a', pages: undefined, pagesUnreadable: true });
    const all = classifyVolumes([...main, ...ws, art]);
    const cls = (id: string) => all.find((r) => r.id === id)!.volume_class;
    expect(main.map((r) => cls(r.id)).every((c) => c === 'main')).toBe(true);
    expect(ws.map((r) => cls(r.id))).toEqual(['other', 'other', 'other', 'other', 'other']);
    expect(cls('a')).toBe('ambiguous');
  });
  it('calls a paper ambiguous where two equally good runs disagree', () => {
    const recs = [rec({ id: 'x', pages: '1--14' }), rec({ id: 'y', pages: '1--14' })];
    for (let p = 15; p < 300; p += 14) recs.push(rec({ id: `m${p}`, pages: `${p}--${p + 13}` }));
    const all = classifyVolumes(recs);
    expect(all.find((r) => r.id === 'x')!.volume_class).toBe('ambiguous');
    expect(all.find((r) => r.id === 'm15')!.volume_class).toBe('main');
  });
  it('leaves a run of posters (two pages each) out of the main volumes', () => {
    const posters = Array.from({ length: 100 }, (_, i) => rec({ id: `p${i}`, pages: `${2 * i + 1}--${2 * i + 2}` }));
    expect(new Set(classifyVolumes(posters).map((r) => r.volume_class))).toEqual(new Set(['other']));
  });
});

describe('check:records', () => {
  const r = rec({ id: 'dblp:conf/sosp/X19', title: 'PipeDream: generalized pipeline parallelism', pages: '1--15', authors: [{ given: 'Deepak', family: 'Narayanan' }] });
  const loc = (over: Parameters<typeof entry>[0]) => ({ entry: entry({ venue: 'SOSP', year: 2019, ...over }), file: 'x.yaml', line: 7 });
  const index = new RecordIndex([r]);

  it('finds a disagreement by the entry\'s records and prints it as file:line: key: field: ours vs record (source)', () => {
    const res = checkRecords([loc({ key: 'k', title: r.title, authors: r.authors, pages: '1--16', records: [r.id] })], index, [], () => true);
    expect(res.findings.map((f) => findingLine(f))).toEqual([
      'corpus/entries/x.yaml:7: k: pages: 1--16 vs 1--15 (dblp:conf/sosp/X19, dblp-systems/sosp.xtx)',
    ]);
  });
  it('matches by normalised title and year when the entry names no record, and ignores form', () => {
    const res = checkRecords([loc({ key: 'k', title: '{PipeDream}: Generalized Pipeline Parallelism', authors: [{ given: 'D.', family: 'Narayanan' }], pages: '1-15' })], index, [], () => true);
    expect(res.byTitle).toBe(1);
    expect(res.findings).toEqual([]);
  });
  it('lets a listed exception pass, and reports an exception that matches nothing', () => {
    const bad = loc({ key: 'k', title: r.title, authors: [{ given: 'Dee', family: 'Narayanan' }], records: [r.id] });
    const ex = [{ key: 'k', field: 'authors[0]', reason: 'the paper writes it so (see its page)' }, { key: 'z', field: 'title', reason: 'a stale exception' }];
    const res = checkRecords([bad], index, ex, () => true);
    expect(res.findings).toEqual([]);
    expect(res.excepted).toHaveLength(1);
    expect(res.unused.map((x) => x.key)).toEqual(['z']);
  });
  it('reports a record the sources should hold and do not', () => {
    const res = checkRecords([loc({ key: 'k', records: ['usenix:1'] })], index, [], (id) => id.startsWith('usenix:'));
    expect(res.findings.map((f) => f.field)).toEqual(['records']);
  });
});

describe('the YAML the tool writes', () => {
  it('reads back as the person written, whatever the name holds', () => {
    const name = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() === s && s.length > 0);
    fc.assert(fc.property(fc.string({ maxLength: 20 }), name, (given, family) => {
      expect(parse(personYaml({ given, family }))).toEqual({ given, family });
    }));
  });
  it('writes entries the build reads without a problem', () => {
    const e = { ...entry({ key: 'smith2019pipedream', type: 'inproceedings', title: 'PipeDream: "quoted" #1', venue: 'SOSP', year: 2019, records: ['dblp:conf/sosp/X19'] }), summary: undefined };
    const text = entriesFileYaml(['Generated for a test'], [e]);
    const res = entryLocations(text, 'x.yaml');
    expect(res.problems).toEqual([]);
    expect(res.locations[0]!.entry.title).toBe('PipeDream: "quoted" #1');
  });
  it('adds records to a hand-made entry and changes no other byte', () => {
    const text = '# c\n- key: a2020x\n  title: "A"\n  verified:\n    - "https://e.org"\n\n- key: b2020y\n  title: B\n  verified: ["https://f.org"]\n';
    const out = insertRecords(text, 'a2020x', ['dblp:conf/x/Y20']);
    expect(out).toBe('# c\n- key: a2020x\n  title: "A"\n  records:\n    - "dblp:conf/x/Y20"\n  verified:\n    - "https://e.org"\n\n- key: b2020y\n  title: B\n  verified: ["https://f.org"]\n');
    expect(insertRecords(out, 'a2020x', ['usenix:1'])).toContain('  records:\n    - "dblp:conf/x/Y20"\n    - "usenix:1"\n  verified:');
    expect(() => insertRecords(text, 'nope', ['usenix:1'])).toThrow(/no entry nope/);
  });
});
