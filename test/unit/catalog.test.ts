import { describe, expect, it } from 'vitest';
import { Catalog, type CatalogLibrary } from '../../src/core/library/catalog.js';
import { loadLibrary } from '../../src/core/library/loadLibrary.js';
import { buildCorpus } from '../../src/core/corpus/model.js';
import { createSearchIndex } from '../../src/core/search/corpus/corpusIndex.js';
import { entry } from './helpers.js';

const corpus = buildCorpus({
  topics: [{ id: 't', label: 'T', zh: 'T', children: [] }],
  entries: [entry({ key: 'kwon2023vllm', title: 'Efficient Memory Management for Large Language Model Serving with PagedAttention', year: 2023, doi: '10.1145/3600006.3613165' })],
});
const side = { corpus, index: createSearchIndex(corpus) };

function library(name: string, text: string, named = true): CatalogLibrary {
  const id = `file:///ws/${name}`;
  return { id, name, lib: loadLibrary(text, 'bibtex', { uri: id, name }), text, named };
}

const first = library('a.bib', '@string{osdi = {OSDI}}\n@inproceedings{mine, title = {Efficient Memory Management for Large Language Model Serving with PagedAttention}, booktitle = osdi, year = 2023}\n@article{shared, title = {First}, year = 2020}\n');
const second = library('b.bib', '@article{Shared, title = {Second}, year = 2021}\n@article{other, title = {Sparse Tiles}, year = 2022}\n');

describe('Catalog', () => {
  it('looks a key up in the corpus first, then in the libraries in order, ignoring case', () => {
    const c = new Catalog(side, [first, second]);
    expect(c.entry('KWON2023VLLM')?.library).toBeUndefined();
    expect(c.entry('shared')?.title).toBe('First');
    expect(c.entry('other')?.library?.name).toBe('b.bib');
    expect(c.keys()).toEqual(['kwon2023vllm', 'mine', 'shared', 'Shared', 'other']);
  });

  it('reports a later library\'s duplicate key, not an open document\'s bibliography', () => {
    expect(new Catalog(side, [first, second]).duplicateKeys().map((d) => [d.library.name, d.entry.key, d.earlier.name])).toEqual([['b.bib', 'Shared', 'a.bib']]);
    expect(new Catalog(side, [first, { ...second, named: false }]).duplicateKeys()).toEqual([]);
  });

  it('finds sameWorkInLibraries: citing the corpus key cites the user\'s unless corpus keys are preferred, and the search shows the corpus row once', () => {
    const c = new Catalog(side, [first, second]);
    expect(c.sameWorkInLibrary('kwon2023vllm')?.key).toBe('mine');
    expect(c.toCite('kwon2023vllm')?.key).toBe('mine');
    c.preferCorpusKeys = true;
    expect(c.toCite('kwon2023vllm')?.key).toBe('kwon2023vllm');
    expect(c.search('paged attention serving').map((h) => h.entry.key)).toEqual(['kwon2023vllm']);
    expect(c.search('sparse tiles').map((h) => h.entry.key)).toEqual(['other']);
  });

  it('finds a library\'s twins again after it changed in place, and after the corpus changed', () => {
    const lib = library('c.bib', '@article{later, title = {Nothing Yet}, year = 2023}\n');
    const c = new Catalog(side, [lib]);
    expect(c.sameWorkInLibrary('kwon2023vllm')).toBeUndefined();
    lib.lib.entries[0]!.title = 'Efficient Memory Management for Large Language Model Serving with PagedAttention';
    c.libraryChanged(lib.lib);
    c.setLibraries([lib]);
    expect(c.sameWorkInLibrary('kwon2023vllm')?.key).toBe('later');
    const empty = buildCorpus({ topics: [], entries: [] });
    c.setCorpus({ corpus: empty, index: createSearchIndex(empty) });
    expect(c.sameWorkInLibrary('kwon2023vllm')).toBeUndefined();
  });

  it('prepares a BibTeX library entry with its own text and the macros it uses', () => {
    const c = new Catalog(side, [first, second]);
    const [mine] = c.prepare([c.entry('mine')!]);
    expect(mine!.library?.bibtex).toMatch(/^@inproceedings\{mine,/);
    expect(mine!.library?.bibtexMacros?.map((m) => m.name)).toEqual(['osdi']);
    const [corpusEntry] = c.prepare([c.entry('kwon2023vllm')!]);
    expect(corpusEntry).toBe(corpus.entry('kwon2023vllm'));
  });
});
