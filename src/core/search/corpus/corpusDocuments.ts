/**
 * What the corpus search indexes of an entry: one document of texts per entry, by field
 * ({@link SEARCH_FIELDS}).
 */
import { displayName } from '../../cite/names.js';
import type { Corpus } from '../../corpus/model.js';
import type { CorpusEntry } from '../../corpus/schema.js';
import { tokenize, withAbbreviations } from '../analysis.js';

/** The fields of an entry the corpus search indexes (see {@link searchDocuments}), in MiniSearch's field order. */
export const SEARCH_FIELDS = ['title', 'aliases', 'key', 'authors', 'venue', 'year', 'topics', 'summary'] as const;

/** An entry as the corpus search indexes it: one text per field of {@link SEARCH_FIELDS}. */
export interface SearchDocument {
  /** The entry's position in `corpus.entries`. */
  id: number;
  title: string;
  aliases: string;
  key: string;
  authors: string;
  venue: string;
  year: string;
  /**
   * The entry's topics as search tokens, each once, separated by spaces (the words of the topics'
   * ids, Chinese labels with their character bigrams, and paths): the index takes them as they are
   * ({@link topicTokens}), not through the tokenizer again.
   */
  topics: string;
  summary: string;
}

/**
 * The texts the corpus search indexes, one document per entry: the title (and English title),
 * aliases (system names: GShard's `MoE` is also its `mixture of experts`) and summary with their
 * abbreviations' other forms ({@link withAbbreviations}), key, authors
 * (with Chinese names), venue (short and full), year, and the topics as the words of their ids,
 * Chinese labels and paths.
 *
 * @param corpus - the corpus model
 * @returns one document per entry, in `corpus.entries` order
 */
export function searchDocuments(corpus: Corpus): SearchDocument[] {
  // An entry's topics as the words of their ids, Chinese labels and paths (the label ends the
  // path), each word once: many entries share topics, and the index build is mostly term insertions.
  const topicWords = new Map<string, string[]>();
  const wordsOfTopic = (id: string): string[] => {
    let words = topicWords.get(id);
    if (!words) {
      const t = corpus.topic(id);
      topicWords.set(id, words = tokenize(t ? [id, t.zh, ...t.path].join(' ') : id));
    }
    return words;
  };
  const topicText = (e: CorpusEntry) => [...new Set(e.topics.flatMap(wordsOfTopic))].join(' ');
  return corpus.entries.map((e, id) => ({
    id,
    title: withAbbreviations([e.title, e.title_en].filter(Boolean).join(' ')),
    aliases: withAbbreviations(e.aliases.join(' ')),
    key: e.key,
    authors: e.authors.map((p) => [displayName(p), 'zh' in p ? p.zh : ''].join(' ')).join(' '),
    venue: [e.venue, e.venue_full].filter(Boolean).join(' '),
    year: e.year?.toString() ?? '',
    topics: topicText(e),
    summary: withAbbreviations(e.summary ?? ''),
  }));
}

/** The tokens of a document's `topics` field (see {@link SearchDocument.topics}). */
export function topicTokens(text: string): string[] {
  return text ? text.split(' ') : [];
}
