/**
 * The commands over corpus folders: `build-corpus` (validate and compile, used by the build) and
 * `lint` (validate corpus YAML files as the build does).
 */
import { basename, dirname, join, resolve } from 'node:path';
import { crossCheck, entryLocations, parseTopicsFile, type EntryLocation } from '../core/corpus/readCorpus.js';
import { formatProblem, type Problem } from '../core/text/problems.js';
import type { TopicInput } from '../core/corpus/schema.js';
import { terminalSafe } from '../core/text/terminal.js';
import type { LoadedCorpus } from '../host/node/readCorpusFiles.js';
import { bundledCorpus, readCorpusDir, readText, statPath, writeText } from './cliFiles.js';
import { UsageError, type Context } from './options.js';

/** `build-corpus <dir> <out.json>`: validates a corpus folder and writes it compiled; exit 1 on errors. */
export function runBuildCorpus(ctx: Context): number {
  const [dir, outFile, extra] = ctx.args;
  if (!dir || !outFile || extra !== undefined) throw new UsageError('build-corpus needs <dir> <out.json> (see: mlsys-papers build-corpus --help)');
  const loaded = readCorpusDir(dir, 'build-corpus');
  for (const p of loaded.problems) ctx.err(formatProblem(p));
  if (loaded.problems.some((p) => p.severity === 'error')) return 1;
  writeText(outFile, JSON.stringify(loaded.data));
  ctx.out(`corpus: ${loaded.data.entries.length} entries, ${loaded.data.topics.length} root topics → ${terminalSafe(outFile)}`);
  return 0;
}


/** One file named on `lint`'s command line, read and parsed. */
interface Linted {
  /** As given on the command line; problems name it so. */
  file: string;
  abs: string;
  kind: 'missing' | 'topics' | 'entries';
  problems: Problem[];
  locations: EntryLocation[];
  /** For a topics file without errors: its topics. */
  topics?: TopicInput[];
}

/** Stands for the bundled corpus as a problem's "file" inside crossCheck; never printed. */
const BUNDLED = '\u0000bundled corpus';

/** `lint <file...>`: corpus YAML files checked as the build checks them (see the command's description); exit 1 on errors. */
export function runLint(ctx: Context): number {
  if (!ctx.args.length) throw new UsageError('lint needs at least one file (see: mlsys-papers lint --help)');
  const linted: Linted[] = [];
  const seen = new Set<string>();
  // Read everything first: a path that is a folder stops the run before any output.
  for (const file of ctx.args) {
    const abs = resolve(file);
    if (seen.has(abs)) continue;
    seen.add(abs);
    const st = statPath(file);
    if (!st) {
      linted.push({ file, abs, kind: 'missing', locations: [], problems: [{ file, line: 1, column: 1, field: '', message: 'file not found', severity: 'error' }] });
      continue;
    }
    if (st.isDirectory()) throw new UsageError(`lint: ${file} is a folder, not a file (lint its files: ${join(file, '*.yaml')})`);
    const text = readText(file, 'lint');
    const isTopics = /^\s*-\s+id:/m.test(text) && !/^[ \t]*(?:-[ \t]*)?key:/m.test(text);
    if (isTopics) {
      const res = parseTopicsFile(text, file);
      const ok = !res.problems.some((p) => p.severity === 'error');
      linted.push({ file, abs, kind: 'topics', locations: [], problems: res.problems, topics: ok ? res.items : undefined });
    } else {
      const res = entryLocations(text, file);
      linted.push({ file, abs, kind: 'entries', locations: res.locations, problems: res.problems });
    }
  }

  const cross = new Map<string, Problem[]>();
  const entryFiles = linted.filter((l) => l.kind === 'entries');
  if (entryFiles.some((l) => l.locations.length)) {
    const ref = lintReference(ctx.values.corpus, entryFiles.map((l) => l.abs));
    const lintedPaths = new Set(linted.map((l) => l.abs));
    // The linted files replace their own version in the reference corpus (a file is no duplicate of itself).
    const others = ref.locations.filter((s) => s.file === BUNDLED || !lintedPaths.has(resolve(s.file)));
    const namedTopics = linted.flatMap((l) => l.topics ?? []);
    const topics = namedTopics.length ? namedTopics : ref.topics;
    const names = new Set(entryFiles.map((l) => l.file));
    for (const p of crossCheck(topics, [...others, ...entryFiles.flatMap((l) => l.locations)])) {
      if (!names.has(p.file)) continue; // a problem of the reference corpus itself
      if (!topics.length && p.message.startsWith('unknown topic')) continue; // no readable taxonomy to check against
      const message = p.message.split(`${BUNDLED}:1`).join('bundled corpus');
      if (!cross.has(p.file)) cross.set(p.file, []);
      cross.get(p.file)!.push({ ...p, message });
    }
  }

  let errors = 0;
  for (const l of linted) {
    const problems = [...l.problems, ...(cross.get(l.file) ?? []).sort((a, b) => a.line - b.line)];
    for (const p of problems) ctx.err(formatProblem(p));
    errors += problems.filter((p) => p.severity === 'error').length;
  }
  if (!errors) ctx.out(`${linted.length} file(s) OK`);
  return errors ? 1 : 0;
}

/** The corpus that linted entries are checked against: its taxonomy and its entries with where they are. */
interface Reference {
  topics: TopicInput[];
  locations: EntryLocation[];
}

/**
 * Picks and reads the corpus that `lint` checks entries files against: `--corpus DIR`; else the
 * corpus folder the files sit in (`DIR/entries/*.yaml` beside `DIR/topics.yaml`), as the build
 * would compile them; else the bundled compiled corpus.
 *
 * @throws UsageError when a folder cannot be read, or the files sit in two corpus folders
 */
function lintReference(corpusOption: string | undefined, files: readonly string[]): Reference {
  const fromDir = (loaded: LoadedCorpus): Reference => ({ topics: loaded.data.topics, locations: loaded.locations });
  if (corpusOption !== undefined) return fromDir(readCorpusDir(corpusOption, '--corpus'));
  const folders = [...new Set(files.map(corpusFolderOf).filter((d): d is string => !!d))];
  if (folders.length > 1) throw new UsageError(`lint: the files are in ${folders.length} corpus folders (${folders.join(', ')}); lint each folder's files on their own, or pass --corpus DIR`);
  if (folders[0]) return fromDir(readCorpusDir(folders[0], 'lint: corpus folder'));
  const corpus = bundledCorpus();
  const toInput = (id: string): TopicInput => {
    const t = corpus.topic(id)!;
    return { id: t.id, label: t.label, zh: t.zh, children: t.children.map(toInput) };
  };
  return { topics: corpus.roots.map(toInput), locations: corpus.entries.map((entry) => ({ entry, file: BUNDLED, line: 1 })) };
}

/** The corpus folder an entries file belongs to (`DIR` for `DIR/entries/x.yaml` when `DIR/topics.yaml` exists). */
function corpusFolderOf(abs: string): string | undefined {
  const entries = dirname(abs);
  if (basename(entries) !== 'entries') return undefined;
  const root = dirname(entries);
  return statPath(join(root, 'topics.yaml'))?.isFile() ? root : undefined;
}
