/**
 * The record checks and the named-system hints on real ML-systems documents and their
 * bibliographies: the reference lists of scripts/corpus/reference-lists.json, read from git
 * snapshots (`--mirror DIR` or `REFLISTS_MIRROR`, `<owner>+<name>/repo`, as fetch leaves them).
 * Prints every finding and hint (for a person to review), then the figures: entries checked,
 * findings, words of prose, hints per 1,000 words. `--corpus DIR` checks against another corpus
 * folder (a grown one); the default is the repository's `corpus/`. A developer's tool, not a test:
 * `node scripts/checks/measure.mjs`.
 *
 * Hints are counted as the service raises them, with two approximations: a LaTeX file's project is
 * the list's `.tex` files (their citations all count), and a document of another citation dialect
 * (d2lbook's :cite:, distill's <d-cite>) is left out, as the service leaves out a document that
 * neither cites nor declares a bibliography.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import { bibEntryIdentity, entryIdentity, SameWorkIndex } from '../../src/core/corpus/sameWork.js';
import { checkBibFile } from '../../src/core/checks/checkRecords.js';
import { findingMessage } from '../../src/core/checks/findingText.js';
import { RecordMatcher } from '../../src/core/checks/matchRecord.js';
import { latexProse, markdownProse, SystemNames, uncitedMentions } from '../../src/core/checks/namedSystems.js';
import { citationsIn } from '../../src/core/cite/citations.js';
import { buildCorpus } from '../../src/core/corpus/readCorpus.js';
import { latexRegions, maskLatex } from '../../src/core/latex/scan.js';
import { loadCorpusDir } from '../../src/host/node/readCorpusFiles.js';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const ROOT = process.env.MLSYS_REPO ?? process.cwd();
const mirror = arg('--mirror') ?? process.env.REFLISTS_MIRROR;
if (!mirror) { console.error('measure: --mirror DIR (or REFLISTS_MIRROR) names the folder of git snapshots'); process.exit(2); }
const { data, problems } = loadCorpusDir(arg('--corpus') ?? join(ROOT, 'corpus'));
if (problems.some((p) => p.severity === 'error')) { console.error('measure: the corpus does not validate'); process.exit(2); }
const corpus = buildCorpus(data);
const matcher = RecordMatcher.of(corpus.entries);
const names = SystemNames.of(corpus.entries);
interface List { id: string; repo: string; commit: string; bib: string[]; cited: { syntax: string; files: string[] } }
const lists = (JSON.parse(readFileSync(join(ROOT, 'scripts/corpus/reference-lists.json'), 'utf8')) as { lists: List[] }).lists;
const git = (repo: string, ...a: string[]) => execFileSync('git', ['-C', join(mirror, repo.replace('/', '+'), 'repo'), ...a], { encoding: 'utf8', maxBuffer: 1 << 28 });

let entries = 0, findings = 0, words = 0, hints = 0, documents = 0, bibs = 0;
const seenBib = new Set<string>();
const seenDoc = new Set<string>();
for (const l of lists) {
  const own = new SameWorkIndex<string>();
  for (const b of l.bib) {
    const file = readBibFile(b, git(l.repo, 'show', `${l.commit}:${b}`))!;
    for (const e of file.entries) own.add(bibEntryIdentity(e), e.key.toLowerCase());
    if (seenBib.has(`${l.repo}@${l.commit}:${b}`)) continue;
    seenBib.add(`${l.repo}@${l.commit}:${b}`);
    bibs++;
    entries += file.entries.length;
    for (const f of checkBibFile(file, matcher)) { findings++; console.log(`FINDING ${l.repo}/${b}:${f.entry.line} ${f.key}: ${findingMessage(f)}`); }
  }
  if (l.cited.syntax !== 'latex' && l.cited.syntax !== 'pandoc') continue;
  const files = git(l.repo, 'ls-tree', '-r', '--name-only', l.commit).split('\n')
    .filter((f) => l.cited.files.some((p) => f === p || f.startsWith(p)) && /\.(tex|md|qmd)$/.test(f));
  const texts = new Map(files.map((f) => [f, git(l.repo, 'show', `${l.commit}:${f}`)]));
  const projectKeys = new Set([...texts].filter(([f]) => f.endsWith('.tex')).flatMap(([, t]) => citationsIn(t, 'latex').map((c) => c.key.toLowerCase())));
  for (const [f, text] of texts) {
    if (seenDoc.has(`${l.repo}@${l.commit}:${f}`)) continue;
    seenDoc.add(`${l.repo}@${l.commit}:${f}`);
    const lang = f.endsWith('.tex') ? 'latex' : 'markdown';
    const cited = citationsIn(text, lang);
    if (!cited.length && lang === 'markdown' && !/^bibliography:/m.test(text)) continue;
    documents++;
    const t = lang === 'latex' ? maskLatex(text, latexRegions(text)) : text;
    for (const r of lang === 'latex' ? latexProse(t) : markdownProse(text)) words += (t.slice(r.start, r.end).match(/\p{L}[\p{L}\p{N}'’-]*/gu) ?? []).length;
    const keys = new Set([...cited.map((c) => c.key.toLowerCase()), ...(lang === 'latex' ? projectKeys : [])]);
    const isCited = (e: Parameters<typeof entryIdentity>[0]) => keys.has(e.key.toLowerCase()) || keys.has(own.find(entryIdentity(e)) ?? '\0');
    for (const m of uncitedMentions(text, lang, names, cited, isCited)) {
      hints++;
      console.log(`HINT ${l.repo}/${f}: ${m.name.alias} → ${m.name.entries.map((e) => e.key).join(', ')} | …${text.slice(Math.max(0, m.offset - 70), m.offset + 50).replace(/\s+/g, ' ')}…`);
    }
  }
}
console.log(`\n${bibs} bibliographies, ${entries} entries: ${findings} finding(s) of the record checks`);
console.log(`${documents} documents, about ${words} words of prose: ${hints} hint(s) at systems named but not cited (${words ? ((hints / words) * 1000).toFixed(3) : '0'} per 1,000 words)`);
