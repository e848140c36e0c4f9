/**
 * The getting-started walkthrough (`contributes.walkthroughs`), in a real VS Code: it is listed
 * under "Welcome: Open Walkthrough…" with every step of the manifest, each step's button does what
 * the step says (opens the Topics view, the search, cites into the LaTeX editor beside the page,
 * opens a Markdown file, opens a setting, which the test then changes as a user would), and each
 * step's picture is taken here, from the product doing that step.
 *
 * The pictures are JPEGs clipped to the part of the window that shows the step, so that the seven
 * stay within 90 KB of the `.vsix` (test/unit/package.test.ts holds the budget). JPEG bytes differ
 * from run to run, so a run writes them to test-results/walkthrough/ (with a PNG of each, to look
 * at); only with `MLSYS_UPDATE_MEDIA=1`, and never under CI, does it write media/walkthrough/,
 * the files the manifest names and the `.vsix` ships (commit them then).
 *
 * One code-server serves the file; each test starts from closed editors and sets up what it shows
 * (files in a folder named after it, user settings it restores), since vitest.e2e.config.mts
 * shuffles the tests.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, onTestFinished, test } from 'vitest';
import {
  extensionUnderTest, launchBrowser, openFile, openWorkbench, quickInput, repoRoot, resetWorkbench, runCommand, save, screenshot, startCodeServer,
  editorVisibleText, typeInEditor, waitForEditorText, waitForLibraries, type CodeServer,
  expandTreeRows, topicsTree as harnessTopicsTree, treeRow as harnessTreeRow,
} from './harness';

const VLLM_TITLE = 'Efficient Memory Management for Large Language Model Serving with PagedAttention';
const inCi = !!process.env.CI && !['false', '0'].includes(process.env.CI);
/** Where the step pictures go: the manifest's media/walkthrough/ only when asked to, and never under CI. */
const updateMedia = process.env.MLSYS_UPDATE_MEDIA === '1' && !inCi;
const previewDir = join(repoRoot, 'test-results/walkthrough');
const mediaDir = updateMedia ? join(repoRoot, 'media/walkthrough') : previewDir;
/**
 * JPEG quality of the step pictures: the text stays legible, and seven tight crops fit in 90 KB
 * (text is what costs bytes, about 1 KB a line; a lower quality saves little). VS Code shows a
 * walkthrough image as a 1.5x image (`srcset="… 1.5x"`); pictures taken at device scale 1.5 would
 * be sharper there, but twice the bytes.
 */
const JPEG_QUALITY = 30;

/** A step as the manifest declares it, with its English title. */
interface Step { id: string; title: string; image: string }
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const nls = JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
const english = (s: string) => nls[s.replace(/^%|%$/g, '')] ?? s;
const walkthrough = manifest.contributes.walkthroughs[0];
const WALKTHROUGH_TITLE = english(walkthrough.title);
const steps: Step[] = walkthrough.steps.map((s: { id: string; title: string; media: { image: string } }) =>
  ({ id: s.id, title: english(s.title), image: s.media.image }));
const step = (id: string): Step => {
  const s = steps.find((x) => x.id === id);
  if (!s) throw new Error(`walkthrough: package.json has no step ${id}`);
  return s;
};

/** A small Zotero library (Better BibTeX export) for the "Add your own library" step. */
const LIBRARY = `% Exported by Better BibTeX for Zotero
@inproceedings{doe2024quokka,
  title     = {Quokka: A Scheduler for {GPU} Clusters},
  author    = {Doe, Jane and Roe, Richard},
  booktitle = {Proceedings of the European Conference on Computer Systems},
  year      = {2024},
  keywords  = {scheduling, clusters},
}

@inproceedings{roe2023wombat,
  title     = {Wombat: Elastic Checkpoints for Training Jobs},
  author    = {Roe, Richard and Lee, Min},
  booktitle = {Proceedings of the Symposium on Cloud Computing},
  year      = {2023},
  keywords  = {scheduling, checkpointing},
}

@article{lee2021tiles,
  title    = {Tiles for {GPUs}},
  author   = {Lee, Min},
  journal  = {Journal of Kernels},
  year     = {2021},
  keywords = {kernels},
}
`;

const workspace = mkdtempSync(join(tmpdir(), 'mlsys-e2e-walkthrough-'));
cpSync(join(repoRoot, 'demo'), workspace, { recursive: true });
let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;

beforeAll(async () => {
  // Reduced motion: a selected step takes the focus at once rather than after its slide animation
  // (250 ms later, when it would take it from a quick pick that its button had opened meanwhile).
  server = await startCodeServer({ workspace, extensionPaths: [extensionUnderTest()], settings: { 'workbench.reduceMotion': 'on' } });
  browser = await launchBrowser();
  page = await openWorkbench(browser, server.url, workspace);
  // Until the extension's contributions are known, the walkthrough is not listed.
  await page.locator('.activitybar .action-item a[aria-label^="MLSys Papers"]').waitFor({ timeout: 60_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

beforeEach(async ({ task, onTestFailed }) => {
  console.log(`walkthrough e2e: ${task.name}`);
  // A failed test leaves a picture of the window, to see why.
  onTestFailed(() => screenshot(page, join(previewDir, `failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}.png`)));
  await resetWorkbench(page);
});

const onDisk = (name: string) => readFileSync(join(workspace, name), 'utf8');

/** Copies demo files into a new workspace folder `name`; returns their workspace-relative paths by demo name. */
function scratch(name: string, files: readonly string[]): Record<string, string> {
  mkdirSync(join(workspace, name));
  return Object.fromEntries(files.map((f) => {
    cpSync(join(repoRoot, 'demo', f), join(workspace, name, f));
    return [f, `${name}/${f}`];
  }));
}

/** Puts the user settings back as they are now when the test ends (the test changes them through the settings editor). */
function restoreUserSettingsAfterTest(): void {
  const file = join(server!.userDataDir, 'User/settings.json');
  const original = readFileSync(file, 'utf8');
  onTestFinished(() => writeFileSync(file, original));
}

/** Opens the walkthrough as a user does: the command palette's "Welcome: Open Walkthrough…", then its title. */
async function openWalkthrough(): Promise<void> {
  await runCommand(page, 'Welcome: Open Walkthrough');
  await quickInput.pick(page, WALKTHROUGH_TITLE);
  await page.locator('.gettingStartedContainer h2.category-title', { hasText: WALKTHROUGH_TITLE }).waitFor({ timeout: 30_000 });
}

/** The walkthrough's row of a step. */
const stepRow = (s: Step) => page.locator('.gettingStartedContainer .getting-started-step', { has: page.locator('.step-title', { hasText: s.title }) });

/**
 * Opens the walkthrough at step `id`, expanded and with its picture loaded, and returns the step's button.
 * @throws (a failed assertion) if the picture the manifest names does not load
 */
async function openStep(id: string): Promise<Locator> {
  const s = step(id);
  await openWalkthrough();
  const row = stepRow(s);
  await expect.poll(async () => {
    if (!/\bexpanded\b/.test((await row.getAttribute('class')) ?? '')) await row.locator('.step-title').click();
    return row.getAttribute('class');
  }, { timeout: 15_000, interval: 500 }).toMatch(/\bexpanded\b/);
  // Selecting a step moves the focus to it on a timer: a quick pick its button opened before
  // that would lose the focus and close.
  await expect.poll(() => row.evaluate((el) => el === document.activeElement), { timeout: 15_000 }).toBe(true);
  const img = page.locator('.gettingStartedContainer .getting-started-media img');
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)).catch(() => 0), { timeout: 15_000 }).toBeGreaterThan(0);
  expect(decodeURIComponent(await img.evaluate((el: HTMLImageElement) => el.currentSrc))).toContain(s.image);
  return row.locator('.button-container .monaco-button');
}

/** The row of setting `key` in the settings editor, once the editor shows it. */
async function settingRow(key: string): Promise<Locator> {
  const row = page.locator(`.settings-editor .setting-item-contents[data-key="${key}"]`);
  await row.waitFor({ timeout: 30_000 });
  return row;
}

/** Closes the settings editor (a modal in recent VS Code, an editor tab in older ones). */
async function closeSettings(): Promise<void> {
  await page.keyboard.press('Escape');
  await resetWorkbench(page);
  await page.locator('.settings-editor').waitFor({ state: 'hidden' });
}

/** Waits until the first row of the open quick pick has held `title` for three reads in a row (answers to earlier keystrokes re-render the list). */
async function waitForFirstRow(title: string): Promise<void> {
  const first = page.locator('.quick-input-widget .monaco-list-row[data-index="0"] >> visible=true');
  let held = 0;
  await expect.poll(async () => {
    held = ((await first.textContent()) ?? '').includes(title) ? held + 1 : 0;
    return held;
  }, { timeout: 30_000, interval: 250 }).toBeGreaterThanOrEqual(3);
}

/** In the open quick pick over the corpus, searches "paged attention" and accepts the vLLM paper. */
async function pickVllm(): Promise<void> {
  await quickInput.type(page, 'paged attention');
  await waitForFirstRow(VLLM_TITLE);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/** Moves the cursor to the end of the first line of workspace file `file` containing `line` (Go to Line). */
async function goToEndOf(file: string, line: string): Promise<void> {
  const n = onDisk(file).split('\n').findIndex((l) => l.includes(line)) + 1;
  if (!n) throw new Error(`${file} has no line containing ${line}`);
  await page.keyboard.press('Control+G');
  await quickInput.type(page, `:${n}`);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  await page.keyboard.press('End');
}

const topicsTree = () => harnessTopicsTree(page);
const treeRow = (label: string) => harnessTreeRow(page, label);
const expand = (...labels: string[]) => expandTreeRows(page, ...labels);

/** Shows the Topics view (its own command, so that a second call does not hide it) with every node collapsed. */
async function showCollapsedTopics(): Promise<void> {
  await runCommand(page, 'MLSys Papers: Focus on Topics View');
  await topicsTree().locator('.monaco-list-row').first().waitFor({ timeout: 30_000 });
  await page.locator('.part.sidebar .action-label[aria-label="Collapse All"] >> visible=true').click();
  await expect.poll(() => topicsTree().locator('.monaco-list-row[aria-level="2"]').count(), { timeout: 15_000 }).toBe(0);
}


/** The suggest widget's first row, once it holds `key`. */
async function waitForCompletion(key: string): Promise<Locator> {
  const first = page.locator('.suggest-widget .monaco-list-row[data-index="0"]');
  await expect.poll(async () => (await first.textContent()) ?? '', { timeout: 30_000 }).toContain(key);
  return page.locator('.suggest-widget');
}

type Box = { x: number; y: number; width: number; height: number };

/** The bounding box of `locator`. */
async function boxOf(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox();
  if (!b) throw new Error(`walkthrough: ${locator} is not visible`);
  return b;
}

/** The smallest box holding `boxes`, grown by `margin` on every side and kept inside the window. */
function around(boxes: Box[], margin = 8): Box {
  const x = Math.max(0, Math.min(...boxes.map((b) => b.x)) - margin);
  const y = Math.max(0, Math.min(...boxes.map((b) => b.y)) - margin);
  const right = Math.min(1280, Math.max(...boxes.map((b) => b.x + b.width)) + margin);
  const bottom = Math.min(800, Math.max(...boxes.map((b) => b.y + b.height)) + margin);
  return { x, y, width: right - x, height: bottom - y };
}

/** A picture of completion: the suggest widget `widget`, the line typed in and `above` whole lines above it, from the line numbers on. */
async function aroundCompletion(widget: Box, above: number): Promise<Box> {
  const editor = page.locator('.editor-group-container.active .monaco-editor');
  const gutter = await boxOf(editor.locator('.margin'));
  const line = await boxOf(editor.locator('.view-overlays .current-line').first());
  const x = gutter.x + 20;
  const y = line.y - above * line.height;
  return { x, y, width: widget.x + widget.width + 4 - x, height: widget.y + widget.height + 2 - y };
}

/**
 * Takes the picture of step `id` (its `media.image`): a JPEG of the region `clip` into
 * media/walkthrough/ or test-results/walkthrough/ (see `updateMedia`), and a PNG of it into
 * test-results/walkthrough/ to look at.
 */
async function stepPicture(id: string, clip: Box): Promise<void> {
  const name = step(id).image.replace(/^.*\//, '').replace(/\.jpg$/, '');
  await mkdir(mediaDir, { recursive: true });
  await mkdir(previewDir, { recursive: true });
  const region = { x: Math.floor(clip.x), y: Math.floor(clip.y), width: Math.ceil(clip.width), height: Math.ceil(clip.height) };
  await page.screenshot({ path: join(mediaDir, `${name}.jpg`), type: 'jpeg', quality: JPEG_QUALITY, clip: region });
  await page.screenshot({ path: join(previewDir, `${name}.png`), clip: region });
}

/** The frame of the details webview, once it shows the entry titled `title`. */
async function detailsFrame(title: string): Promise<Frame> {
  let found: Frame | undefined;
  await expect.poll(async () => {
    for (const f of page.frames()) {
      if (((await f.locator('#title').textContent({ timeout: 500 }).catch(() => '')) ?? '') === title) {
        found = f;
        return true;
      }
    }
    return false;
  }, { timeout: 30_000 }).toBe(true);
  return found!;
}

describe('the getting-started walkthrough', () => {
  test('is listed under Welcome: Open Walkthrough, with every step of the manifest in order', async () => {
    await openWalkthrough();
    const titles = await page.locator('.gettingStartedContainer .getting-started-step .step-title').allTextContents();
    expect(titles.map((t) => t.trim())).toEqual(steps.map((s) => s.title));
    expect(titles).toHaveLength(8);
    // Each step has its button.
    for (const s of steps) await expect(stepRow(s).locator('.button-container .monaco-button').count()).resolves.toBe(1);
  });

  test('"Browse the topics": the button opens the Topics view', async () => {
    await runCommand(page, 'View: Show Explorer');
    await topicsTree().waitFor({ state: 'hidden' });
    await (await openStep('topics')).click();
    await topicsTree().locator('.monaco-list-row').first().waitFor({ timeout: 30_000 });
    await resetWorkbench(page);
    await showCollapsedTopics();
    await expand('LLM inference serving', 'GPU memory management');
    await treeRow(VLLM_TITLE).waitFor();
    await expect(treeRow(VLLM_TITLE).textContent()).resolves.toContain('⚡ SOSP 2023');
    await page.mouse.move(640, 700); // no hover on a row
    // The picture: the activity bar and the view, down to the last entry of GPU memory management.
    const sidebar = await boxOf(page.locator('.part.sidebar'));
    const last = await boxOf(topicsTree().locator('.monaco-list-row[aria-level="3"]').last());
    await stepPicture('topics', { x: 0, y: sidebar.y, width: sidebar.x + sidebar.width, height: last.y + last.height + 4 - sidebar.y });
  });

  test('"Search the corpus": the button opens the search, which finds the vLLM paper for "paged attention"', async () => {
    await (await openStep('search')).click();
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'MLSys Papers: Search' }).waitFor({ timeout: 15_000 });
    await quickInput.type(page, 'paged attention');
    await waitForFirstRow(VLLM_TITLE);
    await page.mouse.move(640, 700);
    const widget = await boxOf(page.locator('.quick-input-widget'));
    const second = await boxOf(page.locator('.quick-input-widget .monaco-list-row[data-index="1"] >> visible=true'));
    await stepPicture('search', { x: widget.x, y: widget.y, width: widget.width, height: second.y + second.height - widget.y });
    // Accepted with no LaTeX or Markdown editor open, the entry's actions are offered.
    await page.keyboard.press('Enter');
    await quickInput.waitForItem(page, 'Copy BibTeX');
  });

  test('"Cite in LaTeX": the button cites into the LaTeX paper beside the walkthrough; \\cite{ completes keys', async () => {
    const f = scratch('wt-latex', ['paper.tex', 'references.bib']);
    const paper = f['paper.tex']!;
    await openFile(page, paper);
    await goToEndOf(paper, 'Paged KV-cache management');
    // The paper on the left, the walkthrough on the right.
    await runCommand(page, 'View: Split Editor Right');
    await expect.poll(() => page.locator('.editor-group-container').count()).toBe(2);
    await (await openStep('citeLatex')).click();
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'MLSys Papers' }).waitFor({ timeout: 15_000 });
    await pickVllm();
    const left = page.locator('.editor-group-container').first().locator('.monaco-editor .view-lines');
    await expect.poll(async () => ((await left.innerText()) ?? '').replace(/\u00a0/g, ' '), { timeout: 15_000 })
      .toContain('Paged KV-cache management\\cite{kwon2023efficient}');
    await expect.poll(() => onDisk(f['references.bib']!), { timeout: 15_000 }).toMatch(/^@inproceedings\{kwon2023efficient,/m);
    // The picture: completion inside \cite{…}, the paper alone.
    await page.keyboard.press('Control+1');
    await save(page);
    await resetWorkbench(page);
    await openFile(page, paper);
    await goToEndOf(paper, 'Continuous batching');
    await page.keyboard.press('Enter');
    await typeInEditor(page, 'Paged attention \\cite{pagedatt');
    const widget = await boxOf(await waitForCompletion('kwon2023efficient'));
    await stepPicture('citeLatex', await aroundCompletion(widget, 1));
    await page.keyboard.press('Enter');
    await waitForEditorText(page, 'Paged attention \\cite{kwon2023efficient}');
  });

  test('"Cite in Markdown": the button opens a new Markdown file, where [@ completes keys', async () => {
    await (await openStep('citeMarkdown')).click();
    await page.locator('.tabs-container .tab.active', { hasText: 'Untitled' }).waitFor({ timeout: 15_000 });
    await page.locator('.statusbar-item', { hasText: /^Markdown$/ }).first().waitFor({ timeout: 15_000 });
    await typeInEditor(page, '# Reading notes\n\nContinuous batching keeps accelerators busy [@orc');
    const widget = await boxOf(await waitForCompletion('yu2022orca'));
    await stepPicture('citeMarkdown', await aroundCompletion(widget, 2));
    // VS Code closes the bracket as it was typed, or not (its auto-closing is not ours to test):
    // accepting the key replaces what was typed of it and nothing else.
    const closed = /\[@orc\]/.test((await editorVisibleText(page)) ?? '');
    await page.keyboard.press('Enter');
    await waitForEditorText(page, `keeps accelerators busy [@yu2022orca${closed ? ']' : ''}`);
  });

  test('"The bibliography follows": the button opens the setting; citing adds the entry to references.bib', async () => {
    const f = scratch('wt-bib', ['notes.md', 'references.bib']);
    await (await openStep('bibliography')).click();
    const setting = await settingRow('mlsysPapers.syncBibliography');
    await expect(setting.locator('.setting-value-checkbox').getAttribute('aria-checked')).resolves.toBe('true');
    await closeSettings();
    await openFile(page, f['notes.md']!);
    await goToEndOf(f['notes.md']!, 'Paging the KV cache removes fragmentation');
    await runCommand(page, 'MLSys Papers: Search');
    await pickVllm();
    await waitForEditorText(page, 'removes fragmentation [@kwon2023efficient]');
    await save(page);
    const original = readFileSync(join(repoRoot, 'demo/references.bib'), 'utf8');
    await expect.poll(() => onDisk(f['references.bib']!), { timeout: 15_000 }).toMatch(/^@inproceedings\{kwon2023efficient,/m);
    expect(onDisk(f['references.bib']!).startsWith(original)).toBe(true);
    // The picture: the bibliography with the entry added after the one it had.
    await openFile(page, f['references.bib']!);
    await waitForEditorText(page, '@inproceedings{kwon2023efficient,');
    // Scrolled so that the added entry follows the tab and the end of the entry that was there.
    const lines = original.split('\n').length;
    await page.keyboard.press('Control+End');
    for (let i = 1; i < lines - 1; i++) await page.keyboard.press('Control+ArrowDown');
    const group = await boxOf(page.locator('.editor-group-container.active'));
    const entryEnd = page.locator('.editor-group-container.active .view-line', { hasText: /^}$/ }).last();
    const end = await boxOf(entryEnd);
    await stepPicture('bibliography', { x: group.x, y: group.y, width: 480, height: end.y + end.height + 1 - group.y });
  });

  test('"Check your bibliography against the records": the button opens the setting; a preprint in a .bib is flagged and its quick fix rewrites it', async () => {
    await (await openStep('checkBibliography')).click();
    const setting = await settingRow('mlsysPapers.recordChecks');
    await expect(setting.locator('select').inputValue()).resolves.toBe('information');
    await closeSettings();
    mkdirSync(join(workspace, 'wt-check'));
    const refs = join(workspace, 'wt-check/refs.bib');
    const original = '% Google Scholar export\n@article{kwon2023vllm,\n  title={Efficient memory management for large language model serving with pagedattention},\n  author={Kwon, Woosuk and Li, Zhuohan and others},\n  journal={arXiv preprint arXiv:2309.06180},\n  year={2023}\n}\n';
    writeFileSync(refs, original);
    await openFile(page, 'wt-check/refs.bib');
    await waitForEditorText(page, 'arXiv preprint arXiv:2309.06180');
    // The squiggle on the key, then the quick fix menu on it (Ctrl+.), as a writer opens it.
    const squiggle = page.locator('.editor-group-container.active .squiggly-info').first();
    await squiggle.waitFor({ timeout: 30_000 });
    await goToEndOf('wt-check/refs.bib', '@article{kwon2023vllm');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Control+.');
    const menu = page.locator('.action-widget, .context-view .monaco-list').first();
    await menu.waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await menu.textContent()) ?? '', { timeout: 15_000 }).toContain("Rewrite kwon2023vllm as the version of record (SOSP '23)");
    const group = await boxOf(page.locator('.editor-group-container.active'));
    const box = await boxOf(menu);
    await stepPicture('checkBibliography', { x: group.x, y: group.y, width: Math.min(640, Math.max(box.x + box.width + 8, 480) - group.x), height: box.y + box.height + 8 - group.y });
    await page.keyboard.press('Enter');
    await waitForEditorText(page, '@inproceedings{kwon2023vllm,');
    await save(page);
    await expect.poll(() => onDisk('wt-check/refs.bib'), { timeout: 15_000 }).toMatch(/^@inproceedings\{kwon2023vllm,\n {2}author=\{Kwon, Woosuk and Li, Zhuohan and Zhuang, Siyuan/m);
    expect(onDisk('wt-check/refs.bib').startsWith('% Google Scholar export\n@inproceedings{kwon2023vllm,\n')).toBe(true);
  });

  test('"Add your own library": the button opens the setting; the library added there shows under Libraries', async () => {
    mkdirSync(join(workspace, 'wt-library'));
    writeFileSync(join(workspace, 'wt-library/zotero.bib'), LIBRARY);
    restoreUserSettingsAfterTest();
    await (await openStep('libraries')).click();
    const setting = await settingRow('mlsysPapers.libraries');
    // As a user: Add Item, the file's path, Enter.
    await setting.locator('.monaco-button', { hasText: 'Add Item' }).click();
    await setting.locator('input').first().fill('wt-library/zotero.bib');
    await page.keyboard.press('Enter');
    await setting.locator('.setting-list-row', { hasText: 'wt-library/zotero.bib' }).waitFor({ timeout: 15_000 });
    await closeSettings();
    await waitForLibraries(page, { 'zotero.bib': 3 });
    await showCollapsedTopics();
    await expand('Libraries', 'zotero.bib', 'scheduling');
    await treeRow('Quokka: A Scheduler for GPU Clusters').waitFor({ timeout: 15_000 });
    await page.mouse.move(640, 700);
    // The picture: the Libraries node and what is under it.
    const sidebar = await boxOf(page.locator('.part.sidebar'));
    const libraries = await boxOf(treeRow('Libraries'));
    const last = await boxOf(topicsTree().locator('.monaco-list-row').last());
    await stepPicture('libraries', { x: sidebar.x, y: libraries.y, width: sidebar.width, height: last.y + last.height + 6 - libraries.y });
  });

  test('"Pick a citation style": the button opens the setting; set to ieee, the details show an IEEE reference', async () => {
    restoreUserSettingsAfterTest();
    await (await openStep('citationStyle')).click();
    const setting = await settingRow('mlsysPapers.citationStyle');
    const input = setting.locator('input').first();
    await input.fill('ieee');
    await page.keyboard.press('Enter');
    await expect.poll(() => readFileSync(join(server!.userDataDir, 'User/settings.json'), 'utf8'), { timeout: 15_000 })
      .toMatch(/"mlsysPapers\.citationStyle":\s*"ieee"/);
    await closeSettings();
    await runCommand(page, 'MLSys Papers: Show Details');
    await pickVllm();
    const frame = await detailsFrame(VLLM_TITLE);
    await expect.poll(async () => (await frame.locator('h2', { hasText: 'Reference' }).textContent()) ?? '', { timeout: 15_000 }).toContain('ieee');
    // IEEE: initials before family names, the title in quotes.
    await expect(frame.locator('#formatted').textContent()).resolves.toMatch(/W\. Kwon et al\., “Efficient Memory Management/);
    // The picture: the reference and its heading (boxes of the webview's elements are in the page's coordinates).
    await page.mouse.move(640, 790);
    const heading = await boxOf(frame.locator('h2', { hasText: 'Reference' }));
    const reference = await boxOf(frame.locator('#formatted'));
    await stepPicture('citationStyle', around([heading, reference], 12));
  });
});
