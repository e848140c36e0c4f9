/**
 * `dist-test/bench-scale-rss.js`: what a CLI run over a user's library costs in memory, measured in
 * a fresh Node process (default heap limit, nothing else loaded) by the scale bench. It reads the
 * `.bib` file, loads it to a searchable index (or, given a cache file, hashes the text and
 * restores the cache instead), answers one query, and prints one JSON line: entries, hits, the
 * time taken and the process's peak resident set size (`process.resourceUsage().maxRSS`, which
 * Node gives in kilobytes).
 *
 * Usage: node dist-test/bench-scale-rss.js <library.bib> [<cache.json>]
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { libraryFromJson } from '../../src/core/library/libraryCacheFormat.js';
import { loadLibrary } from '../../src/core/library/loadLibrary.js';
import { parseQuery } from '../../src/core/search/queryLanguage.js';

const [file, cache] = process.argv.slice(2);
if (!file) {
  console.error('usage: bench-scale-rss.js <library.bib> [<cache.json>]');
  process.exit(2);
}
const start = performance.now();
const text = readFileSync(file, 'utf8');
const ref = { uri: pathToFileURL(file).href, name: basename(file) };
let lib;
if (cache) {
  createHash('sha256').update(text).digest('hex');
  lib = libraryFromJson(readFileSync(cache, 'utf8'), ref);
  if (!lib) throw new Error(`${cache} is not a library cache of this version`);
} else lib = loadLibrary(text, 'bibtex', ref);
const hits = lib.index.search(parseQuery('distributed training'), 50).length;
const ms = performance.now() - start;
process.stdout.write(`${JSON.stringify({ entries: lib.entries.length, hits, ms, maxRssKb: process.resourceUsage().maxRSS })}\n`);
