/**
 * The Chinese UI, in a real VS Code whose display language is Chinese (code-server `--locale zh-cn`
 * with a language pack installed; see `startCodeServer`'s `locale`): what the extension contributes
 * (the Topics view's name, command titles from `package.nls.zh-cn.json`), what it says at run time
 * (`l10n/bundle.l10n.zh-cn.json`: the search's placeholder, diagnostics from the language server)
 * and the topic labels (`topicLabels: auto` follows the display language) are Chinese; search and
 * citing work as in English. A refusal to write a bibliography (Insert Citation into a document
 * whose bibliography is its own `thebibliography`) is said in Chinese too: the reason travels as a
 * code and the extension renders it.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  extensionUnderTest, goToLine, launchBrowser, openFile, openWorkbench, pickFromSearch, quickInput, repoRoot, resetWorkbench, runCommand, save, screenshot,
  startCodeServer, typeInEditor, waitForEditorText, type CodeServer,
} from './harness';

const VLLM_TITLE = 'Efficient Memory Management for Large Language Model Serving with PagedAttention';
const workspace = mkdtempSync(join(tmpdir(), 'mlsys-e2e-zh-'));
cpSync(join(repoRoot, 'demo'), workspace, { recursive: true });
let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;
const ACTIVITY = '.activitybar .action-item a[aria-label^="MLSys Papers"]';

beforeAll(async () => {
  server = await startCodeServer({ workspace, extensionPaths: [extensionUnderTest()], locale: 'zh-cn' });
  browser = await launchBrowser();
  page = await openWorkbench(browser, server.url, workspace);
  await page.locator(ACTIVITY).waitFor({ timeout: 60_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('MLSys Papers in Chinese', () => {
  test('the Topics view is named 主题 and its topics carry their Chinese labels', async () => {
    await resetWorkbench(page);
    const container = page.locator(ACTIVITY);
    if ((await container.getAttribute('aria-checked')) !== 'true' && !(await container.evaluate((el) => el.closest('.action-item')?.classList.contains('checked')))) await container.click();
    await page.locator('.sidebar .title-label', { hasText: '主题' }).first().waitFor({ timeout: 30_000 });
    const tree = page.locator('.sidebar .monaco-list-row');
    await tree.filter({ hasText: '分布式训练' }).first().waitFor({ timeout: 60_000 });
    await tree.filter({ hasText: 'LLM推理服务' }).first().waitFor();
    const labels = await tree.allTextContents();
    expect(labels.join('\n')).not.toContain('Distributed training');
    await screenshot(page, join(repoRoot, 'test-results', 'zh-topics.png'));
  });

  test('search (a Chinese command title and placeholder) finds and cites; the bibliography follows', async () => {
    await resetWorkbench(page);
    await openFile(page, 'notes.md');
    await page.keyboard.press('Control+End');
    await runCommand(page, 'MLSys Papers: 搜索');
    const box = page.locator('.quick-input-widget .quick-input-box input');
    await expect.poll(async () => (await box.getAttribute('placeholder')) ?? '', { timeout: 15_000 }).toContain('标题、作者');
    await quickInput.type(page, 'paged attention');
    const first = page.locator('.quick-input-widget .monaco-list-row[data-index="0"] >> visible=true');
    await expect.poll(async () => (await first.textContent()) ?? '', { timeout: 30_000 }).toContain(VLLM_TITLE);
    // The row's topic path is in Chinese too.
    expect(await first.textContent()).toContain('LLM推理服务');
    await page.keyboard.press('Enter');
    await waitForEditorText(page, '[@kwon2023efficient]');
    await save(page);
    await expect.poll(() => readFileSync(join(workspace, 'references.bib'), 'utf8'), { timeout: 15_000 }).toContain('@inproceedings{kwon2023efficient,');
  });

  test('the language server reports an unknown key in Chinese', async () => {
    await resetWorkbench(page);
    await openFile(page, 'notes.md');
    await page.keyboard.press('Control+End');
    await typeInEditor(page, '\n\nSee [@nosuch1999].\n', { literal: true });
    await page.keyboard.press('Control+Shift+M'); // the Problems panel
    const problems = page.locator('.markers-panel');
    await expect.poll(async () => (await problems.textContent()) ?? '', { timeout: 30_000 }).toContain('未知的引用键“nosuch1999”');
    await page.keyboard.press('Control+Shift+M');
  });

  test('Insert Citation into a document whose bibliography is its thebibliography cites, and says in Chinese that it was not written', async () => {
    await resetWorkbench(page);
    mkdirSync(join(workspace, 'zh-thebib'));
    const tex = ['\\documentclass{article}', '\\begin{document}', 'Iteration-level scheduling:', '\\begin{thebibliography}{9}', '\\bibitem{a} A.', '\\end{thebibliography}', '\\end{document}', ''].join('\n');
    writeFileSync(join(workspace, 'zh-thebib/zh-thebib.tex'), tex);
    await openFile(page, 'zh-thebib/zh-thebib.tex');
    await goToLine(page, 3, true);
    await pickFromSearch(page, 'MLSys Papers: 插入引用', 'orca iteration-level scheduling', 'Orca: A Distributed Serving System');
    await waitForEditorText(page, 'Iteration-level scheduling:\\cite{yu2022orca}');
    // The refusal (reason `thebibliography`) in the bundle's Chinese, in the message's Chinese frame.
    const toast = page.locator('.notifications-toasts', { hasText: '包含文档的 thebibliography，MLSys Papers 不会写入它；它未被修改；请在其中为 yu2022orca 手动添加 \\bibitem' });
    await toast.waitFor({ timeout: 30_000 });
    expect((await toast.textContent()) ?? '').toContain('MLSys Papers：');
    await save(page);
    // The citation is in; the thebibliography is as it was, and no bibliography file was made.
    expect(readFileSync(join(workspace, 'zh-thebib/zh-thebib.tex'), 'utf8')).toBe(tex.replace('scheduling:', 'scheduling:\\cite{yu2022orca}'));
    expect(readdirSync(join(workspace, 'zh-thebib'))).toEqual(['zh-thebib.tex']);
  });
});
