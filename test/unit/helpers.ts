import { join } from 'node:path';
import { buildCorpus, type Corpus } from '../../src/core/corpus.js';
import { loadCorpusDir } from '../../src/host/node/load.js';
import type { Entry } from '../../src/core/schema.js';

let cached: Corpus | undefined;
/** The real bundled corpus, read from `corpus/` (not from the build output). */
export function realCorpus(): Corpus {
  return (cached ??= buildCorpus(loadCorpusDir(join(__dirname, '../../corpus')).data));
}

/** Splits fixture text at the `|` cursor marker: `\cite{a,|}` → text without the marker and the offset. */
export function cursor(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf('|');
  if (offset < 0) throw new Error(`fixture has no | cursor marker: ${marked}`);
  return { text: marked.slice(0, offset) + marked.slice(offset + 1), offset };
}

/** A minimal entry for formatting tests. */
export function entry(over: Partial<Entry> & Pick<Entry, 'key'>): Entry {
  return {
    type: 'misc', kind: 'paper', title: 'A Title', authors: [{ given: 'Ann', family: 'Smith' }], topics: ['t'],
    aliases: [], summary: 's', sources: ['curated'], seed_urls: [], verified: ['https://example.org'], unverified: [],
    ...over,
  };
}
