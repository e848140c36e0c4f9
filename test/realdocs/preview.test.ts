/**
 * The Markdown preview on real documents (issue 30): for each Markdown, R Markdown and bookdown
 * document of the set, every file's citations as the preview renders them (the language server's
 * `mlsysPapers/previewCitations`, no settings: APA) against `pandoc --citeproc` HTML of the same
 * text with the bibliography the file renders with, compared as text; and its bibliography's
 * entries (keys in order, texts). Every disagreement fails, except those KNOWN-LIMITS.json lists
 * with its reason (kinds `previewCitation`, `previewEntry`). The comparison is `previewCompare.mjs`.
 */
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module shared with report.mjs, no declarations
import { applyLimits, CLI, formatDiffs, missingOf, readKnownLimits, readManifest, removeCopies } from './compare.mjs';
// @ts-expect-error plain ES module, no declarations
import { comparePreview } from './previewCompare.mjs';

interface Doc { id: string; kind: string; package?: string; repo?: string }
interface Diff { doc: string; kind: string; key: string; detail?: string }

const manifest: { documents: Doc[] } = readManifest();
const limits = readKnownLimits();
const CI = !!process.env.CI;
afterAll(() => removeCopies());

describe('real documents: the Markdown preview renders citations as pandoc --citeproc does', () => {
  for (const doc of manifest.documents.filter((d) => d.kind !== 'latex')) {
    const missing: string[] = missingOf(doc);
    it.skipIf(!CI && (missing.length > 0 || !existsSync(CLI)))(`${doc.id} (${doc.kind}, ${doc.package ?? doc.repo})`, async () => {
      if (missing.length) expect.fail(missing.join('\n'));
      const { diffs, figures } = await comparePreview(doc);
      const { open }: { open: Diff[] } = applyLimits(diffs, limits);
      if (open.length) {
        expect.fail(`${open.length} disagreement(s) with pandoc --citeproc (${figures.citations} citations, ${figures.entries} entries in ${figures.files} file(s)):\n${formatDiffs(open)}\n${open.map((d) => `  ${d.detail}`).join('\n')}`);
      }
    });
  }
});
