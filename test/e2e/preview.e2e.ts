/**
 * Citations in VS Code's own Markdown preview, in a real VS Code, with the extension in the Node
 * extension host and in the web worker extension host (its browser build, as vscode.dev runs it):
 * the demo note's preview shows its citation and its bibliography as `pandoc --citeproc` renders
 * them (compared as text), and a citation typed into the note appears in the preview, from the
 * corpus (the note's own bibliography does not have it). Each host gets its own code-server; in the
 * web worker host VS Code's Markdown extension runs there too (the preview takes markdown-it
 * plugins only from the extensions of its own host), as in vscode.dev.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { extensionUnderTest, launchBrowser, openFile, openWorkbench, readmeScreenshot, repoRoot, runCommand, startCodeServer, typeInEditor } from './harness';

/** Text as compared with pandoc's: case and blanks ignored (see test/unit/preview/known.ts). */
const norm = (s: string) => s.toLowerCase().replace(/\s+/g, '');

/** What `pandoc --citeproc` (APA, the extension's default style) makes of the demo note: its citations' and entries' texts. */
function pandocTexts(workspace: string): { citations: string[]; entries: string[] } {
  const r = spawnSync('pandoc', ['--citeproc', '--csl', join(repoRoot, 'csl/styles/apa.csl'), '-f', 'markdown', '-t', 'html', 'notes.md'], { cwd: workspace, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pandoc failed: ${r.stderr}`);
  const text = (html: string) => html.replace(/<[^>]*>/g, '').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
  return {
    citations: [...r.stdout.matchAll(/<span class="citation"[^>]*>([\s\S]*?)<\/span>/g)].map((m) => text(m[1]!)),
    entries: [...r.stdout.matchAll(/<div id="ref-[^"]*" class="csl-entry"[^>]*>([\s\S]*?)<\/div>/g)].map((m) => text(m[1]!)),
  };
}

/** The Markdown preview's document (a webview: VS Code's outer frame, then the content's). */
const preview = (page: Page) => page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');

describe('citations in the Markdown preview', () => {
  for (const host of ['node', 'web'] as const) {
    test(`render as pandoc --citeproc renders them, and follow the note as it is written (${host} extension host)`, async () => {
      const workspace = mkdtempSync(join(tmpdir(), `mlsys-e2e-preview-${host}-`));
      cpSync(join(repoRoot, 'demo'), workspace, { recursive: true });
      const expected = pandocTexts(workspace);
      expect(expected.citations).toEqual(['(Yu et al., 2022)']);
      const server = await startCodeServer({
        workspace, extensionPaths: [extensionUnderTest()],
        // The preview asks the extensions of its own extension host for markdown-it plugins: in the
        // web worker host, VS Code's Markdown extension goes there too, as in vscode.dev.
        settings: host === 'web' ? { 'remote.extensionKind': { 'mlsys-papers.mlsys-papers': ['web'], 'vscode.markdown-language-features': ['web'] } } : {},
      });
      const browser = await launchBrowser();
      try {
        const page = await openWorkbench(browser, server.url, workspace);
        await page.locator('.activitybar .action-item a[aria-label^="MLSys Papers"]').waitFor({ timeout: 60_000 });
        await openFile(page, 'notes.md');
        await runCommand(page, 'Markdown: Open Preview to the Side');
        const doc = preview(page);
        const cite = doc.locator('span.citation[data-cites="yu2022orca"]');
        await cite.waitFor({ timeout: 60_000 });
        expect(norm((await cite.textContent()) ?? '')).toBe(norm(expected.citations[0]!));
        const entries = () => doc.locator('#refs .csl-entry').allTextContents();
        await expect.poll(async () => (await entries()).map(norm), { timeout: 30_000 }).toEqual(expected.entries.map(norm));
        if (host === 'node') {
          await runCommand(page, 'View: Close Primary Side Bar');
          await readmeScreenshot(page, 'preview');
        }

        // A citation typed into the note: the corpus has the work, the note's bibliography does not.
        await page.keyboard.press('ControlOrMeta+1');
        await page.keyboard.press('ControlOrMeta+End');
        await typeInEditor(page, '\n\nPaged attention [@kwon2023efficient] keeps the KV cache in blocks.\n', { literal: true });
        const added = doc.locator('span.citation[data-cites="kwon2023efficient"]');
        await added.waitFor({ timeout: 30_000 });
        expect(await added.textContent()).toBe('(Kwon et al., 2023)');
        await expect.poll(async () => (await entries()).length, { timeout: 30_000 }).toBe(2);
        expect((await entries())[0]).toMatch(/^Kwon, W\., Li, Z\./);
      } finally {
        await browser.close();
        await server.stop();
        rmSync(workspace, { recursive: true, force: true });
      }
    });
  }
});
