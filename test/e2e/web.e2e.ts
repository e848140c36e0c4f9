/**
 * The browser build in a real VS Code: the same user flows as `main.e2e.ts` (Topics view, search,
 * insert into Markdown and LaTeX, bibliography sync, completion, details, export, real consumers),
 * with the extension in code-server's web worker extension host — its `browser` entry point, the
 * language server in a Web Worker, every workspace file read and written through
 * `vscode.workspace.fs` — as vscode.dev and github.dev run it.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

process.env.MLSYS_E2E_EXTENSION_HOST = 'web';
const { extensionUnderTest, launchBrowser, openWorkbench, repoRoot, runCommand, startCodeServer } = await import('./harness');
await import('./main.e2e');

describe('the browser build', () => {
  test('runs in the web worker extension host, not in a Node one', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'mlsys-e2e-web-'));
    cpSync(join(repoRoot, 'demo'), workspace, { recursive: true });
    const server = await startCodeServer({ workspace, extensionPaths: [extensionUnderTest()] });
    const browser = await launchBrowser();
    try {
      const page = await openWorkbench(browser, server.url, workspace);
      // The Topics view fills from the server's corpus: the Web Worker answered.
      await page.locator('.activitybar .action-item a[aria-label^="MLSys Papers"]').click();
      await page.locator('.monaco-list-row', { hasText: 'Distributed training' }).first().waitFor({ timeout: 60_000 });
      await runCommand(page, 'Developer: Show Running Extensions');
      // Only the Running Extensions editor's rows: the command palette keeps rows of its own (hidden,
      // some naming MLSys Papers) in the page after it closes.
      const row = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: 'MLSys Papers' }).first();
      await row.waitFor({ timeout: 60_000 });
      await expect.poll(async () => (await row.textContent()) ?? '', { timeout: 30_000 }).toContain('web worker');
    } finally {
      await browser.close();
      await server.stop();
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
