#!/usr/bin/env node
/**
 * Brings the real documents of MANIFEST.github.json (the developer-only GitHub set; CI uses the Debian set of MANIFEST.json) into test/realdocs/docs/<id>/ (git-ignored): each file at
 * the commit the manifest names, checked against its SHA-256. The documents are third-party work and
 * are not committed to this repository; this script is how a checkout (CI included) gets them.
 *
 * Sources, first that works: REALDOCS_MIRROR=<dir> holding `<owner>+<name>/repo` git directories
 * (read with `git show <commit>:<path>`), else https://raw.githubusercontent.com/<repo>/<commit>/<path>.
 * A file already present with the right hash is kept. Exit 1 when a file cannot be had or its hash differs.
 *
 * Usage: node test/realdocs/fetch.mjs [--only ID,...]
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const DOCS = join(HERE, 'docs');
const manifest = JSON.parse(readFileSync(join(HERE, 'MANIFEST.github.json'), 'utf8'));
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg > 0 ? new Set(process.argv[onlyArg + 1].split(',')) : undefined;
const mirror = process.env.REALDOCS_MIRROR;
const sha = (buf) => createHash('sha256').update(buf).digest('hex');

async function get(doc, file) {
  if (mirror) {
    const gitDir = join(mirror, doc.repo.replace('/', '+'), 'repo');
    if (existsSync(gitDir)) {
      try {
        return execFileSync('git', ['--git-dir', gitDir, 'show', `${doc.commit}:${file.from}`], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
      } catch (e) {
        console.error(`realdocs: ${doc.id}: ${file.from} not in ${gitDir} at ${doc.commit} (${String(e.message).split('\n')[0]}); trying GitHub`);
      }
    }
  }
  const url = `https://raw.githubusercontent.com/${doc.repo}/${doc.commit}/${file.from.split('/').map(encodeURIComponent).join('/')}`;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

let failed = 0;
let fetched = 0;
for (const doc of manifest.documents) {
  if (only && !only.has(doc.id)) continue;
  const dir = join(DOCS, doc.id);
  for (const file of doc.files) {
    const target = resolve(dir, file.to);
    // A manifest path is data: it must stay inside the document's folder.
    if (!target.startsWith(dir + sep)) { console.error(`realdocs: ${doc.id}: ${file.to} leaves its folder`); failed++; continue; }
    if (existsSync(target) && sha(readFileSync(target)) === file.sha256) continue;
    try {
      const buf = await get(doc, file);
      if (sha(buf) !== file.sha256) throw new Error(`SHA-256 ${sha(buf)}, manifest says ${file.sha256}`);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, buf);
      fetched++;
    } catch (e) {
      console.error(`realdocs: ${doc.id}: ${file.from}: ${e.message}`);
      failed++;
    }
  }
}
console.log(`realdocs: ${fetched} file(s) fetched into ${DOCS}${failed ? `, ${failed} failed` : ''}`);
process.exit(failed ? 1 : 0);
