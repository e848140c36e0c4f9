#!/usr/bin/env node
/**
 * Prints the real-document comparison (see compare.mjs) without failing: per document the figures,
 * then every disagreement per document and kind, then the totals per kind; the ones KNOWN-LIMITS.json
 * covers, and the record findings and hints REVIEWED-CHECKS.json found right, are listed apart with
 * their reason; last the checks' figures (findings, hints per 1,000 words of prose). Needs `node scripts/build.mjs` first, and the Debian
 * packages of scripts/setup-test-tools.sh (or, with REALDOCS_SET=github, `node test/realdocs/fetch.mjs`).
 *
 * Usage: node test/realdocs/report.mjs [--only ID,...] [--json]
 */
import { existsSync } from 'node:fs';
import { applyLimits, CLI, compareDocument, formatDiffs, KINDS, missingOf, readKnownLimits, readManifest, readReviewedChecks, removeCopies } from './compare.mjs';

const onlyArg = process.argv.indexOf('--only');
const only = onlyArg > 0 ? new Set(process.argv[onlyArg + 1].split(',')) : undefined;
if (!existsSync(CLI)) { console.error(`realdocs: ${CLI} is missing: run node scripts/build.mjs`); process.exit(2); }
const limits = [...readKnownLimits(), ...readReviewedChecks()];
const results = [];
const started = Date.now();
for (const doc of readManifest().documents) {
  if (only && !only.has(doc.id)) continue;
  const missing = missingOf(doc);
  if (missing.length) { console.error(`realdocs: ${missing.join('; ')}`); continue; }
  const r = await compareDocument(doc);
  results.push(r);
  const f = r.figures;
  console.error(`${r.doc.padEnd(44)} ${String(f.files).padStart(3)} files  oracle ${String(f.oracleCited).padStart(4)} cited ${String(f.oracleUndefined).padStart(3)} undef (${f.backend ?? 'pandoc'})  ours ${String(f.ours).padStart(4)} read ${String(f.flagged).padStart(4)} flagged  ${r.diffs.length} diffs`);
}
removeCopies();
const all = results.flatMap((r) => r.diffs);
const { known, open } = applyLimits(all, limits);
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ results, open, known }, null, 1));
} else {
  console.log(`\n== disagreements outside the known limits (${open.length})\n${formatDiffs(open)}`);
  console.log(`\n== covered by KNOWN-LIMITS.json (${known.length})`);
  for (const d of known) console.log(`  ${d.doc} ${d.kind} ${d.key}: ${d.reason}`);
  console.log('\n== totals per kind (outside the known limits)');
  for (const kind of Object.keys(KINDS)) {
    const ds = open.filter((d) => d.kind === kind);
    if (ds.length) console.log(`  ${kind.padEnd(12)} ${String(ds.length).padStart(5)} in ${new Set(ds.map((d) => d.doc)).size} documents: ${KINDS[kind]}`);
  }
  const cited = results.reduce((s, r) => s + r.figures.oracleCited, 0);
  const words = results.reduce((s, r) => s + r.figures.words, 0);
  const hints = results.reduce((s, r) => s + r.figures.hints, 0);
  const records = results.reduce((s, r) => s + r.figures.records, 0);
  console.log(`\n${results.length} documents, ${cited} keys cited by the reference tools, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`record checks: ${records} finding(s); systems named but not cited: ${hints} hint(s) in about ${words} words of prose (${(words ? (hints / words) * 1000 : 0).toFixed(3)} per 1,000 words)`);
}
