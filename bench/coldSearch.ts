/**
 * `dist-test/bench-cold.js`: the in-process baseline of `server.bench.ts`, run in a fresh Node
 * process. What activation plus the first search did before the language server: load the core
 * (model + search, nothing else), read and parse `dist/corpus.json`, build the model and the
 * MiniSearch index, answer the query. Prints the answer as one JSON line (the `mlsysPapers/search`
 * result shape) and exits.
 *
 * Usage: node dist-test/bench-cold.js [<query>] [<limit>] [<corpus.json>] (default: `dist/corpus.json`)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCorpus, type CorpusData } from '../src/core/corpus/model.js';
import { createSearchIndex } from '../src/core/search/corpus/corpusIndex.js';
import { parseQuery } from '../src/core/search/queryLanguage.js';

const query = process.argv[2] ?? 'paged attention';
const limit = Number(process.argv[3] ?? 60);
const data = JSON.parse(readFileSync(process.argv[4] ?? join(__dirname, '..', 'dist', 'corpus.json'), 'utf8')) as CorpusData;
const index = createSearchIndex(buildCorpus(data));
const keys = index.search(query, limit).map((h) => h.entry.key);
process.stdout.write(`${JSON.stringify({ keys, invalid: parseQuery(query).invalid })}\n`);
