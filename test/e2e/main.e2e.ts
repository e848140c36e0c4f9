/**
 * The main job, as a user does it in a real VS Code: open the Topics view, expand a topic, search
 * "paged attention", insert the citation into a Markdown note and a LaTeX paper (also into an
 * existing \cite{…}), complete a key, save, and check the files on disk.
 *
 * One code-server and one page serve every test, but no test relies on another: each one starts
 * from closed editors (`resetWorkbench`), reveals the tree rows it needs itself, resets the
 * read marks it asserts on, and works on its own copies of the demo files in a folder named after
 * it ({@link scratch}). vitest.e2e.config.mts runs the tests in a shuffled order to keep it so.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, onTestFinished, test } from 'vitest';
import { loadCompiledCorpus } from '../../src/host/node/readCorpusFiles';
import { CorpusBrowser } from '../../src/core/corpus/browse';
import { LEVELS } from '../../src/core/corpus/schema';
import {
  extensionUnderTest, launchBrowser, openFile, openWorkbench, quickInput, repoRoot, resetWorkbench, runCommand, save, screenshot, startCodeServer, testResults,
  typeInEditor, waitForEditorText, type CodeServer,
  contextMenu, expandTreeRows, readmeScreenshot as harnessReadmeScreenshot, showTopics as harnessShowTopics, topicsTree as harnessTopicsTree, treeRow as harnessTreeRow,
} from './harness';

/**
 * A topic row's description with `read` entries of its reading list read: `3/12`, then (the view
 * shows everything) the field's other works under it, `3/12 · 312 more`.
 */
const PROGRESS = (read: number, from = '') => new RegExp(`${from}${read}/\\d+( · [\\d,]+ more)?$`);

const VLLM_TITLE = 'Efficient Memory Management for Large Language Model Serving with PagedAttention';
const ORCA_TITLE = 'Orca: A Distributed Serving System for Transformer-Based Generative Models';
const extensionPath = extensionUnderTest();
const shots = testResults;
const workspace = mkdtempSync(join(tmpdir(), 'mlsys-e2e-'));
cpSync(join(repoRoot, 'demo'), workspace, { recursive: true });
let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;

beforeAll(async () => {
  server = await startCodeServer({
    workspace, extensionPaths: [extensionPath],
    // The view's Collapse All sits in the side bar title, shown on hover only by default.
    settings: { 'workbench.view.alwaysShowHeaderActions': true },
  });
  browser = await launchBrowser();
  page = await openWorkbench(browser, server.url, workspace);
  // The workbench renders before it knows the extension's contributions (the remote extension
  // host scans them); until then the palette has no MLSys Papers command, whichever test runs first.
  await page.locator('.activitybar .action-item a[aria-label^="MLSys Papers"]').waitFor({ timeout: 60_000 });
});

/** The tests in the order they ran (shuffled, see vitest.e2e.config.mts), printed to replay a failure. */
const ran: string[] = [];

afterAll(async () => {
  console.log(`e2e: ran in this order (seed ${process.env.MLSYS_E2E_SEED ?? 'none'}):\n${ran.map((t, i) => `  ${i + 1}. ${t}`).join('\n')}`);
  await browser?.close();
  await server?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

beforeEach(async ({ task }) => {
  ran.push(task.name);
  await resetWorkbench(page);
});

const onDisk = (name: string) => readFileSync(join(workspace, name), 'utf8');
const demo = (name: string) => readFileSync(join(repoRoot, 'demo', name), 'utf8');

/**
 * Makes the folder `name` in the workspace and copies demo files into it, renamed as `files` says
 * (demo name → new name). Unique file names keep quick open and the tabs unambiguous.
 * @returns the workspace-relative path of each copy, by its demo name.
 * @throws if the folder exists: two tests must not share one.
 */
function scratch(name: string, files: Record<string, string>): Record<string, string> {
  mkdirSync(join(workspace, name));
  const out: Record<string, string> = {};
  for (const [from, to] of Object.entries(files)) {
    cpSync(join(repoRoot, 'demo', from), join(workspace, name, to));
    out[from] = `${name}/${to}`;
  }
  return out;
}

/** 1-based line number of the first line containing `text` in a workspace file. */
function lineOf(name: string, text: string): number {
  const i = onDisk(name).split('\n').findIndex((l) => l.includes(text));
  if (i < 0) throw new Error(`${name} has no line containing ${text}`);
  return i + 1;
}

/** Moves the cursor with Go to Line (Ctrl+G), `line` or `line:column` (1-based), then optionally End. */
async function goTo(target: string, end = false): Promise<void> {
  await page.keyboard.press('Control+G');
  await quickInput.type(page, `:${target}`);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  if (end) await page.keyboard.press('End');
}

/**
 * Runs the search, types the query and waits until the first row holds `title`. Returns the rows' texts in list order.
 * @throws (a failed assertion, after a screenshot) if the first row no longer holds `title` once the rows were read.
 */
async function searchFor(command: string, query: string, title: string): Promise<string[]> {
  await page.keyboard.press('Escape'); // nothing else (a menu, a hover) may hold the focus
  await runCommand(page, command);
  await quickInput.type(page, query);
  const first = page.locator('.quick-input-widget .monaco-list-row[data-index="0"] >> visible=true');
  // Settled: the first row has held the title for three reads in a row (the list is re-rendered
  // as answers to earlier keystrokes arrive); then it must stay so.
  let held = 0;
  await expect.poll(async () => {
    held = ((await first.textContent()) ?? '').includes(title) ? held + 1 : 0;
    return held;
  }, { timeout: 30_000, interval: 250 }).toBeGreaterThanOrEqual(3);
  // The list is virtual: DOM order is not list order, data-index is; rows of other, hidden lists
  // (the command palette's) are left out.
  const rows = await page.locator('.quick-input-widget .monaco-list-row').evaluateAll((els) =>
    els.filter((el) => (el as HTMLElement).offsetParent !== null)
      .map((el) => [Number(el.getAttribute('data-index')), el.textContent ?? ''] as const).sort((a, b) => a[0] - b[0]).map(([, t]) => t));
  const top = (await first.textContent()) ?? '';
  // A list that changes after showing the right first row would make Enter cite something else.
  if (!top.includes(title)) await screenshot(page, join(shots, `search-changed-${query.replace(/\W+/g, '-')}.png`));
  expect(top, `search "${query}": first row changed; rows ${JSON.stringify(rows.slice(0, 4))}`).toContain(title);
  return [top, ...rows.slice(1)];
}

/** Takes the README screenshot `name` (`topics`, …); see the harness's `readmeScreenshot`. */
const readmeScreenshot = (name: string) => harnessReadmeScreenshot(page, name);

/** The Topics view's tree. */
const topicsTree = () => harnessTopicsTree(page);
/** The first row of the Topics tree whose text contains `label`. */
const treeRow = (label: string) => harnessTreeRow(page, label);
/** The description (read progress `done/all`, or an entry's venue and marks) of a tree row. */
const description = async (label: string) => (await treeRow(label).locator('.label-description').textContent()) ?? '';

/** Shows the Topics view and waits for its rows (the harness's `showTopics`). */
const showTopics = () => harnessShowTopics(page);

/** Shows the Topics view with every topic collapsed (its Collapse All action), so that the root topics are all in view. */
async function collapseTopics(): Promise<void> {
  await showTopics();
  await page.locator('.part.sidebar .action-label[aria-label="Collapse All"] >> visible=true').click();
  await expect.poll(() => topicsTree().locator('.monaco-list-row[aria-level="2"]').count(), { timeout: 15_000 }).toBe(0);
}

/** Expands the topics of `path`, one level after the other, each only if collapsed (a click on an expanded topic collapses it). */
async function expandTopics(...path: string[]): Promise<void> {
  await showTopics();
  await expandTreeRows(page, ...path);
}

/** Shows the vLLM paper's row (LLM inference serving › GPU memory management), from a collapsed tree so that it is in view. */
async function revealVllm(): Promise<void> {
  await collapseTopics();
  await expandTopics('LLM inference serving', 'GPU memory management');
  await treeRow(VLLM_TITLE).waitFor({ timeout: 15_000 });
}

/** Marks the first search result for `query` (which must be `title`) unread, through the palette's Mark as Unread. */
async function markUnread(query: string, title: string): Promise<void> {
  await searchFor('MLSys Papers: Mark as Unread', query, title);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/**
 * Marks unread the entries that tests of this file mark read (vLLM, Orca), and waits until the
 * tree shows their topic, LLM inference serving, with nothing read. The read marks live in the
 * extension's global state, which outlives a test and a window reload.
 */
async function resetReadState(): Promise<void> {
  await markUnread('kwon2023', VLLM_TITLE);
  await markUnread('yu2022orca', ORCA_TITLE);
  await collapseTopics();
  await expect.poll(() => description('LLM inference serving'), { timeout: 15_000 }).toMatch(PROGRESS(0, '^'));
}

/** Ticks every level in Filter by Level that is not ticked (the extension's default: all levels shown). */
async function showAllLevels(): Promise<void> {
  await runCommand(page, 'MLSys Papers: Filter by Level');
  await quickInput.waitForItem(page, 'must-read');
  const unticked = page.locator('.quick-input-widget .monaco-list-row[aria-checked="false"]');
  for (let n = await unticked.count(); n > 0; n--) await unticked.first().locator('.monaco-checkbox').click();
  await page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).click();
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/** Cites the vLLM paper at the end of the line of `file` holding `lineText`, through Search + Enter, and waits for `expected` in the editor. */
async function citeVllmAt(file: string, lineText: string, expected: string): Promise<void> {
  await openFile(page, file);
  await goTo(String(lineOf(file, lineText)), true);
  await searchFor('MLSys Papers: Search', 'paged attention', VLLM_TITLE);
  await page.keyboard.press('Enter');
  await waitForEditorText(page, expected);
}

describe('MLSys Papers in a real VS Code', () => {
  test('the Topics view shows the seed taxonomy and expands to entries', async () => {
    // The root rows the view must show: the compiled corpus's root topics that hold entries, in
    // order, each with its count of entries (none read).
    const corpus = loadCompiledCorpus(join(repoRoot, 'dist/corpus.json'));
    // As the Topics view lists them by default (everything shown, every level): the reading list's
    // count, then the field's other works.
    const rows = new CorpusBrowser(corpus).children({}, { scope: 'everything', levels: [...LEVELS], isRead: () => false });
    const expected = rows.flatMap((n) => (n.kind !== 'topic' ? [] : [`${n.topic.label} ${[n.readingList ? `0/${n.readingList}` : '',
      n.more ? `${n.more.toLocaleString('en-US')} ${n.readingList ? 'more' : 'works'}` : ''].filter(Boolean).join(' · ')}`]));
    await resetReadState(); // also collapses the tree: every root row is in view
    const roots = () => topicsTree().locator('.monaco-list-row[aria-level="1"]').evaluateAll((els) =>
      els.map((el) => [Number(el.getAttribute('data-index')),
        `${el.querySelector('.label-name')?.textContent ?? ''} ${el.querySelector('.label-description')?.textContent ?? ''}`] as const)
        .sort((a, b) => a[0] - b[0]).map(([, t]) => t));
    await expect.poll(roots, { timeout: 30_000 }).toEqual(expected);
    await treeRow('LLM inference serving').click();
    await treeRow('GPU memory management').waitFor();
    await expect(treeRow('GPU memory management').textContent()).resolves.toMatch(PROGRESS(0));
    await treeRow('GPU memory management').click();
    await treeRow(VLLM_TITLE).waitFor();
    await expect(treeRow(VLLM_TITLE).textContent()).resolves.toContain('⚡ SOSP 2023');
    await readmeScreenshot('topics');
  });

  test('Mark as Read from the context menu updates the progress, and survives a reload', async () => {
    await resetReadState();
    await revealVllm();
    const row = treeRow;
    // (A read entry's menu has "Mark as Unread", never "Mark as Read": the harness's retry cannot hide a wrong menu.)
    await contextMenu(page, row(VLLM_TITLE), 'Mark as Read');
    await expect.poll(async () => row('GPU memory management').textContent(), { timeout: 15_000 }).toMatch(PROGRESS(1));
    await expect(row(VLLM_TITLE).textContent()).resolves.toContain('✓');

    // Reload the window as a user would; the workbench flushes its state on the way out.
    await page.keyboard.press('F1');
    await quickInput.type(page, '>Developer: Reload Window');
    await quickInput.waitForItem(page, 'Developer: Reload Window');
    await Promise.all([page.waitForEvent('load', { timeout: 60_000 }), page.keyboard.press('Enter')]);
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
    await expandTopics('LLM inference serving');
    await expect.poll(async () => row('GPU memory management').textContent(), { timeout: 15_000 }).toMatch(PROGRESS(1));
    await expect(row('LLM inference serving').textContent()).resolves.toMatch(PROGRESS(1));
  });

  test('Filter by Level hides must-read entries from the tree and brings them back', async () => {
    const row = treeRow;
    await revealVllm();
    let hidden = false;
    // The level filter is a user setting: left on, it would hide vLLM from every later test.
    onTestFinished(async () => { if (hidden) await showAllLevels(); });
    const toggleMustRead = async () => {
      await runCommand(page, 'MLSys Papers: Filter by Level');
      await quickInput.waitForItem(page, 'must-read');
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'must-read' }).locator('.quick-input-list-checkbox, input[type=checkbox], .monaco-custom-toggle').first().click();
      await page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).click();
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
      hidden = !hidden;
    };
    await toggleMustRead();
    await row(VLLM_TITLE).waitFor({ state: 'detached', timeout: 15_000 });
    await expect(row('GPU memory management').textContent()).resolves.toMatch(PROGRESS(0));
    await toggleMustRead();
    await row(VLLM_TITLE).waitFor({ timeout: 15_000 });
  });

  test('mlsysPapers.showChineseLabels adds the Chinese topic labels, and turning it off removes them', async () => {
    const row = treeRow;
    const settingsFile = join(workspace, '.vscode/settings.json');
    const original = readFileSync(settingsFile, 'utf8');
    onTestFinished(() => writeFileSync(settingsFile, original));
    const withSetting = (on: boolean) => JSON.stringify({ ...JSON.parse(original), 'mlsysPapers.showChineseLabels': on }, null, 2);
    await collapseTopics();
    await row('LLM inference serving').waitFor();
    await expect(row('LLM inference serving').textContent()).resolves.not.toContain('LLM推理服务');
    // As a user editing .vscode/settings.json: VS Code reloads it and the view follows.
    writeFileSync(settingsFile, withSetting(true));
    await row('LLM inference serving · LLM推理服务').waitFor({ timeout: 30_000 });
    await row('Distributed training · ').waitFor();
    writeFileSync(settingsFile, withSetting(false));
    await row('LLM inference serving · LLM推理服务').waitFor({ state: 'detached', timeout: 30_000 });
    await row('LLM inference serving').waitFor();
  });

  test('Open Code and Open PDF from the context menu open the entry\'s links', async () => {
    const row = treeRow;
    await revealVllm();
    /** Runs a context-menu item and returns what the workbench shows for opening it (dialog text or new tab's URL). */
    const opened = async (item: string): Promise<string> => {
      await page.keyboard.press('Escape');
      await row(VLLM_TITLE).click({ button: 'right' });
      const menuItem = page.getByRole('menuitem', { name: item, exact: true });
      await menuItem.waitFor();
      await menuItem.hover(); // as in Mark as Read: a click without the hover is sometimes lost
      // VS Code either asks before opening an external site (the dialog names the URL) or opens
      // it in a new tab; whichever happens first answers, and nothing within 30 s fails the test.
      const pending = new Promise<string>(() => {});
      const popup = page.context().waitForEvent('page', { timeout: 30_000 })
        .then(async (p) => { const u = p.url(); await p.close(); return u; }, () => pending);
      const dialog = page.locator('.monaco-dialog-box').waitFor({ timeout: 30_000 }).then(async () => {
        const text = (await page.locator('.monaco-dialog-box').textContent()) ?? '';
        await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Cancel' }).click();
        await page.locator('.monaco-dialog-box').waitFor({ state: 'hidden' });
        return text;
      }, () => pending);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const nothing = new Promise<string>((_resolve, reject) => {
        timer = setTimeout(() => void screenshot(page, join(shots, `open-${item.replace(/\W+/g, '-')}.png`))
          .finally(() => reject(new Error(`${item}: no dialog and no new tab within 30 s`))), 30_000);
      });
      await menuItem.click();
      await menuItem.waitFor({ state: 'hidden' });
      try {
        return await Promise.race([popup, dialog, nothing]);
      } finally {
        clearTimeout(timer);
      }
    };
    expect(await opened('Open Code')).toContain('github.com/vllm-project/vllm');
    expect(await opened('Open PDF')).toContain('arxiv.org/pdf/2309.06180');
  });

  test('our results are not hidden by VS Code: a citation key finds a title that does not contain it', async () => {
    // searchFor fails unless the first row, settled, is the vLLM paper.
    await searchFor('MLSys Papers: Search', 'kwon2023', VLLM_TITLE);
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  });

  test('search for "paged attention" finds the vLLM paper first; Enter cites it in Markdown', async () => {
    const f = scratch('md-search', { 'notes.md': 'md-search.md', 'references.bib': 'references.bib' });
    const note = f['notes.md']!;
    const bibFile = f['references.bib']!;
    await openFile(page, note);
    await goTo(String(lineOf(note, 'Paging the KV cache removes fragmentation')), true);
    const rows = await searchFor('MLSys Papers: Search', 'paged attention', VLLM_TITLE);
    expect(rows[0]).toContain('Kwon, Li, Zhuang et al. · SOSP 2023');
    expect(rows[0]).toContain('LLM inference serving › GPU memory management');
    await readmeScreenshot('search');
    await page.keyboard.press('Enter');
    await waitForEditorText(page, '[@kwon2023efficient]');
    // The injection grammar colours the key: once tokenized, its token differs from the words around it.
    const tokenClasses = () => page.evaluate(() => {
      const spans = [...document.querySelectorAll<HTMLElement>('.editor-group-container.active .view-line span span')];
      const key = spans.find((s) => /^@?kwon2023efficient$/.test(s.textContent ?? ''));
      const word = spans.find((s) => (s.textContent ?? '').startsWith('Paging the KV cache'));
      return { key: key?.className, word: word?.className };
    });
    await expect.poll(async () => (await tokenClasses()).key, { timeout: 15_000 }).toBeTruthy();
    const classes = await tokenClasses();
    expect(classes.key).not.toBe(classes.word);
    await save(page);
    expect(onDisk(note)).toContain('Paging the KV cache removes fragmentation [@kwon2023efficient]\n');
    // The bibliography gained exactly that entry, after everything it had.
    const original = demo('references.bib');
    await expect.poll(() => onDisk(bibFile).length, { timeout: 15_000 }).toBeGreaterThan(original.length);
    const bib = onDisk(bibFile);
    expect(bib.startsWith(original)).toBe(true);
    expect(bib.slice(original.length)).toMatch(/^\n@inproceedings\{kwon2023efficient,\n/);
    expect(bib.match(/^@/gm)).toHaveLength(2);
    // Nothing else in the note changed.
    expect(onDisk(note).replace(' [@kwon2023efficient]', '')).toBe(demo('notes.md').replace(/fragmentation \n/, 'fragmentation\n'));
  });

  test('Enter in the search cites \\cite{key} in LaTeX, and Insert Citation joins an existing \\cite{…}', async () => {
    const f = scratch('tex-search', { 'paper.tex': 'tex-search.tex', 'references.bib': 'references.bib' });
    const paper = f['paper.tex']!;
    await citeVllmAt(paper, 'Paged KV-cache management', 'Paged KV-cache management\\cite{kwon2023efficient}');
    // The first citation adds kwon2023efficient to the bibliography (which had one entry).
    await expect.poll(() => onDisk(f['references.bib']!).match(/^@/gm)?.length, { timeout: 15_000 }).toBe(2);

    const line = lineOf(paper, 'Systems such as \\cite{yu2022orca,}');
    const column = onDisk(paper).split('\n')[line - 1]!.indexOf('orca,}') + 'orca,'.length + 1;
    await goTo(`${line}:${column}`);
    await searchFor('MLSys Papers: Insert Citation', 'paged attention', VLLM_TITLE);
    await page.keyboard.press('Enter');
    await waitForEditorText(page, '\\cite{yu2022orca,kwon2023efficient}');
    await save(page);
    const tex = onDisk(paper);
    expect(tex).toContain('Paged KV-cache management\\cite{kwon2023efficient}\n');
    expect(tex).toContain('Systems such as \\cite{yu2022orca,kwon2023efficient} shaped this field.');
    // The second citation of the same key must not add it again.
    expect(onDisk(f['references.bib']!).match(/^@/gm), 'no entry added twice').toHaveLength(2);
  });

  test('completion inside \\cite{…} offers keys ranked by our search', async () => {
    // Typed before the language server is up, nothing would complete: the tree fills from the server's corpus.
    await showTopics();
    const paper = scratch('tex-complete', { 'paper.tex': 'tex-complete.tex', 'references.bib': 'references.bib' })['paper.tex']!;
    await openFile(page, paper);
    await goTo(String(lineOf(paper, '\\bibliographystyle{plain}')));
    await page.keyboard.press('Home');
    await typeInEditor(page, 'See \\cite{pagedatt');
    const first = page.locator('.suggest-widget .monaco-list-row[data-index="0"]');
    await expect.poll(async () => (await first.textContent()) ?? '', { timeout: 30_000 }).toContain('kwon2023efficient');
    await readmeScreenshot('completion');
    await page.keyboard.press('Enter');
    await waitForEditorText(page, 'See \\cite{kwon2023efficient}');
  });

  test('completion after [@ in Markdown', async () => {
    // Typed before the language server is up, nothing would complete: the tree fills from the server's corpus.
    await showTopics();
    const note = scratch('md-complete', { 'notes.md': 'md-complete.md', 'references.bib': 'references.bib' })['notes.md']!;
    await openFile(page, note);
    await page.keyboard.press('Control+End');
    await typeInEditor(page, '\nOrca introduced iteration-level scheduling [@orc');
    const first = page.locator('.suggest-widget .monaco-list-row[data-index="0"]');
    await expect.poll(async () => (await first.textContent()) ?? '', { timeout: 30_000 }).toContain('yu2022orca');
    await page.keyboard.press('Enter');
    // The note already cites yu2022orca elsewhere: wait for this line's citation. The closing `]`
    // is VS Code's auto-closing of the typed `[`, which two of the last full runs lacked (the key
    // inserted, the line ending `[@yu2022orca`): the key is checked, the bracket allowed either way,
    // and nothing else on the line.
    await waitForEditorText(page, 'iteration-level scheduling [@yu2022orca');
    await save(page);
    expect(onDisk(note)).toMatch(/^Orca introduced iteration-level scheduling \[@yu2022orca\]?$/m);
  });

  test('the keybindings: Ctrl+Alt+P searches and Ctrl+Alt+K inserts a citation in a Markdown editor', async () => {
    const note = scratch('md-keys', { 'notes.md': 'md-keys.md', 'references.bib': 'references.bib' })['notes.md']!;
    await showTopics(); // the server is up
    await openFile(page, note);
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Control+Alt+P');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'MLSys Papers: Search' }).waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await typeInEditor(page, '\nCited by key: ');
    await page.keyboard.press('Control+Alt+K');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'MLSys Papers' }).waitFor({ timeout: 15_000 });
    await quickInput.type(page, 'orca');
    const first = page.locator('.quick-input-widget .monaco-list-row[data-index="0"] >> visible=true');
    await expect.poll(async () => (await first.textContent()) ?? '', { timeout: 30_000 }).toContain(ORCA_TITLE);
    await page.keyboard.press('Enter');
    // The note already cites yu2022orca elsewhere: wait for this line's citation.
    await waitForEditorText(page, 'Cited by key: [@yu2022orca]');
    await save(page);
    expect(onDisk(note)).toContain('Cited by key: [@yu2022orca]');
  });

  test('Show Log opens the MLSys Papers log, which records the corpus load', async () => {
    await showTopics(); // the server is up and has logged its corpus
    await runCommand(page, 'MLSys Papers: Show Log');
    // The panel would stay open (and hold the focus) in later tests.
    onTestFinished(async () => {
      await page.keyboard.press('Escape');
      await runCommand(page, 'View: Hide Panel');
    });
    const panel = page.locator('.part.panel');
    // The log's first lines record the corpus load; later ones (libraries joining as documents
    // open) may have scrolled it, and the output view follows new lines: the editor shows only the
    // lines in view, so each look first goes to the top. (Forced: the editor's scroll shadow lies
    // over its first line once it has scrolled.)
    const lines = panel.locator('.view-lines').first();
    await expect.poll(async () => {
      await lines.click({ force: true }).catch(() => undefined);
      await page.keyboard.press('Control+Home');
      return (await lines.textContent().catch(() => '')) ?? '';
    }, { timeout: 30_000, interval: 500 }).toMatch(/corpus:\s\d+\sentries/); // the editor shows spaces as no-break spaces
  });

  test('Show Details opens a webview with the entry, its BibTeX, and a working read toggle', async () => {
    await markUnread('yu2022orca', ORCA_TITLE);
    await searchFor('MLSys Papers: Show Details', 'orca', 'Orca: A Distributed Serving System');
    await page.keyboard.press('Enter');
    const frame = async () => {
      for (const f of page.frames()) {
        if (await f.locator('#title').count().catch(() => 0)) return f;
      }
      return undefined;
    };
    await expect.poll(async () => (await (await frame())?.locator('#title').textContent()) ?? '', { timeout: 30_000 })
      .toBe(ORCA_TITLE);
    const f = (await frame())!;
    await expect(f.locator('#bibtex').textContent()).resolves.toContain('@inproceedings{yu2022orca,');
    await expect(f.locator('#read').textContent()).resolves.toBe('not read');
    // Where the fields were checked is there for a curator, folded away from a reader.
    const sources = f.locator('details#sources');
    await expect(sources.getAttribute('open')).resolves.toBeNull();
    await expect(sources.locator('a').first().isVisible()).resolves.toBe(false);
    await sources.locator('summary').click();
    await expect.poll(() => sources.locator('a').first().isVisible(), { timeout: 5_000 }).toBe(true);
    await f.locator('#toggleRead').click();
    await expect.poll(async () => (await (await frame())?.locator('#read').textContent()) ?? '', { timeout: 15_000 }).toBe('✓ read');
    await readmeScreenshot('details');
  });

  test('a document with no bibliography is offered references.bib, created and declared', async () => {
    mkdirSync(join(workspace, 'no-bib'));
    writeFileSync(join(workspace, 'no-bib/no-bib.tex'), '\\documentclass{article}\n\\begin{document}\nDraft: \n\\end{document}\n');
    await openFile(page, 'no-bib/no-bib.tex');
    await goTo('3', true);
    await searchFor('MLSys Papers: Search', 'paged attention', VLLM_TITLE);
    await page.keyboard.press('Enter');
    await waitForEditorText(page, 'Draft: \\cite{kwon2023efficient}');
    const button = page.locator('.notifications-toasts .monaco-button', { hasText: 'Create references.bib' });
    await button.click({ timeout: 30_000 });
    await expect.poll(() => { try { return onDisk('no-bib/references.bib'); } catch { return ''; } }, { timeout: 15_000 }).toMatch(/^@inproceedings\{kwon2023efficient,/);
    await waitForEditorText(page, '\\bibliography{references}');
    await save(page);
    expect(onDisk('no-bib/no-bib.tex')).toBe('\\documentclass{article}\n\\begin{document}\nDraft: \\cite{kwon2023efficient}\n\\bibliographystyle{plain}\n\\bibliography{references}\n\\end{document}\n');
  });

  test('Export Cited Entries writes the keys a note cites as BibTeX, through the save dialog', async () => {
    // A note citing yu2022orca, then kwon2023efficient, then yu2022orca again.
    const note = scratch('export', { 'notes.md': 'export.md', 'references.bib': 'references.bib' })['notes.md']!;
    writeFileSync(join(workspace, note), demo('notes.md').replace('fragmentation \n', 'fragmentation [@kwon2023efficient]\n')
      + '\nOrca introduced iteration-level scheduling [@yu2022orca]\n');
    // The save dialog proposes cited-references.bib in the workspace folder; no earlier file may answer for this test.
    rmSync(join(workspace, 'cited-references.bib'), { force: true });
    // Run first in a fresh window, the command starts the extension, and its request reaches the
    // server before the note's didOpen (seed 574759 in the web host): the server waits for it.
    await openFile(page, note);
    await runCommand(page, 'MLSys Papers: Export Cited Entries');
    await quickInput.pick(page, 'BibTeX');
    // code-server's save dialog is a quick input holding the path; the default is cited-references.bib.
    const box = page.locator('.quick-input-widget .quick-input-box input >> visible=true');
    await expect.poll(async () => box.inputValue(), { timeout: 15_000 }).toMatch(/cited-references\.bib$/);
    await page.keyboard.press('Enter');
    await expect.poll(() => { try { return onDisk('cited-references.bib'); } catch { return ''; } }, { timeout: 15_000 }).toMatch(/@inproceedings\{yu2022orca,/);
    const exported = onDisk('cited-references.bib');
    expect([...exported.matchAll(/^@\w+\{([^,]+),/gm)].map((m) => m[1])).toEqual(['yu2022orca', 'kwon2023efficient']);
  });

  test('Export Cited Entries on a note that cites nothing says so, and asks nothing', async () => {
    const note = scratch('export-none', { 'notes.md': 'nothing-cited.md' })['notes.md']!;
    writeFileSync(join(workspace, note), '# Notes\n\nNothing cited here yet.\n');
    await openFile(page, note);
    await runCommand(page, 'MLSys Papers: Export Cited Entries');
    await page.locator('.notifications-toasts', { hasText: 'this document cites no entry of the corpus' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'BibTeX' }).isVisible()).toBe(false);
  });

  test('the cited paper compiles with pdflatex + bibtex and with biblatex + biber, and the note renders with pandoc --citeproc', async () => {
    // The paper and the note cite yu2022orca (as in the demo) and kwon2023efficient (cited here
    // through the extension, which also adds its entry to references.bib).
    const dir = 'compile';
    const f = scratch(dir, { 'paper.tex': 'paper.tex', 'notes.md': 'notes.md', 'references.bib': 'references.bib' });
    await citeVllmAt(f['paper.tex']!, 'Paged KV-cache management', 'Paged KV-cache management\\cite{kwon2023efficient}');
    await save(page);
    await citeVllmAt(f['notes.md']!, 'Paging the KV cache removes fragmentation', '[@kwon2023efficient]');
    await save(page);
    await expect.poll(() => onDisk(f['references.bib']!), { timeout: 15_000 }).toMatch(/^@inproceedings\{kwon2023efficient,/m);

    const local = (name: string) => onDisk(`${dir}/${name}`);
    const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: join(workspace, dir), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const tex = ['-interaction=nonstopmode', '-halt-on-error'];
    run('pdflatex', [...tex, 'paper']);
    run('bibtex', ['paper']);
    run('pdflatex', [...tex, 'paper']);
    run('pdflatex', [...tex, 'paper']);
    const bbl = local('paper.bbl');
    expect(bbl).toContain('\\bibitem{kwon2023efficient}');
    expect(bbl).toContain('\\bibitem{yu2022orca}');
    expect(local('paper.log')).not.toMatch(/Citation `[^']+' on page \d+ undefined/);

    // The same paper with biblatex + biber.
    writeFileSync(join(workspace, dir, 'paper-biber.tex'), local('paper.tex')
      .replace('\\begin{document}', '\\usepackage[backend=biber]{biblatex}\n\\addbibresource{references.bib}\n\\begin{document}')
      .replace(/\\bibliographystyle\{plain\}\n\\bibliography\{references\}/, '\\printbibliography'));
    run('pdflatex', [...tex, 'paper-biber']);
    run('biber', ['paper-biber']);
    run('pdflatex', [...tex, 'paper-biber']);
    const biberBbl = local('paper-biber.bbl');
    expect(biberBbl).toContain('\\entry{kwon2023efficient}');
    expect(biberBbl).toContain('\\entry{yu2022orca}');

    const rendered = run('pandoc', ['--citeproc', '-t', 'plain', 'notes.md']);
    expect(rendered).toMatch(/Kwon, Woosuk/);
    expect(rendered).toMatch(/Yu, Gyeong-In/);
  });
});
