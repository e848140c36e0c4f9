// Page functions (waitForFunction, evaluate) run in the browser, hence the DOM types.
/// <reference lib="dom" />
/**
 * Drives a real VS Code: code-server (VS Code 1.139 server + web workbench, installed by
 * scripts/setup-vscode-test.sh; another one with `MLSYS_CODE_SERVER_DIR`) and Debian's chromium
 * through playwright-core.
 * Facts behind the choices: /work/shared/notes/real-vscode.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** The repository root: the first folder above this module holding a package.json (also when bundled into dist-test/). */
export const repoRoot: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    if (dirname(dir) === dir) throw new Error('harness: no package.json above ' + fileURLToPath(import.meta.url));
    dir = dirname(dir);
  }
  return dir;
})();

/**
 * The Node that runs code-server and the code-server it runs: by default the ones
 * scripts/setup-vscode-test.sh installs (Node 24, code-server 4.139.1). `MLSYS_CODE_SERVER_DIR`
 * (the folder code-server was installed into with `npm install --prefix`) and
 * `MLSYS_CODE_SERVER_NODE_DIR` (a Node folder with `bin/node`) choose others, as
 * scripts/test-min-vscode.sh does to run the tests on the oldest VS Code `engines.vscode` admits.
 */
const NODE = join(resolve(process.env.MLSYS_CODE_SERVER_NODE_DIR ?? join(repoRoot, '.cache/node24')), 'bin/node');
const CODE_SERVER = join(resolve(process.env.MLSYS_CODE_SERVER_DIR ?? join(repoRoot, '.cache/code-server')), 'node_modules/code-server/out/node/entry.js');

/** User settings that keep the workbench quiet and deterministic: no chat, welcome page, trust prompt, telemetry or updates. */
const QUIET_SETTINGS: Record<string, unknown> = {
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  // The web workbench auto-saves after a delay by default; tests save explicitly (see save()).
  'files.autoSave': 'off',
};

/**
 * Which extension host runs the extensions under test: `node` (code-server's remote extension
 * host, as desktop VS Code runs them) or `web` (the browser's web worker extension host, as
 * vscode.dev runs them: the `browser` entry point, its language server in a Web Worker). Set by
 * `MLSYS_E2E_EXTENSION_HOST=web` (see `test/e2e/web.e2e.ts`).
 */
export const extensionHost: 'node' | 'web' = process.env.MLSYS_E2E_EXTENSION_HOST === 'web' ? 'web' : 'node';

/** Workspace trust on, and nothing trusted without asking, which is never: every folder opens in Restricted Mode. */
const RESTRICTED_SETTINGS: Record<string, unknown> = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.emptyWindow': false,
  'security.workspace.trust.banner': 'never',
};

/** The chromium flags that work as root with no network. */
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** A running code-server; see {@link startCodeServer}. */
export interface CodeServer {
  /** Base URL, e.g. `http://127.0.0.1:40123/`. */
  url: string;
  userDataDir: string;
  extensionsDir: string;
  /** Path of the file that receives code-server's stdout and stderr. */
  logFile: string;
  /** Ends code-server's whole process group and deletes its temp folders. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts code-server on a free port of 127.0.0.1 with fresh, temporary user-data and extensions folders.
 *
 * Each `.vsix` is installed with `--install-extension`, as a user installs it; each extension
 * folder is loaded through a symlink named `publisher.name-version` (read from its package.json)
 * in the extensions folder, because code-server rejects `--extensionDevelopmentPath`.
 * The server runs under `setsid` in its own process group, so {@link CodeServer.stop} (or the exit of
 * this process) ends it together with its extension hosts.
 *
 * @param opts.workspace - folder code-server opens by default (absolute or relative to the cwd).
 * @param opts.extensionPaths - `.vsix` files, or extension folders each with a package.json.
 * @param opts.settings - user settings merged over the quiet defaults. With {@link extensionHost}
 *   `web`, `remote.extensionKind` also sends every extension of `opts.extensionPaths` to the web
 *   worker extension host.
 * @param opts.trusted - false: workspace trust is on and the folder is not trusted, so VS Code
 *   opens it in Restricted Mode (no prompt). Default true: trust is off, every folder is trusted.
 * @param opts.locale - VS Code's display language, passed as code-server's `--locale` (an IETF
 *   language tag in VS Code's lower case, such as `zh-cn`). Default: no `--locale`, code-server's default.
 *   VS Code takes a language other than English only from an installed language pack, and the
 *   Marketplace's are out of reach here: the harness installs a stub pack for the locale with no
 *   translations of VS Code's own (see {@link installLanguagePack}). VS Code's UI stays English;
 *   `vscode.env.language` is the locale, and extensions' `package.nls.<locale>.json` and
 *   `l10n/bundle.l10n.<locale>.json` apply as with a real pack.
 * @returns once the server answers on `/healthz`.
 * @throws if code-server is not installed (run `scripts/setup-vscode-test.sh`), exits early, or does
 *   not listen within 30 s; the message carries the end of its log.
 * @example
 * const server = await startCodeServer({ workspace: 'demo', extensionPaths: [repoRoot] });
 * try { ... } finally { await server.stop(); }
 */
export async function startCodeServer(opts: {
  workspace: string;
  extensionPaths: string[];
  settings?: Record<string, unknown>;
  trusted?: boolean;
  locale?: string;
}): Promise<CodeServer> {
  for (const file of [NODE, CODE_SERVER]) {
    if (!existsSync(file)) throw new Error(`harness: ${file} is missing; run scripts/setup-vscode-test.sh`);
  }
  const trusted = opts.trusted ?? true;
  const root = await mkdtemp(join(tmpdir(), 'mlsys-code-server-'));
  const userDataDir = join(root, 'user-data');
  const extensionsDir = join(root, 'extensions');
  const logFile = join(root, 'code-server.log');
  await mkdir(join(userDataDir, 'User'), { recursive: true });
  await mkdir(extensionsDir);
  // Each extension: a `.vsix` is installed as a user installs it; a folder is linked.
  const installed: string[] = [];
  const linked: { dir: string; id: string; version: string }[] = [];
  for (const ext of opts.extensionPaths) {
    if (ext.endsWith('.vsix')) {
      installed.push(await installVsix(ext, userDataDir, extensionsDir, root));
      continue;
    }
    const target = await realpath(ext);
    const pkg = JSON.parse(await readFile(join(target, 'package.json'), 'utf8'));
    const dir = join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
    await symlink(target, dir, 'dir');
    installed.push(dir);
    linked.push({ dir, id: `${pkg.publisher}.${pkg.name}`, version: pkg.version });
  }
  if (opts.locale && !/^en\b/.test(opts.locale)) await installLanguagePack(opts.locale, userDataDir, extensionsDir, root);
  // An install writes extensions.json, and VS Code then loads only what it lists: list the linked ones too.
  const manifest = join(extensionsDir, 'extensions.json');
  if (existsSync(manifest) && linked.length) {
    const list = JSON.parse(await readFile(manifest, 'utf8')) as unknown[];
    for (const l of linked) {
      list.push({
        identifier: { id: l.id }, version: l.version,
        location: { $mid: 1, fsPath: l.dir, external: `file://${l.dir}`, path: l.dir, scheme: 'file' },
        relativeLocation: basename(l.dir), metadata: { installedTimestamp: Date.now(), source: 'resource' },
      });
    }
    await writeFile(manifest, JSON.stringify(list));
  }
  await writeFile(join(userDataDir, 'User/settings.json'),
    JSON.stringify({ ...QUIET_SETTINGS, ...(await webExtensionKinds(installed)), ...(trusted ? {} : RESTRICTED_SETTINGS), ...opts.settings }, null, 2));

  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const log = openSync(logFile, 'a');
  // Not `detached`: node must not be a group leader for `setsid` to exec in place, so that the
  // child's pid is also the id of its new process group.
  const child = spawn('setsid', [NODE, CODE_SERVER,
    '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry', '--disable-update-check', ...(trusted ? ['--disable-workspace-trust'] : []),
    '--disable-getting-started-override', '--ignore-last-opened',
    ...(opts.locale ? ['--locale', opts.locale] : []),
    // code-server writes a config file (with a password) even when it does not need one; keep it out of $HOME.
    '--config', join(root, 'config.yaml'),
    '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir,
    resolve(opts.workspace),
  ], {
    stdio: ['ignore', log, log],
    // XDG_DATA_HOME: code-server keeps its own logs and a heartbeat file there (default ~/.local/share).
    env: { ...process.env, PATH: `${dirname(NODE)}:${process.env.PATH}`, XDG_DATA_HOME: root },
  });
  closeSync(log);

  const exited = watchExit(child);
  const pgid = child.pid ?? 0; // undefined only if setsid could not be spawned (see killGroup)
  // If this process exits without stop() (a signal, a crash, process.exit), end the group anyway.
  const onExit = () => {
    killGroup(pgid, 'SIGKILL');
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  };
  process.once('exit', onExit);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    killGroup(pgid, 'SIGTERM');
    if (!(await poll(() => !groupAlive(pgid), 5_000))) killGroup(pgid, 'SIGKILL');
    await poll(() => !groupAlive(pgid), 5_000);
    await rm(root, { recursive: true, force: true });
    process.off('exit', onExit);
  };

  try {
    const up = await poll(async () => {
      if (exited.done) throw new Error(`code-server exited with ${exited.done}`);
      try { return (await fetch(url + 'healthz')).ok; } catch { return false; }
    }, 30_000);
    if (!up) throw new Error('code-server did not listen within 30 s');
  } catch (err) {
    const tail = readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n');
    await stop();
    throw new Error(`harness: ${(err as Error).message}\n${tail}`);
  }
  return { url, userDataDir, extensionsDir, logFile, stop };
}

/**
 * The extension the tests drive: the packaged `.vsix` when `MLSYS_VSIX` names one (what users
 * install; `npm test` packages it first), else the folder `MLSYS_EXTENSION_PATH` or the repository.
 */
export function extensionUnderTest(): string {
  return process.env.MLSYS_VSIX ? resolve(process.env.MLSYS_VSIX) : resolve(process.env.MLSYS_EXTENSION_PATH ?? repoRoot);
}

/**
 * Installs a `.vsix` into `extensionsDir` with code-server's `--install-extension`, as a user does.
 *
 * @returns the folder it was installed into
 * @throws with code-server's output when the install fails
 */
async function installVsix(vsix: string, userDataDir: string, extensionsDir: string, root: string): Promise<string> {
  const before = new Set(await readdir(extensionsDir));
  const run = spawn(NODE, [CODE_SERVER, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir,
    '--config', join(root, 'config.yaml'), '--install-extension', resolve(vsix)], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: `${dirname(NODE)}:${process.env.PATH}`, XDG_DATA_HOME: root },
  });
  let output = '';
  run.stdout.on('data', (d) => { output += d; });
  run.stderr.on('data', (d) => { output += d; });
  const code = await new Promise<number | null>((done) => run.on('close', done));
  const added = (await readdir(extensionsDir)).filter((d) => !before.has(d) && !d.startsWith('.') && d !== 'extensions.json');
  if (code !== 0 || added.length !== 1) throw new Error(`harness: installing ${vsix} failed (exit ${code}, new folders ${JSON.stringify(added)}):\n${output}`);
  return join(extensionsDir, added[0]!);
}

/**
 * Installs a language pack for `locale` that translates nothing of VS Code's own (an empty
 * `main.i18n.json`), packaged with vsce and installed like any `.vsix`, and writes the
 * `languagepacks.json` that VS Code's server reads at start (it writes that file itself only
 * later, from the installed packs): the server then resolves the display language to `locale`.
 */
async function installLanguagePack(locale: string, userDataDir: string, extensionsDir: string, root: string): Promise<void> {
  const src = join(root, 'language-pack');
  await mkdir(join(src, 'translations'), { recursive: true });
  const pkg = {
    name: `language-pack-${locale}`, publisher: 'mlsys-test', version: '1.0.0', description: `A stub ${locale} language pack for tests`,
    engines: { vscode: '*' }, categories: ['Language Packs'],
    contributes: { localizations: [{ languageId: locale, languageName: locale, localizedLanguageName: locale, translations: [{ id: 'vscode', path: './translations/main.i18n.json' }] }] },
  };
  await writeFile(join(src, 'package.json'), JSON.stringify(pkg));
  await writeFile(join(src, 'translations/main.i18n.json'), JSON.stringify({ version: '1.0.0', contents: {} }));
  const vsix = join(root, 'language-pack.vsix');
  const vsce = spawn(process.execPath, [join(repoRoot, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix], { cwd: src, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  vsce.stdout.on('data', (d) => { output += d; });
  vsce.stderr.on('data', (d) => { output += d; });
  const code = await new Promise<number | null>((done) => vsce.on('close', done));
  if (code !== 0) throw new Error(`harness: packaging the ${locale} language pack failed (exit ${code}):\n${output}`);
  const dir = await installVsix(vsix, userDataDir, extensionsDir, root);
  await writeFile(join(userDataDir, 'languagepacks.json'), JSON.stringify({
    [locale]: {
      hash: `stub-${locale}`, label: locale,
      extensions: [{ extensionIdentifier: { id: `${pkg.publisher}.${pkg.name}` }, version: pkg.version }],
      translations: { vscode: join(dir, 'translations/main.i18n.json') },
    },
  }));
}

/** With {@link extensionHost} `web`: the `remote.extensionKind` setting that runs each extension in the web worker host. */
async function webExtensionKinds(paths: readonly string[]): Promise<Record<string, unknown>> {
  if (extensionHost !== 'web') return {};
  const kinds: Record<string, string[]> = {};
  for (const ext of paths) {
    const pkg = JSON.parse(await readFile(join(ext, 'package.json'), 'utf8'));
    if (!pkg.browser) throw new Error(`harness: ${pkg.publisher}.${pkg.name} has no browser entry point; it cannot run in the web worker extension host`);
    kinds[`${pkg.publisher}.${pkg.name}`] = ['web'];
  }
  return { 'remote.extensionKind': kinds };
}

/**
 * Launches Debian's chromium (`/usr/bin/chromium`) headless through playwright-core, with the flags
 * that work as root without network. (`npx playwright install` cannot download browsers here.)
 * @returns a Browser; close it with `browser.close()`.
 */
export async function launchBrowser(): Promise<Browser> {
  // Chromium creates $XDG_CONFIG_HOME/chromium/Crash Reports whatever its profile; keep that out of $HOME.
  const configHome = await mkdtemp(join(tmpdir(), 'mlsys-chromium-'));
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true,
    env: { ...process.env, XDG_CONFIG_HOME: configHome },
  });
  const cleanup = () => rmSync(configHome, { recursive: true, force: true, maxRetries: 5 });
  process.once('exit', cleanup);
  browser.on('disconnected', () => { process.off('exit', cleanup); cleanup(); });
  return browser;
}

/**
 * Opens the workbench of `url` on `folder` in a new 1280×800 page and waits until `.monaco-workbench`
 * and the status bar are rendered. Opening a client is also what starts code-server's extension host.
 * @param folder - absolute (or cwd-relative) path of the folder to open.
 * @throws playwright's TimeoutError if the page does not load, or the workbench does not render, within 120 s
 *   each (a hang catcher: the workbench's scripts took 37 s to load on two cores busy with other builds).
 */
export async function openWorkbench(browser: Browser, url: string, folder: string): Promise<Page> {
  // Clipboard access lets tests check Copy commands (the web workbench uses navigator.clipboard).
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await context.newPage();
  await page.goto(`${url}?folder=${encodeURIComponent(resolve(folder))}`, { timeout: 120_000 });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 120_000 });
  return page;
}

const QUICK_INPUT = '.quick-input-widget';
const ACTIVE_EDITOR = '.editor-group-container.active .monaco-editor';

/** Helpers for the quick input (command palette, quick open, an extension's quick pick). */
export const quickInput = {
  /** Waits for the quick input to be visible and replaces the text of its box with `text`, typed key by key. */
  async type(page: Page, text: string): Promise<void> {
    const box = page.locator(`${QUICK_INPUT} .quick-input-box input`);
    await box.waitFor({ state: 'visible' });
    await box.press('ControlOrMeta+A');
    await page.keyboard.type(text);
  },
  /** Waits for a visible item whose text contains `label` and returns its locator (the first, if several match). */
  async waitForItem(page: Page, label: string, timeout = 30_000): Promise<Locator> {
    const item = page.locator(`${QUICK_INPUT} .monaco-list-row`, { hasText: label }).first();
    await item.waitFor({ state: 'visible', timeout });
    return item;
  },
  /** Waits for an item whose text contains `label`, then clicks it. */
  async pick(page: Page, label: string, timeout?: number): Promise<void> {
    await (await quickInput.waitForItem(page, label, timeout)).click();
  },
};

/**
 * Runs a command by its title through the command palette: F1, type the title, Enter (or a click if
 * the focused entry is not the one whose text contains `title`). Returns once the palette has closed;
 * the command itself runs asynchronously in the extension host, so wait on its effect (for instance
 * with {@link waitForEditorText}).
 * @param title - as shown in the palette, e.g. `MLSys Papers: Search Papers` (a unique part is enough).
 * @param timeout - ms to wait for the entry (default 30 s)
 * @throws playwright's TimeoutError if no palette entry contains `title` within `timeout`; the palette stays open.
 */
export async function runCommand(page: Page, title: string, timeout = 30_000): Promise<void> {
  // The palette can close under the typing: a command run just before may move the focus when its
  // view appears (seen once in CI: the palette's rows were all 621 commands, hidden, and the typed
  // title had gone elsewhere). When its box is hidden or does not hold what was typed, it is
  // opened again, up to three times.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    await quickInput.type(page, '>' + title);
    const state = await page.waitForFunction(({ typed, label }) => {
      const box = document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input');
      if (!box || box.offsetParent === null || box.value !== typed) return 'lost';
      const rows = [...document.querySelectorAll<HTMLElement>('.quick-input-widget .monaco-list-row')];
      return rows.some((r) => r.offsetParent !== null && (r.textContent ?? '').includes(label)) ? 'found' : false;
    }, { typed: '>' + title, label: title }, { timeout });
    if ((await state.jsonValue()) === 'found') break;
    if (attempt === 3) throw new Error(`runCommand: the command palette closed under the typing three times (${title})`);
    await page.keyboard.press('Escape');
  }
  const item = await quickInput.waitForItem(page, title, timeout);
  // Enter runs the focused entry, usually the best match; if that is another command, click the match.
  if (await item.evaluate((el) => el.classList.contains('focused'))) await page.keyboard.press('Enter');
  else await item.click();
  // The palette is gone, or has become the command's own quick input (its text no longer starts with '>').
  await page.waitForFunction(() => {
    const box = document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input');
    return !box || box.offsetParent === null || !box.value.startsWith('>');
  });
}

/**
 * Moves the active editor's cursor with Go to Line (Ctrl+G), then, with `end`, to the end of that line.
 * @param target - `line` or `line:column`, 1-based
 */
export async function goToLine(page: Page, target: number | string, end = false): Promise<void> {
  await page.keyboard.press('Control+G');
  await quickInput.type(page, `:${target}`);
  await page.keyboard.press('Enter');
  await page.locator(QUICK_INPUT).waitFor({ state: 'hidden' });
  if (end) await page.keyboard.press('End');
}

/**
 * Runs a command that opens the extension's search (`MLSys Papers: Search`, `MLSys Papers: Insert
 * Citation`, or their titles in the display language), types `query`, and presses Enter once the
 * first row has held `title` for three looks in a row (the list is drawn again as the answers to
 * earlier keystrokes arrive: Enter on a row about to change would pick another entry).
 * @throws a failed assertion quoting the first row when it does not hold `title` within `timeout` ms
 */
export async function pickFromSearch(page: Page, command: string, query: string, title: string, timeout = 30_000): Promise<void> {
  await runCommand(page, command);
  await quickInput.type(page, query);
  const first = page.locator(`${QUICK_INPUT} .monaco-list-row[data-index="0"] >> visible=true`);
  let held = 0;
  await expect.poll(async () => {
    const text = (await first.textContent()) ?? '';
    held = text.includes(title) ? held + 1 : 0;
    return held >= 3 || !held ? text : '(the first row holds it, not yet three looks in a row)';
  }, { timeout, interval: 250 }).toContain(title);
  await page.keyboard.press('Enter');
}

/**
 * Opens a workspace file with quick open (Ctrl+P) and waits until its tab is the active one.
 * @param relPath - path relative to the workspace folder, with `/` separators.
 */
export async function openFile(page: Page, relPath: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+P');
  await quickInput.type(page, relPath);
  const item = await quickInput.waitForItem(page, basename(relPath));
  // Enter opens the focused entry, which may still be another one (seen: the file opened last, from
  // the history, while the list filtered): then the file's own entry is clicked, as in runCommand.
  if (await item.evaluate((el) => el.classList.contains('focused'))) await page.keyboard.press('Enter');
  else await item.click();
  await page.locator('.tabs-container .tab.active', { hasText: basename(relPath) }).waitFor();
  await page.locator(ACTIVE_EDITOR + '.focused').waitFor();
}

/**
 * Types into the focused editor as a user would, so auto-closing brackets, auto-indent and
 * completions apply. Use `{ literal: true }` to insert the text as is.
 */
export async function typeInEditor(page: Page, text: string, opts: { literal?: boolean } = {}): Promise<void> {
  await page.locator(QUICK_INPUT).waitFor({ state: 'hidden' });
  await page.locator(ACTIVE_EDITOR + '.focused').waitFor();
  if (opts.literal) await page.keyboard.insertText(text);
  else await page.keyboard.type(text);
}

/** The visible lines of the active editor as text (non-breaking spaces as spaces), or undefined when no editor is active. */
export function editorVisibleText(page: Page): Promise<string | undefined> {
  return page.evaluate((sel) => document.querySelector<HTMLElement>(sel + ' .view-lines')?.innerText.replace(/\u00a0/g, ' '), ACTIVE_EDITOR);
}

/**
 * Waits until the visible lines of the active editor contain `text` (polling; for short files, since
 * the editor only renders the lines in view). Runs of white space, line breaks among them, compare
 * as one space: Markdown editors wrap long lines, and a wrap shows as a line break.
 * @throws an Error after `timeout` ms whose message has the visible lines as they were then.
 */
export async function waitForEditorText(page: Page, text: string, timeout = 30_000): Promise<void> {
  const visible = () => editorVisibleText(page);
  try {
    await page.waitForFunction(([sel, t]) => {
      const lines = document.querySelector<HTMLElement>(sel + ' .view-lines');
      return !!lines && lines.innerText.replace(/\s+/g, ' ').includes(t.replace(/\s+/g, ' '));
    }, [ACTIVE_EDITOR, text] as const, { timeout, polling: 100 });
  } catch (e) {
    throw new Error(`the editor did not show ${JSON.stringify(text)} within ${timeout} ms; its visible lines:\n${(await visible().catch(() => undefined)) ?? '(no editor)'}`, { cause: e });
  }
}

/** Saves the active editor (Ctrl+S) and waits until its tab no longer shows the dirty mark. */
export async function save(page: Page): Promise<void> {
  await page.keyboard.press('ControlOrMeta+S');
  await page.locator('.tabs-container .tab.active.dirty').waitFor({ state: 'detached' });
}

/** Writes a PNG of the visible page to `path`, creating its folder. */
export async function screenshot(page: Page, path: string): Promise<void> {
  await mkdir(dirname(resolve(path)), { recursive: true });
  await page.screenshot({ path });
}

/** A PNG's pixels: `channels` bytes per pixel (3: RGB, 4: RGBA), row by row from the top. */
export interface Pixels {
  width: number;
  height: number;
  channels: 3 | 4;
  data: Uint8Array;
}

/**
 * Decodes the PNGs chromium writes: 8-bit RGB or RGBA, not interlaced (PNG specification, W3C,
 * sections 11.2.2 IHDR, 10 compression, 9 filtering). Enough to compare screenshots by their pixels.
 *
 * @throws Error (`harness: …`) on anything else (palette, 16-bit, grey, interlaced) or a damaged file
 */
export function decodePng(png: Uint8Array): Pixels {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (buf.length < 8 || buf.readUInt32BE(0) !== 0x89504e47) throw new Error('harness: not a PNG');
  let width = 0, height = 0, channels: 3 | 4 = 3;
  const idat: Buffer[] = [];
  for (let pos = 8; pos + 8 <= buf.length;) {
    const length = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, colour, , , interlace] = data.subarray(8, 13);
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) {
        throw new Error(`harness: PNG of bit depth ${depth}, colour type ${colour}, interlace ${interlace}; only 8-bit RGB/RGBA, not interlaced`);
      }
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    pos += 12 + length; // length, type, data, CRC
  }
  const stride = width * channels;
  const raw = inflateSync(Buffer.concat(idat));
  if (!width || raw.length !== height * (stride + 1)) throw new Error('harness: PNG without IHDR, or its image data has the wrong size');
  const out = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = y * (stride + 1) + 1;
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[row + x - channels]! : 0; // left
      const b = y ? out[row - stride + x]! : 0; // up
      const c = x >= channels && y ? out[row - stride + x - channels]! : 0; // up left
      let predicted = 0;
      if (filter === 1) predicted = a;
      else if (filter === 2) predicted = b;
      else if (filter === 3) predicted = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) throw new Error(`harness: PNG row ${y} has filter type ${filter}`);
      out[row + x] = (raw[line + x]! + predicted) & 0xff;
    }
  }
  return { width, height, channels, data: out };
}

/**
 * The fraction (0–1) of pixels that differ between two PNGs: a pixel differs when one of its
 * colour channels differs by more than `tolerance` (of 255), which ignores anti-aliasing noise.
 * Alpha is not compared. Pictures of different sizes differ entirely (1).
 *
 * @throws as {@link decodePng}
 * @example
 * if (changedPixels(readFileSync(old), readFileSync(fresh)) > 0.002) copyFileSync(fresh, old);
 */
export function changedPixels(a: Uint8Array, b: Uint8Array, tolerance = 16): number {
  const p = decodePng(a);
  const q = decodePng(b);
  if (p.width !== q.width || p.height !== q.height) return 1;
  const n = p.width * p.height;
  let changed = 0;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      if (Math.abs(p.data[i * p.channels + k]! - q.data[i * q.channels + k]!) > tolerance) {
        changed++;
        break;
      }
    }
  }
  return changed / n;
}

/**
 * Waits until `path` exists and is not empty (polling every 100 ms).
 * @returns true if it did within `timeoutMs`, false otherwise.
 */
export async function waitForFile(path: string, timeoutMs: number): Promise<boolean> {
  return poll(async () => ((await stat(path).catch(() => undefined))?.size ?? 0) > 0, timeoutMs);
}

/**
 * The libraries' status-bar item's accessible label: its tooltip, `MLSys Papers libraries` and then
 * one line per library (`lab.bib: 1 entry`, `zotero.bib: loading, 0 of about 2`, `x.bib: cannot be
 * read (…)`; see `libraryStatusText` in src/features/libraryStatus.ts); '' while the item is not
 * shown (no library configured, or the extension not started yet).
 */
export async function libraryStatus(page: Page): Promise<string> {
  return (await page.locator('[aria-label^="MLSys Papers libraries"]').first().getAttribute('aria-label', { timeout: 1_000 }).catch(() => null)) ?? '';
}

/**
 * Waits until the libraries' status-bar item says that each library of `loaded` is loaded with its
 * count of entries (its line reads `name: 1 entry` or `name: N entries`, possibly followed by its
 * problems): the condition that a library's entries are searchable, where a fixed-length poll of the
 * search would race the load.
 *
 * @param loaded - library file name → its number of entries, e.g. `{ 'lab.bib': 1 }`
 * @param timeout - ms; a hang catcher, not a guess at the load's speed, kept under a test's 180 s
 *   (vitest.e2e.config.mts) so that a load that never ends fails with this message, not the test's timeout
 * @throws Error naming the libraries and quoting the item's label as last seen (not shown, still
 *   loading, cannot be read) when they are not all loaded within `timeout`
 */
export async function waitForLibraries(page: Page, loaded: Record<string, number>, timeout = 90_000): Promise<void> {
  const lines = Object.entries(loaded).map(([name, n]) => `${name}: ${n === 1 ? '1 entry' : `${n.toLocaleString('en-US')} entries`}`);
  const done = (label: string) => {
    const have = label.split('\n');
    return lines.every((want) => have.some((l) => l === want || l.startsWith(want + ',') || l.startsWith(want + ' (')));
  };
  let label = '';
  const ok = await poll(async () => done(label = await libraryStatus(page)), timeout);
  if (!ok) {
    throw new Error(`the libraries did not load within ${timeout} ms: the status bar was to say ${JSON.stringify(lines)}; `
      + `it said ${label ? JSON.stringify(label) : 'nothing (its libraries item is not shown)'}`);
  }
}

/**
 * The extension's log (the "MLSys Papers" output channel, the language server's lines included) as
 * code-server writes it on disk: `<user data>/logs/<session>/exthost<N>/<publisher.name>/MLSys Papers.log`
 * (VS Code 1.139's layout for an extension's log output channel, in the Node extension host; the web
 * worker host keeps its logs in the browser). '' while it does not exist.
 */
export async function extensionLog(server: CodeServer): Promise<string> {
  const logs = join(server.userDataDir, 'logs');
  const texts: string[] = [];
  for (const session of (await readdir(logs).catch(() => [])).sort()) {
    for (const host of (await readdir(join(logs, session)).catch(() => [])).filter((d) => d.startsWith('exthost')).sort()) {
      texts.push(await readFile(join(logs, session, host, 'mlsys-papers.mlsys-papers', 'MLSys Papers.log'), 'utf8').catch(() => ''));
    }
  }
  return texts.join('');
}

/**
 * Waits until the extension's log ({@link extensionLog}) has a line matching `line`: for a load
 * that shows nothing else (the user's corpus files, read without a problem, log
 * `corpus: N entries (1 from 1 file(s) of yours, 0 problem(s))`).
 *
 * @param timeout - ms; a hang catcher, under a test's 180 s as in {@link waitForLibraries}
 * @throws Error with the log's last lines when no line matches within `timeout`
 */
export async function waitForLogLine(server: CodeServer, line: RegExp, timeout = 90_000): Promise<void> {
  if (extensionHost === 'web') throw new Error('harness: waitForLogLine reads the log code-server writes on disk; the web worker extension host writes none');
  let text = '';
  const ok = await poll(async () => (text = await extensionLog(server)).split('\n').some((l) => line.test(l)), timeout);
  if (!ok) throw new Error(`the MLSys Papers log has no line matching ${line} after ${timeout} ms; its last lines:\n${text.split('\n').slice(-15).join('\n') || '(no log)'}`);
}

/** Polls `check` every 100 ms until it returns true (→ true) or `timeoutMs` passes (→ false). */
async function poll(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer().once('error', fail).listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
  });
}

// pgid must be > 0: kill(-0) would signal this process's own group.
function killGroup(pgid: number, signal: NodeJS.Signals): void {
  if (pgid > 0) try { process.kill(-pgid, signal); } catch { /* already gone */ }
}

function groupAlive(pgid: number): boolean {
  if (pgid <= 0) return false;
  try { process.kill(-pgid, 0); return true; } catch { return false; }
}

/** Records how `child` ended (`done` stays undefined while it runs), including a failure to spawn it. */
function watchExit(child: ChildProcess): { done: string | undefined } {
  const state: { done: string | undefined } = { done: undefined };
  child.once('exit', (code, signal) => { state.done = signal ?? `code ${code}`; });
  child.once('error', (err) => { state.done = err.message; });
  return state;
}

/**
 * The state every browser test starts from: no menu, dialog or quick input, no editor open
 * (unsaved changes of an earlier test are dropped, never saved), the focus out of any webview.
 */
export async function resetWorkbench(page: Page): Promise<void> {
  // Keys pressed while a webview (Show Details) has the focus stay in the webview.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  if (await page.locator('.editor-group-container .tab').count()) {
    await page.keyboard.press('F1');
    await quickInput.type(page, '>View: Close All Editors');
    // Not runCommand: its match on a part of the title could pick "Close All Editors in Group".
    await page.locator('.quick-input-widget .monaco-list-row', { has: page.locator('.label-name', { hasText: /^View: Close All Editors$/ }) })
      .first().click({ timeout: 30_000 });
    const dontSave = page.locator('.monaco-dialog-box .monaco-button', { hasText: "Don't Save" });
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (await dontSave.isVisible()) await dontSave.click();
      if (!(await page.locator('.editor-group-container .tab').count())) break;
      if (Date.now() > deadline) throw new Error('resetWorkbench: editors still open after 30 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/** The Topics view's tree. */
export function topicsTree(page: Page): Locator {
  return page.locator('.monaco-list[aria-label="Topics"]');
}

/** The first row of the Topics tree whose text contains `label`. */
export function treeRow(page: Page, label: string): Locator {
  return topicsTree(page).locator('.monaco-list-row', { hasText: label }).first();
}

/**
 * Expands rows of the Topics tree one level after the other, each only if collapsed (a click on an
 * expanded row would collapse it).
 *
 * @throws playwright's TimeoutError if a row does not appear within 30 s or does not expand within 15 s
 */
export async function expandTreeRows(page: Page, ...labels: string[]): Promise<void> {
  for (const label of labels) {
    const row = treeRow(page, label);
    await row.waitFor({ timeout: 30_000 });
    if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.monaco-tl-twistie').click();
    const deadline = Date.now() + 15_000;
    while ((await row.getAttribute('aria-expanded')) !== 'true') {
      if (Date.now() > deadline) throw new Error(`harness: the tree row "${label}" did not expand within 15 s`);
      await page.waitForTimeout(100);
    }
  }
}

/** Where the browser tests write their screenshots on every run. */
export const testResults = join(repoRoot, 'test-results');
/** The README's screenshots (linked from README.md). */
const readmeShots = join(repoRoot, 'media/screenshots');
/**
 * Fraction of pixels that must differ for a README screenshot to be rewritten. Seen: 0.03% between
 * two runs of the same build (the cursor), 1.7–25% after changes to the views.
 */
const README_SHOT_CHANGED = 0.002;
/** Under CI (`CI` set, and not `false` or `0`) nothing in the repository is written. */
export const inCi = !!process.env.CI && !['false', '0'].includes(process.env.CI);

/**
 * Takes the README screenshot `name` (`topics`, `preview`, …) into test-results/ and copies it over
 * its README copy (media/screenshots/) only when the picture changed: more than
 * {@link README_SHOT_CHANGED} of its pixels differ (by more than 16 of 255 in a channel; see
 * {@link changedPixels}). Comparing bytes would not do: the PNG of the same workbench differs from
 * run to run (a blinking cursor, a hover, anti-aliasing), and a test run must not dirty the git tree
 * for nothing. Under CI ({@link inCi}) the screenshot stays in test-results/.
 */
export async function readmeScreenshot(page: Page, name: string): Promise<void> {
  const taken = join(testResults, `${name}.png`);
  await screenshot(page, taken);
  if (inCi) return;
  const target = join(readmeShots, `${name}.png`);
  let changed = 1;
  if (existsSync(target)) {
    try {
      changed = changedPixels(readFileSync(target), readFileSync(taken));
    } catch (e) {
      // A README copy that cannot be compared (another PNG format, damaged) is replaced.
      console.log(`e2e: cannot compare media/screenshots/${name}.png (${(e as Error).message}); replacing it`);
    }
  }
  if (changed <= README_SHOT_CHANGED) return;
  copyFileSync(taken, target);
  console.log(`e2e: media/screenshots/${name}.png rewritten (${(changed * 100).toFixed(2)}% of its pixels changed)`);
}

/**
 * Shows the Topics view and waits for its rows. A click on the activity-bar icon toggles (on the
 * active container it hides the side bar), and after a window reload the workbench first draws its
 * cached activity bar, then restores the active container and registers the extensions'
 * contributions while we look: a click raced the restore, and the palette opened too early does
 * not list the view's Focus command yet. So: the Focus command (which only ever shows the view),
 * tried again until the palette has it, unless the tree is already in view.
 */
export async function showTopics(page: Page): Promise<void> {
  const rows = topicsTree(page).locator('.monaco-list-row');
  await expect.poll(async () => {
    if (await rows.first().isVisible()) return true;
    if (!(await topicsTree(page).isVisible())) {
      await runCommand(page, 'MLSys Papers: Focus on Topics View', 3_000).catch(async () => {
        await page.keyboard.press('Escape'); // not listed yet: close the palette, try again
      });
    }
    return false;
  }, { timeout: 60_000, interval: 1_000 }).toBe(true);
}

/**
 * Right-clicks a tree row and clicks the context menu's item `name`. Once in CI a right-click
 * showed no menu within 30 s (not reproduced): the menu is opened again until it shows.
 */
export async function contextMenu(page: Page, row: Locator, name: string): Promise<void> {
  await row.click();
  const item = page.getByRole('menuitem', { name, exact: true });
  await expect.poll(async () => {
    if (!(await item.isVisible())) {
      await page.keyboard.press('Escape');
      await row.click({ button: 'right' });
      await item.waitFor({ timeout: 3_000 }).catch(() => undefined);
    }
    return item.isVisible();
  }, { timeout: 30_000, interval: 500 }).toBe(true);
  await item.hover();
  await item.click();
  await item.waitFor({ state: 'hidden' });
}
