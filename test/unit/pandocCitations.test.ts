/**
 * Pandoc citations read as pandoc reads them (`src/core/markdown/pandoc.ts`), and cross-references
 * that are not citations (`src/core/markdown/crossref.ts`).
 *
 * Fixtures: `fixtures/pandoc/*.md|qmd`, each named for the case it breaks, whose first comment
 * line `<!-- expect-cited: … -->` lists the keys `pandocDocumentCitations` must give, in order
 * (`.qmd` files are read as Quarto documents). The same fixtures, and generated documents, are
 * run through `pandoc -f markdown -t json` when pandoc is installed: its `Cite` elements' ids must
 * be exactly the keys the scanner reads (before cross-references are left out), except those a
 * fixture lists as `<!-- pandoc-extra: … -->` with its reason. Without pandoc the comparison is
 * skipped with a message, unless `CI` is set: then it fails.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { citedKeys, crossrefSyntaxOf, pandocCitations, pandocDocumentCitations } from '../../src/core/cite/citations.js';
import { pandocCiteContext } from '../../src/core/cite/citationContext.js';
import { isCrossReference, NO_CROSSREFS } from '../../src/core/markdown/crossref.js';
import { lastPandocScanWork, scanPandoc } from '../../src/core/markdown/pandoc.js';
import { markdownDocArb } from './fuzz/markdownArb.js';

const FIXTURES = join(__dirname, 'fixtures/pandoc');
const fixtureNames = readdirSync(FIXTURES).filter((f) => /\.(md|qmd)$/.test(f)).sort();
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const header = (text: string, name: string): string[] | undefined => {
  const m = new RegExp(`<!-- ${name}:(.*?)-->`).exec(text);
  return m ? m[1]!.replace(/\(.*\)/, '').trim().split(/\s+/).filter(Boolean) : undefined;
};
const keysOf = (cs: readonly { key: string }[]) => cs.map((c) => c.key);

/** pandoc's version, or undefined when it is not installed. */
function pandocVersion(): string | undefined {
  const r = spawnSync('pandoc', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n')[0] : undefined;
}
const PANDOC = pandocVersion();
if (!PANDOC && !process.env.CI) console.log('pandoc is not installed: the differential tests against pandoc are skipped (scripts/setup-test-tools.sh installs it)');

/** The citation ids of every `Cite` in the document's blocks, as `pandoc -f markdown -t json` reads it. */
function pandocCiteIds(text: string): string[] {
  const r = spawnSync('pandoc', ['-f', 'markdown', '-t', 'json'], { input: text, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pandoc failed: ${r.stderr}`);
  const ids: string[] = [];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) { for (const v of x) walk(v); return; }
    if (!x || typeof x !== 'object') return;
    const node = x as { t?: string; c?: unknown };
    if (node.t === 'Cite') for (const c of (node.c as [{ citationId: string }[]])[0]) ids.push(c.citationId);
    for (const v of Object.values(node)) walk(v);
  };
  walk((JSON.parse(r.stdout) as { blocks: unknown }).blocks);
  return ids;
}
const sorted = (keys: readonly string[]) => [...keys].sort();

describe('Pandoc citation fixtures', () => {
  it('there is a fixture for each cause of issue 21', () => {
    for (const name of ['indented-code', 'code-raw-comments', 'list-no-space', 'curly-keys', 'example-labels', 'quarto-crossrefs', 'pandoc-crossref-filter']) {
      expect(fixtureNames.some((f) => f.startsWith(name)), name).toBe(true);
    }
  });

  it.each(fixtureNames)('%s', (name) => {
    const text = fixture(name);
    const expected = header(text, 'expect-cited');
    expect(expected, 'the fixture says what it cites').toBeDefined();
    const cited = pandocCitations(text, { quarto: name.endsWith('.qmd') });
    expect(keysOf(cited)).toEqual(expected);
    for (const c of cited) expect(text.slice(c.offset, c.offset + c.length)).toBe(c.key);
  });

  it.runIf(PANDOC || process.env.CI).each(fixtureNames)('%s: the scanner reads the citations pandoc reads', (name) => {
    expect(PANDOC, 'CI is set: pandoc must be installed (scripts/setup-test-tools.sh)').toBeDefined();
    const text = fixture(name);
    const extra = header(text, 'pandoc-extra') ?? [];
    expect(sorted(keysOf(scanPandoc(text).keys)), PANDOC).toEqual(sorted(pandocCiteIds(text).filter((k) => !extra.includes(k))));
  });

  it.runIf(PANDOC || process.env.CI)('generated documents: the scanner reads the citations pandoc reads', () => {
    expect(PANDOC, 'CI is set: pandoc must be installed').toBeDefined();
    for (const doc of fc.sample(markdownDocArb, { numRuns: 25, seed: 21 })) {
      expect(sorted(keysOf(scanPandoc(doc.text).keys)), doc.text).toEqual(sorted(pandocCiteIds(doc.text)));
    }
  });
});

describe('Pandoc citation grammar (issue 21, causes 7–10)', () => {
  it('cause 7: nothing in an indented code block, but a lazy line of a paragraph is text', () => {
    expect(keysOf(pandocCitations('Para.\n\n    [@incode] @x\n\nAfter @y.\n'))).toEqual(['y']);
    expect(keysOf(pandocCitations('Para\n    @lazy continuation\n'))).toEqual(['lazy']);
    expect(keysOf(pandocCitations('- item\n\n    continued @p\n\n        code @c\n'))).toEqual(['p']);
  });

  it('cause 7: nothing in fenced code, raw blocks, inline code, HTML comments or math', () => {
    const md = '```\n@a\n```\n\n```{=latex}\n@b\n```\n\n`@c` <!-- @d --> $@e$ @f\n\n<!--\n\n@g\n\n-->\n';
    expect(keysOf(pandocCitations(md))).toEqual(['f']);
  });

  it('cause 8: [@doe99,@smith04] cites both', () => {
    expect(keysOf(pandocCitations('[@doe99,@smith04]'))).toEqual(['doe99', 'smith04']);
  });

  it('cause 9: curly-brace keys', () => {
    const md = 'See @{https://example.com/paper} and [@{doe99}].';
    const cs = pandocCitations(md);
    expect(keysOf(cs)).toEqual(['https://example.com/paper', 'doe99']);
    for (const c of cs) expect(md.slice(c.offset, c.offset + c.length)).toBe(c.key);
  });

  it('cause 10: an example-list label and its references are not citations', () => {
    expect(keysOf(pandocCitations('(@good) An example.\n\nAs @good shows.\n'))).toEqual([]);
  });

  it('keys: pandoc\'s internal punctuation, URLs, and trailing punctuation left out', () => {
    expect(keysOf(pandocCitations('@a:b. @c::d, @e-f; @http://x.org/y? @x_ @Müller2020.'))).toEqual(['a:b', 'c', 'e-f', 'http://x.org/y', 'x_', 'Müller2020']);
  });

  it('not after a word: e-mail addresses, `x.@y`, emphasis closers; after `-`, `,` and `...` yes', () => {
    expect(keysOf(pandocCitations('me@example.org x.@y *em*@z a-@b, c,@d ...@e'))).toEqual(['b', 'd', 'e']);
  });

  it('nocite: keys, braces, and `@*` for every entry', () => {
    const md = '---\nnocite: |\n  @a, @{b}\n---\nText.\n';
    expect(keysOf(pandocCitations(md))).toEqual(['a', 'b']);
    const all = citedKeys('---\nnocite: "@*"\n---\n[@c]\n', 'markdown');
    expect([...all]).toEqual(['c']);
    expect(all.all).toBe(true);
    expect(citedKeys('[@c]', 'markdown').all).toBe(false);
  });
});

describe('cross-references (issue 21, cause 6)', () => {
  it('Quarto: `@fig-plot`, `@tbl-data`, `@sec-intro` in a .qmd are not citations', () => {
    const md = 'See @fig-plot, @tbl-data and @sec-intro; [@doe99].';
    expect(keysOf(pandocCitations(md, { quarto: true }))).toEqual(['doe99']);
    expect(keysOf(pandocCitations(md))).toEqual(['fig-plot', 'tbl-data', 'sec-intro', 'doe99']);
    // The language says Quarto, without a host's word.
    expect(citedKeys(md, 'quarto')).toEqual(['doe99']);
  });

  it('Quarto: every reserved prefix, capitalised too, and custom types; a prefix alone or another word is a key', () => {
    const syntax = crossrefSyntaxOf('---\ncrossref:\n  custom:\n    - kind: float\n      key: vid\n---\n', { quarto: true });
    for (const p of ['fig', 'tbl', 'lst', 'tip', 'nte', 'wrn', 'imp', 'cau', 'thm', 'lem', 'cor', 'prp', 'cnj', 'def', 'exm', 'exr', 'sol', 'rem', 'alg', 'eq', 'sec', 'vid']) {
      expect(isCrossReference(`${p}-x`, syntax), p).toBe(true);
    }
    expect(isCrossReference('Fig-x', syntax)).toBe(true);
    expect(isCrossReference('fig', syntax)).toBe(false);
    expect(isCrossReference('figure-x', syntax)).toBe(false);
    expect(isCrossReference('fig:x', syntax)).toBe(false);
  });

  it('pandoc-crossref: `@fig:x` where the front matter names the filter or has crossref metadata', () => {
    const md = '@fig:plot @tbl:data @sec:intro @eq:one @lst:code @doe99';
    expect(keysOf(pandocCitations(md))).toHaveLength(6);
    expect(keysOf(pandocCitations(`---\nfilters: [pandoc-crossref]\n---\n${md}`))).toEqual(['doe99']);
    expect(keysOf(pandocCitations(`---\noutput:\n  html_document:\n    pandoc_args: ["--filter", "pandoc-crossref"]\n---\n${md}`))).toEqual(['doe99']);
    expect(keysOf(pandocCitations(`---\ncrossref:\n  figPrefix: Fig.\n---\n${md}`))).toEqual(['doe99']);
  });

  it('completion: no citation keys after a cross-reference prefix, nor in code', () => {
    const quarto = { ...NO_CROSSREFS, quarto: true };
    expect(pandocCiteContext('See @fig-', 9, quarto)).toBeUndefined();
    expect(pandocCiteContext('See @fig', 8, quarto)?.prefix).toBe('fig');
    expect(pandocCiteContext('See @fig-', 9)?.prefix).toBe('fig-');
    expect(pandocCiteContext('```\n@ka\n```\n', 7)).toBeUndefined();
    expect(pandocCiteContext('Text\n\n    @ka\n', 13)).toBeUndefined();
    expect(pandocCiteContext('`@ka`', 4)).toBeUndefined();
    expect(pandocCiteContext('[@a,@ka]', 7)?.existing).toEqual(['a']);
  });
});

describe('linear work (counted, not timed)', () => {
  // Each input repeats a construct that a naive reader searches past to the end of the text.
  const cases: [string, string][] = [
    ['backtick runs never closed', '``a `b '],
    ['dollar amounts', '$5 and '],
    ['inline comments never closed', 'a <!-- b '],
    ['link destinations never closed', '[a](b '],
    ['link destinations without blanks', '[a](b'],
    ['link destinations in angle brackets', '[a](<b '],
    ['link titles never closed', '[a](b (c '],
    ['raw TeX arguments never closed', '\\x{a '],
    ['fences never closed', '````x\n'],
    ['environments never closed', '\\begin{x}\n'],
    ['<pre> blocks never closed', '<pre>\n'],
    ['block comments never closed', '<!-- a\n\n'],
    ['metadata blocks', '---\na: b\n'],
    ['block quotes nested on one line', '> '],
    ['list items nested on one line', '- '],
    ['list items nested on lines', '- a\n  '],
    ['indented code and blank lines', '    a\n\n'],
    ['citations and e-mail addresses', '@a [@b,@c] me@x.org '],
    // Issue 28: each `@{` looked for its closing brace to the paragraph's end (60 kB: no answer in 60 s).
    ['braced keys never closed, in brackets', '[@{'],
    ['braced keys never closed', '@{'],
    ['braced keys never closed, author suppressed', '-@{'],
  ];
  it('a long backtick run never closed, then text: 10× both costs at most 12× the work (found by npm run fuzz)', () => {
    // Pandoc reads the run's first backtick as a symbol and tries again from the next: each shorter
    // run looked for its closer to the paragraph's end, the run's length times.
    const text = (k: number) => `${'`'.repeat(k)}${'a '.repeat(10 * k)}`;
    scanPandoc(text(300));
    const a = lastPandocScanWork();
    scanPandoc(text(3000));
    const b = lastPandocScanWork();
    expect(b, `${a} then ${b}`).toBeLessThanOrEqual(12 * a);
  });
  it.each(cases)('%s: 10× the input costs at most 12× the work, and at most 60 per character', (_name, unit) => {
    const text = (n: number) => unit.repeat(Math.ceil(n / unit.length));
    const small = text(10_000), large = text(100_000);
    scanPandoc(small);
    const a = lastPandocScanWork();
    scanPandoc(large);
    const b = lastPandocScanWork();
    expect(b, `${a} then ${b}`).toBeLessThanOrEqual(12 * a);
    expect(b).toBeLessThanOrEqual(60 * large.length);
  });
});
