/**
 * The Topics view and the search at the field's size (issue 26), in a real VS Code: a topic of 300+
 * works leads with its reading list, then "More in this topic (N)" holds the field's other works by
 * year with counts; a year opens to its works, and a work to its actions; the title bar's filter
 * shows the reading list only, or everything; the search finds a field work by its system name and
 * still finds the reading list's systems first.
 *
 * The topic is the compiled corpus's topic with the most field works when it has 300 or more;
 * until the field's entries land in the corpus, 320 generated field works (`test/unit/generatedCorpus.ts`)
 * are added to one topic through a corpus file of the user's (`mlsysPapers.corpusFiles`), which the
 * language server merges as it merges the bundled corpus. Its own code-server: the extra works would
 * change what the other files' tests see.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, onTestFinished, test } from 'vitest';
import { stringify } from 'yaml';
import { CorpusBrowser, type BrowseNode } from '../../src/core/corpus/browse';
import { buildCorpus, type Corpus, type CorpusData } from '../../src/core/corpus/model';
import { LEVELS, onReadingList } from '../../src/core/corpus/schema';
import { loadCompiledCorpus } from '../../src/host/node/readCorpusFiles';
import { CROWDED_TOPIC, fieldEntries } from '../unit/generatedCorpus';
import {
  expandTreeRows, extensionUnderTest, launchBrowser, openWorkbench, quickInput, repoRoot, resetWorkbench, runCommand, startCodeServer,
  topicsTree, treeRow as harnessTreeRow, type CodeServer,
} from './harness';

/** Works a topic must hold for this test. */
const BIG = 300;
const EVERYTHING = { scope: 'everything', levels: [...LEVELS], isRead: () => false } as const;

const workspace = mkdtempSync(join(tmpdir(), 'mlsys-e2e-topics-'));
cpSync(join(repoRoot, 'demo'), workspace, { recursive: true });

/** The corpus the server will hold (the compiled one, plus the generated works if it needs them), the topic, and the user's corpus file if any. */
const { corpus, topic, corpusFile } = ((): { corpus: Corpus; topic: string; corpusFile?: string } => {
  const compiled = loadCompiledCorpus(join(repoRoot, 'dist/corpus.json'));
  const fieldOf = (id: string) => compiled.entriesOf(id).filter((e) => !onReadingList(e)).length;
  const biggest = [...compiled.topics].sort((a, b) => fieldOf(b.id) - fieldOf(a.id))[0]!;
  if (fieldOf(biggest.id) >= BIG) return { corpus: compiled, topic: biggest.id };
  const taken = new Set(compiled.entries.map((e) => e.key.toLowerCase()));
  const names = new Set(compiled.entries.flatMap((e) => [...e.aliases, e.title.split(':')[0]!]).map((n) => n.trim().toLowerCase()));
  const works = fieldEntries(BIG + 20, [CROWDED_TOPIC], taken, names);
  const file = join(workspace, 'field-works.yaml');
  writeFileSync(file, stringify(works, { aliasDuplicateObjects: false }));
  const data: CorpusData = { topics: taxonomyOf(compiled), entries: [...compiled.entries, ...works] };
  return { corpus: buildCorpus(data), topic: CROWDED_TOPIC, corpusFile: file };
})();

/** The taxonomy of a corpus model as the tree of `corpus.json`. */
function taxonomyOf(c: Corpus): CorpusData['topics'] {
  const of = (id: string): CorpusData['topics'][number] => {
    const t = c.topic(id)!;
    return { id: t.id, label: t.label, zh: t.zh, description: t.description, description_zh: t.description_zh, ...(t.children.length ? { children: t.children.map(of) } : {}) };
  };
  return c.roots.map(of);
}

const browser0 = new CorpusBrowser(corpus);
/** The labels from the root to the topic. */
const path = corpus.topic(topic)!.path;
const rows = browser0.children({ topic }, EVERYTHING);
const more = rows.find((n): n is Extract<BrowseNode, { kind: 'more' }> => n.kind === 'more')!;
const years = browser0.children({ topic, group: 'more' }, EVERYTHING) as Extract<BrowseNode, { kind: 'year' }>[];
const newest = years[0]!;
const newestWorks = browser0.children({ topic, group: newest.year }, EVERYTHING).map((n) => (n as { entry: { title: string; key: string } }).entry);
const readingTitles = rows.flatMap((n) => (n.kind === 'entry' ? [n.entry.title] : []));
/** A field work with a system name of its own, for the search. */
const named = corpus.entries.find((e) => !onReadingList(e) && e.aliases.length === 1 && e.topics.includes(topic)
  && corpus.entries.filter((x) => x.aliases.some((a) => a.toLowerCase() === e.aliases[0]!.toLowerCase())).length === 1)!;

let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;

beforeAll(async () => {
  server = await startCodeServer({
    workspace, extensionPaths: [extensionUnderTest()],
    settings: { 'workbench.view.alwaysShowHeaderActions': true, ...(corpusFile ? { 'mlsysPapers.corpusFiles': [corpusFile] } : {}) },
  });
  browser = await launchBrowser();
  page = await openWorkbench(browser, server.url, workspace);
  await page.locator('.activitybar .action-item a[aria-label^="MLSys Papers"]').waitFor({ timeout: 60_000 });
});

beforeEach(() => resetWorkbench(page));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

const treeRow = (label: string) => harnessTreeRow(page, label);
/** The row whose label is exactly `label` (a year's row; an entry's description may hold the year too). */
const rowNamed = (label: string) => topicsTree(page).locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) }).first();
const description = async (label: string) => (await treeRow(label).locator('.label-description').textContent()) ?? '';
const yearCount = async (year: string) => (await rowNamed(year).locator('.label-description').textContent()) ?? '';
const moreLabel = `More in this topic (${more.count.toLocaleString('en-US')})`;

/** Shows the Topics view, every topic collapsed, with the field's works loaded (the topic's row counts them). */
async function showTopics(): Promise<void> {
  await expect.poll(async () => {
    if (await topicsTree(page).locator('.monaco-list-row').first().isVisible()) return true;
    await runCommand(page, 'MLSys Papers: Focus on Topics View', 3_000).catch(async () => { await page.keyboard.press('Escape'); });
    return false;
  }, { timeout: 60_000, interval: 1_000 }).toBe(true);
  await page.locator('.part.sidebar .action-label[aria-label="Collapse All"] >> visible=true').click();
  // The user's corpus file loads after the view first shows: the root's row says "… more" then.
  await expect.poll(() => description(path[0]!), { timeout: 60_000 }).toMatch(/more|works/);
}

/** The title-bar action of the Topics view named `label`. */
const titleAction = (label: string) => page.locator(`.part.sidebar .action-label[aria-label="${label}"] >> visible=true`);

describe('the Topics view and the search at 3,000 entries', () => {
  test(`a topic of ${BIG}+ works: its reading list, then "More in this topic (N)" by year with counts; a year's works; a work's actions`, async () => {
    expect(more.count).toBeGreaterThanOrEqual(BIG);
    await showTopics();
    await expandTreeRows(page, ...path);
    // The reading list first, in reading order, then the one "more" row.
    for (const title of readingTitles) await treeRow(title).waitFor({ timeout: 15_000 });
    await treeRow(moreLabel).waitFor({ timeout: 15_000 });
    const order = await topicsTree(page).locator('.monaco-list-row').evaluateAll((els) => els
      .map((el) => [Number(el.getAttribute('data-index')), el.querySelector('.label-name')?.textContent ?? ''] as const).sort((a, b) => a[0] - b[0]).map(([, t]) => t));
    const at = (label: string) => order.findIndex((t) => t.startsWith(label));
    for (const title of readingTitles) expect(at(title), title).toBeLessThan(at('More in this topic'));
    // The years, newest first, each with its count.
    await expandTreeRows(page, moreLabel);
    await rowNamed(String(newest.year)).waitFor({ timeout: 15_000 });
    expect(await yearCount(String(newest.year))).toBe(newest.count.toLocaleString('en-US'));
    if (years[1]) expect(await yearCount(String(years[1].year))).toBe(years[1].count.toLocaleString('en-US'));
    // A year opens to its works; a work opens its actions (its title and key).
    await rowNamed(String(newest.year)).locator('.monaco-tl-twistie').click();
    await expect.poll(() => rowNamed(String(newest.year)).getAttribute('aria-expanded'), { timeout: 15_000 }).toBe('true');
    const work = newestWorks[0]!;
    await treeRow(work.title).waitFor({ timeout: 15_000 });
    await treeRow(work.title).click();
    await expect.poll(() => page.locator('.quick-input-widget .quick-input-title').textContent(), { timeout: 15_000 }).toContain(work.title);
    expect(await page.locator('.quick-input-widget .quick-input-box input').getAttribute('placeholder')).toBe(work.key);
    await quickInput.waitForItem(page, 'Copy BibTeX');
    await page.keyboard.press('Escape');
  });

  test('Show the Reading List Only hides the field\'s works; Show Everything brings them back', async () => {
    await showTopics();
    onTestFinished(async () => { if (await titleAction('Show Everything').isVisible()) await titleAction('Show Everything').click(); });
    await expandTreeRows(page, ...path);
    await treeRow(moreLabel).waitFor({ timeout: 15_000 });
    await titleAction('Show the Reading List Only').click();
    await treeRow(moreLabel).waitFor({ state: 'detached', timeout: 15_000 });
    expect(await description(path[0]!)).not.toMatch(/more|works/);
    for (const title of readingTitles) await treeRow(title).waitFor({ timeout: 15_000 });
    await titleAction('Show Everything').click();
    await expandTreeRows(page, ...path);
    await treeRow(moreLabel).waitFor({ timeout: 15_000 });
  });

  test('the search finds a field work by its system name, and the reading list\'s systems first', async () => {
    const first = page.locator('.quick-input-widget .monaco-list-row[data-index="0"] >> visible=true');
    const settled = async (query: string, title: string) => {
      await quickInput.type(page, query);
      let held = 0;
      await expect.poll(async () => {
        held = ((await first.textContent()) ?? '').includes(title) ? held + 1 : 0;
        return held;
      }, { timeout: 60_000, interval: 250 }).toBeGreaterThanOrEqual(3);
    };
    await showTopics();
    await runCommand(page, 'MLSys Papers: Search');
    await settled(named.aliases[0]!, named.title);
    // Where it is filed: its topic's path.
    expect(await first.textContent()).toContain(path.join(' › '));
    await settled('paged attention', 'Efficient Memory Management for Large Language Model Serving with PagedAttention');
    await settled('ZeRO', 'ZeRO: Memory Optimizations Toward Training Trillion Parameter Models');
    await page.keyboard.press('Escape');
  });
});
