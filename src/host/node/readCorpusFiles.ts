/**
 * Reading corpora from disk (Node `fs`; no VS Code): a corpus folder of YAML, and the compiled JSON.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { DEFAULT_MAX_FILE_MB, maxFileBytes } from '../../core/config/fileLimits.js';
import { readProblem, readRegularFileSync } from './regularFiles.js';
import { join, relative } from 'node:path';
import { buildCorpus, crossCheck, entryLocations, parseTopicsFile, type Corpus, type CorpusData, type EntryLocation } from '../../core/corpus/readCorpus.js';
import { CorpusError, type Problem } from '../../core/text/problems.js';
import type { Entry } from '../../core/corpus/schema.js';

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
 * @returns the valid data and every problem (file:line:column); a file that is not a regular file,
 *   too large, or unreadable is one problem naming it; never throws for bad content
 * @throws Error when the folder `dir/entries` cannot be listed
 */
export function loadCorpusDir(dir: string, cwd = process.cwd()): LoadedCorpus {
  const problems: Problem[] = [];
  const topicsPath = join(dir, 'topics.yaml');
  const topics = parseTopicsFile(readCorpusText(topicsPath, relative(cwd, topicsPath), problems), relative(cwd, topicsPath));
  problems.push(...topics.problems);
  const locations: EntryLocation[] = [];
  const entriesDir = join(dir, 'entries');
  for (const name of readdirSync(entriesDir).filter((n) => /\.ya?ml$/.test(n)).sort()) {
    const path = join(entriesDir, name);
    const file = relative(cwd, path);
    const text = readCorpusText(path, file, problems);
    const res = entryLocations(text, file);
    problems.push(...res.problems);
    locations.push(...res.locations);
  }
  problems.push(...crossCheck(topics.items, locations));
  return { data: { topics: topics.items, entries: locations.map((s) => s.entry) }, problems, locations };
}

/**
 * A corpus YAML file's text: a repository's `entries/x.yaml` may be a symlink to a device or a
 * FIFO, so it must be a regular file within the size cap; anything else is one problem naming it,
 * and its text is empty.
 */
function readCorpusText(path: string, file: string, problems: Problem[]): string {
  const max = maxFileBytes(DEFAULT_MAX_FILE_MB);
  const r = readRegularFileSync(path, max);
  if (r.kind === 'file') return r.bytes.toString('utf8');
  problems.push({ file, line: 1, column: 1, field: '', message: readProblem(r, max)!, severity: 'error' });
  return '';
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
    const max = maxFileBytes(DEFAULT_MAX_FILE_MB);
    const r = readRegularFileSync(path, max);
    if (r.kind !== 'file') {
      problems.push({ file: display(path), line: 1, column: 1, field: '', message: `cannot read: ${readProblem(r, max)}`, severity: 'error' });
      continue;
    }
    const text = r.bytes.toString('utf8');
    const res = entryLocations(text, display(path));
    problems.push(...res.problems);
    locations.push(...res.locations);
  }
  return { entries: locations.map((s) => s.entry), locations, problems };
}
