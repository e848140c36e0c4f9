/**
 * The Markdown preview's citations (`mlsysPapers/previewCitations`, `src/server/citationPreview.ts`)
 * against `pandoc --citeproc`: on the fixture `fixtures/preview/groups.md` (every form of pandoc's
 * citation syntax) in each bundled CSL style, the citations' texts in document order and the
 * bibliography's entries are compared as text (tags dropped, case and blanks ignored: citeproc-js
 * leaves a title's case as written where pandoc's citeproc makes it sentence case). The few
 * differences are listed in `KNOWN` with their reason. Without pandoc the comparison is skipped,
 * unless `CI` is set.
 *
 * Then what the preview decides itself: the bibliography from the corpus, nothing for a document
 * that only mentions `@someone`, `::: {#refs}`, `nocite`, `suppress-bibliography`,
 * `reference-section-title`, hostile text, and a style that cannot be used.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { URI } from 'vscode-uri';
import { BUNDLED_STYLES } from '../../src/core/cite/styles.js';
import { Methods, type PreviewCitationsResult } from '../../src/server/protocol.js';
import { KNOWN, KNOWN_ENTRIES, norm } from './preview/known.js';
import { citationTexts, htmlText } from './preview/pandocHtml.js';
import { ROOT, start } from './serverHarness.js';

const FIXTURES = join(__dirname, 'fixtures/preview');
const PANDOC = spawnSync('pandoc', ['--version'], { encoding: 'utf8' }).status === 0;
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const styleFile = (name: string) => join(ROOT, 'csl/styles', name);

/** The preview's answer for a document of an in-process server. */
async function preview(files: Record<string, string>, doc: string, settings: Record<string, unknown> = { citationStyle: 'apa' }): Promise<PreviewCitationsResult> {
  const s = await start(files, settings);
  try {
    return await s.client.sendRequest(Methods.previewCitations, { uri: URI.file(doc).toString(), languageId: 'markdown', text: files[doc]! }) as PreviewCitationsResult;
  } finally {
    s.dispose();
  }
}


describe('the preview renders citations as pandoc --citeproc does', () => {
  it.runIf(PANDOC || process.env.CI).each(Object.entries(BUNDLED_STYLES))('%s', async (style, file) => {
    expect(PANDOC, 'CI is set: pandoc must be installed (scripts/setup-test-tools.sh)').toBe(true);
    const md = fixture('groups.md');
    const r = await preview({ '/ws/groups.md': md, '/ws/refs.bib': fixture('refs.bib'), '/ws/style.csl': readFileSync(styleFile(file), 'utf8') }, '/ws/groups.md', { citationStyle: '/ws/style.csl' });
    expect(r.error).toBeUndefined();
    const ours = citationTexts(`${r.citations.map((c) => c.html).join('\n')}\n${r.bibliography?.html ?? ''}`);
    const p = spawnSync('pandoc', ['--citeproc', '--csl', styleFile(file), '-f', 'markdown', '-t', 'html'], { input: md, cwd: FIXTURES, encoding: 'utf8' });
    expect(p.status, p.stderr).toBe(0);
    const theirs = citationTexts(p.stdout);
    expect(ours.citations.map((c) => c.keys)).toEqual(theirs.citations.map((c) => c.keys));
    const known = KNOWN.filter((k) => k.style === style).map((k) => k.pandoc);
    const differ = theirs.citations.map((c, i) => ({ pandoc: c.text, ours: ours.citations[i]!.text }))
      .filter((c) => norm(c.pandoc) !== norm(c.ours) && !known.includes(c.pandoc));
    expect(differ).toEqual([]);
    // Every listed difference is still one (else the list is stale).
    for (const k of known) {
      const i = theirs.citations.findIndex((c) => c.text === k);
      expect(i, k).toBeGreaterThanOrEqual(0);
      expect(norm(ours.citations[i]!.text), k).not.toBe(norm(k));
    }
    expect(ours.entries.map((e) => e.key)).toEqual(theirs.entries.map((e) => e.key));
    const entryText = (t: string) => norm(t).replace(KNOWN_ENTRIES[style]?.without ?? /$^/, '');
    expect(ours.entries.map((e) => entryText(e.text))).toEqual(theirs.entries.map((e) => entryText(e.text)));
  });
});

describe('what the preview renders', () => {
  const BIB = fixture('refs.bib');

  it('shows an unknown key as pandoc does: the key in bold with a question mark, in the style\'s brackets', async () => {
    const r = await preview({ '/ws/a.md': '---\nbibliography: refs.bib\n---\nSee [@nokey] and @smith2020.\n', '/ws/refs.bib': BIB }, '/ws/a.md');
    expect(r.citations[0]!.html).toContain('(<strong>nokey?</strong>)');
    expect(htmlText(r.citations[1]!.html)).toBe('Smith & Doe (2020)');
    expect(htmlText(r.bibliography!.html)).toContain('Smith, J., & Doe, J. (2020)');
  });

  it('takes entries from the corpus when the document declares no bibliography', async () => {
    const r = await preview({ '/ws/a.md': 'A note on [@kwon2023efficient].\n' }, '/ws/a.md');
    expect(htmlText(r.citations[0]!.html)).toBe('(Kwon et al., 2023)');
    expect(r.bibliography!.html).toContain('id="ref-kwon2023efficient"');
  });

  it('renders nothing in a document that declares no bibliography and cites nothing known (a README\'s @user)', async () => {
    const r = await preview({ '/ws/README.md': 'Thanks to @octocat and [@someone].\n' }, '/ws/README.md');
    expect(r).toEqual({ citations: [], bibliography: null });
  });

  it('puts the bibliography into ::: {#refs}, adds nocite keys, and follows suppress-bibliography and reference-section-title', async () => {
    const text = '---\nbibliography: refs.bib\nnocite: "@smith2020"\nreference-section-title: Works <cited>\n---\nSee [@kwon2023efficient].\n\n::: {#refs}\n:::\n\nAfter.\n';
    const r = await preview({ '/ws/a.md': text, '/ws/refs.bib': BIB }, '/ws/a.md');
    const b = r.bibliography!;
    expect(text.slice(b.open!.start, b.open!.end)).toBe('::: {#refs}');
    expect(text.slice(b.close!.start, b.close!.end)).toBe(':::');
    expect(citationTexts(b.html).entries.map((e) => e.key)).toEqual(['kwon2023efficient', 'smith2020']);
    expect(b.html).toContain('<h1 class="unnumbered" id="bibliography">Works &lt;cited&gt;</h1>');
    const suppressed = await preview({ '/ws/a.md': text.replace('nocite', 'suppress-bibliography: true\nnocite'), '/ws/refs.bib': BIB }, '/ws/a.md');
    expect(suppressed.bibliography).toBeNull();
    expect(suppressed.citations.length).toBe(1);
  });

  it('escapes what the document and its bibliography hold', async () => {
    const bib = '@misc{x1, title = {<img src=x onerror=alert(1)>}, author = {<script>Eve}, year = 2024}\n';
    const text = '---\nbibliography: refs.bib\n---\n[see <b onclick=x> @x1, p. <i>3</i>] and [@<script>] and [@{a"b<c}]\n';
    const r = await preview({ '/ws/a.md': text, '/ws/refs.bib': bib }, '/ws/a.md');
    const all = `${r.citations.map((c) => c.html).join('')}${r.bibliography!.html}`;
    expect(all).not.toMatch(/<(?:img|script|b)\b|<[^>]*\bon\w+=/i);
    expect(htmlText(r.bibliography!.html)).toContain('<img src=x onerror=alert(1)>');
  });

  it('says why when the style cannot be used, and renders nothing', async () => {
    const r = await preview({ '/ws/a.md': '---\nbibliography: refs.bib\n---\n[@smith2020]\n', '/ws/refs.bib': BIB, '/ws/bad.csl': '<nostyle/>' }, '/ws/a.md', { citationStyle: '/ws/bad.csl' });
    expect(r.citations).toEqual([]);
    expect(r.error).toMatch(/not a CSL style/);
  });
});
