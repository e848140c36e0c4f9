/**
 * The read-only corpus model every feature works on, built from validated data (`dist/corpus.json`,
 * or entries `readCorpus.ts` has read and checked). Light on purpose: the VS Code client builds it
 * from what the language server sends, without the YAML reader or the schema's parsers.
 */
import { LEVELS, type CorpusEntry, type TopicInput } from './schema.js';

/** A topic in the model, with its place in the tree. */
export interface Topic {
  readonly id: string;
  readonly label: string;
  readonly zh: string;
  readonly description?: string;
  readonly description_zh?: string;
  readonly parent?: string;
  readonly children: readonly string[];
  /** Labels from the root to this topic, e.g. `['LLM inference serving', 'GPU memory management']`. */
  readonly path: readonly string[];
}

/** The serialised corpus that the build writes to `dist/corpus.json`. */
export interface CorpusData {
  topics: TopicInput[];
  entries: CorpusEntry[];
}

/**
 * The corpus's topics without its entries: what a client that asks the language server for
 * entries keeps (topic labels and paths for what it shows). A {@link Corpus} is one.
 */
export interface Taxonomy {
  /** Topics in tree order (depth first). */
  readonly topics: readonly Topic[];
  /** Root topic ids in tree order. */
  readonly roots: readonly string[];
  topic(id: string): Topic | undefined;
}

/**
 * The taxonomy of `topics` (see {@link Taxonomy}).
 *
 * @param topics - topics in tree order, each with its subtopics
 */
export function buildTaxonomy(topics: readonly TopicInput[]): Taxonomy {
  const { topics: all, roots, topic } = buildCorpus({ topics: [...topics], entries: [] });
  return { topics: all, roots, topic };
}

/** The read-only corpus model that every feature works on. */
export interface Corpus extends Taxonomy {
  readonly entries: readonly CorpusEntry[];
  /** Looks an entry up by citation key, ignoring case. */
  entry(key: string): CorpusEntry | undefined;
  /** Entries filed directly under a topic, in reading order (foundations first; see `buildCorpus`). */
  entriesOf(topicId: string): readonly CorpusEntry[];
  /** Entries under a topic or any of its descendants, each once. */
  entriesUnder(topicId: string): readonly CorpusEntry[];
}

/**
 * Builds the read-only model from a taxonomy and entries that have already been validated.
 *
 * Entries whose topics are unknown are still listed (under the topics that exist); nothing throws.
 *
 * @param data - topics in tree order and entries in reading order
 */
export function buildCorpus(data: CorpusData): Corpus {
  const topics: Topic[] = [];
  const byId = new Map<string, Topic>();
  const walk = (ts: readonly TopicInput[], parent: Topic | undefined) => {
    for (const t of ts) {
      const topic: Topic = {
        id: t.id, label: t.label, zh: t.zh, description: t.description, description_zh: t.description_zh,
        parent: parent?.id, children: (t.children ?? []).map((c) => c.id), path: [...(parent?.path ?? []), t.label],
      };
      topics.push(topic);
      byId.set(t.id, topic);
      walk(t.children ?? [], topic);
    }
  };
  walk(data.topics, undefined);

  const byKey = new Map<string, CorpusEntry>();
  const direct = new Map<string, CorpusEntry[]>();
  for (const e of data.entries) {
    if (!byKey.has(e.key.toLowerCase())) byKey.set(e.key.toLowerCase(), e);
    for (const t of e.topics) {
      if (!direct.has(t)) direct.set(t, []);
      direct.get(t)!.push(e);
    }
  }
  // Reading order within a topic: foundations first. Seed 003's levels lead (must-read, optional,
  // advanced, then entries without a level); within a level, older works first; then file order.
  const rank = (e: CorpusEntry) => (e.level ? LEVELS.indexOf(e.level) : LEVELS.length);
  const position = new Map(data.entries.map((e, i) => [e, i]));
  for (const list of direct.values()) {
    list.sort((a, b) => rank(a) - rank(b) || (a.year ?? 9999) - (b.year ?? 9999) || position.get(a)! - position.get(b)!);
  }
  const under = new Map<string, CorpusEntry[]>();
  const collect = (id: string): CorpusEntry[] => {
    const cached = under.get(id);
    if (cached) return cached;
    const set = new Set<CorpusEntry>(direct.get(id) ?? []);
    for (const c of byId.get(id)?.children ?? []) for (const e of collect(c)) set.add(e);
    const list = [...set];
    under.set(id, list);
    return list;
  };
  const entries = Object.freeze([...data.entries]);
  return {
    topics,
    roots: data.topics.map((t) => t.id),
    entries,
    topic: (id) => byId.get(id),
    entry: (key) => byKey.get(key.toLowerCase()),
    entriesOf: (id) => direct.get(id) ?? [],
    entriesUnder: collect,
  };
}

/**
 * Merges the bundled corpus with user corpora: user entries are appended; a user entry whose key
 * (ignoring case) is already taken replaces nothing and is reported by the caller via {@link crossCheck}.
 */
export function mergeCorpusData(base: CorpusData, extra: readonly CorpusEntry[]): CorpusData {
  const taken = new Set(base.entries.map((e) => e.key.toLowerCase()));
  return { topics: base.topics, entries: [...base.entries, ...extra.filter((e) => !taken.has(e.key.toLowerCase()))] };
}
