/**
 * The writer's citation-key features in a real VS Code, each on a two-file LaTeX project of its own
 * (a root that `\input`s a section and declares the `.bib`): F2 on a citation renames the key in
 * every citation of the project, open or not, and in the `.bib` (checked byte for byte on disk);
 * the `.bib` entry's code lens says how often it is cited; an entry nobody cites is hinted, and its
 * quick fix removes exactly that entry. Its own code-server: the projects are edited.
 *
 * The projects are written before code-server starts, one folder per test (no test reads another's),
 * with file names of their own so that quick open and the tabs are unambiguous.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, onTestFailed, test } from 'vitest';
import {
  extensionUnderTest, launchBrowser, openFile, openWorkbench, quickInput, resetWorkbench, runCommand, save, screenshot, startCodeServer, testResults,
  waitForEditorText, type CodeServer,
} from './harness';

const workspace = mkdtempSync(join(tmpdir(), 'mlsys-e2e-rename-'));
let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;

/** A `.bib` entry of made-up works (none in the corpus, so no other hint lands on them). */
const entry = (type: string, key: string, title: string, year: number) =>
  `@${type}{${key},\n  title  = {${title}},\n  author = {Doe, Jane},\n  year   = {${year}},\n}\n`;
const QUOKKA = entry('inproceedings', 'doe2024quokka', 'Quokka: A Scheduler for {GPU} Clusters', 2024);
const WOMBAT = entry('article', 'roe2023wombat', 'Wombat: Burrowing into Checkpoints', 2023);
const NUMBAT = entry('misc', 'poe2022numbat', 'Numbat: Termite-Sized Kernels', 2022);

/** A root that `\input`s `sections/<intro>` and reads `<bib>.bib`, with `body` before the input. */
const root = (intro: string, bib: string, body: string) => [
  '\\documentclass{article}',
  '\\begin{document}',
  body,
  `\\input{sections/${intro}}`,
  '\\bibliographystyle{plain}',
  `\\bibliography{${bib}}`,
  '\\end{document}',
  '',
].join('\n');

/** Each test's project: folder → file (relative to it) → text. */
const projects = {
  rename: {
    'main.tex': root('intro', 'refs', '% Follow-up of doe2024quokka: see the introduction.\nQuokka~\\cite{doe2024quokka} schedules jobs.'),
    'sections/intro.tex': '\\section{Introduction}\nUnlike~\\cite{roe2023wombat, doe2024quokka}, we batch; Quokka~\\cite[p.~2]{doe2024quokka} does not.\n',
    'refs.bib': `${QUOKKA}\n${WOMBAT}`,
  },
  lens: {
    'lens-main.tex': root('lens-intro', 'lens', 'Quokka~\\cite{doe2024quokka} schedules jobs.'),
    'sections/lens-intro.tex': '\\section{Introduction}\nUnlike~\\cite{roe2023wombat,doe2024quokka}, we batch; so does~\\cite{doe2024quokka}.\n',
    'lens.bib': `${QUOKKA}\n${WOMBAT}\n${NUMBAT}`,
  },
  unused: {
    'unused-main.tex': root('unused-intro', 'unused', 'Quokka~\\cite{doe2024quokka} schedules jobs.'),
    'sections/unused-intro.tex': '\\section{Introduction}\nNumbat~\\cite{poe2022numbat} is small.\n',
    'unused.bib': `${QUOKKA}\n${WOMBAT}\n${NUMBAT}`,
  },
} satisfies Record<string, Record<string, string>>;

for (const [dir, files] of Object.entries(projects)) {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, dir, name)), { recursive: true });
    writeFileSync(join(workspace, dir, name), text);
  }
}

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

beforeEach(async ({ task }) => {
  onTestFailed(() => screenshot(page, join(testResults, `rename-failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}.png`)));
  await resetWorkbench(page);
});

const onDisk = (path: string) => readFileSync(join(workspace, path), 'utf8');
const ACTIVE_EDITOR = '.editor-group-container.active .monaco-editor';

/** Moves the cursor of the active editor into the first `text` of `path` (its `inside`-th character), with Go to Line (Ctrl+G). */
async function cursorInto(path: string, text: string, inside = 2): Promise<void> {
  const lines = onDisk(path).split('\n');
  const line = lines.findIndex((l) => l.includes(text));
  if (line < 0) throw new Error(`${path} has no line containing ${text}`);
  await page.keyboard.press('Control+G');
  await quickInput.type(page, `:${line + 1}:${lines[line]!.indexOf(text) + 1 + inside}`);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  await page.locator(ACTIVE_EDITOR + '.focused').waitFor();
}

describe('citation keys in a real VS Code', () => {
  test('F2 on a citation renames the key in the .bib and in every citation of the project, also in files not open', async () => {
    const expected = {
      'rename/main.tex': projects.rename['main.tex'].replace('\\cite{doe2024quokka}', '\\cite{quokka2024sched}'),
      'rename/sections/intro.tex': '\\section{Introduction}\nUnlike~\\cite{roe2023wombat, quokka2024sched}, we batch; Quokka~\\cite[p.~2]{quokka2024sched} does not.\n',
      'rename/refs.bib': `${QUOKKA.replace('{doe2024quokka,', '{quokka2024sched,')}\n${WOMBAT}`,
    };
    // The comment's mention of the key is no citation: it stays.
    expect(expected['rename/main.tex']).toContain('% Follow-up of doe2024quokka');
    const before = Object.fromEntries(Object.keys(expected).map((p) => [p, onDisk(p)]));
    await openFile(page, 'rename/sections/intro.tex');
    await cursorInto('rename/sections/intro.tex', '[p.~2]{doe2024quokka}', 10);
    // The rename box holds the key once the server has answered prepareRename; F2 pressed before the
    // server knew the project (the first seconds) shows no box or a refusal: pressed again until it does.
    const box = page.locator(`${ACTIVE_EDITOR} .rename-box input.rename-input`);
    await expect.poll(async () => {
      if (!(await box.isVisible())) {
        await page.keyboard.press('Escape');
        await page.keyboard.press('F2');
        await box.waitFor({ timeout: 5_000 }).catch(() => undefined);
      }
      return (await box.isVisible()) ? box.inputValue() : '';
    }, { timeout: 60_000, interval: 500 }).toBe('doe2024quokka');
    // The box may take the placeholder again while the first keys are typed (the answer to an
    // earlier F2 arriving): typed again until it holds the new name, two reads in a row.
    let held = 0;
    await expect.poll(async () => {
      if ((await box.inputValue()) !== 'quokka2024sched') {
        held = 0;
        await box.press('ControlOrMeta+A');
        await page.keyboard.type('quokka2024sched');
      }
      held = (await box.inputValue()) === 'quokka2024sched' ? held + 1 : 0;
      return held;
    }, { timeout: 30_000, interval: 500 }).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Enter');
    await box.waitFor({ state: 'hidden' });
    // One workspace edit changes every file: once the open one shows it, all the models have it.
    await waitForEditorText(page, 'Quokka~\\cite[p.~2]{quokka2024sched} does not.');
    await runCommand(page, 'File: Save All');
    await page.locator('.tabs-container .tab.dirty').waitFor({ state: 'detached' });
    // The files not open are saved by the edit itself (files.refactoring.autoSave) or by Save All: wait until each has changed on disk.
    await expect.poll(() => Object.keys(expected).filter((p) => onDisk(p) === before[p]), { timeout: 30_000 }).toEqual([]);
    for (const [path, text] of Object.entries(expected)) expect(onDisk(path), path).toBe(text);
  });

  test('the .bib entry\'s code lens says how often it is cited, and in how many files', async () => {
    await openFile(page, 'lens/lens.bib');
    const lenses = () => page.locator(`${ACTIVE_EDITOR} .codelens-decoration > a, ${ACTIVE_EDITOR} .codelens-decoration > span`).allTextContents();
    // The lenses come once the server has read the project (and again on its refresh).
    await expect.poll(lenses, { timeout: 60_000 }).toContain('cited 3 times in 2 files');
    const texts = await lenses();
    expect(texts).toContain('not cited');
    expect(texts.filter((t) => /^cited once in .*lens-intro\.tex$/.test(t))).toHaveLength(1);
  });

  test('an entry no document cites is hinted, and its quick fix "Remove unused entry" removes exactly that entry', async () => {
    const bib = 'unused/unused.bib';
    expect(onDisk(bib)).toBe(`${QUOKKA}\n${WOMBAT}\n${NUMBAT}`);
    await openFile(page, bib);
    // The hint, tagged Unnecessary, shows the key faded.
    await page.locator(`${ACTIVE_EDITOR} .squiggly-inline-unnecessary`).first().waitFor({ timeout: 60_000 });
    await cursorInto(bib, 'roe2023wombat');
    const fix = page.locator('.action-widget .monaco-list-row.action', { hasText: 'Remove unused entry roe2023wombat' });
    // Ctrl+. asks for the actions at the cursor; a menu opened before the hint's diagnostics reached the request lacks the fix: asked again.
    await expect.poll(async () => {
      if (!(await fix.isVisible())) {
        await page.keyboard.press('Escape');
        await page.keyboard.press('Control+.');
        await fix.waitFor({ timeout: 5_000 }).catch(() => undefined);
      }
      return fix.isVisible();
    }, { timeout: 60_000, interval: 500 }).toBe(true);
    await fix.click();
    await fix.waitFor({ state: 'hidden' });
    // The edit applied: the editor has unsaved changes.
    await page.locator('.tabs-container .tab.active.dirty').waitFor();
    await save(page);
    expect(onDisk(bib)).toBe(`${QUOKKA}\n${NUMBAT}`);
  });
});
