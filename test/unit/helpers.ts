import type { EditPlan, Splice } from '../../src/core/bibliography/fileEdit.js';
import { inject } from 'vitest';
import { buildCorpus, type Corpus, type CorpusData } from '../../src/core/corpus/readCorpus.js';
import type { CorpusEntry } from '../../src/core/corpus/schema.js';
import { loadValidCorpusData } from './globalSetup.js';

let cached: Corpus | undefined;
let cachedData: CorpusData | undefined;

/** The real bundled corpus as data (see {@link realCorpus}): topics as a tree, entries in file order. */
export function realCorpusData(): CorpusData {
  return (cachedData ??= inject('corpusData') ?? loadValidCorpusData());
}

/**
 * The real bundled corpus, read from `corpus/` (not from the build output). The global setup
 * (globalSetup.ts) has read and validated it once for the whole run; this only builds the model,
 * once per worker. Under a config without that setup it reads the folder itself, with the same checks.
 */
export function realCorpus(): Corpus {
  return (cached ??= buildCorpus(realCorpusData()));
}

/**
 * The cursor marker of fixture text (as `CURSOR` in VS Code's Markdown language service tests): a
 * character, U+2038 CARET, that no text under test contains, so `|` and `$` stay ordinary text.
 */
export const CURSOR = '\u2038';

/**
 * Splits fixture text at its cursor marker: `` `\\cite{a,${CURSOR}}` `` → the text without the
 * marker and the marker's offset (UTF-16 code units).
 *
 * @throws when the text holds no marker or more than one (a fixture mistake, not a test result)
 */
export function cursor(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf(CURSOR);
  if (offset < 0 || marked.indexOf(CURSOR, offset + 1) >= 0) throw new Error(`fixture needs exactly one ${CURSOR} cursor marker: ${marked}`);
  return { text: marked.slice(0, offset) + marked.slice(offset + 1), offset };
}

/** A minimal entry for formatting tests. */
export function entry(over: Partial<CorpusEntry> & Pick<CorpusEntry, 'key'>): CorpusEntry {
  return {
    type: 'misc', kind: 'paper', title: 'A Title', authors: [{ given: 'Ann', family: 'Smith' }], topics: ['t'],
    aliases: [], summary: 's', sources: ['curated'], seed_urls: [], verified: ['https://example.org'], records: [], unverified: [],
    ...over,
  };
}

/**
 * The one splice of a plan that must have exactly one (an addition, a rewrite of one entry);
 * throws with the refusal otherwise, so a test fails naming it.
 */
export function onlySplice(plan: EditPlan): Splice {
  if ('refusal' in plan) throw new Error(`refused: ${plan.refusal}`);
  if (plan.splices.length !== 1) throw new Error(`${plan.splices.length} splices`);
  return plan.splices[0]!;
}
