/**
 * Citations in VS Code's own Markdown preview, in a real VS Code: the demo note's preview shows its
 * citation and its bibliography as `pandoc --citeproc` renders them (compared as text), and a
 * citation typed into the note appears in the preview, from the corpus (the note's own
 * bibliography does not have it). Its own code-server: the note is edited.
 *
 * The Node extension host only. The preview takes markdown-it plugins from the extensions of its own
 * extension host, and code-server ships VS Code's Markdown extension without its browser build
 * (`dist/browser/extension`), so in code-server the preview always runs in the Node host; in
 * vscode.dev it runs in the web worker host, beside our browser build. That build's server half is
 * tested as a Web Worker (`test/unit/webServer.test.ts`: the preview's citations rendered there), and
 * its client half is the same code as the Node build's.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, onTestFailed, test } from 'vitest';
import {
  extensionUnderTest, launchBrowser, openFile, openWorkbench, readmeScreenshot, repoRoot, runCommand, screenshot, startCodeServer, testResults, typeInEditor, type CodeServer,
} from './harness';

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
  const workspace = mkdtempSync(join(tmpdir(), 'mlsys-e2e-preview-'));
  cpSync(join(repoRoot, 'demo'), workspace, { recursive: true });
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;

  beforeAll(async () => {
    server = await startCodeServer({
      workspace, extensionPaths: [extensionUnderTest()],
    });
    browser = await launchBrowser();
    page = await openWorkbench(browser, server.url, workspace);
    await page.locator('.activitybar .action-item a[aria-label^="MLSys Papers"]').waitFor({ timeout: 60_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  test('render as pandoc --citeproc renders them, and follow the note as it is written', async () => {
    onTestFailed(() => screenshot(page, join(testResults, 'preview-failed.png')));
    const expected = pandocTexts(workspace);
    expect(expected.citations).toEqual(['(Yu et al., 2022)']);
    await openFile(page, 'notes.md');
    await runCommand(page, 'Markdown: Open Preview to the Side');
    const doc = preview(page);
    const cite = doc.locator('span.citation[data-cites="yu2022orca"]');
    await cite.waitFor({ timeout: 60_000 });
    expect(norm((await cite.textContent()) ?? '')).toBe(norm(expected.citations[0]!));
    const entries = () => doc.locator('#refs .csl-entry').allTextContents();
    await expect.poll(async () => (await entries()).map(norm), { timeout: 30_000 }).toEqual(expected.entries.map(norm));
    await runCommand(page, 'View: Close Primary Side Bar');
    await readmeScreenshot(page, 'preview');

    // A citation typed into the note: the corpus has the work, the note's bibliography does not.
    await page.keyboard.press('ControlOrMeta+1');
    await page.keyboard.press('ControlOrMeta+End');
    await typeInEditor(page, '\n\nPaged attention [@kwon2023efficient] keeps the KV cache in blocks.\n', { literal: true });
    const added = doc.locator('span.citation[data-cites="kwon2023efficient"]');
    await added.waitFor({ timeout: 30_000 });
    expect(await added.textContent()).toBe('(Kwon et al., 2023)');
    await expect.poll(async () => (await entries()).length, { timeout: 30_000 }).toBe(2);
    expect((await entries())[0]).toMatch(/^Kwon, W\., Li, Z\./);
  });
});
