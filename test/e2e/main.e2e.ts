/**
 * The main job, as a user does it in a real VS Code: open the Topics view, expand a topic, search
 * "paged attention", insert the citation into a Markdown note and a LaTeX paper (also into an
 * existing \cite{…}), complete a key, save, and check the files on disk.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  launchBrowser, openFile, openWorkbench, quickInput, repoRoot, runCommand, save, screenshot, startCodeServer,
  typeInEditor, waitForEditorText, type CodeServer,
} from './harness';

const VLLM_TITLE = 'Efficient Memory Management for Large Language Model Serving with PagedAttention';
const shots = join(repoRoot, 'test-results');
const workspace = mkdtempSync(join(tmpdir(), 'mlsys-e2e-'));
cpSync(join(repoRoot, 'demo'), workspace, { recursive: true });
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
  rmSync(workspace, { recursive: true, force: true });
});

const onDisk = (name: string) => readFileSync(join(workspace, name), 'utf8');

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

/** Runs the search, types the query and waits until the first row holds `title`. Returns the rows' texts in list order. */
async function searchFor(command: string, query: string, title: string): Promise<string[]> {
  await page.keyboard.press('Escape'); // nothing else (a menu, a hover) may hold the focus
  await runCommand(page, command);
  await quickInput.type(page, query);
  const first = page.locator('.quick-input-widget .monaco-list-row[data-index="0"] >> visible=true');
  await expect.poll(async () => (await first.textContent()) ?? '', { timeout: 30_000 }).toContain(title);
  // The list is virtual: DOM order is not list order, data-index is; rows of other, hidden lists
  // (the command palette's) are left out.
  const rows = await page.locator('.quick-input-widget .monaco-list-row').evaluateAll((els) =>
    els.filter((el) => (el as HTMLElement).offsetParent !== null)
      .map((el) => [Number(el.getAttribute('data-index')), el.textContent ?? ''] as const).sort((a, b) => a[0] - b[0]).map(([, t]) => t));
  const top = (await first.textContent()) ?? '';
  if (!top.includes(title)) {
    // Seen rarely: the list changed after the first row had shown `title`. Keep the evidence.
    await screenshot(page, join(shots, 'search-changed.png'));
    console.warn(`search "${query}": first row changed to ${JSON.stringify(top)}; rows ${JSON.stringify(rows.slice(0, 4))}`);
  }
  return [top, ...rows.slice(1)];
}

describe('MLSys Papers in a real VS Code', () => {
  test('the Topics view shows the seed taxonomy and expands to entries', async () => {
    await page.locator('.activitybar .action-item a[aria-label^="MLSys Papers"]').click();
    const tree = page.locator('.pane-body .monaco-list[aria-label*="Topics"], .pane-body .monaco-list').first();
    const row = (label: string) => page.locator('.monaco-list-row', { hasText: label }).first();
    for (const label of ['AI fundamentals', 'Distributed training', 'LLM inference serving', 'Diffusion inference serving']) {
      await row(label).waitFor({ timeout: 30_000 });
    }
    await row('LLM inference serving').click();
    await row('GPU memory management').waitFor();
    await expect(row('GPU memory management').textContent()).resolves.toMatch(/0\/\d+$/);
    await row('GPU memory management').click();
    await row(VLLM_TITLE).waitFor();
    await expect(row(VLLM_TITLE).textContent()).resolves.toContain('⚡ SOSP 2023');
    expect(await tree.count()).toBeGreaterThan(0);
    await screenshot(page, join(shots, 'topics.png'));
  });

  test('Mark as Read from the context menu updates the progress, and survives a reload', async () => {
    const row = (label: string) => page.locator('.monaco-list-row', { hasText: label }).first();
    await row(VLLM_TITLE).click();
    await row(VLLM_TITLE).click({ button: 'right' });
    const item = page.getByRole('menuitem', { name: 'Mark as Read', exact: true });
    await item.waitFor();
    await item.hover();
    await item.click();
    await item.waitFor({ state: 'hidden' });
    await expect.poll(async () => row('GPU memory management').textContent(), { timeout: 15_000 }).toMatch(/1\/\d+$/);
    await expect(row(VLLM_TITLE).textContent()).resolves.toContain('✓');

    // Reload the window as a user would; the workbench flushes its state on the way out.
    await page.keyboard.press('F1');
    await quickInput.type(page, '>Developer: Reload Window');
    await quickInput.waitForItem(page, 'Developer: Reload Window');
    await Promise.all([page.waitForEvent('load', { timeout: 60_000 }), page.keyboard.press('Enter')]);
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
    const topics = row('LLM inference serving');
    if (!(await topics.isVisible())) await page.locator('.activitybar .action-item a[aria-label^="MLSys Papers"]').click();
    await topics.waitFor({ timeout: 30_000 });
    if (!(await row('GPU memory management').isVisible())) await topics.click();
    await expect.poll(async () => row('GPU memory management').textContent(), { timeout: 15_000 }).toMatch(/1\/\d+$/);
    await expect(topics.textContent()).resolves.toMatch(/1\/\d+$/);
  });

  test('Filter by Level hides must-read entries from the tree and brings them back', async () => {
    const row = (label: string) => page.locator('.monaco-list-row', { hasText: label }).first();
    if (!(await row(VLLM_TITLE).isVisible())) await row('GPU memory management').click();
    await row(VLLM_TITLE).waitFor();
    const toggleMustRead = async () => {
      await runCommand(page, 'MLSys Papers: Filter by Level');
      await quickInput.waitForItem(page, 'must-read');
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'must-read' }).locator('.quick-input-list-checkbox, input[type=checkbox], .monaco-custom-toggle').first().click();
      await page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).click();
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    };
    await toggleMustRead();
    await row(VLLM_TITLE).waitFor({ state: 'detached', timeout: 15_000 });
    await expect(row('GPU memory management').textContent()).resolves.toMatch(/0\/\d+$/);
    await toggleMustRead();
    await row(VLLM_TITLE).waitFor({ timeout: 15_000 });
  });

  test('mlsysPapers.showChineseLabels adds the Chinese topic labels, and turning it off removes them', async () => {
    const row = (label: string) => page.locator('.monaco-list-row', { hasText: label }).first();
    const settingsFile = join(workspace, '.vscode/settings.json');
    const original = readFileSync(settingsFile, 'utf8');
    const withSetting = (on: boolean) => JSON.stringify({ ...JSON.parse(original), 'mlsysPapers.showChineseLabels': on }, null, 2);
    await row('LLM inference serving').waitFor();
    await expect(row('LLM inference serving').textContent()).resolves.not.toContain('LLM推理服务');
    // As a user editing .vscode/settings.json: VS Code reloads it and the view follows.
    writeFileSync(settingsFile, withSetting(true));
    await row('LLM inference serving · LLM推理服务').waitFor({ timeout: 30_000 });
    await row('Distributed training · ').waitFor();
    writeFileSync(settingsFile, withSetting(false));
    await row('LLM inference serving · LLM推理服务').waitFor({ state: 'detached', timeout: 30_000 });
    await row('LLM inference serving').waitFor();
    writeFileSync(settingsFile, original);
  });

  test('Open Code and Open PDF from the context menu open the entry\'s links', async () => {
    const row = (label: string) => page.locator('.monaco-list-row', { hasText: label }).first();
    if (!(await row(VLLM_TITLE).isVisible())) await row('GPU memory management').click();
    await row(VLLM_TITLE).waitFor();
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
    const rows = await searchFor('MLSys Papers: Search', 'kwon2023', VLLM_TITLE);
    expect(rows.length).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  });

  test('search for "paged attention" finds the vLLM paper first; Enter cites it in Markdown', async () => {
    await openFile(page, 'notes.md');
    await goTo(String(lineOf('notes.md', 'Paging the KV cache removes fragmentation')), true);
    const rows = await searchFor('MLSys Papers: Search', 'paged attention', VLLM_TITLE);
    expect(rows[0]).toContain('Kwon, Li, Zhuang et al. · SOSP 2023');
    expect(rows[0]).toContain('LLM inference serving › GPU memory management');
    await screenshot(page, join(shots, 'search.png'));
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
    expect(onDisk('notes.md')).toContain('Paging the KV cache removes fragmentation [@kwon2023efficient]\n');
    // The bibliography gained exactly that entry, after everything it had.
    const original = readFileSync(join(repoRoot, 'demo/references.bib'), 'utf8');
    await expect.poll(() => onDisk('references.bib').length, { timeout: 15_000 }).toBeGreaterThan(original.length);
    const bib = onDisk('references.bib');
    expect(bib.startsWith(original)).toBe(true);
    expect(bib.slice(original.length)).toMatch(/^\n@inproceedings\{kwon2023efficient,\n/);
    expect(bib.match(/^@/gm)).toHaveLength(2);
    // Nothing else in the note changed.
    expect(onDisk('notes.md').replace(' [@kwon2023efficient]', '')).toBe(readFileSync(join(repoRoot, 'demo/notes.md'), 'utf8').replace(/fragmentation \n/, 'fragmentation\n'));
  });

  test('Enter in the search cites \\cite{key} in LaTeX, and Insert Citation joins an existing \\cite{…}', async () => {
    await openFile(page, 'paper.tex');
    await goTo(String(lineOf('paper.tex', 'Paged KV-cache management')), true);
    await searchFor('MLSys Papers: Search', 'paged attention', VLLM_TITLE);
    await page.keyboard.press('Enter');
    await waitForEditorText(page, 'Paged KV-cache management\\cite{kwon2023efficient}');

    const line = lineOf('paper.tex', 'Systems such as \\cite{yu2022orca,}');
    const column = onDisk('paper.tex').split('\n')[line - 1]!.indexOf('orca,}') + 'orca,'.length + 1;
    await goTo(`${line}:${column}`);
    await searchFor('MLSys Papers: Insert Citation', 'paged attention', VLLM_TITLE);
    await page.keyboard.press('Enter');
    await waitForEditorText(page, '\\cite{yu2022orca,kwon2023efficient}');
    await save(page);
    const tex = onDisk('paper.tex');
    expect(tex).toContain('Paged KV-cache management\\cite{kwon2023efficient}\n');
    expect(tex).toContain('Systems such as \\cite{yu2022orca,kwon2023efficient} shaped this field.');
    expect(onDisk('references.bib').match(/^@/gm), 'no entry added twice').toHaveLength(2);
  });

  test('completion inside \\cite{…} offers keys ranked by our search', async () => {
    await goTo(String(lineOf('paper.tex', '\\bibliographystyle{plain}')));
    await page.keyboard.press('Home');
    await typeInEditor(page, 'See \\cite{pagedatt');
    const first = page.locator('.suggest-widget .monaco-list-row[data-index="0"]');
    await expect.poll(async () => (await first.textContent()) ?? '', { timeout: 30_000 }).toContain('kwon2023efficient');
    await screenshot(page, join(shots, 'completion.png'));
    await page.keyboard.press('Enter');
    await waitForEditorText(page, 'See \\cite{kwon2023efficient}');
  });

  test('completion after [@ in Markdown', async () => {
    await page.keyboard.press('Escape');
    await page.locator('.tabs-container .tab', { hasText: 'notes.md' }).click();
    await page.locator('.editor-group-container.active .monaco-editor.focused').waitFor();
    await page.keyboard.press('Control+End');
    await typeInEditor(page, '\nOrca introduced iteration-level scheduling [@orc');
    const first = page.locator('.suggest-widget .monaco-list-row[data-index="0"]');
    await expect.poll(async () => (await first.textContent()) ?? '', { timeout: 30_000 }).toContain('yu2022orca');
    await page.keyboard.press('Enter');
    await waitForEditorText(page, '[@yu2022orca]');
    await save(page);
    expect(onDisk('notes.md')).toContain('Orca introduced iteration-level scheduling [@yu2022orca]');
  });

  test('Show Details opens a webview with the entry, its BibTeX, and a working read toggle', async () => {
    await searchFor('MLSys Papers: Show Details', 'orca', 'Orca: A Distributed Serving System');
    await page.keyboard.press('Enter');
    const frame = async () => {
      for (const f of page.frames()) {
        if (await f.locator('#title').count().catch(() => 0)) return f;
      }
      return undefined;
    };
    await expect.poll(async () => (await (await frame())?.locator('#title').textContent()) ?? '', { timeout: 30_000 })
      .toBe('Orca: A Distributed Serving System for Transformer-Based Generative Models');
    const f = (await frame())!;
    await expect(f.locator('#bibtex').textContent()).resolves.toContain('@inproceedings{yu2022orca,');
    await expect(f.locator('#read').textContent()).resolves.toBe('not read');
    await f.locator('#toggleRead').click();
    await expect.poll(async () => (await (await frame())?.locator('#read').textContent()) ?? '', { timeout: 15_000 }).toBe('✓ read');
    await screenshot(page, join(shots, 'details.png'));
  });

  test('a document with no bibliography is offered references.bib, created and declared', async () => {
    // Focus an editor first: keys pressed while a webview has the focus stay in the webview.
    await page.locator('.tabs-container .tab', { hasText: 'notes.md' }).click();
    await page.locator('.editor-group-container.active .monaco-editor.focused').waitFor();
    mkdirSync(join(workspace, 'drafts'));
    writeFileSync(join(workspace, 'drafts/draft.tex'), '\\documentclass{article}\n\\begin{document}\nDraft: \n\\end{document}\n');
    await openFile(page, 'drafts/draft.tex');
    await goTo('3', true);
    await searchFor('MLSys Papers: Search', 'paged attention', VLLM_TITLE);
    await page.keyboard.press('Enter');
    await waitForEditorText(page, 'Draft: \\cite{kwon2023efficient}');
    const button = page.locator('.notifications-toasts .monaco-button', { hasText: 'Create references.bib' });
    await button.click({ timeout: 30_000 });
    await expect.poll(() => { try { return onDisk('drafts/references.bib'); } catch { return ''; } }, { timeout: 15_000 }).toMatch(/^@inproceedings\{kwon2023efficient,/);
    await waitForEditorText(page, '\\bibliography{references}');
    await save(page);
    expect(onDisk('drafts/draft.tex')).toBe('\\documentclass{article}\n\\begin{document}\nDraft: \\cite{kwon2023efficient}\n\\bibliographystyle{plain}\n\\bibliography{references}\n\\end{document}\n');
  });

  test('Export Cited Entries writes the keys a note cites as BibTeX, through the save dialog', async () => {
    await page.locator('.tabs-container .tab', { hasText: 'notes.md' }).click();
    await page.locator('.editor-group-container.active .monaco-editor.focused').waitFor();
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

  test('the cited paper compiles with pdflatex + bibtex and with biblatex + biber, and the note renders with pandoc --citeproc', async () => {
    // After the tests above: paper.tex cites yu2022orca and kwon2023efficient, notes.md cites both,
    // and references.bib gained kwon2023efficient through the extension.
    const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: workspace, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const tex = ['-interaction=nonstopmode', '-halt-on-error'];
    run('pdflatex', [...tex, 'paper']);
    run('bibtex', ['paper']);
    run('pdflatex', [...tex, 'paper']);
    run('pdflatex', [...tex, 'paper']);
    const bbl = onDisk('paper.bbl');
    expect(bbl).toContain('\\bibitem{kwon2023efficient}');
    expect(bbl).toContain('\\bibitem{yu2022orca}');
    expect(onDisk('paper.log')).not.toMatch(/Citation `[^']+' on page \d+ undefined/);

    // The same paper with biblatex + biber.
    writeFileSync(join(workspace, 'paper-biber.tex'), onDisk('paper.tex')
      .replace('\\begin{document}', '\\usepackage[backend=biber]{biblatex}\n\\addbibresource{references.bib}\n\\begin{document}')
      .replace(/\\bibliographystyle\{plain\}\n\\bibliography\{references\}/, '\\printbibliography'));
    run('pdflatex', [...tex, 'paper-biber']);
    run('biber', ['paper-biber']);
    run('pdflatex', [...tex, 'paper-biber']);
    const biberBbl = onDisk('paper-biber.bbl');
    expect(biberBbl).toContain('\\entry{kwon2023efficient}');
    expect(biberBbl).toContain('\\entry{yu2022orca}');

    const rendered = run('pandoc', ['--citeproc', '-t', 'plain', 'notes.md']);
    expect(rendered).toMatch(/Kwon, Woosuk/);
    expect(rendered).toMatch(/Yu, Gyeong-In/);
  });
});
