/**
 * The Topics view's listings (`core/corpus/browse.ts`) at the field's size: the reading list leads
 * each topic, the field's other works are one "More in this topic" group by year with counts, and
 * the filter shows the reading list only or everything.
 */
import { describe, expect, it } from 'vitest';
import { CorpusBrowser, YEAR_GROUPS_FROM, type BrowseNode, type BrowseOptions } from '../../src/core/corpus/browse.js';
import { buildCorpus, type Corpus, type CorpusData } from '../../src/core/corpus/model.js';
import { LEVELS, onReadingList, type CorpusEntry } from '../../src/core/corpus/schema.js';
import { firstEntries } from '../../src/core/search/corpus/corpusIndex.js';
import { corpusOfSize, CROWDED_TOPIC, fieldEntries } from './generatedCorpus.js';

/** Field works the crowded topic holds at least. */
const BIG = 300;
import { entry, realCorpusData } from './helpers.js';

/**
 * The corpus at the field's size, with 300+ field works in {@link CROWDED_TOPIC} whatever the real
 * corpus holds: generated works are added to that topic when it has fewer (as `topics.e2e.ts` does).
 */
const large = buildCorpus(((): CorpusData => {
  const base = corpusOfSize(realCorpusData());
  const short = BIG - base.entries.filter((e) => !onReadingList(e) && e.topics.includes(CROWDED_TOPIC)).length;
  if (short <= 0) return base;
  const taken = new Set(base.entries.map((e) => e.key.toLowerCase()));
  const titles = new Set(base.entries.map((e) => e.title.toLowerCase()));
  const names = new Set(base.entries.flatMap((e) => [...e.aliases, e.title.split(':')[0]!]).map((n) => n.trim().toLowerCase()));
  const extra = fieldEntries(short + 200, [CROWDED_TOPIC], taken, names).filter((e) => !titles.has(e.title.toLowerCase())).slice(0, short);
  return { topics: base.topics, entries: [...base.entries, ...extra] };
})());
const everything: BrowseOptions = { scope: 'everything', levels: [...LEVELS], isRead: () => false };
const readingList: BrowseOptions = { ...everything, scope: 'readingList' };
const keysOf = (nodes: BrowseNode[]) => nodes.flatMap((n) => (n.kind === 'entry' ? [n.entry.key] : []));
const topicIds = (nodes: BrowseNode[]) => nodes.flatMap((n) => (n.kind === 'topic' ? [n.topic.id] : []));

describe('the Topics view at 3,000 entries', () => {
  const browser = new CorpusBrowser(large);
  const direct = large.entriesOf(CROWDED_TOPIC);
  const field = direct.filter((e) => !onReadingList(e));

  it('has a topic of 300+ works', () => {
    expect(field.length).toBeGreaterThanOrEqual(BIG);
  });

  it('leads a topic with its reading list in reading order, then one "more" group with the field works\' count', () => {
    const rows = browser.children({ topic: CROWDED_TOPIC }, everything);
    const reading = direct.filter(onReadingList);
    expect(keysOf(rows)).toEqual(reading.map((e) => e.key));
    expect(rows.at(-1)).toEqual({ kind: 'more', topic: CROWDED_TOPIC, count: field.length });
    expect(rows.filter((n) => n.kind === 'more')).toHaveLength(1);
  });

  it('groups the "more" works by year, newest first, with counts that add up; a year lists its works by title', () => {
    const years = browser.children({ topic: CROWDED_TOPIC, group: 'more' }, everything);
    expect(years.every((n) => n.kind === 'year')).toBe(true);
    const list = years as Extract<BrowseNode, { kind: 'year' }>[];
    expect(list.map((y) => y.year)).toEqual([...list.map((y) => y.year)].sort((a, b) => Number(b) - Number(a)));
    expect(list.reduce((n, y) => n + y.count, 0)).toBe(field.length);
    for (const y of list) {
      const works = browser.children({ topic: CROWDED_TOPIC, group: y.year }, everything);
      expect(works).toHaveLength(y.count);
      const entries = works.map((n) => (n as { entry: CorpusEntry }).entry);
      expect(entries.every((e) => e.year === y.year && !onReadingList(e))).toBe(true);
      expect(entries.map((e) => e.title)).toEqual([...entries.map((e) => e.title)].sort((a, b) => a.localeCompare(b, 'en')));
    }
  });

  it('shows the reading list only when asked: no "more" group, no field counts, the same roots and entries', () => {
    const rows = browser.children({ topic: CROWDED_TOPIC }, readingList);
    expect(rows.some((n) => n.kind === 'more')).toBe(false);
    expect(keysOf(rows)).toEqual(keysOf(browser.children({ topic: CROWDED_TOPIC }, everything)));
    const roots = browser.children({}, readingList);
    expect(roots.every((n) => n.kind === 'topic' && n.more === 0)).toBe(true);
    expect(topicIds(roots)).toEqual(large.roots.filter((id) => large.entriesUnder(id).some(onReadingList)));
  });

  it('counts a topic\'s reading list under it (levels filtered), what is read of it, and its field works', () => {
    const serving = browser.children({}, everything).find((n) => n.kind === 'topic' && n.topic.id === 'serving') as Extract<BrowseNode, { kind: 'topic' }>;
    const under = large.entriesUnder('serving');
    expect(serving.readingList).toBe(under.filter(onReadingList).length);
    expect(serving.more).toBe(under.filter((e) => !onReadingList(e)).length);
    const someRead = new Set(under.filter(onReadingList).slice(0, 3).map((e) => e.key.toLowerCase()));
    const optional: BrowseOptions = { scope: 'everything', levels: ['optional'], isRead: (k) => someRead.has(k) };
    const row = browser.children({}, optional).find((n) => n.kind === 'topic' && n.topic.id === 'serving') as Extract<BrowseNode, { kind: 'topic' }>;
    const shown = under.filter((e) => onReadingList(e) && (!e.level || e.level === 'optional'));
    expect(row.readingList).toBe(shown.length);
    expect(row.read).toBe(shown.filter((e) => someRead.has(e.key.toLowerCase())).length);
    expect(keysOf(browser.children({ topic: 'serving.batching' }, optional)).every((k) => large.entry(k)!.level !== 'must-read')).toBe(true);
  });

  it('exports a topic as the view shows it: the reading list, then (everything) the field works, each once', () => {
    const reading = browser.entriesUnder(['serving'], readingList);
    expect(reading.map((e) => e.key)).toEqual(large.entriesUnder('serving').filter(onReadingList).map((e) => e.key));
    const all = browser.entriesUnder(['serving', 'serving.batching'], everything);
    expect(new Set(all.map((e) => e.key)).size).toBe(all.length);
    expect(all).toHaveLength(large.entriesUnder('serving').length);
    expect(all.slice(0, reading.length)).toEqual(reading);
  });

  it('answers nothing for a topic it does not have', () => {
    expect(browser.children({ topic: 'no.such.topic' }, everything)).toEqual([]);
    expect(browser.children({ topic: 'no.such.topic', group: 'more' }, everything)).toEqual([]);
  });
});

describe('small cases', () => {
  const topics = [{ id: 'a', label: 'A', zh: '甲', children: [{ id: 'a.x', label: 'X', zh: '子' }] }, { id: 'b', label: 'B', zh: '乙' }];
  const fieldWork = (key: string, topic: string, year?: number): CorpusEntry => entry({ key, title: `Work ${key}`, topics: [topic], sources: ['field'], year });
  const corpus = (entries: CorpusEntry[]): Corpus => buildCorpus({ topics, entries });

  it('a topic with field works only is left out of the reading list, and shown with everything', () => {
    const b = new CorpusBrowser(corpus([entry({ key: 'r1', topics: ['a.x'] }), fieldWork('f1', 'b', 2020)]));
    expect(topicIds(b.children({}, readingList))).toEqual(['a']);
    expect(topicIds(b.children({}, everything))).toEqual(['a', 'b']);
    expect(b.children({ topic: 'b' }, everything)).toEqual([{ kind: 'more', topic: 'b', count: 1 }]);
  });

  it(`lists up to ${YEAR_GROUPS_FROM} field works as they are, newest first; more by year; works with no year in their own group`, () => {
    const few = Array.from({ length: YEAR_GROUPS_FROM }, (_, i) => fieldWork(`f${i}`, 'b', 2000 + (i % 3)));
    const b = new CorpusBrowser(corpus(few));
    const rows = b.children({ topic: 'b', group: 'more' }, everything);
    expect(rows).toHaveLength(YEAR_GROUPS_FROM);
    expect(rows.map((n) => (n as { entry: CorpusEntry }).entry.year)).toEqual([...few.map((e) => e.year)].sort((x, y) => y! - x!));
    const many = new CorpusBrowser(corpus([...few, fieldWork('undated', 'b')]));
    const years = many.children({ topic: 'b', group: 'more' }, everything);
    expect(years).toEqual([
      { kind: 'year', topic: 'b', year: 2002, count: 8 }, { kind: 'year', topic: 'b', year: 2001, count: 8 },
      { kind: 'year', topic: 'b', year: 2000, count: 9 }, { kind: 'year', topic: 'b', year: 'none', count: 1 },
    ]);
    expect(keysOf(many.children({ topic: 'b', group: 'none' }, everything))).toEqual(['undated']);
  });

  it('a subtopic\'s field works count in its parent\'s row, and show in the subtopic\'s own group only', () => {
    const b = new CorpusBrowser(corpus([entry({ key: 'r1', topics: ['a'] }), fieldWork('f1', 'a.x', 2021)]));
    expect(b.children({}, everything)[0]).toMatchObject({ kind: 'topic', readingList: 1, more: 1 });
    expect(b.children({ topic: 'a' }, everything).map((n) => n.kind)).toEqual(['topic', 'entry']);
    expect(b.children({ topic: 'a.x' }, everything)).toEqual([{ kind: 'more', topic: 'a.x', count: 1 }]);
  });
});

describe('what an empty query lists', () => {
  it('the reading list first, then the field\'s works (the search and completion with nothing typed)', () => {
    const data = corpusOfSize(realCorpusData());
    const real = data.entries.filter(onReadingList);
    // Field works first in the file order: the reading list still leads.
    const shuffled = buildCorpus({ topics: data.topics, entries: [...data.entries.filter((e) => !onReadingList(e)), ...real] });
    expect(firstEntries(shuffled, 10).map((e) => e.key)).toEqual(real.slice(0, 10).map((e) => e.key));
    const all = firstEntries(shuffled, real.length + 5);
    expect(all.slice(0, real.length).every(onReadingList)).toBe(true);
    expect(all.slice(real.length).some(onReadingList)).toBe(false);
    expect(all).toHaveLength(real.length + 5);
  });
});
