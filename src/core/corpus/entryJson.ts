/**
 * The JSON shape of an entry for the CLI (`list --json`, `search --json`), documented in the README.
 */
import type { Entry } from './schema.js';

/** An author in CLI JSON: always `given` and `family`; organisations also carry `literal`. */
export interface AuthorJson {
  given: string;
  family: string;
  literal?: string;
}

/** An entry in CLI JSON. Fields that the entry lacks are `null`, never missing. */
export interface EntryJson {
  key: string;
  title: string;
  title_en: string | null;
  authors: AuthorJson[];
  year: number | null;
  venue: string | null;
  venue_full: string | null;
  type: string;
  kind: string;
  doi: string | null;
  arxiv: string | null;
  url: string | null;
  pdf: string | null;
  code: string | null;
  topics: string[];
  level: string | null;
  aliases: string[];
  summary: string;
}

/** Converts an entry to its CLI JSON form. */
export function entryJson(e: Entry): EntryJson {
  return {
    key: e.key,
    title: e.title,
    title_en: e.title_en ?? null,
    authors: e.authors.map((p) => ('literal' in p ? { given: '', family: p.literal, literal: p.literal } : { given: p.given, family: p.family })),
    year: e.year ?? null,
    venue: e.venue ?? null,
    venue_full: e.venue_full ?? null,
    type: e.type,
    kind: e.kind,
    doi: e.doi ?? null,
    arxiv: e.arxiv ?? null,
    url: e.url ?? null,
    pdf: e.pdf ?? null,
    code: e.code ?? null,
    topics: [...(e.topics ?? [])],
    level: e.level ?? null,
    aliases: [...(e.aliases ?? [])],
    summary: e.summary ?? '',
  };
}
