/**
 * Loading, validating and merging corpora into a read-only model.
 *
 * Validation happens once, at the edge: YAML text → {@link parseEntriesFile} / {@link parseTopicsFile}
 * (with file:line:column problems) → {@link buildCorpus} (cross-file checks) → {@link Corpus}.
 * Inside the extension the types are trusted.
 */
import { isMap, isSeq, type Document, type LineCounter, type Node as YamlNode } from 'yaml';
import type * as z from 'zod/mini';
import type { Problem } from '../text/problems.js';
import { hasCjk } from '../text/cjk.js';
import { entryIdentity, SameWorkIndex, type WorkIdentity } from './sameWork.js';
import { buildCorpus, mergeCorpusData, type Corpus, type CorpusData, type Topic } from './model.js';
import { EntrySchema, TopicsFileSchema, type CorpusEntry, type TopicInput } from './schema.js';
import { parseYaml } from '../text/yaml.js';
import { problem, problemMessage } from '../text/problemText.js';

export { buildCorpus, mergeCorpusData, type Corpus, type CorpusData, type Topic };

interface Located {
  doc: Document.Parsed;
  lines: LineCounter;
  /** The document's value (`toJS`), already converted once. */
  value: unknown;
}

/** Parses a YAML file through the one guarded reader; its problems become file:line:column problems. */
function parseLocated(text: string, file: string, problems: Problem[]): Located | undefined {
  const parsed = parseYaml(text);
  for (const p of parsed.problems) {
    const pos = parsed.lines.linePos(p.offset);
    problems.push({ file, line: pos.line, column: pos.col, field: '', message: problemMessage(problem('yaml', p.text)), severity: p.severity });
  }
  return parsed.doc ? { doc: parsed.doc, lines: parsed.lines, value: parsed.value } : undefined;
}

function pathToString(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join('');
}

/** Finds the YAML node for a path, falling back to the nearest ancestor that exists. */
function positionOf(loc: Located, path: readonly PropertyKey[]): { line: number; column: number } {
  for (let n = path.length; n >= 0; n--) {
    const node = loc.doc.getIn(path.slice(0, n) as (string | number)[], true) as YamlNode | undefined;
    if (node && typeof node === 'object' && 'range' in node && node.range) {
      const p = loc.lines.linePos(node.range[0]);
      return { line: p.line, column: p.col };
    }
  }
  return { line: 1, column: 1 };
}

function zodProblems(
  loc: Located, file: string, base: readonly PropertyKey[], error: { issues: z.core.$ZodIssue[] }, problems: Problem[],
): void {
  for (const issue of error.issues) {
    const path = [...base, ...issue.path];
    const present = loc.doc.hasIn(path as (string | number)[]);
    problems.push({
      file, ...positionOf(loc, path), field: pathToString(path), message: issueMessage(issue, present), severity: 'error',
    });
  }
}

/**
 * A readable message for a zod issue. Checks carry our own messages; the rest (types, enums,
 * unknown keys, unions) are phrased here, since zod/mini ships no locale.
 */
function issueMessage(issue: z.core.$ZodIssue, present: boolean): string {
  switch (issue.code) {
    case 'invalid_type':
      return !present ? 'is required' : `must be ${issue.expected === 'array' ? 'a list' : `a ${issue.expected}`}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map(String).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown field(s): ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'must be a person {given, family} or an organisation {literal}';
    default:
      return issue.message && issue.message !== 'Invalid input' ? issue.message : `invalid (${issue.code})`;
  }
}

/** Result of parsing one file: what was valid, and every problem found. */
export interface ParseResult<T> {
  items: T[];
  problems: Problem[];
}

/**
 * Parses and validates one entries file (a YAML list of entries).
 *
 * Each entry is validated on its own, so one bad entry is reported and skipped while the others load.
 *
 * @param text - the file's text (UTF-8)
 * @param file - the name used in problems (a path relative to the workspace or repo)
 * @returns the valid entries in file order, and a problem per invalid field (1-based line and column)
 * @example
 * const { items, problems } = parseEntriesFile(fs.readFileSync(f, 'utf8'), 'corpus/entries/x.yaml');
 */
export function parseEntriesFile(text: string, file: string): ParseResult<CorpusEntry> {
  const { locations, problems } = entryLocations(text, file);
  return { items: locations.map((s) => s.entry), problems };
}

/** Rules across fields of one entry, which the schema cannot say. */
function entryRule(e: CorpusEntry): { field: string; at: string; message: string } | undefined {
  if (!e.authors.length && !e.unverified.includes('authors')) {
    return { field: 'authors', at: 'authors', message: 'needs at least one author (or list authors under unverified)' };
  }
  // A CJK title cannot be typeset by pdflatex; the English title is what BibTeX output uses.
  if (hasCjk(e.title) && !e.title_en) {
    return { field: 'title_en', at: 'title', message: 'is required when the title is in Chinese or Japanese' };
  }
  return undefined;
}

/**
 * Parses and validates a topics file (a YAML list of topics with nested `children`).
 *
 * @param text - the file's text
 * @param file - the name used in problems
 * @returns the topics (empty when any problem was found: a half-valid taxonomy is not used)
 */
export function parseTopicsFile(text: string, file: string): ParseResult<TopicInput> {
  const problems: Problem[] = [];
  const loc = parseLocated(text, file, problems);
  if (!loc) return { items: [], problems };
  const res = TopicsFileSchema.safeParse(loc.value);
  if (!res.success) {
    zodProblems(loc, file, [], res.error, problems);
    return { items: [], problems };
  }
  return { items: res.data, problems };
}

/** Where an entry came from, to point cross-file problems at it. */
export interface EntryLocation {
  entry: CorpusEntry;
  file: string;
  /** 1-based line of the entry's `key:`; 1 when unknown. */
  line: number;
}

/**
 * Parses and validates one entries file (a YAML list of entries), pairing each valid entry with
 * the line of its `key:` (for cross-file problems). The file is parsed once.
 *
 * Each entry is validated on its own, so one bad entry is reported and skipped while the others load.
 *
 * @param text - the file's text (UTF-8)
 * @param file - the name used in problems (a path relative to the workspace or repo)
 * @returns the valid entries in file order with their `key:` lines (1-based; the item's line when
 *   it has no `key:`), and a problem per invalid field (1-based line and column). Never throws.
 */
export function entryLocations(text: string, file: string): { locations: EntryLocation[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const loc = parseLocated(text, file, problems);
  if (!loc) return { locations: [], problems };
  const root = loc.doc.contents;
  if (root === null || root === undefined) return { locations: [], problems };
  if (!isSeq(root)) {
    problems.push({ file, ...positionOf(loc, []), field: '', message: 'must be a YAML list of entries', severity: 'error' });
    return { locations: [], problems };
  }
  const raw = loc.value as unknown[];
  const locations: EntryLocation[] = [];
  raw.forEach((value, i) => {
    const res = EntrySchema.safeParse(value);
    if (!res.success) return zodProblems(loc, file, [i], res.error, problems);
    const rule = entryRule(res.data);
    if (rule) {
      problems.push({ file, ...positionOf(loc, [i, rule.at]), field: `[${i}].${rule.field}`, message: rule.message, severity: 'error' });
      return;
    }
    locations.push({ entry: res.data, file, line: keyLine(loc, root.items[i]) });
  });
  return { locations, problems };
}

/** The 1-based line of an entry item's `key:` value, else of the item. */
function keyLine(loc: Located, item: unknown): number {
  if (!isMap(item)) return 1;
  const pair = item.items.find((p) => (p.key as { value?: unknown })?.value === 'key');
  const node = (pair?.value ?? item) as { range?: [number, number, number] | null };
  return node.range ? loc.lines.linePos(node.range[0]).line : 1;
}

/**
 * Checks entries across files: unknown topics, duplicate keys (ignoring case), and the same work
 * twice (`sameWork.ts`'s rule: the same DOI, arXiv id, or normalised title with no different
 * year, DOI or arXiv id), named by the field that matched.
 *
 * @param topics - the taxonomy
 * @param locations - the entries with their file and line
 * @returns problems (errors), at most one per check per offending entry
 */
export function crossCheck(topics: readonly TopicInput[], locations: readonly EntryLocation[]): Problem[] {
  const ids = new Set<string>();
  const walk = (ts: readonly TopicInput[]) => ts.forEach((t) => { ids.add(t.id); walk(t.children ?? []); });
  walk(topics);
  const problems: Problem[] = [];
  const keys = new Map<string, EntryLocation>();
  const works = new SameWorkIndex<{ s: EntryLocation; id: WorkIdentity }>();
  const err = (s: EntryLocation, field: string, prev: EntryLocation) => problems.push({
    file: s.file, line: s.line, column: 1, field: `${s.entry.key}.${field}`, message: `same ${field} as "${prev.entry.key}" (${prev.file}:${prev.line})`, severity: 'error',
  });
  for (const s of locations) {
    for (const t of s.entry.topics) {
      if (!ids.has(t)) problems.push({ file: s.file, line: s.line, column: 1, field: `${s.entry.key}.topics`, message: `unknown topic "${t}"`, severity: 'error' });
    }
    const key = s.entry.key.toLowerCase();
    const sameKey = keys.get(key);
    if (sameKey) err(s, 'key', sameKey);
    else keys.set(key, s);
    const id = entryIdentity(s.entry);
    const same = works.find(id);
    if (same) err(s, id.doi && id.doi === same.id.doi ? 'doi' : id.arxiv && id.arxiv === same.id.arxiv ? 'arxiv' : 'title', same.s);
    else works.add(id, { s, id });
  }
  return problems;
}
