/// <reference types="mocha" />
// Runs inside a real VS Code extension host: code-server (test/integration/run-code-server.mjs) or
// @vscode/test-electron (run-test-electron.mjs). Mocha TDD interface. Checks what the extension
// registers and does through the `vscode` API.
import * as assert from 'node:assert';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Commands, EXTENSION_ID } from '../../../src/ids';

async function activate(): Promise<void> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is installed`);
  await ext.activate();
}

/**
 * Scratch files live in a folder inside the workspace: the extension writes bibliographies only
 * inside the workspace folders (see 'a .bib outside the workspace is never written').
 */
const workspaceRoot = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
if (!workspaceRoot) throw new Error('the suite needs a workspace folder (run-code-server.mjs opens one)');
const tmp = mkdtempSync(join(workspaceRoot, '.mlsys-suite-'));
let files = 0;

/**
 * Writes `marked` (without its `|` cursor marker) to `file`, opens it in an editor and puts the
 * cursor at the marker, if there is one. Real files, not untitled documents: a closed untitled
 * document's name is reused by the next one, and the extension host can then see the old text
 * under the new name.
 */
async function openAt(file: string, marked: string): Promise<vscode.TextEditor> {
  const offset = marked.indexOf('|');
  writeFileSync(file, offset >= 0 ? marked.replace('|', '') : marked);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const editor = await vscode.window.showTextDocument(doc);
  if (offset >= 0) editor.selection = new vscode.Selection(doc.positionAt(offset), doc.positionAt(offset));
  return editor;
}

/** Opens a new `.tex` or `.md` file holding `marked`, cursor at its `|` marker (see {@link openAt}). */
async function editorWith(language: 'latex' | 'markdown', marked: string): Promise<vscode.TextEditor> {
  const editor = await openAt(join(tmp, `doc${++files}.${language === 'latex' ? 'tex' : 'md'}`), marked);
  assert.strictEqual(editor.document.languageId, language);
  return editor;
}

async function completionKeys(editor: vscode.TextEditor): Promise<string[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>(
    'vscode.executeCompletionItemProvider', editor.document.uri, editor.selection.active,
  );
  return list.items
    .filter((i) => i.kind === vscode.CompletionItemKind.Reference)
    .sort((a, b) => (a.sortText ?? '').localeCompare(b.sortText ?? ''))
    .map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
}

/**
 * Polls `condition` every `intervalMs` until it holds, and returns the value it held with: the one
 * way this suite waits for VS Code or the extension to do something (no fixed sleeps, no
 * hand-written deadline loops).
 * @param condition - truthy once the awaited thing has happened (may be async)
 * @param timeoutMs - how long to wait at most, in milliseconds
 * @param what - what is awaited, for the failure: a phrase, or a function giving one with the state last seen
 * @param intervalMs - the pause between two tries, in milliseconds
 * @throws AssertionError `timed out after <timeoutMs> ms waiting for <what>` when it never held
 */
async function waitFor<T>(condition: () => T | Promise<T>, timeoutMs: number, what: string | (() => string), intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() >= deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Waits until the extension host's event loop has run on time (no turn over 20 ms late) for `ms`
 * in a row, at most `timeoutMs`. A host that never is (a machine busy with something else) is
 * said so in the log and measured anyway: how quiet the machine is, is not what a test checks.
 * @returns whether the loop was quiet in time
 */
async function hostQuiet(ms: number, timeoutMs: number): Promise<boolean> {
  let last = performance.now();
  let since = last;
  try {
    await waitFor(() => {
      const now = performance.now();
      if (now - last > 30) since = now;
      last = now;
      return now - since >= ms;
    }, timeoutMs, `the extension host's event loop to run on time for ${ms} ms`, 10);
    return true;
  } catch (e) {
    console.log(`    ${e instanceof Error ? e.message : String(e)}; measuring anyway`);
    return false;
  }
}

/**
 * The suite's two wall-clock measurements, printed on every run with their targets (no event-loop
 * stall over 50 ms while a 100,000-entry library loads; completion through the server ≤ 10 ms over
 * an in-process provider at p95), as bench/ prints its figures. What is asserted is a bound 5× the
 * target: it still catches what the tests are for (a library read on the extension host's thread
 * stalls it for seconds; a request queued behind the server's other work waits hundreds of ms),
 * and a machine that is not ours alone (a collection pause of 64 ms was seen in a full run) does
 * not fail it.
 */
const WALL_CLOCK = { stall: { target: 50, bound: 250 }, p95: { target: 10, bound: 50 } } as const;

// Root hook: after every suite.
suiteTeardown(() => rmSync(tmp, { recursive: true, force: true }));

// First: it measures the extension host's event loop, and a host that earlier suites filled with
// garbage has longer collection pauses of its own (64 ms in the full suite, none alone).
suite('Libraries', () => {
  suiteSetup(activate);

  /**
   * A 100,000-entry `.bib` (synthetic entries, about 20 MB) with one planted entry in the middle.
   * Written before the event loop is watched, a thousand entries at a time: the test itself must
   * leave no large garbage whose collection would stall the loop it measures.
   */
  function bigLibrary(file: string, planted: string): void {
    const venues = ['OSDI', 'SOSP', 'MLSys', 'NeurIPS', 'EuroSys', 'ATC'];
    const words = ['pipeline', 'tensor', 'expert', 'serving', 'scheduling', 'memory', 'kernel', 'cluster', 'collective', 'checkpoint'];
    const fd = openSync(file, 'w');
    try {
      writeSync(fd, '% generated by the MLSys Papers extension-host suite\n');
      let chunk = '';
      for (let i = 0; i < 100_000; i++) {
        if (i === 50_000) chunk += planted;
        const w = (k: number) => words[(i * 7 + k * 3) % words.length];
        chunk += `@inproceedings{gen${i},\n  title = {Synthetic {${w(0)}} study ${i} of ${w(1)} and ${w(2)}},\n  author = {Author${i % 997}, Ann and Other, Bo},\n  booktitle = {${venues[i % venues.length]}},\n  year = {${2000 + (i % 25)}},\n  keywords = {${w(3)}, ${w(4)}},\n}\n\n`;
        if (i % 1000 === 999) { writeSync(fd, chunk); chunk = ''; }
      }
      writeSync(fd, chunk);
    } finally {
      closeSync(fd);
    }
  }

  test('a library entry: hover says where it is kept, definition opens its line, Insert Citation with its key copies its CSL item into a CSL-JSON bibliography', async function () {
    this.timeout(60_000);
    const dir = mkdtempSync(join(tmpdir(), 'mlsys-library-small-'));
    const library = join(dir, 'quokka.bib');
    writeFileSync(library, '% mine\n@inproceedings{doe2024quokka,\n  title = {Quokka: A Scheduler for {GPU} Clusters},\n  author = {Doe, Jane},\n  booktitle = {EuroSys},\n  pages = {1--12},\n  year = {2024},\n}\n');
    const config = vscode.workspace.getConfiguration('mlsysPapers');
    await config.update('libraries', [library], vscode.ConfigurationTarget.Global);
    try {
      const notes = mkdtempSync(join(tmp, 'library-'));
      writeFileSync(join(notes, 'refs.json'), '[]\n');
      const editor = await openAt(join(notes, 'notes.md'), '---\nbibliography: refs.json\n---\nSee [@doe2024quokka]. And |.\n');
      const doc = editor.document;
      const at = doc.positionAt(doc.getText().indexOf('doe2024quokka') + 2);
      let text = '';
      await waitFor(async () => {
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at);
        text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
        return /Quokka/.test(text);
      }, 30_000, () => `the hover to show the library entry (last: ${JSON.stringify(text)})`, 250);
      assert.match(text, /Quokka: A Scheduler for GPU Clusters/);
      assert.match(text, /In quokka\\?\.bib, line 2/);
      const defs = await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeDefinitionProvider', doc.uri, at);
      assert.strictEqual(defs[0]?.uri.fsPath, library);
      assert.strictEqual(defs[0]?.range.start.line, 1);
      await vscode.commands.executeCommand(Commands.insertCitation, 'doe2024quokka');
      assert.ok(editor.document.getText().includes('And [@doe2024quokka].'), editor.document.getText());
      const items = JSON.parse(readFileSync(join(notes, 'refs.json'), 'utf8')) as Record<string, unknown>[];
      assert.deepStrictEqual(items.map((i) => [i.id, i.title, i['container-title'], i.page]), [['doe2024quokka', 'Quokka: A Scheduler for GPU Clusters', 'EuroSys', '1-12']]);
      assert.ok(readFileSync(library, 'utf8').startsWith('% mine\n@inproceedings{doe2024quokka,'), 'the library is unchanged');
    } finally {
      await config.update('libraries', undefined, vscode.ConfigurationTarget.Global);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test(`a 100,000-entry library loads off the editor's thread: no event-loop stall over ${WALL_CLOCK.stall.bound} ms (target ${WALL_CLOCK.stall.target} ms, printed), heap growth ≤ 250 MB, and its entries are found`, async function () {
    this.timeout(240_000);
    const dir = mkdtempSync(join(tmpdir(), 'mlsys-library-'));
    const file = join(dir, 'big.bib');
    bigLibrary(file, '@article{zz2024quasar,\n  title = {Quasar: A Planted Entry for the Library Test},\n  author = {Planted, Pat},\n  journal = {Journal of Tests},\n  year = {2024},\n}\n\n');
    const editor = await editorWith('latex', 'See \\cite{quasar|}.');
    assert.ok(!(await completionKeys(editor)).includes('zz2024quasar'), 'not found before the library is configured');
    const { monitorEventLoopDelay } = await import('node:perf_hooks');
    global.gc?.();
    // Measured from a quiet host: the editor just opened, and the collection above may leave work behind.
    await hostQuiet(500, 10_000);
    const heapBefore = process.memoryUsage().heapUsed;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    // When the loop stalled, for the message: milliseconds since the setting changed, and how long.
    const t0 = Date.now();
    const stalls: string[] = [];
    let tick = performance.now();
    const watch = setInterval(() => {
      const now = performance.now();
      if (now - tick > 50) stalls.push(`at ${Date.now() - t0} ms: ${Math.round(now - tick)} ms`);
      tick = now;
    }, 5);
    const config = vscode.workspace.getConfiguration('mlsysPapers');
    await config.update('libraries', [file], vscode.ConfigurationTarget.Global);
    try {
      const started = Date.now();
      let keys: string[] = [];
      await waitFor(async () => (keys = await completionKeys(editor)).includes('zz2024quasar'), 200_000,
        () => `the planted entry to be completed once the library has loaded (after ${Date.now() - started} ms: ${keys.slice(0, 5).join(', ')})`, 500);
      delay.disable();
      clearInterval(watch);
      const maxMs = delay.max / 1e6;
      const figures = `longest event-loop turn while the library loaded: ${maxMs.toFixed(1)} ms (target ≤ ${WALL_CLOCK.stall.target} ms, bound ${WALL_CLOCK.stall.bound} ms; loaded in ${Date.now() - started} ms; over 50 ms: ${stalls.join(', ') || 'none'})`;
      console.log(`    ${figures}`);
      assert.ok(maxMs <= WALL_CLOCK.stall.bound, figures);
      global.gc?.();
      const grown = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
      assert.ok(grown <= 250, `the extension host's heap grew by ${grown.toFixed(0)} MB (≤ 250 MB)`);
      // Another entry of the library, by the start of its key.
      const other = await editorWith('latex', 'See \\cite{gen7392|}.');
      assert.ok((await completionKeys(other)).includes('gen73921'));
    } finally {
      delay.disable();
      clearInterval(watch);
      await config.update('libraries', undefined, vscode.ConfigurationTarget.Global);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

suite('MLSys Papers extension', () => {
  suiteSetup(activate);

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('registers every contributed command', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    for (const id of Object.values(Commands)) assert.ok(all.has(id), `${id} is registered`);
  });

  // No test of the Topics view here: what it shows is not visible through the `vscode` API (the
  // extension exports nothing, and `<view>.focus` succeeds for any view the manifest declares, with
  // or without a data provider). test/e2e/main.e2e.ts checks the view in a real workbench.

  test('completes citation keys inside \\cite{…}, ranked by our search', async () => {
    const editor = await editorWith('latex', 'As shown by \\citep[p.~3]{yu2022orca,pagedatt|}.');
    const keys = await completionKeys(editor);
    assert.strictEqual(keys[0], 'kwon2023efficient');
    assert.ok(!keys.includes('yu2022orca'), 'a key already in the list is not offered again');
    // Resolving an item (what VS Code does for the selected one) adds the formatted reference.
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', editor.document.uri, editor.selection.active, undefined, 1);
    const doc = list.items.find((i) => (typeof i.label === 'string' ? i.label : i.label.label) === 'kwon2023efficient')!.documentation;
    assert.match(typeof doc === 'string' ? doc : doc!.value, /Kwon, W\\?\., Li, Z\\?\./);
  });

  test(`completion through the language server adds ≤ ${WALL_CLOCK.p95.bound} ms at p95 (target ${WALL_CLOCK.p95.target} ms, printed) to an in-process provider of the same items`, async () => {
    const editor = await editorWith('latex', 'Serving systems \\cite{pag|}.');
    const ours = { uri: editor.document.uri, at: editor.selection.active };
    assert.strictEqual((await completionKeys(editor))[0], 'kwon2023efficient');
    // The baseline: the same items from a provider in the extension host (what completion was
    // before the server), measured in the same run on a plain-text file.
    const items = (await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', ours.uri, ours.at)).items;
    const baseFile = join(tmp, 'baseline.perf.txt');
    writeFileSync(baseFile, 'pag');
    const baseDoc = await vscode.workspace.openTextDocument(vscode.Uri.file(baseFile));
    const provider = vscode.languages.registerCompletionItemProvider({ pattern: '**/*.perf.txt' }, {
      provideCompletionItems: () => new vscode.CompletionList(items.map((i) => ({ ...i })), true),
    });
    const measure = async (uri: vscode.Uri, at: vscode.Position) => {
      const ask = () => vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, at);
      for (let i = 0; i < 10; i++) await ask();
      const times: number[] = [];
      for (let i = 0; i < 100; i++) {
        const t = performance.now();
        await ask();
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      return { p50: times[49]!, p95: times[94]!, max: times[99]! };
    };
    try {
      const base = await measure(baseDoc.uri, new vscode.Position(0, 3));
      const server = await measure(ours.uri, ours.at);
      const show = (m: { p50: number; p95: number; max: number }) => `p50 ${m.p50.toFixed(1)} ms, p95 ${m.p95.toFixed(1)} ms, max ${m.max.toFixed(1)} ms`;
      const figures = `through the server: ${show(server)}; in-process baseline: ${show(base)}; p95 difference target ≤ ${WALL_CLOCK.p95.target} ms, bound ${WALL_CLOCK.p95.bound} ms`;
      console.log(`    completion round trip ${figures}`);
      assert.ok(server.p95 - base.p95 <= WALL_CLOCK.p95.bound, figures);
    } finally {
      provider.dispose();
    }
  });

  test('completes citation keys after [@ in Markdown, not in an e-mail address', async () => {
    const editor = await editorWith('markdown', 'Continuous batching [@orc|]');
    assert.strictEqual((await completionKeys(editor))[0], 'yu2022orca');
    const mail = await editorWith('markdown', 'write to me@orc|');
    assert.deepStrictEqual(await completionKeys(mail), []);
  });

  test('Insert Citation with a key writes [@key] in Markdown as one undoable edit', async () => {
    const editor = await editorWith('markdown', 'Paged KV cache |.');
    await vscode.commands.executeCommand(Commands.insertCitation, 'kwon2023efficient');
    assert.strictEqual(editor.document.getText(), 'Paged KV cache [@kwon2023efficient].');
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(editor.document.getText(), 'Paged KV cache .');
  });

  test('Insert Citation joins an existing \\cite{…} in LaTeX and skips keys already there', async () => {
    const editor = await editorWith('latex', 'See \\cite{yu2022orca,|}.');
    await vscode.commands.executeCommand(Commands.insertCitation, ['kwon2023efficient', 'yu2022orca']);
    assert.strictEqual(editor.document.getText(), 'See \\cite{yu2022orca,kwon2023efficient}.');
  });

  test('Insert Citation follows mlsysPapers.latexCommand', async () => {
    const config = vscode.workspace.getConfiguration('mlsysPapers');
    await config.update('latexCommand', 'citep', vscode.ConfigurationTarget.Global);
    try {
      const editor = await editorWith('latex', 'See |.');
      await vscode.commands.executeCommand(Commands.insertCitation, 'kwon2023efficient');
      assert.strictEqual(editor.document.getText(), 'See \\citep{kwon2023efficient}.');
    } finally {
      await config.update('latexCommand', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('Copy Citation Key and Copy BibTeX write to the clipboard', async () => {
    await vscode.commands.executeCommand(Commands.copyCitationKey, 'kwon2023efficient');
    assert.strictEqual(await vscode.env.clipboard.readText(), 'kwon2023efficient');
    await vscode.commands.executeCommand(Commands.copyBibtex, 'yu2022orca');
    assert.match(await vscode.env.clipboard.readText(), /^@inproceedings\{yu2022orca,\n {2}author/);
  });

  test('loads user corpus files from mlsysPapers.corpusFiles and shows their problems as diagnostics', async () => {
    const file = join(tmp, 'my-papers.yaml');
    writeFileSync(file, [
      '- key: smith2024fast',
      '  type: misc',
      '  kind: paper',
      '  title: "Fast Things at Scale"',
      '  authors: [{given: Ann, family: Smith}]',
      '  year: 2024',
      '  topics: [serving.batching]',
      '  summary: "A user entry."',
      '  sources: [curated]',
      '  verified: ["https://example.org/smith"]',
      '- key: broken2024entry',
      '  type: misc',
      '  kind: paper',
      '  title: "Broken"',
      '  authors: [{given: Bob, family: Broken}]',
      '  doi: "https://doi.org/10.1/x"',
      '  topics: [serving]',
      '  summary: "x"',
      '  sources: [curated]',
      '  verified: ["https://example.org"]',
      '',
    ].join('\n'));
    const config = vscode.workspace.getConfiguration('mlsysPapers');
    await config.update('corpusFiles', [file], vscode.ConfigurationTarget.Global);
    try {
      const uri = vscode.Uri.file(file);
      await waitFor(() => vscode.languages.getDiagnostics(uri).length > 0, 10_000, 'a diagnostic on the user corpus file');
      const [diag, ...rest] = vscode.languages.getDiagnostics(uri);
      assert.ok(diag, 'a diagnostic on the user corpus file');
      assert.strictEqual(rest.length, 0);
      assert.strictEqual(diag.range.start.line, 15);
      assert.match(diag.message, /^\[1\]\.doi: must be a bare DOI/);
      const editor = await editorWith('latex', 'See \\cite{smith2024|}.');
      assert.strictEqual((await completionKeys(editor))[0], 'smith2024fast');
    } finally {
      await config.update('corpusFiles', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

suite('Workspace settings read only inside the workspace', () => {
  suiteSetup(activate);

  test('corpusFiles from the workspace settings naming a file outside the workspace is not read; from the user settings it is', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'mlsys-outside-'));
    const file = join(outside, 'outside.yaml');
    writeFileSync(file, '- key: outside2024entry\n  type: misc\n  kind: paper\n  title: "Outside Entry"\n  authors: [{given: Ann, family: Out}]\n'
      + '  topics: [serving.batching]\n  summary: "x"\n  sources: [curated]\n  verified: ["https://example.org/out"]\n');
    // A file inside the workspace, named with it: once its entry is in, the setting has been applied.
    const inside = join(tmp, 'inside-corpus.yaml');
    writeFileSync(inside, '- key: inside2024entry\n  type: misc\n  kind: paper\n  title: "Inside Entry"\n  authors: [{given: Ann, family: In}]\n'
      + '  topics: [serving.batching]\n  summary: "x"\n  sources: [curated]\n  verified: ["https://example.org/in"]\n');
    const config = vscode.workspace.getConfiguration('mlsysPapers');
    const keys = async () => {
      const got = await completionKeys(await editorWith('latex', 'See \\cite{2024entry|}.'));
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      return got;
    };
    /** Completion keys once `key` is among them (fails after 10 s). */
    const once = async (key: string) => {
      let got: string[] = [];
      await waitFor(async () => (got = await keys()).includes(key), 10_000, () => `${key} among the completion keys (last: ${got.join(', ')})`, 200);
      return got;
    };
    try {
      await config.update('corpusFiles', [file], vscode.ConfigurationTarget.Global);
      assert.ok((await once('outside2024entry')).includes('outside2024entry'), 'the user settings may name any file');
      await config.update('corpusFiles', undefined, vscode.ConfigurationTarget.Global);
      await config.update('corpusFiles', [file, inside], vscode.ConfigurationTarget.Workspace);
      const got = await once('inside2024entry');
      assert.ok(got.includes('inside2024entry'), 'the workspace settings were applied (their file inside the workspace is read)');
      assert.ok(!got.includes('outside2024entry'), 'the workspace settings may not name a file outside the workspace');
    } finally {
      await config.update('corpusFiles', undefined, vscode.ConfigurationTarget.Global);
      await config.update('corpusFiles', undefined, vscode.ConfigurationTarget.Workspace);
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('a citationStyle from the workspace settings naming a style outside the workspace is not read; from the user settings it is', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'mlsys-outside-'));
    const file = join(outside, 'ieee-copy.csl');
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    writeFileSync(file, readFileSync(join(ext.extensionPath, 'csl/styles/ieee.csl')));
    const config = vscode.workspace.getConfiguration('mlsysPapers');
    try {
      await config.update('citationStyle', file, vscode.ConfigurationTarget.Workspace);
      await vscode.env.clipboard.writeText('unchanged');
      await vscode.commands.executeCommand(Commands.copyFormattedReference, 'kwon2023efficient');
      assert.strictEqual(await vscode.env.clipboard.readText(), 'unchanged', 'the workspace may not make us read a file outside it');
      await config.update('citationStyle', undefined, vscode.ConfigurationTarget.Workspace);
      await config.update('citationStyle', file, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand(Commands.copyFormattedReference, 'kwon2023efficient');
      assert.match(await vscode.env.clipboard.readText(), /^\[1\] W\. Kwon/, 'the user settings may name any style');
    } finally {
      await config.update('citationStyle', undefined, vscode.ConfigurationTarget.Workspace);
      await config.update('citationStyle', undefined, vscode.ConfigurationTarget.Global);
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

suite('Bibliography sync', () => {
  suiteSetup(activate);
  const folder = () => mkdtempSync(join(tmp, 'bib-'));
  const orcaBib = '% my references\r\n@string{osdi = "OSDI"}\r\n\r\n@inproceedings{yu2022orca,\r\n  title = {Orca},\r\n  booktitle = osdi,\r\n  year = 2022\r\n}\r\n';

  test('LaTeX: the cited entry is appended to the declared .bib, which keeps its bytes and CRLF line endings', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'refs.bib'), orcaBib);
    const editor = await openAt(join(dir, 'paper.tex'), '\\documentclass{article}\n\\begin{document}\nPaged |.\n\\bibliography{refs}\n\\end{document}\n');
    await vscode.commands.executeCommand(Commands.insertCitation, ['kwon2023efficient', 'yu2022orca']);
    assert.ok(editor.document.getText().includes('Paged \\cite{kwon2023efficient,yu2022orca}.'));
    const bib = readFileSync(join(dir, 'refs.bib'), 'utf8');
    assert.ok(bib.startsWith(orcaBib), 'existing text unchanged');
    const added = bib.slice(orcaBib.length);
    assert.match(added, /^\r\n@inproceedings\{kwon2023efficient,\r\n/);
    assert.ok(!/[^\r]\n/.test(added), 'CRLF kept');
    assert.strictEqual((bib.match(/@inproceedings\{/g) ?? []).length, 2, 'yu2022orca not added twice');
  });

  test('LaTeX: a chapter with % !TEX root cites into the root file\'s bibliography', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'refs.bib'), orcaBib);
    writeFileSync(join(dir, 'main.tex'), '\\documentclass{book}\n\\begin{document}\n\\include{chapter}\n\\bibliography{refs}\n\\end{document}\n');
    const editor = await openAt(join(dir, 'chapter.tex'), '% !TEX root = main.tex\n\\chapter{One}\nSee |.\n');
    await vscode.commands.executeCommand(Commands.insertCitation, 'kwon2023efficient');
    assert.ok(editor.document.getText().includes('See \\cite{kwon2023efficient}.'));
    assert.match(readFileSync(join(dir, 'refs.bib'), 'utf8'), /@inproceedings\{kwon2023efficient,/);
  });

  test('a work already in the .bib under another key is cited by that key and not added', async () => {
    const dir = folder();
    const mine = '@article{paged,\n  title = {Efficient Memory Management for Large Language Model Serving with PagedAttention},\n  doi = {10.1145/3600006.3613165}\n}\n';
    writeFileSync(join(dir, 'refs.bib'), mine);
    const editor = await openAt(join(dir, 'notes.md'), '---\nbibliography: refs.bib\n---\nSee |.\n');
    await vscode.commands.executeCommand(Commands.insertCitation, 'kwon2023efficient');
    assert.ok(editor.document.getText().includes('See [@paged].'));
    assert.strictEqual(readFileSync(join(dir, 'refs.bib'), 'utf8'), mine);
  });

  test('a .bib that cannot be parsed is not written to', async () => {
    const dir = folder();
    const broken = '@misc{a,\n  title = {Unclosed\n}\n';
    writeFileSync(join(dir, 'refs.bib'), broken);
    const editor = await openAt(join(dir, 'paper.tex'), 'See |.\n\\bibliography{refs}\n');
    await vscode.commands.executeCommand(Commands.insertCitation, 'kwon2023efficient');
    assert.ok(editor.document.getText().includes('See \\cite{kwon2023efficient}.'));
    assert.strictEqual(readFileSync(join(dir, 'refs.bib'), 'utf8'), broken);
  });

  test('a .bib open with unsaved changes is edited in its editor, not on disk', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'refs.bib'), orcaBib);
    const bibDoc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(dir, 'refs.bib')));
    const bibEditor = await vscode.window.showTextDocument(bibDoc);
    await bibEditor.edit((b) => b.insert(new vscode.Position(0, 0), '% unsaved note\r\n'));
    const editor = await openAt(join(dir, 'paper.tex'), 'See |.\n\\bibliography{refs}\n');
    await vscode.commands.executeCommand(Commands.insertCitation, 'kwon2023efficient');
    assert.ok(editor.document.getText().includes('\\cite{kwon2023efficient}'));
    assert.strictEqual(readFileSync(join(dir, 'refs.bib'), 'utf8'), orcaBib, 'disk untouched');
    assert.ok(bibDoc.isDirty);
    assert.ok(bibDoc.getText().startsWith('% unsaved note\r\n' + orcaBib));
    assert.ok(bibDoc.getText().includes('@inproceedings{kwon2023efficient,'));
    await vscode.window.showTextDocument(bibDoc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  // Mostly CRLF with three LF lines and a lone CR: VS Code's editor would normalise these on save.
  const mixedBib = '% mine\r\n@string{osdi = "OSDI"}\n\r\n@misc{yu2022orca,\r\n  title = {Orca},\n  booktitle = osdi\r}\r\n% end\n';

  test('a closed .bib with mixed line endings gains the entry and keeps every other byte', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'refs.bib'), mixedBib);
    await openAt(join(dir, 'paper.tex'), 'See |.\n\\bibliography{refs}\n');
    await vscode.commands.executeCommand(Commands.insertCitation, 'kwon2023efficient');
    const bib = readFileSync(join(dir, 'refs.bib'), 'utf8');
    assert.ok(bib.startsWith(mixedBib), 'the original bytes, line endings included, are untouched');
    assert.match(bib.slice(mixedBib.length), /^\r\n@inproceedings\{kwon2023efficient,\r\n[\s\S]*\}\r\n$/);
  });

  test('a .bib with mixed line endings open in an editor gains the entry on disk and keeps every other byte', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'refs.bib'), mixedBib);
    const bibDoc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(dir, 'refs.bib')));
    await vscode.window.showTextDocument(bibDoc, { preview: false });
    await openAt(join(dir, 'paper.tex'), 'See |.\n\\bibliography{refs}\n');
    await vscode.commands.executeCommand(Commands.insertCitation, 'kwon2023efficient');
    const bib = readFileSync(join(dir, 'refs.bib'), 'utf8');
    assert.ok(bib.startsWith(mixedBib), 'the original bytes, line endings included, are untouched');
    assert.match(bib.slice(mixedBib.length), /@inproceedings\{kwon2023efficient,/);
    assert.strictEqual((bib.match(/kwon2023efficient,/g) ?? []).length, 1);
  });

  test('a .bib outside the workspace is never written, nor created, nor its folder', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'mlsys-outside-'));
    try {
      writeFileSync(join(outside, 'refs.bib'), mixedBib);
      const dir = folder();
      const editor = await openAt(join(dir, 'paper.tex'), `See |.\n\\bibliography{${join(outside, 'refs')}}\n`);
      await vscode.commands.executeCommand(Commands.insertCitation, 'kwon2023efficient');
      assert.ok(editor.document.getText().includes('\\cite{kwon2023efficient}'));
      assert.strictEqual(readFileSync(join(outside, 'refs.bib'), 'utf8'), mixedBib);
      const rel = join('..', '..', '..', 'mlsys-nowhere', 'refs');
      const other = await openAt(join(dir, 'other.tex'), `See |.\n\\bibliography{${rel}}\n`);
      await vscode.commands.executeCommand(Commands.insertCitation, 'kwon2023efficient');
      assert.ok(other.document.getText().includes('\\cite{kwon2023efficient}'));
      assert.ok(!existsSync(join(dir, rel, '..')), 'no folder created outside the workspace');
      const missing = await openAt(join(dir, 'third.tex'), 'See |.\n\\bibliography{nodir/refs}\n');
      await vscode.commands.executeCommand(Commands.insertCitation, 'kwon2023efficient');
      assert.ok(missing.document.getText().includes('\\cite{kwon2023efficient}'));
      assert.ok(!existsSync(join(dir, 'nodir')), 'no folder created for a declared file');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('Markdown: a CSL-YAML bibliography with an empty references list and a key after it gains the item inside references', async () => {
    const dir = folder();
    const yaml = '# my refs\nreferences: []\nnocite: "@*"\n...\n';
    writeFileSync(join(dir, 'refs.yaml'), yaml);
    await openAt(join(dir, 'notes.md'), '---\nbibliography: refs.yaml\n---\nSee |.\n');
    await vscode.commands.executeCommand(Commands.insertCitation, 'kwon2023efficient');
    const out = readFileSync(join(dir, 'refs.yaml'), 'utf8');
    assert.ok(out.startsWith('# my refs\nreferences: ['));
    assert.ok(out.endsWith('\nnocite: "@*"\n...\n'));
    assert.match(out, /references: \[\{"id":"kwon2023efficient"/);
  });

  test('Markdown: a CSL-JSON bibliography gains the item', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'refs.json'), '[\n  {\n    "id": "yu2022orca",\n    "type": "paper-conference",\n    "title": "Orca"\n  }\n]\n');
    await openAt(join(dir, 'notes.md'), '---\nbibliography: [refs.json]\n---\nSee |.\n');
    await vscode.commands.executeCommand(Commands.insertCitation, 'kwon2023efficient');
    const items = JSON.parse(readFileSync(join(dir, 'refs.json'), 'utf8')) as { id: string }[];
    assert.deepStrictEqual(items.map((i) => i.id), ['yu2022orca', 'kwon2023efficient']);
  });
});

suite('Citation checks', () => {
  suiteSetup(activate);

  const openWith = async (dir: string, name: string, text: string) => (await openAt(join(dir, name), text)).document;

  const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'MLSys Papers');
  /** Our diagnostics of `uri` once there are at least `count` (fails after 10 s). */
  async function diagnosticsOf(uri: vscode.Uri, count: number): Promise<vscode.Diagnostic[]> {
    let got: vscode.Diagnostic[] = [];
    await waitFor(() => (got = ours(uri)).length >= count, 10_000, () => `${count} diagnostics on ${uri.fsPath} (got ${got.length}: ${got.map((d) => d.message).join('; ')})`);
    return got;
  }

  test('diagnostics: a key in neither the bibliography nor the corpus, and a corpus key the bibliography lacks, with a quick fix that adds it', async () => {
    const dir = mkdtempSync(join(tmp, 'checks-'));
    writeFileSync(join(dir, 'refs.bib'), '@misc{mine2020,\n  title = {Mine},\n  author = {Me, A.},\n  year = {2020}\n}\n');
    const doc = await openWith(dir, 'paper.tex', 'See \\cite{mine2020,nosuchkey,kwon2023efficient}.\n\\bibliography{refs}\n');
    const diags = await diagnosticsOf(doc.uri, 2);
    const byKey = new Map(diags.map((d) => [doc.getText(d.range), d]));
    assert.deepStrictEqual([...byKey.keys()].sort(), ['kwon2023efficient', 'nosuchkey']);
    assert.match(byKey.get('nosuchkey')!.message, /Unknown citation key "nosuchkey": not in \S*refs\.bib, nor in the MLSys Papers corpus/);
    assert.match(byKey.get('kwon2023efficient')!.message, /in the MLSys Papers corpus but not in \S*refs\.bib/);

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, byKey.get('kwon2023efficient')!.range);
    const add = actions.find((a) => a.title === 'Add kwon2023efficient to the bibliography');
    assert.ok(add?.command, 'quick fix offered');
    await vscode.commands.executeCommand(add.command.command, ...(add.command.arguments ?? []));
    assert.match(readFileSync(join(dir, 'refs.bib'), 'utf8'), /@inproceedings\{kwon2023efficient,/);
    let after: vscode.Diagnostic[] = [];
    await waitFor(() => (after = ours(doc.uri)).length === 1, 10_000, () => `one diagnostic left after the fix (got ${after.map((d) => doc.getText(d.range)).join(', ')})`);
    // The fix saved refs.bib; only the unknown key is left (diagnostics refresh on the .bib's save).
    await vscode.commands.executeCommand('workbench.action.files.save');
    assert.deepStrictEqual(after.map((d) => doc.getText(d.range)), ['nosuchkey']);
  });

  test('record checks: a Google Scholar preprint in a .bib gets an Information diagnostic on its key; the quick fix rewrites it to the version of record, every other byte kept on disk, and undo restores it', async () => {
    const dir = mkdtempSync(join(tmp, 'vor-'));
    const before = '% exported from Google Scholar\r\n@misc{mine2020, title = {Mine}, year = {2020}}\r\n\r\n';
    const preprint = '@article{kwon2023vllm,\r\n  title={Efficient memory management for large language model serving with pagedattention},\r\n  author={Kwon, Woosuk and Li, Zhuohan and others},\r\n  journal={arXiv preprint arXiv:2309.06180},\r\n  year={2023},\r\n  file={kwon.pdf}\r\n}';
    const after = '\r\n\r\n@misc{last, title = {Last}}\r\n';
    const original = before + preprint + after;
    const doc = await openWith(dir, 'refs.bib', original);
    const [diag] = await diagnosticsOf(doc.uri, 1);
    assert.strictEqual(doc.getText(diag!.range), 'kwon2023vllm');
    assert.strictEqual(diag!.severity, vscode.DiagnosticSeverity.Information);
    assert.match(diag!.message, /^arXiv:2309\.06180 appeared at SOSP '23 \(pp\. 611–626\): cite the version of record/);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, diag!.range);
    const rewrite = actions.find((a) => a.title === "Rewrite kwon2023vllm as the version of record (SOSP '23)");
    assert.ok(rewrite?.edit, `the rewrite is offered (got: ${actions.map((a) => a.title).join('; ')})`);
    assert.ok(await vscode.workspace.applyEdit(rewrite.edit));
    assert.ok(await doc.save());
    const disk = readFileSync(join(dir, 'refs.bib'), 'utf8');
    assert.ok(disk.startsWith(before), 'the bytes before the entry are kept');
    assert.ok(disk.endsWith(after), 'the bytes after the entry are kept');
    const entry = disk.slice(before.length, disk.length - after.length);
    assert.match(entry, /^@inproceedings\{kwon2023vllm,\r\n {2}author=\{Kwon, Woosuk and Li, Zhuohan and Zhuang, Siyuan/);
    assert.match(entry, /booktitle=\{Proceedings of the \{ACM\} \{SIGOPS\} 29th Symposium on Operating Systems Principles\},\r\n/);
    assert.match(entry, /\r\n {2}file=\{kwon\.pdf\}\r\n\}$/);
    assert.ok(!/\n(?<!\r\n)/.test(entry.replace(/\r\n/g, '')), 'the entry keeps the file\'s CRLF line endings');
    await waitFor(() => ours(doc.uri).length === 0, 10_000, 'no diagnostic left after the fix');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(doc.getText(), original);
  });

  test('systems named but not cited: a Hint on vLLM whose fix cites kwon2023efficient after the name and adds it to the bibliography', async () => {
    const dir = mkdtempSync(join(tmp, 'named-'));
    writeFileSync(join(dir, 'refs.bib'), '@misc{mine2020, title = {Mine}, year = {2020}}\n');
    const doc = await openWith(dir, 'paper.tex', '\\documentclass{article}\n\\begin{document}\n\\section{Serving with vLLM}\nOurs~\\cite{mine2020} is slow. Later vLLM again.\n\\bibliography{refs}\n\\end{document}\n');
    // The first mention is a heading's (not prose); the second is the first in prose. (A first mention with a
    // citation in its sentence would end the search: that citation may be the writer's own key for vLLM.)
    let hint: vscode.Diagnostic | undefined;
    await waitFor(() => (hint = ours(doc.uri).find((d) => d.severity === vscode.DiagnosticSeverity.Hint)), 10_000, 'a hint on vLLM');
    assert.strictEqual(doc.getText(hint!.range), 'vLLM');
    assert.strictEqual(doc.offsetAt(hint!.range.start), doc.getText().lastIndexOf('vLLM'));
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, hint!.range);
    const cite = actions.find((a) => a.title.startsWith('Cite kwon2023efficient ('));
    assert.ok(cite?.edit && cite.command, `the fix is offered (got: ${actions.map((a) => a.title).join('; ')})`);
    assert.ok(await vscode.workspace.applyEdit(cite.edit));
    await vscode.commands.executeCommand(cite.command.command, ...(cite.command.arguments ?? []));
    assert.match(doc.getText(), /Later vLLM~\\cite\{kwon2023efficient\} again\./);
    await waitFor(() => /@inproceedings\{kwon2023efficient,/.test(readFileSync(join(dir, 'refs.bib'), 'utf8')), 10_000, 'kwon2023efficient added to refs.bib');
    assert.ok(readFileSync(join(dir, 'refs.bib'), 'utf8').startsWith('@misc{mine2020, title = {Mine}, year = {2020}}\n'));
  });

  test('diagnostics: duplicate keys in a .bib (ignoring case)', async () => {
    const dir = mkdtempSync(join(tmp, 'dups-'));
    const doc = await openWith(dir, 'refs.bib', '@misc{same, title = {One}}\n@misc{Same, title = {Two}}\n');
    const diags = await diagnosticsOf(doc.uri, 2);
    assert.strictEqual(diags.length, 2);
    assert.match(diags[0]!.message, /^Duplicate key "same"/);
  });

  test('hover shows the reference and whether the bibliography has it; definition goes to the .bib or the corpus entry', async () => {
    const dir = mkdtempSync(join(tmp, 'hover-'));
    writeFileSync(join(dir, 'refs.bib'), '% mine\n@misc{mine2020,\n  title = {Mine},\n  year = {2020}\n}\n');
    const doc = await openWith(dir, 'notes.md', '---\nbibliography: refs.bib\n---\nSee [@kwon2023efficient; @mine2020].\n');
    const at = (key: string) => doc.positionAt(doc.getText().indexOf(key) + 2);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at('kwon2023efficient'));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /Efficient Memory Management for Large Language Model Serving/);
    assert.match(text, /not in \S*refs\\?\.bib/);
    // The one command link, from the server's Markdown, which the client trusts for that command only.
    assert.match(text, /\[Details\]\(command:mlsysPapers\.showDetails\?/);
    const defs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', doc.uri, at('mine2020'));
    const def = defs[0] as vscode.Location;
    assert.strictEqual(def.uri.fsPath, join(dir, 'refs.bib'));
    assert.deepStrictEqual([def.range.start.line, def.range.start.character], [1, 6]);
    const corpusDefs = await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeDefinitionProvider', doc.uri, at('kwon2023efficient'));
    const virtual = await vscode.workspace.openTextDocument(corpusDefs[0]!.uri);
    assert.match(virtual.getText(), /@inproceedings\{kwon2023efficient,/);
  });

  test('a paper whose references are a thebibliography in its .bbl: its \\bibitem keys are not flagged, definition goes to the \\bibitem', async () => {
    const dir = mkdtempSync(join(tmp, 'bbl-'));
    writeFileSync(join(dir, 'main.bbl'), '\\begin{thebibliography}{1}\n\\bibitem[{Smith et~al.(2020)}]{smith2020}\nA. Smith. Paging tricks. 2020.\n\\end{thebibliography}\n');
    const doc = await openWith(dir, 'main.tex', '\\documentclass{article}\n\\begin{document}\nSee \\citep{smith2020} and \\cite{nosuchkey}.\n\\input{main.bbl}\n\\end{document}\n');
    const diags = await diagnosticsOf(doc.uri, 1);
    assert.deepStrictEqual(diags.map((d) => doc.getText(d.range)), ['nosuchkey']);
    assert.match(diags[0]!.message, /thebibliography/);
    const defs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', doc.uri, doc.positionAt(doc.getText().indexOf('smith2020') + 2));
    const def = defs[0] as vscode.Location;
    assert.strictEqual(def.uri.fsPath, join(dir, 'main.bbl'));
    assert.strictEqual(def.range.start.line, 1);
  });

  test('definition goes to the id of an item in a CSL-YAML bibliography', async () => {
    const dir = mkdtempSync(join(tmp, 'cslyaml-'));
    writeFileSync(join(dir, 'refs.yaml'), '---\nreferences:\n- id: other2019\n  title: Other\n- type: book\n  id: mine2020\n  title: Mine\n');
    const doc = await openWith(dir, 'notes.md', '---\nbibliography: refs.yaml\n---\nSee [@mine2020].\n');
    const defs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', doc.uri, doc.positionAt(doc.getText().indexOf('mine2020') + 2));
    const def = defs[0] as vscode.Location;
    assert.strictEqual(def.uri.fsPath, join(dir, 'refs.yaml'));
    assert.deepStrictEqual([def.range.start.line, def.range.start.character], [5, 6]);
  });

  test('completion offers the document bibliography\'s own entries too', async () => {
    const dir = mkdtempSync(join(tmp, 'compl-'));
    writeFileSync(join(dir, 'refs.bib'), '@misc{mine2020,\n  title = {A Study of Mine},\n  author = {Me, Ann},\n  year = {2020}\n}\n');
    const doc = await openWith(dir, 'paper.tex', 'See \\cite{study}.\n\\bibliography{refs}\n');
    const pos = doc.positionAt(doc.getText().indexOf('study') + 5);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, pos);
    const labels = list.items.filter((i) => i.kind === vscode.CompletionItemKind.Reference).map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.includes('mine2020'), labels.slice(0, 5).join(','));
  });
});

suite('Formatted references', () => {
  suiteSetup(activate);

  test('Copy Formatted Reference uses the configured CSL style', async () => {
    const config = vscode.workspace.getConfiguration('mlsysPapers');
    await vscode.commands.executeCommand(Commands.copyFormattedReference, 'kwon2023efficient');
    assert.match(await vscode.env.clipboard.readText(), /^Kwon, W\., Li, Z\., .*\(2023\)\. Efficient Memory Management/);
    await config.update('citationStyle', 'ieee', vscode.ConfigurationTarget.Global);
    try {
      await vscode.commands.executeCommand(Commands.copyFormattedReference, 'kwon2023efficient');
      assert.match(await vscode.env.clipboard.readText(), /^\[1\] W\. Kwon et al\., “Efficient Memory Management/);
    } finally {
      await config.update('citationStyle', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('Insert Formatted Reference writes the reference at the cursor as one undoable edit', async () => {
    const editor = await editorWith('markdown', 'Reading: |');
    await vscode.commands.executeCommand(Commands.insertFormattedReference, 'yu2022orca');
    assert.match(editor.document.getText(), /^Reading: Yu, G\.-I\., Jeong, J\. S\., .*\(2022\)\. Orca: A Distributed Serving System/);
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(editor.document.getText(), 'Reading: ');
  });

  test('Insert Bibliography lists every corpus key a Markdown note cites, in citation order', async () => {
    const editor = await editorWith('markdown', 'Orca [@yu2022orca] then vLLM [@kwon2023efficient; @yu2022orca].\n\n|');
    await vscode.commands.executeCommand(Commands.insertBibliography);
    const text = editor.document.getText();
    const orca = text.indexOf('Yu, G.-I.');
    const vllm = text.indexOf('Kwon, W.');
    assert.ok(orca > 0 && vllm > 0, text);
    assert.strictEqual(text.split('(2022). Orca').length - 1, 1, 'each entry once');
  });

  test('hover shows the formatted reference', async () => {
    const editor = await editorWith('latex', 'See \\cite{yu2022orca|}.');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, editor.selection.active);
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text.replace(/\\(.)/g, '$1'), /Yu, G\.-I\., Jeong, J\. S\., .* \(2022\)\. Orca: A Distributed Serving System/);
  });
});
