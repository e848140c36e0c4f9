/**
 * Pandoc's citations as elements (`src/core/markdown/citationGroups.ts`): which keys stand in one
 * citation, with what prefix, suffix and mode, compared with pandoc's own reading (`pandoc -f
 * markdown -t json`: every `Cite` element's citations) on the preview fixtures and on generated
 * documents; the `::: {#refs}` div; and the work it does, which grows linearly with the text.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { citationGroups, lastCitationGroupsWork, refsDivOf, type CiteGroup } from '../../src/core/markdown/citationGroups.js';
import { scanPandoc } from '../../src/core/markdown/pandoc.js';
import { markdownDocArb } from './fuzz/markdownArb.js';

const FIXTURES = join(__dirname, 'fixtures/preview');
const PANDOC = spawnSync('pandoc', ['--version'], { encoding: 'utf8' }).status === 0;
if (!PANDOC && !process.env.CI) console.log('pandoc is not installed: the comparison of citation elements with pandoc is skipped');

/** A citation item as compared: key, mode, prefix and suffix as plain text (blanks as spaces). */
type Item = [key: string, mode: string, prefix: string, suffix: string];

const MODES: Record<string, string> = { NormalCitation: 'normal', SuppressAuthor: 'suppress-author', AuthorInText: 'author-in-text' };

/** Pandoc's inlines as the Markdown they came from, for the simple inlines prefixes and suffixes hold. */
function plain(inlines: { t: string; c?: unknown }[]): string {
  return inlines.map((i) => {
    switch (i.t) {
      case 'Str': return (i.c as string).replace(/\u00a0/g, ' ');
      case 'Space': case 'SoftBreak': return ' ';
      case 'Code': return `\`${(i.c as [unknown, string])[1]}\``;
      // A citation inside a prefix or suffix (`[@a,@b]`) stays text of it here (a known limit).
      case 'Cite': return plain((i.c as [unknown, { t: string; c?: unknown }[]])[1]);
      default: return `<${i.t}>`;
    }
  }).join('');
}

/** Every `Cite` element of a document as pandoc reads it, in document order. */
function pandocCites(text: string): Item[][] {
  const r = spawnSync('pandoc', ['-f', 'markdown', '-t', 'json'], { input: text, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pandoc failed: ${r.stderr}`);
  const out: Item[][] = [];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) { for (const v of x) walk(v); return; }
    if (!x || typeof x !== 'object') return;
    const node = x as { t?: string; c?: unknown };
    if (node.t === 'Cite') {
      const cs = (node.c as [{ citationId: string; citationMode: { t: string }; citationPrefix: []; citationSuffix: [] }[]])[0];
      out.push(cs.map((c) => [c.citationId, MODES[c.citationMode.t]!, plain(c.citationPrefix), plain(c.citationSuffix)]));
      return;
    }
    for (const v of Object.values(node)) walk(v);
  };
  // Notes are read after the paragraph that refers to them; document order is by offset below.
  walk((JSON.parse(r.stdout) as { blocks: unknown }).blocks);
  return out;
}

const ours = (text: string): Item[][] => citationGroups(text, scanPandoc(text)).map((g) => g.items.map((i) => [i.key, i.mode, i.prefix, i.suffix]));
const byKeys = (cites: Item[][]) => [...cites].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe('citation elements', () => {
  it('reads the forms of pandoc\'s citation syntax', () => {
    const text = 'A [see @a, p. 3; -@b] B @c [p. 4] C @d [@e] D [@f]{.x} E [@g](http://x) F [x; y @h] G [see [x] @i].';
    const groups = citationGroups(text, scanPandoc(text));
    const g = (key: string) => groups.find((x) => x.items.some((i) => i.key === key))!;
    expect(g('a').items).toEqual([{ key: 'a', prefix: 'see', suffix: ', p. 3', mode: 'normal' }, { key: 'b', prefix: '', suffix: '', mode: 'suppress-author' }]);
    expect(text.slice(g('a').start, g('a').end)).toBe('[see @a, p. 3; -@b]');
    expect(g('c').items).toEqual([{ key: 'c', prefix: '', suffix: 'p. 4', mode: 'author-in-text' }]);
    expect(text.slice(g('c').start, g('c').end)).toBe('@c [p. 4]');
    expect(g('d').items.map((i) => [i.key, i.mode])).toEqual([['d', 'author-in-text'], ['e', 'normal']]);
    expect(text.slice(g('d').start, g('d').end)).toBe('@d [@e]');
    // A span's and a link's brackets are not a citation: the keys inside are author-in-text.
    expect(text.slice(g('f').start, g('f').end)).toBe('@f');
    expect(g('g').items[0]!.mode).toBe('author-in-text');
    // A part between `;`s with no key: not a citation.
    expect(text.slice(g('h').start, g('h').end)).toBe('@h');
    expect(g('i').items).toEqual([{ key: 'i', prefix: 'see [x]', suffix: '', mode: 'normal' }]);
    expect(groups.length).toBe(7);
  });

  it('leaves out what isCitation refuses (cross-references), and nothing in code', () => {
    const text = 'See @fig-a and [@fig-b; @c] and `[@d]`.';
    const groups = citationGroups(text, scanPandoc(text), (k) => !k.startsWith('fig-'));
    expect(groups.map((g) => g.items.map((i) => i.key))).toEqual([['c']]);
  });

  it.runIf(PANDOC || process.env.CI)('match pandoc\'s Cite elements on the fixture', () => {
    const text = readFileSync(join(FIXTURES, 'groups.md'), 'utf8');
    expect(byKeys(ours(text))).toEqual(byKeys(pandocCites(text)));
  });

  it.runIf(PANDOC || process.env.CI)('match pandoc\'s Cite elements on generated documents', () => {
    for (const doc of fc.sample(markdownDocArb, { numRuns: 25, seed: 30 })) {
      expect(byKeys(ours(doc.text)), doc.text).toEqual(byKeys(pandocCites(doc.text)));
    }
  });

  it('does linear work: 10× the input, at most 12× the work and 20 per character, however brackets nest (counted, not timed)', () => {
    const cases: [string, (n: number) => string][] = [
      ['nested citations', (n) => `${'[@a '.repeat(n)}${']'.repeat(n)}`],
      ['nested invalid brackets', (n) => `${'[see @a, p. 1; '.repeat(n)}${']'.repeat(n)}`],
      ['citations side by side', (n) => '[see @a, p. 1; @b] '.repeat(n)],
      ['author-in-text with brackets after', (n) => '@a [p. 1; @b] [x] '.repeat(n)],
    ];
    for (const [name, make] of cases) {
      const workOf = (n: number) => { const t = make(n); const groups: CiteGroup[] = citationGroups(t, scanPandoc(t)); return { work: lastCitationGroupsWork(), length: t.length, groups }; };
      const small = workOf(2_000), large = workOf(20_000);
      expect(large.work / small.work, name).toBeLessThanOrEqual(12);
      expect(large.work / large.length, name).toBeLessThanOrEqual(20);
      expect(large.groups.length, name).toBeGreaterThan(0);
    }
    // Each level of nested citations is one citation; the inner ones lie in the outer one's suffix.
    expect(citationGroups('[@a [@a [@a ]]]', scanPandoc('[@a [@a [@a ]]]')).length).toBe(1);
  });
});

describe('the bibliography\'s place', () => {
  it('is the ::: {#refs} div, nested divs counted, not in code', () => {
    const text = 'Text [@a].\n\n```\n::: {#refs}\n```\n\n::: {#refs .x}\n::: inner\nx\n:::\nStays.\n:::\n\nAfter.\n';
    const div = refsDivOf(text, scanPandoc(text))!;
    expect(text.slice(div.open.start, div.open.end)).toBe('::: {#refs .x}');
    expect(text.slice(div.close.start)).toBe(':::\n\nAfter.\n');
  });
  it('is none when the div is not closed or there is none', () => {
    for (const text of ['::: {#refs}\nx\n', 'Text.\n', '::: {#other}\n:::\n']) expect(refsDivOf(text, scanPandoc(text))).toBeUndefined();
  });
});
