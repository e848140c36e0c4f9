import { inject } from 'vitest';
import { buildCorpus, type Corpus } from '../../src/core/corpus.js';
import type { CorpusEntry } from '../../src/core/schema.js';
import { loadValidCorpusData } from './globalSetup.js';

let cached: Corpus | undefined;
/**
 * The real bundled corpus, read from `corpus/` (not from the build output). The global setup
 * (globalSetup.ts) has read and validated it once for the whole run; this only builds the model,
 * once per worker. Under a config without that setup it reads the folder itself, with the same checks.
 */
export function realCorpus(): Corpus {
  return (cached ??= buildCorpus(inject('corpusData') ?? loadValidCorpusData()));
}

/** Splits fixture text at the `|` cursor marker: `\cite{a,|}` → text without the marker and the offset. */
export function cursor(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf('|');
  if (offset < 0) throw new Error(`fixture has no | cursor marker: ${marked}`);
  return { text: marked.slice(0, offset) + marked.slice(offset + 1), offset };
}

/** A minimal entry for formatting tests. */
export function entry(over: Partial<CorpusEntry> & Pick<CorpusEntry, 'key'>): CorpusEntry {
  return {
    type: 'misc', kind: 'paper', title: 'A Title', authors: [{ given: 'Ann', family: 'Smith' }], topics: ['t'],
    aliases: [], summary: 's', sources: ['curated'], seed_urls: [], verified: ['https://example.org'], unverified: [],
    ...over,
  };
}
