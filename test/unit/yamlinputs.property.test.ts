/**
 * Robustness of every reader of YAML text against mutated input: corpus files, CSL-YAML
 * bibliographies and Markdown front matter with random edits (see fuzz/yamlMutations.ts).
 * `parseEntriesFile`, `entryLocations`, `parseTopicsFile`, `parseYaml`, `readBibFile(*.yaml)` and
 * `frontMatterOf` (of the text, and of a Markdown document with the text as front matter) must
 * never throw, every problem they report must point into the text, and (in the long fuzz run,
 * `npm run fuzz`, which judges hangs by the clock) each call must finish within 2 s.
 *
 * `FUZZ_RUNS` cases per property (300 by default), seed 42 (`FUZZ_SEED`).
 */
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { frontMatterOf } from '../../src/core/markdown/frontMatter.js';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import { entryLocations, parseEntriesFile, parseTopicsFile } from '../../src/core/corpus/readCorpus.js';
import type { Problem } from '../../src/core/text/problems.js';
import { parseYaml } from '../../src/core/text/yaml.js';
import { cslYamlLogicalArb, frontMatterDocArb } from './fuzz/arbitraries.js';
import { call, check, HANG_MS, runFuzz, tallies, TEST_TIMEOUT_MS } from './fuzz/harness.js';
import { corpusWindowArb, mutatedArb } from './fuzz/yamlMutations.js';

/** Lines of a text as an editor counts them (CRLF, LF or a lone CR break a line). */
const lineCount = (t: string) => (t.match(/\r\n|\r|\n/g)?.length ?? 0) + 1;

function problemsInText(what: string, text: string, problems: readonly Problem[]): void {
  const max = lineCount(text);
  for (const p of problems) {
    check(`${what}: problem has a line and column in the text`,
      Number.isInteger(p.line) && p.line >= 1 && p.line <= max && Number.isInteger(p.column) && p.column >= 1,
      () => `${JSON.stringify(p)} in a text of ${max} lines`);
  }
}

function readers(text: string): void {
  const entries = call('parseEntriesFile', () => parseEntriesFile(text, 'fuzz.yaml'));
  check('parseEntriesFile returns items and problems', Array.isArray(entries?.items) && Array.isArray(entries.problems));
  problemsInText('parseEntriesFile', text, entries.problems);

  const sources = call('entryLocations', () => entryLocations(text, 'fuzz.yaml'));
  problemsInText('entryLocations', text, sources.problems);

  const topics = call('parseTopicsFile', () => parseTopicsFile(text, 'topics.yaml'));
  check('parseTopicsFile returns items and problems', Array.isArray(topics?.items) && Array.isArray(topics.problems));
  problemsInText('parseTopicsFile', text, topics.problems);

  const parsed = call('parseYaml', () => parseYaml(text));
  for (const p of parsed.problems) {
    check('parseYaml: problem offset in the text', Number.isInteger(p.offset) && p.offset >= 0 && p.offset <= text.length,
      () => `${JSON.stringify(p)} in a text of ${text.length} characters`);
  }

  const bib = call('readBibFile(.yaml)', () => readBibFile('refs.yaml', text));
  check('readBibFile(.yaml) gives a source', bib !== undefined);
  if (bib.error) {
    check('readBibFile(.yaml): error position in the text', bib.error.line >= 1 && bib.error.line <= lineCount(text) && bib.error.column >= 1,
      () => JSON.stringify(bib.error));
  }

  call('frontMatterOf(text)', () => frontMatterOf(text));
  const doc = `---\n${text}\n---\n\n# Body\n`;
  const fm = call('frontMatterOf(---text---)', () => frontMatterOf(doc));
  if (fm) check('frontMatterOf: range inside the document', fm.start >= 0 && fm.start <= fm.end && fm.end <= doc.length, () => JSON.stringify([fm.start, fm.end]));
}

describe('YAML readers never throw on mutated input (and finish within 2 s in the fuzz run)', () => {
  afterAll(() => {
    console.log(tallies.map((t) => t.summary()).join('\n'));
  });
  const seeds: [string, fc.Arbitrary<string>][] = [
    ['corpus files (corpus/entries, topics.yaml, fixtures)', corpusWindowArb],
    ['CSL-YAML bibliographies', cslYamlLogicalArb],
    ['Markdown documents with front matter', frontMatterDocArb],
  ];
  for (const [name, seed] of seeds) {
    it(`mutated ${name}`, () => {
      // In the fuzz run, each reader call on its own must finish within HANG_MS (2 s); a case runs seven calls.
      runFuzz(`yaml inputs: ${name}`, mutatedArb(seed), readers, { minChecked: 0.99, caseLimitMs: 7 * HANG_MS });
    }, TEST_TIMEOUT_MS);
  }
});
