/**
 * What the Topics view shows of the corpus, one level at a time: under each topic its subtopics,
 * then the reading list's entries (the seeds' guide: levels, must-reads, reading order), then, when
 * the view shows everything, one "More in this topic" group holding the field's other works filed
 * there, by year (newest first) once there are more than {@link YEAR_GROUPS_FROM} of them, each
 * group with its count. The language server answers the view from this (`mlsysPapers/topicChildren`),
 * so the client never holds the corpus; each topic's lists are made the first time it is asked
 * for, not for every entry at load.
 */
import type { Corpus, Topic } from './model.js';
import { onReadingList, type CorpusEntry, type Level } from './schema.js';

/** What the Topics view shows: the reading list only, or the field's other works too. */
export const TOPIC_SCOPES = ['readingList', 'everything'] as const;
export type TopicScope = (typeof TOPIC_SCOPES)[number];

/** A topic's field works are grouped by year once there are more than this many; fewer are listed as they are. */
export const YEAR_GROUPS_FROM = 25;

/** How a listing is filtered: what the view shows, which levels, and which keys are read (lower case). */
export interface BrowseOptions {
  scope: TopicScope;
  /** Reading-list entries with one of these levels (or none) are shown. */
  levels: readonly Level[];
  /** Whether the user marked a key (lower case) read. */
  isRead(key: string): boolean;
}

/** A year of a topic's "more" group: a year, or `none` for the works with no year. */
export type YearGroup = number | 'none';

/** Where a listing starts: the roots (no topic), a topic, its "more" group, or one year of that group. */
export interface BrowseParent {
  /** The topic listed; absent: the root topics. */
  topic?: string;
  /** Within the topic: its "more" group, or one year of it. */
  group?: 'more' | YearGroup;
}

/** One row of a listing. */
export type BrowseNode =
  | {
    kind: 'topic';
    topic: Pick<Topic, 'id' | 'label' | 'zh' | 'description' | 'description_zh' | 'parent'>;
    /** Reading-list entries under the topic (subtopics included) that the levels show, and how many of them are read. */
    readingList: number;
    read: number;
    /** The field's other works under the topic (subtopics included); 0 when the view shows the reading list only. */
    more: number;
  }
  | { kind: 'entry'; entry: CorpusEntry }
  /** "More in this topic": the field works filed directly under `topic`. */
  | { kind: 'more'; topic: string; count: number }
  | { kind: 'year'; topic: string; year: YearGroup; count: number };

interface TopicLists {
  /** Filed directly here: reading list in reading order; field works newest first, then by title. */
  reading: readonly CorpusEntry[];
  field: readonly CorpusEntry[];
  /** Under the topic, subtopics included, each once. */
  readingUnder: readonly CorpusEntry[];
  fieldUnder: number;
}

const yearOf = (e: CorpusEntry): YearGroup => e.year ?? 'none';
const byYearThenTitle = (a: CorpusEntry, b: CorpusEntry) => (b.year ?? 0) - (a.year ?? 0) || a.title.localeCompare(b.title, 'en');

/**
 * The Topics view's listings over one corpus model (see the module comment). Build one per corpus
 * version; it is cheap to make (nothing is computed until a topic is listed).
 */
export class CorpusBrowser {
  private readonly lists = new Map<string, TopicLists>();

  constructor(private readonly corpus: Corpus) {}

  private listsOf(id: string): TopicLists {
    let l = this.lists.get(id);
    if (!l) {
      const direct = this.corpus.entriesOf(id);
      const under = this.corpus.entriesUnder(id);
      l = {
        reading: direct.filter(onReadingList),
        field: direct.filter((e) => !onReadingList(e)).sort(byYearThenTitle),
        readingUnder: under.filter(onReadingList),
        fieldUnder: under.reduce((n, e) => n + (onReadingList(e) ? 0 : 1), 0),
      };
      this.lists.set(id, l);
    }
    return l;
  }

  private static shown(e: CorpusEntry, o: BrowseOptions): boolean {
    return !e.level || o.levels.includes(e.level);
  }

  /** A topic as a row, or undefined when it has nothing to show (no entry the levels show, and no field work or the reading list only). */
  private topicNode(t: Topic, o: BrowseOptions): BrowseNode | undefined {
    const l = this.listsOf(t.id);
    const shown = l.readingUnder.filter((e) => CorpusBrowser.shown(e, o));
    const more = o.scope === 'everything' ? l.fieldUnder : 0;
    if (!shown.length && !more) return undefined;
    const { id, label, zh, description, description_zh, parent } = t;
    return {
      kind: 'topic', topic: { id, label, zh, description, description_zh, parent },
      readingList: shown.length, read: shown.reduce((n, e) => n + (o.isRead(e.key.toLowerCase()) ? 1 : 0), 0), more,
    };
  }

  /**
   * The rows under `parent`: the root topics; a topic's subtopics, reading-list entries and "more"
   * group; the "more" group's years (or its works, when few); one year's works.
   *
   * @returns the rows, empty for a topic the corpus does not have
   */
  children(parent: BrowseParent, o: BrowseOptions): BrowseNode[] {
    const topics = (ids: readonly string[]) => ids.map((id) => this.corpus.topic(id)).filter((t): t is Topic => !!t)
      .map((t) => this.topicNode(t, o)).filter((n): n is BrowseNode => !!n);
    if (parent.topic === undefined) return topics(this.corpus.roots);
    const topic = this.corpus.topic(parent.topic);
    if (!topic) return [];
    const l = this.listsOf(topic.id);
    const entries = (es: readonly CorpusEntry[]): BrowseNode[] => es.map((entry) => ({ kind: 'entry', entry }));
    const group = parent.group;
    if (group === 'more') {
      if (l.field.length <= YEAR_GROUPS_FROM) return entries(l.field);
      const years = new Map<YearGroup, number>();
      for (const e of l.field) years.set(yearOf(e), (years.get(yearOf(e)) ?? 0) + 1);
      return [...years].map(([year, count]) => ({ kind: 'year', topic: topic.id, year, count }));
    }
    if (group !== undefined) return entries(l.field.filter((e) => yearOf(e) === group));
    const rows = [...topics(topic.children), ...entries(l.reading.filter((e) => CorpusBrowser.shown(e, o)))];
    if (o.scope === 'everything' && l.field.length) rows.push({ kind: 'more', topic: topic.id, count: l.field.length });
    return rows;
  }

  /**
   * Every entry under the given topics (subtopics included) that the view shows, each once: the
   * reading list in reading order, then the field's works newest first (what Export Entries writes
   * for a topic).
   */
  entriesUnder(topicIds: readonly string[], o: BrowseOptions): CorpusEntry[] {
    const out = new Map<string, CorpusEntry>();
    for (const id of topicIds) {
      for (const e of this.listsOf(id).readingUnder) if (CorpusBrowser.shown(e, o)) out.set(e.key, e);
    }
    if (o.scope === 'everything') {
      const field = topicIds.flatMap((id) => this.corpus.entriesUnder(id).filter((e) => !onReadingList(e))).sort(byYearThenTitle);
      for (const e of field) out.set(e.key, e);
    }
    return [...out.values()];
  }
}
