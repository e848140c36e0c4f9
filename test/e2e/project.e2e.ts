/**
 * A multi-file LaTeX paper in a real VS Code: the section file, opened alone, carries no
 * `% !TEX root` magic comment; the language server finds its root (`main.tex`, which `\input`s it
 * and declares `\bibliography{refs}`) from the workspace's `.tex` files. A key of the root's `.bib`
 * is not flagged, a key nobody defines is flagged as "not in refs.bib" (so the root's bibliography
 * was read), and `\cite{` completes the root's keys. Its own code-server: a workspace of its own.
 *
 * And the declared bibliography's own problems, as the user sees them (the Problems panel, the
 * editor's squiggles) and as the disk keeps them, each in a folder of its own:
 * - a `.bib` with a syntax error: the citing document's problem is on its `\bibliography{…}` line,
 *   not on the good `\cite` above it;
 * - a `.bib` that is a link leading to nothing: "not a regular file", and Insert Citation cites but
 *   neither creates nor writes anything through the link;
 * - a CSL-JSON bibliography with a blank `id`: the problem is in the `.json` file's own editor.
 */
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  extensionUnderTest, goToLine, launchBrowser, openFile, openWorkbench, pickFromSearch, resetWorkbench, runCommand, save, startCodeServer, typeInEditor,
  waitForEditorText, type CodeServer,
} from './harness';

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

// A .bib whose second entry is never closed; the first one (the one cited) reads.
mkdirSync(join(workspace, 'broken'));
const BROKEN_TEX = ['\\documentclass{article}', '\\begin{document}', 'See \\cite{good2020}.', '\\bibliography{refs}', '\\end{document}', ''].join('\n');
writeFileSync(join(workspace, 'broken/broken.tex'), BROKEN_TEX);
writeFileSync(join(workspace, 'broken/refs.bib'), '@misc{good2020,\n  title = {Good},\n  year = {2020},\n}\n\n@misc{broken,\n  title = {Never closed,\n  year = 2020\n\n@misc{other,\n  title = {Other},\n}\n');
// A declared bibliography that is a link to a file that does not exist: writing through it would create target.bib.
mkdirSync(join(workspace, 'special'));
const SPECIAL_TEX = ['\\documentclass{article}', '\\begin{document}', 'Paged attention~\\cite{kwon2023efficient}.', 'Iteration-level scheduling:', '\\bibliography{refs}', '\\end{document}', ''].join('\n');
writeFileSync(join(workspace, 'special/special.tex'), SPECIAL_TEX);
symlinkSync('target.bib', join(workspace, 'special/refs.bib'));
// A CSL-JSON bibliography whose second item's id is blank.
mkdirSync(join(workspace, 'csl'));
writeFileSync(join(workspace, 'csl/csl-refs.json'), ['[', '  {"id": "fine2021", "title": "Fine"},', '  {"id": "   ", "title": "Blank"}', ']', ''].join('\n'));

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

  test('a .bib with a syntax error: the citing document\'s problem is on its \\bibliography line, not on the good \\cite', async () => {
    await resetWorkbench(page);
    await openFile(page, 'broken/broken.tex');
    const message = /refs\.bib, line \d+: .*\. The keys of its other entries are checked\./;
    await expect.poll(async () => (await problemsOf('broken.tex')).filter((p) => message.test(p)), { timeout: 60_000 }).toHaveLength(1);
    const [row] = (await problemsOf('broken.tex')).filter((p) => message.test(p));
    // Line 4 is \bibliography{refs}; line 3, the good \cite{good2020}.
    expect(row).toMatch(/\[Ln 4, Col 1\]$/);
    expect((await problemsOf('broken.tex')).filter((p) => /\[Ln 3,/.test(p))).toEqual([]);
    await closeProblems();
    // The editor squiggles that line alone (a warning: the keys of the file's other entries still count).
    await expect.poll(() => squiggledLines('warning'), { timeout: 15_000 }).toEqual(['\\bibliography{refs}']);
    expect(await squiggledLines('error')).toEqual([]);
    expect(readFileSync(join(workspace, 'broken/broken.tex'), 'utf8')).toBe(BROKEN_TEX);
  });

  test('a bibliography that is a link leading to nothing is "not a regular file"; Insert Citation cites and writes nothing through it', async () => {
    await resetWorkbench(page);
    await openFile(page, 'special/special.tex');
    await expect.poll(async () => (await problemsOf('special.tex')).join('\n'), { timeout: 60_000 })
      .toContain('"kwon2023efficient" is in the MLSys Papers corpus; special/refs.bib is not a regular file (a device, a pipe, a folder or a link that leads to none), so it is not read.');
    expect((await problemsOf('special.tex')).join('\n')).not.toContain('does not exist');
    await closeProblems();
    await goToLine(page, 4, true);
    await pickFromSearch(page, 'MLSys Papers: Insert Citation', 'orca iteration-level scheduling', 'Orca: A Distributed Serving System');
    await waitForEditorText(page, 'Iteration-level scheduling:\\cite{yu2022orca}');
    await page.locator('.notifications-toasts', { hasText: 'refs.bib not a regular file; it was not changed; add yu2022orca by hand' }).waitFor({ timeout: 30_000 });
    await save(page);
    expect(readFileSync(join(workspace, 'special/special.tex'), 'utf8')).toBe(SPECIAL_TEX.replace('scheduling:', 'scheduling:\\cite{yu2022orca}'));
    // The link is as it was, and nothing was created through it (target.bib) or beside it.
    expect(lstatSync(join(workspace, 'special/refs.bib')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(workspace, 'special/refs.bib'))).toBe('target.bib');
    expect(readdirSync(join(workspace, 'special')).sort()).toEqual(['refs.bib', 'special.tex']);
  });

  test('a CSL-JSON bibliography with a blank id: the problem is in the .json file\'s own editor and Problems', async () => {
    await resetWorkbench(page);
    await openFile(page, 'csl/csl-refs.json');
    const message = 'this CSL item\'s "id" is blank (only white space); skipped';
    await expect.poll(async () => (await problemsOf('csl-refs.json')).filter((p) => p.includes(message)), { timeout: 60_000 }).toHaveLength(1);
    expect((await problemsOf('csl-refs.json')).find((p) => p.includes(message))).toMatch(/\[Ln 3, Col \d+\]$/);
    await closeProblems();
    await expect.poll(() => squiggledLines('warning'), { timeout: 15_000 }).toEqual(['  {"id": "   ", "title": "Blank"}']);
  });
});

/**
 * The Problems panel's rows for the file named `name` (its resource row's label starts with it),
 * each as the row's text: message, source, `[Ln L, Col C]`. Opens the panel (Ctrl+Shift+M toggles
 * it) if it is not shown.
 */
async function problemsOf(name: string): Promise<string[]> {
  const panel = page.locator('.markers-panel');
  if (!(await panel.isVisible())) {
    await page.keyboard.press('Control+Shift+M');
    await panel.waitFor();
  }
  const rows = await panel.locator('.monaco-list-row').evaluateAll((els) => els
    .map((el) => [Number(el.getAttribute('data-index')), el.getAttribute('aria-level'), (el.textContent ?? '').replace(/\u00a0/g, ' ')] as const)
    .sort((a, b) => a[0] - b[0]));
  const out: string[] = [];
  let inFile = false;
  for (const [, level, text] of rows) {
    if (level === '1') inFile = text.startsWith(name);
    else if (inFile) out.push(text);
  }
  return out;
}

/**
 * Hides the Problems panel if it is shown (it would keep the focus from the editor). By the command:
 * Ctrl+Shift+M only focuses a panel shown but not focused.
 */
async function closeProblems(): Promise<void> {
  if (!(await page.locator('.markers-panel').isVisible())) return;
  await runCommand(page, 'View: Hide Panel');
  await page.locator('.markers-panel').waitFor({ state: 'hidden' });
}

/** The text of each line of the active editor that a squiggle of `severity` marks, top to bottom (matched by where each is drawn). */
function squiggledLines(severity: 'error' | 'warning'): Promise<string[]> {
  return page.evaluate((severity) => {
    const editor = document.querySelector('.editor-group-container.active .monaco-editor');
    if (!editor) return [];
    const lines = [...editor.querySelectorAll<HTMLElement>('.view-lines > .view-line')]
      .map((l) => ({ box: l.getBoundingClientRect(), text: l.innerText.replace(/\u00a0/g, ' ') }))
      .sort((a, b) => a.box.top - b.box.top);
    const marked = new Set<string>();
    for (const sq of editor.querySelectorAll(`.view-overlays .squiggly-${severity}`)) {
      const box = sq.getBoundingClientRect();
      const y = (box.top + box.bottom) / 2;
      const line = lines.find((l) => l.box.top <= y && y < l.box.bottom);
      marked.add(line ? line.text : `(no line at y=${y})`);
    }
    return lines.map((l) => l.text).filter((t) => marked.delete(t)).concat([...marked]);
  }, severity);
}
