import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { join } from 'node:path';
import { launchBrowser, openWorkbench, repoRoot, screenshot, startCodeServer, type CodeServer } from './harness';

const workspace = join(repoRoot, 'demo');
let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;

beforeAll(async () => {
  server = await startCodeServer({ workspace, extensionPaths: [process.env.MLSYS_EXTENSION_PATH ?? repoRoot] });
  browser = await launchBrowser();
  page = await openWorkbench(browser, server.url, workspace);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test('the workbench loads on demo/ with the extension installed', async () => {
  await expect(page.locator('.monaco-workbench').count()).resolves.toBe(1);
  await screenshot(page, join(repoRoot, 'test-results/smoke.png'));
});
