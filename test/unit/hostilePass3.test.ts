/**
 * The third hostile pass (issue 28), each item from its minimal real construct: a `sync` over a
 * file size limit or into a read-only bibliography (the file byte for byte as it was, one line
 * naming it), `\input{//fileserver/share/x}` and its kin (no `UriError`), a Latin-1 root (read as
 * Windows-1252, as TeX reads bytes), a CSL-YAML bibliography that is a bare list (pandoc reads no
 * reference from it: one problem, no append), and files the LaTeX project model must not read
 * (a `.bbl` or a `% !TEX root` outside the workspace). The quadratic `@{` is counted in
 * `pandocCitations.test.ts`; a write that fails part way, injected, in `diskFull.test.ts`.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentDiagnosticRequest, HoverRequest, type FullDocumentDiagnosticReport, type Hover, type LogMessageParams, type MarkupContent } from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { main } from '../../src/cli.js';
import { latexFileFacts } from '../../src/core/latex/fileFacts.js';
import { bblCandidates } from '../../src/core/latex/inputPaths.js';
import { LatexProject } from '../../src/core/latex/project.js';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import { syncBibliography } from '../../src/host/node/addCitedEntries.js';
import type { HostFileSystem } from '../../src/server/host.js';
import { realCorpus } from './helpers.js';
import { start, type Session } from './serverHarness.js';
import { problemMessage } from '../../src/core/text/problemText.js';
import { worded } from './problemWords.js';

const ROOT = join(__dirname, '../..');
const CORPUS = join(ROOT, 'corpus');
const PAPER = '\\documentclass{article}\n\\begin{document}\n\\cite{kwon2023efficient}\n\\bibliography{refs}\n\\end{document}\n';

let tmp: string;
let cli: string;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'mlsys-hostile3-'));
  // Searchable by everyone: one test runs the CLI as another user.
  chmodSync(tmp, 0o755);
  const dist = join(tmp, 'dist');
  mkdirSync(dist);
  cli = join(dist, 'cli.js');
  await build({ entryPoints: [join(ROOT, 'src/cli.ts')], outfile: cli, bundle: true, platform: 'node', target: 'node18', format: 'cjs', logLevel: 'silent' });
  expect(await main(['build-corpus', CORPUS, join(dist, 'corpus.json')], () => undefined, () => undefined)).toBe(0);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** A fresh folder `caseN/ws`, and `caseN/outside` beside it. */
function layout(): { ws: string; outside: string } {
  const base = join(tmp, `case${n++}`);
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(ws, { recursive: true });
  mkdirSync(outside, { recursive: true });
  return { ws, outside };
}

/** Runs the built CLI in `cwd` through `bash -c`, with `before` (a `ulimit`) first. */
function cliIn(cwd: string, before: string, ...args: string[]) {
  const quoted = [process.execPath, cli, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('bash', ['-c', `${before}; exec ${quoted}`], { cwd, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('1, 7: sync never leaves a bibliography half written, and names the file it could not write', () => {
  const cases: { name: string; doc: string; text: string; bib: string; bibText: string }[] = [
    { name: 'BibTeX', doc: 'paper.tex', text: PAPER, bib: 'refs.bib', bibText: `@misc{theirs,\n  title = {${'T'.repeat(1900)}},\n}\n` },
    { name: 'CSL-JSON', doc: 'paper.md', text: '---\nbibliography: refs.json\n---\n\nSee [@kwon2023efficient].\n', bib: 'refs.json', bibText: `[\n  {"id": "theirs", "type": "book", "title": "${'T'.repeat(1900)}"}\n]\n` },
  ];
  for (const c of cases) {
    it(`${c.name}: over a file size limit (ulimit -f 2, 2 KB), ${c.bib} is byte for byte as it was; one line, exit 2`, () => {
      const { ws } = layout();
      writeFileSync(join(ws, c.doc), c.text);
      writeFileSync(join(ws, c.bib), c.bibText);
      chmodSync(join(ws, c.bib), 0o640);
      const r = cliIn(ws, 'ulimit -f 2', 'sync', c.doc);
      expect(readFileSync(join(ws, c.bib), 'utf8')).toBe(c.bibText);
      expect(r.err).toBe(`mlsys-papers: ${c.bib}: cannot be written (larger than the file size limit); nothing was written\n`);
      expect(r.code).toBe(2);
      // No temporary file left beside it; the mode kept.
      expect(readdirSync(ws).sort()).toEqual([c.bib, c.doc].sort());
      expect(statSync(join(ws, c.bib)).mode & 0o777).toBe(0o640);
    });
  }

  it('a write that succeeds keeps the file\'s mode, and a symlinked bibliography stays a link to the file it names', () => {
    const { ws } = layout();
    writeFileSync(join(ws, 'paper.tex'), PAPER.replace('{refs}', '{link}'));
    mkdirSync(join(ws, 'bib'));
    writeFileSync(join(ws, 'bib/refs.bib'), '@misc{theirs,\n  title = {Theirs},\n}\n');
    chmodSync(join(ws, 'bib/refs.bib'), 0o604);
    symlinkSync('bib/refs.bib', join(ws, 'link.bib'));
    const r = cliIn(ws, 'true', 'sync', 'paper.tex');
    expect(r.err).toBe('');
    expect(r.out).toBe('link.bib: added kwon2023efficient\n');
    expect(readFileSync(join(ws, 'bib/refs.bib'), 'utf8')).toMatch(/^@misc\{theirs,[^]*@inproceedings\{kwon2023efficient,/);
    expect(statSync(join(ws, 'bib/refs.bib')).mode & 0o777).toBe(0o604);
    expect(readdirSync(ws).sort()).toEqual(['bib', 'link.bib', 'paper.tex']);
    expect(readdirSync(join(ws, 'bib'))).toEqual(['refs.bib']);
  });

  // As root, a read-only file is writable: the CLI then runs as nobody (65534).
  const asRoot = process.getuid?.() === 0;
  const asUser = asRoot ? { uid: 65534, gid: 65534 } : {};
  const canRun = process.platform !== 'win32' && spawnSync(process.execPath, ['-e', '0'], asUser).status === 0;
  it.runIf(canRun)('a read-only bibliography in a writable folder: not replaced; one line naming it as written, exit 2', () => {
    const { ws } = layout();
    writeFileSync(join(ws, 'paper.tex'), PAPER);
    const bib = '@misc{theirs,\n  title = {Theirs},\n}\n';
    writeFileSync(join(ws, 'refs.bib'), bib);
    chmodSync(join(ws, 'refs.bib'), 0o444);
    chmodSync(join(ws, 'paper.tex'), 0o644);
    chmodSync(ws, 0o777);
    chmodSync(join(ws, '..'), 0o755);
    const r = spawnSync(process.execPath, [cli, 'sync', 'paper.tex'], { cwd: ws, encoding: 'utf8', ...asUser });
    expect(r.stderr).toBe('mlsys-papers: refs.bib: cannot be written (permission denied); nothing was written\n');
    expect(r.status).toBe(2);
    expect(readFileSync(join(ws, 'refs.bib'), 'utf8')).toBe(bib);
    expect(statSync(join(ws, 'refs.bib')).mode & 0o777).toBe(0o444);
    expect(readdirSync(ws).sort()).toEqual(['paper.tex', 'refs.bib']);
  });
});

describe('2: a path with a doubled leading separator (\\input{//fileserver/share/x}) is no crash', () => {
  const links = ['\\input{//fileserver/share/x}', '\\import{//d/}{x}', '\\subimport{//}{x}', '\\input{//x.bbl}'];
  it.each(links)('%s: the walk goes on past it, and the file after it keeps its root', (link) => {
    const project = new LatexProject();
    const root = URI.file('/ws/main.tex');
    const sec = URI.file('/ws/sec.tex');
    project.set(root, `\\documentclass{article}\n${link}\n\\input{sec}\n\\bibliography{refs}\n`);
    project.set(sec, 'See \\cite{a}.\n');
    expect(project.rootsOf(sec).map(String)).toEqual([root.toString()]);
    expect(project.declarationsOf(sec)).toBeDefined();
    expect(project.thebibliographyOf(root)!.files.map((f) => f.uri.toString())).toEqual([root.toString(), sec.toString()]);
    expect(() => bblCandidates(root, latexFileFacts(link))).not.toThrow();
  });

  it('sync on such a paper: exit 0, the entry added', async () => {
    const { ws } = layout();
    writeFileSync(join(ws, 'refs.bib'), '');
    const text = PAPER.replace('\\begin{document}\n', `\\begin{document}\n${links.join('\n')}\n\\input{sec}\n`);
    writeFileSync(join(ws, 'paper.tex'), text);
    writeFileSync(join(ws, 'sec.tex'), 'See \\cite{yu2022orca}.\n');
    const r = await syncBibliography('paper.tex', realCorpus(), { cwd: ws, text });
    expect(r).toEqual({ code: 0, out: ['refs.bib: added kwon2023efficient, yu2022orca'], err: [] });
  });
});

/** A language server over the disk (the Node host) with `ws` as its workspace folder, once its `.tex` files are indexed. */
async function diskServer(ws: string, wrap: (fs: HostFileSystem) => HostFileSystem = (f) => f): Promise<Session> {
  const { nodeServerHost } = await import('../../src/host/node/nodeServerHost.js');
  const host = nodeServerHost(join(ROOT, 'dist'));
  const s = await start({}, { citationStyle: 'apa' }, { fileSystem: wrap(host.fileSystem!) }, undefined, {}, ws);
  await s.notified<LogMessageParams>('window/logMessage', (p) => /LaTeX project: \d+ \.tex file/.test(p.message));
  return s;
}

const diagnosticsOf = async (s: Session, uri: string) =>
  ((await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport).items.map((d) => `${d.code ?? ''}: ${d.message}`);

describe('4: a Latin-1 root (\\usepackage[latin1]{inputenc}) is part of the project', () => {
  it('its section file gets the root\'s bibliography in the server, as in the CLI', async () => {
    const { ws } = layout();
    const root = '\\documentclass{article}\n\\usepackage[latin1]{inputenc}\n% R\u00e9sum\u00e9 of the th\u00e8se\n\\begin{document}\n\\input{sec}\n\\bibliography{refs}\n\\end{document}\n';
    writeFileSync(join(ws, 'main.tex'), Buffer.from(root, 'latin1'));
    writeFileSync(join(ws, 'sec.tex'), 'See \\cite{smith2021paging}.\n');
    writeFileSync(join(ws, 'refs.bib'), '@article{smith2021paging,\n  title = {Paging},\n  author = {Smith, Ann},\n  year = {2021}\n}\n');
    const s = await diskServer(ws);
    const sec = URI.file(join(ws, 'sec.tex')).toString();
    s.open(sec, 'latex', 'See \\cite{smith2021paging}.\n');
    expect(await diagnosticsOf(s, sec)).toEqual([]);
    // And the root itself, bytes as they are: never written (the plan refuses what is not UTF-8).
    expect(readFileSync(join(ws, 'main.tex'))).toEqual(Buffer.from(root, 'latin1'));
  });
});

describe('5: a CSL-YAML bibliography that is a bare list (no references:) gives pandoc no reference', () => {
  const BARE = '- id: alpha\n  type: book\n  title: Alpha\n';
  const DOC = '---\nbibliography: bare.yaml\n---\n\nSee [@alpha] and [@kwon2023efficient].\n';

  it('read: one error naming where the list starts, no key defined', () => {
    const file = readBibFile('bare.yaml', BARE)!;
    expect(file.entries).toEqual([]);
    expect(worded(file.error)).toEqual({ line: 1, column: 1, message: expect.stringMatching(/no "references:".*pandoc reads no references/) });
    // Flow style, a document marker, comments first: the same.
    for (const text of ['[{id: alpha}]\n', '---\n- id: alpha\n...\n', '# mine\n\n- id: alpha\n']) {
      expect(readBibFile('bare.yaml', text)!.entries, text).toEqual([]);
      expect(problemMessage(readBibFile('bare.yaml', text)!.error!), text).toMatch(/no "references:"/);
    }
    // Pandoc's own shape still reads.
    expect(readBibFile('refs.yaml', `references:\n${BARE}`)!.entries.map((e) => e.key)).toEqual(['alpha']);
  });

  it('the server: one problem naming the file, and its keys are not defined', async () => {
    const s = await start({ '/ws/bare.yaml': BARE }, { citationStyle: 'apa' });
    const doc = URI.file('/ws/paper.md').toString();
    s.open(doc, 'markdown', DOC);
    const found = await diagnosticsOf(s, doc);
    expect(found.filter((d) => d.includes('bare.yaml, line 1'))).toEqual([expect.stringMatching(/^: bare\.yaml, line 1: .*no "references:"/)]);
    expect(found.filter((d) => d.includes('"alpha"'))).toEqual([expect.stringMatching(/^unknown-key: /)]);
  });

  it('sync refuses to append to it; the file is unchanged', async () => {
    const { ws } = layout();
    writeFileSync(join(ws, 'bare.yaml'), BARE);
    const r = await syncBibliography('paper.md', realCorpus(), { cwd: ws, text: DOC });
    expect(r.code).toBe(2);
    expect(r.err).toEqual([
      'not in the bibliography nor the corpus, left as they are: alpha',
      expect.stringMatching(/^bare\.yaml:1:1: has an error at line 1, column 1 \(.*no "references:".*\); it was not changed/),
    ]);
    expect(readFileSync(join(ws, 'bare.yaml'), 'utf8')).toBe(BARE);
  });

  const hasPandoc = spawnSync('pandoc', ['--version']).status === 0;
  it.runIf(hasPandoc)('as pandoc --citeproc reads it: "citation alpha not found"; with references: it is found', () => {
    const { ws } = layout();
    writeFileSync(join(ws, 'bare.yaml'), BARE);
    writeFileSync(join(ws, 'refs.yaml'), `references:\n${BARE}`);
    writeFileSync(join(ws, 'a.md'), DOC.replace(' and [@kwon2023efficient]', ''));
    writeFileSync(join(ws, 'b.md'), DOC.replace(' and [@kwon2023efficient]', '').replace('bare.yaml', 'refs.yaml'));
    const run = (f: string) => spawnSync('pandoc', ['--citeproc', '-t', 'plain', f], { cwd: ws, encoding: 'utf8' });
    expect(run('a.md').stderr).toMatch(/citation alpha not found/);
    expect(run('b.md').stderr).not.toMatch(/not found/);
  });
});

describe('6: the LaTeX project model reads nothing outside the workspace', () => {
  const bbl = (key: string) => `\\begin{thebibliography}{1}\n\\bibitem{${key}} Secret text of ${key}.\n\\end{thebibliography}\n`;

  it('a .bbl reached by a symlink, ../ or an absolute path outside: its \\bibitems are not read; one inside still is', async () => {
    const { ws, outside } = layout();
    writeFileSync(join(outside, 'linked.bbl'), bbl('secretlinked'));
    writeFileSync(join(outside, 'up.bbl'), bbl('secretup'));
    writeFileSync(join(outside, 'abs.bbl'), bbl('secretabs'));
    writeFileSync(join(ws, 'own.bbl'), bbl('own'));
    symlinkSync(outside, join(ws, 'linkdir'));
    symlinkSync(join(outside, 'up.bbl'), join(ws, 'filelink.bbl'));
    const text = [
      '\\documentclass{article}', '\\begin{document}', '\\cite{secretlinked,secretup,secretabs,own}',
      '\\input{linkdir/linked.bbl}', '\\input{../outside/up.bbl}', `\\input{${join(outside, 'abs.bbl')}}`, '\\input{filelink.bbl}', '\\input{own.bbl}', '\\end{document}', '',
    ].join('\n');
    writeFileSync(join(ws, 'paper.tex'), text);
    const reads: string[] = [];
    const s = await diskServer(ws, (f) => ({ ...f, readFile: (uri, max) => { reads.push(uri.fsPath); return f.readFile(uri, max); } }));
    const doc = URI.file(join(ws, 'paper.tex')).toString();
    s.open(doc, 'latex', text);
    const found = await diagnosticsOf(s, doc);
    for (const key of ['secretlinked', 'secretup', 'secretabs']) expect(found.filter((d) => d.includes(`"${key}"`)), key).toEqual([expect.stringMatching(/^unknown-key: /)]);
    expect(found.filter((d) => d.includes('"own"'))).toEqual([]);
    const hover = (await s.client.sendRequest(HoverRequest.type, { textDocument: { uri: doc }, position: { line: 2, character: 8 } })) as Hover | null;
    expect((hover?.contents as MarkupContent | undefined)?.value ?? '').not.toContain('Secret text');
    expect(reads.filter((p) => p.startsWith(outside) || p.includes('linkdir') || p.endsWith('filelink.bbl'))).toEqual([]);
  });

  it('% !TEX root = ../../../../etc/passwd (and a root beside the workspace): named in a message, never read', async () => {
    const { ws, outside } = layout();
    writeFileSync(join(outside, 'main.tex'), '\\documentclass{article}\n\\bibliography{theirs}\n');
    writeFileSync(join(outside, 'theirs.bib'), '@misc{theirs,\n  title = {Theirs},\n}\n');
    const passwd = `${'../'.repeat(ws.split('/').length - 1)}etc/passwd`;
    const reads: string[] = [];
    const s = await diskServer(ws, (f) => ({ ...f, readFile: (uri, max) => { reads.push(uri.fsPath); return f.readFile(uri, max); } }));
    for (const [name, root] of [['a.tex', passwd], ['b.tex', '../outside/main.tex']] as const) {
      const doc = URI.file(join(ws, name)).toString();
      s.open(doc, 'latex', `% !TEX root = ${root}\nSee \\cite{theirs}.\n`);
      const found = await diagnosticsOf(s, doc);
      expect(found.filter((d) => d.startsWith('missing-root')), root).toEqual([
        `missing-root: The root file "${root}" named by % !TEX root is outside the workspace; it was not read; the root used instead is the document itself.`,
      ]);
    }
    expect(reads.filter((p) => !p.startsWith(ws))).toEqual([]);
  });

  it('sync with a % !TEX root outside the working directory: the root is not read, and a note names it', async () => {
    const { ws, outside } = layout();
    writeFileSync(join(outside, 'main.tex'), '\\documentclass{article}\n\\bibliography{theirs}\n');
    writeFileSync(join(outside, 'theirs.bib'), '');
    const rel = relative(ws, join(outside, 'main.tex'));
    const text = `% !TEX root = ${rel}\nSee \\cite{kwon2023efficient}.\n`;
    const r = await syncBibliography('sec.tex', realCorpus(), { cwd: ws, text });
    expect(r.code).toBe(2);
    expect(r.err).toEqual([
      `sec.tex: % !TEX root names ${rel}, which is outside the working directory; it was not read`,
      expect.stringMatching(/^sec\.tex declares no bibliography/),
    ]);
    expect(readFileSync(join(outside, 'theirs.bib'), 'utf8')).toBe('');
  });
});
