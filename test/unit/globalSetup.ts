/**
 * Vitest global setup (vitest.config.mts): reads and validates the bundled corpus (`corpus/`) once
 * per run and hands the data to every test worker through `provide`, so that `realCorpus()` in
 * helpers.ts only builds the model. Parsing the YAML takes 1-2 s; done in each test file's worker it
 * made files slow and, on a busy machine, pushed tests past vitest's 5 s timeout.
 */
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { CorpusData } from '../../src/core/corpus/readCorpus.js';
import { CorpusError } from '../../src/core/text/problems.js';
import { loadCorpusDir } from '../../src/host/node/readCorpusFiles.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The bundled corpus, read and validated once by this setup. */
    corpusData: CorpusData;
  }
}

/**
 * The bundled corpus folder (the source, not the build output); `MLSYS_TEST_CORPUS` names another
 * (a grown corpus, to run the tests that hold against the real corpus, such as the near misses of
 * nearMiss.property.test.ts, on it before it is merged).
 */
export const CORPUS_DIR = process.env.MLSYS_TEST_CORPUS ?? join(__dirname, '../../corpus');

/**
 * Reads `dir` (topics.yaml, entries/*.yaml, cross-checked) with the rule of the build's
 * `build-corpus`: any error fails, warnings pass. Tests must not run on a corpus that lost its
 * invalid entries silently.
 * @throws CorpusError whose message lists every problem as file:line:column.
 */
export function loadValidCorpusData(dir: string = CORPUS_DIR): CorpusData {
  const { data, problems } = loadCorpusDir(dir);
  if (problems.some((p) => p.severity === 'error')) throw new CorpusError(problems);
  return data;
}

export default function setup(project: TestProject): void {
  project.provide('corpusData', loadValidCorpusData());
}
