/**
 * Literature notes in a real VS Code: *Open Note* from the Topics view's context menu creates
 * `notes/<key>.md` on disk from the template (front matter with the entry's fields, a citation of
 * it) and opens it; the tree then marks the entry as having a note; and `read: true` written into
 * the note's front matter and saved marks the entry read. Its own code-server: the note and the
 * read mark would change what the other files' tests see.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  contextMenu, expandTreeRows, extensionUnderTest, launchBrowser, openWorkbench, quickInput, repoRoot, save, showTopics, startCodeServer, treeRow, typeInEditor, waitForEditorText,
  waitForFile, type CodeServer,
} from './harness';

const VLLM_TITLE = 'Efficient Memory Management for Large Language Model Serving with PagedAttention';
const workspace = mkdtempSync(join(tmpdir(), 'mlsys-e2e-notes-'));
cpSync(join(repoRoot, 'demo'), workspace, { recursive: true });
const note = join(workspace, 'notes', 'kwon2023efficient.md');
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

/** The description (venue, year and marks) of the vLLM paper's row. */
const marks = async () => (await treeRow(page, VLLM_TITLE).locator('.label-description').textContent()) ?? '';

describe('literature notes', () => {
  test('Open Note from the tree creates the note on disk from the template; the tree marks it; read: true in it marks the entry read', async () => {
    expect(existsSync(note)).toBe(false);
    await showTopics(page);
    await expandTreeRows(page, 'LLM inference serving', 'GPU memory management');
    await treeRow(page, VLLM_TITLE).waitFor({ timeout: 15_000 });
    expect(await marks()).not.toContain('✎');
    await contextMenu(page, treeRow(page, VLLM_TITLE), 'Open Note');

    await page.locator('.tabs-container .tab.active', { hasText: 'kwon2023efficient.md' }).waitFor({ timeout: 30_000 });
    expect(await waitForFile(note, 30_000)).toBe(true);
    await waitForEditorText(page, '[@kwon2023efficient]');
    const text = readFileSync(note, 'utf8');
    expect(text).toMatch(/^---\ntitle: "Efficient Memory Management for Large Language Model Serving with PagedAttention"\ncitekey: "kwon2023efficient"\n/);
    expect(text).toContain('\nvenue: ');
    expect(text).toContain('\nyear: "2023"\n');
    expect(text).toContain('\nread: false\n');
    expect(text).toContain('\n[@kwon2023efficient]\n');
    // The tab shows the note as saved (it was created and saved, not left dirty).
    await page.locator('.tabs-container .tab.active.dirty').waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(marks, { timeout: 30_000 }).toContain('✎');
    expect(await marks()).not.toContain('✓');

    // read: false → read: true, saved: the entry is read.
    const line = text.split('\n').indexOf('read: false') + 1;
    await page.locator('.editor-group-container.active .monaco-editor').click();
    await page.keyboard.press('Control+G');
    await quickInput.type(page, `:${line}`);
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Home');
    await typeInEditor(page, 'read: true', { literal: true });
    await save(page);
    expect(readFileSync(note, 'utf8')).toContain('\nread: true\n');
    await expect.poll(marks, { timeout: 30_000 }).toContain('✓');
  });
});
