/**
 * CSL libraries that broke the reader (issue 20: findings 3, 9, 10 and the CSL items of 14): an
 * item that contains itself or is nested 12,000 deep, a one-line CSL-JSON file, a CSL-YAML file
 * parsed in one piece, ids that are empty, a second YAML document. Fixtures in fixtures/csl/,
 * each named for what it breaks. Growth is bounded by counted work, not by the clock.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CslJsonReader, notPlainData, readCslJsonLibrary, type CslReader } from '../../src/core/bibliography/readCslJson.js';
import { CslYamlReader, readCslYamlLibrary, YAML_BATCH_CHARS } from '../../src/core/bibliography/readCslYaml.js';
import { libraryToJson } from '../../src/core/library/libraryCacheFormat.js';
import { LibraryLoader, loadLibrary } from '../../src/core/library/loadLibrary.js';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import { jsonSyntaxError } from '../../src/core/text/json.js';
import { parseYaml } from '../../src/core/text/yaml.js';
import { problemMessage } from '../../src/core/text/problemText.js';
import { worded } from './problemWords.js';

const FIX = join(__dirname, 'fixtures/csl');
const read = (name: string) => readFileSync(join(FIX, name), 'utf8');
const REF = { uri: 'file:///home/me/refs.yaml', name: 'refs.yaml' };

/** Reads in the smallest slices (the deadline always passed); each call's parsed characters. */
function sliced(r: CslReader & { lastParsed?: number }): number[] {
  const work: number[] = [];
  for (;;) {
    const done = r.read(() => true);
    work.push(r.lastParsed ?? 0);
    if (done) return work;
  }
}

describe('finding 3: an item that contains itself, or is nested deeply, is a problem at its line', () => {
  const cases: [string, 'csl-json' | 'csl-yaml', number, RegExp][] = [
    ['csl-json-item-nested-12000-deep.json', 'csl-json', 3, /^this CSL item is nested more than 100 levels deep; skipped$/],
    ['csl-yaml-item-contains-itself.yaml', 'csl-yaml', 5, /^this CSL item contains itself \(a YAML alias inside its own anchor\); skipped$/],
    ['csl-yaml-alias-bomb.yaml', 'csl-yaml', 4, /^this CSL item cannot be read: Excessive alias count/],
    ['csl-yaml-aliases-stack-depth.yaml', 'csl-yaml', 4, /^this CSL item is nested more than 100 levels deep; skipped$/],
  ];
  for (const [name, format, line, message] of cases) {
    it(name, () => {
      const lib = loadLibrary(read(name), format, REF);
      expect(worded(lib.file.problems!)).toEqual([{ line, column: 1, severity: 'error', message: expect.stringMatching(message) }]);
      expect(lib.entries.map((e) => e.key)).toEqual(['a', 'b']);
      // What was read is plain data: the cache and the server's responses serialise it.
      expect(() => JSON.stringify(lib.entries)).not.toThrow();
      expect(() => structuredClone(lib.entries)).not.toThrow();
      expect(() => libraryToJson(lib)).not.toThrow();
    });
  }
  it('in slices too', () => {
    for (const [name, format] of cases) {
      const loader = new LibraryLoader(read(name), format, REF);
      while (!loader.step(() => true));
      expect(loader.result().entries.map((e) => e.key), name).toEqual(['a', 'b']);
    }
  });
  it('notPlainData: cycles through objects and arrays, depth, shared nodes that are not cycles', () => {
    const self: Record<string, unknown> = { id: 'x' };
    self.me = [{ back: self }];
    expect(problemMessage(notPlainData(self)!)).toMatch(/contains itself/);
    const shared = { a: 1 };
    expect(notPlainData({ id: 'x', one: shared, two: [shared, shared] })).toBeUndefined();
    let deep: unknown = 'leaf';
    for (let i = 0; i < 99; i++) deep = [deep];
    expect(notPlainData({ id: 'x', deep })).toBeUndefined(); // 100 levels with the item
    expect(problemMessage(notPlainData({ id: 'x', deep: [deep] })!)).toMatch(/nested more than 100/);
    let veryDeep: unknown = 'leaf';
    for (let i = 0; i < 1_000_000; i++) veryDeep = [veryDeep];
    expect(problemMessage(notPlainData(veryDeep)!)).toMatch(/nested more than 100/); // no recursion
    expect(notPlainData(null)).toBeUndefined();
    expect(notPlainData(new Date(0))).toBeUndefined();
  });
});

describe('finding 9: a one-line CSL-JSON library is read in linear work', () => {
  const oneLine = (n: number) => `[${Array.from({ length: n }, (_, i) => `{"id":"k${i}","title":"Paper ${i}","issued":{"date-parts":[[2020]]}}`).join(',')}]`;
  it('each character is scanned once (the lines of 20,000 items on one line)', () => {
    const text = oneLine(20_000);
    const r = new CslJsonReader(text);
    sliced(r);
    expect(r.items).toHaveLength(20_000);
    expect(r.items.every((i) => i.line === 1)).toBe(true);
    expect(r.scanned).toBeLessThanOrEqual(text.length);
  });
  it('lines of items over lines and CRLF, counted as the scan goes', () => {
    const r = new CslJsonReader('[{"id": "a"},\r\n{"id": "b"}, {"id": "c"},\n\n  {"id": "d"}]');
    r.read();
    expect(r.items.map((i) => [i.item.id, i.line])).toEqual([['a', 1], ['b', 2], ['c', 2], ['d', 4]]);
  });
  it('an error is placed by a parser, not by the engine\'s message: line and column', () => {
    expect(worded(readCslJsonLibrary('[{"id": "a"},\n {"id": "b",}]').problems)).toEqual([
      { line: 2, column: 13, message: 'not JSON: a property name in double quotes is expected', severity: 'error' },
    ]);
    expect(worded(readCslJsonLibrary('\uFEFF[{"id": "a"}\n  {"id": "b"}]').problems)).toEqual([
      { line: 2, column: 3, message: 'not JSON: a comma or "]" is expected', severity: 'error' },
    ]);
    expect(worded(readCslJsonLibrary(`[${'['.repeat(20_000)}`).problems)).toEqual([
      { line: 1, column: 20_002, message: 'not JSON: the text ends before the JSON value does', severity: 'error' },
    ]);
  });
});

describe('issue 22: both CSL-JSON paths place an error from a parser, not from V8\'s "position N"', () => {
  it('readBibFile (a document\'s bibliography): line and column in our words', () => {
    expect(worded(readBibFile('refs.json', '[\n  {"id": "a"},\n  {"id": "b" "title": "x"}\n]\n')!.error)).toEqual({ line: 3, column: 14, message: 'not JSON: a comma or "}" is expected' });
    expect(worded(readBibFile('refs.json', '\uFEFF[{"id": "a"},]')!.error)).toEqual({ line: 1, column: 15, message: 'not JSON: a value is expected here' });
    expect(worded(readBibFile('refs.json', '[{"id": "a"}] // exported\n')!.error)).toEqual({ line: 1, column: 15, message: 'not JSON: comments are not allowed in JSON' });
    expect(worded(readBibFile('refs.json', `${'['.repeat(50_000)}`)!.error)).toEqual({ line: 1, column: 50_001, message: 'not JSON: the text ends before the JSON value does' });
    expect(readBibFile('refs.json', '[{"id": "a"}]')!.error).toBeUndefined();
  });
  it('jsonSyntaxError: the first error of each kind', () => {
    const cases: [string, number, string][] = [
      ['', 0, 'the text ends where a value is expected'], ['[1,]', 3, 'a value is expected here'], ['{"a" 1}', 5, 'a colon is expected after the property name'],
      ['{"a": 1,}', 8, 'a property name in double quotes is expected'], ['{,}', 1, 'a property name in double quotes or "}" is expected'],
      ['[1 2]', 3, 'a comma or "]" is expected'], ['[tru]', 1, 'not a JSON value'], ['[\u00a0]', 1, 'not a JSON value'], ['[1] x', 4, 'text after the end of the JSON value'],
      ['["a\nb"]', 1, 'a string is not closed on its line'], ['["\u0001"]', 1, 'a control character in a string (it must be escaped)'],
      ['["\\x"]', 1, 'an unknown escape in a string'], ['["\\u12"]', 1, 'a \\u escape needs four hexadecimal digits'], ['[1.]', 1, 'a number ends too early'],
      ['/* c */ 1', 0, 'comments are not allowed in JSON'],
    ];
    for (const [text, offset, message] of cases) expect(worded(jsonSyntaxError(text)), text).toEqual({ offset, message });
    expect(jsonSyntaxError('\uFEFF{"a": [1, {"b": null}], "c": "\\u00e9"}')).toBeUndefined();
  });
});

describe('finding 10: a CSL-YAML library is read in slices of bounded work', () => {
  const block = (n: number) => Array.from({ length: n }, (_, i) => `- id: k${i}\n  title: "Paper ${i}: a study"\n  author:\n  - family: Doe\n    given: J\n  issued:\n    date-parts: [[${1990 + (i % 30)}]]\n`).join('');
  const pandoc = (n: number) => `---\n# exported\nnocite: |\n  @*\nreferences:\n${block(n)}# the end\n...\n`;
  it('no call of read() parses more than a batch (twice, for a batch read again item by item), at 4,000 items', () => {
    for (const text of [`references:\n${block(4_000)}`, pandoc(4_000)]) {
      const r = new CslYamlReader(text);
      const work = sliced(r);
      expect(r.wholeDocument).toBe(false);
      expect(r.items).toHaveLength(4_000);
      expect(r.problems).toEqual([]);
      expect(Math.max(...work)).toBeLessThanOrEqual(2 * YAML_BATCH_CHARS);
      // all of it parsed once, apart from the text around the list
      expect(work.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(text.length + 100);
      expect(work.length).toBeGreaterThan(text.length / YAML_BATCH_CHARS);
    }
  });
  it('reads what the whole document reads: items, lines and problems', () => {
    const texts = [
      `references:\n${block(50)}`, pandoc(50), `references:\n${block(3)}`.replace(/\n/g, '\r\n'), `\uFEFF${pandoc(3)}`,
      'references:\n  - id: a\n    title: A\n\n  # a comment\n  - id: b\n    abstract: |\n      - not an item\n      more\n  - id: c\nnocite: "@*"\n',
      'title: My refs\nreferences:\n- id: a\n- 42\n- title: no id\n-\n- [1, 2]\n- id: b\n  note: >\n    folded\n    text\n',
      'references:\n- {"id": "a", "title": "flow items"}\n- {id: b}\n', 'references:\n- id: a\n...\n# after the end\n',
      'references:\n- id: a\n  tags: [x,\n    y]\n- id: b\n', 'references:\n- id: "a"\n  title: "two\n    lines"\n- id: b\n',
      'references:\n- id: a\n  title: [unclosed\n- id: b\n- id: c\n  bad: "\n', 'references:\n- id: a\n  id: a2\n- id: b\n',
      'references:\n- id: a\n  x: *nope\n- id: b\n', 'references:\n- id: a\nreferences:\n- id: b\n',
      // A list without references: is one problem, where the list starts, read either way.
      block(3), '# mine\n\n- id: a\n', '---\n- id: a\n...\n',
    ];
    for (const text of texts) {
      const a = readCslYamlLibrary(text);
      const whole = new CslYamlReader(text, { whole: true });
      whole.read();
      const broken = whole.problems.some((p) => problemMessage(p).startsWith('YAML: '));
      if (!broken) {
        expect(a.items, text).toEqual(whole.items);
        expect(a.problems, text).toEqual(whole.problems);
      } else {
        // A YAML error is the whole document's problem; read in slices, its item's only.
        expect(a.problems.length, text).toBeGreaterThan(0);
        expect(a.problems.every((p) => problemMessage(p).startsWith('YAML: ') || problemMessage(p).includes('CSL item')), text).toBe(true);
      }
    }
  });
  it('where the scan cannot split, the document is parsed whole, with the same result', () => {
    const texts = [
      'references: [{id: a}, {id: b}]\n', 'references:\n- &x {id: a}\n- id: b\n  same: *x\n', '%YAML 1.2\n---\n- id: a\n',
      'references:\n\t- id: a\n', 'references:\n- id: a\n---\n- id: b\n', 'references:\n  - id: a\n kind: x\n', 'not: csl\n', '',
      'refs:\n- id: a\n', '[{id: a}]\n', 'references:\n- id: a\n...\nreferences: x\n',
    ];
    for (const text of texts) {
      const r = new CslYamlReader(text);
      r.read();
      const whole = new CslYamlReader(text, { whole: true });
      whole.read();
      expect(r.wholeDocument, text).toBe(true);
      expect(r.items, text).toEqual(whole.items);
      expect(r.problems, text).toEqual(whole.problems);
    }
    expect(readCslYamlLibrary('references:\n- &x {id: a}\n- id: b\n  same: *x\n').items.map((i) => i.item.id)).toEqual(['a', 'b']);
  });
  it('anchors send the document to the whole parse; an ampersand in prose does not', () => {
    const whole = (text: string) => {
      const r = new CslYamlReader(text);
      r.read();
      return r.wholeDocument;
    };
    for (const anchored of ['- &a\n  id: a\n', '- id: a\n  x: &a 1\n', '- id: a\n  x: !!str &a 1\n', '- id: a\n  x: [1, &a 2]\n', '- id: a\n  x: {k: 1,&a k2: 2}\n', '- id: a\n  x:\n  - &a 1\n', '- {"id": "a", "x":&a 1}\n']) {
      expect(whole(`references:\n${anchored}`), anchored).toBe(true);
    }
    for (const prose of ['- id: a\n  title: Research & Development\n', '- id: a\n  title: AT&T\n', '- id: a\n  URL: https://x.org/?a=1&b=2\n', '- id: a\n  note: see &amp; there\n', '- id: a\n  title: "&quoted"\n']) {
      expect(whole(`references:\n${prose}`), prose).toBe(false);
    }
  });
  it('a text with a lone CR is refused where the scan finds it', () => {
    expect(worded(readCslYamlLibrary('references:\n- id: a\r- id: b\n').problems)).toEqual([{ line: 2, column: 8, message: expect.stringMatching(/lone CR/), severity: 'error' }]);
  });
  it('progress: total once the list is scanned, done as items are read', () => {
    const r = new CslYamlReader(`references:\n${block(200)}`);
    expect([r.total, r.done]).toEqual([0, 0]);
    const seen: [number, number][] = [];
    while (!r.read(() => true)) seen.push([r.done, r.total]);
    expect(seen.some(([d, t]) => t === 200 && d > 0 && d < 200)).toBe(true);
  });
});

describe('finding 14: empty ids and a second YAML document', () => {
  for (const name of ['csl-ids-empty.json', 'csl-ids-empty.yaml']) {
    it(`${name}: an id that is empty or white space is a problem at its line; the item is skipped`, () => {
      const lib = loadLibrary(read(name), name.endsWith('.json') ? 'csl-json' : 'csl-yaml', REF);
      expect(lib.entries.map((e) => e.key)).toEqual(['a', 'b']);
      const lines = name.endsWith('.json') ? [3, 4] : [4, 6];
      expect(worded(lib.file.problems!)).toEqual([
        { line: lines[0], column: 1, severity: 'error', message: 'this CSL item\'s "id" is empty; skipped' },
        { line: lines[1], column: 1, severity: 'error', message: 'this CSL item\'s "id" is blank (only white space); skipped' },
      ]);
    });
  }
  it('csl-yaml-two-documents.yaml: says the file holds two documents and names the line of the second "---"', () => {
    const text = read('csl-yaml-two-documents.yaml');
    const lib = readCslYamlLibrary(text);
    expect(worded(lib.problems)).toEqual([{
      line: 4, column: 1, severity: 'error',
      message: 'YAML: this file holds more than one YAML document: a second one starts with the "---" on line 4',
    }]);
    expect(parseYaml('a: 1\n...\nb: 2\n').problems.map((p) => problemMessage(p.text))).toEqual(['this file holds more than one YAML document: a second one starts on line 3']);
    expect(JSON.stringify(parseYaml(text).problems)).not.toMatch(/parseAllDocuments/);
  });
});
