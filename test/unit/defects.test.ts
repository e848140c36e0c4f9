/**
 * One fixture per defect of the bibliography-writer / YAML hardening issue
 * (fixtures/defects/, each named after what it breaks), and the behaviour each must have.
 *
 * The fixtures' line endings are the point of several of them: each test first checks that the
 * file still has them (a checkout that normalises line endings would make the test vacuous).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { editorText, eolOf } from '../../src/core/bibliography/bibtexFile.js';
import { planBibAddition } from '../../src/core/bibliography/planAdditions.js';
import { applySplices, type Splice } from '../../src/core/bibliography/fileEdit.js';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import { toCslJson } from '../../src/core/cite/formatCitation.js';
import { parseEntriesFile, parseTopicsFile } from '../../src/core/corpus/readCorpus.js';
import { parseYaml } from '../../src/core/text/yaml.js';
import { entry, onlySplice } from './helpers.js';

const FIX = join(__dirname, 'fixtures/defects');
const read = (name: string) => readFileSync(join(FIX, name), 'utf8');
const apply = (text: string, ins: Splice) => applySplices(text, [ins]);
const breaks = (s: string) => s.match(/\r\n|\r|\n/g) ?? [];
const count = (s: string, re: RegExp) => s.match(re)?.length ?? 0;
const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

const added = entry({
  key: 'kwon2023efficient', type: 'inproceedings', title: 'Efficient Memory Management for {LLM} Serving: "PagedAttention" #1 — é 中文',
  authors: [{ given: 'Woosuk', family: 'Kwon' }, { given: 'Zhuohan', family: 'Li' }], year: 2023, booktitle: 'SOSP', doi: '10.1145/3600006.3613165',
});

/**
 * Plans adding `added` on `t` and applies the plan to `t`: one insertion in the file's line
 * ending that fuses no line breaks, and the result reads back as `keys` then the new key.
 */
function appendAndReadBack(path: string, t: string, keys: string[]): string {
  const source = readBibFile(path, t)!;
  expect(source.error).toBeUndefined();
  expect(source.entries.map((e) => e.key)).toEqual(keys);
  const plan = onlySplice(planBibAddition(source, [added]));
  const after = apply(t, plan);
  expect(after.slice(0, plan.offset)).toBe(t.slice(0, plan.offset));
  expect(after.slice(plan.offset + plan.text.length)).toBe(t.slice(plan.offset));
  expect(new Set(breaks(plan.text))).toEqual(new Set(breaks(plan.text).length ? [eolOf(t)] : []));
  expect(breaks(after).length, 'line breaks fused or split at the insertion').toBe(breaks(t).length + breaks(plan.text).length);
  const back = readBibFile(path, after)!;
  expect(back.error).toBeUndefined();
  expect(back.entries.map((e) => e.key)).toEqual([...keys, added.key]);
  return after;
}

describe('.bib files with mixed or lone-CR line endings', () => {
  it('mixed-eol-mostly-crlf.bib: planned on the editor text and on the raw text, each applied to the text it was planned on', () => {
    const raw = read('mixed-eol-mostly-crlf.bib');
    expect([count(raw, /\r\n/g), count(raw, /(?<!\r)\n/g), count(raw, /\r(?!\n)/g)]).toEqual([11, 3, 0]);
    const editor = editorText(raw);
    expect(editor).toBe(raw.replace(/\r?\n/g, '\r\n'));
    for (const t of [editor, raw]) appendAndReadBack('refs.bib', t, ['yu2022orca', 'paged']);
  });
  it('lone-cr.bib: planned on the editor text and on the raw text, each applied to the text it was planned on', () => {
    const raw = read('lone-cr.bib');
    expect([count(raw, /\n/g), count(raw, /\r/g)]).toEqual([0, 10]);
    const editor = editorText(raw);
    expect(editor).toBe(raw.replace(/\r/g, '\r\n'));
    for (const t of [editor, raw]) appendAndReadBack('refs.bib', t, ['a1', 'a2']);
  });
});

describe('CSL-JSON with mixed line endings', () => {
  it('mixed-eol.json: the result is valid JSON with the old items and then the new one', () => {
    const raw = read('mixed-eol.json');
    expect([count(raw, /\r\n/g), count(raw, /(?<!\r)\n/g)]).toEqual([9, 3]);
    for (const t of [editorText(raw), raw]) {
      const after = appendAndReadBack('refs.json', t, ['yu2022orca', 'paged']);
      const items = JSON.parse(after) as unknown[];
      expect(items.slice(0, -1)).toEqual(JSON.parse(t));
      expect(items.at(-1)).toEqual(plain(toCslJson(added)));
    }
  });
});

describe('CSL-YAML: the new item lands inside references: and the result parses', () => {
  const cases: [string, string[], string[]][] = [
    // fixture, old ids, other top-level keys
    ['csl-yaml-empty-flow.yaml', [], []],
    ['csl-yaml-key-after.yaml', ['yu2022orca'], ['nocite', 'lang']],
    ['csl-yaml-doc-end.yaml', ['yu2022orca'], []],
  ];
  for (const [name, ids, others] of cases) {
    it(name, () => {
      const raw = read(name);
      for (const t of [raw, raw.replace(/\n/g, '\r\n')]) {
        const before = parseDocument(t).toJS() as Record<string, unknown>;
        const after = appendAndReadBack('refs.yaml', t, ids);
        const doc = parseDocument(after);
        expect(doc.errors).toEqual([]);
        const value = doc.toJS() as Record<string, unknown>;
        expect(Object.keys(value)).toEqual(Object.keys(before));
        expect(Object.keys(value).filter((k) => k !== 'references')).toEqual(others);
        for (const k of others) expect(value[k]).toEqual(before[k]);
        const refs = value.references as unknown[];
        expect(refs.slice(0, -1)).toEqual(before.references);
        expect(refs.at(-1)).toEqual(plain(toCslJson(added)));
        if (name === 'csl-yaml-doc-end.yaml') expect(after.indexOf('...')).toBeGreaterThan(after.indexOf(`id: ${added.key}`));
      }
    });
  }
});

describe('CSL-YAML ending in a line of white space with a tab after an indented comment', () => {
  it('csl-yaml-comment-tab-tail.yaml: the new item goes after the comment, where the yaml library still reads the file', () => {
    const raw = read('csl-yaml-comment-tab-tail.yaml');
    expect(raw.endsWith('\n \t')).toBe(true);
    for (const t of [raw, raw.replace(/\n/g, '\r\n')]) {
      // items right after `references:` would leave the comment and then " \t" after a nested
      // list: "Tabs are not allowed as indentation" (found by the long fuzz run of bibwriter)
      const after = appendAndReadBack('refs.yaml', t, []);
      expect(after.startsWith(t)).toBe(true);
      const value = parseDocument(after).toJS() as { references: unknown[] };
      expect(value.references).toEqual([plain(toCslJson(added))]);
    }
  });
});

describe('a YAML mapping that is not a CSL bibliography', () => {
  it('not-csl-mapping.yaml: planBibAddition refuses it (raw and editor text)', () => {
    const raw = read('not-csl-mapping.yaml');
    for (const t of [raw, editorText(raw), raw.replace(/\n/g, '\r\n')]) {
      const source = readBibFile('refs.yaml', t)!;
      expect(planBibAddition(source, [added])).toEqual({ refusal: 'broken' });
    }
  });
});

describe('YAML that crashed or refused the readers', () => {
  const lines = (t: string) => breaks(t).length + 1;
  const cases: [string, number | undefined][] = [
    // fixture, the line the problem must point at (undefined: any line of the file)
    ['alias-undefined.yaml', 16],
    ['merge-scalar-yaml11.yaml', undefined],
    ['deep-flow.yaml', 2],
  ];
  for (const [name, line] of cases) {
    it(`${name}: parseEntriesFile reports a problem with a line and does not throw`, () => {
      const text = read(name);
      let res: ReturnType<typeof parseEntriesFile> | undefined;
      expect(() => { res = parseEntriesFile(text, name); }).not.toThrow();
      expect(res!.items).toEqual([]);
      const errors = res!.problems.filter((p) => p.severity === 'error');
      expect(errors.length, JSON.stringify(res!.problems)).toBeGreaterThan(0);
      for (const p of res!.problems) {
        expect(p.file).toBe(name);
        expect(p.line).toBeGreaterThanOrEqual(1);
        expect(p.line).toBeLessThanOrEqual(lines(text));
        expect(p.column).toBeGreaterThanOrEqual(1);
      }
      if (line !== undefined) expect(errors.map((p) => p.line), JSON.stringify(errors)).toContain(line);
      expect(() => parseTopicsFile(text, name)).not.toThrow();
      expect(() => parseYaml(text)).not.toThrow();
      expect(() => readBibFile('refs.yaml', text)).not.toThrow();
    });
  }
  it('deep-flow.yaml: nesting is refused, also when generated deeper (850 to 5,000 levels)', () => {
    for (const depth of [850, 2000, 5000]) {
      const text = `- key: deep2024flow\n  title: ${'['.repeat(depth)}\n`;
      const res = parseEntriesFile(text, 'deep.yaml');
      expect(res.items).toEqual([]);
      expect(res.problems.some((p) => p.severity === 'error' && p.line === 2)).toBe(true);
    }
    expect(read('deep-flow.yaml')).toBe(`- key: deep2024flow\n  title: ${'['.repeat(850)}\n`);
  });
  it('alias-100.yaml: a normal entries file that uses one anchor 119 times loads all its entries', () => {
    const text = read('alias-100.yaml');
    expect(count(text, /\*summary\b/g)).toBe(119);
    let res: ReturnType<typeof parseEntriesFile> | undefined;
    expect(() => { res = parseEntriesFile(text, 'alias-100.yaml'); }).not.toThrow();
    expect(res!.problems).toEqual([]);
    expect(res!.items).toHaveLength(120);
    expect(res!.items.every((e) => e.summary === 'Pages the KV cache.' && e.verified[0] === 'https://example.org/fixture')).toBe(true);
    expect(res!.items.map((e) => e.key).slice(0, 3)).toEqual(['kwon2023efficient', 'kwon2023efficient2', 'kwon2023efficient3']);
  });
});
