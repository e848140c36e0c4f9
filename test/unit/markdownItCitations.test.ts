/**
 * The Markdown preview's markdown-it plugin (`src/core/markdown/markdownItCitations.ts`) on a real
 * markdown-it (the version VS Code's preview carries): rendered citations go where their text was,
 * lines stay where they were (the preview's scroll sync reads `data-line`), the bibliography goes
 * into `::: {#refs}` or at the end, text where markdown-it reads no Markdown gets its original text
 * back, and, end to end with the language server's answer, the page's citations read as
 * `pandoc --citeproc`'s.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { URI } from 'vscode-uri';
import { citationGroups } from '../../src/core/markdown/citationGroups.js';
import { fittingCitations, markdownItCitations, shiftSpans, type KnownCitations, type RenderedCitations } from '../../src/core/markdown/markdownItCitations.js';
import { scanPandoc } from '../../src/core/markdown/pandoc.js';
import { Methods, type PreviewCitationsResult } from '../../src/server/protocol.js';
import { KNOWN, norm } from './preview/known.js';
import { citationTexts } from './preview/pandocHtml.js';
import { ROOT, start } from './serverHarness.js';

/** A markdown-it with the plugin, over a host that knows `known` for the one text `text`; and the documents reported rendered. */
function preview(text: string, known: RenderedCitations | undefined) {
  const rendered: unknown[] = [];
  const md = markdownItCitations(new MarkdownIt({ html: true }), {
    lookup: (t) => (t === text ? known : undefined),
    rendered: (doc) => rendered.push(doc),
  });
  return { md, rendered };
}

/** Citations as the reader finds them, each rendered as `<cite>keys</cite>`. */
function cites(text: string, bibliography: RenderedCitations['bibliography'] = null): RenderedCitations {
  const groups = citationGroups(text, scanPandoc(text));
  return { citations: groups.map((g) => ({ start: g.start, end: g.end, html: `<cite>${g.items.map((i) => i.key).join(';')}</cite>` })), bibliography };
}

describe('the preview\'s markdown-it plugin', () => {
  it('puts each rendered citation where its text was', () => {
    const text = '# Intro [@a]\n\nSee [@b, p. 3] and @c says *so [-@d]*.\n\n| x | [@e] |\n|---|---|\n| @f | y |\n';
    const html = preview(text, cites(text)).md.render(text, { currentDocument: 'doc' });
    for (const k of ['a', 'b', 'c', 'd', 'e', 'f']) expect(html).toContain(`<cite>${k}</cite>`);
    expect(html).not.toMatch(/@[a-f]\b|[\uE000-\uE003]/);
    expect(html).toContain('<em>so <cite>d</cite></em>');
  });

  it('keeps every block on its line, a citation across lines included', () => {
    const text = 'A [see\n@a, p. 3] b\nc @d.\n\n> Quote [see\n> @e] f\n\n- item [x\n  @g] h\n\nlast\n';
    const plain = new MarkdownIt().parse(text, {});
    const withCites = preview(text, cites(text)).md.parse(text, {});
    expect(withCites.filter((t) => t.map).map((t) => [t.type, t.map])).toEqual(plain.filter((t) => t.map).map((t) => [t.type, t.map]));
    const html = preview(text, cites(text)).md.render(text, {});
    expect(html).toContain('A <cite>a</cite> b\nc <cite>d</cite>.');
    expect(html).toContain('Quote <cite>e</cite> f');
    expect(html).toContain('item <cite>g</cite> h');
  });

  it('gives text markdown-it reads as code its original text back, and leaves a text holding private-use characters alone', () => {
    const text = 'Para.\n\n    indented [@a] text\n';
    // pandoc reads the indented line as a paragraph's continuation here only if it were lazy; a host that disagrees with markdown-it:
    const span = { start: text.indexOf('[@a]'), end: text.indexOf('[@a]') + 4, html: '<cite>a</cite>' };
    const html = preview(text, { citations: [span], bibliography: null }).md.render(text, {});
    expect(html).toContain('<code>indented [@a] text');
    const odd = 'x \uE000 [@a]\n';
    expect(preview(odd, cites(odd)).md.render(odd, {})).toContain('[@a]');
  });

  it('puts the bibliography into ::: {#refs} after what it holds, or at the end', () => {
    const text = 'Text [@a].\n\n::: {#refs}\nBefore.\n:::\n\nAfter.\n';
    const scan = scanPandoc(text);
    const fences = scan.divFences;
    const html = preview(text, cites(text, { html: '<div id="refs">R</div>', open: fences[0]!, close: fences[1]! })).md.render(text, {});
    expect(html).toMatch(/<p>Before\.<\/p>\s*<div id="refs">R<\/div>\s*<p>After\.<\/p>/);
    expect(html).not.toContain(':::');
    const empty = 'Text [@a].\n\n::: {#refs}\n:::\n\nAfter.\n';
    const f2 = scanPandoc(empty).divFences;
    expect(preview(empty, cites(empty, { html: '<div id="refs">R</div>', open: f2[0]!, close: f2[1]! })).md.render(empty, {})).toMatch(/<div id="refs">R<\/div>\s*<p>After\.<\/p>/);
    const atEnd = 'Text [@a].\n\nLast.\n';
    expect(preview(atEnd, cites(atEnd, { html: '<div id="refs">R</div>' })).md.render(atEnd, {})).toMatch(/<p>Last\.<\/p>\s*<div id="refs">R<\/div>\s*$/);
  });

  it('renders the text as it is when its host knows nothing of it, and reports the document rendered', () => {
    const text = 'See [@a].\n';
    const p = preview(text, undefined);
    expect(p.md.render(text, { currentDocument: 'file:///a.md' })).toBe('<p>See [@a].</p>\n');
    expect(p.rendered).toEqual(['file:///a.md']);
  });
});

describe('the cache the plugin renders from', () => {
  const text = 'See [@a] and [@b].\n';
  const known = (t: string): KnownCitations => ({ length: t.length, bibliography: null, citations: cites(t).citations.map((c) => ({ ...c, source: t.slice(c.start, c.end) })) });

  it('fits the text whose citations hold their texts; an edited citation is left out, an edit elsewhere moves the others', () => {
    expect(fittingCitations(text, [known(text)])?.citations.length).toBe(2);
    expect(fittingCitations(`${text} `, [known(text)])).toBeUndefined();
    // `[@a]` became `[@x]`: same length, that citation no longer fits.
    const edited = text.replace('[@a]', '[@x]');
    expect(fittingCitations(edited, [known(text)])?.citations.map((c) => c.html)).toEqual(['<cite>b</cite>']);
    // Typing before the citations: their spans move with the edit, and all fit again.
    const k = known(text);
    const change = { offset: 0, length: 0, text: 'Now ' };
    const moved = { ...k, length: k.length + 4, citations: shiftSpans(k.citations, change) };
    expect(fittingCitations(`Now ${text}`, [moved])?.citations.length).toBe(2);
  });

  it('drops the spans an edit touches, its ends included', () => {
    const spans = [{ start: 4, end: 8 }, { start: 13, end: 17 }];
    expect(shiftSpans(spans, { offset: 8, length: 0, text: '(' })).toEqual([{ start: 14, end: 18 }]);
    expect(shiftSpans(spans, { offset: 0, length: 2, text: '' })).toEqual([{ start: 2, end: 6 }, { start: 11, end: 15 }]);
    expect(shiftSpans(spans, { offset: 10, length: 1, text: 'xyz' })).toEqual([{ start: 4, end: 8 }, { start: 15, end: 19 }]);
  });
});

describe('end to end: the language server\'s answer in the preview reads as pandoc --citeproc', () => {
  const PANDOC = spawnSync('pandoc', ['--version'], { encoding: 'utf8' }).status === 0;
  it.runIf(PANDOC || process.env.CI)('on the fixture, in APA', async () => {
    const dir = join(__dirname, 'fixtures/preview');
    const md = readFileSync(join(dir, 'groups.md'), 'utf8');
    const s = await start({ '/ws/groups.md': md, '/ws/refs.bib': readFileSync(join(dir, 'refs.bib'), 'utf8') });
    const r = await s.client.sendRequest(Methods.previewCitations, { uri: URI.file('/ws/groups.md').toString(), languageId: 'markdown', text: md }) as PreviewCitationsResult;
    s.dispose();
    const ours = citationTexts(preview(md, { citations: r.citations, bibliography: r.bibliography }).md.render(md, {}));
    const p = spawnSync('pandoc', ['--citeproc', '--csl', join(ROOT, 'csl/styles/apa.csl'), '-f', 'markdown', '-t', 'html'], { input: md, cwd: dir, encoding: 'utf8' });
    const theirs = citationTexts(p.stdout);
    expect(ours.citations.map((c) => c.keys)).toEqual(theirs.citations.map((c) => c.keys));
    const known = KNOWN.filter((k) => k.style === 'apa').map((k) => k.pandoc);
    expect(theirs.citations.map((c, i) => [c.text, ours.citations[i]!.text]).filter(([a, b]) => norm(a!) !== norm(b!) && !known.includes(a!))).toEqual([]);
    expect(ours.entries.map((e) => [e.key, norm(e.text)])).toEqual(theirs.entries.map((e) => [e.key, norm(e.text)]));
  });
});
