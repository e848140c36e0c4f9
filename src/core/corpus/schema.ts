/**
 * The corpus schema: zod schemas for topics and entries, and the TypeScript types derived from them.
 *
 * The field list and its meaning are documented in `corpus/README.md`; the BibTeX field names follow
 * the BibTeX manual (Patashnik, "BibTeXing", 1988) and the entry types are the standard BibTeX ones.
 */
import * as z from 'zod/mini';
import { ARXIV_ID } from './identifiers.js';

/** Levels of seed 003's legend: ⚡ must-read, 💎 optional, 💡 advanced. */
export const LEVELS = ['must-read', 'optional', 'advanced'] as const;
export type Level = (typeof LEVELS)[number];

/** How each reading level is shown to a reader: `⚡ must-read`, `💎 optional`, `💡 advanced`. */
export const LEVEL_BADGES: Record<Level, string> = {
  'must-read': '⚡ must-read', optional: '💎 optional', advanced: '💡 advanced',
};

/** What an entry is to a reader; drives its icon. */
export const KINDS = [
  'paper', 'survey', 'framework', 'course', 'book', 'blog', 'video', 'tutorial', 'talk', 'docs', 'report',
] as const;
export type Kind = (typeof KINDS)[number];

/** Standard BibTeX entry types we emit. */
export const ENTRY_TYPES = [
  'article', 'inproceedings', 'book', 'incollection', 'techreport', 'phdthesis', 'misc',
] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

/**
 * Where an entry comes from (see `corpus/README.md`): a seed list (`seed-000` … `seed-004`) or
 * `curated` (added by us to complete a topic of the reading list); both make the reading list.
 * `field`: the field's wider literature, selected from published records by the rule in
 * `corpus/README.md` ("What goes in").
 */
export const SOURCES = ['seed-000', 'seed-001', 'seed-003', 'seed-004', 'curated', 'field'] as const;
export type Source = (typeof SOURCES)[number];

/**
 * Whether an entry is on the reading list: from a seed list or curated by us to complete one of
 * its topics (`corpus/README.md`), rather than only the field's wider literature (`sources: [field]`).
 * A library entry (no sources) is not.
 */
export function onReadingList(e: { readonly sources?: readonly Source[] }): boolean {
  return !!e.sources?.some((s) => s !== 'field');
}

// zod/mini: the tree-shakable build (the full build adds ~450 kB to the bundle). Messages are ours;
// see `issueMessage` in corpus.ts for the ones zod produces by code.
const nonEmpty = () => z.string().check(z.trim(), z.minLength(1, 'must not be empty'));
const httpUrl = () => z.string().check(z.regex(/^https?:\/\/[^\s]+$/, 'must be an http(s) URL with no spaces'));
const opt = z.optional;
const list = <T extends z.ZodMiniType>(t: T, min?: string) =>
  min ? z.array(t).check(z.minLength(1, min)) : z._default(z.array(t), []);

/** A person (`given` may be empty for mononyms) or an organisation (`literal`). */
export const PersonSchema = z.union([
  z.strictObject({ given: z.string(), family: nonEmpty(), zh: opt(z.string()) }),
  z.strictObject({ literal: nonEmpty() }),
]);
export type Person = z.infer<typeof PersonSchema>;

/** A published record's id: `usenix:<node id>` or `dblp:<DBLP key>` (the key without its `DBLP:` prefix). */
export const RECORD_ID = /^(?:usenix:\d+|dblp:[A-Za-z0-9/_-]+)$/;

/** Citation keys: ASCII letters, digits and `-_:.`; see `corpus/README.md` for the scheme. */
export const KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_:.-]*$/;

const stringish = z.pipe(z.union([z.string(), z.number()]), z.transform((v) => String(v)));

/**
 * One corpus entry, as written in `corpus/entries/*.yaml`.
 * Unknown fields are rejected so that a typo (`venu:`) is an error, not silently dropped data.
 */
export const EntrySchema = z.strictObject({
  key: z.string().check(z.regex(KEY_PATTERN, 'must start with a letter and hold only ASCII letters, digits and - _ : .')),
  type: z.enum(ENTRY_TYPES),
  kind: z.enum(KINDS),
  title: nonEmpty(),
  title_en: opt(nonEmpty()),
  // Empty only when `unverified` lists `authors` (checked in corpus.ts).
  authors: z.array(PersonSchema),
  year: opt(z.number().check(z.int(), z.minimum(1900, 'must be a year from 1900'), z.maximum(2100, 'must be a year up to 2100'))),
  venue: opt(nonEmpty()),
  venue_full: opt(nonEmpty()),
  booktitle: opt(nonEmpty()),
  journal: opt(nonEmpty()),
  volume: opt(stringish),
  number: opt(stringish),
  pages: opt(z.string().check(z.regex(/^[0-9A-Za-z:]+(--[0-9A-Za-z:]+)?$/, 'must look like 611--626 (or 65:1--65:43 for article numbers)'))),
  publisher: opt(nonEmpty()),
  institution: opt(nonEmpty()),
  howpublished: opt(nonEmpty()),
  edition: opt(nonEmpty()),
  series: opt(nonEmpty()),
  doi: opt(z.string().check(z.regex(/^10\.\d{4,9}\/\S+$/, 'must be a bare DOI such as 10.1145/3600006.3613165'))),
  arxiv: opt(z.string().check(z.regex(ARXIV_ID, 'must be an arXiv id such as 2309.06180 (no version)'))),
  url: opt(httpUrl()),
  pdf: opt(httpUrl()),
  code: opt(httpUrl()),
  topics: list(nonEmpty(), 'needs at least one topic'),
  level: opt(z.enum(LEVELS)),
  aliases: list(nonEmpty()),
  // Only where we read the abstract or the paper's page; no summary is better than a guessed one.
  summary: opt(nonEmpty()),
  sources: list(z.enum(SOURCES), 'needs at least one source'),
  seed_urls: list(z.string()),
  verified: list(httpUrl(), 'needs at least one primary-source URL'),
  // The published records the entry was checked against (`corpus/README.md`, "Records"):
  // `usenix:<node id>` (USENIX's own BibTeX) or `dblp:<DBLP key>` (`dblp:conf/osdi/YuJKKC22`).
  records: list(z.string().check(z.regex(RECORD_ID, 'must be usenix:<node id> or dblp:<DBLP key>'))),
  unverified: list(nonEmpty()),
  note: opt(nonEmpty()),
});
/** An entry as written in YAML (defaults not yet applied). */
export type EntryInput = z.input<typeof EntrySchema>;
/**
 * Where an entry of one of the user's libraries (`mlsysPapers.libraries`: BibTeX, CSL-JSON,
 * CSL-YAML) comes from. Library entries are read-only to us; a corpus YAML entry has none.
 */
export interface LibraryInfo {
  /** The library file's URI. */
  uri: string;
  /** The library's name as shown: its file name. */
  name: string;
  /** 1-based line where the entry starts. */
  line: number;
  /** The entry type as written (`online`, `mastersthesis`, `article-journal`); `type` is its nearest BibTeX standard type. */
  sourceType: string;
  /** The entry's `keywords` (BibTeX, or CSL's `keyword`), split. */
  keywords: readonly string[];
  /** JabRef groups the entry belongs to (its `groups` field). */
  groups: readonly string[];
  /** The library format. */
  format: 'bibtex' | 'csl-json' | 'csl-yaml';
  /**
   * What citing a BibTeX library entry copies into a `.bib`, once the server has prepared it: its
   * text exactly as written (`bibtexMacros` and `crossref` hold what it needs from the same file).
   */
  bibtex?: string;
  /** The library's `@string` definitions the BibTeX text uses (directly or through each other), as written. */
  bibtexMacros?: { name: string; text: string }[];
  /** The entry its `crossref` names, as written (BibTeX needs it in the same file, after the entry). */
  crossref?: { key: string; bibtex: string };
  /** A CSL library entry's item as written (set at load): what a CSL bibliography gets, and what formats it. */
  csl?: Record<string, unknown>;
  /** The corpus entry that is the same work (`sameWork.ts`'s rule), if any. */
  sameWorkAs?: string;
}

/** A corpus entry as validated: its bibliographic record and the corpus's curation of it. */
export type CorpusEntry = z.output<typeof EntrySchema> & { readonly library?: undefined };

/**
 * The corpus's curation of a work, on top of its bibliographic record: where it sits in the
 * topic tree, how much a reader needs it, what it is about, and where each fact was checked
 * (`corpus/README.md`). Only corpus entries have it.
 */
export type Curation = Pick<z.output<typeof EntrySchema>, (typeof CURATION_FIELDS)[number]>;

/** The fields of an entry that are the corpus's curation ({@link Curation}), not its bibliographic record. */
export const CURATION_FIELDS = ['topics', 'level', 'aliases', 'summary', 'sources', 'seed_urls', 'verified', 'records', 'unverified', 'note'] as const;

/**
 * The bibliographic record of a work: what identifies, finds and cites it (its citation key,
 * entry type and BibTeX fields, its identifiers and links), and `kind`, what it is to a reader.
 * Corpus entries and entries of the user's libraries both have it.
 */
export type BibRecord = Omit<z.output<typeof EntrySchema>, keyof Curation>;

/** An entry of one of the user's libraries: a bibliographic record and where it was read; no curation. */
export type LibraryEntry = BibRecord & { library: LibraryInfo } & { readonly [K in keyof Curation]?: undefined };

/**
 * An entry as every feature sees it: a corpus entry (record and curation) or a library entry
 * (record and `library`). `library` tells them apart; curation fields are absent on library entries.
 */
export type Entry = CorpusEntry | LibraryEntry;

/** One topic of `corpus/topics.yaml`, possibly with subtopics. */
export interface TopicInput {
  id: string;
  label: string;
  zh: string;
  description?: string;
  description_zh?: string;
  children?: TopicInput[];
}

export const TopicSchema: z.ZodMiniType<TopicInput> = z.strictObject({
  id: z.string().check(z.regex(/^[a-z0-9-]+(\.[a-z0-9-]+)*$/, 'must be dotted lower-case words such as training.moe')),
  label: nonEmpty(),
  zh: nonEmpty(),
  description: opt(nonEmpty()),
  description_zh: opt(nonEmpty()),
  get children() {
    return opt(z.array(TopicSchema));
  },
});

export const TopicsFileSchema = z.array(TopicSchema).check(z.minLength(1, 'needs at least one topic'));
