/**
 * The differential comparison of test/realdocs: for each real document of MANIFEST.json, what the
 * reference tools read (pdflatex + BibTeX or biber; pandoc and its citeproc) against what the
 * language server reads (`mlsys-papers lsp --stdio`, no settings) and what the CLI's `export
 * --cited-in` and `sync --dry-run` do. Plain ES module so that both the vitest test
 * (realdocs.test.ts) and the report script (report.mjs) run it.
 *
 * Sources of the rules applied:
 * - pdflatex writes `\citation{k1,k2}` to the `.aux` of the root and of each `\include`d file
 *   (LaTeX2e source, ltbibl.dtx); `\nocite{*}` writes `\citation{*}`.
 * - biblatex writes `<bcf:citekey order="n">key</bcf:citekey>` to the `.bcf` (biblatex manual §4.11,
 *   biber's control file); `\nocite{*}` is the citekey `*`.
 * - BibTeX 0.99d: `Warning--I didn't find a database entry for "key"` in the `.blg`;
 *   biber: `WARN - I didn't find a database entry for 'key'` (biber's Biber.pm).
 * - pandoc: each `Cite` inline of `pandoc -t json` carries `citationId`s (pandoc-types); citeproc
 *   warns `[WARNING] Citeproc: citation KEY not found` (pandoc's Citeproc module).
 * - Quarto: a citation whose key is a cross-reference prefix plus `-` is a cross-reference
 *   (https://quarto.org/docs/authoring/cross-references.html; the prefixes below).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parse as parseYaml } from 'yaml';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node.js';

export const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '../..');
export const DOCS = join(HERE, 'docs');
export const CLI = join(ROOT, 'dist/cli.js');

/** Quarto's reserved cross-reference prefixes (quarto.org, Cross References: each is `@<prefix>-label`). */
export const QUARTO_XREF_PREFIXES = ['fig', 'tbl', 'lst', 'tip', 'nte', 'wrn', 'imp', 'cau', 'thm', 'lem', 'cor', 'prp', 'cnj', 'def', 'exm', 'exr', 'sol', 'rem', 'alg', 'eq', 'sec'];
const QUARTO_XREF = new RegExp(`^(${QUARTO_XREF_PREFIXES.join('|')})-`);

/** The kinds of disagreement, worst first. */
export const KINDS = {
  falseAlarm: 'flagged as unknown, but the bibliography defines it',
  missed: 'cited by the reference tool, not read by us',
  extra: 'read by us, not cited by the reference tool',
  unflagged: 'undefined for the reference tool, read but not flagged by us',
  exportDiff: 'export --cited-in differs from the cited keys the bibliography defines',
  syncWrite: 'sync --dry-run plans a write for a project whose bibliography defines every cited key',
  syncUnknown: 'sync --dry-run calls keys unknown that the bibliography defines',
  oracle: 'the reference tool failed on the document',
  previewCitation: 'a citation in the Markdown preview reads otherwise than in pandoc --citeproc HTML',
  previewEntry: 'the Markdown preview\'s bibliography differs from pandoc --citeproc\'s (entries, order or text)',
};

/**
 * Which set runs: `debian` (MANIFEST.json, the CI set, from installed Debian packages) or, with
 * REALDOCS_SET=github, the developer-only GitHub set (MANIFEST.github.json, fetched by fetch.mjs).
 */
export const SET = process.env.REALDOCS_SET === 'github' ? 'github' : 'debian';

/** @returns the manifest of the set that runs (see SET) */
export function readManifest() {
  return JSON.parse(readFileSync(join(HERE, SET === 'github' ? 'MANIFEST.github.json' : 'MANIFEST.json'), 'utf8'));
}

/**
 * What the document needs that this machine lacks, as lines a person reads (empty when complete):
 * for a Debian document each installed file it copies, for a GitHub document its fetched folder.
 */
export function missingOf(doc) {
  if (!doc.package) return existsSync(join(DOCS, doc.id)) ? [] : [`${doc.id}: not fetched: run node test/realdocs/fetch.mjs`];
  const lost = doc.files.filter((f) => !existsSync(f.from)).map((f) => f.from);
  if (!lost.length) return [];
  return [`${doc.id}: Debian package ${doc.package} is not installed (missing ${lost[0]}${lost.length > 1 ? ` and ${lost.length - 1} more` : ''}): run scripts/setup-test-tools.sh`];
}

/** The installed version of a Debian package (`dpkg-query -W`), or undefined when it is not installed. */
export function installedVersion(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout ? r.stdout : undefined;
}

let workRoot;

/**
 * The folder a document is read from. A Debian document's files are copied from their installed
 * paths (a `.gz` unpacked) into a temporary folder once per process, so no tool ever writes to
 * /usr; a GitHub document is read where fetch.mjs put it.
 */
export function docDir(doc) {
  if (!doc.package) return join(DOCS, doc.id);
  workRoot ??= mkdtempSync(join(tmpdir(), 'realdocs-'));
  const dir = join(workRoot, doc.id);
  if (!existsSync(dir)) {
    for (const f of doc.files) {
      const target = resolve(dir, f.to);
      if (!target.startsWith(dir + '/')) throw new Error(`${doc.id}: ${f.to} leaves its folder`);
      mkdirSync(dirname(target), { recursive: true });
      const data = readFileSync(f.from);
      writeFileSync(target, f.from.endsWith('.gz') && !f.to.endsWith('.gz') ? gunzipSync(data) : data);
    }
  }
  return dir;
}

/** Removes the copies docDir made. */
export function removeCopies() {
  if (workRoot) rmSync(workRoot, { recursive: true, force: true });
  workRoot = undefined;
}

/**
 * Reads the known limits (KNOWN-LIMITS.json) of the set that runs: `{ limits: [{ set?, doc, kind,
 * key, reason }] }`, where `doc` and `key` may be `*` and `set` is `github` or (absent) the Debian set.
 */
export function readKnownLimits() {
  const file = join(HERE, 'KNOWN-LIMITS.json');
  const limits = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).limits : [];
  return limits.filter((l) => (l.set ?? 'debian') === SET);
}

/** The language id VS Code's languages give a file (as the CLI's `languageOfPath`). */
export function languageOf(path) {
  if (/\.(tex|ltx|latex)$/i.test(path)) return 'latex';
  if (/\.qmd$/i.test(path)) return 'quarto';
  if (/\.rmd$/i.test(path)) return 'rmd';
  if (/\.(md|markdown)$/i.test(path)) return 'markdown';
  return undefined;
}

/** Every file under `dir`, relative paths, sorted. */
function walk(dir, base = dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p, base));
    else out.push(relative(base, p));
  }
  return out;
}

/** The document's source files (the ones a writer opens): relative paths. */
export function sourcesOf(doc) {
  const dir = docDir(doc);
  return walk(dir).filter((p) => {
    const lang = languageOf(p);
    if (!lang) return false;
    // A Manubot manuscript's or a book's README-like files are documents too; a LaTeX doc's .tex files all are.
    return doc.kind === 'latex' ? lang === 'latex' : lang !== 'latex';
  });
}

export function run(cmd, args, cwd, timeout = 120_000, input = undefined) {
  // Stub packages (stubs/README.md) come after TeX's own search path: an installed package wins.
  const env = { ...process.env, max_print_line: '10000', TEXINPUTS: process.env.TEXINPUTS ? `${process.env.TEXINPUTS}::${join(HERE, 'stubs')}//` : `:${join(HERE, 'stubs')}//` };
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, maxBuffer: 1 << 28, env, input });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error };
}

// ---------------------------------------------------------------- the reference tools: LaTeX

/**
 * Compiles each root of a LaTeX document in a temporary copy (pdflatex, then biber when a `.bcf`
 * was written, else BibTeX when the `.aux` names a `\bibdata`) and reads what they found.
 *
 * @returns `{ cited: Set, undefined: Set, nociteAll: boolean, problems: string[], backend }`
 */
export function latexOracle(doc) {
  const tmp = mkdtempSync(join(tmpdir(), `realdocs-${doc.id}-`));
  const problems = [];
  const cited = new Set();
  const undef = new Set();
  let nociteAll = false;
  const backends = new Set();
  try {
    cpSync(docDir(doc), tmp, { recursive: true });
    for (const root of doc.roots) {
      const job = root.replace(/\.tex$/, '');
      const cwd = join(tmp, dirname(root));
      const r = run(doc.engine ?? 'pdflatex', ['-interaction=nonstopmode', '-file-line-error', basename(root)], cwd);
      if (r.error) problems.push(`${root}: ${doc.engine ?? 'pdflatex'}: ${r.error.message}`);
      const aux = join(cwd, `${basename(job)}.aux`);
      if (!existsSync(aux)) { problems.push(`${root}: no .aux written (${lastError(r.stdout)})`); continue; }
      const bcf = join(cwd, `${basename(job)}.bcf`);
      let blg;
      if (existsSync(bcf)) {
        backends.add('biber');
        const b = run('biber', ['--nolog', basename(job)], cwd);
        blg = b.stdout;
        for (const m of readFileSync(bcf, 'utf8').matchAll(/<bcf:citekey\b[^>]*>([^<]*)<\/bcf:citekey>/g)) {
          const key = unxml(m[1]);
          if (key === '*') nociteAll = true; else cited.add(key);
        }
      } else {
        for (const file of walk(tmp).filter((p) => p.endsWith('.aux'))) {
          for (const m of readFileSync(join(tmp, file), 'utf8').matchAll(/^\\citation\{([^}]*)\}/gm)) {
            for (const key of m[1].split(',')) if (key === '*') nociteAll = true; else if (key) cited.add(key);
          }
        }
        // \bibdata may sit in an \include'd file's .aux (a \bibliography in backmatter.tex); BibTeX
        // run on the root's job reads those through the root's \@input lines.
        // (Only those: bibtopic's per-section books1.aux is BibTeX's job of its own, not the root's.)
        const rootAux = readFileSync(aux, 'utf8');
        const included = [...rootAux.matchAll(/^\\@input\{([^}]*)\}/gm)].map((m) => join(cwd, m[1])).filter((p) => existsSync(p));
        if ([aux, ...included].some((p) => /^\\bibdata\{/m.test(readFileSync(p, 'utf8')))) {
          backends.add('bibtex');
          run('bibtex', [basename(job)], cwd);
          const blgFile = join(cwd, `${basename(job)}.blg`);
          blg = existsSync(blgFile) ? readFileSync(blgFile, 'utf8') : '';
        }
      }
      for (const m of (blg ?? '').matchAll(/I didn't find a database entry for ["']([^"']*)["']/g)) undef.add(m[1]);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return { cited, undefined: undef, nociteAll, problems, backend: [...backends].join('+') || 'none' };
}

function lastError(log) {
  const m = [...log.matchAll(/^(?:\S+:\d+: |! )(.*)$/gm)].pop();
  return m ? m[1] : 'no error in the log';
}

function unxml(s) {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

// ---------------------------------------------------------------- the reference tools: pandoc

/**
 * The Markdown pandoc receives from an R Markdown or Quarto file: knitr (and Quarto's engines) run
 * each executable chunk (a fence whose info string is `{r …}`, `{python …}`, …) before pandoc and
 * leave its source, if echoed, as a code block (knitr's `hook_plot_md`/`render_markdown`). Pandoc
 * alone would not read `{r label}` as fence attributes and would parse the chunk's lines as
 * Markdown, so the oracle turns each chunk fence into `{.r}`: same lines, a code block, as rendered.
 */
export function knitrView(text) {
  return text.replace(/^([ \t]*)(`{3,}|~{3,})[ \t]*\{[ \t]*([A-Za-z][\w-]*)\b[^}\n]*\}[ \t]*$/gm, '$1$2{.$3}');
}

/** A style for citeproc when the document's own cannot be had (a URL, a file not in the repository): warnings do not depend on it. */
export const FALLBACK_CSL = join(ROOT, 'csl/styles/apa.csl');
/** An empty bibliography, for documents whose declared files are all missing. */
export const EMPTY_BIB = join(HERE, 'stubs/empty.bib');

/** Every `Cite` node's citation ids in a pandoc JSON tree (blocks and metadata). */
function citeIds(node, out) {
  if (Array.isArray(node)) { for (const n of node) citeIds(n, out); return; }
  if (!node || typeof node !== 'object') return;
  if (node.t === 'Cite') for (const c of node.c[0]) out.push(c.citationId);
  for (const v of Object.values(node)) citeIds(v, out);
}

/** A pandoc metadata value as text (MetaString, MetaInlines of Str/Space). */
function metaText(v) {
  if (!v) return undefined;
  if (v.t === 'MetaString') return v.c;
  if (v.t === 'MetaInlines') return v.c.map((i) => (i.t === 'Str' ? i.c : i.t === 'Space' ? ' ' : i.t === 'Quoted' ? metaText({ t: 'MetaInlines', c: i.c[1] }) : '')).join('');
  return undefined;
}

function metaList(v) {
  if (!v) return [];
  if (v.t === 'MetaList') return v.c.map(metaText).filter(Boolean);
  const t = metaText(v);
  return t ? [t] : [];
}

/**
 * The bibliography a Markdown file renders with, as paths relative to the document folder: its own
 * front matter's, else the Quarto project's `_quarto.yml`, else (bookdown) `index.Rmd`'s front
 * matter: bookdown renders all chapters as one document with index.Rmd's metadata.
 */
export function markdownBibliography(doc, file, meta) {
  const dir = docDir(doc);
  const own = metaList(meta.bibliography).map((b) => join(dirname(file), b));
  if (own.length) return own;
  const quarto = join(dir, '_quarto.yml');
  if (existsSync(quarto)) {
    const y = parseYaml(readFileSync(quarto, 'utf8')) ?? {};
    const b = y.bibliography ?? y.book?.bibliography;
    if (b) return (Array.isArray(b) ? b : [b]).map(String);
  }
  if (doc.kind === 'bookdown' && file !== 'index.Rmd' && existsSync(join(dir, 'index.Rmd'))) {
    const r = run('pandoc', ['-f', 'markdown', '-t', 'json', 'index.Rmd'], dir);
    if (r.status === 0) return metaList(JSON.parse(r.stdout).meta.bibliography);
  }
  return [];
}

/**
 * What pandoc reads in each Markdown file of a document: cited keys (Quarto cross-references set
 * apart for .qmd files and files of a Quarto project), and the keys its citeproc does not find in
 * the bibliography the file renders with.
 *
 * @returns `{ cited: Set, undefined: Set, xrefs: Set, nociteAll, problems: string[], bibliographies: string[] }`
 */
export function pandocOracle(doc) {
  const dir = docDir(doc);
  const quartoProject = existsSync(join(dir, '_quarto.yml'));
  const cited = new Set();
  const undef = new Set();
  const xrefs = new Set();
  const problems = [];
  const bibs = new Set();
  let nociteAll = false;
  for (const file of sourcesOf(doc)) {
    const raw = readFileSync(join(dir, file), 'utf8');
    const text = /\.(rmd|qmd)$/i.test(file) ? knitrView(raw) : raw;
    const r = run('pandoc', ['-f', 'markdown', '-t', 'json'], dir, undefined, text);
    if (r.status !== 0) { problems.push(`${file}: pandoc: ${r.stderr.trim().split('\n')[0]}`); continue; }
    const tree = JSON.parse(r.stdout);
    const ids = [];
    citeIds(tree, ids);
    const quarto = quartoProject || /\.qmd$/i.test(file);
    const keys = [];
    for (const id of ids) {
      if (id === '*') { nociteAll = true; continue; }
      if (quarto && QUARTO_XREF.test(id)) { xrefs.add(id); continue; }
      cited.add(id);
      keys.push(id);
    }
    if (!keys.length) continue;
    const declared = markdownBibliography(doc, file, tree.meta ?? {});
    const present = declared.filter((b) => existsSync(join(dir, b)));
    for (const b of declared) bibs.add(b + (present.includes(b) ? '' : ' (missing)'));
    // Without a bibliography pandoc's citeproc finds no key: each is undefined, as rendering would say.
    // A declared file that is missing would stop pandoc; --bibliography replaces the front matter's
    // list, so an empty file stands in when none of them exists.
    const bibArgs = present.length ? present.map((b) => `--bibliography=${b}`) : [`--bibliography=${EMPTY_BIB}`];
    const c = run('pandoc', ['-f', 'markdown', '-t', 'plain', '--citeproc', `--csl=${FALLBACK_CSL}`, ...bibArgs], dir, undefined, text);
    if (c.status !== 0) { problems.push(`${file}: pandoc --citeproc: ${c.stderr.trim().split('\n')[0]}`); continue; }
    for (const m of c.stderr.matchAll(/\[WARNING\] Citeproc: citation (.+?) not found/g)) if (!QUARTO_XREF.test(m[1]) || !quarto) undef.add(m[1]);
  }
  return { cited, undefined: undef, xrefs, nociteAll, problems, bibliographies: [...bibs] };
}

// ---------------------------------------------------------------- the language server

/**
 * What the language server reads in each source file of a document, each file opened alone in a
 * server of its own, as a writer opens one section of a paper: `node dist/cli.js lsp --stdio` on
 * the document's folder, no settings (every `workspace/configuration` item is null), the file
 * opened, then its cited keys (`mlsysPapers/citedKeys`) and diagnostics (`textDocument/diagnostic`).
 * A server of its own per file: open documents' bibliographies join the server's libraries after a
 * timer (includeDocumentBibliography), so in a shared server the answer for one file would depend
 * on which files were opened before it and how fast.
 *
 * @returns per file: `{ file, cited: string[], flagged: string[], diagnostics }`
 */
export async function serverReading(doc) {
  const out = [];
  for (const file of sourcesOf(doc)) out.push(await serverReadingOf(doc, file));
  return out;
}

async function serverReadingOf(doc, file) {
  const dir = docDir(doc);
  const session = await lspSession(doc);
  try {
    const uri = pathToFileURL(join(dir, file)).href;
    const text = readFileSync(join(dir, file), 'utf8');
    await session.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: languageOf(file), version: 1, text } });
    const cited = await session.conn.sendRequest('mlsysPapers/citedKeys', { uri });
    const report = await session.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
    const lines = text.split('\n');
    const diagnostics = (report.items ?? []).filter((d) => d.source && /mlsys/i.test(d.source));
    const flagged = diagnostics.filter((d) => d.code === 'unknown-key' || d.code === 'not-in-bibliography' || d.code === 'not-in-thebibliography').map((d) => utf16Slice(lines, d.range));
    await session.close();
    return { file, cited, flagged, diagnostics };
  } catch (e) {
    throw new Error(`${doc.id}: ${file}: language server: ${e.message}${session.stderr() ? `\n${session.stderr().slice(-2000)}` : ''}`);
  } finally {
    session.dispose();
  }
}

/**
 * A language server on a document's folder (`node dist/cli.js lsp --stdio`, no settings: every
 * `workspace/configuration` item is null), initialized; for a LaTeX document, once it has indexed
 * the `.tex` files.
 *
 * @returns the connection, `close()` (shutdown and exit), `dispose()` (ends the process) and its stderr so far
 */
export async function lspSession(doc) {
  const dir = docDir(doc);
  const child = spawn(process.execPath, [CLI, 'lsp', '--stdio'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  conn.onRequest('workspace/configuration', (p) => p.items.map(() => null));
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('client/unregisterCapability', () => null);
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onRequest('workspace/diagnostic/refresh', () => null);
  conn.onRequest('window/showMessageRequest', () => null);
  // The server indexes the workspace's .tex files after `initialized`, off the request path, and says
  // so in its log ("LaTeX project: N .tex file(s) read in …"); a client then pulls again on
  // workspace/diagnostic/refresh. This harness pulls once, so it waits for that line first.
  let indexedLatex;
  const latexIndexed = new Promise((res) => { indexedLatex = res; });
  conn.onNotification('window/logMessage', (p) => { if (/LaTeX project: \d+ \.tex file\(s\) read/.test(p.message)) indexedLatex(); });
  conn.onNotification(() => {});
  conn.listen();
  const dispose = () => { conn.dispose(); child.kill(); };
  try {
    const folder = pathToFileURL(dir).href;
    await conn.sendRequest('initialize', {
      processId: process.pid, rootUri: folder,
      capabilities: { workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } }, textDocument: { diagnostic: { dynamicRegistration: false } } },
      workspaceFolders: [{ uri: folder, name: doc.id }],
    });
    await conn.sendNotification('initialized', {});
    if (doc.kind === 'latex') {
      let timer;
      const late = new Promise((_, rej) => { timer = setTimeout(() => rej(new Error('no "LaTeX project: … read" log line within 60 s')), 60_000); });
      try { await Promise.race([latexIndexed, late]); } finally { clearTimeout(timer); }
    }
  } catch (e) {
    dispose();
    throw new Error(`${doc.id}: language server: ${e.message}${stderr ? `\n${stderr.slice(-2000)}` : ''}`);
  }
  return {
    conn,
    stderr: () => stderr,
    close: async () => { await conn.sendRequest('shutdown'); await conn.sendNotification('exit'); },
    dispose,
  };
}

/** The text an LSP range covers (UTF-16 columns, one line). */
function utf16Slice(lines, range) {
  if (range.start.line !== range.end.line) return '';
  return (lines[range.start.line] ?? '').slice(range.start.character, range.end.character);
}

// ---------------------------------------------------------------- the CLI

/** `.bib` files of a document folder (relative paths). */
function bibFiles(doc) {
  return walk(docDir(doc)).filter((p) => /\.bib$/i.test(p));
}

/**
 * The CLI over each root of a LaTeX document: `export --cited-in ROOT --library B.bib… --format
 * csl-json` (the keys exported) and `sync ROOT --dry-run` (what it would write, what it calls unknown).
 */
export function cliReading(doc) {
  const dir = docDir(doc);
  const libs = bibFiles(doc).flatMap((b) => ['--library', b]);
  const out = [];
  for (const root of doc.roots) {
    const e = run(process.execPath, [CLI, 'export', '--cited-in', root, ...libs, '--format', 'csl-json'], dir);
    let exported = [];
    try { exported = JSON.parse(e.stdout).map((x) => x.id); } catch { exported = undefined; }
    const s = run(process.execPath, [CLI, 'sync', root, '--dry-run'], dir);
    const writes = s.stdout.split('\n').filter((l) => /: would (add|create)\b/.test(l));
    const unknown = [...s.stderr.matchAll(/left as they are: (.*)$/gm)].flatMap((m) => m[1].split(', '));
    out.push({ root, exported, exportError: exported ? undefined : (e.stderr.trim() || e.stdout.trim()).split('\n')[0], syncStatus: s.status, writes, unknown, syncErr: s.stderr.trim() });
  }
  return out;
}

// ---------------------------------------------------------------- the comparison

const sorted = (it) => [...it].sort();

/**
 * Compares one document: every disagreement as `{ doc, kind, key, detail }`, and the figures.
 */
export async function compareDocument(doc) {
  const oracle = doc.kind === 'latex' ? latexOracle(doc) : pandocOracle(doc);
  const server = await serverReading(doc);
  const ours = new Set(server.flatMap((f) => f.cited));
  const flagged = new Set(server.flatMap((f) => f.flagged));
  const defined = new Set([...oracle.cited].filter((k) => !oracle.undefined.has(k)));
  const diffs = [];
  const add = (kind, key, detail) => diffs.push({ doc: doc.id, kind, key, detail });
  // Document-level disagreements have no key ('').
  for (const p of oracle.problems) add('oracle', '', p);
  const where = (key, pick) => server.filter((f) => pick(f).includes(key)).map((f) => f.file).join(', ');
  for (const k of sorted(oracle.cited)) if (!ours.has(k)) add('missed', k);
  for (const k of sorted(ours)) {
    if (oracle.cited.has(k)) continue;
    // `\nocite{*}` and `nocite: @*` cite every entry: `*` is no key.
    if (k === '*') { add('extra', k, `${oracle.nociteAll ? 'cite-everything (\\nocite{*}, nocite: @*) read as a key' : 'a key * the reference tool does not see'}; in ${where(k, (f) => f.cited)}`); continue; }
    // A Quarto cross-reference we read as a citation is "extra": pandoc (through Quarto) does not cite it.
    add('extra', k, `${oracle.xrefs?.has(k) ? 'a Quarto cross-reference; ' : ''}in ${where(k, (f) => f.cited)}`);
  }
  for (const k of sorted(flagged)) if (defined.has(k) || (k === '*' && oracle.nociteAll)) add('falseAlarm', k, `in ${where(k, (f) => f.flagged)}`);
  for (const k of sorted(oracle.undefined)) if (ours.has(k) && !flagged.has(k)) add('unflagged', k);
  let cli;
  if (doc.kind === 'latex') {
    cli = cliReading(doc);
    for (const r of cli) {
      if (!r.exported) { add('exportDiff', '', `${r.root}: export failed: ${r.exportError}`); }
      else {
        const exp = new Set(r.exported);
        for (const k of sorted(defined)) if (!exp.has(k)) add('exportDiff', k, `${r.root}: defined and cited, not exported`);
        for (const k of sorted(exp)) if (!defined.has(k)) add('exportDiff', k, `${r.root}: exported, not a cited key the bibliography defines`);
      }
      if (!oracle.undefined.size) {
        for (const w of r.writes) add('syncWrite', '', `${r.root}: ${w}`);
        if (r.syncStatus !== 0) add('syncWrite', '', `${r.root}: exit ${r.syncStatus}: ${r.syncErr.split('\n').pop()}`);
      }
      for (const k of r.unknown) if (defined.has(k)) add('syncUnknown', k, r.root);
    }
  }
  return {
    doc: doc.id, kind: doc.kind,
    figures: { oracleCited: oracle.cited.size, oracleUndefined: oracle.undefined.size, ours: ours.size, flagged: flagged.size, files: server.length, backend: oracle.backend, xrefs: oracle.xrefs?.size ?? 0, nociteAll: oracle.nociteAll },
    diffs,
  };
}

/** Splits disagreements into the ones a known limit covers (with its reason) and the others. */
export function applyLimits(diffs, limits) {
  const known = [];
  const open = [];
  for (const d of diffs) {
    const l = limits.find((x) => (x.doc === '*' || x.doc === d.doc) && x.kind === d.kind && (x.key === '*' || x.key === d.key));
    if (l) known.push({ ...d, reason: l.reason }); else open.push(d);
  }
  return { known, open };
}

/** The disagreements as a table a person reads: per document, per kind, the keys. */
export function formatDiffs(diffs) {
  const lines = [];
  const byDoc = new Map();
  for (const d of diffs) {
    if (!byDoc.has(d.doc)) byDoc.set(d.doc, new Map());
    const m = byDoc.get(d.doc);
    if (!m.has(d.kind)) m.set(d.kind, []);
    m.get(d.kind).push(d);
  }
  for (const [doc, kinds] of byDoc) {
    lines.push(`${doc}:`);
    for (const [kind, ds] of kinds) {
      const keys = [...new Set(ds.map((d) => (d.key === '' ? d.detail : d.key === '*' ? `* (${d.detail})` : d.key)))];
      lines.push(`  ${kind} (${KINDS[kind]}): ${ds.length}`);
      lines.push(`    ${keys.slice(0, 40).join(', ')}${keys.length > 40 ? `, … ${keys.length - 40} more` : ''}`);
    }
  }
  return lines.join('\n');
}

