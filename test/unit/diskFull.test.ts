/**
 * A disk that fills up part way through a write (issue 28, hostile item 1), injected: every write
 * through `node:fs` and `node:fs/promises` in this file's process takes at most the bytes left on
 * the "disk", writes them, then fails with `ENOSPC`, as a full disk does. Whatever the CLI and the
 * library cache write then, the file that was there is byte for byte as it was, no temporary file
 * is left beside it, and the CLI says which file it could not write in one line.
 */
import type * as Fs from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { syncBibliography } from '../../src/host/node/addCitedEntries.js';
import { cacheFileName, nodeLibraryCache } from '../../src/host/node/libraryCache.js';
import { realCorpus } from './helpers.js';

/** Bytes the "disk" still takes; Infinity: no limit. */
const disk = vi.hoisted(() => ({ free: Infinity }));

/** An `ENOSPC` error as Node raises it. */
function enospc(syscall: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), { code: 'ENOSPC', errno: -28, syscall });
}

/** How many bytes a write of `data` takes now, and whether it runs out. */
function take(data: unknown, length?: number): { n: number; full: boolean } {
  const size = typeof data === 'string' ? Buffer.byteLength(data) : length ?? (data as Uint8Array).byteLength;
  const n = Math.min(size, disk.free);
  disk.free -= n;
  return { n, full: n < size };
}
const bytesOf = (data: unknown): Buffer => (typeof data === 'string' ? Buffer.from(data) : Buffer.from(data as Uint8Array));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof Fs>();
  const writeSync = ((fd: number, data: unknown, ...rest: unknown[]) => {
    const buf = bytesOf(data).subarray(typeof rest[0] === 'number' && typeof data !== 'string' ? rest[0] : 0);
    const len = typeof rest[1] === 'number' && typeof data !== 'string' ? rest[1] : buf.length;
    const { n, full } = take(buf, len);
    if (n) fs.writeSync(fd, buf, 0, n);
    if (full) throw enospc('write');
    return n;
  }) as typeof fs.writeSync;
  const writeFileSync = ((file: Fs.PathOrFileDescriptor, data: unknown, opts?: Fs.WriteFileOptions) => {
    const fd = typeof file === 'number' ? file : fs.openSync(file, (typeof opts === 'object' && opts?.flag) || 'w');
    try {
      writeSync(fd, bytesOf(data));
    } finally {
      if (typeof file !== 'number') fs.closeSync(fd);
    }
  }) as typeof fs.writeFileSync;
  return { ...fs, default: { ...fs, writeSync, writeFileSync }, writeSync, writeFileSync };
});

vi.mock('node:fs/promises', async (importOriginal) => {
  const fsp = await importOriginal<typeof FsPromises>();
  /** A file handle whose writes take from the disk. */
  const limited = (h: FsPromises.FileHandle): FsPromises.FileHandle => new Proxy(h, {
    get(target, prop) {
      if (prop === 'writeFile' || prop === 'write' || prop === 'appendFile') {
        return async (data: unknown) => {
          const buf = bytesOf(data);
          const { n, full } = take(buf);
          if (n) await target.write(buf, 0, n, null);
          if (full) throw enospc('write');
          return { bytesWritten: n, buffer: buf };
        };
      }
      const v = Reflect.get(target, prop) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const open = (async (...args: Parameters<typeof fsp.open>) => limited(await fsp.open(...args))) as typeof fsp.open;
  const writeFile = (async (path: string, data: unknown, opts?: { flag?: string }) => {
    const h = await open(path, opts?.flag ?? 'w');
    try {
      await h.writeFile(data as string);
    } finally {
      await h.close();
    }
  }) as typeof fsp.writeFile;
  return { ...fsp, default: { ...fsp, open, writeFile }, open, writeFile };
});

let tmp: string;
beforeAll(() => { tmp = mkdtempSync(join(tmpdir(), 'mlsys-diskfull-')); });
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
afterEach(() => { disk.free = Infinity; });

let n = 0;
const fresh = () => {
  const dir = join(tmp, `case${n++}`);
  mkdirSync(dir);
  return dir;
};

describe('a disk that fills up part way through the write', () => {
  const PAPER = '\\cite{kwon2023efficient}\n\\bibliography{refs}\n';
  const BIB = '@misc{theirs,\n  title = {Theirs},\n}\n';
  const CSL = '[\n  {"id": "theirs", "type": "book", "title": "Theirs"}\n]\n';

  for (const free of [0, 1, 100, 400]) {
    it(`sync into a .bib with ${free} bytes free: the file byte for byte as it was, one line naming it`, async () => {
      const ws = fresh();
      writeFileSync(join(ws, 'refs.bib'), BIB);
      disk.free = free;
      const r = await syncBibliography('paper.tex', realCorpus(), { cwd: ws, text: PAPER });
      disk.free = Infinity;
      expect(readFileSync(join(ws, 'refs.bib'), 'utf8')).toBe(BIB);
      expect(r).toEqual({ code: 2, out: [], err: ['refs.bib: cannot be written (no space left on the device); nothing was written'] });
      expect(readdirSync(ws)).toEqual(['refs.bib']);
    });
  }

  it('sync into a CSL-JSON file: it keeps its closing ]', async () => {
    const ws = fresh();
    writeFileSync(join(ws, 'refs.json'), CSL);
    disk.free = 60;
    const r = await syncBibliography('paper.md', realCorpus(), { cwd: ws, text: '---\nbibliography: refs.json\n---\n\n[@kwon2023efficient]\n' });
    disk.free = Infinity;
    expect(readFileSync(join(ws, 'refs.json'), 'utf8')).toBe(CSL);
    expect(r.code).toBe(2);
    expect(readdirSync(ws)).toEqual(['refs.json']);
  });

  it('sync creating a declared file that does not exist: nothing is left behind', async () => {
    const ws = fresh();
    disk.free = 100;
    const r = await syncBibliography('paper.tex', realCorpus(), { cwd: ws, text: PAPER });
    disk.free = Infinity;
    expect(r).toEqual({ code: 2, out: [], err: ['refs.bib: cannot be written (no space left on the device); nothing was written'] });
    expect(readdirSync(ws)).toEqual([]);
  });

  it('build-corpus over an existing output: the old output stays whole', async () => {
    const dir = fresh();
    const out = join(dir, 'corpus.json');
    writeFileSync(out, '{"old": true}');
    disk.free = 1000;
    const err: string[] = [];
    const code = await main(['build-corpus', join(__dirname, '../../corpus'), out], () => undefined, (s) => err.push(s));
    disk.free = Infinity;
    expect(code).toBe(2);
    expect(err).toEqual([`mlsys-papers: cannot write ${out}: no space left on the device`]);
    expect(readFileSync(out, 'utf8')).toBe('{"old": true}');
    expect(readdirSync(dir)).toEqual(['corpus.json']);
  });

  it('the library cache: a write that fails keeps the cached file that was there, and leaves no temporary file', async () => {
    const dir = fresh();
    const warnings: string[] = [];
    const cache = nodeLibraryCache(dir, (m) => warnings.push(m));
    await cache.set('key', 'the first value');
    const before = readFileSync(join(dir, cacheFileName('key')));
    disk.free = 5;
    await expect(cache.set('key', 'a second value, longer than the disk has room for')).rejects.toThrow(/ENOSPC/);
    disk.free = Infinity;
    expect(readFileSync(join(dir, cacheFileName('key')))).toEqual(before);
    expect(await cache.get('key')).toBe('the first value');
    expect(readdirSync(dir)).toEqual([cacheFileName('key')]);
  });
});
