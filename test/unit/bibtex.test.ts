import { describe, expect, it } from 'vitest';
import { bibtexName, protectCapitals, texEscape, toBibtex } from '../../src/core/cite/writeBibtex.js';
import { toCslJson } from '../../src/core/cite/formatCitation.js';
import { entryFromBibtex } from '../../src/core/library/entries.js';
import { entry, realCorpus } from './helpers.js';

describe('BibTeX output', () => {
  it('escapes TeX specials and turns accents into TeX commands', () => {
    expect(texEscape('50% & $5 #1 a_b {x} ~^')).toBe('50\\% \\& \\$5 \\#1 a\\_b \\textbraceleft{}x\\textbraceright{} \\textasciitilde{}\\textasciicircum{}');
    expect(texEscape('Lamé Ñoño Gödel ı ß')).toBe("Lam{\\'e} {\\~N}o{\\~n}o G{\\\"o}del {\\i} {\\ss}");
    expect(texEscape('Čech')).toBe('{\\v{C}}ech');
    // An accented i keeps its own letter: biber reads {\'\i} as a dotless i and a combining accent,
    // which pdflatex cannot set (the corpus's "Martín").
    expect(texEscape('Martín Jiří')).toBe("Mart{\\'i}n Ji{\\v{r}}{\\'i}");
    // Letters and signs of titles that have TeX commands but no place in pdflatex's UTF-8 input.
    expect(texEscape('μLayer, µs, Tux², n³')).toBe('{$\\mu$}Layer, {$\\mu$}s, Tux{\\textsuperscript{2}}, n{\\textsuperscript{3}}');
  });

  it('protects acronyms, camel-case names and aliases from lower-casing', () => {
    expect(protectCapitals('GPipe: Efficient Training of Giant Neural Networks')).toBe('{GPipe}: Efficient Training of Giant Neural Networks');
    expect(protectCapitals('Training LLMs with PyTorch FSDP on GPU clusters')).toBe('Training {LLMs} with {PyTorch} {FSDP} on {GPU} clusters');
    expect(protectCapitals('Megatron-LM: Training', [])).toBe('{Megatron-LM}: Training');
    expect(protectCapitals('Accelerating Large-Scale Multi-Modal LLM Training')).toBe('Accelerating Large-Scale Multi-Modal {LLM} Training');
    expect(protectCapitals('QSGD: Communication-Efficient SGD')).toBe('{QSGD}: Communication-Efficient {SGD}');
    expect(protectCapitals('Sarathi-Serve', ['Sarathi-Serve'])).toBe('{Sarathi-Serve}');
    expect(protectCapitals('Horovod: fast and easy', ['Horovod'])).toBe('{Horovod}: fast and easy');
  });

  it('writes names as Family, Given and braces organisations', () => {
    expect(bibtexName({ given: 'Woosuk', family: 'Kwon' })).toBe('Kwon, Woosuk');
    expect(bibtexName({ given: 'Ludwig', family: 'van Beethoven' })).toBe('{van Beethoven}, Ludwig');
    expect(bibtexName({ literal: 'NVIDIA Corporation' })).toBe('{NVIDIA Corporation}');
  });

  it('formats an inproceedings entry with eprint fields', () => {
    const bib = toBibtex(entry({
      key: 'kwon2023efficient', type: 'inproceedings', title: 'Efficient Memory Management with PagedAttention',
      authors: [{ given: 'Woosuk', family: 'Kwon' }, { given: 'Zhuohan', family: 'Li' }], year: 2023, venue: 'SOSP',
      booktitle: 'Proceedings of the 29th Symposium on Operating Systems Principles', pages: '611--626',
      doi: '10.1145/3600006.3613165', arxiv: '2309.06180', aliases: ['vLLM', 'PagedAttention'],
    }));
    expect(bib).toBe([
      '@inproceedings{kwon2023efficient,',
      '  author        = {Kwon, Woosuk and Li, Zhuohan},',
      '  title         = {Efficient Memory Management with {PagedAttention}},',
      '  booktitle     = {Proceedings of the 29th Symposium on Operating Systems Principles},',
      '  year          = {2023},',
      '  pages         = {611--626},',
      '  doi           = {10.1145/3600006.3613165},',
      '  eprint        = {2309.06180},',
      '  archiveprefix = {arXiv},',
      '  eprinttype    = {arxiv},',
      '  url           = {https://arxiv.org/abs/2309.06180}',
      '}',
      '',
    ].join('\n'));
  });

  it('uses the English title for a Chinese title and says so', () => {
    const bib = toBibtex(entry({ key: 'x', title: '动手学深度学习', title_en: 'Dive into Deep Learning' }));
    expect(bib).toMatch(/title +=\s\{Dive into Deep Learning\}/);
    expect(bib).toMatch(/note +=\s\{In Chinese\}/);
  });

  it('leaves names written in CJK script out of BibTeX (pdflatex cannot typeset them) and keys the entry', () => {
    const bib = toBibtex(entry({ key: 'x', title: '万卡集群', title_en: 'Clusters', venue: 'WeChat', authors: [{ literal: 'AI闲谈' }] }));
    expect(bib).not.toMatch(/author|闲/);
    expect(bib).toMatch(/key += \{WeChat\}/);
    const mixed = toBibtex(entry({ key: 'y', authors: [{ literal: 'AI闲谈' }, { given: 'Jiarui', family: 'Fang', zh: '方佳瑞' }] }));
    expect(mixed).toMatch(/author += \{Fang, Jiarui\}/);
    expect(mixed).not.toContain('方');
  });

  it('every bundled entry exports with balanced braces and its key', () => {
    for (const e of realCorpus().entries) {
      const bib = toBibtex(e);
      expect(bib.startsWith(`@${e.type}{${e.key},`)).toBe(true);
      let depth = 0;
      for (const ch of bib.replace(/\\[{}]/g, '')) {
        if (ch === '{') depth++;
        if (ch === '}') depth--;
        expect(depth).toBeGreaterThanOrEqual(0);
      }
      expect(depth, e.key).toBe(0);
    }
  });

  it('CSL-JSON has id, type, title, authors and issued', () => {
    const csl = toCslJson(entry({ key: 'a', type: 'inproceedings', year: 2023, booktitle: 'Proc', pages: '1--2', doi: '10.1/x' }));
    expect(csl).toMatchObject({ id: 'a', type: 'paper-conference', title: 'A Title', author: [{ family: 'Smith', given: 'Ann' }], issued: { 'date-parts': [[2023]] }, 'container-title': 'Proc', page: '1-2', DOI: '10.1/x' });
  });
});

describe('a BibTeX library entry as a CSL item (toCslJson)', () => {
  const lib = { uri: 'file:///lib.bib', name: 'lib.bib' };
  const raw = (type: string, fields: Record<string, string>) => entryFromBibtex({ key: 'k', type, fields, start: 0, end: 0, line: 1 }, lib);

  it('a book\'s publisher is its publisher, not a container it is "in" (found on spdep\'s vignettes in the preview against pandoc)', () => {
    const item = toCslJson(raw('book', { title: 'Interactive Spatial Data Analysis', author: 'Bailey, T. C.', publisher: 'Longman', year: '1995', edition: '2nd', series: 'Lecture Notes' }));
    expect(item['container-title']).toBeUndefined();
    expect(item).toMatchObject({ type: 'book', publisher: 'Longman', edition: '2nd', 'collection-title': 'Lecture Notes' });
  });

  it('a report\'s institution and a thesis\'s school are their publisher; a chapter is in its book', () => {
    expect(toCslJson(raw('techreport', { title: 'T', institution: 'MathSoft Inc.', year: '1996' }))).toMatchObject({ type: 'report', publisher: 'MathSoft Inc.' });
    expect(toCslJson(raw('phdthesis', { title: 'T', school: 'MIT', year: '1996' }))).toMatchObject({ type: 'thesis', publisher: 'MIT' });
    expect(toCslJson(raw('incollection', { title: 'T', booktitle: 'Discrete Geometry', publisher: 'NYAS', year: '1985' }))).toMatchObject({ 'container-title': 'Discrete Geometry', publisher: 'NYAS' });
  });
});
