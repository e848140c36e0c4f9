/**
 * Property (issue 20, findings 4 and 5): whatever symlinks a working directory holds and however
 * a document spells its bibliography's path (`.`, `..`, doubled separators, symlinked folders and
 * files, dangling links, loops), `sync` writes or creates no file outside the working directory.
 * Runs `FUZZ_RUNS` cases (300 in the unit run, 10,000 in `npm run fuzz`).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncBibliography } from '../../src/host/node/addCitedEntries.js';
import { NUM_RUNS, SEED, TEST_TIMEOUT_MS } from './fuzz/harness.js';
import { snapshot } from './fileSnapshot.js';
import { realCorpus } from './helpers.js';

let tmp: string;
beforeAll(() => { tmp = mkdtempSync(join(tmpdir(), 'mlsys-outside-')); });
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Path segments a document may use, and file names: real folders, symlinks out and in, a loop. */
const segment = fc.constantFrom('linkdir', 'inner', 'sub', 'sub/up', '.', '..', '', 'loop', 'linkdir/..', 'nowhere');
const leaf = fc.constantFrom('refs', 'linkfile', 'dangling', 'new', 'inner/refs', 'loop');

describe('sync writes nothing outside its working directory', () => {
  it('property: any symlinks, any spelling of the declared path', async () => {
    let n = 0;
    let written = 0;
    await fc.assert(fc.asyncProperty(fc.array(segment, { maxLength: 4 }), leaf, fc.boolean(), fc.boolean(), async (dirs, name, existing, dryRun) => {
      const base = join(tmp, `c${n++}`);
      const ws = join(base, 'ws');
      const outside = join(base, 'outside');
      mkdirSync(join(ws, 'inner'), { recursive: true });
      mkdirSync(join(ws, 'sub'));
      mkdirSync(outside);
      writeFileSync(join(outside, 'refs.bib'), '@misc{theirs,\n  title = {Theirs},\n}\n');
      writeFileSync(join(ws, 'inner/refs.bib'), '');
      if (existing) writeFileSync(join(ws, 'refs.bib'), '');
      symlinkSync(outside, join(ws, 'linkdir'));
      symlinkSync(join(ws, 'inner'), join(ws, 'sub/up'));
      symlinkSync(join(outside, 'refs.bib'), join(ws, 'linkfile.bib'));
      symlinkSync(join(outside, 'made.bib'), join(ws, 'dangling.bib'));
      symlinkSync(join(ws, 'loop'), join(ws, 'loop'));
      symlinkSync(join(ws, 'loop.bib'), join(ws, 'loop.bib'));
      const before = snapshot(outside);
      const declared = [...dirs, name].join('/');
      const r = await syncBibliography('paper.tex', realCorpus(), { cwd: ws, dryRun, text: `\\cite{kwon2023efficient}\n\\bibliography{${declared}}\n` });
      if (r.code === 0 && !dryRun) written++;
      expect(snapshot(outside), `\\bibliography{${declared}}: ${[...r.out, ...r.err].join(' | ')}`).toEqual(before);
      rmSync(base, { recursive: true, force: true });
    }), { numRuns: NUM_RUNS, seed: SEED });
    // The property holds by writing inside, not by refusing everything.
    expect(written).toBeGreaterThan(0);
  }, TEST_TIMEOUT_MS);
});
