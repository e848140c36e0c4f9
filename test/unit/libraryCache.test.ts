/**
 * The library cache (`host/node/libraryCache.ts` on disk, `core/library/libraryCacheFormat.ts`'s format and
 * restore, their use by the language server's store and the CLI): a value written whole or in
 * pieces as they come, nothing left behind when anything fails, only its own files pruned, and a
 * cache that is damaged, of another text or of another format never trusted (issue 20, findings
 * 1, 6 and 7; each with its minimal input in `fixtures/library-cache/`).
 */
import { copyFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { URI } from 'vscode-uri';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/core/config/logger.js';
import { fromBase64, toBase64 } from '../../src/core/text/base64.js';
import { LIBRARY_CACHE_VERSION, libraryCacheKey, libraryToJson, LibraryRestorer, restoreLibrary } from '../../src/core/library/libraryCacheFormat.js';
import { loadLibrary, type LoadedLibrary } from '../../src/core/library/loadLibrary.js';
import { CACHE_KEEP, cacheFileName, nodeLibraryCache, openSealed, sealCache, sha256 } from '../../src/host/node/libraryCache.js';
import { loadLibraryFiles } from '../../src/host/node/libraries.js';
import { LibraryStore, type LibraryCache } from '../../src/server/libraryStore.js';

const FIX = join(__dirname, 'fixtures/library-cache');

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
const REF = { uri: 'file:///ws/refs.bib', name: 'refs.bib' };
const folder = async () => {
  const d = await mkdtemp(join(tmpdir(), 'mlsys-cache-test-'));
  dirs.push(d);
  return d;
};


/**
 * A cache in memory, as the store writes it (a string, or pieces in slices joined here), and
 * `saves(n)`: settles once `n` values have been written whole (the store saves after a load, in
 * slices of its own: waited for, not polled).
 */
function memoryCache(): { saved: Map<string, string>; cache: LibraryCache; saves: (n: number) => Promise<void> } {
  const saved = new Map<string, string>();
  let written = 0;
  const waiting: { n: number; resolve: () => void }[] = [];
  return {
    saved,
    cache: {
      get: async (k) => saved.get(k),
      set: async (k, v) => {
        let all = '';
        if (typeof v === 'string') all = v; else for await (const piece of v) all += piece;
        saved.set(k, all);
        written++;
        for (const w of waiting.filter((x) => x.n <= written)) { waiting.splice(waiting.indexOf(w), 1); w.resolve(); }
      },
    },
    saves: (n) => (written >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, resolve }))),
  };
}
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

/** What a library is, whatever file it came from (the cache's own JSON, without the file's path). */
const same = (lib: LoadedLibrary) => libraryToJson(lib);

/** The CLI's loader, and what it warned. */
async function cli(path: string, cacheDir: string) {
  const warnings: string[] = [];
  const r = await loadLibraryFiles([path], { cacheDir, warn: (m) => warnings.push(m) });
  return { lib: r.libraries[0]!.lib, cached: r.libraries[0]!.cached, problems: r.problems, warnings };
}

describe('finding 1: a damaged cache is a miss, reported once, then written again', () => {
  it('the CLI: an entry\'s "year" key renamed in the cache file', async () => {
    const dir = await folder();
    const bib = join(dir, 'refs.bib');
    copyFileSync(join(FIX, 'title-key-renamed.bib'), bib);
    const cacheDir = join(dir, 'cache');
    const cold = await cli(bib, cacheDir);
    expect(cold.cached).toBe(false);
    const [name] = await readdir(cacheDir);
    const file = join(cacheDir, name!);
    const bytes = readFileSync(file);
    const at = bytes.indexOf('"year":');
    expect(at).toBeGreaterThan(0);
    bytes.write('"yeaz":', at);
    writeFileSync(file, bytes);
    const damaged = await cli(bib, cacheDir);
    expect(damaged.cached).toBe(false);
    expect(same(damaged.lib)).toBe(same(cold.lib));
    expect(damaged.warnings).toHaveLength(1);
    expect(damaged.warnings[0]).toMatch(/damaged.*read again|not used/);
    // Written again: the next run reads the cache, and says nothing.
    const again = await cli(bib, cacheDir);
    expect(again).toMatchObject({ cached: true, warnings: [] });
    expect(same(again.lib)).toBe(same(cold.lib));
  });

  it('the same damage sealed again (as a build of ours could write it) fails the check of the entries', () => {
    const text = readFileSync(join(FIX, 'title-key-renamed.bib'), 'utf8');
    const id = { hash: sha256(text), length: text.length, format: 'bibtex' as const };
    const json = libraryToJson(loadLibrary(text, 'bibtex', REF), id).replace('"year":', '"yeaz":');
    const opened = openSealed(sealCache(json));
    expect(opened).toEqual({ text: json });
    expect(restoreLibrary(json, REF, id)).toEqual({ miss: "damaged (an entry's yeaz)" });
  });

  it('the language server: the store reads the file, logs once, and writes the cache again', async () => {
    const text = readFileSync(join(FIX, 'title-key-renamed.bib'), 'utf8');
    const { saved, cache, saves } = memoryCache();
    const first = await storeLoad(text, cache);
    expect(first.cached).toBe(false);
    await saves(1);
    expect(saved.size).toBe(1);
    const [key] = [...saved.keys()];
    saved.set(key!, saved.get(key!)!.replace('"year":', '"yeaz":'));
    const second = await storeLoad(text, cache);
    expect(second.cached).toBe(false);
    expect(second).toMatchObject({ state: 'ready', title: 'The Mystery of the Missing Title' });
    expect(second.log.filter((l) => l.includes('cached copy'))).toEqual([
      "info: library refs.bib: the cached copy is not used (damaged (an entry's yeaz)); reading the file",
    ]);
    await saves(2);
    expect(saved.get(key!)!.includes('"yeaz":')).toBe(false);
    const third = await storeLoad(text, cache);
    expect(third.cached).toBe(true);
    expect(third.log.filter((l) => l.includes('cached copy'))).toEqual([]);
  });
});

describe('finding 7: the cache is of a text, its length and its format', () => {
  it('a BibTeX file once cached as refs.json, then renamed refs.bib, is read as BibTeX', async () => {
    const dir = await folder();
    const cacheDir = join(dir, 'cache');
    const json = join(dir, 'refs.json');
    copyFileSync(join(FIX, 'bibtex-once-cached-as-json.bib'), json);
    const asJson = await cli(json, cacheDir);
    expect(asJson.lib.entries).toHaveLength(0);
    expect(asJson.problems.length).toBeGreaterThan(0);
    renameSync(json, join(dir, 'refs.bib'));
    const asBib = await cli(join(dir, 'refs.bib'), cacheDir);
    expect(asBib.cached).toBe(false);
    expect(asBib.lib.file.format).toBe('bibtex');
    expect(asBib.lib.entries.map((e) => e.key)).toEqual(['renamed2024']);
    expect(asBib.problems).toEqual([]);
  });

  it("another library's cache file under this one's name is not used", async () => {
    const dir = await folder();
    const cacheDir = join(dir, 'cache');
    const a = join(dir, 'a.bib');
    const b = join(dir, 'b.bib');
    copyFileSync(join(FIX, 'bibtex-once-cached-as-json.bib'), a);
    copyFileSync(join(FIX, 'another-library.bib'), b);
    await cli(a, cacheDir);
    const [fileA] = await readdir(cacheDir);
    const coldB = await cli(b, cacheDir);
    const fileB = (await readdir(cacheDir)).find((n) => n !== fileA)!;
    copyFileSync(join(cacheDir, fileA!), join(cacheDir, fileB));
    const r = await cli(b, cacheDir);
    expect(r.cached).toBe(false);
    expect(r.lib.entries.map((e) => e.key)).toEqual(['other2020']);
    expect(same(r.lib)).toBe(same(coldB.lib));
    expect(r.warnings).toEqual([`library cache: the cached copy of ${b} is not used (saved for another text); reading the file`]);
  });

  it('restore checks the hash, the length and the format it is asked for, and the version', () => {
    const text = readFileSync(join(FIX, 'another-library.bib'), 'utf8');
    const id = { hash: sha256(text), length: text.length, format: 'bibtex' as const };
    const json = libraryToJson(loadLibrary(text, 'bibtex', REF), id);
    expect('lib' in restoreLibrary(json, REF, id)).toBe(true);
    expect(restoreLibrary(json, REF, { ...id, hash: sha256('x') })).toEqual({ miss: 'saved for another text' });
    expect(restoreLibrary(json, REF, { ...id, length: id.length + 1 })).toEqual({ miss: 'saved for another text' });
    expect(restoreLibrary(json, REF, { ...id, format: 'csl-json' })).toEqual({ miss: 'saved for this text read as bibtex, not csl-json' });
    const v = LIBRARY_CACHE_VERSION;
    expect(restoreLibrary(json.replace(`{"version":${v},`, `{"version":${v - 1},`), REF, id)).toEqual({ miss: `of another version (${v - 1}; this one reads ${v})` });
    expect(libraryCacheKey(id)).toBe(`${id.hash}-${id.length}-bibtex-v${LIBRARY_CACHE_VERSION}`);
    expect(libraryCacheKey({ ...id, format: 'csl-json' })).not.toBe(libraryCacheKey(id));
  });
});

describe('finding 6: pruning touches only the cache\'s own files, and no temporary file stays', () => {
  it('a cache folder linked to a folder of notes: not one note is deleted', async () => {
    const dir = await folder();
    const notes = join(dir, 'notes');
    await mkdir(notes);
    const mine = ['todo.json', 'ideas.json', 'a.json', 'b.json', 'c.json', 'readme.md', 'x.tmp', `${'0'.repeat(64)}.json`];
    const old = new Date(Date.now() - 10 * 24 * 3600_000);
    for (const n of mine) {
      await writeFile(join(notes, n), `my note ${n}`);
      await utimes(join(notes, n), old, old);
    }
    const link = join(dir, 'cache');
    await symlink(notes, link);
    const cache = nodeLibraryCache(link);
    for (let i = 0; i < CACHE_KEEP + 3; i++) await cache.set(`k${i}`, String(i));
    for (const n of mine) expect(await readFile(join(notes, n), 'utf8')).toBe(`my note ${n}`);
    const ours = (await readdir(notes)).filter((n) => !mine.includes(n));
    expect(ours).toHaveLength(CACHE_KEEP);
    expect(ours.every((n) => /^library-[0-9a-f]{64}\.mlsys-cache$/.test(n))).toBe(true);
  });

  it('a link named as a cache file is neither read nor followed: the file it points to stays as it is', async () => {
    const dir = await folder();
    const user = join(dir, 'thesis.tex');
    await writeFile(user, 'my thesis');
    const cacheDir = join(dir, 'cache');
    await mkdir(cacheDir);
    await symlink(user, join(cacheDir, cacheFileName('k')));
    const warnings: string[] = [];
    const cache = nodeLibraryCache(cacheDir, (m) => warnings.push(m));
    expect(await cache.get('k')).toBeUndefined();
    expect(warnings).toEqual([`library cache: ${join(cacheDir, cacheFileName('k'))} is a symbolic link; not read`]);
    // Writing replaces the link, not what it points to; pruning never removes it either.
    await cache.set('k', 'value');
    expect(await readFile(user, 'utf8')).toBe('my thesis');
    expect((await lstat(join(cacheDir, cacheFileName('k')))).isFile()).toBe(true);
    expect(await cache.get('k')).toBe('value');
  });

  it('a rename that fails leaves no temporary file', async () => {
    const dir = await folder();
    // A folder (not empty) where the file goes: the rename fails.
    await mkdir(join(dir, cacheFileName('k'), 'inside'), { recursive: true });
    const cache = nodeLibraryCache(dir);
    await expect(cache.set('k', 'x'.repeat(100_000))).rejects.toThrow();
    expect(await readdir(dir)).toEqual([cacheFileName('k')]);
  });

  it('temporary files a dead process left (a day old) go, and so do the files of earlier versions; a user\'s alike-named files stay', async () => {
    const dir = await folder();
    const old = new Date(Date.now() - 2 * 24 * 3600_000);
    const stale = `${cacheFileName('a')}.123-0123456789abcdef.tmp`;
    const fresh = `${cacheFileName('b')}.124-0123456789abcdef.tmp`;
    const v2 = `${'a'.repeat(64)}-v2.json`;
    const user = ['notes.tmp', `${cacheFileName('c')}.tmp`, `${'a'.repeat(64)}-v3.json`, `${'a'.repeat(63)}-v2.json`];
    for (const n of [stale, fresh, v2, ...user]) {
      await writeFile(join(dir, n), 'x');
      await utimes(join(dir, n), old, old);
    }
    await utimes(join(dir, fresh), new Date(), new Date());
    await nodeLibraryCache(dir).set('k', 'v');
    expect((await readdir(dir)).sort()).toEqual([fresh, ...user, cacheFileName('k')].sort());
  });

  it('a file damaged on disk, cut short, or that is no cache file is a miss, reported', async () => {
    const dir = await folder();
    const warnings: string[] = [];
    const cache = nodeLibraryCache(dir, (m) => warnings.push(m));
    await cache.set('k', '{"a":1}');
    const file = join(dir, cacheFileName('k'));
    expect(readFileSync(file, 'utf8')).toBe(`{"a":1}\nmlsys-papers-cache sha256 ${sha256('{"a":1}')}\n`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('1', '2'));
    expect(await cache.get('k')).toBeUndefined();
    writeFileSync(file, '{"a":1}');
    expect(await cache.get('k')).toBeUndefined();
    await mkdir(join(dir, cacheFileName('d')));
    expect(await cache.get('d')).toBeUndefined();
    expect(warnings).toEqual([
      `library cache: ${file} is damaged (its content is not the one sealed); the library is read again`,
      `library cache: ${file} is cut short; the library is read again`,
      `library cache: ${join(dir, cacheFileName('d'))} is not a regular file; not read`,
    ]);
  });
});

describe('the index is checked as a search reads it', () => {
  it('a field with words in the postings but a length of 0 (its scores would be infinite) is a miss: found by the property test', () => {
    const text = '@article{a,\n  title = {Aa0}\n}\n';
    const id = { hash: sha256(text), length: text.length, format: 'bibtex' as const };
    const json = libraryToJson(loadLibrary(text, 'bibtex', REF), id);
    const m = /"fieldLen":\["([^"]+)"\]/.exec(json)!;
    const lengths = fromBase64(m[1]!);
    expect(lengths[0]).toBeGreaterThan(0);
    lengths.fill(0, 0, 2);
    const damaged = json.replace(m[0], `"fieldLen":["${toBase64(lengths)}"]`);
    expect(restoreLibrary(damaged, REF, id)).toEqual({ miss: 'damaged (index)' });
  });
});

describe('restore in slices (issue 22)', () => {
  it('parses at most one line of 500 entries per slice, restores the index in pieces, to what a restore at once gives', () => {
    const text = Array.from({ length: 1234 }, (_, i) => `@misc{k${i}, title = {Title number ${i}}, author = {Doe, Jo}, year = ${1990 + (i % 30)}}\n`).join('');
    const id = { hash: sha256(text), length: text.length, format: 'bibtex' as const };
    const cold = loadLibrary(text, 'bibtex', REF);
    const json = libraryToJson(cold, id);
    const r = new LibraryRestorer(json, REF, id);
    const done: number[] = [];
    // A deadline that has always passed: one line, or one piece of the index, per step.
    while (!r.step(() => true)) done.push(r.progress.done);
    expect(done.slice(0, 4)).toEqual([0, 500, 1000, 1234]);
    // The index's line, then its pieces: entries (4,096 a piece), word lists, each part of each base64 list, …
    expect(done.length - 4).toBeGreaterThan(10);
    const lib = r.result();
    expect('lib' in lib && same(lib.lib)).toBe(same(cold));
  });
});

describe('the language server restores a cache in slices', () => {
  it('with every slice over its time, it yields after each line and each piece of the index, and ends cached', async () => {
    const text = Array.from({ length: 1234 }, (_, i) => `@misc{k${i}, title = {Title number ${i}}, year = 2001}\n`).join('');
    const { saved, cache, saves } = memoryCache();
    await storeLoad(text, cache);
    await saves(1);
    expect(saved.size).toBe(1);
    const counted = { yields: 0 };
    const r = await storeLoad(text, cache, counted);
    expect(r.cached).toBe(true);
    // A clock that runs 13 ms a call: each slice does one step. Three lines of entries, the head,
    // the index's line and its pieces: each its own slice.
    expect(counted.yields).toBeGreaterThan(4 + 10);
  });
});

/**
 * Loads `text` as `refs.bib` in a fresh language-server store over `cache`, and what it logged.
 * The store's clock is counted, not read: 1 ms a call (13 ms with `counted`, so that every slice
 * does one step), so its slices are the same on any machine.
 */
async function storeLoad(text: string, cache: LibraryCache, counted?: { yields: number }) {
  const log: string[] = [];
  const logger: Logger = { info: (m) => log.push(`info: ${m}`), warn: (m) => log.push(`warn: ${m}`), error: (m) => log.push(`error: ${String(m)}`) };
  const uri = URI.file('/ws/refs.bib');
  let clock = 0;
  let ended!: () => void;
  const loaded = new Promise<void>((resolve) => { ended = resolve; });
  const store: LibraryStore = new LibraryStore(logger, {
    read: async () => ({ text }), hash: sha256, cache,
    yield: () => { if (counted) counted.yields++; return new Promise((r) => setImmediate(r)); },
    now: () => (clock += counted ? 13 : 1),
  }, (files) => { if (files.length && files.every((f) => f.state !== 'loading')) ended(); }, () => undefined);
  store.setFiles(new Map([[uri.toString(), { uri, fromDocument: false }]]));
  await loaded;
  const status = store.status()[0]!;
  return { cached: !!status.cached, state: status.state, title: store.entry('smith2024mystery')?.title, log };
}
