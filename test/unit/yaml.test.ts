import { Composer } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import { parseEntriesFile } from '../../src/core/corpus/readCorpus.js';
import { MAX_YAML_PROBLEMS, parseYaml, tooDeepAt } from '../../src/core/text/yaml.js';
import { problemMessage } from '../../src/core/text/problemText.js';
import { worded } from './problemWords.js';

describe('parseYaml', () => {
  it('reports a duplicate key at the repeated key, in nested mappings too, and reads nothing', () => {
    const { problems, value } = parseYaml('a: 1\nb:\n  c: 2\n  c: 3\na: 4\n');
    expect(problems.every((p) => problemMessage(p.text) === 'Map keys must be unique' && p.severity === 'error')).toBe(true);
    expect(problems.map((p) => p.offset).sort((x, y) => x - y)).toEqual([17, 22]);
    expect(value).toBeUndefined();
    expect(parseYaml('a: 1\na: 2\n', { uniqueKeys: false }).value).toEqual({ a: 2 });
  });
  it('refuses deep nesting, and turns an undefined alias into a problem', () => {
    expect(problemMessage(parseYaml(`a: ${'['.repeat(850)}`).problems[0]!.text)).toMatch(/nested more than 100 levels/);
    expect(problemMessage(parseYaml('- key: *nope\n').problems[0]!.text)).toBe('alias *nope refers to no anchor');
  });
});

describe('parseYaml with a problem per character', () => {
  // 400,000 `"` are 200,000 `""` scalars, each an error of the `yaml` library (2.8 s, most of it
  // one Error with a stack trace per problem); past MAX_YAML_PROBLEMS they are only counted.
  const quotes = '"'.repeat(400_000);
  it('reports the first 100 problems and how many more, on the line of the quotes', () => {
    const text = `title: x\nkey: ${quotes}\n`;
    const { problems, lines, value } = parseYaml(text);
    expect(value).toBeUndefined();
    expect(problems).toHaveLength(MAX_YAML_PROBLEMS + 1);
    expect(problems.every((p) => p.severity === 'error' && p.offset >= 0 && p.offset <= text.length)).toBe(true);
    expect(problems.every((p) => lines.linePos(p.offset).line === 2)).toBe(true);
    expect(problemMessage(problems.at(-1)!.text)).toMatch(/^… and [\d,]+ more YAML problems \(only the first 100 are reported\)$/);
    const count = (ps: typeof problems) => ps.length - 1 + Number(/and ([\d,]+) more/.exec(problemMessage(ps.at(-1)!.text))![1]!.replace(/,/g, ''));
    // as many as the library finds: every `""` after the first (the value) is an error
    expect(count(problems)).toBe(199_999);
  });
  it('gives the readers a problem with a line and column in the text', () => {
    const text = `- key: a\n  title: ${quotes}\n`;
    const { items, problems } = parseEntriesFile(text, 'x.yaml');
    expect(items).toEqual([]);
    expect(problems.length).toBeLessThanOrEqual(MAX_YAML_PROBLEMS + 1);
    expect(problems.every((p) => p.line === 2 && p.column >= 1)).toBe(true);
    const bib = readBibFile('refs.yaml', `references:\n${text}`)!;
    expect(bib.error?.line).toBe(3);
  });
  it('counts the errors the library makes from top-level tokens, and per line', () => {
    for (const text of [']'.repeat(50_000), '{}'.repeat(20_000), '- "\n'.repeat(20_000), '! '.repeat(20_000)]) {
      const { problems } = parseYaml(text);
      expect(problems).toHaveLength(MAX_YAML_PROBLEMS + 1);
      expect(problemMessage(problems.at(-1)!.text)).toMatch(/more YAML problems/);
      expect(problems.every((p) => p.offset >= 0 && p.offset <= text.length)).toBe(true);
    }
  });
  it('caps duplicate keys too, and keeps every problem when there are few', () => {
    const dup = Array.from({ length: 150 }, () => 'k: 1').join('\n');
    const { problems } = parseYaml(dup);
    expect(problems).toHaveLength(MAX_YAML_PROBLEMS + 1);
    expect(problemMessage(problems.at(-1)!.text)).toBe('… and 49 more YAML problems (only the first 100 are reported)');
    expect(parseYaml('a: [1\nb: 2\n').problems.length).toBeLessThan(10);
  });
  it('relies on the yaml Composer reporting through its onError member (checked here, as it is not public API)', () => {
    expect(typeof (new Composer() as unknown as { onError?: unknown }).onError).toBe('function');
  });
});

describe('tooDeepAt counts mappings nested on one line', () => {
  it('refuses `x: x: x: …` in block and flow context', () => {
    for (const text of ['x: '.repeat(2_000), `year: 2${': '.repeat(2_000)}`, `[${'x: '.repeat(2_000)}]`, `- a: b\n  c: ${'x: '.repeat(150)}`]) {
      expect(tooDeepAt(text)).toBeGreaterThan(0);
      expect(worded(parseYaml(text).problems)).toEqual([{ offset: tooDeepAt(text), message: 'nested more than 100 levels deep; not read', severity: 'error' }]);
    }
  });
  it('does not count the keys of a flow mapping, or colons inside quotes and URLs', () => {
    const authors = `author: [${Array.from({ length: 300 }, (_, i) => `{family: F${i}, given: G${i}}`).join(', ')}]`;
    const flat = `{${Array.from({ length: 300 }, (_, i) => `k${i}: ${i}`).join(', ')}}`;
    const quoted = `title: "${'a: '.repeat(300)}"\nurl: ${'http://x.org/a:b'.repeat(50)}\nnote: '${'b: '.repeat(300)}'`;
    for (const text of [authors, flat, quoted]) {
      expect(tooDeepAt(text)).toBe(-1);
      expect(parseYaml(text).problems).toEqual([]);
    }
  });
});
