// The Markdown preview's citations on the real Markdown documents (issue 30), against
// `pandoc --citeproc` HTML: per source file, the language server's `mlsysPapers/previewCitations`
// (what the preview shows) and pandoc's HTML of the same text (knitr's view of R Markdown), with
// the bibliography the file renders with and the extension's default style (APA). Compared as text
// (tags dropped, case and blanks ignored: citeproc-js leaves a title's case as written where
// pandoc's citeproc makes it sentence case): each citation in document order, and the bibliography's
// entries (keys in order, texts). Disagreements are `previewCitation` and `previewEntry` (KINDS in
// compare.mjs), listed in KNOWN-LIMITS.json when they are genuine limits.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { docDir, EMPTY_BIB, FALLBACK_CSL, knitrView, languageOf, lspSession, markdownBibliography, run, sourcesOf } from './compare.mjs';
// The unit tests' reading of pandoc's and the preview's HTML (this module runs under vitest only).
import { citationTexts } from '../unit/preview/pandocHtml.ts';

/** Text compared: case and blanks ignored. */
export const norm = (s) => s.toLowerCase().replace(/\s+/g, '');

/**
 * What pandoc's HTML shows of a file's citations, with the bibliography it renders with (its front
 * matter's, else `_quarto.yml`'s or bookdown's `index.Rmd`'s; an empty one when none exists).
 */
function pandocPreview(doc, file, text) {
  const dir = docDir(doc);
  const j = run('pandoc', ['-f', 'markdown', '-t', 'json'], dir, undefined, text);
  if (j.status !== 0) return { error: `pandoc: ${j.stderr.trim().split('\n')[0]}` };
  const declared = markdownBibliography(doc, file, JSON.parse(j.stdout).meta ?? {});
  const present = declared.filter((b) => existsSync(join(dir, b)));
  const bibArgs = present.length ? present.map((b) => `--bibliography=${b}`) : [`--bibliography=${EMPTY_BIB}`];
  const r = run('pandoc', ['-f', 'markdown', '-t', 'html', '--citeproc', `--csl=${FALLBACK_CSL}`, ...bibArgs], dir, undefined, text);
  if (r.status !== 0) return { error: `pandoc --citeproc: ${r.stderr.trim().split('\n')[0]}` };
  return citationTexts(r.stdout);
}

/**
 * Compares the preview with pandoc on each Markdown source file of a document.
 *
 * @returns `{ diffs: [{ doc, kind, key, detail }], figures: { files, citations, entries } }`; a
 *   citation's key is its `data-cites`, an entry's its key
 */
export async function comparePreview(doc) {
  const dir = docDir(doc);
  const diffs = [];
  const figures = { files: 0, citations: 0, entries: 0 };
  const add = (kind, key, detail) => diffs.push({ doc: doc.id, kind, key, detail });
  for (const file of sourcesOf(doc)) {
    const raw = readFileSync(join(dir, file), 'utf8');
    const text = /\.(rmd|qmd)$/i.test(file) ? knitrView(raw) : raw;
    const theirs = pandocPreview(doc, file, text);
    if (theirs.error) { add('oracle', '', `${file}: ${theirs.error}`); continue; }
    if (!theirs.citations.length) continue;
    figures.files++;
    const session = await lspSession(doc);
    let answer;
    try {
      answer = await session.conn.sendRequest('mlsysPapers/previewCitations', { uri: pathToFileURL(join(dir, file)).href, languageId: languageOf(file), text });
      await session.close();
    } finally {
      session.dispose();
    }
    const ours = citationTexts(`${answer.citations.map((c) => c.html).join('\n')}\n${answer.bibliography?.html ?? ''}`);
    figures.citations += theirs.citations.length;
    figures.entries += theirs.entries.length;
    for (let i = 0; i < Math.max(theirs.citations.length, ours.citations.length); i++) {
      const t = theirs.citations[i], o = ours.citations[i];
      if (!t || !o || t.keys !== o.keys || norm(t.text) !== norm(o.text)) {
        add('previewCitation', (t ?? o).keys, `${file}: #${i + 1}: pandoc ${JSON.stringify(t?.text ?? null)}, preview ${JSON.stringify(o?.text ?? null)}`);
      }
    }
    const keysT = theirs.entries.map((e) => e.key).join(' '), keysO = ours.entries.map((e) => e.key).join(' ');
    if (keysT !== keysO) add('previewEntry', '', `${file}: entries: pandoc [${keysT}], preview [${keysO}]`);
    else {
      for (const [i, t] of theirs.entries.entries()) {
        if (norm(t.text) !== norm(ours.entries[i].text)) add('previewEntry', t.key, `${file}: pandoc ${JSON.stringify(t.text)}, preview ${JSON.stringify(ours.entries[i].text)}`);
      }
    }
  }
  return { diffs, figures };
}
