import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseBib } from '../../src/core/bibliography/bibtexFile.js';
import { syncBibliography } from '../../src/host/node/addCitedEntries.js';
import { realCorpus } from './helpers.js';

let root: string;
let demo: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mlsys-sync-'));
  demo = join(root, 'demo');
  cpSync(join(__dirname, '../../demo'), demo, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const sync = (file: string, dryRun = false, cwd = demo) =>
  syncBibliography(file, realCorpus(), { cwd, dryRun, text: readFileSync(join(cwd, file), 'utf8') });

describe('mlsys-papers sync', () => {
  it('adds what the demo paper cites to its bibliography, keeping every byte; a second run adds nothing', async () => {
    const paper = join(demo, 'paper.tex');
    writeFileSync(paper, readFileSync(paper, 'utf8').replace('Paged KV-cache management', 'Paged KV-cache management \\cite{kwon2023efficient,nosuch2020key}'));
    const before = readFileSync(join(demo, 'references.bib'), 'utf8');
    const dry = await sync('paper.tex', true);
    expect(dry.code).toBe(0);
    expect(dry.out[0]).toBe('references.bib: would add kwon2023efficient');
    expect(dry.err).toEqual(['not in the bibliography nor the corpus, left as they are: nosuch2020key']);
    expect(readFileSync(join(demo, 'references.bib'), 'utf8')).toBe(before);
    const done = await sync('paper.tex');
    expect(done.out).toEqual(['references.bib: added kwon2023efficient']);
    const after = readFileSync(join(demo, 'references.bib'), 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(parseBib(after).entries.map((e) => e.key)).toEqual(['yu2022orca', 'kwon2023efficient']);
    expect((await sync('paper.tex')).out).toEqual(['paper.tex: the bibliography has every corpus entry it cites']);
  });

  it('works on the demo note, and cites the bibliography\'s own key for a work it already has', async () => {
    const note = join(demo, 'notes.md');
    writeFileSync(note, `${readFileSync(note, 'utf8')}\nSee [@kwon2023efficient; @yu2022orca].\n`);
    const bib = join(demo, 'references.bib');
    writeFileSync(bib, `${readFileSync(bib, 'utf8')}\n@misc{mine,\n  title = {Efficient Memory Management for Large Language Model Serving with {PagedAttention}}\n}\n`);
    const before = readFileSync(bib, 'utf8');
    const res = await sync('notes.md');
    expect(res.code).toBe(0);
    expect(res.err).toEqual(['references.bib has "Efficient Memory Management for Large Language Model Serving with PagedAttention" as mine; kwon2023efficient was not added (cite mine)']);
    expect(readFileSync(bib, 'utf8')).toBe(before);
  });

  it('names a reused work\'s file as its other lines name files: relative to the working directory', async () => {
    const note = join(demo, 'notes.md');
    writeFileSync(note, `${readFileSync(note, 'utf8')}\nSee [@kwon2023efficient].\n`);
    const bib = join(demo, 'references.bib');
    writeFileSync(bib, `${readFileSync(bib, 'utf8')}\n@misc{mine,\n  title = {Efficient Memory Management for Large Language Model Serving with {PagedAttention}}\n}\n`);
    const res = await sync('demo/notes.md', false, root);
    expect(res.err).toEqual(['demo/references.bib has "Efficient Memory Management for Large Language Model Serving with PagedAttention" as mine; kwon2023efficient was not added (cite mine)']);
  });

  it('refuses to write outside the directory tree it runs in, and creates no folder', async () => {
    mkdirSync(join(root, 'elsewhere'));
    writeFileSync(join(root, 'elsewhere/refs.bib'), '');
    writeFileSync(join(demo, 'a.tex'), '\\cite{kwon2023efficient}\n\\bibliography{../elsewhere/refs}\n');
    const res = await sync('a.tex');
    expect(res.code).toBe(2);
    expect(res.err).toEqual(['../elsewhere/refs.bib: is outside the working directory; it was not changed; add kwon2023efficient by hand, or pass --allow-outside to write there']);
    expect(readFileSync(join(root, 'elsewhere/refs.bib'), 'utf8')).toBe('');
    writeFileSync(join(demo, 'b.tex'), '\\cite{kwon2023efficient}\n\\bibliography{new/refs}\n');
    expect((await sync('b.tex')).err).toEqual([expect.stringMatching(/^new\/refs\.bib: cannot be created: its folder does not exist/)]);
  });

  it('creates a declared file that does not exist yet, and refuses a document that declares none', async () => {
    writeFileSync(join(demo, 'c.md'), '---\nbibliography: c.json\n---\n[@yu2022orca]\n');
    expect((await sync('c.md')).out).toEqual(['c.json: created with yu2022orca']);
    expect(JSON.parse(readFileSync(join(demo, 'c.json'), 'utf8'))).toEqual([expect.objectContaining({ id: 'yu2022orca' })]);
    writeFileSync(join(demo, 'd.tex'), '\\cite{yu2022orca}\n');
    expect((await sync('d.tex')).code).toBe(2);
  });

  it('keeps a bibliography\'s invalid UTF-8 bytes by refusing to rewrite it', async () => {
    const latin1 = Buffer.from('@misc{a, title={caf\xe9}}\n', 'latin1');
    writeFileSync(join(demo, 'references.bib'), latin1);
    writeFileSync(join(demo, 'e.tex'), '\\cite{kwon2023efficient}\n\\bibliography{references}\n');
    expect(await sync('e.tex')).toMatchObject({ code: 2, err: ['references.bib: is not UTF-8 text; rewriting it would change its other characters'] });
    expect(readFileSync(join(demo, 'references.bib')).equals(latin1)).toBe(true);
  });
});
