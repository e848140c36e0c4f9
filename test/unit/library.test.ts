/**
 * The user's own libraries (`core/library/`): LaTeX field values as text, BibTeX names, the
 * error-tolerant `.bib` reader, conversion of BibTeX entries and CSL items to entries, the CSL-JSON
 * and CSL-YAML readers, loading in slices and the cache's round trip, library search, and hostile
 * inputs (read right here; their time, as growth ratios, is bounded in the serial run:
 * test/perf/library.perf.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLongLineRead, oneLongLine, spansOf } from './generatedLibraries.js';
import { maxTotalBibExpansion } from '../../src/core/bibliography/bibtexFile.js';
import { BibtexLibraryReader, readEntryAt } from '../../src/core/bibliography/readBibtex.js';
import { lineAt, lineStarts, readCslJsonLibrary } from '../../src/core/bibliography/readCslJson.js';
import { readCslYamlLibrary } from '../../src/core/bibliography/readCslYaml.js';
import { bibtexPerson, entryFromBibtex, entryFromCsl, splitNames } from '../../src/core/library/entries.js';
import { LIBRARY_CACHE_VERSION, libraryFromJson, libraryJsonPieces, libraryToJson } from '../../src/core/library/libraryCacheFormat.js';
import { LibraryLoader, loadLibrary, type LoadedLibrary } from '../../src/core/library/loadLibrary.js';
import { LIBRARY_INDEX_VERSION, LibraryIndex } from '../../src/core/search/library/libraryIndex.js';
import { texToText } from '../../src/core/bibliography/texToText.js';
import { CURATION_FIELDS } from '../../src/core/corpus/schema.js';
import { parseQuery } from '../../src/core/search/queryLanguage.js';
import { bibFormatOf } from '../../src/core/workspace/bibFormat.js';
import { problemMessage } from '../../src/core/text/problemText.js';
import { worded } from './problemWords.js';

const FIX = join(__dirname, 'fixtures/library');
const read = (name: string) => readFileSync(join(FIX, name), 'utf8');
const REF = { uri: 'file:///home/me/refs.bib', name: 'refs.bib' };

/** Reads a whole `.bib` text at once. */
function readBib(text: string): BibtexLibraryReader {
  const r = new BibtexLibraryReader(text);
  expect(r.read()).toBe(true);
  return r;
}
const keysOf = (r: { entries: readonly { key: string }[] }) => r.entries.map((e) => e.key);
const raw = (fields: Record<string, string>, over: { key?: string; type?: string; line?: number } = {}) =>
  ({ key: over.key ?? 'k', type: over.type ?? 'article', fields, start: 0, end: 0, line: over.line ?? 1 });

describe('texToText: LaTeX field values as plain text', () => {
  it.each([
    ['{\\"o}', 'ö'],
    ['\\"{o}', 'ö'],
    ['\\"o', 'ö'],
    ["\\'e", 'é'],
    ["\\'{e}", 'é'],
    ['\\c{c}', 'ç'],
    ['\\c c', 'ç'],
    ['Gar\\c{c}on', 'Garçon'],
    ['\\ss', 'ß'],
    ['Stra\\ss e', 'Straße'],
    ['Stra\\ss{}e', 'Straße'],
    ['pages 1--10', 'pages 1–10'],
    ['yes---no', 'yes—no'],
    ['Fig.~3', 'Fig. 3'],
    ['\\emph{x}', 'x'],
    ['\\textbf{Bold} and \\textit{italic}', 'Bold and italic'],
    ['Design \\& Implementation', 'Design & Implementation'],
    ['$x^2$', 'x^2'],
    ['Scaling as $O(n^2)$ in memory', 'Scaling as O(n^2) in memory'],
    ['{{{Nested}}} {braces {inside {groups}}}', 'Nested braces inside groups'],
    ['\\unknowncommand{Word} stays', 'Word stays'],
    ['a \\relax b', 'a b'],
    ['Schr{\\"o}dinger\'s {GPU} --- a \\emph{study}', 'Schrödinger\'s GPU — a study'],
    ["{\\'\\i}", 'í'],
    ['\\"{\\i}', 'ï'],
    ['\\v{s}', 'š'],
    ['\\H{o}', 'ő'],
    ['\\o', 'ø'],
    ['{\\AA}ngstr{\\"o}m and \\aa', 'Ångström and å'],
    ['50\\% of \\$5, a\\_b, \\#1', '50% of $5, a_b, #1'],
    ['``quoted\'\'', '“quoted”'],
    ['a\\textendash b', 'a–b'],
    ['first\\\\second', 'first second'],
    ['  runs \n of\t\twhite   space ', 'runs of white space'],
  ])('%s → %s', (tex, text) => {
    expect(texToText(tex)).toBe(text);
  });

  it('keeps math as typed except Greek letters, which become their characters', () => {
    expect(texToText('$\\alpha$-divergence and $\\beta$-VAE')).toBe('α-divergence and β-VAE');
    expect(texToText('{$\\Omega$}-Scheduling')).toBe('Ω-Scheduling');
  });
  it('reads spacing and hyphenation commands as spacing, not as characters', () => {
    expect(texToText('Mega\\-tron')).toBe('Megatron');
    expect(texToText('10\\,GB')).toBe('10 GB');
    expect(texToText('italic\\/ correction')).toBe('italic correction');
  });
  it('keeps a group\'s other letters after a diacritic and drops an accent on nothing', () => {
    expect(texToText('\\t{oo}')).toBe('o\u0361o');
    expect(texToText('a\\"{}b')).toBe('ab');
    expect(texToText("x\\'{}")).toBe('x');
  });
  it('keeps the text of \\href, the logos, \\dots', () => {
    expect(texToText('see \\href{https://example.org/a_b}{the site}')).toBe('see the site');
    expect(texToText('Writing \\LaTeX{} and \\TeX\\ documents')).toBe('Writing LaTeX and TeX documents');
    expect(texToText('A, B, \\dots')).toBe('A, B, …');
  });
  it('reads commands named like Object\'s properties as unknown commands', () => {
    expect(texToText('\\constructor{x} \\toString y \\"\\valueOf z')).toBe('x y z');
    expect(texToText('\\hasOwnProperty')).toBe('');
  });
  it('gives composed (NFC) characters', () => {
    const out = texToText('\\"u\\\'e\\^o\\~n\\`a\\=a\\u{g}\\v{c}\\k{a}\\r{u}\\.{z}');
    expect(out).toBe('üéôñàāğčąůż');
    expect(out).toBe(out.normalize('NFC'));
  });
  it('reads at most `max` characters', () => {
    expect(texToText('abcdefgh', 4)).toBe('abcd');
    expect(texToText(`${'x'.repeat(5000)}`)).toHaveLength(4000);
    expect(texToText('{\\"o}'.repeat(2000))).toHaveLength(800);
  });
  it('does not throw on broken LaTeX', () => {
    for (const s of ['$unclosed math', '\\', 'a\\', '\\"', '{', '}}}', '\\c', '\\c{', '\\"{\\', '\\href{', '{\\"', '\\t{o']) {
      expect(() => texToText(s), s).not.toThrow();
    }
    expect(texToText('$unclosed math')).toBe('unclosed math');
  });
  it('reads only the start of a huge field: a 100,000- and a 1,000,000-character field give the same text', () => {
    // That both take about as long is the serial run's (test/perf/library.perf.test.ts).
    const unit = '{\\"o}\\emph{x}--{{y}} \\c{c}\\unknown plain words here ';
    const a = unit.repeat(Math.ceil(100_000 / unit.length));
    const b = unit.repeat(Math.ceil(1_000_000 / unit.length));
    expect(texToText(b)).toBe(texToText(a));
  });
});

describe('BibTeX names', () => {
  it('splits a name list on "and" outside braces, whatever the white space and case', () => {
    expect(splitNames('Kwon, Woosuk and Li, Zhuohan')).toEqual(['Kwon, Woosuk', 'Li, Zhuohan']);
    expect(splitNames('Kwon\nand\tLi AND Zhuang')).toEqual(['Kwon', 'Li', 'Zhuang']);
    expect(splitNames('{Barnes and Noble} and Alexander Anderson')).toEqual(['{Barnes and Noble}', 'Alexander Anderson']);
    expect(splitNames('Sandy Anderson')).toEqual(['Sandy Anderson']);
    expect(splitNames('')).toEqual([]);
  });
  it.each([
    ['Kwon, Woosuk', { given: 'Woosuk', family: 'Kwon' }],
    ['Woosuk Kwon', { given: 'Woosuk', family: 'Kwon' }],
    ['Woosuk~Kwon', { given: 'Woosuk', family: 'Kwon' }],
    ['van der Berg, Jan', { given: 'Jan', family: 'van der Berg' }],
    ['Jan van der Berg', { given: 'Jan', family: 'van der Berg' }],
    ['Ludwig van Beethoven', { given: 'Ludwig', family: 'van Beethoven' }],
    ['Smith, Jr., John', { given: 'John', family: 'Smith' }],
    ['Aristotle', { given: '', family: 'Aristotle' }],
    ['{OpenAI}', { literal: 'OpenAI' }],
    ['{The vLLM Team}', { literal: 'The vLLM Team' }],
    ['{\\"U}nal, Ay{\\c{s}}e', { given: 'Ayşe', family: 'Ünal' }],
    ['Ay{\\c{s}}e {\\"U}nal', { given: 'Ayşe', family: 'Ünal' }],
    ['Gonzalez, Joseph E.', { given: 'Joseph E.', family: 'Gonzalez' }],
  ])('%s', (name, person) => {
    expect(bibtexPerson(name)).toEqual(person);
  });
  it('drops "others" from an author list and falls back to the editors', () => {
    expect(entryFromBibtex(raw({ author: 'Kwon, Woosuk and Li, Zhuohan' }), REF).authors).toEqual([
      { given: 'Woosuk', family: 'Kwon' }, { given: 'Zhuohan', family: 'Li' },
    ]);
    expect(entryFromBibtex(raw({ author: 'Woosuk Kwon and others' }), REF).authors).toEqual([{ given: 'Woosuk', family: 'Kwon' }]);
    expect(entryFromBibtex(raw({ editor: 'van der Berg, Jan and {OpenAI}' }), REF).authors).toEqual([
      { given: 'Jan', family: 'van der Berg' }, { literal: 'OpenAI' },
    ]);
    expect(entryFromBibtex(raw({ author: '{\\"U}nal, Ay{\\c{s}}e' }), REF).authors).toEqual([{ given: 'Ayşe', family: 'Ünal' }]);
  });
});

describe('BibtexLibraryReader', () => {
  it('reads every good entry with its line and offsets, and one problem per broken entry, resuming at the next line that starts with @', () => {
    const text = [
      '@misc{a, title = {A}}', //                         1
      '@misc{b title = {B}}', //                          2: no comma after the key
      '@article{c,', //                                   3
      '  title = "C" # { and } # {D},', //                4
      '  year = 2020', //                                 5
      '}', //                                             6
      '@misc{d, title = {unclosed', //                    7
      '@misc{e, title = {E}}', //                         8
      '  @misc{f, title = {F}, !! }', //                  9: garbage
      '@misc{g, title = {G}}', //                         10
    ].join('\n');
    const r = readBib(text);
    expect(r.entries.map((e) => [e.key, e.line, e.type, e.fields])).toEqual([
      ['a', 1, 'misc', { title: 'A' }],
      ['c', 3, 'article', { title: 'C and D', year: '2020' }],
      ['e', 8, 'misc', { title: 'E' }],
      ['g', 10, 'misc', { title: 'G' }],
    ]);
    expect(r.problems.map((p) => [p.line, p.column, p.severity])).toEqual([[2, 1, 'error'], [7, 1, 'error'], [9, 3, 'error']]);
    expect(problemMessage(r.problems[0]!)).toBe('expected "," after the key b, found "t"; entry b is left out (BibTeX keeps it with the fields before that)');
    expect(problemMessage(r.problems[1]!)).toBe('not closed: a "{" is still open where the next entry starts; entry d is left out (BibTeX keeps it with the fields before that)');
    for (const e of r.entries) {
      expect(text[e.start]).toBe('@');
      expect(text[e.end - 1]).toBe('}');
      expect(text.slice(e.start, e.end)).toMatch(new RegExp(`^@\\w+\\{${e.key},[^]*\\}$`));
    }
    expect(text.slice(r.entries[1]!.start, r.entries[1]!.end)).toBe(text.split('\n').slice(2, 6).join('\n'));
    expect(r.total).toBe(7);
  });

  it('expands @string macros (case-insensitive, redefined in file order) and the month macros, and notes where each is defined', () => {
    const text = '@STRING{ Conf = "OSDI" }\n@misc{a, booktitle = conf # "~" # 2022, month = jan}\n@string(conf = {SOSP})\n@misc{b, booktitle = CONF, month = Dec}\n';
    const r = readBib(text);
    expect(r.entries.map((e) => e.fields)).toEqual([
      { booktitle: 'OSDI~2022', month: '01' },
      { booktitle: 'SOSP', month: '12' },
    ]);
    expect(r.macros.conf).toBe('SOSP');
    const at = r.strings.get('conf')!;
    expect(text.slice(at.start, at.end)).toBe('@string(conf = {SOSP})');
    expect(r.problems).toEqual([]);
  });

  it('skips @comment blocks (JabRef\'s metadata), % comment lines, junk between entries and @preamble', () => {
    const text = [
      '% Encoding: UTF-8',
      'Some notes between entries, with = and # and }}.',
      '@preamble{"\\newcommand{\\noop}[1]{}"}',
      '@misc{a,',
      '  % a comment between fields',
      '  title = {A}, % and after one',
      '}',
      '@Comment{jabref-meta: databaseType:bibtex;}',
      '@Comment{jabref-meta: grouping:',
      '0 AllEntriesGroup:;',
      '1 StaticGroup:Serving\\;0\\;1\\;\\;\\;\\;;',
      '}',
      '@comment this line is a comment too',
      '@misc{b, title = {B}}',
    ].join('\n');
    const r = readBib(text);
    expect(r.entries.map((e) => [e.key, e.line, e.fields])).toEqual([['a', 4, { title: 'A' }], ['b', 14, { title: 'B' }]]);
    expect(r.problems).toEqual([]);
  });

  it('reads CRLF files with the same lines, keeping CRLF inside values', () => {
    const text = '@misc{a,\r\n  title = {One\r\n  Two}}\r\n\r\n@misc{b, title = {B}}\r\n';
    const r = readBib(text);
    expect(r.entries.map((e) => [e.key, e.line, e.fields.title])).toEqual([['a', 1, 'One\r\n  Two'], ['b', 5, 'B']]);
  });

  it('reads the first entry of a file that starts with a BOM', () => {
    const text = '\uFEFF@misc{first, title = {First}}\r\n@misc{second, title = {Second}}\r\n';
    const r = readBib(text);
    expect(r.entries.map((e) => [e.key, e.line])).toEqual([['first', 1], ['second', 2]]);
    expect(r.problems).toEqual([]);
    // a broken first entry after a BOM is a problem, not silence
    expect(readBib('\uFEFF@misc{first title = {First}}\n@misc{second, title = {Second}}\n').problems.map((p) => p.line)).toEqual([1]);
  });

  it('reads an entry that follows other text on the first line', () => {
    // BibTeX (and Citation.js, parseBib) read everything from an @; text before it is a comment.
    const r = readBib('Exported 2024-05-01: @misc{a, title = {A}}\n@misc{b, title = {B}}\n');
    expect(keysOf(r)).toEqual(['a', 'b']);
  });

  it('keeps a good entry that shares its line with a broken one', () => {
    const r = readBib('@misc{a, title = {A}} @misc{b title = {B}}\n@misc{c, title = {C}}\n');
    expect(keysOf(r)).toEqual(['a', 'c']);
    expect(r.problems.map((p) => [p.line, p.column])).toEqual([[1, 23]]);
  });

  it('keeps an entry followed by text with an @ in it (an e-mail address in a % comment), which is a warning at that @ (nothing is lost)', () => {
    const r = readBib('@misc{a, title = {A}}\n% Maintained by me@example.org\n@misc{b, title = {B}}\n');
    expect(keysOf(r)).toEqual(['a', 'b']);
    expect(r.problems.map((p) => [p.line, p.column, p.severity])).toEqual([[2, 19, 'warning']]);
  });

  it('reads a field that holds lines starting with @ (up to three), and more entries on one line', () => {
    const text = '@misc{a, title = {A\n@misc{inner}\n@ and more\n}}\n@misc{b, title = {B}} @misc{c, title = {C}}\n';
    const r = readBib(text);
    expect(r.entries.map((e) => [e.key, e.line, e.fields.title])).toEqual([
      ['a', 1, 'A\n@misc{inner}\n@ and more\n'], ['b', 5, 'B'], ['c', 5, 'C'],
    ]);
    expect(r.problems).toEqual([]);
  });

  it('keeps duplicate keys, as written, and entries without fields', () => {
    const r = readBib('@misc{same, title = {One}}\n@book{Same, title = {Two}}\n@misc{empty,}\n');
    expect(r.entries.map((e) => [e.key, e.type, e.fields])).toEqual([['same', 'misc', { title: 'One' }], ['Same', 'book', { title: 'Two' }], ['empty', 'misc', {}]]);
  });

  it('leaves out a field longer than 100,000 characters with a warning, and keeps the entry', () => {
    const r = readBib(`@misc{a,\n  title = {T},\n  abstract = {${'x'.repeat(100_001)}}}\n@misc{b, title = {B}}`);
    expect(r.entries.map((e) => [e.key, e.fields])).toEqual([['a', { title: 'T' }], ['b', { title: 'B' }]]);
    expect(worded(r.problems)).toEqual([{ line: 3, column: 3, severity: 'warning', message: 'field abstract of entry a is longer than 100,000 characters; the field is left out' }]);
  });

  it('reads in slices when a deadline says to stop, to the same result', () => {
    const text = Array.from({ length: 1000 }, (_, i) => (i % 100 === 7 ? `@misc{bad${i} title = {x}}` : `@misc{k${i}, title = {Title ${i}}, year = ${2000 + (i % 25)}}`)).join('\n');
    const once = readBib(text);
    const sliced = new BibtexLibraryReader(text);
    // The lines that start entries are found by the first read: from then on the total is known.
    expect(sliced.total).toBe(0);
    const done: number[] = [];
    while (!sliced.read(() => true)) {
      expect(sliced.total).toBe(1000);
      done.push(sliced.done);
    }
    expect(done.length).toBeGreaterThanOrEqual(10);
    expect(done.every((d, i) => d > (done[i - 1] ?? 0) && d < 1000)).toBe(true);
    expect(sliced.done).toBe(1000);
    expect(sliced.entries).toEqual(once.entries);
    expect(sliced.problems).toEqual(once.problems);
    expect(once.entries).toHaveLength(990);
    expect(once.problems.map((p) => p.line)).toEqual([8, 108, 208, 308, 408, 508, 608, 708, 808, 908]);
    // reading again after the end changes nothing
    expect(sliced.read()).toBe(true);
    expect(sliced.entries).toHaveLength(990);
  });

  it('an undefined macro is a warning at its line and column (BibTeX\'s "string name … is undefined"), read as empty; not for a broken entry', () => {
    const text = [
      '\uFEFF@string{acm = {ACM}}', //                                     1
      '@misc{a, publisher = acm # nope, title = toString}', //            2: nope (column 28), toString (column 42)
      '@misc{b, title = {B},', //                                         3
      '  note = Undef}', //                                               4: column 10
      '@misc{broken, title = gone # {x}', //                              5: not closed: one problem
      '@misc{c, month = jan, title = {C}}', //                            6: jan is defined (BibTeX's month macros)
    ].join('\n');
    const r = readBib(text);
    expect(r.entries.map((e) => [e.key, e.fields])).toEqual([
      ['a', { publisher: 'ACM', title: '' }],
      ['b', { title: 'B', note: '' }],
      ['c', { month: expect.any(String), title: 'C' }],
    ]);
    expect(r.problems.map((p) => [p.line, p.column, p.severity, problemMessage(p)])).toEqual([
      [2, 28, 'warning', 'undefined macro nope (no @string defines it); it is read as empty'],
      [2, 42, 'warning', 'undefined macro toString (no @string defines it); it is read as empty'],
      [4, 10, 'warning', 'undefined macro Undef (no @string defines it); it is read as empty'],
      [5, 1, 'error', expect.stringMatching(/entry broken is left out \(BibTeX keeps it with the fields before that\)$/)],
    ]);
    // An @string that uses an undefined macro: the warning is on the @string line.
    expect(readBib('@string{x = y # {z}}\n@misc{d, title = x}\n').problems.map((p) => [p.line, p.column, p.severity])).toEqual([[1, 13, 'warning']]);
  });

  it('counts entries for progress, not @string, @preamble or @comment lines', () => {
    const text = '@string{a = {A}}\n@STRING (b = {B})\n@preamble{"x"}\n@Comment{jabref-meta: x}\n@comment stray text\n@misc{k1, title = a}\n  @article{k2, title = b}\n@misc{k3,\n  title = {C}}\n';
    const r = new BibtexLibraryReader(text);
    expect([r.total, r.done]).toEqual([0, 0]);
    expect(r.read()).toBe(true);
    expect(keysOf(r)).toEqual(['k1', 'k2', 'k3']);
    expect([r.total, r.done]).toEqual([3, 3]);
  });

  it('readEntryAt reads one entry again with the file\'s macros; undefined when it does not parse', () => {
    const text = '@string{conf = {OSDI}}\n@misc{a, booktitle = conf # { 2022}, title = {A {B}}}\n';
    const r = readBib(text);
    const e = r.entries[0]!;
    expect(readEntryAt(text, e.start, e.end, r.macros)).toEqual({ type: 'misc', label: 'a', properties: { booktitle: 'OSDI 2022', title: 'A {B}' } });
    expect(readEntryAt(text, e.start, e.end, {})?.properties.booktitle).toBe(' 2022');
    expect(readEntryAt(text, e.start, e.end - 1, r.macros)).toBeUndefined();
    expect(readEntryAt(text, e.start + 1, e.end, r.macros)).toBeUndefined();
  });
});

describe('fixtures: a JabRef library and a Better BibTeX export', () => {
  it('JabRef: entries with groups and keywords; @Comment{jabref-meta: …} ignored', () => {
    const lib = loadLibrary(read('jabref.bib'), 'bibtex', { uri: 'file:///lib/jabref.bib', name: 'jabref.bib' });
    expect(lib.file.problems!).toEqual([]);
    expect(lib.entries.map((e) => [e.key, e.library!.line, e.type, e.kind, e.year])).toEqual([
      ['Kwon2023', 3, 'article', 'paper', 2023],
      ['Yu2022', 13, 'inproceedings', 'paper', 2022],
      ['Goodfellow2016', 22, 'book', 'book', 2016],
    ]);
    const [kwon, yu, book] = lib.entries;
    expect(kwon!.library).toMatchObject({ uri: 'file:///lib/jabref.bib', name: 'jabref.bib', sourceType: 'article', format: 'bibtex', groups: ['Serving', 'Memory'], keywords: ['LLM serving', 'KV cache', 'paging'] });
    expect(kwon!.title).toBe('Efficient Memory Management for Large Language Model Serving with PagedAttention');
    expect(kwon!.doi).toBe('10.1145/3600006.3613165');
    expect(kwon!.authors).toHaveLength(9);
    expect(kwon!.authors[6]).toEqual({ given: 'Joseph E.', family: 'Gonzalez' });
    expect(yu!.library!.groups).toEqual(['Serving']);
    expect(yu!.venue).toBe('16th USENIX Symposium on Operating Systems Design and Implementation (OSDI 22)');
    expect(yu!.title).toBe('Orca: A Distributed Serving System for Transformer-Based Generative Models');
    expect(book).toMatchObject({ venue: 'MIT Press', url: 'http://www.deeplearningbook.org' });
    expect(book!.library!.groups).toEqual([]);
    // the spans are each entry's text
    const text = read('jabref.bib');
    expect(text.slice(spansOf(lib)![0], spansOf(lib)![1])).toMatch(/^@Article\{Kwon2023,[^]*\}$/);
    expect(spansOf(lib)).toHaveLength(6);
  });

  it('Better BibTeX: biblatex date, journaltitle, eprinttype = {arxiv}, @string, @online and @software', () => {
    const lib = loadLibrary(read('betterbibtex.bib'), 'bibtex', { uri: 'file:///lib/bbt.bib', name: 'bbt.bib' });
    expect(lib.file.problems!).toEqual([]);
    const by = Object.fromEntries(lib.entries.map((e) => [e.key, e]));
    expect(lib.entries.map((e) => [e.key, e.library!.line])).toEqual([
      ['kwonEfficientMemoryManagement2023', 3], ['shoeybiMegatronLMTrainingMultiBillion2020', 21], ['schrodingerGPU2024', 33], ['zheng2022alpa', 41], ['vllm', 51],
    ]);
    expect(by.kwonEfficientMemoryManagement2023).toMatchObject({
      type: 'inproceedings', year: 2023, arxiv: '2309.06180', doi: '10.1145/3600006.3613165',
      title: 'Efficient Memory Management for Large Language Model Serving with PagedAttention',
      venue: 'Proceedings of the 29th Symposium on Operating Systems Principles',
      url: 'https://dl.acm.org/doi/10.1145/3600006.3613165',
    });
    expect(by.kwonEfficientMemoryManagement2023!.library!.keywords).toEqual(['Computer Science - Machine Learning', 'LLM serving']);
    expect(by.shoeybiMegatronLMTrainingMultiBillion2020).toMatchObject({
      type: 'article', year: 2020, venue: 'arXiv', arxiv: '1909.08053',
      title: 'Megatron-LM: Training Multi-Billion Parameter Language Models Using Model Parallelism',
    });
    expect(by.schrodingerGPU2024).toMatchObject({
      type: 'misc', kind: 'blog', year: 2024, title: 'Schrödinger\'s GPU — a Study of Ünal\'s α-Scheduling',
      authors: [{ given: 'Ayşe', family: 'Ünal' }, { given: 'Jan', family: 'van der Berg' }, { literal: 'OpenAI' }],
    });
    expect(by.schrodingerGPU2024!.library!.sourceType).toBe('online');
    expect(by.zheng2022alpa).toMatchObject({ year: 2022, arxiv: '2201.12023', venue: '17th USENIX Symposium on Operating Systems Design and Implementation', authors: [{ given: 'Lianmin', family: 'Zheng' }] });
    expect(by.vllm).toMatchObject({ kind: 'framework', authors: [{ literal: 'The vLLM Team' }], year: 2023 });
    expect(by.vllm!.arxiv).toBeUndefined(); // eprinttype = {hal}
    expect(lib.file.macros!.osdi).toBe('17th {USENIX} Symposium on Operating Systems Design and Implementation');
    expect(lib.file.strings).toEqual([['osdi', { start: 0, end: 88 }]]);
  });
});

describe('entryFromBibtex', () => {
  const conv = (fields: Record<string, string>, type = 'article') => entryFromBibtex(raw(fields, { type, key: 'key1', line: 7 }), REF);
  it('maps entry types to the nearest standard type and kind', () => {
    expect([
      'article', 'inproceedings', 'conference', 'book', 'mvbook', 'proceedings', 'incollection', 'inbook', 'report', 'techreport', 'thesis', 'phdthesis', 'online', 'software', 'dataset', 'unpublished',
    ].map((t) => [t, conv({}, t).type, conv({}, t).kind])).toEqual([
      ['article', 'article', 'paper'], ['inproceedings', 'inproceedings', 'paper'], ['conference', 'inproceedings', 'paper'],
      ['book', 'book', 'book'], ['mvbook', 'book', 'book'], ['proceedings', 'book', 'book'], ['incollection', 'incollection', 'book'],
      ['inbook', 'incollection', 'book'], ['report', 'techreport', 'report'], ['techreport', 'techreport', 'report'],
      ['thesis', 'phdthesis', 'paper'], ['phdthesis', 'phdthesis', 'paper'], ['online', 'misc', 'blog'], ['software', 'misc', 'framework'],
      ['dataset', 'misc', 'framework'], ['unpublished', 'misc', 'paper'],
    ]);
  });
  it('takes the year from year, else date; the venue from the first of its fields', () => {
    expect(conv({ year: '2023' }).year).toBe(2023);
    expect(conv({ date: '2021-07-14' }).year).toBe(2021);
    expect(conv({ date: '2021/2022' }).year).toBe(2021);
    expect(conv({ year: '{in press}' }).year).toBeUndefined();
    expect(conv({ year: '0999' }).year).toBeUndefined();
    expect(conv({ journaltitle: 'J', booktitle: 'B' }).venue).toBe('J');
    expect(conv({ booktitle: 'Proc. of {OSDI}', publisher: 'P' }).venue).toBe('Proc. of OSDI');
    expect(conv({ school: 'MIT' }).venue).toBe('MIT');
    expect(conv({ howpublished: '\\url{https://x.org}' }).venue).toBe('https://x.org');
    expect(conv({}).venue).toBeUndefined();
  });
  it('finds the arXiv id from eprint with archiveprefix or eprinttype arXiv, a bare id, or an arXiv URL', () => {
    expect(conv({ eprint: 'arXiv:2309.06180v2', archiveprefix: 'arXiv' }).arxiv).toBe('2309.06180');
    expect(conv({ eprint: '2309.06180', eprinttype: 'arxiv' }).arxiv).toBe('2309.06180');
    expect(conv({ eprint: 'cs/0112017', eprinttype: 'arXiv' }).arxiv).toBe('cs/0112017');
    expect(conv({ eprint: '2309.06180' }).arxiv).toBe('2309.06180');
    expect(conv({ eprint: '2309.06180', eprinttype: 'pubmed' }).arxiv).toBeUndefined();
    expect(conv({ eprint: '12345678', eprinttype: 'arxiv' }).arxiv).toBeUndefined();
    expect(conv({ url: 'https://arxiv.org/pdf/2309.06180v3' }).arxiv).toBe('2309.06180');
  });
  it('keeps a DOI without its resolver, and http(s) URLs only', () => {
    expect(conv({ doi: 'https://doi.org/10.1145/3600006.3613165' }).doi).toBe('10.1145/3600006.3613165');
    expect(conv({ doi: 'doi: 10.48550/arXiv.2309.06180' }).doi).toBe('10.48550/arXiv.2309.06180');
    expect(conv({ doi: 'not a doi' }).doi).toBeUndefined();
    expect(conv({ url: 'ftp://x.org/a' }).url).toBeUndefined();
    expect(conv({ url: ' https://x.org/a ' }).url).toBe('https://x.org/a');
  });
  it('uses the key when there is no title, and tells where the entry is', () => {
    const e = conv({ title: '{\\emph{}}' });
    expect(e.title).toBe('key1');
    expect(e.key).toBe('key1');
    expect(e.library).toEqual({ uri: REF.uri, name: REF.name, line: 7, sourceType: 'article', format: 'bibtex', keywords: [], groups: [] });
    // A library entry is a bibliographic record: none of the corpus's curation.
    for (const field of CURATION_FIELDS) expect(e).not.toHaveProperty(field);
  });
  it('splits keywords and groups on commas and semicolons, without duplicates', () => {
    expect(conv({ keywords: 'a, b; {\\"o}ko,a', groups: 'G1,G2' }).library).toMatchObject({ keywords: ['a', 'b', 'öko'], groups: ['G1', 'G2'] });
  });
});

describe('CSL libraries', () => {
  it('CSL-JSON: items with their lines, one problem for the item without an id', () => {
    const lib = readCslJsonLibrary(read('library.json'));
    expect(lib.items.map((i) => [i.item.id, i.line])).toEqual([['kwon2023efficient', 2], ['shoeybi2019megatron', 20], ['zhang2023dive', 32]]);
    expect(worded(lib.problems)).toEqual([{ line: 16, column: 1, message: 'this CSL item has no "id"; skipped', severity: 'error' }]);
  });
  it('CSL-YAML: items with their lines, one problem for the entry that is not an item', () => {
    const lib = readCslYamlLibrary(read('library.yaml'));
    expect(lib.items.map((i) => [i.item.id, i.line])).toEqual([['kwon2023efficient', 3], ['yu2022orca', 19]]);
    expect(worded(lib.problems)).toEqual([{ line: 17, column: 1, message: 'not a CSL item (expected a mapping with an "id"); skipped', severity: 'error' }]);
  });
  it('CSL-JSON: finds each element\'s line past strings with brackets and escaped quotes, in CRLF and after a BOM', () => {
    const text = '\uFEFF[{"id": "a", "note": "x]}{[\\"]"},\r\n {"id": 7},\r\n "str", null, [1, {"id": "x"}], true,\r\n {"id": "c"}]';
    const lib = readCslJsonLibrary(text);
    expect(lib.items.map((i) => [i.item.id, i.line])).toEqual([['a', 1], [7, 2], ['c', 4]]);
    expect(lib.problems.map((p) => p.line)).toEqual([3, 3, 3, 3]);
  });
  it('CSL-JSON: one problem with its place for text that is not a JSON array', () => {
    expect(worded(readCslJsonLibrary('[{"id": "a"},\n {"id": "b",}]').problems)).toEqual([
      { line: 2, column: 13, message: expect.stringMatching(/^not JSON: /), severity: 'error' },
    ]);
    expect(worded(readCslJsonLibrary('{"id": "a"}').problems)).toEqual([{ line: 1, column: 1, message: 'not a CSL-JSON library (expected a JSON array of CSL items)', severity: 'error' }]);
    expect(readCslJsonLibrary('')).toEqual({ items: [], problems: [] });
    expect(readCslJsonLibrary('  \n')).toEqual({ items: [], problems: [] });
  });
  it('CSL-YAML: Pandoc\'s references:, a top-level list (one problem: pandoc reads none of it), and the problems of other YAML', () => {
    const bare = readCslYamlLibrary('- id: a\n  title: A\n- id: b\n');
    expect({ items: bare.items, problems: worded(bare.problems) }).toEqual({ items: [], problems: [{ line: 1, column: 1, message: expect.stringMatching(/^a list of CSL items with no "references:" field/), severity: 'error' }] });
    expect(readCslYamlLibrary('\uFEFFreferences:\r\n  - id: a\r\n  - id: b\r\n').items.map((i) => [i.item.id, i.line])).toEqual([['a', 2], ['b', 3]]);
    expect(worded(readCslYamlLibrary('title: x\n').problems)).toEqual([{ line: 1, column: 1, message: 'not a CSL-YAML bibliography: it has no "references:" field', severity: 'error' }]);
    // A broken item is a problem at its place; the others load (the list is read item by item).
    const broken = readCslYamlLibrary('references:\n  - id: a\n    title: [unclosed\n  - id: b\n');
    expect(worded(broken.problems)).toEqual([{ line: 4, column: 1, message: expect.stringMatching(/^YAML: /), severity: 'error' }]);
    expect(broken.items.map((i) => [i.item.id, i.line])).toEqual([['b', 4]]);
    expect(worded(readCslYamlLibrary('references:\r  - id: a\r').problems)).toEqual([{ line: 1, column: 12, message: expect.stringMatching(/lone CR/), severity: 'error' }]);
    expect(readCslYamlLibrary('references:\n  - title: no id\n  - 42\n').problems.map((p) => [p.line, problemMessage(p)])).toEqual([
      [2, 'this CSL item has no "id"; skipped'], [3, 'not a CSL item (expected a mapping with an "id"); skipped'],
    ]);
  });
  it('CSL-JSON is read element by element, to what JSON.parse of the whole text gives: items, or its one problem', () => {
    const texts = [
      '[]', ' [ ] ', '[{"id": "a"}]', '[{"id": "a"},{"id": "b"}]', '[ {"id": "a"} , 1 , "s" , null , [2] , {"id": 3} ]',
      '[{"id": "a", "x": "]},[{"}]', '[1 2]', '[1,]', '[,1]', '[1,,2]', '[{"id": "a"}] x', '[{"id": "a"}][]', '[{"id": "a"}',
      '[{"id": "a",}]', '[{"id": "a"} {"id": "b"}]', '["a" "b"]', '[tru]', '[true, false]', '[-1.5e3, 2]', '[{"id": "\\"]"}]',
      '\uFEFF[{"id": "bom"}]', '[{"id": "a"}]\n', '[\u00a0{"id": "a"}]', '[{"id": "a"}\u00a0]', '{"id": "a"}', '"x"',
      '[}', '[{"id": "a"}}', '[{"id": "a"}, {"id": "b"}}',
    ];
    for (const text of texts) {
      let value: unknown;
      try {
        value = JSON.parse(text.replace(/^\uFEFF/, ''));
      } catch {
        value = undefined;
      }
      const lib = readCslJsonLibrary(text);
      if (!Array.isArray(value)) {
        expect(lib.items, text).toEqual([]);
        expect(lib.problems, text).toHaveLength(1);
        continue;
      }
      const ids = value.filter((v) => v && typeof v === 'object' && !Array.isArray(v) && 'id' in v).map((v) => (v as { id: unknown }).id);
      expect(lib.items.map((i) => i.item.id), text).toEqual(ids);
      expect(lib.items.length + lib.problems.length, text).toBe(value.length);
    }
  });

  it('CSL-JSON and CSL-YAML libraries load in slices, to what they load at once', () => {
    const items = Array.from({ length: 3000 }, (_, i) => (i % 500 === 7 ? '{"title": "no id"}' : `{"id": "k${i}", "title": "Paper ${i} on \\"${i % 13}\\"", "issued": {"date-parts": [[${1990 + (i % 30)}]]}}`));
    const json = `[\n${items.join(',\n')}\n]`;
    const yaml = `references:\n${items.map((it) => `- ${it}`).join('\n')}`;
    for (const [text, format] of [[json, 'csl-json'], [yaml, 'csl-yaml']] as const) {
      const once = loadLibrary(text, format, REF);
      expect(once.entries, format).toHaveLength(2994);
      expect(once.file.problems!.map((p) => p.line), format).toEqual([9, 509, 1009, 1509, 2009, 2509]);
      const loader = new LibraryLoader(text, format, REF);
      const seen: string[] = [];
      let steps = 0;
      while (!loader.step(() => true)) {
        steps++;
        const p = loader.progress;
        seen.push(p.phase);
        expect(p.done, format).toBeLessThanOrEqual(p.total);
      }
      // Reading takes several slices too (each converts a few hundred items at most).
      expect(seen.filter((p) => p === 'read').length, format).toBeGreaterThan(5);
      expect(steps, format).toBeGreaterThan(20);
      const sliced = loader.result();
      expect(sliced.entries, format).toEqual(once.entries);
      expect(sliced.file.problems!, format).toEqual(once.file.problems!);
    }
  });

  it('lineStarts and lineAt', () => {
    const text = 'a\nbc\r\n\nd';
    const starts = lineStarts(text);
    expect(starts).toEqual([0, 2, 6, 7]);
    expect([0, 1, 2, 5, 6, 7, 8].map((o) => lineAt(starts, o))).toEqual([1, 1, 2, 2, 3, 4, 4]);
    expect(lineAt(lineStarts(''), 0)).toBe(1);
  });
});

describe('entryFromCsl', () => {
  const ref = { uri: 'file:///lib/library.json', name: 'library.json' };
  it('converts the CSL-JSON fixture\'s items', () => {
    const lib = loadLibrary(read('library.json'), 'csl-json', ref);
    const [kwon, megatron, dive] = lib.entries;
    expect(lib.entries).toHaveLength(3);
    expect(kwon).toMatchObject({
      key: 'kwon2023efficient', type: 'inproceedings', kind: 'paper', year: 2023, doi: '10.1145/3600006.3613165', arxiv: '2309.06180',
      venue: 'Proceedings of the 29th Symposium on Operating Systems Principles', authors: [{ given: 'Woosuk', family: 'Kwon' }, { given: 'Zhuohan', family: 'Li' }],
    });
    expect(kwon!.library).toMatchObject({ line: 2, format: 'csl-json', sourceType: 'paper-conference', keywords: ['LLM serving', 'memory'], groups: [] });
    expect(kwon!.library!.csl).toMatchObject({ id: 'kwon2023efficient', DOI: '10.1145/3600006.3613165' });
    expect(megatron).toMatchObject({ type: 'article', year: 2019, arxiv: '1909.08053', venue: 'arXiv', authors: [{ given: 'Mohammad', family: 'Shoeybi' }, { literal: 'NVIDIA' }] });
    expect(dive).toMatchObject({ type: 'book', kind: 'book', title: '动手学深度学习', year: 2023, authors: [{ given: '阿斯顿', family: '张' }] });
  });
  it('needs an id; a number is one', () => {
    expect(entryFromCsl({ title: 'x' }, 1, ref, 'csl-json')).toBeUndefined();
    expect(entryFromCsl({ id: '  ' }, 1, ref, 'csl-json')).toBeUndefined();
    expect(entryFromCsl({ id: 42 }, 3, ref, 'csl-yaml')).toMatchObject({ key: '42', title: '42', type: 'misc', library: { line: 3, format: 'csl-yaml' } });
  });
  it('skips names it cannot read and years out of range', () => {
    const e = entryFromCsl({ id: 'a', author: [null, 'x', { given: 'Only' }, { family: ' F ', given: ' G ' }, {}], issued: { 'date-parts': [[20000]] } }, 1, ref, 'csl-json')!;
    expect(e.authors).toEqual([{ literal: 'Only' }, { given: 'G', family: 'F' }]);
    expect(e.year).toBeUndefined();
  });
});

describe('loading a library', () => {
  it('knows the format by the file name', () => {
    expect(['a.bib', 'A.BIB', 'x.bibtex', 'refs.json', 'refs.yaml', 'refs.YML', 'refs.md', 'bib'].map(bibFormatOf)).toEqual([
      'bibtex', 'bibtex', 'bibtex', 'csl-json', 'csl-yaml', 'csl-yaml', undefined, undefined,
    ]);
  });

  const bigBib = (n: number) => ['@string{conf = {Conf}}', ...Array.from({ length: n }, (_, i) =>
    (i % 97 === 3 ? `@misc{broken${i}, title = {x}` : `@inproceedings{k${i}, title = {Paper ${i} on {Topic${i % 7}}}, author = {Author${i % 13}, A.}, booktitle = conf, year = ${1990 + (i % 35)}}`))].join('\n');

  it('LibraryLoader in slices: progress goes through reading then indexing, and the result is the same as at once', () => {
    const text = bigBib(2000);
    const once = loadLibrary(text, 'bibtex', REF);
    const loader = new LibraryLoader(text, 'bibtex', REF);
    expect(() => loader.result()).toThrow(/before the load finished/);
    // The constructor does no work; the total counts entries (not the @string line) as the text is scanned, and is final once they are read.
    expect(loader.progress).toEqual({ phase: 'read', done: 0, total: 0 });
    const phases: string[] = [];
    let steps = 0;
    while (!loader.step(() => true)) {
      steps++;
      const p = loader.progress;
      phases.push(p.phase);
      expect(p.done).toBeLessThanOrEqual(p.total);
      expect(p.total).toBeLessThanOrEqual(2000);
      if (p.phase === 'read' && p.done > 0) expect(p.total).toBe(2000);
    }
    expect(steps).toBeGreaterThan(10);
    expect(phases[0]).toBe('read');
    expect(phases).toContain('index');
    expect(phases.indexOf('index')).toBeGreaterThan(phases.lastIndexOf('read'));
    const sliced = loader.result();
    expect(loader.step()).toBe(true);
    expect(sliced.entries).toEqual(once.entries);
    expect(sliced.file.problems!).toEqual(once.file.problems!);
    expect(spansOf(sliced)).toEqual(spansOf(once));
    expect(sliced.file.macros).toEqual(once.file.macros);
    expect(sliced.file.strings).toEqual(once.file.strings);
    expect(once.entries).toHaveLength(2000 - 21);
    expect(once.file.problems!).toHaveLength(21);
    const q = parseQuery('paper topic3 author:author5');
    expect(sliced.index.search(q, 20).map((h) => h.entry.key)).toEqual(once.index.search(q, 20).map((h) => h.entry.key));
    expect(once.index.search(q, 20).length).toBeGreaterThan(0);
  });

  it('spans are each entry\'s text, two offsets an entry', () => {
    const text = bigBib(200);
    const lib = loadLibrary(text, 'bibtex', REF);
    expect(spansOf(lib)).toHaveLength(lib.entries.length * 2);
    lib.entries.forEach((e, i) => {
      expect(text.slice(spansOf(lib)![2 * i], spansOf(lib)![2 * i + 1])).toMatch(new RegExp(`^@inproceedings\\{${e.key},[^]*\\}$`));
    });
  });

  it('CSL libraries load their items and problems; no spans or macros', () => {
    const lib = loadLibrary(read('library.yaml'), 'csl-yaml', { uri: 'file:///lib/library.yaml', name: 'library.yaml' });
    expect(lib.entries.map((e) => [e.key, e.library!.line])).toEqual([['kwon2023efficient', 3], ['yu2022orca', 19]]);
    expect(lib.file.problems!.map((p) => p.line)).toEqual([17]);
    expect(spansOf(lib)).toBeUndefined();
    expect(lib.file.macros).toBeUndefined();
    expect(new LibraryLoader('[]', 'csl-json', REF).progress).toEqual({ phase: 'read', done: 0, total: 0 });
  });

  describe('the cache: libraryToJson / libraryFromJson', () => {
    const sameBut = (a: LoadedLibrary, b: LoadedLibrary, ref: { uri: string; name: string }) => {
      expect(b.file.format).toBe(a.file.format);
      expect(b.entries.map((e) => ({ ...e, library: { ...e.library, uri: 'x', name: 'x' } }))).toEqual(
        JSON.parse(JSON.stringify(a.entries.map((e) => ({ ...e, library: { ...e.library, uri: 'x', name: 'x' } })))),
      );
      expect(b.entries.every((e) => e.library!.uri === ref.uri && e.library!.name === ref.name)).toBe(true);
      expect(b.file.problems!).toEqual(a.file.problems!);
      expect(spansOf(b)).toEqual(spansOf(a));
      expect(b.file.macros).toEqual(a.file.macros);
      expect(b.file.strings).toEqual(a.file.strings);
    };
    it('a .bib library comes back the same, at the path it is asked for, and searches the same', () => {
      const lib = loadLibrary(read('betterbibtex.bib'), 'bibtex', REF);
      const moved = { uri: 'file:///elsewhere/copy.bib', name: 'copy.bib' };
      const back = libraryFromJson(libraryToJson(lib), moved)!;
      expect(back).toBeDefined();
      sameBut(lib, back, moved);
      for (const q of ['megatron', 'paged', 'p', 'author:unal', 'year:2022', 'schrödinger', 'alp']) {
        expect(back.index.search(parseQuery(q), 10).map((h) => [h.entry.key, h.score]), q).toEqual(lib.index.search(parseQuery(q), 10).map((h) => [h.entry.key, h.score]));
      }
      expect(back.index.search(parseQuery('parallelism'), 5).map((h) => h.entry.key)).toEqual(['shoeybiMegatronLMTrainingMultiBillion2020', 'zheng2022alpa']);
    });
    it('a CSL library comes back with its items', () => {
      const lib = loadLibrary(read('library.json'), 'csl-json', REF);
      const back = libraryFromJson(libraryToJson(lib), REF)!;
      sameBut(lib, back, REF);
      expect(back.entries[0]!.library!.csl).toEqual(lib.entries[0]!.library!.csl);
      expect(back.index.search(parseQuery('megatron'), 5).map((h) => h.entry.key)).toEqual(['shoeybi2019megatron']);
    });
    it('another version, or text that is not JSON, is no cache', () => {
      const json = libraryToJson(loadLibrary(read('jabref.bib'), 'bibtex', REF));
      const data = JSON.parse(json) as { version: number; index: { version: number } };
      expect(data.version).toBe(LIBRARY_CACHE_VERSION);
      expect(libraryFromJson(JSON.stringify({ ...data, version: LIBRARY_CACHE_VERSION + 1 }), REF)).toBeUndefined();
      expect(libraryFromJson(JSON.stringify({ ...data, index: { ...data.index, version: LIBRARY_INDEX_VERSION + 1 } }), REF)).toBeUndefined();
      expect(libraryFromJson(json.slice(0, json.length / 2), REF)).toBeUndefined();
      expect(libraryFromJson('null', REF)).toBeUndefined();
      expect(libraryFromJson('', REF)).toBeUndefined();
    });
    it('is one JSON object, in Latin-1, written in pieces: the index an object (not JSON in a string), entries without what they all share', () => {
      const lib = loadLibrary(`${read('betterbibtex.bib')}\n@book{zhang2020dive, title = {动手学深度学习}, author = {张, 阿斯顿}, year = 2020}\n`, 'bibtex', REF);
      const pieces = [...libraryJsonPieces(lib)];
      expect(pieces.length).toBeGreaterThan(10);
      const json = pieces.join('');
      expect(json).toBe(libraryToJson(lib));
      expect(/^[\x00-\xff]*$/.test(json)).toBe(true);
      const data = JSON.parse(json) as { index: unknown; entries: unknown[][]; spans: unknown };
      expect(typeof data.index).toBe('object');
      expect(typeof data.spans).toBe('string');
      // [key, title, authors, fields, library]: no field name of the five, no type or kind its source type gives, nor the library's URI, name or format.
      for (const e of data.entries) {
        expect(e).toHaveLength(5);
        expect(Object.keys(e[3] as object)).not.toEqual(expect.arrayContaining(['topics', 'key', 'title', 'library', 'type', 'kind']));
        expect(JSON.stringify(e[4])).not.toMatch(/refs\.bib|"format"|"uri"/);
      }
      // A venue that is the journal's is not written twice.
      const article = data.entries.find((e) => (e[3] as Record<string, unknown>).journal !== undefined)!;
      expect((article[3] as Record<string, unknown>).venue).toBe(0);
      expect(libraryFromJson(json, REF)!.entries.find((e) => e.key === article[0])!.venue).toBe((article[3] as Record<string, unknown>).journal);
      const back = libraryFromJson(json, REF)!;
      expect(back.entries.at(-1)!.title).toBe('动手学深度学习');
      expect(back.index.search(parseQuery('深度学习'), 5).map((h) => h.entry.key)).toEqual(['zhang2020dive']);
      expect(back.entries[0]!.topics).toBe(back.entries[1]!.topics);
    });
    it('a cache of the first version (the index as JSON in a string) is no cache', () => {
      const data = JSON.parse(libraryToJson(loadLibrary(read('jabref.bib'), 'bibtex', REF))) as Record<string, unknown>;
      const v1 = { ...data, version: 1, index: { version: 1, index: '{"documentCount":0}', vocabulary: [], prefixes: [] } };
      expect(libraryFromJson(JSON.stringify(v1), REF)).toBeUndefined();
    });
    it('a cache of another shape (damaged, or from a build that wrote it differently) is no cache, not an exception', () => {
      const data = JSON.parse(libraryToJson(loadLibrary(read('jabref.bib'), 'bibtex', REF))) as Record<string, unknown>;
      const index = data.index as Record<string, unknown>;
      const shapes: Record<string, unknown>[] = [
        { ...data, index: undefined },
        { ...data, index: { version: LIBRARY_INDEX_VERSION, index: 'not a MiniSearch index', vocabulary: [], prefixes: [] } },
        { ...data, index: { ...index, postings: ['not base64!'] } },
        { ...data, index: { ...index, postings: ['AAAA'] } },
        { ...data, index: { ...index, termStart: 'not a list' } },
        { ...data, index: { ...index, terms: [42] } },
        { ...data, index: { ...index, starts: ['a\u0000b'] } },
        { ...data, index: { ...index, venueIds: ['/////w=='] } },
        { ...data, index: { ...index, docs: 1 } },
        { ...data, spans: 'AAAA' },
        { ...data, entries: [null] },
        { ...data, entries: 'not a list' },
      ];
      for (const shape of shapes) {
        expect(() => libraryFromJson(JSON.stringify(shape), REF), JSON.stringify(shape).slice(0, 200)).not.toThrow();
        expect(libraryFromJson(JSON.stringify(shape), REF)).toBeUndefined();
      }
    });
  });
});

describe('library search', () => {
  const SEARCH_BIB = String.raw`
@inproceedings{kwon2023efficient, title = {Efficient Memory Management for Large Language Model Serving with {PagedAttention}}, author = {Kwon, Woosuk and Li, Zhuohan and Gonzalez, Joseph}, year = 2023, booktitle = {SOSP}}
@article{narayanan2019pipedream, title = {{PipeDream}: Generalized Pipeline Parallelism for {DNN} Training}, author = {Narayanan, Deepak}, year = 2019, booktitle = {SOSP}}
@misc{dettmers2021optimizers, title = {8-bit Optimizers via Block-wise Quantization and Paged Optimizers}, author = {Dettmers, Tim}, year = 2021}
@misc{liu2024ring, title = {Ring Attention with Blockwise Transformers for Near-Infinite Context}, author = {Liu, Hao}, year = 2024}
@book{zhang2020dive, title = {动手学深度学习}, author = {张, 阿斯顿 and 李, 沐}, year = 2020}
@inproceedings{yu2022orca, title = {Orca: Distributed Serving System for {Transformer-Based} Generative Models}, author = {Yu, Gyeong-In}, year = 2022, booktitle = {OSDI}}
@misc{zheng2023sglang, title = {Efficiently Programming Large Language Models using {SGLang}}, author = {Zheng, Lianmin}}
@inproceedings{unal2024scheduling, title = {Scheduling Serving}, author = {{\"U}nal, Ay{\c{s}}e}, year = 2024}
`;
  const lib = loadLibrary(SEARCH_BIB, 'bibtex', REF);
  const keys = (q: string, index = lib.index, limit = 10) => index.search(parseQuery(q), limit).map((h) => h.entry.key);

  it('reads the library it searches', () => {
    expect(lib.file.problems!).toEqual([]);
    expect(lib.entries).toHaveLength(8);
  });
  it('one or two letters: the entries with a word (of the title, key or authors) that starts with them, newest first', () => {
    expect(keys('p')).toEqual(['kwon2023efficient', 'dettmers2021optimizers', 'narayanan2019pipedream', 'zheng2023sglang']);
    expect(keys('pa')).toEqual(['kwon2023efficient', 'dettmers2021optimizers', 'narayanan2019pipedream']);
    expect(keys('PA')).toEqual(keys('pa'));
    expect(keys('zh')).toEqual(['kwon2023efficient', 'zhang2020dive', 'zheng2023sglang']);
    expect(keys('p', lib.index, 2)).toEqual(['kwon2023efficient', 'dettmers2021optimizers']);
    expect(keys('qx')).toEqual([]);
  });
  it('a one- or two-letter prefix still matches as a prefix when the library also has it as a word', () => {
    // "P-Tuning" makes "p" a word of the library, and "A" (and "and") make "a" one.
    const more = loadLibrary(`${SEARCH_BIB}\n@misc{liu2022ptuning, title = {{P-Tuning}: Prompt Tuning Can Be Comparable to Fine-tuning}, author = {Liu, Xiao}, year = 2022}\n@misc{a2020, title = {A Survey}, year = 2020}`, 'bibtex', REF);
    expect(keys('p', more.index)).toEqual(['kwon2023efficient', 'liu2022ptuning', 'dettmers2021optimizers', 'narayanan2019pipedream', 'zheng2023sglang']);
    // typing the next word: "paged a" for "paged attention"
    expect(keys('paged a', more.index)).toEqual(expect.arrayContaining(['kwon2023efficient', 'dettmers2021optimizers']));
  });
  it('three letters on: the word being typed matches as a prefix (pag → paged, PagedAttention)', () => {
    expect(keys('pag').sort()).toEqual(['dettmers2021optimizers', 'kwon2023efficient']);
    expect(keys('memory pag')).toEqual(['kwon2023efficient']);
    expect(keys('pipel')).toEqual(['narayanan2019pipedream']);
    expect(keys('paged attention')).toEqual(['kwon2023efficient']);
    expect(keys('PagedAttention')).toEqual(['kwon2023efficient']);
  });
  it('author: filters by a name, folded (Ünal, "Woosuk Kwon")', () => {
    expect(keys('author:kwon')).toEqual(['kwon2023efficient']);
    expect(keys('author:unal')).toEqual(['unal2024scheduling']);
    expect(keys('author:"Woosuk Kwon"')).toEqual(['kwon2023efficient']);
    expect(keys('serving author:yu')).toEqual(['yu2022orca']);
    expect(keys('serving author:nobody')).toEqual([]);
    expect(keys('author:kwon author:dettmers').sort()).toEqual(['dettmers2021optimizers', 'kwon2023efficient']);
  });
  it('year: filters by a year or a range; entries without a year are out', () => {
    expect(keys('year:2023')).toEqual(['kwon2023efficient']);
    expect(keys('year:2022..2024').sort()).toEqual(['kwon2023efficient', 'liu2024ring', 'unal2024scheduling', 'yu2022orca']);
    expect(keys('year:..2020').sort()).toEqual(['narayanan2019pipedream', 'zhang2020dive']);
    expect(keys('serving year:2024')).toEqual(['unal2024scheduling']);
    expect(keys('language year:2023')).toEqual(['kwon2023efficient']);
    expect(keys('efficient')).toContain('zheng2023sglang');
    expect(keys('efficient year:2000..')).not.toContain('zheng2023sglang');
  });
  it('venue: filters by the venue', () => {
    expect(keys('venue:osdi')).toEqual(['yu2022orca']);
    expect(keys('venue:sosp').sort()).toEqual(['kwon2023efficient', 'narayanan2019pipedream']);
  });
  it('topic: matches no library entry', () => {
    expect(keys('topic:serving')).toEqual([]);
    expect(keys('serving topic:serving')).toEqual([]);
    expect(keys('serving')).not.toEqual([]);
  });
  it('finds a Chinese title by the whole title and by a phrase of it', () => {
    expect(keys('动手学深度学习')[0]).toBe('zhang2020dive');
    expect(keys('深度学习')).toEqual(['zhang2020dive']);
  });
  it('a query that is an entry\'s key puts that entry first', () => {
    const orcas = loadLibrary(String.raw`
@inproceedings{orca, title = {Orca: A Distributed Serving System for {Transformer-Based} Generative Models}, author = {Yu, Gyeong-In}, year = 2022}
@misc{mitra2023orca, title = {Orca 2: Teaching Small Language Models How to Reason}, author = {Mitra, Arindam}, year = 2023}
@software{neese2012orca, title = {{ORCA}}, author = {Neese, Frank}, year = 2012}
`, 'bibtex', REF);
    expect(keys('orca', orcas.index)[0]).toBe('orca');
    expect(keys('ORCA', orcas.index)[0]).toBe('orca');
    expect(keys('mitra2023orca', orcas.index)[0]).toBe('mitra2023orca');
    expect(keys('kwon2023efficient')[0]).toBe('kwon2023efficient');
  });
  it('a query that is an entry\'s key puts that entry first, even when a short title elsewhere has the word', () => {
    const orcas = loadLibrary(String.raw`
@inproceedings{orca, title = {Orca: A Distributed Serving System for {Transformer-Based} Generative Models}, author = {Yu, Gyeong-In and Jeong, Joo Seong}, year = 2022, booktitle = {OSDI}}
@misc{mitra2023orca, title = {Orca 2: Teaching Small Language Models How to Reason}, author = {Mitra, Arindam}, year = 2023}
@misc{mukherjee2023orca, title = {Orca: Progressive Learning from Complex Explanation Traces of {GPT-4}}, author = {Mukherjee, Subhabrata}, year = 2023}
@misc{orcaserve, title = {Serving with Orca}, year = 2024}
`, 'bibtex', REF);
    expect(keys('orca', orcas.index)[0]).toBe('orca');
  });
  it('respects the limit and the entries to skip; empty queries find nothing', () => {
    expect(lib.index.search(parseQuery('serving'), 1)).toHaveLength(1);
    const all = keys('serving');
    expect(all.length).toBeGreaterThan(1);
    expect(lib.index.search(parseQuery('serving'), 10, (e) => e.key === all[0]).map((h) => h.entry.key)).toEqual(all.slice(1));
    expect(lib.index.search(parseQuery('p'), 10, (e) => e.year === 2023).map((h) => h.entry.key)).toEqual(['dettmers2021optimizers', 'narayanan2019pipedream', 'zheng2023sglang']);
    expect(lib.index.search(parseQuery('year:2022..'), 10, (e) => e.key.startsWith('liu')).map((h) => h.entry.key)).toEqual(['kwon2023efficient', 'yu2022orca', 'unal2024scheduling']);
    expect(keys('')).toEqual([]);
    expect(keys('author:')).toEqual([]);
  });
  it('looks entries up by key, ignoring case, the first of duplicates', () => {
    const dup = loadLibrary('@misc{Same, title = {One}}\n@misc{same, title = {Two}}\n', 'bibtex', REF);
    expect(dup.index.entry('SAME')!.title).toBe('One');
    expect(dup.index.entry('same')).toBe(dup.entries[0]);
    expect(dup.index.entry('other')).toBeUndefined();
  });
  it('a library entry is found by a word of its title after the index\'s toJSON / fromJSON round trip', () => {
    const json = JSON.parse(JSON.stringify(lib.index.toJSON())) as ReturnType<LibraryIndex['toJSON']>;
    const back = LibraryIndex.fromJSON(lib.entries, json)!;
    expect(keys('pipeline', back)).toEqual(['narayanan2019pipedream']);
    expect(keys('quantization', back)).toEqual(['dettmers2021optimizers']);
    expect(keys('动手学深度学习', back)[0]).toBe('zhang2020dive');
    expect(keys('p', back)).toEqual(keys('p'));
    expect(keys('author:unal', back)).toEqual(['unal2024scheduling']);
    expect(LibraryIndex.fromJSON(lib.entries, { ...json, version: LIBRARY_INDEX_VERSION + 1 })).toBeUndefined();
  });
  it('building in slices gives the same index', () => {
    const entries = loadLibrary(Array.from({ length: 1500 }, (_, i) => `@misc{k${i}, title = {Word${i % 50} paged${i % 3}}, year = ${2000 + (i % 20)}}`).join('\n'), 'bibtex', REF).entries;
    const builder = LibraryIndex.builder(entries);
    let index: LibraryIndex | undefined;
    let steps = 0;
    while (!(index = builder.step(() => true))) steps++;
    expect(steps).toBeGreaterThanOrEqual(5);
    const whole = LibraryIndex.build(entries);
    for (const q of ['p', 'pa', 'paged1', 'word7 year:2005', 'k77']) {
      expect(keys(q, index, 30), q).toEqual(keys(q, whole, 30));
    }
    expect(keys('p', whole, 300)).toHaveLength(200);
  });
});

describe('hostile libraries', () => {
  describe('one long line: junk outside entries, one huge field', () => {
    const line = oneLongLine;
    const expectRead = expectOneLongLineRead;
    // 5 MB and 50 MB, and the time's growth, are the serial run's (test/perf/library.perf.test.ts).
    it('0.5 MB: the entries are read, the huge field left out', () => {
      expectRead(line(500_000));
    });
  });

  it('a single line of junk with a stray @ every few characters (0.1 MB): problems, no throw', () => {
    // No hang (1 MB takes at most 15× as long) is the serial run's.
    const text = `@misc{a, title = {A}} ${'z@ '.repeat(100_000 / 3)}`;
    expect(() => readBib(text)).not.toThrow();
    expect(readBib(text).problems.length).toBeGreaterThan(0);
  });

  /** `@string{a0 = "xx"}`, then `levels` lines each doubling the one before, then entries using the last. */
  const doubling = (levels: number) => {
    const lines = ['@string{a0 = "xx"}'];
    for (let i = 1; i <= levels; i++) lines.push(`@string{a${i} = a${i - 1} # a${i - 1}}`);
    return [...lines, `@article{k, title = a${levels}}`, '@misc{after, title = {After}}'].join('\n');
  };
  it('@string macros that double 26 times: a problem at the first over 100,000 characters, later entries still read', () => {
    const lib = loadLibrary(doubling(26), 'bibtex', REF);
    // a16 is "xx" doubled 16 times: 131,072 characters
    expect(worded(lib.file.problems!)).toEqual([{ line: 17, column: 1, severity: 'error', message: '@string a16 expands to more than 100,000 characters; it is read as empty' }]);
    expect(lib.entries.map((e) => [e.key, e.library!.line, e.title])).toEqual([['k', 28, 'k'], ['after', 29, 'After']]);
    expect(lib.file.macros!.a26).toBe('');
    expect(lib.file.macros!.a15).toHaveLength(65_536);
  });
  it('many references to a large macro: reading stops with a problem once the fields pass the file\'s budget', () => {
    const big = 'x'.repeat(60_000);
    const text = [`@string{big = {${big}}}`, ...Array.from({ length: 100 }, (_, i) => `@misc{k${i}, title = big}`)].join('\n');
    const budget = maxTotalBibExpansion(text.length);
    const fit = Math.floor(budget / 60_000);
    const r = readBib(text);
    expect(r.entries).toHaveLength(fit);
    expect(worded(r.problems)).toEqual([{
      line: fit + 2, column: 1, severity: 'error',
      message: `the fields of this file expand to more than ${budget.toLocaleString('en-US')} characters through @string macros; reading stopped here`,
    }]);
    // in slices too
    const sliced = new BibtexLibraryReader(text);
    while (!sliced.read(() => true));
    expect(sliced.entries).toHaveLength(fit);
    expect(sliced.problems).toEqual(r.problems);
  });

  it('10,000- and 100,000-deep braces inside a field: no crash; every entry loads, a field too long is left out', () => {
    const deep = (d: number) => `@misc{a, title = {A}}\n@misc{deep, title = {${'{'.repeat(d)}x${'}'.repeat(d)}}}\n@misc{b, title = {B}}\n`;
    for (const d of [10_000, 100_000]) {
      let lib: LoadedLibrary | undefined;
      expect(() => { lib = loadLibrary(deep(d), 'bibtex', REF); }).not.toThrow();
      expect(lib!.entries.map((e) => e.key)).toEqual(['a', 'deep', 'b']);
      expect(worded(lib!.file.problems)).toEqual(d > 50_000 ? [{ line: 2, column: 13, severity: 'warning', message: 'field title of entry deep is longer than 100,000 characters; the field is left out' }] : []);
    }
    // 400 deep is read; its title is the text inside
    const lib = loadLibrary(deep(400), 'bibtex', REF);
    expect(lib.entries.map((e) => [e.key, e.title])).toEqual([['a', 'A'], ['deep', 'x'], ['b', 'B']]);
  });
  it('10,000-deep nesting in CSL libraries: that item is a problem at its line, the others load', () => {
    const json = loadLibrary(`[{"id": "a", "x": ${'['.repeat(10_000)}${']'.repeat(10_000)}},\n{"id": "b"}]`, 'csl-json', REF);
    expect(json.entries.map((e) => [e.key, e.library!.line])).toEqual([['b', 2]]);
    expect(worded(json.file.problems)).toEqual([{ line: 1, column: 1, severity: 'error', message: 'this CSL item is nested more than 100 levels deep; skipped' }]);
    let yaml: LoadedLibrary | undefined;
    expect(() => { yaml = loadLibrary(`references:\n- id: a\n  x: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n- id: b\n`, 'csl-yaml', REF); }).not.toThrow();
    expect(worded(yaml!.file.problems)).toEqual([expect.objectContaining({ line: 3, severity: 'error', message: expect.stringMatching(/nested more than \d+ levels deep/) })]);
    expect(yaml!.entries.map((e) => [e.key, e.library!.line])).toEqual([['b', 4]]);
  });
});
