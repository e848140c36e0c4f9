/**
 * The library cache on disk (`host/node/libraryCache.ts`): a value written whole or in pieces as
 * they come, nothing left behind when the pieces fail, and only the newest few files kept.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CACHE_KEEP, nodeLibraryCache } from '../../src/host/node/libraryCache.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
const folder = async () => {
  const d = await mkdtemp(join(tmpdir(), 'mlsys-cache-test-'));
  dirs.push(d);
  return d;
};

describe('nodeLibraryCache', () => {
  it('stores a value whole or in pieces, and reads it back joined', async () => {
    const dir = await folder();
    const cache = nodeLibraryCache(dir);
    await cache.set('whole', '{"a":1}');
    async function* pieces() { yield '{"b":'; yield '"中文"'; yield '}'; }
    await cache.set('pieces', pieces());
    expect(await cache.get('whole')).toBe('{"a":1}');
    expect(await cache.get('pieces')).toBe('{"b":"中文"}');
    expect(await cache.get('absent')).toBeUndefined();
  });

  it('pieces that fail save nothing, and the failure is the caller\'s', async () => {
    const dir = await folder();
    const cache = nodeLibraryCache(dir);
    const stop = new Error('the library changed');
    async function* failing() { yield '{"half":'; throw stop; }
    await expect(cache.set('k', failing())).rejects.toBe(stop);
    expect(await readdir(dir)).toEqual([]);
    expect(await cache.get('k')).toBeUndefined();
  });

  it(`keeps the newest ${CACHE_KEEP} files`, async () => {
    const dir = await folder();
    const cache = nodeLibraryCache(dir);
    for (let i = 0; i < CACHE_KEEP + 3; i++) await cache.set(`k${i}`, String(i));
    expect((await readdir(dir)).length).toBe(CACHE_KEEP);
  });
});
