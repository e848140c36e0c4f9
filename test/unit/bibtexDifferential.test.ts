/**
 * Differential test of the one BibTeX reader (`core/bibliography/readBibtex.ts`, through `parseBib`) against
 * the reference tools, over every `.bib` file TeX Live installs on the test machine
 * (`kpsewhich -var-value TEXMFDIST`, then every `*.bib` under it):
 *
 * - **BibTeX 0.99d** (`bibtex`), with `\citation{*}` and a style that writes each entry's type and
 *   key (`type$`, `cite$`): the keys it reads, in order (a repeated key is BibTeX's error, the first
 *   is kept), and their types (`type$` is empty for a type the style does not define, so the style
 *   defines every type our reader saw, plus the standard ones);
 * - **biber** (`biber --tool --output-format=bibtex`, its own reading through btparse, written back
 *   as clean BibTeX): the keys, types and field names of the files up to {@link BIBER_MAX_BYTES}
 *   (biber takes seconds per megabyte; the whole set would take minutes), mapped back through
 *   biblatex's legacy aliases (`journal` → `journaltitle`, …) and compared on the fields of its data
 *   model (biber drops the others).
 *
 * Every difference fails, except those listed with their reason in
 * `fixtures/bibtex-differential/known.json`. Outputs are kept in a temporary folder for this run
 * only. Without TeX Live or biber the test is skipped, except when `CI=true`: then it fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBib, type BibEntry } from '../../src/core/bibliography/bibtexFile.js';

/** Files biber reads (it takes about 20 s for a megabyte on a busy machine). */
const BIBER_MAX_BYTES = 16 * 1024;
/** Tool runs at once. */
const JOBS = 4;

const which = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim();
const CI = process.env.CI === 'true';
const dist = which('kpsewhich') ? spawnSync('kpsewhich', ['-var-value', 'TEXMFDIST'], { encoding: 'utf8' }).stdout.trim() : '';
const haveBibtex = !!dist && !!which('bibtex');
const haveBiber = !!which('biber');

/** A known difference: the file (relative to TEXMFDIST), the difference as the test words it, and why. */
interface Known { file: string; difference: string; reason: string }
const KNOWN: Known[] = JSON.parse(readFileSync(join(__dirname, 'fixtures/bibtex-differential/known.json'), 'utf8')) as Known[];

/** biblatex's aliases that biber applies when it reads BibTeX (its driver's source map), field and type. */
const FIELD_ALIAS: Record<string, string> = {
  address: 'location', school: 'institution', annote: 'annotation', archiveprefix: 'eprinttype', journal: 'journaltitle',
  primaryclass: 'eprintclass', key: 'sortkey', pdf: 'file',
};
const TYPE_ALIAS: Record<string, string> = {
  conference: 'inproceedings', electronic: 'online', www: 'online', mastersthesis: 'thesis', phdthesis: 'thesis', techreport: 'report',
};
/** Date parts (`year`, `origmonth`, `urldate`, …): biber writes each date as its own fields; compared as one. */
const DATE_PART = /^(orig|event|url|)(?:year|month|day|date)$/;
/** Fields biber takes for itself and does not write back (entry options, sorting). */
const CONSUMED = new Set(['options', 'sortkey', 'sortname', 'sorttitle', 'sortshorthand', 'sortyear', 'presort']);
/** Types biber's driver maps with a `type` field added (`mastersthesis` → `thesis` with `type = mathesis`). */
const TYPE_FIELD = new Set(['mastersthesis', 'phdthesis', 'techreport']);

function bibFiles(dir: string): string[] {
  const out: string[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, d.name);
    if (d.isDirectory()) out.push(...bibFiles(p));
    else if (d.isFile() && d.name.endsWith('.bib')) out.push(p);
  }
  return out.sort();
}

/** The first entry of each key (lower case), as BibTeX and biber keep it. */
function firstOfEach(entries: readonly BibEntry[]): Map<string, BibEntry> {
  const m = new Map<string, BibEntry>();
  for (const e of entries) if (!m.has(e.key.toLowerCase())) m.set(e.key.toLowerCase(), e);
  return m;
}

const STANDARD_TYPES = ['article', 'book', 'booklet', 'conference', 'inbook', 'incollection', 'inproceedings', 'manual', 'mastersthesis', 'misc', 'phdthesis', 'proceedings', 'techreport', 'unpublished', 'online', 'report', 'thesis'];

/** Runs a command in `cwd`; resolves when it ends, whatever its status (the outputs tell). */
function run(cmd: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd, stdio: 'ignore' });
    p.on('close', () => resolve());
    p.on('error', () => resolve());
  });
}

/** BibTeX's reading: `[type, key]` per entry, in order; the type empty where the style does not define it. */
async function bibtexReading(dir: string, types: Iterable<string>): Promise<[string, string][]> {
  const fns = [...new Set([...STANDARD_TYPES, ...types])].filter((t) => /^[a-z][a-z0-9_.:+/-]*$/.test(t) && !['out', 'read', 'entry'].includes(t));
  writeFileSync(join(dir, 'keys.bst'), [
    'ENTRY { } { } { }',
    'FUNCTION {out} { type$ " " * cite$ * write$ newline$ }',
    ...fns.map((t) => `FUNCTION {${t}} { }`),
    'READ',
    'ITERATE {out}',
  ].join('\n'));
  writeFileSync(join(dir, 'x.aux'), '\\citation{*}\n\\bibstyle{keys}\n\\bibdata{db}\n');
  await run('bibtex', ['-terse', 'x'], dir);
  const bbl = join(dir, 'x.bbl');
  if (!existsSync(bbl)) return [];
  // BibTeX writes bytes; the reader reads UTF-8 text: compare as UTF-8.
  return readFileSync(bbl, 'utf8').split('\n').filter(Boolean).map((line) => {
    const sp = line.indexOf(' ');
    return [line.slice(0, sp), line.slice(sp + 1)];
  });
}

/** biber's reading, written back as BibTeX and read again; undefined when biber wrote nothing (it stops at some errors). */
async function biberReading(dir: string, config: string): Promise<BibEntry[] | undefined> {
  await run('biber', ['--tool', `--configfile=${config}`, '--output-legacy-dates', '--output-format=bibtex', '--output-file=biber.out', 'db.bib'], dir);
  const out = join(dir, 'biber.out');
  return existsSync(out) ? parseBib(readFileSync(out, 'utf8')).entries : undefined;
}

/** A known difference (its `*` matching any text) that covers `d`. */
function isKnown(d: string): Known | undefined {
  return KNOWN.find((k) => new RegExp(`^${`${k.file}: ${k.difference}`.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(d));
}

const available = haveBibtex && haveBiber;
/**
 * The files are read in this many tests, one after the other, each a few seconds: no test needs a
 * time-out of its own (the unit run's 60 s is a hang catcher), however busy the machine.
 */
const PARTS = 15;
describe.runIf(available || CI)('the BibTeX reader against BibTeX 0.99d and biber, on every .bib file of TeX Live', () => {
  const work = mkdtempSync(join(tmpdir(), 'bibdiff-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const files = dist ? bibFiles(dist) : [];
  const differences: string[] = [];
  const counts = { files: files.length, entries: 0, bibtexEntries: 0, biberFiles: 0, biberEntries: 0, known: 0 };
  let tool: { config: string; modelFields: Set<string> } | undefined;
  let partsRead = 0;

  it('has the tools, TeX Live\'s .bib files and biber\'s tool configuration', () => {
    expect(haveBibtex, 'CI=true but kpsewhich/bibtex are missing: run scripts/setup-test-tools.sh').toBe(true);
    expect(haveBiber, 'CI=true but biber is missing: run scripts/setup-test-tools.sh').toBe(true);
    expect(files.length).toBeGreaterThan(20);
    // biber's tool configuration without its own source map (its driver's aliases still apply).
    const config = join(work, 'tool.conf');
    // `biber --tool-config` prints where its default tool configuration is.
    const toolConfPath = spawnSync('biber', ['--tool-config'], { encoding: 'utf8' }).stdout.trim().split('\n').at(-1)!;
    expect(existsSync(toolConfPath), `biber --tool-config names ${toolConfPath}, which does not exist`).toBe(true);
    const toolConf = readFileSync(toolConfPath, 'utf8');
    writeFileSync(config, toolConf.replace(/<sourcemap>[^]*?<\/sourcemap>/, ''));
    tool = { config, modelFields: new Set([...toolConf.matchAll(/<field [^>]*>([^<]+)<\/field>/g)].map((m) => m[1]!.toLowerCase())) };
  });

  for (let part = 0; part < PARTS; part++) {
    it(`reads the keys, entry types and field names they read: files, part ${part + 1} of ${PARTS}`, async () => {
      expect(tool, 'the tools were not found (the first test says why)').toBeDefined();
      const { config, modelFields } = tool!;
      const jobs = files.map((path, i) => ({ path, i })).filter(({ i }) => i % PARTS === part).map(({ path, i }) => async () => {
        const rel = relative(dist, path);
        const dir = join(work, String(i));
        mkdirSync(dir);
        copyFileSync(path, join(dir, 'db.bib'));
        const ours = parseBib(readFileSync(path, 'utf8')).entries;
        counts.entries += ours.length;
        const first = firstOfEach(ours);
        const diff = (what: string) => differences.push(`${rel}: ${what}`);

        // BibTeX: keys in order, and types where its style defines them.
        const bibtex = await bibtexReading(dir, new Set(ours.map((e) => e.type)));
        counts.bibtexEntries += bibtex.length;
        const theirs = new Map(bibtex.map(([type, key]) => [key.toLowerCase(), type]));
        for (const [key, type] of theirs) {
          const e = first.get(key);
          if (!e) diff(`bibtex reads key ${key} (@${type || '?'}), we do not`);
          else if (type && type !== e.type) diff(`key ${key}: bibtex reads type ${type}, we read ${e.type}`);
        }
        for (const [key] of first) if (!theirs.has(key)) diff(`we read key ${key}, bibtex does not`);

        // biber: keys, types and field names, for the smaller files.
        if (statSync(path).size > BIBER_MAX_BYTES) return;
        const read = await biberReading(dir, config);
        if (!read) return;
        counts.biberFiles++;
        counts.biberEntries += read.length;
        const them = firstOfEach(read);
        const name = (f: string) => f.replace(DATE_PART, '$1date').replace(/^[a-z]+$/, (x) => FIELD_ALIAS[x] ?? x);
        for (const [key, b] of them) {
          const e = first.get(key);
          if (!e) { diff(`biber reads key ${key}, we do not`); continue; }
          const type = TYPE_ALIAS[e.type] ?? e.type;
          if (b.type !== type) diff(`key ${key}: biber reads type ${b.type}, we read ${e.type}`);
          const mine = new Set(Object.keys(e.fields).filter((f) => e.fields[f]!.trim() !== '' && !CONSUMED.has(name(f))).map(name)
            .filter((f) => modelFields.has(f) || DATE_PART.test(f)));
          if (TYPE_FIELD.has(e.type)) mine.add('type');
          const biber = new Set(Object.keys(b.fields).map(name).filter((f) => !CONSUMED.has(f)));
          for (const f of biber) if (!mine.has(f)) diff(`key ${key}: biber reads field ${f}, we do not`);
          for (const f of mine) if (!biber.has(f)) diff(`key ${key}: we read field ${f}, biber does not`);
        }
        for (const [key] of first) if (!them.has(key)) diff(`we read key ${key}, biber does not`);
      });
      await Promise.all(Array.from({ length: JOBS }, async () => { for (let job = jobs.shift(); job; job = jobs.shift()) await job(); }));
      partsRead++;
    });
  }

  it('differs from them only in the listed known differences, and every listed one still occurs', () => {
    expect(partsRead, 'every part above was read').toBe(PARTS);
    differences.sort();
    const unexpected = differences.filter((d) => !isKnown(d));
    counts.known = differences.length - unexpected.length;
    console.log(`bibtex differential: ${JSON.stringify(counts)}; ${differences.length} differences, ${unexpected.length} not listed`);
    expect(unexpected).toEqual([]);
    // A listed difference that no longer occurs is taken off the list.
    expect(KNOWN.filter((k) => existsSync(join(dist, k.file)) && !differences.some((d) => isKnown(d) === k)).map((k) => `${k.file}: ${k.difference}`)).toEqual([]);
  });
});

// Without the tools outside CI the differential cannot run: say so in the run's output, and fail in
// CI, whose set-up script installs them (a suite that is silently skipped proves nothing).
it('has TeX Live (kpsewhich, bibtex) and biber, as scripts/setup-test-tools.sh installs them', () => {
  if (!available) console.warn('bibtex differential: not run here, without TeX Live and biber (run scripts/setup-test-tools.sh)');
  expect(available || !CI, 'CI=true and TeX Live or biber is missing').toBe(true);
});
