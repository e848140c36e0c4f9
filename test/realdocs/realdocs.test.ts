/**
 * Differential test on real documents (issue 21): for each document of MANIFEST.json, the keys the
 * reference tools cite and leave undefined (pdflatex + BibTeX or biber; pandoc and its citeproc;
 * Quarto's cross-reference rule) against what the language server reads and flags with no settings,
 * and what the CLI's `export --cited-in` and `sync --dry-run` do on the LaTeX projects. Every
 * disagreement fails, except those KNOWN-LIMITS.json lists with its reason. The rules and the tools'
 * messages are in compare.mjs; `node test/realdocs/report.mjs` prints the same table without failing.
 *
 * Needs dist/cli.js (`node scripts/build.mjs`) and the documents (`node test/realdocs/fetch.mjs`);
 * `npm run test:realdocs` does both.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module shared with report.mjs, no declarations
import { applyLimits, CLI, compareDocument, DOCS, formatDiffs, knitrView, readKnownLimits, readManifest } from './compare.mjs';

interface Doc { id: string; kind: string; repo: string; commit: string; licence: string; files: { from: string; to: string }[]; roots?: string[] }
interface Diff { doc: string; kind: string; key: string; detail?: string }
interface Limit { doc: string; kind: string; key: string; reason: string }

const manifest: { documents: Doc[] } = readManifest();
const limits: Limit[] = readKnownLimits();

describe('real documents: the set', () => {
  it('has at least 20 LaTeX projects and 20 Markdown / R Markdown / Quarto documents, each with its source and licence', () => {
    const latex = manifest.documents.filter((d) => d.kind === 'latex');
    expect(latex.length).toBeGreaterThanOrEqual(20);
    expect(manifest.documents.length - latex.length).toBeGreaterThanOrEqual(20);
    for (const d of manifest.documents) {
      expect(d.repo, d.id).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(d.commit, d.id).toMatch(/^[0-9a-f]{40}$/);
      expect(d.licence, d.id).toBeTruthy();
      if (d.kind === 'latex') expect(d.roots?.length, d.id).toBeGreaterThan(0);
    }
  });

  it('every known limit names a document of the set, a kind and a reason', () => {
    const ids = new Set(manifest.documents.map((d) => d.id));
    for (const l of limits) {
      expect(l.doc === '*' || ids.has(l.doc), JSON.stringify(l)).toBe(true);
      expect(l.reason.length, JSON.stringify(l)).toBeGreaterThan(20);
    }
  });

  it("gives pandoc knitr's view of an R Markdown chunk: a code block, line for line", () => {
    const rmd = '```{r setup, include=FALSE}\nx <- c("@CRAN@")\n```\n\n  ```{python}\nprint(1)\n  ```\n\n```{.r}\nkept\n```\n';
    const out: string = knitrView(rmd);
    expect(out).toBe('```{.r}\nx <- c("@CRAN@")\n```\n\n  ```{.python}\nprint(1)\n  ```\n\n```{.r}\nkept\n```\n');
    expect(out.split('\n')).toHaveLength(rmd.split('\n').length);
  });

  it('is fetched and the server is built', () => {
    const missing = manifest.documents.filter((d) => !existsSync(join(DOCS, d.id))).map((d) => d.id);
    expect(missing, 'run: node test/realdocs/fetch.mjs').toEqual([]);
    expect(existsSync(CLI), 'run: node scripts/build.mjs').toBe(true);
  });
});

describe('real documents: the server and the CLI agree with the reference tools', () => {
  for (const doc of manifest.documents) {
    it.skipIf(!existsSync(join(DOCS, doc.id)) || !existsSync(CLI))(`${doc.id} (${doc.kind}, ${doc.repo})`, async () => {
      const result = await compareDocument(doc);
      const { open }: { open: Diff[] } = applyLimits(result.diffs, limits);
      // One message with every disagreement of the document, per kind, with the keys.
      if (open.length) expect.fail(`${open.length} disagreement(s) with the reference tools (${result.figures.oracleCited} keys cited):\n${formatDiffs(open)}`);
    });
  }
});
