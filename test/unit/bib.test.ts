import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  duplicateKeys, findBibKey, findBibKeys, MAX_BIB_EXPANSION, parseBib,
} from '../../src/core/bibliography/bibtexFile.js';
import { latexBibliographies, planLatexBibDeclaration, texRootOf } from '../../src/core/latex/bibDeclarations.js';
import { bibliographyDeclarations, markdownBibliographies, planMarkdownBibDeclaration } from '../../src/core/markdown/frontMatter.js';
import { planBibAddition, planBibAppend, planBibSync } from '../../src/core/bibliography/planAdditions.js';
import { applySplices } from '../../src/core/bibliography/fileEdit.js';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import { entry, onlySplice, realCorpus } from './helpers.js';
import { problemMessage } from '../../src/core/text/problemText.js';
import { worded } from './problemWords.js';

const FIX = join(__dirname, 'fixtures/bib');
const read = (name: string) => readFileSync(join(FIX, name), 'utf8');
const apply = (text: string, ins: { offset: number; length?: number; text: string }) => applySplices(text, [{ length: 0, ...ins }]);
const kwon = () => realCorpus().entry('kwon2023efficient')!;
const orca = () => realCorpus().entry('yu2022orca')!;

describe('.bib parsing', () => {
  it('reads entries through comments, @string, @preamble and @comment, expanding macros', () => {
    const { entries, error } = parseBib(read('comments-strings.bib'));
    expect(error).toBeUndefined();
    expect(entries.map((e) => e.key)).toEqual(['yu2022orca', 'paged']);
    expect(entries[0]!.fields.booktitle).toBe('OSDI');
    expect(entries[1]!.fields.doi).toBe('10.1145/3600006.3613165');
  });
  it('reads a file with a BOM and CRLF line endings', () => {
    expect(parseBib(read('bom-crlf.bib')).entries.map((e) => e.key)).toEqual(['a1']);
  });
  it('says where a broken file breaks, and keeps the entries that read, and the key of an entry broken after it, as BibTeX does', () => {
    const { entries, error } = parseBib(read('broken.bib'));
    expect(entries.map((e) => e.key)).toEqual(['ok1', 'broken']);
    expect(entries[1]).toMatchObject({ key: 'broken', partial: true, line: 5 });
    expect(error).toMatchObject({ line: 5, column: 1 });
    expect(error && problemMessage(error)).toBe('not closed: the file ends inside it (a "{" in it may lack its "}"); entry broken is read up to there, as BibTeX reads it (its key counts)');
    const two = parseBib('@misc{a, title = {x}}\n@misc{b title = {y}}\n');
    expect(two.entries.map((e) => e.key)).toEqual(['a', 'b']);
    expect(worded(two.error)).toMatchObject({ line: 2, column: 1, message: 'expected "," after the key b, found "t"; entry b is read up to there, as BibTeX reads it (its key counts)' });
  });
  it('finds a key definition and duplicate keys (ignoring case)', () => {
    const text = read('comments-strings.bib');
    expect(text.slice(findBibKey(text, 'paged'), findBibKey(text, 'paged') + 5)).toBe('paged');
    expect(findBibKey(text, 'nope')).toBe(-1);
    expect([...duplicateKeys(parseBib(read('dupkeys.bib')).entries).keys()]).toEqual(['same']);
    expect(findBibKeys(read('dupkeys.bib'), 'same')).toEqual([6, 33]);
  });
});

describe('@string macros that expand too far', () => {
  /** `@string{a0 = "xx"}`, then `levels` lines that each double the previous macro, then an entry using the last. */
  const doubling = (levels: number, base = '"xx"') => {
    const lines = [`@string{a0 = ${base}}`];
    for (let i = 1; i <= levels; i++) lines.push(`@string{a${i} = a${i - 1} # a${i - 1}}`);
    return [...lines, `@article{k, title = a${levels}}`].join('\n');
  };
  it('reads 26 doublings (a 134-million-character title) as BibTeX would not: the first @string over 100,000 characters is empty, with an error', () => {
    const text = doubling(26);
    expect(text).toHaveLength(664);
    // a16 is "xx" doubled 16 times: 131,072 characters
    const parsed = parseBib(text);
    expect(worded(parsed.error)).toEqual({ line: 17, column: 1, message: '@string a16 expands to more than 100,000 characters; it is read as empty' });
    expect(parsed.entries.map((e) => [e.key, e.fields.title])).toEqual([['k', '']]);
    expect(parseBib(`\uFEFF${doubling(26).replace(/\n/g, '\r\n')}`).error).toMatchObject({ line: 17, column: 1 });
    // 15 doublings (65,536 characters) are read
    expect(parseBib(doubling(15)).entries[0]!.fields.title).toHaveLength(65_536);
  });
  it('a field or @preamble that expands too far: the field is left out (a warning), the @preamble is an error', () => {
    const big = 'x'.repeat(60_000);
    const field = `@string{big = {${big}}}\n@preamble{"x"}\n@misc{k,\n  year = 2020,\n  title = BIG # { and } # big}`;
    const parsed = parseBib(field);
    expect(worded(parsed.error)).toBeUndefined();
    expect(parsed.entries[0]!.fields).toEqual({ year: '2020' });
    expect(worded(parsed.problems)).toEqual([{ line: 5, column: 3, severity: 'warning', message: 'field title of entry k is longer than 100,000 characters; the field is left out' }]);
    expect(worded(parseBib(`@string{big = "${big}"}\n@preamble{ big # big }`).error)).toMatchObject({ line: 2, column: 1, message: expect.stringMatching(/^@preamble expands/) });
    // `constructor` and `__proto__` are names like any other (issue 20, finding 14): undefined until defined
    expect(parseBib('@misc{k, title = constructor}').problems!.map((p) => problemMessage(p))).toEqual(['undefined macro constructor (no @string defines it); it is read as empty']);
    const proto = parseBib('@string{__proto__ = {Proto}}\n@string{Constructor = {Built}}\n@misc{k, title = __PROTO__ # { } # constructor}');
    expect(proto.problems).toEqual([]);
    expect(proto.entries[0]!.fields.title).toBe('Proto Built');
    // the default macros: jan is "01", ieeetcad 65 characters (68 in all)
    expect(parseBib(doubling(10, 'jan # " " # ieeetcad')).entries[0]!.fields.title).toHaveLength(68 * 1024);
    expect(problemMessage(parseBib(doubling(11, 'jan # " " # ieeetcad')).error!)).toBe('@string a11 expands to more than 100,000 characters; it is read as empty');
  });
  it('stops reading, with an error, once the fields pass ten times the file\'s length plus 1,000,000', () => {
    const entries = Array.from({ length: 40 }, (_, i) => `@misc{k${i}, title = m}`);
    const text = `@string{m = {${'x'.repeat(99_000)}}}\n${entries.join('\n')}\n`;
    const parsed = parseBib(text);
    // the budget is 10 × 99,886 + 1,000,000 characters: the 21st entry (99,000 each) passes it
    expect(worded(parsed.error)).toEqual({ line: 22, column: 1, message: 'the fields of this file expand to more than 1,998,860 characters through @string macros; reading stopped here' });
    expect(parsed.entries).toHaveLength(20);
    expect(parseBib(`@string{m = {${'x'.repeat(99_000)}}}\n${entries.slice(0, 20).join('\n')}\n`).entries).toHaveLength(20);
  });
  it('reads ordinary @string use as before: months, journal abbreviations, concatenation', () => {
    const text = [
      '@String{j-CACM = "Communications of the {ACM}"}',
      '@string{pub-ACM:adr = "New York, NY, USA"}',
      '@STRING(ACM = "Association for Computing Machinery")',
      '@article{a, journal = J-cacm, month = jan # "~1", publisher = acm, address = pub-acm:adr, volume = 12, note = "see " # cacm}',
    ].join('\n');
    const { entries, error } = parseBib(text);
    expect(error).toBeUndefined();
    expect(entries[0]!.fields).toMatchObject({
      journal: 'Communications of the {ACM}', month: '01~1', publisher: 'Association for Computing Machinery',
      address: 'New York, NY, USA', volume: '12', note: 'see Communications of the ACM',
    });
    expect(MAX_BIB_EXPANSION).toBe(100_000);
  });
});

describe('appending to a .bib touches nothing else', () => {
  const bib = '@misc{x,\n  title = {X}\n}\n';
  it.each([
    ['comments-strings.bib'], ['bom-crlf.bib'], ['no-final-newline.bib'],
  ])('%s keeps every existing byte and its line endings', (name) => {
    const text = read(name);
    const plan = planBibAppend(text, bib);
    const out = apply(text, plan);
    expect(out.startsWith(text)).toBe(true);
    expect(plan.offset).toBe(text.length);
    const crlf = text.includes('\r\n');
    expect(plan.text.includes('\r\n')).toBe(crlf);
    if (!crlf) expect(plan.text.includes('\r')).toBe(false);
    expect(parseBib(out).entries.map((e) => e.key)).toContain('x');
  });
  it('separates the new entry by exactly one blank line', () => {
    expect(apply('@misc{a, title={A}}\n', planBibAppend('@misc{a, title={A}}\n', bib))).toBe('@misc{a, title={A}}\n\n@misc{x,\n  title = {X}\n}\n');
    expect(apply('@misc{a, title={A}}', planBibAppend('@misc{a, title={A}}', bib))).toBe('@misc{a, title={A}}\n\n@misc{x,\n  title = {X}\n}\n');
    expect(apply('', planBibAppend('', bib))).toBe(bib);
    // A file holding only a BOM is empty: the entries follow it with no blank line.
    expect(apply('\uFEFF', planBibAppend('\uFEFF', bib))).toBe(`\uFEFF${bib}`);
  });
});

describe('bibliography declarations', () => {
  it('reads \\bibliography, \\addbibresource and ignores commented ones', () => {
    expect(latexBibliographies('\\bibliography{refs, more}\n% \\bibliography{old}\n\\addbibresource[label=x]{lib/main.bib}')).toEqual([
      { path: 'refs.bib', via: 'bibtex' }, { path: 'more.bib', via: 'bibtex' }, { path: 'lib/main.bib', via: 'biblatex', label: 'x' },
    ]);
  });
  it('reads the root magic comment', () => {
    expect(texRootOf('% !TEX root = ../main.tex\n\\section{A}')).toBe('../main.tex');
    expect(texRootOf('%!TeX root=main.tex')).toBe('main.tex');
    expect(texRootOf('\\section{A}')).toBeUndefined();
  });
  it('reads the front matter bibliography as a string or a list', () => {
    expect(markdownBibliographies('---\ntitle: x\nbibliography: refs.bib\n---\n# A')).toEqual([{ path: 'refs.bib', via: 'pandoc' }]);
    expect(markdownBibliographies('---\nbibliography:\n  - a.bib\n  - b.json\n---\n')).toEqual([{ path: 'a.bib', via: 'pandoc' }, { path: 'b.json', via: 'pandoc' }]);
    expect(markdownBibliographies('# no front matter\nbibliography: x.bib')).toEqual([]);
  });
  it('reads a `bibliography:` value: a string, a list (skipping non-strings), or nothing else', () => {
    expect(bibliographyDeclarations('refs.bib')).toEqual([{ path: 'refs.bib', via: 'pandoc' }]);
    expect(bibliographyDeclarations(['a.bib', 3, 'b.json'])).toEqual([{ path: 'a.bib', via: 'pandoc' }, { path: 'b.json', via: 'pandoc' }]);
    expect(bibliographyDeclarations({ file: 'x.bib' })).toEqual([]);
    expect(bibliographyDeclarations(undefined)).toEqual([]);
  });
  it('declares a new bibliography in LaTeX (BibTeX and biblatex) and Markdown', () => {
    const tex = '\\documentclass{article}\n\\begin{document}\nHi.\n\\end{document}\n';
    expect(planLatexBibDeclaration(tex, 'references.bib')!.reduceRight((t, i) => apply(t, i), tex))
      .toBe('\\documentclass{article}\n\\begin{document}\nHi.\n\\bibliographystyle{plain}\n\\bibliography{references}\n\\end{document}\n');
    const blx = '\\documentclass{article}\n\\usepackage[style=ieee]{biblatex}\n\\begin{document}\nHi.\n\\end{document}\n';
    expect(planLatexBibDeclaration(blx, 'references.bib')!.reduceRight((t, i) => apply(t, i), blx))
      .toBe('\\documentclass{article}\n\\usepackage[style=ieee]{biblatex}\n\\addbibresource{references.bib}\n\\begin{document}\nHi.\n\\printbibliography\n\\end{document}\n');
    expect(planLatexBibDeclaration('no end', 'r.bib')).toBeUndefined();
    expect(apply('---\ntitle: A\n---\nText', planMarkdownBibDeclaration('---\ntitle: A\n---\nText', 'references.bib'))).toBe('---\ntitle: A\nbibliography: references.bib\n---\nText');
    expect(apply('# Notes\n', planMarkdownBibDeclaration('# Notes\n', 'references.bib'))).toBe('---\nbibliography: references.bib\n---\n\n# Notes\n');
  });
});

describe('planBibSync', () => {
  it('adds what is missing, keeps what is there, and reuses a work found under another key', () => {
    const source = readBibFile('refs.bib', read('comments-strings.bib'))!;
    const other = entry({ key: 'smith2020thing', title: 'A Thing' });
    const plan = planBibSync([orca(), kwon(), other], [source]);
    expect(plan.add.map((e) => e.key)).toEqual(['smith2020thing']);
    expect(plan.citeAs.get('yu2022orca')).toBe('yu2022orca');
    expect(plan.citeAs.get('kwon2023efficient')).toBe('paged'); // same DOI
    expect(plan.reused).toEqual([{ entry: kwon(), key: 'paged', path: 'refs.bib' }]);
  });
  it('recognises the same work by its title alone, whatever its case and braces', () => {
    const source = readBibFile('refs.bib', '@misc{mykey, title = {{Orca}: A distributed serving system for {Transformer-Based} generative models}}\n')!;
    const plan = planBibSync([orca()], [source]);
    expect(plan.citeAs.get('yu2022orca')).toBe('mykey');
    expect(plan.add).toEqual([]);
  });
  it('appends to CSL-JSON and CSL YAML in their own shape', () => {
    const json = readBibFile('refs.json', read('refs.json'))!;
    expect(json.entries.map((e) => e.key)).toEqual(['yu2022orca']);
    const outJson = apply(json.text, onlySplice(planBibAddition(json, [kwon()])));
    const items = JSON.parse(outJson) as { id: string }[];
    expect(items.map((i) => i.id)).toEqual(['yu2022orca', 'kwon2023efficient']);
    expect(outJson.startsWith(json.text.slice(0, json.text.lastIndexOf('}') + 1))).toBe(true);
    const yaml = readBibFile('refs.yaml', read('refs.yaml'))!;
    const outYaml = apply(yaml.text, onlySplice(planBibAddition(yaml, [kwon()])));
    expect(readBibFile('refs.yaml', outYaml)!.entries.map((e) => e.key)).toEqual(['yu2022orca', 'kwon2023efficient']);
    expect(outYaml.startsWith(yaml.text)).toBe(true);
  });
  it('reports a broken CSL-JSON file instead of appending', () => {
    expect(readBibFile('x.json', '[{"id": "a",]')!.error).toBeDefined();
  });
});
