/**
 * The cache of loaded libraries on disk: one file per cache key (the text's hash, length and
 * format, and the cache version: `libraryCacheKey`), in the extension's global storage
 * (`ExtensionContext.globalStorageUri`, passed as `initializationOptions.cacheDir`) or, for the CLI
 * and other editors, `$XDG_CACHE_HOME/mlsys-papers` (default `~/.cache/mlsys-papers`, the XDG Base
 * Directory Specification's default).
 *
 * The folder may be shared with anything (a user may link it to a folder of notes), so the cache
 * touches only names it writes ({@link CACHE_FILE}, {@link TEMP_FILE}, and the names earlier
 * versions wrote), only regular files, and never through a symbolic link. Files are written whole
 * (to a new temporary name, piece by piece as the pieces come, then renamed; the temporary file is
 * removed on every failure), sealed with the SHA-256 of their content (a file damaged on disk is
 * ignored, then written again), and only the newest {@link CACHE_KEEP} are kept.
 */
import { constants } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { LibraryCache } from '../../server/libraryStore.js';

/** Cached libraries kept; older ones are removed when a new one is written. */
export const CACHE_KEEP = 8;

/** A cache file's name: `library-` and the SHA-256 of its key, in hex. */
export const CACHE_FILE = /^library-[0-9a-f]{64}\.mlsys-cache$/;
/** A cache file being written: its name, the writer's process id and 16 random hex digits. */
export const TEMP_FILE = /^library-[0-9a-f]{64}\.mlsys-cache\.[0-9]{1,10}-[0-9a-f]{16}\.tmp$/;
/** What versions 1 and 2 of the cache wrote (the text's SHA-256, the version): removed when pruning. */
const OLD_FILE = /^[0-9a-f]{64}-v[12]\.json$/;
/** A temporary file this old was left by a process that died while writing it. */
const STALE_TEMP_MS = 24 * 3600_000;
/** Cache files larger than this are not read (no text that long fits in a JavaScript string). */
const MAX_BYTES = 512 * 1024 * 1024;

/** `$XDG_CACHE_HOME/mlsys-papers`, else `~/.cache/mlsys-papers`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith('/') ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'mlsys-papers');
}

/** SHA-256 of a text (its UTF-8 bytes), as hex. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The file name of a cache key (see {@link CACHE_FILE}). */
export function cacheFileName(key: string): string {
  return `library-${sha256(key)}.mlsys-cache`;
}

/** What follows a cache file's content: a line break, this, the content's SHA-256 in hex, a line break. */
const SEAL = 'mlsys-papers-cache sha256 ';
const SEAL_BYTES = 1 + SEAL.length + 64 + 1;
const sealOf = (digest: string) => `\n${SEAL}${digest}\n`;

/** A cache file's bytes: the content (UTF-8) and its seal (see {@link openSealed}). */
export function sealCache(content: string): Buffer {
  return Buffer.from(content + sealOf(sha256(content)), 'utf8');
}

/**
 * The content of a cache file's bytes, or why there is none: no seal at the end, or the content
 * is not the one sealed (damaged on disk, cut short, spliced).
 */
export function openSealed(bytes: Uint8Array): { text: string } | { miss: string } {
  const sealed = splitSeal(bytes);
  if ('miss' in sealed) return sealed;
  return checked(sealed.content, createHash('sha256').update(sealed.content).digest('hex'), sealed.digest);
}

/** {@link openSealed}, hashing a few megabytes at a time between other work (a cache file can be tens of megabytes). */
async function openSealedSliced(bytes: Uint8Array): Promise<{ text: string } | { miss: string }> {
  const sealed = splitSeal(bytes);
  if ('miss' in sealed) return sealed;
  const hash = createHash('sha256');
  for (let at = 0; at < sealed.content.length; at += HASH_SLICE) {
    hash.update(sealed.content.subarray(at, at + HASH_SLICE));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return checked(sealed.content, hash.digest('hex'), sealed.digest);
}

/** Bytes hashed between two turns of other work. */
const HASH_SLICE = 8 * 1024 * 1024;

function splitSeal(bytes: Uint8Array): { content: Buffer; digest: string } | { miss: string } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < SEAL_BYTES) return { miss: 'cut short' };
  const seal = /^\nmlsys-papers-cache sha256 ([0-9a-f]{64})\n$/.exec(buf.subarray(buf.length - SEAL_BYTES).toString('latin1'));
  if (!seal) return { miss: 'not sealed (cut short, or not a cache file)' };
  return { content: buf.subarray(0, buf.length - SEAL_BYTES), digest: seal[1]! };
}

function checked(content: Buffer, digest: string, sealed: string): { text: string } | { miss: string } {
  return digest === sealed ? { text: content.toString('utf8') } : { miss: 'damaged (its content is not the one sealed)' };
}

/**
 * A {@link LibraryCache} in a folder.
 *
 * @param dir - the folder (created on the first write)
 * @param warn - where a failure to read or write is reported, once per failure (a damaged file is
 *   then a miss, and is written again after the library is read)
 */
export function nodeLibraryCache(dir: string, warn: (message: string) => void = () => undefined): LibraryCache {
  return {
    async get(key) {
      const file = join(dir, cacheFileName(key));
      let handle: FileHandle | undefined;
      try {
        // Not through a symbolic link, and not blocking on a FIFO: then only a regular file is read.
        handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
        const st = await handle.stat();
        if (!st.isFile()) { warn(`library cache: ${file} is not a regular file; not read`); return undefined; }
        if (st.size > MAX_BYTES) { warn(`library cache: ${file} is larger than ${MAX_BYTES / 2 ** 20} MB; not read`); return undefined; }
        const r = await openSealedSliced(await handle.readFile());
        if ('miss' in r) { warn(`library cache: ${file} is ${r.miss}; the library is read again`); return undefined; }
        return r.text;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ELOOP') warn(`library cache: ${file} is a symbolic link; not read`);
        else if (code !== 'ENOENT') warn(`library cache: cannot read ${file}: ${(e as Error).message}`);
        return undefined;
      } finally {
        await handle?.close().catch((e: unknown) => warn(`library cache: cannot close ${file}: ${String(e)}`));
      }
    },
    async set(key, value) {
      await mkdir(dir, { recursive: true });
      const target = join(dir, cacheFileName(key));
      const temp = `${target}.${process.pid}-${randomBytes(8).toString('hex')}.tmp`;
      // `wx`: a new file, never one that is there (nor what a link there points to).
      const handle = await open(temp, 'wx');
      let closed = false;
      try {
        const hash = createHash('sha256');
        const write = async (piece: string) => { hash.update(piece, 'utf8'); await handle.writeFile(piece, 'utf8'); };
        if (typeof value === 'string') await write(value);
        else for await (const piece of value) await write(piece);
        await handle.writeFile(sealOf(hash.digest('hex')), 'utf8');
        closed = true;
        await handle.close();
        await rename(temp, target);
      } catch (e) {
        if (!closed) {
          await handle.close().catch((c: unknown) => warn(`library cache: cannot close ${temp}: ${String(c)}`));
        }
        await unlink(temp).catch((u: unknown) => {
          if ((u as NodeJS.ErrnoException).code !== 'ENOENT') warn(`library cache: cannot remove ${temp}: ${String(u)}`);
        });
        throw e;
      }
      await prune(dir, warn);
    },
  };
}

/**
 * Keeps the newest {@link CACHE_KEEP} cache files of a folder; removes older ones, the files of
 * earlier versions, and temporary files left by a process that died. Only regular files with
 * those names are touched (a link is never followed nor removed); what cannot be removed is
 * reported, not thrown (the value was saved).
 */
async function prune(dir: string, warn: (message: string) => void): Promise<void> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => CACHE_FILE.test(n) || OLD_FILE.test(n) || TEMP_FILE.test(n));
  } catch (e) {
    warn(`library cache: cannot list ${dir}: ${(e as Error).message}`);
    return;
  }
  const now = Date.now();
  const files: { n: string; t: number }[] = [];
  const doomed: string[] = [];
  for (const n of names) {
    try {
      const st = await lstat(join(dir, n));
      if (!st.isFile()) continue;
      if (CACHE_FILE.test(n)) files.push({ n, t: st.mtimeMs });
      else if (OLD_FILE.test(n) || now - st.mtimeMs > STALE_TEMP_MS) doomed.push(n);
    } catch (e) {
      // A file removed meanwhile (another window pruning too) needs no pruning.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') warn(`library cache: cannot read ${join(dir, n)}: ${(e as Error).message}`);
    }
  }
  files.sort((a, b) => b.t - a.t);
  doomed.push(...files.slice(CACHE_KEEP).map(({ n }) => n));
  for (const n of doomed) {
    // `unlink` removes a link itself, never what it points to, and refuses a folder.
    await unlink(join(dir, n)).catch((e: unknown) => {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') warn(`library cache: cannot remove ${join(dir, n)}: ${String(e)}`);
    });
  }
}
