/**
 * Writing a file so that a failure part way leaves what was there byte for byte: the new bytes go
 * to a temporary file beside it, which then takes its place in one `rename` (POSIX `rename(2)`:
 * the name refers to the old file or the new one, never to a mix). A full disk, a file size limit
 * (`ulimit -f`, `EFBIG`), a quota, or a permission refused then costs nothing but the temporary
 * file, which is removed. The file keeps its mode, owner and group; a symbolic link keeps pointing
 * where it did (the file it leads to is replaced, beside itself); a file with other hard links, or
 * whose owner could not be kept, is refused rather than separated from them. The CLI writes every
 * file through here (`sync`'s bibliography, `build-corpus`'s output); the library cache writes its
 * own files the same way (`libraryCache.ts`).
 */
import {
  accessSync, closeSync, constants, fchmodSync, fchownSync, fdatasyncSync, fstatSync, linkSync, lstatSync, openSync, realpathSync,
  renameSync, statSync, unlinkSync, writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/** A write refused before anything was written, for a reason no `errno` names. */
export class WriteRefused extends Error {}

/** An error with the `code` Node gives file system errors. */
function fsError(code: string, syscall: string, path: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}, ${syscall} '${path}'`), { code, syscall, path });
}

/** An error of a call on the temporary file, as one of the file it stands for (its `path`), so that no message names the temporary file. */
function asTarget(e: unknown, path: string): unknown {
  if (e instanceof Error && typeof (e as NodeJS.ErrnoException).path === 'string') (e as NodeJS.ErrnoException).path = path;
  return e;
}

/** A temporary file's name beside `path`: hidden, with the process id and random digits, ending `.tmp`. */
function tempBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Writes `data` to a new temporary file beside `path` (mode 0600 until `mode` is set), flushed to
 * the disk; on any failure the temporary file is removed and the error thrown.
 *
 * @returns the temporary file's path
 */
function writeTemp(path: string, data: string | Uint8Array, keep?: { mode: number; uid: number; gid: number }): string {
  const temp = tempBeside(path);
  let fd: number;
  try {
    // `wx`: a new file, never one that is there, nor what a link there points to.
    fd = openSync(temp, 'wx', keep ? 0o600 : 0o666);
  } catch (e) {
    throw asTarget(e, path);
  }
  let open = true;
  try {
    writeFileSync(fd, data);
    if (keep) {
      fchmodSync(fd, keep.mode & 0o7777);
      const st = fstatSync(fd);
      if (st.uid !== keep.uid || st.gid !== keep.gid) fchownSync(fd, keep.uid, keep.gid);
    }
    fdatasyncSync(fd);
    open = false;
    closeSync(fd);
  } catch (e) {
    if (open) closeQuietly(fd);
    removeQuietly(temp);
    throw asTarget(e, path);
  }
  return temp;
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // ignored: the write has failed already, and that failure is what is reported.
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // ignored: the temporary file is ours and hidden; the failure that led here is what is reported.
  }
}

/**
 * Replaces an existing regular file's content, keeping its mode, owner and group, or changes
 * nothing. A symbolic link is followed to the file it names, which is replaced where it is.
 *
 * @param path - the file (it must exist)
 * @throws the file system's error (`ENOENT`, `EACCES` for a file we may not write, `ENOSPC`,
 *   `EFBIG`, …), or {@link WriteRefused} for a file with other hard links or whose owner cannot be
 *   kept; the file is then as it was
 */
export function replaceFile(path: string, data: string | Uint8Array): void {
  const target = realpathSync(path);
  const st = statSync(target);
  if (st.isDirectory()) throw fsError('EISDIR', 'open', path, 'is a folder');
  if (!st.isFile()) throw fsError('EINVAL', 'open', path, 'not a regular file');
  if (st.nlink > 1) throw new WriteRefused('it has other hard links, which replacing it would leave with the old text');
  // A read-only file stays so, though its folder would let a new file take its name.
  accessSync(target, constants.W_OK);
  let temp: string;
  try {
    temp = writeTemp(target, data, { mode: st.mode, uid: st.uid, gid: st.gid });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EPERM' && (e as NodeJS.ErrnoException).syscall === 'fchown') {
      throw new WriteRefused('its owner or group could not be kept');
    }
    throw e;
  }
  try {
    renameSync(temp, target);
  } catch (e) {
    removeQuietly(temp);
    throw asTarget(e, path);
  }
}

/**
 * Creates a file that must not exist yet, whole or not at all: written beside it, then linked to
 * its name (`link(2)` fails when anything, a dangling symbolic link included, has taken the name
 * since), on a file system without hard links renamed into place after checking that the name is free.
 *
 * @throws the file system's error (`EEXIST` when the name is taken, `ENOENT` when the folder is
 *   missing, `ENOSPC`, …); nothing is left behind
 */
export function createFile(path: string, data: string | Uint8Array): void {
  const temp = writeTemp(path, data);
  try {
    try {
      linkSync(temp, path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw asTarget(e, path);
      if (lstatSync(path, { throwIfNoEntry: false })) throw fsError('EEXIST', 'link', path, 'file already exists');
      renameSync(temp, path);
    }
  } finally {
    removeQuietly(temp);
  }
}

/** {@link replaceFile} when a file is there (a link followed), else {@link createFile}. */
export function writeFileSafely(path: string, data: string | Uint8Array): void {
  if (statSync(path, { throwIfNoEntry: false })) replaceFile(path, data);
  else createFile(path, data);
}

const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a folder',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'over the disk quota',
  EFBIG: 'larger than the file size limit',
  EMFILE: 'too many open files',
  EEXIST: 'a file by that name appeared meanwhile',
  EINVAL: 'not a regular file',
};

/**
 * Why a file system call failed, in a few English words (`permission denied`, `no space left on
 * the device`), for one line naming the file.
 *
 * @returns undefined for an error code without words here, or an error that is no file system's
 */
export function fsReason(e: unknown): string | undefined {
  if (e instanceof WriteRefused) return e.message;
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? FS_REASONS[code] : undefined;
}
