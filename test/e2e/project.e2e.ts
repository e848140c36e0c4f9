/**
 * A multi-file LaTeX paper in a real VS Code: the section file, opened alone, carries no
 * `% !TEX root` magic comment; the language server finds its root (`main.tex`, which `\input`s it
 * and declares `\bibliography{refs}`) from the workspace's `.tex` files. A key of the root's `.bib`
 * is not flagged, a key nobody defines is flagged as "not in refs.bib" (so the root's bibliography
 * was read), and `\cite{` completes the root's keys. Its own code-server: a workspace of its own.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { extensionUnderTest, launchBrowser, openFile, openWorkbench, resetWorkbench, startCodeServer, typeInEditor, type CodeServer } from './harness';

const workspace = mkdtempSync(join(tmpdir(), 'mlsys-e2e-project-'));
mkdirSync(join(workspace, 'sections'));
writeFileSync(join(workspace, 'main.tex'), [
  '\\documentclass{article}',
  '\\begin{document}',
  '\\input{sections/intro}',
  '\\bibliographystyle{plain}',
  '\\bibliography{refs}',
  '\\end{document}',
  '',
].join('\n'));
writeFileSync(join(workspace, 'sections/intro.tex'), [
  '\\section{Introduction}',
  'Our scheduler builds on Quokka~\\cite{doe2024quokka}, unlike~\\cite{nosuch1999}.',
  '',
  '',
].join('\n'));
writeFileSync(join(workspace, 'refs.bib'), [
  '@inproceedings{doe2024quokka,',
  '  title     = {Quokka: A Scheduler for {GPU} Clusters},',
  '  author    = {Doe, Jane},',
  '  booktitle = {EuroSys},',
  '  year      = {2024},',
  '}',
  '',
].join('\n'));
let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;

beforeAll(async () => {
  server = await startCodeServer({ workspace, extensionPaths: [extensionUnderTest()] });
  browser = await launchBrowser();
  page = await openWorkbench(browser, server.url, workspace);
  await page.locator('.activitybar .action-item a[aria-label^="MLSys Papers"]').waitFor({ timeout: 60_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('a multi-file LaTeX paper in a real VS Code', () => {
  test('a section file opened alone gets its root\'s bibliography: no false diagnostic, and its keys complete', async () => {
    await resetWorkbench(page);
    await openFile(page, 'sections/intro.tex');
    await page.keyboard.press('Control+Shift+M'); // the Problems panel
    const problems = page.locator('.markers-panel');
    // The key nobody defines is flagged against the root's refs.bib: the root was found.
    await expect.poll(async () => (await problems.textContent()) ?? '', { timeout: 60_000 })
      .toContain('Unknown citation key "nosuch1999": not in refs.bib, nor in the MLSys Papers corpus.');
    expect((await problems.textContent()) ?? '').not.toContain('doe2024quokka');
    await page.keyboard.press('Control+Shift+M');
    // The panel took the focus: back to the section's editor, at its end.
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+End');
    await typeInEditor(page, 'See \\cite{doe20');
    const first = page.locator('.suggest-widget .monaco-list-row[data-index="0"]');
    await expect.poll(async () => (await first.textContent()) ?? '', { timeout: 30_000 }).toContain('doe2024quokka');
    await page.keyboard.press('Escape');
  });
});
