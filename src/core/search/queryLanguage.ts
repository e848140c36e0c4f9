/**
 * The search's query language: free text and filters (`author:`, `year:`, `venue:`, `topic:`),
 * read the same by both indexes (the corpus's and the library index, `library/`).
 */
import { foldAscii } from '../cite/key.js';
import type { Corpus } from '../corpus/model.js';

const fold = foldAscii;

/** Filters parsed out of a query string. */
export interface QueryFilters {
  author?: string[];
  venue?: string[];
  topic?: string[];
  /** Inclusive year range. */
  yearFrom?: number;
  yearTo?: number;
}

/** A query split into free text and filters. */
export interface ParsedQuery {
  text: string;
  filters: QueryFilters;
  /** Filter tokens that could not be understood (e.g. `year:abc`), to show the user. */
  invalid: string[];
}

const FILTER = /(^|\s)(author|year|venue|topic):(?:"([^"]*)"|(\S*))/gi;

/**
 * Splits a query into free text and filters.
 *
 * Syntax: `author:kwon`, `author:"Woosuk Kwon"`, `year:2023`, `year:2022..2024` (also `2022..` and
 * `..2024`), `venue:osdi`, `topic:serving` (a topic id or label, matching its subtopics too).
 * Filters of the same name are OR-ed; different names are AND-ed.
 *
 * @example parseQuery('paged attention year:2023') // { text: 'paged attention', filters: { yearFrom: 2023, yearTo: 2023 } }
 */
export function parseQuery(query: string): ParsedQuery {
  const filters: QueryFilters = {};
  const invalid: string[] = [];
  const text = query.replace(FILTER, (_m, lead: string, name: string, quoted?: string, bare?: string) => {
    const value = (quoted ?? bare ?? '').trim();
    const key = name.toLowerCase() as 'author' | 'year' | 'venue' | 'topic';
    if (!value) return lead; // still typing: `author:` alone filters nothing
    if (key === 'year') {
      const m = /^(\d{4})?(?:(\.\.)(\d{4})?)?$/.exec(value);
      if (!m || (!m[1] && !m[3])) { invalid.push(`${name}:${value}`); return lead; }
      filters.yearFrom = m[1] ? Number(m[1]) : undefined;
      filters.yearTo = m[2] ? (m[3] ? Number(m[3]) : undefined) : Number(m[1]);
      return lead;
    }
    (filters[key] ??= []).push(fold(value));
    return lead;
  });
  return { text: text.replace(/\s+/g, ' ').trim(), filters, invalid };
}

/**
 * The topics a `topic:` filter selects: the topic ids it names (with their subtopics: `serving` →
 * `serving.*`) and, when no id matches, the topics whose label in English or Chinese contains it
 * (again with their subtopics).
 *
 * @param corpus - the corpus whose topics are matched
 * @param needle - the filter's value, folded as {@link parseQuery} gives it
 * @returns the matching topic ids; empty when the filter names no topic
 */
export function topicsMatching(corpus: Corpus, needle: string): Set<string> {
  const byId = corpus.topics.filter((t) => t.id === needle || t.id.startsWith(`${needle}.`));
  const hits = byId.length ? byId : corpus.topics.filter((t) => fold(t.label).includes(needle) || fold(t.zh).includes(needle));
  const out = new Set<string>();
  const add = (id: string) => { out.add(id); corpus.topic(id)?.children.forEach(add); };
  hits.forEach((t) => add(t.id));
  return out;
}
