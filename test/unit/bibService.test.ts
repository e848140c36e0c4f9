/**
 * The citation service over a `.bib` with a broken entry, read by the one tolerant reader: the
 * citing document is checked against the entries that read (the error said once), completion,
 * hover and definition know those entries, the `.bib` shows the problem at its line, and the
 * planner still refuses to write to it (issue 21, cause 4 and "What to build" 3). And the `.bib`'s
 * own diagnostics are one pass, whatever the number of duplicate keys (issue 20, finding 8).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { refusalText } from '../../src/core/bibliography/refusal.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { type MarkupContent, type Position } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { createSearchIndex } from '../../src/core/search/corpus/corpusIndex.js';
import { createCitationService } from '../../src/core/service/service.js';
import { corpusView, type BibChange, type CorpusView } from '../../src/core/service/types.js';
import { scopeSettings } from '../../src/core/config/settings.js';
import { realCorpus } from './helpers.js';
import { MemoryWorkspace } from './memoryWorkspace.js';

/** Calls of the `.bib` helpers, to count the work of a diagnostics pull. */
const calls = vi.hoisted(() => ({ parseBib: 0, findBibKeys: 0, findBibKey: 0, bibKeyOffset: 0 }));
vi.mock('../../src/core/bibliography/bibtexFile.js', async (actual) => {
  const m = await actual<typeof import('../../src/core/bibliography/bibtexFile.js')>();
  return {
    ...m,
    parseBib: (text: string) => { calls.parseBib++; return m.parseBib(text); },
    findBibKeys: (text: string, key: string) => { calls.findBibKeys++; return m.findBibKeys(text, key); },
    findBibKey: (text: string, key: string) => { calls.findBibKey++; return m.findBibKey(text, key); },
    bibKeyOffset: (text: string, start: number) => { calls.bibKeyOffset++; return m.bibKeyOffset(text, start); },
  };
});

let view: CorpusView;
beforeAll(() => {
  const corpus = realCorpus();
  view = corpusView(corpus, createSearchIndex(corpus));
});

function setup(files: Record<string, string>) {
  const ws = new MemoryWorkspace(files);
  const service = createCitationService({
    workspace: ws, corpus: () => view, config: () => scopeSettings({}), logger: { info() {}, warn() {}, error() {} }, clientUi: () => true,
  });
  return { ws, service };
}
const doc = (path: string, languageId: string, text: string, version = 1) => TextDocument.create(URI.file(path).toString(), languageId, version, text);
const at = (d: TextDocument, needle: string): Position => d.positionAt(d.getText().indexOf(needle) + 1);
const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures/defects', name), 'utf8');

describe('a document whose .bib has a broken entry (issue 21, cause 4)', () => {
  it('@Manual{, …}: the other keys are known; the error is said once, with its line; hover, completion and definition read the same entries', async () => {
    const { service } = setup({ '/ws/refs.bib': fixture('bib-empty-key-before-entries.bib') });
    const paper = doc('/ws/main.tex', 'latex', '\\bibliography{refs}\n\\cite{meurer2017} and \\cite{numpy,nosuch}\n\\cite{meurer2017}\n');
    expect((await service.diagnostics(paper)).map((d) => [d.range.start.line, d.message])).toEqual([
      // On \bibliography{refs} (line 0), not on the good citation of line 1 (issue 27).
      [0, 'refs.bib, line 1: no citation key (expected "@type{key,"); this @Manual entry is skipped. The keys of its other entries are checked.'],
      [1, 'Unknown citation key "nosuch": not in refs.bib, nor in the MLSys Papers corpus.'],
    ]);
    const hover = await service.hover(paper, at(paper, 'numpy'));
    expect((hover!.contents as MarkupContent).value).toContain('✓ in refs\\.bib');
    expect(await service.definition(paper, at(paper, 'numpy'))).toEqual({ uri: URI.file('/ws/refs.bib').toString(), range: { start: { line: 6, character: 6 }, end: { line: 6, character: 6 } } });
    const typing = doc('/ws/main.tex', 'latex', '\\bibliography{refs}\n\\cite{meu}\n', 2);
    const list = await service.complete(typing, { line: 1, character: 9 });
    expect(list!.items[0]!.label).toBe('meurer2017');
  });

  it('an unclosed entry: what BibTeX reads is known (the broken entry\'s key too), the entry it loses is flagged; the planner refuses to write, naming the line', async () => {
    const { service } = setup({ '/ws/refs.bib': fixture('bib-unclosed-entry-takes-next.bib') });
    const paper = doc('/ws/main.tex', 'latex', '\\bibliography{refs}\n\\cite{kept2014,taken2013,simon2012}\n');
    expect((await service.diagnostics(paper)).map((d) => d.message)).toEqual([
      'refs.bib, line 1: expected "=" after the field name @article, found "{" (line 3); entry simon2012 is read up to there, as BibTeX reads it (its key counts). The keys of its other entries are checked.',
      'Unknown citation key "taken2013": not in refs.bib, nor in the MLSys Papers corpus.',
    ]);
    const cite = doc('/ws/main.tex', 'latex', '\\bibliography{refs}\n\\cite{}\n');
    const plan = await service.planCitation(cite, { line: 1, character: 6 }, ['kwon2023efficient']);
    expect(plan.bibliography).toMatchObject({ kind: 'refuse', line: 1, column: 1 });
    expect(refusalText(plan.bibliography as Extract<BibChange, { kind: 'refuse' }>)).toMatch(/^has an error at line 1, column 1 \(.*entry simon2012 is read up to there, as BibTeX reads it \(its key counts\)\); it was not changed; add kwon2023efficient once it is fixed$/);
  });

  it('the .bib itself: the problem is a warning at its line; an undefined macro is not (another database may define it)', async () => {
    const { service } = setup({});
    const bib = doc('/ws/refs.bib', 'bibtex', `${fixture('bib-empty-key-before-entries.bib')}@misc{m, journal = nosuchmacro}\n`);
    expect((await service.diagnostics(bib)).map((d) => [d.range.start.line, d.range.start.character, d.severity, d.message])).toEqual([
      [0, 0, 2, 'no citation key (expected "@type{key,"); this @Manual entry is skipped'],
    ]);
  });
});

describe('duplicate keys of an open .bib, in one pass (issue 20, finding 8)', () => {
  /** `n` keys each defined twice, the second time in upper case. */
  const dups = (n: number) => Array.from({ length: n }, (_, i) => `@misc{k${i}, title = {T${i}}}\n`).join('') + Array.from({ length: n }, (_, i) => `@misc{K${i}, title = {U${i}}}\n`).join('');

  it('2,000 duplicated keys: one read of the file and one key lookup per duplicate entry, no search of the text per key', async () => {
    const text = dups(2000);
    const { ws, service } = setup({});
    ws.openDoc('/ws/refs.bib', 3, text);
    Object.assign(calls, { parseBib: 0, findBibKeys: 0, findBibKey: 0, bibKeyOffset: 0 });
    const bib = doc('/ws/refs.bib', 'bibtex', text, 3);
    const out = await service.diagnostics(bib);
    expect(out).toHaveLength(4000);
    expect(out[2000]!.message).toBe('Duplicate key "K0": BibTeX uses the first and ignores the others (keys are case-insensitive).');
    expect(bib.getText(out[2000]!.range)).toBe('K0');
    // The old code searched the whole text once per duplicated key: 2,000 searches of 76 KB.
    expect(calls).toEqual({ parseBib: 1, findBibKeys: 0, findBibKey: 0, bibKeyOffset: 4000 });
    // A second pull of the same version reads nothing again.
    await service.diagnostics(bib);
    expect(calls.parseBib).toBe(1);
  });
});
