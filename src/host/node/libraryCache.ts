/**
 * The cache of loaded libraries on disk: one JSON file per library text (named by the SHA-256 of
 * the text and the cache version), in the extension's global storage (`ExtensionContext.globalStorageUri`,
 * passed as `initializationOptions.cacheDir`) or, for the CLI and other editors,
 * `$XDG_CACHE_HOME/mlsys-papers` (default `~/.cache/mlsys-papers`, the XDG Base Directory
 * Specification's default). Files are written whole (to a temporary name, piece by piece as the
 * pieces come, then renamed), and only the newest few are kept.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { LibraryCache } from '../../server/libraryStore.js';

/** Cached libraries kept; older ones are removed when a new one is written. */
export const CACHE_KEEP = 8;

/** `$XDG_CACHE_HOME/mlsys-papers`, else `~/.cache/mlsys-papers`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith('/') ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'mlsys-papers');
}

/** SHA-256 of a text (its UTF-8 bytes), as hex. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * A {@link LibraryCache} in a folder.
 *
 * @param dir - the folder (created on the first write)
 * @param warn - where a failure to read or write is reported (the cache is then skipped)
 */
export function nodeLibraryCache(dir: string, warn: (message: string) => void = () => undefined): LibraryCache {
  const file = (key: string) => join(dir, `${key.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
  return {
    async get(key) {
      try {
        return await readFile(file(key), 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') warn(`library cache: cannot read ${file(key)}: ${(e as Error).message}`);
        return undefined;
      }
    },
    async set(key, value) {
      await mkdir(dir, { recursive: true });
      const target = file(key);
      const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
      const handle = await open(temp, 'w');
      try {
        if (typeof value === 'string') await handle.writeFile(value, 'utf8');
        else for await (const piece of value) await handle.writeFile(piece, 'utf8');
        await handle.close();
      } catch (e) {
        try {
          await handle.close();
        } catch {
          // ignored: the write's own error is the one thrown; the file is removed either way.
        }
        await rm(temp, { force: true });
        throw e;
      }
      await rename(temp, target);
      // Keep the newest few.
      const names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
      if (names.length <= CACHE_KEEP) return;
      const dated = await Promise.all(names.map(async (n) => {
        try {
          return { n, t: (await stat(join(dir, n))).mtimeMs };
        } catch {
          // ignored: a file removed meanwhile (another window pruning too) needs no pruning.
          return { n, t: 0 };
        }
      }));
      dated.sort((a, b) => b.t - a.t);
      await Promise.all(dated.slice(CACHE_KEEP).map(({ n }) => rm(join(dir, n), { force: true })));
    },
  };
}
