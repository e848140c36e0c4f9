/**
 * Differential test on real documents (issue 21): for each document of MANIFEST.json, the keys the
 * reference tools cite and leave undefined (pdflatex + BibTeX or biber; pandoc and its citeproc;
 * Quarto's cross-reference rule) against what the language server reads and flags with no settings,
 * and what the CLI's `export --cited-in` and `sync --dry-run` do on the LaTeX projects. Every
 * disagreement fails, except those KNOWN-LIMITS.json lists with its reason. Every finding of the
 * record checks (`check --json` on each bibliography) and every hint at a system named but not cited
 * fails too, unless REVIEWED-CHECKS.json says a person reviewed it and found it right. The rules and the tools'
 * messages are in compare.mjs; `node test/realdocs/report.mjs` prints the same table without failing.
 *
 * The documents come from Debian packages that scripts/setup-test-tools.sh installs (MANIFEST.json),
 * copied into a temporary folder; with REALDOCS_SET=github, from the developer-only GitHub set
 * (MANIFEST.github.json, `node test/realdocs/fetch.mjs`). Needs dist/cli.js (`node scripts/build.mjs`);
 * `npm run test:realdocs` builds it. With CI=true a missing package fails the document; elsewhere it
 * is skipped with the reason.
 */
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module shared with report.mjs, no declarations
import { applyLimits, CLI, compareDocument, formatDiffs, installedVersion, knitrView, missingOf, readKnownLimits, readManifest, readReviewedChecks, removeCopies, SET } from './compare.mjs';

interface Doc { id: string; kind: string; package?: string; version?: string; upstream?: string; repo?: string; commit?: string; licence: string; files: { from: string; to: string }[]; roots?: string[] }
interface Diff { doc: string; kind: string; key: string; detail?: string }
interface Limit { doc: string; kind: string; key: string; reason: string }

const manifest: { documents: Doc[] } = readManifest();
// A record finding or a named-system hint passes only when a person reviewed it and found it right.
const limits: Limit[] = [...readKnownLimits(), ...readReviewedChecks()];

describe('real documents: the set', () => {
  it('has at least 20 LaTeX projects and 20 Markdown / R Markdown / Quarto documents, each with its source and licence', () => {
    const latex = manifest.documents.filter((d) => d.kind === 'latex');
    expect(latex.length).toBeGreaterThanOrEqual(20);
    expect(manifest.documents.length - latex.length).toBeGreaterThanOrEqual(20);
    for (const d of manifest.documents) {
      if (SET === 'github') {
        expect(d.repo, d.id).toMatch(/^[\w.-]+\/[\w.-]+$/);
        expect(d.commit, d.id).toMatch(/^[0-9a-f]{40}$/);
      } else {
        expect(d.package, d.id).toMatch(/^[a-z0-9][a-z0-9.+-]+$/);
        expect(d.version, d.id).toBeTruthy();
        expect(d.upstream, d.id).toMatch(/^https:\/\//);
        // Copied from the installed package only: never a path a test would write to, never the network.
        for (const f of d.files) expect(f.from, d.id).toMatch(/^\/usr\/(share|lib)\//);
      }
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

  it('the server is built', () => {
    expect(existsSync(CLI), 'run: node scripts/build.mjs').toBe(true);
  });
});

const CI = !!process.env.CI;
afterAll(() => removeCopies());

describe('real documents: the server and the CLI agree with the reference tools', () => {
  for (const doc of manifest.documents) {
    const missing: string[] = missingOf(doc);
    // Outside CI a machine without the packages skips, saying why; in CI that is a failure, never a skip.
    it.skipIf(!CI && (missing.length > 0 || !existsSync(CLI)))(`${doc.id} (${doc.kind}, ${doc.package ?? doc.repo})`, async () => {
      if (missing.length) expect.fail(missing.join('\n'));
      const result = await compareDocument(doc);
      const { open }: { open: Diff[] } = applyLimits(result.diffs, limits);
      const installed = doc.package ? installedVersion(doc.package) : undefined;
      const version = installed && installed !== doc.version ? ` (${doc.package} ${installed} installed; the set was checked with ${doc.version})` : '';
      // One message with every disagreement of the document, per kind, with the keys.
      if (open.length) expect.fail(`${open.length} disagreement(s) with the reference tools (${result.figures.oracleCited} keys cited)${version}:\n${formatDiffs(open)}`);
    });
  }
});
