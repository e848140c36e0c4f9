/**
 * Restricted Mode, in a real VS Code: a folder the user has not trusted, whose workspace settings
 * name a corpus file and a library of their own and a CSL style. The extension runs (package.json
 * `capabilities.untrustedWorkspaces: limited`): the Topics view, search, citing with the
 * bibliography following, and formatted references over the bundled corpus work; what the
 * workspace settings name (`restrictedConfigurations`) is not used. A control opens a copy of the
 * same folder trusted, where the corpus file and the library are read.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  extensionUnderTest, launchBrowser, openFile, openWorkbench, quickInput, repoRoot, runCommand, save, startCodeServer, waitForEditorText, waitForLibraries,
  waitForLogLine, type CodeServer,
} from './harness';

const VLLM_TITLE = 'Efficient Memory Management for Large Language Model Serving with PagedAttention';
const PROBE_TITLE = 'Restricted Mode Probe Entry From The Workspace';
const LIBRARY_PROBE = 'Restricted Mode Probe From A Workspace Library';
const workspace = mkdtempSync(join(tmpdir(), 'mlsys-e2e-restricted-'));
cpSync(join(repoRoot, 'demo'), workspace, { recursive: true });
writeFileSync(join(workspace, '.vscode/settings.json'), JSON.stringify({
  ...JSON.parse(readFileSync(join(workspace, '.vscode/settings.json'), 'utf8')),
  'mlsysPapers.corpusFiles': ['mine.yaml'],
  'mlsysPapers.libraries': ['lab.bib'],
  'mlsysPapers.citationStyle': 'ieee',
}, null, 2));
writeFileSync(join(workspace, 'lab.bib'), `@misc{probe2024library,\n  title = {${LIBRARY_PROBE}},\n  year = {2024},\n}\n`);
writeFileSync(join(workspace, 'mine.yaml'), `- key: probe2024restricted
  type: misc
  kind: paper
  title: "${PROBE_TITLE}"
  authors: [{given: Ann, family: Probe}]
  year: 2024
  topics: [serving.memory]
  summary: An entry only this workspace's corpus file has.
  sources: [curated]
  verified: ["https://example.org/probe"]
`);
let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;

beforeAll(async () => {
  server = await startCodeServer({ workspace, extensionPaths: [extensionUnderTest()], trusted: false });
  browser = await launchBrowser();
  page = await openWorkbench(browser, server.url, workspace);
  // The extension's contributions (its view, its commands in the palette) are registered.
  await page.locator('.activitybar .action-item a[aria-label^="MLSys Papers"]').waitFor({ timeout: 60_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

/** The rows of the visible quick pick, in list order. */
async function quickPickRows(): Promise<string[]> {
  return page.locator('.quick-input-widget .monaco-list-row').evaluateAll((els) =>
    els.filter((el) => (el as HTMLElement).offsetParent !== null)
      .map((el) => [Number(el.getAttribute('data-index')), el.textContent ?? ''] as const).sort((a, b) => a[0] - b[0]).map(([, t]) => t));
}

describe('MLSys Papers in Restricted Mode', () => {
  test('the folder is untrusted, and the Topics view, search and citing work over the bundled corpus', async () => {
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 30_000 });
    await page.locator('.activitybar .action-item a[aria-label^="MLSys Papers"]').click();
    await page.locator('.monaco-list-row', { hasText: 'LLM inference serving' }).first().waitFor({ timeout: 60_000 });

    await openFile(page, 'notes.md');
    await page.keyboard.press('Control+End');
    await runCommand(page, 'MLSys Papers: Search');
    await quickInput.type(page, 'paged attention');
    const first = page.locator('.quick-input-widget .monaco-list-row[data-index="0"] >> visible=true');
    await expect.poll(async () => (await first.textContent()) ?? '', { timeout: 30_000 }).toContain(VLLM_TITLE);
    await page.keyboard.press('Enter');
    await waitForEditorText(page, '[@kwon2023efficient]');
    await save(page);
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toContain('[@kwon2023efficient]');
    // The bibliography the note declares follows, in Restricted Mode too.
    await expect.poll(() => readFileSync(join(workspace, 'references.bib'), 'utf8'), { timeout: 15_000 }).toContain('@inproceedings{kwon2023efficient,');
  });

  test('the CSL style, corpus file and library named by the workspace settings are not used', async () => {
    // The style: the workspace says IEEE; Restricted Mode leaves the user's (default) APA.
    await page.keyboard.press('Escape');
    await openFile(page, 'notes.md');
    await runCommand(page, 'MLSys Papers: Copy Formatted Reference');
    await quickInput.type(page, 'kwon2023efficient');
    const first = page.locator('.quick-input-widget .monaco-list-row[data-index="0"] >> visible=true');
    await expect.poll(async () => (await first.textContent()) ?? '', { timeout: 30_000 }).toContain(VLLM_TITLE);
    await page.keyboard.press('Enter');
    const clip = () => page.evaluate(() => navigator.clipboard.readText());
    await expect.poll(clip, { timeout: 15_000 }).toContain('Efficient Memory Management');
    const reference = await clip();
    expect(reference).toMatch(/^Kwon, W\., Li, Z\., .*\(2023\)\./); // APA

    // The corpus file and the library: their entries are not searchable, while the bundled corpus is.
    await runCommand(page, 'MLSys Papers: Search');
    await quickInput.type(page, 'Restricted Mode Probe');
    await expect.poll(async () => (await quickPickRows()).length, { timeout: 30_000 }).toBeGreaterThan(0);
    // The server reads corpus files right after it starts; give it well past that to show the entry if it had read it.
    for (let i = 0; i < 10; i++) {
      const rows = (await quickPickRows()).join('\n');
      expect(rows).not.toContain(PROBE_TITLE);
      expect(rows).not.toContain(LIBRARY_PROBE);
      await page.waitForTimeout(500);
    }
    await page.keyboard.press('Escape');
  });

  test('control: the same folder, trusted, does read its corpus file and library (so the test above can fail)', async () => {
    // Its own code-server and browser on a copy of the folder: the one above stays untrusted.
    const trustedCopy = mkdtempSync(join(tmpdir(), 'mlsys-e2e-trusted-'));
    cpSync(workspace, trustedCopy, { recursive: true });
    const control = await startCodeServer({ workspace: trustedCopy, extensionPaths: [extensionUnderTest()] });
    const controlBrowser = await launchBrowser();
    try {
      const p = await openWorkbench(controlBrowser, control.url, trustedCopy);
      await p.locator('.activitybar .action-item a[aria-label^="MLSys Papers"]').waitFor({ timeout: 60_000 });
      await openFile(p, 'notes.md'); // activates the extension
      // Searched only once both are loaded: the picker does not search again when a load ends, so a
      // search typed before would miss them. The library: the status bar counts its entry. The
      // corpus file: the log records it (nothing else shows a corpus file read without a problem).
      await waitForLibraries(p, { 'lab.bib': 1 });
      await waitForLogLine(control, /corpus: \d+ entries \(1 from 1 file\(s\) of yours, 0 problem\(s\)\)/);
      await runCommand(p, 'MLSys Papers: Search');
      await quickInput.type(p, 'Restricted Mode Probe');
      const rows = () => p.locator('.quick-input-widget .monaco-list-row').evaluateAll((els) => els.map((el) => el.textContent ?? '').join('\n'));
      // The answer to the query typed: no load left to race.
      const missing = async () => { const r = await rows(); return [PROBE_TITLE, LIBRARY_PROBE].filter((t) => !r.includes(t)); };
      await expect.poll(missing, { timeout: 30_000 }).toEqual([]);
    } finally {
      await controlBrowser.close();
      await control.stop();
      rmSync(trustedCopy, { recursive: true, force: true });
    }
    // It starts a code-server and a browser of its own (a beforeAll's work, 120 s allowed there) before
    // its waits: the config's 180 s would cut them short, with a timeout instead of what was not loaded.
  }, 300_000);
});
