/**
 * Property tests of the library cache (`core/library/libraryCacheFormat.ts`'s `libraryJsonPieces` and
 * `LibraryRestorer`, `host/node/libraryCache.ts`'s seal): libraries of every format (BibTeX with
 * `@string` macros and broken entries, CSL-JSON pretty or on one line, CSL-YAML, with items
 * that are no items) are loaded cold, saved as the cache's file bytes, damaged at random, and
 * restored as the language server and the CLI restore them.
 *
 * - **As on disk** (byte flips, truncation, a key renamed, a value of another type, a splice of
 *   another library's cache file, another library's whole file under this name, the file renamed
 *   to another format): restoring never throws, and what the library ends as (the cache's, or a
 *   cold load when the cache is a miss) equals the cold load, field for field and index for index.
 * - **Sealed again** (the same damage to the JSON, then sealed as if a build of ours wrote it):
 *   restoring never throws, and a library it accepts can be used (searched, looked up, its
 *   entries' texts read at their offsets) without an exception.
 * - The undamaged file is always restored, equal to the cold load.
 *
 * `FUZZ_RUNS` cases per property (300 by default), seed 42 (`FUZZ_SEED`); see vitest.fuzz.config.mts.
 */
import fc from 'fast-check';
import YAML from 'yaml';
import { afterAll, describe, it } from 'vitest';
import { displayName } from '../../src/core/cite/names.js';
import { fromBase64, toBase64 } from '../../src/core/text/base64.js';
import { readEntryAt } from '../../src/core/bibliography/readBibtex.js';
import { libraryToJson, restoreLibrary, type LibraryTextId } from '../../src/core/library/libraryCacheFormat.js';
import { loadLibrary, type LibraryFormat, type LoadedLibrary } from '../../src/core/library/loadLibrary.js';
import { entryIdentity, SameWorkIndex } from '../../src/core/corpus/sameWork.js';
import { prepareEntry } from '../../src/core/library/verbatim.js';
import { parseQuery } from '../../src/core/search/queryLanguage.js';
import { openSealed, sealCache, sha256 } from '../../src/host/node/libraryCache.js';
import { call, check, runFuzz, tallies, TEST_TIMEOUT_MS } from './fuzz/harness.js';
import { problemMessage } from '../../src/core/text/problemText.js';

const REF = { uri: 'file:///ws/refs', name: 'refs' };
const FORMATS: LibraryFormat[] = ['bibtex', 'csl-json', 'csl-yaml'];

// ── Libraries ────────────────────────────────────────────────────────────────────────────────

const word = fc.oneof(fc.stringMatching(/^[A-Za-z][a-z0-9]{0,7}$/), fc.constantFrom('é', 'Schrödinger', '中文', '深度学习', 'naïve', 'x"y', 'a\\b', 'C++'));
const words = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((w) => w.join(' '));
interface Item {
  key: string;
  title: string;
  authors: { family: string; given: string }[];
  year?: number;
  venue?: string;
  keywords: string[];
}
const itemArb: fc.Arbitrary<Item> = fc.record({
  key: fc.stringMatching(/^[a-z][a-z0-9]{0,9}$/),
  title: words(1, 6),
  authors: fc.array(fc.record({ family: fc.stringMatching(/^[A-Z][a-z]{1,8}$/), given: fc.stringMatching(/^[A-Z][a-z]{0,6}$/) }), { maxLength: 3 }),
  year: fc.option(fc.integer({ min: 1950, max: 2030 }), { nil: undefined }),
  venue: fc.option(words(1, 3), { nil: undefined }),
  keywords: fc.array(fc.stringMatching(/^[a-z]{2,8}$/), { maxLength: 3 }),
});

/** BibTeX of items: braces escaped out of titles, a macro for one venue, and now and then a broken entry. */
function bibtex(items: Item[], broken: number[], macro: boolean): string {
  const clean = (s: string) => s.replace(/[{}\\"]/g, '');
  const out: string[] = macro ? ['@string{ven = {The Venue of Macros}}', ''] : [];
  items.forEach((it, i) => {
    if (broken.includes(i)) out.push(`@misc{broken${i}, title = {never closed`, '');
    const fields = [`  title = {${clean(it.title)}}`];
    if (it.authors.length) fields.push(`  author = {${it.authors.map((a) => `${a.family}, ${a.given}`).join(' and ')}}`);
    if (it.year !== undefined) fields.push(`  year = ${it.year}`);
    if (it.venue !== undefined) fields.push(macro && i % 2 ? '  journal = ven' : `  journal = {${clean(it.venue)}}`);
    if (it.keywords.length) fields.push(`  keywords = {${it.keywords.join(', ')}}`);
    out.push(`@article{${it.key},\n${fields.join(',\n')}\n}`, '');
  });
  return out.join('\n');
}

/** CSL items of items (and, at `broken`, a value that is no item). */
function csl(items: Item[], broken: number[]): unknown[] {
  const out: unknown[] = [];
  items.forEach((it, i) => {
    if (broken.includes(i)) out.push(i % 2 ? 'not an item' : { title: 'an item without an id' });
    out.push({
      id: it.key, type: 'article-journal', title: it.title,
      ...(it.authors.length ? { author: it.authors } : {}),
      ...(it.year !== undefined ? { issued: { 'date-parts': [[it.year]] } } : {}),
      ...(it.venue !== undefined ? { 'container-title': it.venue } : {}),
      ...(it.keywords.length ? { keyword: it.keywords.join(', ') } : {}),
    });
  });
  return out;
}

interface Library {
  format: LibraryFormat;
  text: string;
}
const libraryArb: fc.Arbitrary<Library> = fc.record({
  format: fc.constantFrom(...FORMATS),
  items: fc.array(itemArb, { maxLength: 12 }),
  broken: fc.array(fc.nat(12), { maxLength: 2 }),
  macro: fc.boolean(),
  oneLine: fc.boolean(),
}).map(({ format, items, broken, macro, oneLine }) => ({
  format,
  text: format === 'bibtex' ? bibtex(items, broken, macro)
    : format === 'csl-json' ? JSON.stringify(csl(items, broken), null, oneLine ? undefined : 2)
    : YAML.stringify({ references: csl(items, broken) }),
}));

const idOf = (lib: Library, format = lib.format): LibraryTextId => ({ hash: sha256(lib.text), length: lib.text.length, format });

// ── Damage ───────────────────────────────────────────────────────────────────────────────────

/** A number in [0, 1), uniform (fast-check's doubles favour 0 and other edges: a position would be the file's start). */
const unit = fc.noBias(fc.integer({ min: 0, max: 999_999 })).map((n) => n / 1_000_000);

/** Damage to a cache file's bytes, given the bytes of another library's cache file. */
type Damage = (bytes: Buffer, other: Buffer) => Buffer;

/** Where JSON object keys are (`"name":` after `{` or `,`: never inside a string, whose quotes are escaped). */
function keyPositions(s: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of s.matchAll(/[{,]"([A-Za-z_-]{1,30})":/g)) out.push([m.index + 2, m.index + 2 + m[1]!.length]);
  return out;
}
/** Where values of a kind are: `:` then a string, a number, `[`, `{`, `true`/`null`. */
function valuePositions(s: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of s.matchAll(/:("(?:[^"\\]|\\.){0,60}"|-?\d{1,12}|true|false|null)(?=[,}\]])/g)) out.push([m.index + 1, m.index + 1 + m[1]!.length]);
  return out;
}
const pick = <T,>(xs: readonly T[], r: number): T | undefined => (xs.length ? xs[Math.floor(r * xs.length) % xs.length] : undefined);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SWAPS = ['0', '-1', '1.5', '"x"', '""', 'null', 'true', '[]', '{}', '[1]', '{"a":1}', '99999999999'];

/** Damage to the JSON (a string: the content, before it is sealed). */
const textDamage: fc.Arbitrary<[string, (s: string, other: string) => string]> = fc.oneof(
  fc.tuple(unit, fc.integer({ min: 1, max: 0xff })).map(([r, x]) => [
    'char flip', (s: string) => {
      const i = Math.floor(r * s.length);
      return s.slice(0, i) + String.fromCharCode((s.charCodeAt(i) ^ x) & 0xff) + s.slice(i + 1);
    },
  ] as [string, (s: string, other: string) => string]),
  unit.map((r) => [
    'truncation', (s: string) => s.slice(0, Math.floor(r * s.length)),
  ] as [string, (s: string, other: string) => string]),
  fc.tuple(unit, fc.constantFrom('_', 'X', '')).map(([r, suffix]) => [
    'key renamed', (s: string) => {
      const at = pick(keyPositions(s), r);
      if (!at) return s;
      // A name no field has (a suffix), or the key cut to one letter less.
      return suffix ? s.slice(0, at[1]) + suffix + s.slice(at[1]) : s.slice(0, at[1] - 1) + s.slice(at[1]);
    },
  ] as [string, (s: string, other: string) => string]),
  fc.tuple(unit, fc.constantFrom(...SWAPS)).map(([r, v]) => [
    'type swap', (s: string) => {
      const at = pick(valuePositions(s), r);
      return at ? s.slice(0, at[0]) + v + s.slice(at[1]) : s;
    },
  ] as [string, (s: string, other: string) => string]),
  fc.tuple(unit, unit,
    unit).map(([a, b, c]) => [
    'splice', (s: string, other: string) => {
      const i = Math.floor(a * s.length);
      const j = Math.floor(b * other.length);
      return s.slice(0, i) + other.slice(j, j + Math.floor(c * (other.length - j))) + s.slice(i + Math.floor(c * (s.length - i)));
    },
  ] as [string, (s: string, other: string) => string]),
  fc.constant(['line joined', (s: string) => s.replace('\n', '')] as [string, (s: string, other: string) => string]),
  // Most often: one value of the JSON, anywhere (a field of an entry, of the head, of the index).
  { weight: 6, arbitrary: fc.tuple(unit, unit,
    fc.constantFrom('swap', 'delete', 'rename', 'duplicate', 'int'), fc.constantFrom(...SWAPS), fc.boolean()).map(([a, b, op, v, shallow]) => [
    `node ${op}`, (s: string) => nodeDamage(s, a, b, op, JSON.parse(v) as unknown, shallow),
  ] as [string, (s: string, other: string) => string]) },
);

/**
 * The cache's JSON with one value anywhere in it (a line picked by `a`, a node of it by `b`)
 * (`shallow`: two levels deep at most: an entry's field, the head's, the index's) replaced by `v`,
 * deleted, its key renamed, or an array's element doubled; the lines written
 * again in the cache's layout (see `libraryJsonPieces`).
 */
function nodeDamage(s: string, a: number, b: number, op: string, v: unknown, shallow: boolean): string {
  const lines = s.split('\n');
  const i = Math.floor(a * lines.length);
  const line = lines[i]!;
  // Each line's JSON, and how to write it back.
  let value: unknown;
  let back: (x: unknown) => string;
  if (i === 0) {
    value = JSON.parse(`${line.slice(0, -',"entries":['.length)}}`);
    back = (x) => `${JSON.stringify(x).slice(0, -1)},"entries":[`;
  } else if (i === lines.length - 1) {
    value = JSON.parse(line.slice('],"index":'.length, -1));
    back = (x) => `],"index":${JSON.stringify(x)}}`;
  } else {
    const comma = line.startsWith(',');
    value = JSON.parse(`[${comma ? line.slice(1) : line}]`);
    back = (x) => `${comma ? ',' : ''}${JSON.stringify(x).slice(1, -1)}`;
  }
  const nodes: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (x: unknown, depth: number) => {
    if (shallow && depth > 2) return;
    if (Array.isArray(x)) x.forEach((y, k) => { nodes.push({ parent: x, key: k }); walk(y, depth + 1); });
    else if (x && typeof x === 'object') for (const [k, y] of Object.entries(x)) { nodes.push({ parent: x as Record<string, unknown>, key: k }); walk(y, depth + 1); }
  };
  walk(value, 1);
  // `int`: four bytes of a base64 list (spans, the index's postings and ids: varint differences) made another number.
  const lists = op === 'int' ? nodes.filter(({ parent, key }) => { const x = (parent as Record<string | number, unknown>)[key]; return typeof x === 'string' && x.length >= 8 && BASE64.test(x); }) : nodes;
  const node = lists[Math.floor(b * lists.length)];
  if (!node) return s;
  const { parent, key } = node;
  if (op === 'int') {
    const p = parent as Record<string | number, string>;
    const bytes = fromBase64(p[key]!);
    if (bytes.length < 4) return s;
    const at = 4 * (Math.floor(a * 7919) % Math.floor(bytes.length / 4));
    new DataView(bytes.buffer).setInt32(at, [-1, 0, 1, 7, 1 << 30, -(1 << 31), 65536, bytes.length / 4, 2 ** 31 - 1][Math.floor(b * 9973) % 9]!, true);
    p[key] = toBase64(bytes);
    lines[i] = back(value);
    return lines.join('\n');
  }
  if (Array.isArray(parent)) {
    const k = key as number;
    if (op === 'delete') parent.splice(k, 1);
    else if (op === 'duplicate') parent.splice(k, 0, structuredClone(parent[k]));
    else parent[k] = v;
  } else {
    const k = key as string;
    if (op === 'delete') delete parent[k];
    else if (op === 'rename') { parent[`${k}_`] = parent[k]; delete parent[k]; }
    else if (op === 'duplicate') parent[`${k}2`] = parent[k];
    else parent[k] = v;
  }
  lines[i] = back(value);
  return lines.join('\n');
}

/** Damage to the file's bytes (after the seal), or none of it but another format or file. */
type Case = { lib: Library; other: Library; damage: { kind: string; bytes?: Damage; text?: (s: string, o: string) => string; format?: LibraryFormat } };
const fileDamage: fc.Arbitrary<Case['damage']> = fc.oneof(
  fc.tuple(unit, fc.integer({ min: 1, max: 0xff })).map(([r, x]) => ({
    kind: 'byte flip', bytes: (b: Buffer) => { const c = Buffer.from(b); c[Math.floor(r * c.length)]! ^= x; return c; },
  })),
  unit.map((r) => ({ kind: 'truncated file', bytes: (b: Buffer) => b.subarray(0, Math.floor(r * b.length)) })),
  fc.constant({ kind: "another library's file", bytes: (_b: Buffer, o: Buffer) => o }),
  unit.map((r) => ({
    kind: "another library's tail", bytes: (b: Buffer, o: Buffer) => Buffer.concat([b.subarray(0, Math.floor(r * b.length)), o.subarray(Math.floor(r * o.length))]),
  })),
  fc.constantFrom(...FORMATS).map((format) => ({ kind: 'renamed to another format', format })),
  textDamage.map(([kind, text]) => ({ kind, text })),
);

// ── Properties ───────────────────────────────────────────────────────────────────────────────

/** A library as the cache would write it (which covers every field and the whole index). */
const asJson = (lib: LoadedLibrary) => libraryToJson(lib);

describe('library cache (property)', () => {
  afterAll(() => {
    for (const t of tallies) console.log(t.summary());
  });

  it('a damaged cache file is restored as the cold load, or is a miss and the file is read: never an exception', () => {
    runFuzz('cache damaged on disk', fc.record({ lib: libraryArb, other: libraryArb, damage: fileDamage }), ({ lib, other, damage }) => {
      const cold = call('loadLibrary', () => loadLibrary(lib.text, lib.format, REF));
      const content = libraryToJson(cold, idOf(lib));
      const otherContent = libraryToJson(loadLibrary(other.text, other.format, REF), idOf(other));
      const file = sealCache(content);
      const otherFile = sealCache(otherContent);
      // The undamaged file comes back as it was.
      const intact = call('openSealed', () => openSealed(file));
      check('the seal holds', 'text' in intact, () => JSON.stringify(intact));
      const whole = call('restoreLibrary', () => restoreLibrary(intact.text, REF, idOf(lib)));
      check('an intact cache is restored', 'lib' in whole, () => JSON.stringify(whole));
      check('an intact cache is the cold load', asJson(whole.lib) === asJson(cold));
      // Damaged: restored as the cold load, or a miss.
      const format = damage.format ?? lib.format;
      let bytes = file;
      if (damage.bytes) bytes = damage.bytes(file, otherFile);
      // The JSON damaged under its seal.
      if (damage.text) bytes = Buffer.concat([Buffer.from(damage.text(content, otherContent), 'utf8'), file.subarray(Buffer.byteLength(content))]);
      const opened = call('openSealed', () => openSealed(bytes));
      const r = 'text' in opened ? call('restoreLibrary', () => restoreLibrary(opened.text, REF, idOf(lib, format))) : opened;
      const expected = format === lib.format ? cold : loadLibrary(lib.text, format, REF);
      const got = 'lib' in r ? r.lib : loadLibrary(lib.text, format, REF);
      check('cached = cold', asJson(got) === asJson(expected), () => `${damage.kind}: ${'lib' in r ? 'restored' : r.miss}`);
      check('entries are of this file', got.entries.every((e) => e.library!.uri === REF.uri && e.library!.name === REF.name));
    });
  }, TEST_TIMEOUT_MS);

  it('a damaged cache sealed again (as a defect of ours would write it) is a miss, or a library that can be used: never an exception', () => {
    runFuzz('cache damaged then sealed', fc.record({ lib: libraryArb, other: libraryArb, damage: textDamage }), ({ lib, other, damage: [kind, damage] }) => {
      const cold = loadLibrary(lib.text, lib.format, REF);
      const json = damage(libraryToJson(cold, idOf(lib)), libraryToJson(loadLibrary(other.text, other.format, REF), idOf(other)));
      const opened = openSealed(sealCache(json));
      check('the seal holds', 'text' in opened);
      const r = call('restoreLibrary', () => restoreLibrary(opened.text, REF, idOf(lib)));
      if ('miss' in r) {
        // One line of printable ASCII: it goes to a log or a terminal, and the file may hold anything.
        check('a miss says why, printably', /^[\x20-\x7e]+$/.test(r.miss), () => `${kind}: ${JSON.stringify(r.miss)}`);
        return;
      }
      const got = r.lib;
      call('use the restored library', () => {
        for (const e of got.entries) {
          void e.title.slice(0, 10);
          void e.key.toLowerCase();
          void e.authors.map(displayName);
          void e.library!.keywords.join(' ');
          void e.library!.groups.length;
          if (e.library!.csl) void Object.keys(e.library!.csl);
          void got.index.entry(e.key);
        }
        for (const q of ['a', 'ab', 'the venue', 'author:a', 'year:2020', ...got.entries.slice(0, 3).map((e) => e.title)]) {
          for (const h of got.index.search(parseQuery(q), 10)) if (typeof h.entry.key !== 'string' || !Number.isFinite(h.score)) throw new Error(`a hit of "${q}" is no entry`);
        }
        if (got.file.format === 'bibtex') {
          for (const e of got.file.entries) readEntryAt(lib.text, e.start!, e.end!, got.file.macros ?? {});
        }
        // What citing and the details page read: each entry's text at its offsets, with its macros and crossref parent.
        for (const e of got.entries) prepareEntry(got, lib.text, e);
        const works = new SameWorkIndex<string>();
        works.add({ doi: '10.1/x', title: 'x' }, 'k');
        for (const e of got.entries) works.find(entryIdentity(e));
        for (const p of got.file.problems!) void `${p.line}:${p.column}: ${problemMessage(p)}`;
        libraryToJson(got);
      });
    });
  }, TEST_TIMEOUT_MS);
});
