/**
 * The CLI's corpora and files: the bundled or `--corpus` corpus, regular files read within the
 * size cap, outputs written, and every file system failure as one usage-error line naming the path.
 */
import { mkdirSync, statSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildCorpus, type Corpus } from '../core/corpus/readCorpus.js';
import { DEFAULT_MAX_FILE_MB, maxFileBytes } from '../core/config/fileLimits.js';
import { CorpusError, formatProblem } from '../core/text/problems.js';
import { readProblem, readRegularFileSync } from '../host/node/regularFiles.js';
import { fsReason, WriteRefused, writeFileSafely } from '../host/node/safeWrite.js';
import { loadCompiledCorpus, loadCorpusDir, type LoadedCorpus } from '../host/node/readCorpusFiles.js';
import { UsageError, type Values } from './options.js';
import { didYouMean, firstLine, suggest } from './output.js';

/** The corpus a command reads: `--corpus DIR` (a usage error when invalid), else the bundled one. */
export function loadCorpus(values: Values): Corpus {
  const dir = values.corpus;
  if (dir === undefined) return bundledCorpus();
  const loaded = readCorpusDir(dir, '--corpus');
  const errors = loaded.problems.filter((p) => p.severity === 'error');
  if (errors.length) throw new UsageError(`--corpus ${dir}: invalid corpus (${errors.length} error(s)):\n${errors.map(formatProblem).join('\n')}`);
  return buildCorpus(loaded.data);
}

/** The compiled corpus shipped beside the program (`dist/corpus.json`). */
export function bundledCorpus(): Corpus {
  const path = join(__dirname, 'corpus.json');
  try {
    return loadCompiledCorpus(path);
  } catch (e) {
    if (isFsError(e) || e instanceof SyntaxError || e instanceof CorpusError) {
      throw new UsageError(`cannot read the bundled corpus ${path}: ${reason(e, path)} (run npm run build, or pass --corpus DIR)`);
    }
    throw e;
  }
}

/**
 * Checks that a path is a corpus folder (with `topics.yaml` and `entries/`) and reads it.
 *
 * @param label - what names the folder in a message (`--corpus`, `build-corpus`)
 * @returns the loaded corpus with its problems
 * @throws UsageError, one line naming the folder, when it is missing, not a folder, not a corpus, or unreadable
 */
export function readCorpusDir(dir: string, label: string): LoadedCorpus {
  const st = statPath(dir);
  if (!st) throw new UsageError(`${label} ${dir}: no such folder`);
  if (!st.isDirectory()) throw new UsageError(`${label} ${dir}: not a folder`);
  if (!statPath(join(dir, 'topics.yaml'))?.isFile()) throw new UsageError(`${label} ${dir}: not a corpus folder (no topics.yaml)`);
  if (!statPath(join(dir, 'entries'))?.isDirectory()) throw new UsageError(`${label} ${dir}: not a corpus folder (no entries/ folder)`);
  try {
    return loadCorpusDir(resolve(dir));
  } catch (e) {
    if (isFsError(e)) throw new UsageError(`${label} ${dir}: ${reason(e, dir)}`);
    throw e;
  }
}

/**
 * `stat` of a path.
 *
 * @returns the stats, or undefined when nothing is there
 * @throws UsageError when the path cannot be examined (permission, a parent that is a file)
 */
export function statPath(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined; // a parent is a file: nothing is there
    if (isFsError(e)) throw new UsageError(`cannot read ${path}: ${reason(e, path)}`);
    throw e;
  }
}

/**
 * Reads a UTF-8 file that must be a regular file within the size cap (a FIFO, a device or
 * `/dev/stdin` would block or never end); a failure is a one-line usage error naming it.
 */
export function readText(path: string, label: string): string {
  const max = maxFileBytes(DEFAULT_MAX_FILE_MB);
  const r = readRegularFileSync(path, max);
  if (r.kind !== 'file') throw new UsageError(`${label}: cannot read ${path}: ${readProblem(r, max)}`);
  return r.bytes.toString('utf8');
}

/**
 * Writes a file, creating its folder, whole or not at all (`host/node/safeWrite.ts`: a file that
 * was there stays byte for byte as it was when the write fails); a failure is a one-line usage
 * error naming it.
 */
export function writeText(path: string, text: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSafely(path, text);
  } catch (e) {
    if (isFsError(e) || e instanceof WriteRefused) throw new UsageError(`cannot write ${path}: ${reason(e, path, true)}`);
    throw e;
  }
}

function isFsError(e: unknown): e is NodeJS.ErrnoException {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' && typeof (e as NodeJS.ErrnoException).syscall === 'string';
}

/**
 * Why an operation failed, in a few words and one line.
 *
 * @param e - what was thrown
 * @param named - the path the message already names (not repeated), if any
 * @param writing - whether the operation was a write (a missing place then "cannot be created")
 */
function reason(e: unknown, named?: string, writing = false): string {
  if (e instanceof CorpusError) return e.problems.map((p) => p.message).join('; ');
  const at = isFsError(e) && e.path && e.path !== named ? `${e.path}: ` : '';
  if (isFsError(e)) {
    if (e.code === 'ENOTDIR' || (e.code === 'EEXIST' && e.syscall === 'mkdir')) {
      const file = e.path && fileInTheWay(e.path);
      return `${file || 'a parent'} is a file, not a folder`;
    }
    if (e.code === 'ENOENT' && writing) return `${at}the file cannot be created there`;
  }
  const words = fsReason(e);
  return words ? `${at}${words}` : firstLine(e);
}

/** The first ancestor of a path (or the path itself) that is a file, where a folder was needed. */
function fileInTheWay(path: string): string | undefined {
  const chain: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    chain.unshift(p);
    if (dirname(p) === p) break;
  }
  return chain.find((p) => statPath(p)?.isFile());
}

/** The corpus entries under a topic (subtopics included), or all of them; an unknown topic is a usage error with the closest ids. */
export function entriesForTopic(corpus: Corpus, topic: string | undefined) {
  if (topic === undefined) return corpus.entries;
  if (!corpus.topic(topic)) {
    throw new UsageError(`unknown topic "${topic}"${didYouMean(suggest(topic, corpus.topics.map((t) => t.id)))} (see: mlsys-papers topics)`);
  }
  return corpus.entriesUnder(topic);
}
