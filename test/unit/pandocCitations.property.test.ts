/**
 * Properties of the Pandoc citation reader (`src/core/markdown/pandoc.ts`) on generated Markdown
 * (`fuzz/markdownArb.ts`):
 * - a citation inside code (fenced, indented, inline), a raw block, an HTML comment or math is
 *   never read, and outside them every generated key is read exactly, in order, at its offset;
 * - on any text made of Markdown's special characters, the reader and the completion context never
 *   throw, report keys and text regions inside the text, and (in the fuzz run) finish within 2 s;
 * - on hostile runs (`@{` and `[@{` never closed, long brackets and braces, backtick runs, `<!--`,
 *   `](`, `\x{`, nested list and quote markers, …, repeated hundreds of times and mixed), the
 *   reader's counted work stays within a fixed multiple of the text's length (issue 28: each `@{`
 *   read on to the paragraph's end, which was quadratic).
 *
 * `FUZZ_RUNS` cases per property (300 by default), seed 42 (`FUZZ_SEED`).
 */
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { pandocCitations } from '../../src/core/cite/citations.js';
import { pandocCiteContext } from '../../src/core/cite/citationContext.js';
import { lastPandocScanWork, scanPandoc } from '../../src/core/markdown/pandoc.js';
import { markdownDocArb } from './fuzz/markdownArb.js';
import { call, check, runFuzz, tallies, TEST_TIMEOUT_MS } from './fuzz/harness.js';

/** Pieces that made (or could make) the reader search on to the end of the text, each repeated up to 1,000 times. */
const HOSTILE = ['@{', '[@{', '-@{', '@{a', '{', '}', '[', ']', '[@', '@', '`', '``', '$', '$$', '<!--', '-->', '<', '](', '](<', '\\x{', '\\x[',
  '\\begin{x}', '> ', '- ', '1. ', '(@a) ', '    ', '\n', '\n\n', ' ', 'a', '.', '*', '_', '{{<', ':::', '```', '~~~', '---\n', 'nocite: "'];
const hostileArb = fc.array(fc.tuple(fc.constantFrom(...HOSTILE), fc.integer({ min: 1, max: 1000 })), { minLength: 1, maxLength: 6 })
  .map((runs) => runs.map(([unit, k]) => unit.repeat(k)).join(''));

const markdownish = fc.string({ unit: fc.constantFrom(...'@[]{}()-;,.:/*_`$<>!#\\ \t\n\r~=|^&%+?"\'abcXYZ019é'), maxLength: 400 });

describe('Pandoc citations on generated Markdown', () => {
  afterAll(() => {
    console.log(tallies.map((t) => t.summary()).join('\n'));
  });

  it('every citation outside code, raw blocks, comments and math is read exactly; none inside', () => {
    runFuzz('pandoc citations: generated documents', markdownDocArb, ({ text, keys }) => {
      const cited = call('pandocCitations', () => pandocCitations(text));
      check('the keys read are the keys written outside code, in order', JSON.stringify(cited.map((c) => c.key)) === JSON.stringify(keys),
        () => `read ${JSON.stringify(cited.map((c) => c.key))}, written ${JSON.stringify(keys)} in ${JSON.stringify(text)}`);
      for (const c of cited) {
        check('a key\'s offset points at it', text.slice(c.offset, c.offset + c.length) === c.key, () => JSON.stringify(c));
      }
    }, { minChecked: 0.99 });
  }, TEST_TIMEOUT_MS);

  it('any text: no exception, keys and regions inside the text', () => {
    runFuzz('pandoc citations: Markdown-ish text', fc.tuple(markdownish, fc.nat()), ([text, at]) => {
      const scan = call('scanPandoc', () => scanPandoc(text));
      for (const k of scan.keys) {
        check('key inside the text', k.offset >= 0 && k.offset + k.length <= text.length && text.slice(k.offset, k.offset + k.length) === k.key, () => JSON.stringify(k));
      }
      let prev = -1;
      for (const r of scan.text) {
        check('text regions ascending, inside the text', r.start >= prev && r.start <= r.end && r.end <= text.length, () => JSON.stringify(scan.text));
        prev = r.end;
      }
      const offset = text.length ? at % (text.length + 1) : 0;
      const ctx = call('pandocCiteContext', () => pandocCiteContext(text, offset));
      if (ctx) check('context around the cursor', ctx.keyStart <= offset && offset <= ctx.keyEnd + 1, () => JSON.stringify(ctx));
    }, { minChecked: 0.99 });
  }, TEST_TIMEOUT_MS);

  it('hostile runs: the counted work is at most 60 per character', () => {
    runFuzz('pandoc citations: hostile runs, counted work', hostileArb, (text) => {
      call('scanPandoc', () => scanPandoc(text));
      const work = lastPandocScanWork();
      check('work within 60 per character', work <= 60 * Math.max(text.length, 1), () => `${work} for ${text.length} characters: ${JSON.stringify(text.slice(0, 200))}…`);
      call('pandocCitations', () => pandocCitations(text));
    }, { minChecked: 0.99 });
  }, TEST_TIMEOUT_MS);
});
