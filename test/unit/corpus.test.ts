import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCorpus, crossCheck, entryLocations, parseEntriesFile, parseTopicsFile } from '../../src/core/corpus/readCorpus.js';
import { formatProblem } from '../../src/core/text/problems.js';
import { loadCorpusDir } from '../../src/host/node/readCorpusFiles.js';
import { normaliseTitle } from '../../src/core/corpus/sameWork.js';
import { arxivId, bareDoi } from '../../src/core/corpus/identifiers.js';

const FIX = join(__dirname, 'fixtures');
const bad = (name: string) => {
  const file = `corpus-bad/${name}.yaml`;
  return parseEntriesFile(readFileSync(join(FIX, file), 'utf8'), file);
};
const okTopics = parseTopicsFile(readFileSync(join(FIX, 'corpus-ok/topics.yaml'), 'utf8'), 'topics.yaml').items;
const okEntry = parseEntriesFile(readFileSync(join(FIX, 'corpus-ok/entries/one.yaml'), 'utf8'), 'one.yaml').items[0]!;

describe('entry validation: each rule has a failing fixture and a message naming file, line and field', () => {
  const cases: [string, string, number, string, RegExp][] = [
    // fixture, field, line, formatted prefix, message
    ['not-a-list', '', 1, 'corpus-bad/not-a-list.yaml:1:1: error: ', /must be a YAML list of entries/],
    ['unknown-field', '[0]', 1, 'corpus-bad/unknown-field.yaml:1:3: error: [0]: ', /unknown field\(s\): venu/],
    ['missing-title', '[0].title', 1, 'corpus-bad/missing-title.yaml:1:3: error: [0].title: ', /is required/],
    ['bad-doi', '[0].doi', 6, 'corpus-bad/bad-doi.yaml:6:8: error: [0].doi: ', /bare DOI/],
    ['bad-arxiv', '[0].arxiv', 6, 'corpus-bad/bad-arxiv.yaml:6:10: error: [0].arxiv: ', /arXiv id .*no version/],
    ['bad-url', '[0].url', 6, 'corpus-bad/bad-url.yaml:6:8: error: [0].url: ', /http\(s\) URL/],
    ['no-authors', '[0].authors', 5, 'corpus-bad/no-authors.yaml:5:12: error: [0].authors: ', /needs at least one author \(or list authors under unverified\)/],
    ['bad-author', '[0].authors[0]', 5, 'corpus-bad/bad-author.yaml:5:13: error: [0].authors[0]: ', /\{given, family\} or an organisation \{literal\}/],
    ['bad-level', '[0].level', 7, 'corpus-bad/bad-level.yaml:7:10: error: [0].level: ', /must be one of: must-read, optional, advanced/],
    ['bad-year', '[0].year', 6, 'corpus-bad/bad-year.yaml:6:9: error: [0].year: ', /must be a number/],
    ['bad-key', '[0].key', 1, 'corpus-bad/bad-key.yaml:1:8: error: [0].key: ', /ASCII letters, digits/],
    ['no-verified', '[0].verified', 9, 'corpus-bad/no-verified.yaml:9:13: error: [0].verified: ', /primary-source URL/],
    ['cjk-title', '[0].title_en', 4, 'corpus-bad/cjk-title.yaml:4:10: error: [0].title_en: ', /required when the title is in Chinese/],
    ['bad-type', '[0].type', 2, 'corpus-bad/bad-type.yaml:2:9: error: [0].type: ', /must be one of: article, inproceedings/],
  ];
  for (const [name, field, line, prefix, message] of cases) {
    it(name, () => {
      const { items, problems } = bad(name);
      expect(items).toHaveLength(0);
      expect(problems.length).toBeGreaterThan(0);
      const p = problems.find((x) => x.field === field)!;
      expect(p, JSON.stringify(problems)).toBeDefined();
      expect(p.line).toBe(line);
      expect(formatProblem(p).startsWith(prefix), formatProblem(p)).toBe(true);
      expect(p.message).toMatch(message);
    });
  }

  it('reports broken YAML with its position and loads nothing', () => {
    const { items, problems } = bad('broken-yaml');
    expect(items).toHaveLength(0);
    expect(problems[0]!.message).toMatch(/^YAML: /);
    expect(problems[0]!.line).toBeGreaterThanOrEqual(2);
  });

  it('keeps the valid entries of a file that also has an invalid one', () => {
    const { items, problems } = bad('one-bad-one-good');
    expect(items.map((e) => e.key)).toEqual(['good2020entry']);
    expect(problems).toHaveLength(1);
    expect(formatProblem(problems[0]!)).toBe('corpus-bad/one-bad-one-good.yaml:16:12: error: [1].summary: must not be empty');
  });
});

describe('cross-file checks', () => {
  const check = (name: string) => {
    const text = readFileSync(join(FIX, `corpus-bad/${name}.yaml`), 'utf8');
    return crossCheck(okTopics, [{ entry: okEntry, file: 'one.yaml', line: 1 }, ...entryLocations(text, name).locations]);
  };
  it('rejects a key taken by another entry, ignoring case', () => {
    const [p] = check('dup-key');
    expect(p?.message).toMatch(/same key as "kwon2023efficient" \(one.yaml:1\)/);
    expect(p?.line).toBe(1);
  });
  it('rejects the same DOI twice', () => {
    expect(check('dup-doi')[0]?.message).toMatch(/same doi as "kwon2023efficient"/);
  });
  it('points a key used twice in one file at the first line that uses it', () => {
    const text = '- &e\n  key: twice2020a\n  type: misc\n  kind: paper\n  title: A\n  authors: [{given: A, family: B}]\n'
      + '  topics: [t]\n  summary: s\n  sources: [curated]\n  verified: ["https://example.org"]\n'
      + '- key: twice2020a\n  type: misc\n  kind: paper\n  title: B\n  authors: [{given: A, family: B}]\n'
      + '  topics: [t]\n  summary: s\n  sources: [curated]\n  verified: ["https://example.org/b"]\n';
    const { locations } = entryLocations(text, 'x.yaml');
    expect(locations.map((s) => s.line)).toEqual([2, 11]);
    const dup = crossCheck(okTopics, locations).filter((p) => p.field.endsWith('.key'));
    expect(dup).toEqual([expect.objectContaining({ line: 11, message: 'same key as "twice2020a" (x.yaml:2)' })]);
  });
  it('rejects unknown topics', () => {
    expect(check('unknown-topic')[0]?.message).toBe('unknown topic "serving.nonexistent"');
  });
});

describe('topics', () => {
  it('validates ids and labels, with positions', () => {
    const res = parseTopicsFile(readFileSync(join(FIX, 'topics-bad.yaml'), 'utf8'), 'topics-bad.yaml');
    expect(res.items).toHaveLength(0);
    expect(res.problems.map(formatProblem)).toEqual([
      'topics-bad.yaml:1:7: error: [0].id: must be dotted lower-case words such as training.moe',
      'topics-bad.yaml:4:3: error: [1].zh: is required',
    ]);
  });
  it('builds a tree with paths and entries under topics', () => {
    const c = buildCorpus({ topics: okTopics, entries: [okEntry] });
    expect(c.roots).toEqual(['serving', 'training']);
    expect(c.topic('serving.memory')?.path).toEqual(['LLM serving', 'GPU memory management']);
    expect(c.entriesUnder('serving').map((e) => e.key)).toEqual(['kwon2023efficient']);
    expect(c.entriesOf('serving')).toEqual([]);
    expect(c.entry('KWON2023EFFICIENT')?.key).toBe('kwon2023efficient');
  });
});

describe('the bundled corpus', () => {
  const loaded = loadCorpusDir(join(__dirname, '../../corpus'), join(__dirname, '../..'));
  const corpus = buildCorpus(loaded.data);
  it('validates with no problems', () => {
    expect(loaded.problems.map(formatProblem)).toEqual([]);
  });
  it('holds every item of seed 003 (77), each with a level and seed-003 as a source', () => {
    const from003 = corpus.entries.filter((e) => e.sources.includes('seed-003'));
    expect(from003).toHaveLength(77);
    for (const e of from003) expect(e.level, e.key).toBeDefined();
  });
  it('has English and Chinese labels on every topic, and every seed-003 section has entries', () => {
    for (const t of corpus.topics) expect(t.zh.length, t.id).toBeGreaterThan(0);
    const seed003Roots = ['fundamentals', 'systems', 'training', 'serving', 'diffusion'];
    for (const root of seed003Roots) {
      for (const child of corpus.topic(root)!.children) {
        if (child === 'training.mixed-precision') continue; // added for seed 004 (corpus issue)
        expect(corpus.entriesOf(child).length, child).toBeGreaterThan(0);
      }
    }
  });
  it('orders the entries of a topic for reading: level, then year', () => {
    const order = corpus.entriesOf('training.pipeline-parallel').map((e) => [e.level, e.year]);
    const sorted = [...order].sort((a, b) => (['must-read', 'optional', 'advanced', undefined].indexOf(a[0] as never) - ['must-read', 'optional', 'advanced', undefined].indexOf(b[0] as never)) || ((a[1] as number) - (b[1] as number)));
    expect(order).toEqual(sorted);
    expect(corpus.entriesOf('training.pipeline-parallel')[0]!.key).toBe('huang2019gpipe');
  });
  it('has at least three entries in every leaf topic', () => {
    const thin = corpus.topics.filter((t) => !t.children.length && corpus.entriesOf(t.id).length < 3).map((t) => `${t.id}: ${corpus.entriesOf(t.id).length}`);
    expect(thin).toEqual([]);
  });
  it('describes every topic in English and Chinese', () => {
    for (const t of corpus.topics) {
      expect(t.description, t.id).toBeTruthy();
      expect(t.description_zh, t.id).toBeTruthy();
    }
  });
  it('files are valid YAML lists named after their source', () => {
    const files = readdirSync(join(__dirname, '../../corpus/entries'));
    const odd = files.filter((f) => !/^seed\d{3}-[a-z0-9-]+\.yaml$|^curated-[a-z0-9-]+\.yaml$|^field-[a-z0-9-]+\.yaml$/.test(f));
    expect(odd).toEqual([]);
  });
  it('each field-*.yaml file starts with a comment saying what it holds and how it was made', () => {
    const dir = join(__dirname, '../../corpus/entries');
    for (const f of readdirSync(dir).filter((n) => n.startsWith('field-'))) {
      expect(readFileSync(join(dir, f), 'utf8'), f).toMatch(/^# \S.*\n(?:#.*\n)*/);
    }
  });
});

describe('the bundled corpus: one entry per work, records well-formed', () => {
  const { data } = loadCorpusDir(join(__dirname, '../../corpus'), join(__dirname, '../..'));
  const entries = data.entries;
  /** Keys of entries that share a value, for each value two or more entries share. */
  const shared = (value: (e: (typeof entries)[number]) => string | undefined) => {
    const by = new Map<string, string[]>();
    for (const e of entries) {
      const v = value(e);
      if (v) by.set(v, [...(by.get(v) ?? []), e.key]);
    }
    return [...by].filter(([, keys]) => keys.length > 1);
  };
  it('no two entries have the same DOI (compared without case)', () => {
    expect(shared((e) => bareDoi(e.doi)?.toLowerCase())).toEqual([]);
  });
  it('no two entries have the same arXiv id (version dropped)', () => {
    expect(shared((e) => arxivId(e.arxiv))).toEqual([]);
  });
  it('no two entries have the same normalised title and year', () => {
    expect(shared((e) => `${normaliseTitle(e.title_en ?? e.title)}|${e.year ?? ''}`)).toEqual([]);
  });
  it('every record id is usenix:<node id> or dblp:<DBLP key>, and names one entry only', () => {
    const bad = entries.flatMap((e) => e.records.filter((r) => !/^usenix:\d+$|^dblp:(?:conf|journals)\/[A-Za-z0-9-]+\/[A-Za-z0-9_-]+$/.test(r)).map((r) => `${e.key}: ${r}`));
    expect(bad).toEqual([]);
    const owners = new Map<string, string>();
    const twice: string[] = [];
    for (const e of entries) {
      for (const r of e.records) {
        if (owners.has(r)) twice.push(`${r}: ${owners.get(r)} and ${e.key}`);
        else owners.set(r, e.key);
      }
    }
    expect(twice).toEqual([]);
  });
  it('an entry of the field\'s literature names the records it rests on, or the pages it was checked against', () => {
    for (const e of entries.filter((x) => x.sources.includes('field'))) {
      expect(e.records.length + e.verified.length, e.key).toBeGreaterThan(0);
      for (const r of e.records.filter((x) => x.startsWith('dblp:'))) expect(e.verified, e.key).toContain(`https://dblp.org/rec/${r.slice(5)}`);
    }
  });
});
