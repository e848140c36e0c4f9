/**
 * Property tests of the CSL library readers (`core/bibliography/readCslJson.ts`, `readCslYaml.ts`) and the JSON error finder
 * (`core/text/json.ts`):
 *
 * - `jsonSyntaxError` finds an error exactly when `JSON.parse` refuses the text (valid JSON, and
 *   JSON with random characters inserted, deleted or replaced), at an offset inside the text;
 * - a CSL-JSON library (an array of items, maybe edited into invalid JSON), read in slices, gives
 *   an item or a problem per element when `JSON.parse` takes the text, else one problem inside it;
 * - CSL-YAML read in slices (the list split by the line scan, a few dozen items per parse) gives
 *   the items, lines and problems of the document parsed whole, for libraries written by the
 *   `yaml` library in its various styles (block or flow, indented or compact lists, folded and
 *   quoted strings), as Pandoc's `references:` or a top-level list (one problem either way: pandoc
 *   reads no reference from it), with other keys, comments,
 *   blank lines, `---` and `...`, LF or CRLF, with or without a BOM; where the document has a
 *   YAML error, reading in slices reports one too and never throws; and what it hands on is
 *   plain data `JSON.stringify` takes;
 * - every item both readers hand on is placed: its `start` and the offset of its `id` value
 *   (`keyStart`, which go to definition lands on) point at the item and at its id in the text.
 *
 * `FUZZ_RUNS` cases per property (300 by default), seed 42 (`FUZZ_SEED`); see vitest.fuzz.config.mts.
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { stringify } from 'yaml';
import { afterAll, describe, it } from 'vitest';
import { jsonSyntaxError } from '../../src/core/text/json.js';
import { CslJsonReader } from '../../src/core/bibliography/readCslJson.js';
import { CslYamlReader } from '../../src/core/bibliography/readCslYaml.js';
import { call, check, runFuzz, Skip, tallies, TEST_TIMEOUT_MS } from './fuzz/harness.js';
import { problemMessage } from '../../src/core/text/problemText.js';

const show = (v: unknown) => JSON.stringify(v);

// JSON: valid texts, and texts one to three edits away from valid.
const JSON_CHARS = [...'[]{},:"\\ 0123456789eE.+-tfnulx/*\n\r\t', '\u00a0', '\u2028', '\uFEFF', '\u0001'];
const edit = fc.record({ at: fc.nat(), kind: fc.constantFrom('insert', 'delete', 'replace'), ch: fc.constantFrom(...JSON_CHARS) });
const jsonText = fc.tuple(fc.json({ maxDepth: 4 }), fc.array(edit, { maxLength: 3 }), fc.boolean()).map(([json, edits, bom]) => {
  let t = json;
  for (const e of edits) {
    const at = t.length ? e.at % (t.length + (e.kind === 'insert' ? 1 : 0)) : 0;
    if (e.kind === 'insert') t = t.slice(0, at) + e.ch + t.slice(at);
    else if (t.length) t = t.slice(0, at) + (e.kind === 'replace' ? e.ch : '') + t.slice(at + 1);
  }
  return (bom ? '\uFEFF' : '') + t;
});

function jsonProperty(text: string): void {
  let parses = true;
  try { JSON.parse(text.replace(/^\uFEFF/, '')); } catch { parses = false; }
  const error = call('jsonSyntaxError', () => jsonSyntaxError(text));
  check('an error exactly when JSON.parse refuses', parses === !error, () => `${show(text)}: JSON.parse ${parses ? 'takes it' : 'refuses it'}, error ${show(error)}`);
  if (error) check('the error is inside the text', error.offset >= 0 && error.offset <= text.length, () => show(error));
}

// CSL-JSON: arrays of items, pretty or minified, one to three edits away from valid.
const cslJsonText = fc.tuple(
  fc.array(fc.oneof(fc.record({ id: fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), title: fc.string({ maxLength: 10 }) }, { requiredKeys: [] }), fc.json({ maxDepth: 2 }).map((t) => JSON.parse(t) as unknown)), { maxLength: 20 }),
  fc.boolean(), fc.array(edit, { maxLength: 2 }),
).map(([items, pretty, edits]) => {
  let t = JSON.stringify(items, null, pretty ? 2 : undefined);
  for (const e of edits) {
    const at = e.at % (t.length + 1);
    if (e.kind === 'insert') t = t.slice(0, at) + e.ch + t.slice(at);
    else t = t.slice(0, at) + (e.kind === 'replace' ? e.ch : '') + t.slice(at + 1);
  }
  return t;
});

function cslJsonProperty(text: string): void {
  let value: unknown;
  try { value = JSON.parse(text.replace(/^\uFEFF/, '')); } catch { value = undefined; }
  const r = new CslJsonReader(text);
  let calls = 0;
  while (!call('reading in slices', () => r.read(() => true))) check('reading in slices ends', ++calls <= text.length + 10);
  const lines = text.split(/\r\n|\r|\n/).length;
  check('problems are inside the text', r.problems.every((p) => p.line >= 1 && p.line <= lines), () => show(r.problems));
  for (const { item, start, keyStart } of r.items) {
    check('an item starts at its {', start !== undefined && text[start] === '{', () => `${show(text)}: ${show(start)}`);
    check('keyStart is at the id value', keyStart !== undefined && jsonTokenAt(text, keyStart) === item.id, () => `${show(text)}: ${show(item.id)} at ${show(keyStart)}`);
  }
  if (Array.isArray(value)) {
    check('an item or a problem per element', r.items.length + r.problems.length === value.length, () => `${show(text)}: ${show(r.items)} ${show(r.problems)}`);
  } else if (text.trim()) {
    check('one problem for what is not a JSON array', r.items.length === 0 && r.problems.length === 1, () => `${show(text)}: ${show(r.problems)}`);
  }
}

/** The JSON string (its opening quote just before `at`) or number at `at`, as `JSON.parse` reads it. */
function jsonTokenAt(text: string, at: number): unknown {
  if (text[at - 1] === '"') {
    let i = at;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    return JSON.parse(text.slice(at - 1, i + 1));
  }
  return Number(/^-?[0-9.eE+-]+/.exec(text.slice(at))?.[0]);
}

// CSL-YAML: libraries written by the `yaml` library.
const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,8}$/);
const scalarText = fc.oneof(
  word,
  fc.constantFrom('A: B', 'a # not a comment', '- dash', 'x\ny', 'multi\n\nparagraph', ' lead', 'trail ', '"quoted"', "it's", 'A & B', 'AT&T', '50%', '@*', '[x]', '{y}', '*bold*', 'null', 'yes', '0123', '1e3', '---', '...'),
  fc.string({ maxLength: 20 }),
);
const person = fc.record({ family: scalarText, given: scalarText }, { requiredKeys: ['family'] });
const item = fc.record({
  id: fc.oneof(word, fc.integer(), fc.constantFrom('', '  ', 'a b', 'x:y', 'null', '0123', '# hash')),
  type: fc.constantFrom('article-journal', 'book', 'paper-conference'),
  title: scalarText,
  author: fc.array(person, { maxLength: 3 }),
  issued: fc.record({ 'date-parts': fc.tuple(fc.tuple(fc.integer({ min: 1900, max: 2030 }))) }),
  note: scalarText,
}, { requiredKeys: ['id'] });
const yamlCase = fc.record({
  items: fc.array(fc.oneof({ weight: 9, arbitrary: item }, { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.integer(), fc.constant([1, 2])) }), { maxLength: 80 }),
  pandoc: fc.boolean(),
  before: fc.constantFrom('', 'title: My references\n', 'nocite: |\n  @*\n'),
  after: fc.constantFrom('', 'lang: en\n', '# end\n'),
  markers: fc.boolean(),
  indentSeq: fc.boolean(),
  lineWidth: fc.constantFrom(0, 20, 80),
  flow: fc.boolean(),
  comments: fc.array(fc.nat(), { maxLength: 4 }),
  crlf: fc.boolean(),
  bom: fc.boolean(),
});
type YamlCase = typeof yamlCase extends fc.Arbitrary<infer T> ? T : never;

function yamlText(c: YamlCase): string {
  const opts = { indentSeq: c.indentSeq, lineWidth: c.lineWidth, flowCollectionPadding: true } as const;
  const items = c.items.map((i) => (c.flow && i && typeof i === 'object' && !Array.isArray(i) ? { ...i } : i));
  let body = c.pandoc ? c.before + stringify({ references: items }, { ...opts, collectionStyle: c.flow ? 'any' : 'block' }) + c.after : stringify(items, opts);
  const lines = body.split('\n');
  for (const at of c.comments) lines.splice(at % (lines.length + 1), 0, '# a comment');
  body = lines.join('\n');
  if (c.markers) body = `---\n${body}${body.endsWith('\n') ? '' : '\n'}...\n`;
  if (c.crlf) body = body.replace(/\n/g, '\r\n');
  return (c.bom ? '\uFEFF' : '') + body;
}

function yamlProperty(c: YamlCase): void {
  const text = yamlText(c);
  const whole = new CslYamlReader(text, { whole: true });
  call('reading whole', () => whole.read());
  const sliced = new CslYamlReader(text);
  let calls = 0;
  while (!call('reading in slices', () => sliced.read(() => true))) {
    calls++;
    check('reading in slices ends', calls <= text.length + 10, () => `${calls} calls`);
  }
  check('what is read is plain data', (() => { try { JSON.stringify(sliced.items); return true; } catch { return false; } })());
  const yamlError = whole.problems.some((p) => problemMessage(p).startsWith('YAML: '));
  if (yamlError) {
    // A document that does not parse (a comment put inside a block scalar, say): the slices report it too.
    check('a YAML error is reported in slices too', sliced.problems.length > 0, () => `${show(text)}\n${show(whole.problems)}`);
    throw new Skip('the document has a YAML error');
  }
  for (const { item, start, keyStart } of sliced.items) {
    check('an item is placed', start !== undefined && start >= 0 && start < text.length, () => `${show(text)}: ${show(start)}`);
    check('keyStart is at the id value', keyStart !== undefined && text.startsWith(String(item.id), keyStart), () => `${show(text)}: ${show(item.id)} at ${show(keyStart)}`);
  }
  // Places included: the split and the whole document agree on where each item and its id are.
  check('in slices = whole: items and lines', isDeepStrictEqual(sliced.items, whole.items),
    () => `${show(text)}\nwhole ${show(whole.items.map((i) => [i.item.id, i.line]))}\nsliced ${show(sliced.items.map((i) => [i.item.id, i.line]))}`);
  check('in slices = whole: problems', isDeepStrictEqual(sliced.problems, whole.problems),
    () => `${show(text)}\nwhole ${show(whole.problems)}\nsliced ${show(sliced.problems)}`);
}

describe('CSL library readers', () => {
  afterAll(() => {
    console.log(tallies.map((t) => t.summary()).join('\n'));
  });
  it('jsonSyntaxError agrees with JSON.parse', () => {
    runFuzz('JSON syntax errors', jsonText, jsonProperty, { minChecked: 0.9 });
  }, TEST_TIMEOUT_MS);
  it('CSL-JSON: an item or a problem per element, or one problem', () => {
    runFuzz('CSL-JSON', cslJsonText, cslJsonProperty, { minChecked: 0.9 });
  }, TEST_TIMEOUT_MS);
  it('CSL-YAML in slices reads what the whole document reads', () => {
    runFuzz('CSL-YAML slices', yamlCase, yamlProperty, { minChecked: 0.7, caseLimitMs: 10_000 });
  }, TEST_TIMEOUT_MS);
});
