import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileTextFor, main, suggest, USAGE } from '../../src/cli.js';
import { openSealed, sealCache } from '../../src/host/node/libraryCache.js';

const ROOT = join(__dirname, '../..');
const CORPUS = join(ROOT, 'corpus');
const FIX = join(__dirname, 'fixtures/cli');

/** Runs the CLI on the repo's corpus folder (`--corpus corpus/`): the bundled corpus is a build output. */
function run(...args: string[]) {
  return runRaw(...args, '--corpus', CORPUS);
}

/** Runs the CLI with exactly these arguments. */
function runRaw(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = main(args, (s) => out.push(s), (s) => err.push(s));
  if (typeof code !== 'number') throw new Error(`mlsys-papers ${args[0]} is asynchronous: use runAsync`);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Runs an asynchronous command (`sync`) with exactly these arguments. */
async function runAsync(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, (s) => out.push(s), (s) => err.push(s));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A usage error: exit 2, nothing on stdout, exactly one line on stderr, no stack trace. */
function expectOneLineError(r: { code: number; out: string; err: string }, ...parts: string[]) {
  expect(r.code, r.err).toBe(2);
  expect(r.out).toBe('');
  expect(r.err.split('\n')).toHaveLength(1);
  expect(r.err).toMatch(/^mlsys-papers: /);
  expect(r.err).not.toMatch(/\n\s+at /);
  for (const p of parts) expect(r.err).toContain(p);
}

/** Exactly one line on stderr (no stack trace), exit 2, nothing on stdout. */
function expectOneLineIn(r: { code: number | null; out: string; err: string }, text: string) {
  expect(r.code, r.err).toBe(2);
  expect(r.err).toBe(`${text}\n`);
  expect(r.out).toBe('');
}

let tmp: string;
beforeAll(() => { tmp = mkdtempSync(join(tmpdir(), 'mlsys-cli-')); });
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('mlsys-papers CLI', () => {
  it('search --json returns entries in rank order with the documented fields', () => {
    const r = run('search', 'paged attention', '--limit', '3', '--json');
    expect(r.code).toBe(0);
    const hits = JSON.parse(r.out) as Record<string, unknown>[];
    expect(hits).toHaveLength(3);
    expect(hits[0]!.key).toBe('kwon2023efficient');
    for (const f of ['key', 'title', 'authors', 'year', 'venue', 'doi', 'arxiv', 'url', 'topics', 'level', 'kind']) expect(hits[0]).toHaveProperty(f);
    expect((hits[0]!.authors as { given: string; family: string }[])[0]).toEqual({ given: 'Woosuk', family: 'Kwon' });
  });

  it('cite formats keys for LaTeX, Pandoc, Markdown and BibTeX', () => {
    expect(run('cite', 'kwon2023efficient', 'yu2022orca', '--format', 'latex').out).toBe('\\cite{kwon2023efficient,yu2022orca}');
    expect(run('cite', 'kwon2023efficient', 'yu2022orca', '--format', 'pandoc').out).toBe('[@kwon2023efficient; @yu2022orca]');
    expect(run('cite', 'kwon2023efficient', '--format', 'markdown').out).toMatch(/^\[Efficient Memory Management .*\]\(https:\/\//);
    expect(run('cite', 'kwon2023efficient', '--format', 'bibtex').out).toMatch(/^@inproceedings\{kwon2023efficient,/);
    expect(run('cite', 'kwon2023efficient', '--format=pandoc').out).toBe('[@kwon2023efficient]');
  });

  it('cite fails with exit 1 on an unknown key, suggesting the closest keys', () => {
    const far = run('cite', 'nosuchkey2020x');
    expect(far.code).toBe(1);
    expect(far.err).toBe('mlsys-papers: unknown key nosuchkey2020x (see: mlsys-papers search)');
    const near = run('cite', 'kwon2023efficien');
    expect(near.code).toBe(1);
    expect(near.out).toBe('');
    expect(near.err).toBe('mlsys-papers: unknown key kwon2023efficien; did you mean kwon2023efficient?');
    // One line per unknown key; known keys are not reported; case does not count.
    const two = run('cite', 'YU2022ORCA', 'yu2022orc', 'nosuchkey2020x');
    expect(two.code).toBe(1);
    expect(two.err.split('\n')).toEqual([
      'mlsys-papers: unknown key yu2022orc; did you mean yu2022orca?',
      'mlsys-papers: unknown key nosuchkey2020x (see: mlsys-papers search)',
    ]);
  });

  it('suggest: up to 3 candidates within max(2, a quarter of the length), closest first, ignoring case', () => {
    const keys = ['kwon2023efficient', 'kwon2023efficiency', 'Kwon2023Efficients', 'kwon2023effect', 'yu2022orca'];
    expect(suggest('kwon2023efficien', keys)).toEqual(['kwon2023efficient', 'kwon2023efficiency', 'Kwon2023Efficients']);
    expect(suggest('kwon2023efficien', keys, 1)).toEqual(['kwon2023efficient']);
    expect(suggest('zzz', keys)).toEqual([]);
    expect(suggest('yu', ['yu2022orca'])).toEqual([]); // distance 8 > 2
    expect(suggest('lnt', ['lint', 'list', 'cite'])).toEqual(['lint', 'list']);
    // Not one four letters off when one is a letter off (the corpus has wang2023efficient too).
    expect(suggest('kwon2023efficien', ['wang2023efficient', 'kwon2023efficient', 'dun2023efficient'])).toEqual(['kwon2023efficient']);
  });

  it('topics --json and list --json', () => {
    const topics = JSON.parse(run('topics', '--json').out) as { id: string; zh: string; entries: number }[];
    expect(topics.find((t) => t.id === 'serving.memory')).toMatchObject({ zh: '显存管理' });
    const list = JSON.parse(run('list', '--topic', 'serving.memory', '--json').out) as { key: string }[];
    expect(list.map((e) => e.key)).toContain('kwon2023efficient');
  });

  it('options may come before the command', () => {
    const r = runRaw('--corpus', CORPUS, 'cite', 'yu2022orca');
    expect(r).toEqual({ code: 0, out: '\\cite{yu2022orca}', err: '' });
  });

  it('export writes BibTeX or CSL-JSON for a topic', () => {
    const bib = run('export', '--topic', 'serving.batching').out;
    expect(bib).toMatch(/@inproceedings\{yu2022orca,/);
    const csl = JSON.parse(run('export', '--topic', 'serving.batching', '--format', 'csl-json').out) as { id: string }[];
    expect(csl.map((c) => c.id)).toContain('yu2022orca');
    expect(csl.length).toBe(bib.match(/^@/gm)!.length);
  });

  it('export --cited-in writes the entries a document cites, in citation order', async () => {
    const file = join(__dirname, 'fixtures/cited.md');
    const r = await runAsync('export', '--cited-in', file, '--corpus', CORPUS);
    expect(r.code, r.err).toBe(0);
    expect([...r.out.matchAll(/^@\w+\{([^,]+),/gm)].map((m) => m[1])).toEqual(['yu2022orca', 'kwon2023efficient']);
    expect(r.err).toBe('mlsys-papers: not in the corpus, left out: unknown2020key');
  });

  it('export --cited-in a LaTeX root exports what the files it \\inputs cite too, as its .aux files list them', async () => {
    const r = await runAsync('export', '--cited-in', join(FIX, 'project/main.tex'), '--corpus', CORPUS);
    expect(r.code, r.err).toBe(0);
    expect([...r.out.matchAll(/^@\w+\{([^,]+),/gm)].map((m) => m[1])).toEqual(['kwon2023efficient', 'yu2022orca']);
  });

  it('a Latin-1 (8-bit) .bib is read, as BibTeX reads it, and never written: --library exports it, sync refuses it', async () => {
    // The real-document comparison met one (a German template's Hausarbeit.bib): BibTeX reads the
    // bytes; we read them as Windows-1252, and only read.
    const dir = mkdtempSync(join(tmp, 'latin1-'));
    const bytes = Buffer.from('@book{hz, author={M\xfcller, Hans}, title={Titel}, year=2000}\n', 'latin1');
    writeFileSync(join(dir, 'refs.bib'), bytes);
    writeFileSync(join(dir, 'main.tex'), '\\documentclass{article}\\begin{document}\\cite{hz,kwon2023efficient}\\bibliography{refs}\\end{document}\n');
    const lib = await runAsync('export', '--library', join(dir, 'refs.bib'), '--cited-in', join(dir, 'main.tex'), '--corpus', CORPUS);
    expect(lib.code, lib.err).toBe(0);
    expect(lib.out).toContain('author={Müller, Hans}');
    expect(lib.err).toContain('not UTF-8; read as Windows-1252');
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const sync = await runAsync('sync', 'main.tex', '--corpus', CORPUS);
      expect(sync.code).toBe(2);
      expect(sync.err).toContain('is not UTF-8 text; rewriting it would change its other characters');
    } finally {
      process.chdir(cwd);
    }
    expect(readFileSync(join(dir, 'refs.bib')).equals(bytes)).toBe(true);
    // JSON and YAML must be UTF-8 (RFC 8259; YAML 1.2): an 8-bit CSL-JSON library stays refused.
    writeFileSync(join(dir, 'refs.json'), Buffer.from('[{"id": "hz", "title": "M\xfcller"}]', 'latin1'));
    const json = await runAsync('export', '--library', join(dir, 'refs.json'), '--corpus', CORPUS);
    expect(json.code).toBe(2);
    expect(json.err).toContain('not UTF-8 text');
  });

  it('export --cited-in suggests the closest keys for a near miss', async () => {
    const r = await runAsync('export', '--cited-in', join(FIX, 'cited-near.md'), '--corpus', CORPUS);
    expect(r.code, r.err).toBe(0);
    expect([...r.out.matchAll(/^@\w+\{([^,]+),/gm)].map((m) => m[1])).toEqual(['yu2022orca']);
    expect(r.err).toBe('mlsys-papers: not in the corpus, left out: kwon2023efficien (did you mean kwon2023efficient?)');
  });

  it('lint prints file:line:col problems and exits 1', () => {
    const file = join(__dirname, 'fixtures/corpus-bad/bad-doi.yaml');
    const r = run('lint', file);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`${file}:6:8: error: [0].doi: must be a bare DOI such as 10.1145/3600006.3613165`);
    // A file of the corpus is not a duplicate of itself.
    const ok = run('lint', join(CORPUS, 'entries/seed003-d.yaml'), join(CORPUS, 'topics.yaml'));
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toBe('2 file(s) OK');
  });

  it('lint checks a topics file on its own as before', () => {
    const file = join(__dirname, 'fixtures/topics-bad.yaml');
    const r = runRaw('lint', file); // no corpus needed for a topics file
    expect(r.code).toBe(1);
    expect(r.err.split('\n')[0]).toBe(`${file}:1:7: error: [0].id: must be dotted lower-case words such as training.moe`);
  });

  it('usage errors exit 2', () => {
    expect(run('search', 'x', '--limit', 'lots').code).toBe(2);
    expect(run('search', 'x', '--limit', '1.5').code).toBe(2);
    expect(run('frobnicate').code).toBe(2);
    expect(run('export', '--topic', 'nope').err).toContain('unknown topic "nope"');
    expectOneLineError(run('list', '--topic', 'servng'), 'unknown topic "servng"; did you mean serving?');
    expectOneLineError(run('cite', 'k', '--format', 'rtf'), '--format must be one of latex, pandoc, markdown, bibtex');
    expectOneLineError(run('export', '--format', 'ris'), '--format must be bibtex or csl-json');
  });
});

describe('options: parseArgs, strict', () => {
  it('an unknown option is one line naming it and the command\'s help, exit 2', () => {
    const r = run('cite', 'kwon2023efficient', '--frmat', 'bibtex');
    expectOneLineError(r);
    expect(r.err).toBe('mlsys-papers: unknown option --frmat (see: mlsys-papers cite --help)');
    expectOneLineError(run('search', 'x', '--frmat=bibtex'), 'unknown option --frmat (see: mlsys-papers search --help)');
    expectOneLineError(run('topics', '-x'), 'unknown option -x');
  });

  it('an option the command does not take is an error for that command', () => {
    expectOneLineError(run('cite', 'kwon2023efficient', '--limit', '3'), 'cite does not take --limit (see: mlsys-papers cite --help)');
    expectOneLineError(run('topics', '--format', 'bibtex'), 'topics does not take --format');
    expectOneLineError(run('cite', 'kwon2023efficient', '--json'), 'cite does not take --json');
    expectOneLineError(run('lint', 'x.yaml', '--json'), 'lint does not take --json');
    expectOneLineError(runRaw('build-corpus', CORPUS, join(tmp, 'x.json'), '--corpus', CORPUS), 'build-corpus does not take --corpus');
  });

  it('a value is required where one is taken, and refused where none is', () => {
    expectOneLineError(runRaw('search', 'x', '--limit'), '--limit needs a value');
    expectOneLineError(run('search', 'x', '--limit'), '--limit needs a value'); // not "--corpus" as the limit
    expectOneLineError(runRaw('list', '--corpus'), '--corpus needs a value');
    expectOneLineError(run('topics', '--json=yes'), '--json takes no value');
    expectOneLineError(run('search', 'x', '--limit', '-1'), '--limit needs a value (one starting with "-" goes as --limit=-1)');
    expectOneLineError(run('search', 'x', '--limit=-1'), '--limit must be a positive whole number, not "-1"');
  });

  it('stray arguments are errors', () => {
    expectOneLineError(run('topics', 'extra'), 'topics takes no arguments, got "extra"');
    expectOneLineError(run('list', 'serving'), 'list takes no arguments');
    expectOneLineError(runRaw('build-corpus', CORPUS, join(tmp, 'x.json'), 'extra'), 'build-corpus needs <dir> <out.json>');
  });

  it('--help, -h and help <command> print the command\'s help, exit 0', () => {
    const help = runRaw('help', 'cite');
    expect(help.code).toBe(0);
    expect(help.err).toBe('');
    expect(help.out).toMatch(/^Usage: mlsys-papers cite <key\.\.\.> \[--format latex\|pandoc\|markdown\|bibtex\] \[--library FILE\] \[--corpus DIR\]\n/);
    expect(runRaw('cite', '--help')).toEqual(help);
    expect(runRaw('cite', 'k', '-h')).toEqual(help);
    expect(runRaw('cite', '--frmat', '--help')).toEqual(help); // help wins
    expect(runRaw('--help')).toEqual({ code: 0, out: USAGE, err: '' });
    expect(runRaw('-h')).toEqual({ code: 0, out: USAGE, err: '' });
    expect(runRaw('help')).toEqual({ code: 0, out: USAGE, err: '' });
    expect(runRaw('lint', '--help').out).toContain('--corpus DIR');
    expect(runRaw('build-corpus', '--help').out).not.toContain('--corpus');
    expectOneLineError(runRaw('help', 'nosuch'), 'unknown command "nosuch"');
    expectOneLineError(runRaw('help', 'cite', '--json'), 'help takes no --json');
  });

  it('no command prints the usage on stderr, exit 2; an unknown command suggests the closest', () => {
    expect(runRaw()).toEqual({ code: 2, out: '', err: USAGE });
    expectOneLineError(runRaw('frobnicate'), 'unknown command "frobnicate" (see: mlsys-papers help)');
    expectOneLineError(runRaw('lnt', 'x'), 'unknown command "lnt"; did you mean lint, list or lsp? (see: mlsys-papers help)');
    expectOneLineError(runRaw('--json'), 'no command');
  });

  it('each command\'s help and the usage list exactly the options the command takes', () => {
    const all = ['json', 'limit', 'format', 'topic', 'cited-in', 'corpus'];
    const commands = ['topics', 'list', 'search', 'cite', 'export', 'lint', 'build-corpus'];
    for (const cmd of commands) {
      const help = runRaw('help', cmd).out;
      const synopsis = help.split('\n')[0]!.replace('Usage: mlsys-papers ', '').replace(' [--corpus DIR]', '');
      expect(USAGE, cmd).toContain(`  ${synopsis}`);
      for (const o of all) {
        const listed = new RegExp(`^  --${o}\\b`, 'm').test(help);
        const r = runRaw(cmd, `--${o}=x`);
        expect(r.err.includes(`${cmd} does not take --${o}`), `${cmd} --${o}: ${r.err}`).toBe(!listed);
        if (listed && o !== 'corpus') expect(synopsis, `${cmd} --${o}`).toContain(`--${o}`);
      }
    }
  });
});

describe('paths: one line naming the path, exit 2', () => {
  it('lint <dir>', () => {
    expectOneLineError(run('lint', join(CORPUS, 'entries')), `lint: ${join(CORPUS, 'entries')} is a folder, not a file`);
  });

  it('lint of a missing file is a lint problem (exit 1), as before', () => {
    const r = run('lint', join(FIX, 'nope.yaml'));
    expect(r.code).toBe(1);
    expect(r.err).toBe(`${join(FIX, 'nope.yaml')}:1:1: error: file not found`);
  });

  it('export --cited-in <dir> or a missing file', () => {
    expectOneLineError(run('export', '--cited-in', FIX), `--cited-in ${FIX}: is a folder, not a file`);
    expectOneLineError(run('export', '--cited-in', join(FIX, 'nope.md')), `--cited-in ${join(FIX, 'nope.md')}: no such file`);
    expectOneLineError(run('export', '--cited-in', join(FIX, 'new-ok.yaml')), 'not a LaTeX (.tex) or Markdown (.md) file');
  });

  it('--corpus missing, not a folder, or not a corpus folder', () => {
    expectOneLineError(runRaw('topics', '--corpus', '/missing'), '--corpus /missing: no such folder');
    expectOneLineError(runRaw('cite', 'k', '--corpus', join(FIX, 'new-ok.yaml')), `--corpus ${join(FIX, 'new-ok.yaml')}: not a folder`);
    expectOneLineError(runRaw('list', '--corpus', FIX), `--corpus ${FIX}: not a corpus folder (no topics.yaml)`);
    const noEntries = join(tmp, 'no-entries');
    mkdirSync(noEntries, { recursive: true });
    writeFileSync(join(noEntries, 'topics.yaml'), readFileSync(join(FIX, 'corpus-mini/topics.yaml')));
    expectOneLineError(runRaw('search', 'x', '--corpus', noEntries), `--corpus ${noEntries}: not a corpus folder (no entries/ folder)`);
    expectOneLineError(runRaw('lint', join(FIX, 'new-ok.yaml'), '--corpus', '/missing'), '--corpus /missing: no such folder');
    expectOneLineError(runRaw('build-corpus', '/missing', join(tmp, 'x.json')), 'build-corpus /missing: no such folder');
  });

  it('build-corpus: an unwritable output', () => {
    expectOneLineError(runRaw('build-corpus', CORPUS, '/proc/x.json'), 'cannot write /proc/x.json');
    const file = join(FIX, 'new-ok.yaml');
    expectOneLineError(runRaw('build-corpus', CORPUS, join(file, 'x.json')), `cannot write ${join(file, 'x.json')}: ${file} is a file, not a folder`);
    expectOneLineError(runRaw('build-corpus', CORPUS, join(file, 'sub', 'x.json')), `${file} is a file, not a folder`);
    expectOneLineError(runRaw('build-corpus', CORPUS, tmp), `cannot write ${tmp}: is a folder`);
  });

  it('build-corpus writes the compiled corpus', () => {
    const outFile = join(tmp, 'sub', 'corpus.json');
    const r = runRaw('build-corpus', join(FIX, 'corpus-mini'), outFile);
    expect(r.code, r.err).toBe(1); // b.yaml repeats a.yaml's key: the build refuses
    expect(r.err).toMatch(/b\.yaml:\d+:1: error: Mini2024First\.key: same key as "mini2024first"/);
    const ok = runRaw('build-corpus', CORPUS, outFile);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/^corpus: \d+ entries, \d+ root topics → /);
    expect(JSON.parse(readFileSync(outFile, 'utf8'))).toHaveProperty('entries');
  });
});

describe('lint reports what the build rejects', () => {
  const clash = join(FIX, 'clash-bundled.yaml');
  const seed003 = relative(process.cwd(), join(CORPUS, 'entries/seed003-d.yaml'));

  it('a key, DOI or title the corpus already has (key ignoring case) is an error naming the entry', () => {
    const r = run('lint', clash);
    expect(r.code).toBe(1);
    const lines = r.err.split('\n');
    expect(lines).toHaveLength(3);
    const at = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(lines[0]).toMatch(new RegExp(`^${at(clash)}:2:1: error: Kwon2023Efficient\\.key: same key as "kwon2023efficient" \\(${at(seed003)}:\\d+\\)$`));
    expect(lines[1]).toMatch(new RegExp(`^${at(clash)}:11:1: error: smith2024pagedcopy\\.doi: same doi as "kwon2023efficient" \\(${at(seed003)}:\\d+\\)$`));
    expect(lines[2]).toMatch(new RegExp(`^${at(clash)}:21:1: error: smith2022orcacopy\\.title: same title as "yu2022orca" \\(${at(seed003)}:\\d+\\)$`));
  });

  it('an unknown topic is an error', () => {
    const file = join(FIX, 'unknown-topic.yaml');
    const r = run('lint', file);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`${file}:1:1: error: smith2024fresh.topics: unknown topic "nosuch.topic"`);
  });

  it('a topics file linted with the entries supplies the topics', () => {
    const uses = join(FIX, 'uses-new-topic.yaml');
    expect(run('lint', uses).err).toContain('unknown topic "serving.brandnew"');
    const r = run('lint', uses, join(FIX, 'new-topics.yaml'));
    expect(r.code, r.err).toBe(0);
  });

  it('a new entry passes', () => {
    const r = run('lint', join(FIX, 'new-ok.yaml'));
    expect(r).toEqual({ code: 0, out: '1 file(s) OK', err: '' });
  });

  it('files linted together are checked against each other', () => {
    const r = run('lint', join(FIX, 'new-ok.yaml'), join(FIX, 'new-ok.yaml'), join(FIX, 'corpus-mini/entries/a.yaml'));
    expect(r.code, r.err).toBe(0); // the same file twice is linted once
    expect(r.out).toBe('2 file(s) OK');
  });

  it('a duplicate key within one file names the first occurrence\'s line', () => {
    // Needs per-item key lines in src/core/corpus/readCorpus.ts (entryLocations): a map from key to line gave both entries the last line.
    const file = join(FIX, 'dup-in-file.yaml');
    const r = run('lint', file);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`${file}:10:1: error: smith2024twice.key: same key as "smith2024twice" (${file}:1)`);
  });

  it('a file in a corpus folder is checked against the other files of that folder', () => {
    const a = join(FIX, 'corpus-mini/entries/a.yaml');
    const b = join(FIX, 'corpus-mini/entries/b.yaml');
    const aShown = relative(process.cwd(), a);
    const bShown = relative(process.cwd(), b);
    // a.yaml's key is taken (in another case) by b.yaml: linting either one reports the clash.
    expect(runRaw('lint', a)).toEqual({ code: 1, out: '', err: `${a}:1:1: error: mini2024first.key: same key as "Mini2024First" (${bShown}:10)` });
    const rb = runRaw('lint', b);
    expect(rb.code).toBe(1);
    expect(rb.err).toBe(`${b}:10:1: error: Mini2024First.key: same key as "mini2024first" (${aShown}:1)`);
    // Both named: the clash is reported once, on the later file, naming the earlier one as given.
    expect(runRaw('lint', a, b).err).toBe(`${b}:10:1: error: Mini2024First.key: same key as "mini2024first" (${a}:1)`);
    // The repo's own corpus folder: its files are checked against the rest of it, not the bundled corpus.
    const seed = runRaw('lint', join(CORPUS, 'entries/seed003-d.yaml'));
    expect(seed.code, seed.err).toBe(0);
    // Files from two corpus folders cannot be checked as one corpus.
    expectOneLineError(runRaw('lint', a, join(CORPUS, 'entries/seed003-d.yaml')), 'lint: the files are in 2 corpus folders');
  });
});

describe('sync (in-process)', () => {
  it('needs exactly one LaTeX or Markdown file, and says so in one line', async () => {
    expectOneLineError(await runAsync('sync'), 'sync takes one .tex or .md file');
    expectOneLineError(await runAsync('sync', 'a.tex', 'b.tex'), 'sync takes one .tex or .md file');
    expectOneLineError(await runAsync('sync', join(FIX, 'new-ok.yaml'), '--corpus', CORPUS), 'sync takes a LaTeX (.tex) or Markdown');
    expectOneLineError(await runAsync('sync', 'missing.tex', '--corpus', CORPUS), 'missing.tex');
  });
});

describe('search', () => {
  it('no result: a line on stderr, exit 1', () => {
    const r = run('search', 'zzqxjwv');
    expect(r).toEqual({ code: 1, out: '', err: 'mlsys-papers: no entry matches "zzqxjwv"' });
    const json = run('search', 'zzqxjwv', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toEqual([]);
    expect(run('search', 'year:1900').code).toBe(1);
  });

  it('a malformed year filter or an unknown topic is an error, not dropped', () => {
    expectOneLineError(run('search', 'attention year:abc'), 'bad filter year:abc');
    expectOneLineError(run('search', 'year:20x3'), 'bad filter year:20x3');
    expectOneLineError(run('search', 'paged', 'YEAR:2023..x'), 'bad filter YEAR:2023..x');
    expectOneLineError(run('search', 'topic:nosuch'), 'unknown topic in filter topic:nosuch (see: mlsys-papers topics)');
    expectOneLineError(run('search', 'batching topic:servng'), 'unknown topic in filter topic:servng; did you mean serving?');
  });

  // One test per query: each run loads the corpus, and six in one test neared the run's 60 s hang catcher on a loaded machine.
  it.each(['paged topic:serving', 'topic:serving.memory year:2023', 'year:2022..2024 orca', 'topic:"GPU memory"', 'topic:显存', 'author:kwon venue:sosp'])('good filters still work: %s', (q) => {
    const r = run('search', q, '--json');
    expect(r.code, `${q}: ${r.err}`).toBe(0);
    expect((JSON.parse(r.out) as unknown[]).length, q).toBeGreaterThan(0);
  });
});

describe('the built CLI in a child process', () => {
  let dir: string;
  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [join(dir, 'cli.js'), ...args], { encoding: 'utf8', cwd: ROOT });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  /** Exactly one line on stderr (no stack trace), exit 2. */
  const expectOneLine = (r: { code: number | null; out: string; err: string }, text: string) => expectOneLineIn(r, text);

  beforeAll(async () => {
    // The CLI bundled as scripts/build.mjs bundles it, from the current sources, beside its compiled corpus.
    dir = join(tmp, 'dist');
    await build({
      entryPoints: [join(ROOT, 'src/cli.ts')], outfile: join(dir, 'cli.js'),
      bundle: true, platform: 'node', target: 'node18', format: 'cjs', logLevel: 'silent', banner: { js: '#!/usr/bin/env node' },
    });
    const r = cli('build-corpus', 'corpus', join(dir, 'corpus.json'));
    expect(r.code, r.err).toBe(0);
  });

  it('--corpus /missing: one line, exit 2', () => {
    expectOneLine(cli('list', '--corpus', '/missing'), 'mlsys-papers: --corpus /missing: no such folder');
  });

  it('says a bibliography\'s reader problems in English, whatever the locale (it loads no l10n bundle)', () => {
    const bib = join(tmp, 'broken-zh.bib');
    writeFileSync(bib, '@article{b,\n  title = {T}\n  journal = {J},\n}\n');
    const zhEnv = { ...process.env, LANG: 'zh_CN.UTF-8', LC_ALL: 'zh_CN.UTF-8', VSCODE_NLS_CONFIG: '{"locale":"zh-cn"}' };
    const r = spawnSync(process.execPath, [join(dir, 'cli.js'), 'check', bib, '--corpus', CORPUS], { encoding: 'utf8', cwd: ROOT, env: zhEnv });
    expect(r.stderr).toContain(`${bib}:1:1: expected "," or "}" after the value of title, found the field journal: the "," between them is missing (line 3); entry b is read up to there, as BibTeX reads it (its key counts)`);
  });

  it('lint <dir>: one line, exit 2', () => {
    expectOneLine(cli('lint', 'corpus/entries'), 'mlsys-papers: lint: corpus/entries is a folder, not a file (lint its files: corpus/entries/*.yaml)');
  });

  it('export --cited-in <dir> and an unwritable build-corpus output: one line, exit 2', () => {
    expectOneLine(cli('export', '--cited-in', 'corpus'), 'mlsys-papers: --cited-in corpus: is a folder, not a file');
    expectOneLine(cli('build-corpus', 'corpus', '/proc/x.json'), 'mlsys-papers: cannot write /proc/x.json: the file cannot be created there');
  });

  it('an unknown option: one line, exit 2', () => {
    expectOneLine(cli('cite', 'kwon2023efficient', '--frmat', 'bibtex'), 'mlsys-papers: unknown option --frmat (see: mlsys-papers cite --help)');
  });

  it('lint checks against the bundled corpus: its keys, identifiers and topics', () => {
    const clash = relative(ROOT, join(FIX, 'clash-bundled.yaml'));
    const r = cli('lint', clash, relative(ROOT, join(FIX, 'unknown-topic.yaml')));
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${clash}:2:1: error: Kwon2023Efficient.key: same key as "kwon2023efficient" (bundled corpus)\n`);
    expect(r.err).toContain('smith2024pagedcopy.doi: same doi as "kwon2023efficient" (bundled corpus)');
    expect(r.err).toContain('smith2022orcacopy.title: same title as "yu2022orca" (bundled corpus)');
    expect(r.err).toContain('smith2024fresh.topics: unknown topic "nosuch.topic"');
    expect(r.err).not.toContain('\u0000');
    expect(cli('lint', relative(ROOT, join(FIX, 'new-ok.yaml')))).toEqual({ code: 0, out: '1 file(s) OK\n', err: '' });
  });

  it('a cite near miss suggests the key; help exits 0', () => {
    expect(cli('cite', 'kwon2023efficien')).toEqual({ code: 1, out: '', err: 'mlsys-papers: unknown key kwon2023efficien; did you mean kwon2023efficient?\n' });
    const help = cli('cite', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: mlsys-papers cite /);
  });

  it('sync adds what the demo paper cites to its bibliography; --dry-run writes nothing; outside its folder it refuses', () => {
    const demo = join(tmp, 'demo-sync');
    cpSync(join(ROOT, 'demo'), demo, { recursive: true });
    const paper = join(demo, 'paper.tex');
    writeFileSync(paper, readFileSync(paper, 'utf8').replace('Paged KV-cache management', 'Paged KV-cache management \\cite{kwon2023efficient}'));
    const bib = readFileSync(join(demo, 'references.bib'), 'utf8');
    const inDemo = (...args: string[]) => {
      const r = spawnSync(process.execPath, [join(dir, 'cli.js'), ...args], { encoding: 'utf8', cwd: demo });
      return { code: r.status, out: r.stdout, err: r.stderr };
    };
    const dry = inDemo('sync', 'paper.tex', '--dry-run');
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toMatch(/^references\.bib: would add kwon2023efficient\nat offset \d+:\n\n@inproceedings\{kwon2023efficient,/);
    expect(readFileSync(join(demo, 'references.bib'), 'utf8')).toBe(bib);
    expect(inDemo('sync', 'paper.tex')).toEqual({ code: 0, out: 'references.bib: added kwon2023efficient\n', err: '' });
    expect(readFileSync(join(demo, 'references.bib'), 'utf8').startsWith(bib)).toBe(true);
    writeFileSync(join(demo, 'far.tex'), '\\cite{yu2022orca}\n\\bibliography{../elsewhere/refs}\n');
    mkdirSync(join(tmp, 'elsewhere'), { recursive: true });
    writeFileSync(join(tmp, 'elsewhere/refs.bib'), '');
    expectOneLineIn(inDemo('sync', 'far.tex'), 'mlsys-papers: ../elsewhere/refs.bib: is outside the working directory; it was not changed; add yu2022orca by hand, or pass --allow-outside to write there');
    expect(readFileSync(join(tmp, 'elsewhere/refs.bib'), 'utf8')).toBe('');
  });

  it('a missing bundled corpus: one line, exit 2', () => {
    const bare = join(tmp, 'bare');
    mkdirSync(bare, { recursive: true });
    writeFileSync(join(bare, 'cli.js'), readFileSync(join(dir, 'cli.js')));
    const r = spawnSync(process.execPath, [join(bare, 'cli.js'), 'topics'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^mlsys-papers: cannot read the bundled corpus .*corpus\.json: no such file or folder \(run npm run build, or pass --corpus DIR\)\n$/);
  });

  it('an internal error is one line, exit 2, no stack trace', () => {
    // A bug stand-in: reading any file throws a plain Error.
    const preload = join(tmp, 'boom.cjs');
    writeFileSync(preload, [
      "const fs = require('node:fs');",
      'const read = fs.readFileSync;',
      "fs.readFileSync = (p, ...rest) => { if (String(p).endsWith('corpus.json')) throw new Error('boom\\nsecond line'); return read(p, ...rest); };",
    ].join('\n'));
    const r = spawnSync(process.execPath, ['-r', preload, join(dir, 'cli.js'), 'topics'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('mlsys-papers: internal error: boom\n');
  });

  it('a closed stdout pipe is not an error', () => {
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${join(dir, 'cli.js')}" export | head -c 10 >/dev/null`], { encoding: 'utf8', cwd: ROOT });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('--library FILE: your own libraries beside the corpus', () => {
  const LIB = [
    '@string{sosp = {Proceedings of the 29th Symposium on Operating Systems Principles}}',
    '@inproceedings{kwon2023vllm,',
    '  title = {Efficient Memory Management for Large Language Model Serving with {PagedAttention}},',
    '  author = {Kwon, Woosuk and Li, Zhuohan},',
    '  booktitle = sosp,',
    '  year = {2023},',
    '  doi = {10.1145/3600006.3613165},',
    '}',
    '',
    '@misc{doe2024quokka,',
    '  title = {Quokka: A Scheduler for {GPU} Clusters},',
    '  author = {Doe, Jane},',
    '  year = {2024},',
    '}',
    '',
    '@article{broken,',
    '  title = {never closed',
    '',
  ].join('\n');
  let lib: string;
  let cache: string;
  let saved: string | undefined;
  beforeAll(() => {
    lib = join(tmp, 'zotero.bib');
    writeFileSync(lib, LIB);
    cache = join(tmp, 'cache');
    saved = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = cache;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.XDG_CACHE_HOME; else process.env.XDG_CACHE_HOME = saved;
  });

  it('search ranks library entries beside the corpus, shows a shared work once, and reports a broken entry with its line', async () => {
    const r = await runAsync('search', 'quokka scheduler', '--library', lib, '--corpus', CORPUS);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe('doe2024quokka\tQuokka: A Scheduler for GPU Clusters');
    expect(r.out).toContain('zotero.bib');
    expect(r.err).toBe(`${lib}:16:1: not closed: a "{" is still open where the next entry starts (line 17); entry broken is left out (BibTeX keeps it with the fields before that)`);
    const twin = await runAsync('search', 'paged attention memory', '--library', lib, '--corpus', CORPUS, '--json');
    const keys = (JSON.parse(twin.out) as { key: string }[]).map((h) => h.key);
    expect(keys[0]).toBe('kwon2023efficient');
    expect(keys).not.toContain('kwon2023vllm');
  });

  it('cite --format bibtex prints a library entry as written, with the macro it uses; export --cited-in takes library keys', async () => {
    const r = await runAsync('cite', 'doe2024quokka', 'kwon2023vllm', '--format', 'bibtex', '--library', lib, '--corpus', CORPUS);
    expect(r.code).toBe(0);
    // The macro first (BibTeX reads it before the entry that uses it), then the entries.
    expect(r.out).toBe([
      '@string{sosp = {Proceedings of the 29th Symposium on Operating Systems Principles}}',
      '',
      LIB.slice(LIB.indexOf('@misc{doe2024quokka'), LIB.indexOf('}\n\n@article') + 1),
      '',
      LIB.slice(LIB.indexOf('@inproceedings{kwon2023vllm'), LIB.indexOf('}\n\n@misc') + 1),
      '',
    ].join('\n'));
    const doc = join(tmp, 'lib-paper.tex');
    writeFileSync(doc, '\\cite{doe2024quokka,kwon2023efficient}\n');
    const ex = await runAsync('export', '--cited-in', doc, '--format', 'csl-json', '--library', lib, '--corpus', CORPUS);
    const items = JSON.parse(ex.out) as { id: string; title: string }[];
    expect(items.map((i) => i.id)).toEqual(['doe2024quokka', 'kwon2023efficient']);
    expect(items[0]!.title).toBe('Quokka: A Scheduler for GPU Clusters');
  });

  it('list appends the library entries; a second run reads the library from the cache', async () => {
    const r = await runAsync('list', '--library', lib, '--corpus', CORPUS);
    expect(r.out.split('\n').slice(-2).map((l) => l.split('\t')[0])).toEqual(['kwon2023vllm', 'doe2024quokka']);
    const files = readdirSync(join(cache, 'mlsys-papers'));
    expect(files).toHaveLength(1);
    // The cache holds the parsed library: with the file's text unchanged, it is what is read.
    const cached = join(cache, 'mlsys-papers', files[0]!);
    const content = openSealed(readFileSync(cached));
    if (!('text' in content)) throw new Error(`the cache is ${content.miss}`);
    // Sealed again: an edit alone is damage, and the cache would be read again from the file.
    writeFileSync(cached, sealCache(content.text.replace('Quokka: A Scheduler', 'Quokka: A Cached Scheduler')));
    const again = await runAsync('list', '--library', lib, '--corpus', CORPUS);
    expect(again.out).toContain('Quokka: A Cached Scheduler for GPU Clusters');
  });

  it('a key a later library defines too is a note naming both files; the first library\'s entry is cited', async () => {
    const later = join(tmp, 'later.bib');
    writeFileSync(later, '@misc{other,\n  title = {Other},\n}\n@misc{Doe2024Quokka,\n  title = {Not the First},\n}\n');
    const r = await runAsync('cite', 'doe2024quokka', '--format', 'bibtex', '--library', lib, '--library', later, '--corpus', CORPUS);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Quokka: A Scheduler');
    expect(r.err).toContain(`mlsys-papers: note: ${later}:4: duplicate key "Doe2024Quokka": ${lib} defines it too, and that one is used`);
  });

  it('a library that is missing, a folder or of another format is one usage error', async () => {
    expectOneLineError(await runAsync('search', 'x', '--library', join(tmp, 'nope.bib'), '--corpus', CORPUS), '--library', 'no such file');
    expectOneLineError(await runAsync('search', 'x', '--library', join(tmp, 'notes.txt'), '--corpus', CORPUS), 'not a library (.bib, .json or .yaml)');
    expectOneLineError(await runAsync('list', '--library', tmp + '/sub.bib/', '--corpus', CORPUS), '--library');
  });

  describe('control characters reach no terminal (finding 12)', () => {
    /** Any C0 control but a line break and a tab, DEL, or a C1 control. */
    const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
    const ESCAPES = join(FIX, 'escape-sequences.bib');

    it('list, search and cite escape ESC, BEL, DEL and C1 in keys, titles and authors; a field cannot add a line or a column', async () => {
      const list = await runAsync('list', '--library', ESCAPES, '--corpus', CORPUS);
      expect(list.code).toBe(0);
      expect(list.out).not.toMatch(RAW_CONTROL);
      const row = list.out.split('\n').at(-1)!;
      expect(row.split('\t')).toEqual(['evil\\x1b[2J2024', '2024', 'Journal of Escapes', 'Clear \\x1b]0;pwned\\x07the screen\\x7f and \\x9b31m C1']);
      const search = await runAsync('search', 'author:mallory', '--library', ESCAPES, '--corpus', CORPUS);
      expect(search.out).not.toMatch(RAW_CONTROL);
      expect(search.out).toContain('evil\\x1b[2J2024\tClear \\x1b]0;pwned');
      expect(search.out).toContain('Mallory');
      for (const format of ['latex', 'pandoc', 'markdown', 'bibtex']) {
        const cite = await runAsync('cite', 'evil\u001b[2J2024', '--format', format, '--library', ESCAPES, '--corpus', CORPUS);
        expect(cite.code, cite.err).toBe(0);
        expect(cite.out).not.toMatch(RAW_CONTROL);
        // Markdown is a link's text, the title (without a URL, the text alone; its bracket escaped).
        expect(cite.out).toContain(format === 'markdown' ? 'Clear \\x1b\\]0;pwned' : 'evil\\x1b[2J2024');
      }
    });

    it('JSON output keeps the text (escaped as JSON, DEL and C1 too) and parses back to it', async () => {
      const r = await runAsync('list', '--library', ESCAPES, '--corpus', CORPUS, '--json');
      expect(r.out).not.toMatch(RAW_CONTROL);
      const evil = (JSON.parse(r.out) as { key: string; title: string }[]).at(-1)!;
      expect(evil.key).toBe('evil\u001b[2J2024');
      expect(evil.title).toBe('Clear \u001b]0;pwned\u0007the screen\u007f and \u009b31m C1');
    });

    it('a file name with escape sequences or a line break is one escaped line', async () => {
      const title = join(tmp, 'x\u001b]0;pwned\u0007\u001b[2J.bib');
      const missing = await runAsync('list', '--library', title, '--corpus', CORPUS);
      expectOneLineError(missing, 'x\\x1b]0;pwned\\x07\\x1b[2J.bib');
      expect(missing.err).not.toMatch(RAW_CONTROL);
      const split = join(tmp, 'a\nb.bib');
      writeFileSync(split, '@article{broken,\n  title = {never closed\n');
      const r = await runAsync('list', '--library', split, '--corpus', CORPUS);
      const lines = r.err.split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/a\\nb\.bib:1:1: /);
    });
  });
});

describe('check --fix prints the fixed file', () => {
  it('as it is into a pipe or a file; on a terminal its control characters are escapes (line breaks, CRLF and tabs kept)', () => {
    const text = '@misc{a,\r\n\ttitle = {Evil \u001b]0;owned\u0007 title \u009b2J},\r\n}\n';
    expect(fileTextFor(text, false)).toBe(text);
    expect(fileTextFor(text, true)).toBe('@misc{a,\r\n\ttitle = {Evil \\x1b]0;owned\\x07 title \\x9b2J},\r\n}\n');
  });
});
