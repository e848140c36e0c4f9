/**
 * Mutated YAML texts for robustness fuzzing: a seed text (a window of a real corpus file, a
 * CSL-YAML bibliography, a Markdown document with front matter) with random edits: characters and
 * lines inserted, deleted and duplicated; anchors, aliases, merge keys and `%YAML 1.1` directives;
 * flow and block nesting up to 5,000 levels; very long lines; an alias used hundreds of times;
 * an alias bomb.
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(dir, f));
}

/** The real corpus and the YAML fixtures, as seeds. */
export const SEED_FILES: { name: string; text: string }[] = [
  ...yamlFiles(join(ROOT, 'corpus/entries')),
  join(ROOT, 'corpus/topics.yaml'),
  ...yamlFiles(join(ROOT, 'test/unit/fixtures/corpus-bad')),
  ...yamlFiles(join(ROOT, 'test/unit/fixtures/corpus-ok/entries')),
  join(ROOT, 'test/unit/fixtures/bib/refs.yaml'),
].map((f) => ({ name: f.slice(ROOT.length + 1), text: readFileSync(f, 'utf8') }));

/** A window of lines of a seed file (mostly ≤ 60 lines; one in 101 the whole file). */
export const corpusWindowArb: fc.Arbitrary<string> = fc
  .record({
    file: fc.nat({ max: SEED_FILES.length - 1 }),
    start: fc.nat(),
    len: fc.oneof({ weight: 100, arbitrary: fc.integer({ min: 1, max: 60 }) }, { weight: 1, arbitrary: fc.constant(Infinity) }),
  })
  .map(({ file, start, len }) => {
    const lines = SEED_FILES[file]!.text.split('\n');
    if (len === Infinity) return lines.join('\n');
    const s = start % lines.length;
    return lines.slice(s, s + len).join('\n');
  });

const TOKENS = [
  '*alias', '&anchor', '*nope', '&a', '*a', '<<: *a', '<<: *x', '<<: 1', '<<: [*a, *b]', '<<: {k: v}', '%YAML 1.1', '%YAML 1.2',
  '%TAG ! tag:example.com,2000:', '---', '...', '? ', '? complex key', ': value', '!!binary', '!!str', '!!int', '!!map', '!custom',
  '!<tag:yaml.org,2002:str>', '|', '|-', '>+', '>2', '- ', '- - - ', '{', '}', '[', ']', ',', '#', '"', "'", '\\', '\t', '\uFEFF',
  '\u0000', '\u0085', '\u2028', '\r', '\r\n', '\n', 'key: &a {x: 1}', '- &a {key: x}', '- *a', 'a: &a [x, x, x]',
  'title: *a', 'summary: *a', 'é', '中文', '😀', '\uD800', ' ', '  ', '@', '`', '%', '&', '*', '!', '=',
];
const tokenArb = fc.constantFrom(...TOKENS);

/** One edit; positions are taken modulo the text's (or its lines') length when applied. */
export type Mutation =
  | { op: 'insert'; at: number; s: string }
  | { op: 'delete'; at: number; len: number }
  | { op: 'dupChars'; at: number; len: number }
  | { op: 'insertLine'; line: number; s: string }
  | { op: 'dupLine'; line: number; times: number }
  | { op: 'deleteLine'; line: number }
  | { op: 'swapLines'; a: number; b: number }
  | { op: 'anchorAlias'; a: number; b: number; times: number }
  | { op: 'merge'; line: number }
  | { op: 'yaml11' }
  | { op: 'deep'; at: number; depth: number; kind: '[' | '{' | '[{' | 'block' | 'key'; closed: boolean }
  | { op: 'long'; at: number; len: number; s: string }
  | { op: 'bomb'; levels: number };

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('insert' as const), at: fc.nat(), s: fc.oneof(tokenArb, fc.string({ maxLength: 3 })) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 20 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('dupChars' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('insertLine' as const), line: fc.nat(), s: fc.tuple(fc.constantFrom('', '  ', '    '), tokenArb, fc.constantFrom('', ' x', ': y', ' *a')).map((p) => p.join('')) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('dupLine' as const), line: fc.nat(), times: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('deleteLine' as const), line: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('swapLines' as const), a: fc.nat(), b: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('anchorAlias' as const), a: fc.nat(), b: fc.nat(), times: fc.oneof(fc.constant(1), fc.integer({ min: 90, max: 400 })) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('merge' as const), line: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ op: 'yaml11' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('deep' as const), at: fc.nat(),
      depth: fc.oneof(fc.integer({ min: 90, max: 130 }), fc.integer({ min: 700, max: 1000 }), fc.integer({ min: 1, max: 5000 })),
      kind: fc.constantFrom<'[' | '{' | '[{' | 'block' | 'key'>('[', '{', '[{', 'block', 'key'), closed: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('long' as const), at: fc.nat(),
      len: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1_000, max: 4_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 4_000, max: 200_000 }) }),
      s: fc.constantFrom('x', 'ab ', ' ', '[', '- ', '#', '"', "'", 'é', ': ', '\\'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('bomb' as const), levels: fc.integer({ min: 2, max: 12 }) }) },
);

const PAIR = /^(\s*(?:- )?[A-Za-z_][\w-]*:)[ \t]+(\S.*)$/;

function deepText(depth: number, kind: Extract<Mutation, { op: 'deep' }>['kind'], closed: boolean): string {
  switch (kind) {
    case '[': return '['.repeat(depth) + (closed ? ']'.repeat(depth) : '');
    case '{': return '{a: '.repeat(depth) + 'x' + (closed ? '}'.repeat(depth) : '');
    case '[{': return '[{a: '.repeat(Math.ceil(depth / 2)) + 'x' + (closed ? '}]'.repeat(Math.ceil(depth / 2)) : '');
    // compact nested sequences: `- - - x` is `depth` levels on one line
    case 'block': return `${'- '.repeat(depth)}x`;
    // nested mappings need one more column per level: at most 400 levels (80,000 characters)
    case 'key': return Array.from({ length: Math.min(depth, 400) }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' v';
  }
}

/** Applies one edit. */
export function mutate(text: string, m: Mutation): string {
  const pos = (n: number) => (text.length ? n % (text.length + 1) : 0);
  const lines = text.split('\n');
  const li = (n: number) => n % lines.length;
  switch (m.op) {
    case 'insert': { const at = pos(m.at); return text.slice(0, at) + m.s + text.slice(at); }
    case 'delete': { const at = pos(m.at); return text.slice(0, at) + text.slice(at + m.len); }
    case 'dupChars': { const at = pos(m.at); return text.slice(0, at + m.len) + text.slice(at, at + m.len) + text.slice(at + m.len); }
    case 'insertLine': lines.splice(m.line % (lines.length + 1), 0, m.s); return lines.join('\n');
    case 'dupLine': { const i = li(m.line); lines.splice(i, 0, ...Array<string>(m.times).fill(lines[i]!)); return lines.join('\n'); }
    case 'deleteLine': lines.splice(li(m.line), 1); return lines.join('\n');
    case 'swapLines': { const a = li(m.a); const b = li(m.b); [lines[a], lines[b]] = [lines[b]!, lines[a]!]; return lines.join('\n'); }
    case 'anchorAlias': {
      // anchor a value, then replace `times` later values with its alias
      const pairs = lines.map((l, i) => (PAIR.test(l) ? i : -1)).filter((i) => i >= 0);
      if (pairs.length < 2) return text;
      const first = pairs[m.a % pairs.length]!;
      lines[first] = lines[first]!.replace(PAIR, '$1 &shared $2');
      const later = pairs.filter((i) => i > first);
      for (let k = 0; k < Math.min(m.times, later.length); k++) {
        const i = later[(m.b + k) % later.length]!;
        lines[i] = lines[i]!.replace(PAIR, '$1 *shared');
      }
      return lines.join('\n');
    }
    case 'merge': {
      const i = li(m.line);
      const indent = /^(\s*)(?:- )?/.exec(lines[i]!)![0].replace('- ', '  ');
      lines.splice(i + 1, 0, `${indent}<<: *shared`);
      return lines.join('\n');
    }
    case 'yaml11': return `%YAML 1.1\n---\n${text}`;
    case 'deep': { const at = pos(m.at); return text.slice(0, at) + deepText(m.depth, m.kind, m.closed) + text.slice(at); }
    case 'long': { const at = pos(m.at); return text.slice(0, at) + m.s.repeat(Math.ceil(m.len / m.s.length)) + text.slice(at); }
    case 'bomb': {
      const out = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
      for (let i = 1; i < m.levels; i++) out.push(`a${i}: &a${i} [${Array<string>(9).fill(`*a${i - 1}`).join(', ')}]`);
      return `${out.join('\n')}\n${text}`;
    }
  }
}

/** A seed text with 1–8 edits applied. */
export function mutatedArb(seed: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(seed, fc.array(mutationArb, { minLength: 1, maxLength: 8 })).map(([t, ms]) => ms.reduce(mutate, t));
}
