/**
 * What the inputs of the serial run's time bounds (test/perf/superlinear.perf.test.ts) must read
 * as, checked here on the smaller input of each pair: long white-space tails, macros that double,
 * YAML with an error near the end or a problem per character, a very long key, a one-line CSL
 * library. No clock here: whether 10× the input takes at most 15× the time is the serial run's.
 */
import { describe, expect, it } from 'vitest';
import { normaliseTitle } from '../../src/core/corpus/sameWork.js';
import { findBibKeys, parseBib, STRING_COMMAND } from '../../src/core/bibliography/bibtexFile.js';
import { frontMatterOf } from '../../src/core/markdown/frontMatter.js';
import { planBibAddition } from '../../src/core/bibliography/planAdditions.js';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import { readCslJsonLibrary } from '../../src/core/bibliography/readCslJson.js';
import { parseYaml } from '../../src/core/text/yaml.js';
import { entry } from './helpers.js';
import { worded } from './problemWords.js';

const ws = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
const added = entry({ key: 'kwon2023efficient', title: 'Efficient Memory Management', year: 2023 });

describe('appending after a long white-space tail', () => {
  it('CSL-JSON with 4 KB of white space after or before the closing ], CSL-YAML with 4 KB at the end: read, and the item is planned', () => {
    const json = (tail: string, inside: string) => `[\n  {"id": "a", "type": "book", "title": "A"}${inside}\n]${tail}`;
    const texts: [string, string][] = [
      ['refs.json', json(ws(' \n', 4_000), '')],
      ['refs.json', json('\n', ws('  \n', 4_000))],
      ['refs.yaml', `references:\n  - id: a\n    type: book\n    title: A\n${ws('  \n', 4_000)}`],
    ];
    for (const [name, text] of texts) {
      const file = readBibFile(name, text)!;
      expect(file.error).toBeUndefined();
      expect(planBibAddition(file, [added])).toHaveProperty('splices');
    }
  });
});

describe('@string macros', () => {
  it('macros that double 20 times: refused at the first over 100,000 characters (a17)', () => {
    const lines = ['@string{a0 = "x"}'];
    for (let i = 1; i <= 20; i++) lines.push(`@string{a${i} = a${i - 1} # a${i - 1}}`);
    lines.push('@misc{big, title = a20}');
    const { entries, error } = parseBib(lines.join('\n'));
    expect(entries.map((e) => [e.key, e.fields.title])).toEqual([['big', '']]);
    expect(worded(error)).toEqual({ line: 18, column: 1, message: '@string a17 expands to more than 100,000 characters; it is read as empty' });
  });
  it('a title made of macros just under the limit is read whole, and normaliseTitle keeps its first 2,000 characters; 1,000 journal macros defined and used', () => {
    const lines = ['@string{a0 = "x"}'];
    for (let i = 1; i <= 16; i++) lines.push(`@string{a${i} = a${i - 1} # a${i - 1}}`);
    const { entries, error } = parseBib(`${lines.join('\n')}\n@misc{big, title = a16}`);
    expect(error).toBeUndefined();
    expect(entries[0]!.fields.title).toHaveLength(2 ** 16);
    expect(normaliseTitle(entries[0]!.fields.title)).toHaveLength(2000);
    const bib = Array.from({ length: 1_000 }, (_, i) =>
      `@string{j${i} = "Journal " # "of ${i}"}\n@article{k${i}, journal = J${i}, month = jan # "~" # ${i % 28}, title = {T${i}}}`).join('\n');
    const read = parseBib(bib);
    expect(read.error).toBeUndefined();
    expect(read.entries).toHaveLength(1_000);
    expect(read.entries[999]!.fields.journal).toBe('Journal of 999');
  });
});

describe('YAML', () => {
  it('an error near the end of 6.4 KB (a flat mapping, a references: list): reported, and the front matter still found', () => {
    const flat: string[] = [];
    for (let i = 0, len = 0; len < 6_400 - 60; i++) len += flat[flat.push(`key${i}: "value ${i}: a, b, c"`) - 1]!.length + 1;
    const list = ['title: A paper', 'references:'];
    for (let i = 0, len = 0; len < 6_400 - 80; i++) len += list[list.push(`  - id: key${i}\n    title: "value ${i}: a, b"`) - 1]!.length + 1;
    for (const text of [`${flat.join('\n')}\nbad: [unclosed, "x"\nlast: 1\n`, `${list.join('\n')}\n  - bad: [unclosed, "x"\nlast: 1\n`]) {
      expect(parseYaml(text).problems.some((p) => p.severity === 'error')).toBe(true);
      expect(frontMatterOf(`---\n${text}---\n# Title\n`)).toBeDefined();
    }
  });
  it.each([
    ['a run of "', `key: ${'"'.repeat(10_000)}`],
    ['a run of ]', ']'.repeat(10_000)],
    ['lines of - "', '- "\n'.repeat(2_500)],
  ])('a problem per character (%s, 10,000 characters): the first 100 kept and the rest counted', (_name, text) => {
    expect(parseYaml(text).problems).toHaveLength(101);
  });
});

describe('findBibKeys with a 5,000-character key', () => {
  it('does not throw, and finds the key twice among near misses', () => {
    const key = `k${'a:.-_'.repeat(1_000).slice(0, 4_998)}z`;
    const miss = `${key.slice(0, -1)}y`;
    const text = [`@misc{${miss},`, `@misc{${key},`, `@misc{${key.slice(0, -1)},`, `@Article ( ${key.toUpperCase()} ,`, `@misc{${key}x,`]
      .map((l) => `${l}\n  title = {T}\n}\n`).join('\n');
    expect(key).toHaveLength(5_000);
    let found: number[] = [];
    expect(() => { found = findBibKeys(text, key); }).not.toThrow();
    expect(found.map((o) => text.slice(o, o + key.length).toLowerCase())).toEqual([key.toLowerCase(), key.toLowerCase()]);
  });
});

describe('STRING_COMMAND', () => {
  it.each([[' '], ['%'], ['% c\n'], [' %']])('no @string after @ and 2,000 characters of %j', (unit) => {
    expect(STRING_COMMAND.test(`@${unit.repeat(Math.ceil(2_000 / unit.length))}x`)).toBe(false);
  });
  it('reads @string as the lexer does: any case, across white space and % comments', () => {
    expect(['@string{', '@ % a comment\n  String {', '@%@misc\nstring{', '@\tsTrInG'].map((t) => STRING_COMMAND.test(t))).toEqual([true, true, true, true]);
    expect(['@x string', '@strin', '@preamble{'].map((t) => STRING_COMMAND.test(t))).toEqual([false, false, false]);
  });
});

it('a CSL-JSON library of 1,000 items on one line: every item read', () => {
  const text = `[${Array.from({ length: 1_000 }, (_, i) => `{"id":"k${i}","title":"Paper ${i}"}`).join(',')}]`;
  const { items } = readCslJsonLibrary(text);
  expect(items).toHaveLength(1_000);
  expect(items[999]).toMatchObject({ item: { id: 'k999', title: 'Paper 999' }, line: 1 });
});
