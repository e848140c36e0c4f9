/**
 * The user's own library, in a real VS Code: a Zotero-style `.bib` outside the workspace named by
 * the user's `mlsysPapers.libraries`. The status bar counts its entries; the Topics view shows it
 * under "Libraries" by keyword; the search finds its entries (with the library's name), and citing
 * one in a LaTeX paper copies its text, as written, with the macro it uses, into the paper's
 * bibliography on disk, while the library file is left as it was. When the file changes on disk (as
 * Better BibTeX rewrites its export), the status bar and the search follow. Its own code-server: the
 * library would change what the other files' tests see.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  extensionUnderTest, launchBrowser, openFile, openWorkbench, quickInput, repoRoot, resetWorkbench, runCommand, save, startCodeServer, waitForEditorText,
  waitForLibraries, type CodeServer,
  expandTreeRows, topicsTree as harnessTopicsTree, treeRow as harnessTreeRow,
} from './harness';

const QUOKKA = 'Quokka: A Scheduler for GPU Clusters';
const LIBRARY = [
  '% Exported by Better BibTeX for Zotero',
  '@string{eurosys = {Proceedings of the European Conference on Computer Systems}}',
  '',
  '@inproceedings{doe2024quokka,',
  '  title     = {Quokka: A Scheduler for {GPU} Clusters},',
  '  author    = {Doe, Jane and Roe, Richard},',
  '  booktitle = eurosys,',
  '  year      = {2024},',
  '  keywords  = {scheduling, clusters},',
  '}',
  '',
  '@article{lee2021tiles,',
  '  title    = {Tiles for {GPUs}},',
  '  author   = {Lee, Min},',
  '  journal  = {Journal of Kernels},',
  '  year     = {2021},',
  '  keywords = {kernels},',
  '}',
  '',
].join('\r\n');

const workspace = mkdtempSync(join(tmpdir(), 'mlsys-e2e-library-'));
cpSync(join(repoRoot, 'demo'), workspace, { recursive: true });
const libraryDir = mkdtempSync(join(tmpdir(), 'mlsys-e2e-zotero-'));
const libraryFile = join(libraryDir, 'zotero.bib');
writeFileSync(libraryFile, LIBRARY);
let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;

beforeAll(async () => {
  server = await startCodeServer({ workspace, extensionPaths: [extensionUnderTest()], settings: { 'mlsysPapers.libraries': [libraryFile] } });
  browser = await launchBrowser();
  page = await openWorkbench(browser, server.url, workspace);
  await page.locator('.activitybar .action-item a[aria-label^="MLSys Papers"]').waitFor({ timeout: 60_000 });
});

beforeEach(() => resetWorkbench(page));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(libraryDir, { recursive: true, force: true });
});

const topicsTree = () => harnessTopicsTree(page);
const treeRow = (label: string) => harnessTreeRow(page, label);
const expand = (...labels: string[]) => expandTreeRows(page, ...labels);
/**
 * The libraries' status bar item. Its accessible label is its tooltip, one line per library
 * ("zotero.bib: 2 entries", see the harness's waitForLibraries); its text, the count of all of them
 * (an open document's bibliography joins too).
 */
const statusItem = () => page.locator('[aria-label^="MLSys Papers libraries"]').first();


describe('your own library in a real VS Code', () => {
  test('the status bar counts the library, and the Topics view lists it under Libraries by keyword', async () => {
    // The command activates the extension (nothing else of this test does) and shows the view.
    await runCommand(page, 'MLSys Papers: Show Libraries');
    await waitForLibraries(page, { 'zotero.bib': 2 });
    expect(Number((await statusItem().textContent())?.replace(/\D/g, ''))).toBeGreaterThanOrEqual(2);
    await expand('Libraries', 'zotero.bib', 'scheduling');
    await expect.poll(async () => (await treeRow('zotero.bib').locator('.label-description').textContent()) ?? '', { timeout: 15_000 }).toBe('2 entries');
    await treeRow(QUOKKA).waitFor({ timeout: 15_000 });
    expect(await treeRow('kernels').isVisible()).toBe(true);
  });

  test('search finds a library entry with its library\'s name; Enter cites it and the paper\'s bibliography gains its text as written', async () => {
    await openFile(page, 'paper.tex');
    const line = readFileSync(join(workspace, 'paper.tex'), 'utf8').split('\n').indexOf('Paged KV-cache management') + 1;
    await page.keyboard.press('Control+G');
    await quickInput.type(page, `:${line}`);
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    // The library loads after the extension activates (opening paper.tex may be what activates it),
    // and the search does not run again when it has: searched once it is loaded.
    await waitForLibraries(page, { 'zotero.bib': 2 });
    await runCommand(page, 'MLSys Papers: Search');
    await quickInput.type(page, 'quokka');
    // The first row must hold the entry, with its library's name, three looks in a row (the list is
    // drawn again as the answers to earlier keystrokes arrive).
    const first = page.locator('.quick-input-widget .monaco-list-row[data-index="0"] >> visible=true');
    let held = 0;
    await expect.poll(async () => {
      const text = (await first.textContent()) ?? '';
      held = text.includes(QUOKKA) && text.includes('zotero.bib') ? held + 1 : 0;
      return held;
    }, { timeout: 30_000, interval: 500 }).toBeGreaterThanOrEqual(3);
    await page.keyboard.press('Enter');
    await waitForEditorText(page, '\\cite{doe2024quokka}');
    await save(page);
    expect(readFileSync(join(workspace, 'paper.tex'), 'utf8')).toContain('Paged KV-cache management\\cite{doe2024quokka}');
    // The entry exactly as the library has it (CRLF there, LF in the paper's bibliography), after the macro it uses.
    const entry = LIBRARY.slice(LIBRARY.indexOf('@inproceedings{doe2024quokka'), LIBRARY.indexOf('}\r\n\r\n@article') + 1).replace(/\r\n/g, '\n');
    await expect.poll(() => readFileSync(join(workspace, 'references.bib'), 'utf8'), { timeout: 15_000 })
      .toContain(`@string{eurosys = {Proceedings of the European Conference on Computer Systems}}\n\n${entry}\n`);
    expect(readFileSync(join(workspace, 'references.bib'), 'utf8').startsWith(readFileSync(join(repoRoot, 'demo/references.bib'), 'utf8'))).toBe(true);
    expect(readFileSync(libraryFile, 'utf8')).toBe(LIBRARY);
  });

  test('Zotero rewrites the library outside the workspace: the status bar and an open search follow, with no reload and nothing typed again', async () => {
    await runCommand(page, 'MLSys Papers: Show Libraries');
    await waitForLibraries(page, { 'zotero.bib': 2 });
    const wombat = ['@article{roe2025wombat,', '  title    = {Wombat: Elastic Checkpoints for Training Jobs},', '  author   = {Roe, Richard},', '  year     = {2025},', '}', ''].join('\r\n');
    const WOMBAT = 'Wombat: Elastic Checkpoints for Training Jobs';
    try {
      // The search is open, its query typed, before the entry exists.
      await runCommand(page, 'MLSys Papers: Search');
      await quickInput.type(page, 'wombat elastic checkpoints');
      const first = page.locator('.quick-input-widget .monaco-list-row[data-index="0"] >> visible=true');
      const rows = page.locator('.quick-input-widget .monaco-list-row >> visible=true');
      await expect.poll(async () => (await rows.count()) > 0 && !((await first.textContent()) ?? '').includes(WOMBAT), { timeout: 15_000 }).toBe(true);
      // Better BibTeX rewrites the whole export when the Zotero library changes.
      writeFileSync(libraryFile, `${LIBRARY}\r\n${wombat}`);
      await waitForLibraries(page, { 'zotero.bib': 3 });
      // The open search asks again when the library has loaded: its first row is the new entry.
      await expect.poll(async () => (await first.textContent()) ?? '', { timeout: 15_000 }).toContain(WOMBAT);
      expect(await first.textContent()).toContain('zotero.bib');
      await page.keyboard.press('Escape');
    } finally {
      writeFileSync(libraryFile, LIBRARY);
    }
    // And back, for the other tests of this file.
    await waitForLibraries(page, { 'zotero.bib': 2 });
  });
});
