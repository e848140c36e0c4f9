/**
 * Reading corpora from disk (Node `fs`; no VS Code): a corpus folder of YAML, and the compiled JSON.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildCorpus, crossCheck, entryLocations, parseTopicsFile, type Corpus, type CorpusData, type EntryLocation } from '../../core/corpus.js';
import { CorpusError, type Problem } from '../../core/problems.js';
import type { Entry } from '../../core/schema.js';

/** The result of validating a corpus folder: the data (valid parts only) and every problem. */
export interface LoadedCorpus {
  data: CorpusData;
  problems: Problem[];
  /** Where each entry was read from. */
  locations: EntryLocation[];
}

/**
 * Reads, validates and cross-checks a corpus folder: `topics.yaml` and `entries/*.yaml`.
 *
 * @param dir - the corpus folder (e.g. `corpus/`)
 * @param cwd - problems name files relative to this folder (default: the process's)
 * @returns the valid data and every problem (file:line:column); never throws for bad content
 * @throws Error when `dir/topics.yaml` or `dir/entries` cannot be read at all
 */
export function loadCorpusDir(dir: string, cwd = process.cwd()): LoadedCorpus {
  const problems: Problem[] = [];
  const topicsPath = join(dir, 'topics.yaml');
  const topics = parseTopicsFile(readFileSync(topicsPath, 'utf8'), relative(cwd, topicsPath));
  problems.push(...topics.problems);
  const locations: EntryLocation[] = [];
  const entriesDir = join(dir, 'entries');
  for (const name of readdirSync(entriesDir).filter((n) => /\.ya?ml$/.test(n)).sort()) {
    const path = join(entriesDir, name);
    const file = relative(cwd, path);
    const text = readFileSync(path, 'utf8');
    const res = entryLocations(text, file);
    problems.push(...res.problems);
    locations.push(...res.locations);
  }
  problems.push(...crossCheck(topics.items, locations));
  return { data: { topics: topics.items, entries: locations.map((s) => s.entry) }, problems, locations };
}

/**
 * Loads the compiled corpus (`dist/corpus.json`, written by the build after validation).
 *
 * @throws CorpusError when the file is not a compiled corpus
 */
export function loadCompiledCorpus(path: string): Corpus {
  const data = JSON.parse(readFileSync(path, 'utf8')) as CorpusData;
  if (!Array.isArray(data.topics) || !Array.isArray(data.entries)) {
    throw new CorpusError([{ file: path, line: 1, column: 1, field: '', message: 'not a compiled corpus', severity: 'error' }]);
  }
  return buildCorpus(data);
}

/**
 * Reads user corpus files (YAML lists of entries, same schema as the bundled ones).
 *
 * @param paths - absolute paths
 * @param display - how to name a path in problems
 * @returns the valid entries and the problems; a file that cannot be read is one problem, not an exception
 */
export function loadUserEntries(paths: readonly string[], display: (p: string) => string = (p) => p): { entries: Entry[]; locations: EntryLocation[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const locations: EntryLocation[] = [];
  for (const path of paths) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      problems.push({ file: display(path), line: 1, column: 1, field: '', message: `cannot read: ${(e as Error).message}`, severity: 'error' });
      continue;
    }
    const res = entryLocations(text, display(path));
    problems.push(...res.problems);
    locations.push(...res.locations);
  }
  return { entries: locations.map((s) => s.entry), locations, problems };
}
