/**
 * Reading a file a user or a repository names, on Node, without trusting what the name points at:
 * it must be a regular file (a `refs.bib` that links to `/dev/zero`, `/dev/stdin` or a FIFO is
 * refused before a byte is read) no larger than a cap (`mlsysPapers.maxFileSizeMB`), and it is
 * read through the one descriptor that was checked, so a swap between the check and the read
 * cannot slip a device in. And where a file really is (`realPathOf`), for every "inside the
 * workspace" decision.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { lstat, open, readdir, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { megabytes } from '../../core/config/fileLimits.js';

/**
 * What reading a file found: its bytes, or why there are none. `mtimeMs` and `size` are the
 * checked descriptor's (`fstat`), or the path's `stat` when it was refused before opening.
 */
export type FileRead =
  | { kind: 'file'; bytes: Buffer; mtimeMs: number; size: number }
  | { kind: 'missing' }
  | { kind: 'directory'; mtimeMs: number; size: number }
  /** A device, FIFO, socket: anything but a regular file or a folder. */
  | { kind: 'notFile'; mtimeMs: number; size: number }
  | { kind: 'tooLarge'; mtimeMs: number; size: number }
  /** It exists but cannot be read (permissions, an I/O error): `message` says why. */
  | { kind: 'error'; message: string };

/** Flags that open a FIFO for reading without waiting for a writer (none on Windows, which has no FIFOs of this kind). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Errors that mean nothing is there: the path, or one of its folders, is missing (or a folder is a file). */
function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function errorOf(e: unknown): FileRead {
  return isMissing(e) ? { kind: 'missing' } : { kind: 'error', message: e instanceof Error ? e.message : String(e) };
}

/** The refusal a stat calls for, or undefined for a regular file within the cap. */
function refusal(st: Stats, maxBytes: number): FileRead | undefined {
  if (st.isDirectory()) return { kind: 'directory', mtimeMs: st.mtimeMs, size: st.size };
  if (!st.isFile()) return { kind: 'notFile', mtimeMs: st.mtimeMs, size: st.size };
  if (st.size > maxBytes) return { kind: 'tooLarge', mtimeMs: st.mtimeMs, size: st.size };
  return undefined;
}

/** The size of the first buffer: the file's size and one byte more (which tells that it grew past the cap). */
const firstBuffer = (size: number, maxBytes: number) => Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
/** A buffer grown toward the cap and one byte past it. */
const grown = (buf: Buffer, maxBytes: number) => Buffer.concat([buf, Buffer.allocUnsafe(Math.min(buf.length, maxBytes + 1 - buf.length))]);

/**
 * Reads a file that must be regular and at most `maxBytes` long: `stat` first (following
 * symlinks), then open (non-blocking, so a FIFO swapped in meanwhile does not wait for a writer),
 * `fstat` the descriptor again, and read at most `maxBytes + 1` bytes from it.
 *
 * @param path - the file
 * @param maxBytes - the cap in bytes (`maxFileBytes` of `core/config/fileLimits.ts`)
 * @returns the bytes, or why there are none; never throws
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<FileRead> {
  let handle: FileHandle | undefined;
  const steps = readSteps(maxBytes);
  try {
    let r = steps.next();
    while (!r.done) {
      const s = r.value;
      r = steps.next(s.call === 'read' ? (await handle!.read(s.buf, s.offset, s.length, null)).bytesRead
        : s.call === 'open' ? (handle = await open(path, OPEN_FLAGS)) : await (s.call === 'stat' ? statOrLink(path) : handle!.stat()));
    }
    return r.value;
  } catch (e) {
    return errorOf(e);
  } finally {
    await handle?.close().catch(() => undefined /* ignored: the read's outcome is decided; a failed close leaks nothing we can act on */);
  }
}

/**
 * {@link readRegularFile}, synchronously: for the CLI's one-shot commands, which have nothing else
 * to do meanwhile. The same steps ({@link readSteps}), so the same checks and answers.
 */
export function readRegularFileSync(path: string, maxBytes: number): FileRead {
  let fd: number | undefined;
  const answer = (s: ReadStep): unknown => s.call === 'read' ? readSync(fd!, s.buf, s.offset, s.length, null)
    : s.call === 'open' ? (fd = openSync(path, OPEN_FLAGS)) : s.call === 'stat' ? statOrLinkSync(path) : fstatSync(fd!);
  try {
    return runSteps(readSteps(maxBytes), answer);
  } catch (e) {
    return errorOf(e);
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

/** Runs steps to their end, each answered synchronously by `answer`. */
function runSteps<S, R>(steps: Generator<S, R, unknown>, answer: (s: S) => unknown): R {
  let r = steps.next();
  while (!r.done) r = steps.next(answer(r.value));
  return r.value;
}

/** Closes a descriptor whose read's outcome is decided: a failed close leaks nothing we can act on. */
function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // ignored: see above.
  }
}

/** A file system call that {@link readSteps} asks its driver for, and what the driver answers. */
type ReadStep =
  /** `stat` of the path (symlinks followed) → `Stats`. */
  | { call: 'stat' }
  /** Open the path with {@link OPEN_FLAGS} → a descriptor (the driver keeps it, and closes it at the end). */
  | { call: 'open' }
  /** `fstat` of the open descriptor → `Stats`. */
  | { call: 'fstat' }
  /** Read into `buf` at `offset`, at most `length` bytes → how many were read (0 at the end). */
  | { call: 'read'; buf: Buffer; offset: number; length: number };

/**
 * The checks and reads of {@link readRegularFile} as steps, so that its asynchronous and synchronous
 * drivers share them: stat, refuse early, open, fstat the descriptor, refuse again, read to the end or
 * one byte past the cap. A driver answers each step; a failed call is the driver's to turn into
 * `error` or `missing`.
 */
function* readSteps(maxBytes: number): Generator<ReadStep, FileRead, unknown> {
  const early = refusal((yield { call: 'stat' }) as Stats, maxBytes);
  if (early) return early;
  yield { call: 'open' };
  const st = (yield { call: 'fstat' }) as Stats;
  const refused = refusal(st, maxBytes);
  if (refused) return refused;
  let buf = firstBuffer(st.size, maxBytes);
  let n = 0;
  for (;;) {
    if (n === buf.length) {
      if (n > maxBytes) return { kind: 'tooLarge', mtimeMs: st.mtimeMs, size: n };
      buf = grown(buf, maxBytes);
    }
    const bytesRead = (yield { call: 'read', buf, offset: n, length: buf.length - n }) as number;
    if (!bytesRead) break;
    n += bytesRead;
  }
  return { kind: 'file', bytes: buf.subarray(0, n), mtimeMs: st.mtimeMs, size: n };
}

/**
 * Why a read gave no text, in a few English words for the CLI and the logs (`not a regular file`,
 * `larger than 200 MB`); undefined for a file that was read.
 */
export function readProblem(r: FileRead, maxBytes: number): string | undefined {
  switch (r.kind) {
    case 'file': return undefined;
    case 'missing': return 'no such file';
    case 'directory': return 'is a folder, not a file';
    case 'notFile': return 'not a regular file';
    case 'tooLarge': return `larger than ${megabytes(maxBytes)} MB (${megabytes(r.size)} MB)`;
    case 'error': return `cannot be read: ${r.message}`;
  }
}

/**
 * `stat` of a path (symlinks followed); for a symlink that leads to nothing, the link's own `lstat`
 * (not a regular file: `/dev/stdin` in a process whose standard input is closed leads to a
 * `/proc/self/fd/0` that does not exist). Such a name is taken, not missing: nothing is created
 * through it, and it is named as "not a regular file".
 *
 * @throws what `stat` throws, when nothing at all is at the path
 */
async function statOrLink(path: string): Promise<Stats> {
  try {
    return await stat(path);
  } catch (e) {
    if (!isMissing(e)) throw e;
    const own = await lstat(path).catch(() => undefined /* ignored: nothing there, the stat's error says so */);
    if (own?.isSymbolicLink()) return own;
    throw e;
  }
}

/** {@link statOrLink}, synchronously (the CLI's reader). */
function statOrLinkSync(path: string): Stats {
  try {
    return statSync(path);
  } catch (e) {
    if (!isMissing(e)) throw e;
    const own = lstatSync(path, { throwIfNoEntry: false });
    if (own?.isSymbolicLink()) return own;
    throw e;
  }
}

/**
 * A path's `stat` (following symlinks; a link that leads to nothing: its own, see
 * {@link statOrLink}), for stamps and "is anything there": undefined when nothing is there, or
 * when it cannot be examined (a folder on the way not searchable).
 */
export async function statIfAny(path: string): Promise<Stats | undefined> {
  try {
    return await statOrLink(path);
  } catch {
    // ignored: a path that cannot be examined cannot be read either; reading it reports the cause.
    return undefined;
  }
}

/** How many symlinks a path may pass through before it counts as a loop (Linux's `MAXSYMLINKS`). */
const MAX_LINKS = 40;

/**
 * Where a path really is: `fs.promises.realpath` (symlinks resolved; on Windows and macOS in the
 * case the file system stores). For a path that does not exist yet, the real path of its nearest
 * existing folder plus the rest; a dangling symlink on the way is followed to where writing
 * through it would land.
 *
 * @param path - absolute, or relative to the working directory
 * @returns the real path, or undefined when it cannot be resolved (a symlink loop, a folder that
 *   cannot be searched): callers count that as outside every folder
 */
export async function realPathOf(path: string): Promise<string | undefined> {
  let p = resolve(path);
  const rest: string[] = [];
  for (let links = 0; ;) {
    try {
      const real = await realpath(p);
      return rest.length ? join(real, ...[...rest].reverse()) : real;
    } catch (e) {
      if (!isMissing(e)) return undefined;
    }
    // `p` is missing, or a symlink to something missing: a write would follow the link.
    let link: string | undefined;
    try {
      if ((await lstat(p)).isSymbolicLink()) link = await readlink(p);
    } catch (e) {
      if (!isMissing(e)) return undefined;
    }
    if (link !== undefined) {
      if (++links > MAX_LINKS) return undefined;
      p = isAbsolute(link) ? link : resolve(dirname(p), link);
      continue;
    }
    const parent = dirname(p);
    if (parent === p) return rest.length ? join(p, ...[...rest].reverse()) : p;
    rest.push(basename(p));
    p = parent;
  }
}

/** Whether this platform's file systems ignore case by default (NTFS, APFS): real paths are compared case-folded. */
export const FOLDS_CASE = process.platform === 'win32' || process.platform === 'darwin';

/**
 * The names of the files in a folder (regular files and links; not subfolders), for the core's
 * `WorkspaceFiles.listFolder`: what is named here is read later as any file is, a regular file only.
 *
 * @returns undefined when the folder cannot be read (missing, not a folder, no permission)
 */
export async function listFolderNames(path: string): Promise<string[] | undefined> {
  try {
    return (await readdir(path, { withFileTypes: true })).filter((d) => d.isFile() || d.isSymbolicLink()).map((d) => d.name);
  } catch {
    // ignored: a folder that cannot be listed holds nothing to look at; the caller names no file from it.
    return undefined;
  }
}
