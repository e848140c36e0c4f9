/**
 * Property tests of reading a user's `.bib` library (`BibtexLibraryReader`): files that mix good
 * entries (random keys, types and fields; braced and quoted values with nested braces; `#`
 * concatenation of strings, numbers and `@string` macros; `%` comments between fields; `(`…`)`
 * delimiters; indentation) with everything else a real library has between entries (`@comment`
 * blocks such as JabRef's metadata, `%` comment lines, junk text, `@preamble`, blank lines) and
 * with broken entries (an unclosed brace, a missing comma, garbage inside an entry, a stray `@` at
 * the start of a line or inside a line of text),
 * in LF or CRLF, with or without a BOM. For each file:
 *
 * - reading never throws and ends (`read()` returns true);
 * - every good entry is read, in file order, with its key, its type (lower case), its fields
 *   (names lower case, values as the parser gives them: macros expanded, inner braces kept, line
 *   breaks as written) and the 1-based line of its `@`; its offsets span exactly its text;
 * - every broken entry is one problem (an error) at its line and column; an `@` inside text
 *   between entries (an e-mail address in a `%` comment) or a stray `@` is a warning, and costs
 *   nothing; nothing else is a problem;
 * - reading in slices (a deadline that always says stop) gives the same entries and problems;
 * - `readEntryAt` reads each entry again, from its offsets, to the same fields.
 *
 * `FUZZ_RUNS` cases per property (300 by default), seed 42 (`FUZZ_SEED`); see vitest.fuzz.config.mts.
 */
import { defaultStrings } from '@citation-js/plugin-bibtex/lib/input/constants.js';
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, it } from 'vitest';
import { BibtexLibraryReader, readEntryAt, type RawBibEntry } from '../../src/core/bibliography/readBibtex.js';
import { call, check, runFuzz, tallies, TEST_TIMEOUT_MS } from './fuzz/harness.js';
import { problemMessage } from '../../src/core/text/problemText.js';

const show = (v: unknown) => JSON.stringify(v);

/** A piece of a generated file: its text (LF line breaks) and what reading it should give. */
type Item =
  | { kind: 'good'; text: string; key: string; type: string; fields: Record<string, string> }
  | { kind: 'broken'; text: string; why: string }
  /** Text between entries with an `@` inside a line (an e-mail address): an error at that `@` when it follows what reads well. */
  | { kind: 'stray'; text: string; at: number }
  | { kind: 'other'; text: string };

/** A generated file: `text`, and per item its 1-based line and the column of its first character. */
interface Case {
  text: string;
  bom: boolean;
  crlf: boolean;
  items: { item: Item; line: number; column: number; offset: number }[];
}

// ── Text inside values ─────────────────────────────────────────────────────────────────────
// No atom starts with `@` after a line break (that would start a slice, as in BibTeX), none ends
// in a backslash (`\{`, `\}` are escapes), and braces only come balanced, as groups.

const word = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/);
const symbolAtom = fc.constantFrom(
  '.', ',', ';', ':', '!', '?', '-', '--', '---', "'", '`', '=', '#', '%', '&', '*', '+', '/', '[', ']', '(', ')', '~',
  '$x^2$', '\\emph', "\\'e", '\\&', '\\%', 'a@b.org', '中文', 'é', '\\c{c}',
);
const spaceAtom = fc.constantFrom(' ', '  ', '\n', '\n  ', '\t');
/** Braced text (`quoted`: inside `"…"`, so no `"`), as written and as the parser reads it (the same). */
const content = (quoted: boolean, depth: number): fc.Arbitrary<string> => {
  const atoms: fc.Arbitrary<string>[] = [word, word, symbolAtom, spaceAtom];
  if (!quoted) atoms.push(fc.constant('\\"o'), fc.constant('"quoted"'));
  if (depth > 0) atoms.push(content(quoted, depth - 1).map((c) => `{${c}}`));
  return fc.array(fc.oneof(...atoms), { maxLength: 6 }).map((xs) => xs.join(''));
};

/** A run of white space and `%` comments, as the grammar allows between the tokens of an entry. */
const gap = fc.constantFrom('', ' ', '  ', '\n  ', '\t', ' % a comment, with = and # and @x\n  ', '\n% a whole-line comment\n  ');
const gapAround = fc.constantFrom(' ', '', '\n    ', ' % note\n    ');

/** Part of a value and what it expands to. */
type Part = { text: string; value: string };

const macroName = fc.stringMatching(/^[a-z]{1,6}$/).map((s) => `zz${s}`);
/** A name as written: its case changed at random (macros are case-insensitive). */
const anyCase = (name: string) => fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length })
  .map((up) => [...name].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));

function partArb(macros: [string, string][]): fc.Arbitrary<Part> {
  const parts: fc.Arbitrary<Part>[] = [
    content(false, 2).map((c) => ({ text: `{${c}}`, value: c })),
    content(true, 1).map((c) => ({ text: `"${c}"`, value: c })),
    fc.integer({ min: 0, max: 99_999 }).map((n) => ({ text: String(n), value: String(n) })),
    fc.constantFrom('jan', 'feb', 'dec').chain((m) => anyCase(m).map((t) => ({ text: t, value: defaultStrings[m]! }))),
  ];
  if (macros.length) parts.push(fc.constantFrom(...macros).chain(([name, value]) => anyCase(name).map((t) => ({ text: t, value }))));
  return fc.oneof(...parts);
}

/** A value: parts joined with `#`. */
const valueArb = (macros: [string, string][]): fc.Arbitrary<Part> =>
  fc.tuple(fc.array(partArb(macros), { minLength: 1, maxLength: 3 }), fc.array(gapAround, { minLength: 4, maxLength: 4 }))
    .map(([parts, gaps]) => ({
      text: parts.map((p) => p.text).reduce((a, b, i) => `${a}${gaps[i % 4]}#${gaps[(i + 1) % 4]}${b}`),
      value: parts.map((p) => p.value).join(''),
    }));

const fieldName = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
const key = fc.stringMatching(/^[A-Za-z0-9_:.+/-]{1,20}$/);
const entryType = fc.constantFrom('article', 'Article', 'INPROCEEDINGS', 'misc', 'online', 'book', 'thesis', 'software', 'techreport');

function goodEntry(macros: [string, string][]): fc.Arbitrary<Item> {
  const field = fc.tuple(fieldName.chain((n) => fc.tuple(fc.constant(n), anyCase(n))), valueArb(macros), gap, gap);
  return fc.record({
    type: entryType,
    key,
    parens: fc.boolean(),
    fields: fc.uniqueArray(field, { maxLength: 4, selector: ([[n]]) => n }),
    seps: fc.array(gap, { minLength: 6, maxLength: 6 }),
    trailingComma: fc.boolean(),
  }).map(({ type, key: k, parens, fields, seps, trailingComma }) => {
    const [open, close] = parens ? ['(', ')'] : ['{', '}'];
    const body = fields.map(([[, written], v, g1, g2]) => `${written}${g1}=${g2}${v.text}`).join(`,${seps[3]}`);
    const text = `@${type}${seps[0]}${open}${seps[1]}${k}${seps[2]},${fields.length ? seps[4] : ''}${body}${trailingComma && fields.length ? ',' : ''}${seps[5]}${close}`;
    return { kind: 'good' as const, text, key: k, type: type.toLowerCase(), fields: Object.fromEntries(fields.map(([[n], v]) => [n, v.value])) };
  });
}

/** Broken entries: each fails on its own first line, in a way no text after it can mend. */
const brokenEntry: fc.Arbitrary<Item> = fc.tuple(key, word).chain(([k, w]) => fc.constantFrom<[string, string]>(
  ['unclosed brace', `@misc{${k}, title = {${w} is never closed`],
  ['unclosed brace', `@article{${k},\n  title = {${w}},\n  note = {{nested} and unclosed`],
  ['missing comma after the key', `@misc{${k} title = {${w}}}`],
  ['missing comma between fields', `@misc{${k}, title = {${w}} year = 2020}`],
  ['garbage inside the entry', `@misc{${k}, title = {${w}}, !! ${w} !!}`],
  ['garbage inside the entry', `@misc{${k}, title {${w}}}`],
  ['garbage inside the entry', `@misc{${k}, 123 = {${w}}}`],
  ['stray @', '@'],
  ['stray @', `@ ${w} stray`],
  ['stray @', '@@'],
  ['stray @', `@123 ${w}`],
)).map(([why, text]) => ({ kind: 'broken' as const, why, text }));

/** What a library has between entries. No braces, quotes or parentheses: they could close a broken entry's brace. */
const safeText = fc.stringMatching(/^[A-Za-z0-9 .,;:!?*&^=#%-]{0,40}$/);
const otherItem: fc.Arbitrary<Item> = fc.oneof(
  safeText.map((t) => t.replace(/^\s+/, '')),
  safeText.map((t) => `% ${t}`),
  safeText.map((t) => `@comment{${t}}`),
  safeText.map((t) => `@Comment ${t}`),
  fc.constant('@Comment{jabref-meta: grouping:\n0 AllEntriesGroup:;\n1 StaticGroup:Serving\\;0\\;1\\;0x8a8a8aff\\;\\;\\;;\n}'),
  fc.constant('@preamble{"\\newcommand{\\noop}[1]{}"}'),
  fc.constant(''),
).map((text) => ({ kind: 'other' as const, text }));

/** A line of text with an `@` in it, not at its start: as BibTeX, the reader takes it for an entry that does not parse. */
const strayItem: fc.Arbitrary<Item> = fc.tuple(word, fc.constantFrom('% contact: %w@example.org', 'Maintained by %w@example.org, 2024', '%w @ the end of a note'))
  .map(([w, shape]) => {
    const text = shape.replace('%w', w);
    return { kind: 'stray' as const, text, at: text.indexOf('@') };
  });

const caseArb: fc.Arbitrary<Case> = fc.uniqueArray(macroName, { maxLength: 3 })
  .chain((names) => {
    // Macros defined at the top, each may use the ones before it.
    const defs = names.reduce<fc.Arbitrary<{ texts: string[]; macros: [string, string][] }>>(
      (acc, name) => acc.chain(({ texts, macros }) => fc.tuple(valueArb(macros), fc.constantFrom('@string{%s}', '@STRING( %s )', '@String {\n  %s\n}'))
        .map(([v, shape]) => ({ texts: [...texts, shape.replace('%s', () => `${name} = ${v.text}`)], macros: [...macros, [name, v.value] as [string, string]] }))),
      fc.constant({ texts: [], macros: [] }),
    );
    return defs.chain(({ texts, macros }) => fc.record({
      defs: fc.constant(texts.map((text): Item => ({ kind: 'other', text }))),
      body: fc.array(fc.oneof(
        { weight: 4, arbitrary: goodEntry(macros) }, { weight: 2, arbitrary: brokenEntry }, { weight: 2, arbitrary: otherItem }, { weight: 1, arbitrary: strayItem },
      ), { maxLength: 12 }),
      indents: fc.array(fc.constantFrom('', '', '', '  ', '\t'), { minLength: 20, maxLength: 20 }),
      bom: fc.boolean(),
      crlf: fc.boolean(),
    }));
  })
  .map(({ defs, body, indents, bom, crlf }) => {
    const eol = crlf ? '\r\n' : '\n';
    const all = [...defs, ...body];
    let text = bom ? '\uFEFF' : '';
    let line = 1;
    const items: Case['items'] = [];
    all.forEach((raw, i) => {
      // Indentation only before an `@` (an indented junk line is still junk).
      const indent = raw.text.startsWith('@') ? indents[i % indents.length]! : '';
      const itemText = raw.text.replace(/\n/g, eol);
      const item: Item = raw.kind === 'good'
        ? { ...raw, text: itemText, fields: Object.fromEntries(Object.entries(raw.fields).map(([n, v]) => [n, v.replace(/\n/g, eol)])) }
        : { ...raw, text: itemText };
      const lineStart = text.lastIndexOf('\n') + 1;
      items.push({ item, line, column: text.length + indent.length - lineStart + 1, offset: text.length + indent.length });
      text += indent + itemText + eol;
      line += (itemText.match(/\n/g) ?? []).length + 1;
    });
    return { text, bom, crlf, items };
  });

/** What a reader read, comparable. */
const summary = (r: BibtexLibraryReader) => ({ entries: r.entries.map((e) => ({ ...e })), problems: r.problems.map((p) => ({ ...p })) });

function readProperty(c: Case): void {
  const { text } = c;
  const reader = call('new BibtexLibraryReader', () => new BibtexLibraryReader(text));
  const done = call('read', () => reader.read());
  check('read() says the file was read', done === true);

  const good = c.items.filter((x) => x.item.kind === 'good');
  // The problems, as BibTeX reads: one error per broken entry, at its `@`; a warning at each stray
  // `@` (a stray `@` item, an `@` inside text between entries: nothing is lost), except inside the
  // value an unclosed brace leaves open (it runs to the next line that starts with `@`, where
  // reading goes on); one warning a line.
  const wantProblems: { line: number; column: number; severity: string }[] = [];
  const why: string[] = [];
  let state: 'read' | 'open' = 'read';
  let strayAfterEntry = false;
  for (const { item, line, column } of c.items) {
    // Columns as an editor counts them: a byte-order mark is no character of the first line.
    const col = line === 1 && c.bom ? column - 1 : column;
    if (item.text.startsWith('@')) {
      if (item.kind === 'broken') {
        const stray = item.why === 'stray @';
        wantProblems.push({ line, column: col, severity: stray ? 'warning' : 'error' });
        why.push(item.why);
      }
      state = item.kind === 'broken' && item.why === 'unclosed brace' ? 'open' : 'read';
    } else if (item.kind === 'stray' && state === 'read') {
      wantProblems.push({ line, column: item.at + 1, severity: 'warning' });
      why.push('stray @ in text');
      strayAfterEntry = true;
    }
  }
  // Told apart, so that a failure of one kind does not hide another in the report.
  const where = (c.bom && c.items[0]?.line === 1 && c.items[0].item.text.startsWith('@') ? ' (a file with a BOM, an @ on its first line)' : '')
    + (strayAfterEntry ? ' (a stray @ in the text after an entry)' : '');

  const want = good.map(({ item, line }) => {
    const g = item as Extract<Item, { kind: 'good' }>;
    return { key: g.key, type: g.type, fields: g.fields, line };
  });
  const got = reader.entries.map((e) => ({ key: e.key, type: e.type, fields: { ...e.fields }, line: e.line }));
  check(`every good entry read with its key, type, fields and line${where}`, isDeepStrictEqual(got, want),
    () => `expected ${show(want)}\nread ${show(got)}\nproblems ${show(reader.problems)}`);

  const gotProblems = reader.problems.map((p) => ({ line: p.line, column: p.column, severity: p.severity }));
  check(`one problem per broken entry, at its line and column${where}`, isDeepStrictEqual(gotProblems, wantProblems),
    () => `expected ${show(wantProblems)} (${show(why)})\nreported ${show(reader.problems)}`);
  check('every problem has a message', reader.problems.every((p) => problemMessage(p).length > 0));

  // Offsets: each entry's text, from its `@` to its closing brace.
  reader.entries.forEach((e: RawBibEntry) => {
    const g = good.find((x) => x.offset === e.start);
    check('an entry starts at a good entry\'s `@`', g !== undefined, () => `entry ${show(e.key)} at offset ${e.start}`);
    check('an entry\'s offsets span its text', text.slice(e.start, e.end) === g.item.text,
      () => `expected ${show(g.item.text)}, offsets give ${show(text.slice(e.start, e.end))}`);
    const again = call('readEntryAt', () => readEntryAt(text, e.start, e.end, reader.macros));
    check('readEntryAt reads the entry again to the same fields', again !== undefined && again.label === e.key && isDeepStrictEqual(again.properties, e.fields),
      () => `read at load ${show(e.fields)}, again ${show(again)}`);
  });

  // In slices: a deadline that always says stop (it is asked every 16 entries).
  const sliced = call('new BibtexLibraryReader (sliced)', () => new BibtexLibraryReader(text));
  let calls = 0;
  while (!call('read (sliced)', () => sliced.read(() => true))) {
    calls++;
    check('reading in slices ends', calls <= text.length, () => `${calls} calls`);
  }
  check('reading in slices gives the same entries and problems', isDeepStrictEqual(summary(sliced), summary(reader)),
    () => `at once ${show(summary(reader))}\nin slices ${show(summary(sliced))}`);
}

describe('reading a .bib library: every good entry, one problem per broken one', () => {
  afterAll(() => {
    console.log(tallies.map((t) => t.summary()).join('\n'));
  });
  it('mixed good, broken and other items; LF or CRLF; with or without a BOM', () => {
    runFuzz('library .bib', caseArb, readProperty, { minChecked: 0.9 });
  }, TEST_TIMEOUT_MS);
  it('files of many items, read in slices of 16', () => {
    // Enough items that the deadline is asked several times.
    const many = fc.tuple(caseArb, fc.integer({ min: 10, max: 30 })).map(([c, times]) => {
      const body = c.text.replace(/^\uFEFF/, '');
      const eol = c.crlf ? '\r\n' : '\n';
      const lines = body.split(eol).length - 1;
      const items: Case['items'] = [];
      let text = c.bom ? '\uFEFF' : '';
      for (let t = 0; t < times; t++) {
        for (const x of c.items) items.push({ ...x, line: x.line + t * lines, offset: text.length + x.offset - (c.bom ? 1 : 0), column: x.column - (c.bom && t > 0 && x.line === 1 ? 1 : 0) });
        text += body;
      }
      return { ...c, text, items };
    });
    runFuzz('library .bib (repeated)', many, readProperty, { minChecked: 0.9, caseLimitMs: 10_000 });
  }, TEST_TIMEOUT_MS);
});
