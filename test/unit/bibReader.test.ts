/**
 * The one BibTeX reader on the minimal inputs of the defects it had (fixtures/defects/bib-*.bib,
 * each named for what it broke): issue 21, causes 4 and 5; issue 20, findings 8 and 14. Each
 * expectation is what BibTeX 0.99d and biber read from the same bytes (the differential test
 * checks that on TeX Live's files).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBib } from '../../src/core/bibliography/bibtexFile.js';
import { BibtexLibraryReader } from '../../src/core/bibliography/readBibtex.js';
import { problemMessage } from '../../src/core/text/problemText.js';
import { worded } from './problemWords.js';

const read = (name: string) => readFileSync(join(__dirname, 'fixtures/defects', name), 'utf8');
const keys = (text: string) => parseBib(text).entries.map((e) => e.key);
const problems = (text: string) => (parseBib(text).problems ?? []).map((p) => [p.line, p.column, p.severity]);

describe('a malformed entry costs that entry only (issue 21, cause 4)', () => {
  it('@Manual{, …} with no key before valid entries: the others are read, one error at its line', () => {
    const text = read('bib-empty-key-before-entries.bib');
    expect(keys(text)).toEqual(['meurer2017', 'numpy']);
    expect(problems(text)).toEqual([[1, 1, 'error']]);
    expect(problemMessage(parseBib(text).error!)).toBe('no citation key (expected "@type{key,"); this @Manual entry is skipped');
  });
  it('an unclosed @misc{simon2012, Year={2012}, takes the next entry with it, as BibTeX does, and no more', () => {
    const text = read('bib-unclosed-entry-takes-next.bib');
    // BibTeX reads "@article" as a field name of simon2012, fails at its "{" and looks for the next
    // "@"; simon2012 itself stays, with its Year (BibTeX 0.99d writes \bibitem{simon2012}).
    expect(keys(text)).toEqual(['simon2012', 'kept2014']);
    expect(worded(parseBib(text).problems)).toEqual([{
      line: 1, column: 1, severity: 'error', message: 'expected "=" after the field name @article, found "{" (line 3); entry simon2012 is read up to there, as BibTeX reads it (its key counts)',
    }]);
  });
});

describe('entry types, field names and line endings as BibTeX reads them (issue 21, cause 5)', () => {
  it('@commentary (biblatex) and @COMMENTED (jurabib) are entries; only @comment itself is a comment', () => {
    const r = parseBib(read('bib-comment-prefixed-types.bib'));
    expect(r.entries.map((e) => [e.key, e.type])).toEqual([['kommentar', 'commentary'], ['jura', 'commented'], ['after', 'misc']]);
    expect(r.problems).toEqual([]);
  });
  it('field names with "." and "/" (max.best.papers, url/doi) are field names', () => {
    const r = parseBib(read('bib-field-name-dots-slashes.bib'));
    expect(r.entries.map((e) => [e.key, Object.keys(e.fields)])).toEqual([['dots', ['max.best.papers', 'url/doi', 'title']], ['next', ['title']]]);
    expect(r.problems).toEqual([]);
  });
  it('a broken entry does not take the entries after it on the same line', () => {
    const text = read('bib-broken-entry-then-same-line.bib');
    // The broken entry keeps its key, as BibTeX keeps it (its .bbl has \bibitem{bad}).
    expect(keys(text)).toEqual(['bad', 'same.line', 'last']);
    expect(problems(text)).toEqual([[1, 1, 'error']]);
  });
  it('lone-CR line endings: the problem on its own line, and the broken entry takes nothing else', () => {
    const text = read('bib-lone-cr-broken-entry.bib');
    expect(text).not.toContain('\n');
    expect(parseBib(text).entries.map((e) => [e.key, e.line])).toEqual([['one', 1], ['broken', 2], ['two', 3], ['three', 4]]);
    expect(problems(text)).toEqual([[2, 1, 'error']]);
    // The same bytes with LF read the same.
    expect(parseBib(text.replace(/\r/g, '\n'))).toEqual(parseBib(text));
    // Progress counts its entry lines too.
    const r = new BibtexLibraryReader(text);
    r.read();
    expect([r.total, r.done]).toEqual([4, 4]);
  });
});

describe('hostile names and sizes (issue 20, finding 14)', () => {
  it('@string{__proto__ = …} and @string{constructor = …} are defined like any macro: no false "undefined macro"', () => {
    const r = parseBib(read('bib-string-proto.bib'));
    expect(r.problems).toEqual([]);
    expect(r.entries[0]!.fields).toEqual({ journal: 'Proto Journal', publisher: 'Built', title: 'T' });
    const reader = new BibtexLibraryReader(read('bib-string-proto.bib'));
    reader.read();
    expect(Object.getPrototypeOf(reader.macros)).toBeNull();
    expect(reader.macros.__proto__).toBe('Proto Journal');
  });
  it('a 9 MB field: the entry is read without it, with a problem naming the field', () => {
    const text = `@misc{big,\n  title = {Big},\n  abstract = {${'x'.repeat(9_000_000)}},\n  year = 2024}\n@misc{after, title = {After}}\n`;
    const r = parseBib(text);
    expect(r.entries.map((e) => [e.key, e.fields])).toEqual([['big', { title: 'Big', year: '2024' }], ['after', { title: 'After' }]]);
    expect(worded(r.problems)).toEqual([{ line: 3, column: 3, severity: 'warning', message: 'field abstract of entry big is longer than 100,000 characters; the field is left out' }]);
  });
});

describe('an entry commented out with % (biblatex-apa\'s test file, real documents set 2)', () => {
  // biblatex-apa-test-references.bib (Debian texlive-doc) keeps a commented-out copy of 10.1:18
  // before the real entry; biber skips it as a comment, and the real entry is the one cited.
  const text = [
    '% A simpler way would be:', '%@ARTICLE{10.1:18,', '%  AUTHOR         = {{KS in NJ}},', '%  TITLE          = {Old},', '%}', '',
    '@ARTICLE{10.1:18,', '  AUTHOR         = {{KS in NJ}},', '  TITLE          = {New},', '  RELATED        = {10.1:18r},', '}', '',
    '  %% @misc{gone, title = {x}}', '@misc{after, title = {%@ inside a value}}', '',
  ].join('\n');
  it('skips the commented line and reads the real entry, in a document\'s bibliography and in a library', () => {
    const bib = parseBib(text);
    expect(bib.entries.map((e) => [e.key, e.fields.title])).toEqual([['10.1:18', 'New'], ['after', '%@ inside a value']]);
    expect(bib.problems).toEqual([]);
    const r = new BibtexLibraryReader(text);
    r.read();
    expect(r.entries.map((e) => e.key)).toEqual(['10.1:18', 'after']);
  });
  it('keeps the keys of the commented-out entries apart: BibTeX, which has no comment syntax, reads them', () => {
    expect(parseBib(text).commented).toEqual(['10.1:18', 'gone']);
  });
  it('still reads an @ after other text on its line, as BibTeX does', () => {
    expect(parseBib('see % note @misc{x, title = {T}}\n').entries.map((e) => e.key)).toEqual(['x']);
  });
});
