#!/usr/bin/env node
/**
 * Unused entries on the real LaTeX documents, against TeX Live's `checkcites --unused` (issue 30).
 * Per document: each root compiled with its engine in a temporary copy (`checkcites` reads the
 * `.aux`, or with biblatex the `.bcf` via `--backend biber`), its unused keys; then our language
 * server (`dist/cli.js lsp --stdio`, the harness of compare.mjs) on the document's folder: each
 * `.bib` file opened and its diagnostics pulled, the keys of the `unused-entry` hints. Prints both
 * and their differences; a document whose unused entries we do not mark (a `\nocite{*}`, an
 * `\input` of a file not in the folder, …) is listed with the reason our first code lens gives.
 * A report, not a test: it never fails. Needs `node scripts/build.mjs` and the Debian packages of
 * scripts/setup-test-tools.sh.
 *
 * Usage: node test/realdocs/unused.mjs [--only ID,...]
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI, docDir, lspSession, missingOf, readManifest, removeCopies, run } from './compare.mjs';

const onlyArg = process.argv.indexOf('--only');
const only = onlyArg > 0 ? new Set(process.argv[onlyArg + 1].split(',')) : undefined;
if (!existsSync(CLI)) { console.error(`unused: ${CLI} is missing: run node scripts/build.mjs`); process.exit(2); }

/** checkcites's unused keys over every root of the document. */
function checkcitesUnused(doc) {
  const tmp = mkdtempSync(join(tmpdir(), `unused-${doc.id}-`));
  const keys = new Set();
  const problems = [];
  try {
    cpSync(docDir(doc), tmp, { recursive: true });
    for (const root of doc.roots) {
      const cwd = join(tmp, dirname(root));
      const job = basename(root).replace(/\.tex$/, '');
      run(doc.engine ?? 'pdflatex', ['-interaction=nonstopmode', basename(root)], cwd);
      const bcf = existsSync(join(cwd, `${job}.bcf`));
      if (!existsSync(join(cwd, `${job}.aux`)) && !bcf) { problems.push(`${root}: no .aux`); continue; }
      const r = run('checkcites', ['--unused', ...(bcf ? ['--backend', 'biber', `${job}.bcf`] : [`${job}.aux`])], cwd);
      for (const m of r.stdout.matchAll(/^=> (.+)$/gm)) keys.add(m[1].split(',')[0].trim());
      if (!/Unused references in your TeX document: \d+/.test(r.stdout) && !/no unused/i.test(r.stdout)) problems.push(`${root}: checkcites: ${(r.stdout + r.stderr).trim().split('\n').slice(-2).join(' / ').slice(0, 200)}`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return { keys, problems };
}

/** Our unused-entry hints in every `.bib` file of the document, and the first lens when they are not marked. */
async function ours(doc) {
  const dir = docDir(doc);
  const session = await lspSession(doc);
  const keys = new Set();
  const unmarked = [];
  try {
    const { readdirSync, statSync } = await import('node:fs');
    const walk = (d) => readdirSync(d).flatMap((n) => { const p = join(d, n); return statSync(p).isDirectory() ? walk(p) : [p]; });
    for (const file of walk(dir).filter((p) => /\.bib$/i.test(p))) {
      const uri = pathToFileURL(file).href;
      await session.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'bibtex', version: 1, text: readFileSync(file, 'latin1') } });
      const report = await session.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
      for (const d of report.items ?? []) if (d.code === 'unused-entry') keys.add(d.data.key);
      const lenses = await session.conn.sendRequest('textDocument/codeLens', { textDocument: { uri } });
      const first = lenses?.[0]?.command?.title ?? '';
      if (first.startsWith('Unused entries are not marked')) unmarked.push(`${file.slice(dir.length + 1)}: ${first}`);
      else if (!lenses?.length) unmarked.push(`${file.slice(dir.length + 1)}: no document reads it`);
    }
    await session.close();
  } finally {
    session.dispose();
  }
  return { keys, unmarked };
}

let docs = 0, agree = 0;
for (const doc of readManifest().documents) {
  if (doc.kind !== 'latex' || (only && !only.has(doc.id))) continue;
  if (missingOf(doc).length) { console.error(`unused: ${missingOf(doc)[0]}`); continue; }
  docs++;
  const theirs = checkcitesUnused(doc);
  const mine = await ours(doc);
  const onlyTheirs = [...theirs.keys].filter((k) => !mine.keys.has(k)).sort();
  const onlyOurs = [...mine.keys].filter((k) => !theirs.keys.has(k)).sort();
  const same = !onlyTheirs.length && !onlyOurs.length;
  if (same) agree++;
  console.log(`${doc.id.padEnd(44)} checkcites ${String(theirs.keys.size).padStart(3)}  ours ${String(mine.keys.size).padStart(3)}  ${same ? 'same' : 'DIFFER'}`);
  if (onlyTheirs.length) console.log(`    only checkcites: ${onlyTheirs.join(' ')}`);
  if (onlyOurs.length) console.log(`    only ours: ${onlyOurs.join(' ')}`);
  for (const u of mine.unmarked) console.log(`    not marked: ${u}`);
  for (const p of theirs.problems) console.log(`    checkcites: ${p}`);
}
removeCopies();
console.log(`\n${docs} LaTeX documents, ${agree} with the same unused entries`);
