/**
 * fast-check generators for bibliography files as users write them (`.bib`, CSL-JSON, CSL-YAML)
 * and for the corpus entries we append to them.
 *
 * Every file generator first builds the file's lines with LF only, then joins them with a
 * line-ending plan (one kind everywhere, one kind with a few exceptions, or a kind chosen for
 * each line independently), so files with mixed LF / CRLF / lone CR line breaks are common.
 * A BOM and trailing white space (spaces, tabs, extra line breaks, or no final line break) are
 * added last. Generators produce the text itself, so fast-check's counterexamples print the
 * exact, JSON-escaped input.
 */
import fc from 'fast-check';
import type { Entry } from '../../../src/core/corpus/schema.js';
import { entry } from '../helpers.js';

// ---------------------------------------------------------------------------------------------
// Line endings, BOM and trailing white space

export type Eol = '\n' | '\r\n' | '\r';
export const eolArb: fc.Arbitrary<Eol> = fc.constantFrom<Eol>('\n', '\r\n', '\r');

/** How a file's lines are broken: `at(i)` is the line break after line `i`. */
export interface EolPlan {
  base: Eol;
  /** Line index → line break, overriding `base` (a mostly-CRLF file with a few LF lines…). */
  except: readonly (readonly [number, Eol])[];
  /** When non-empty, the line breaks cycle through this list instead (every line independent). */
  cycle: readonly Eol[];
}

export const eolPlanArb: fc.Arbitrary<EolPlan> = fc.oneof(
  // one kind of line break throughout
  { weight: 3, arbitrary: fc.record({ base: eolArb, except: fc.constant([]), cycle: fc.constant([]) }) },
  // mostly one kind, with a few lines broken otherwise
  {
    weight: 3,
    arbitrary: fc.record({
      base: eolArb, except: fc.array(fc.tuple(fc.nat({ max: 40 }), eolArb), { minLength: 1, maxLength: 4 }), cycle: fc.constant([]),
    }),
  },
  // each line's break chosen independently
  { weight: 2, arbitrary: fc.record({ base: eolArb, except: fc.constant([]), cycle: fc.array(eolArb, { minLength: 2, maxLength: 16 }) }) },
);

export function eolAt(plan: EolPlan, i: number): Eol {
  if (plan.cycle.length) return plan.cycle[i % plan.cycle.length]!;
  for (const [at, eol] of plan.except) if (at === i) return eol;
  return plan.base;
}

/** BOM, line-ending plan and what follows the last line. */
export interface Layout {
  bom: boolean;
  eols: EolPlan;
  /** Whether the last line has a line break. */
  finalEol: boolean;
  /** White space after the last line: spaces, tabs, line breaks (`eol` = the file's base break). */
  tail: readonly (' ' | '\t' | Eol | 'eol')[];
}

export const layoutArb: fc.Arbitrary<Layout> = fc.record({
  bom: fc.boolean(),
  eols: eolPlanArb,
  finalEol: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  tail: fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    { weight: 2, arbitrary: fc.array(fc.constantFrom<(' ' | '\t' | Eol | 'eol')>(' ', '\t', 'eol', 'eol', '\n', '\r\n', '\r'), { maxLength: 8 }) },
  ),
});

/**
 * Joins lines written with LF only (`logical`) into a file with the layout's line breaks, BOM
 * and trailing white space.
 */
export function renderText(logical: string, layout: Layout): string {
  const lines = logical.split('\n');
  let out = layout.bom ? '\uFEFF' : '';
  lines.forEach((line, i) => {
    out += line;
    if (i < lines.length - 1 || layout.finalEol) out += eolAt(layout.eols, i);
  });
  for (const t of layout.tail) out += t === 'eol' ? layout.eols.base : t;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Words, titles, keys

/** Citation keys as the corpus schema allows them (`KEY_PATTERN`). */
export const keyArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[a-z]{2,8}20[0-2][0-9][a-z]{0,6}$/) },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_:.-]{0,15}$/) },
);

const plainWordArb = fc.stringMatching(/^[A-Za-z][a-z]{0,8}$/);
const unicodeWordArb = fc.constantFrom(
  'é', 'Ünïcödé', '中文', '深度学习系统', 'naïve', 'Straße', 'Müller', 'Łukasz', 'α-β', '—', '…', 'Ö', '😀', 'Ærø',
);
const punctWordArb = fc.constantFrom(
  ':', 'A:', 'B: C', '#', 'C#', '#1', '"quoted"', '“curly”', "it's", "'single'", '&', 'R&D', '%', '100%', '$', '$x^2$',
  '_', 'snake_case', '~', '^', '\\', 'a\\b', '{', '}', '{GPU}', '{Nested {Braces}}', '\\LaTeX', '--', '-', '/', '?', '!',
  '[x]', '(p)', ',', ';', '=', '@', '*', '&a', '*b', '|', '>', '<', '`', '\t',
);

/** A title with TeX specials, quotes, colons, `#`, non-ASCII letters and CJK. */
export const titleArb: fc.Arbitrary<string> = fc
  .array(
    fc.oneof({ weight: 5, arbitrary: plainWordArb }, { weight: 2, arbitrary: unicodeWordArb }, { weight: 3, arbitrary: punctWordArb }),
    { minLength: 1, maxLength: 9 },
  )
  .map((ws) => ws.join(' ').trim())
  .filter((t) => t.length > 0);

const nameArb = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[A-Z][a-z]{1,9}$/) },
  { weight: 1, arbitrary: fc.constantFrom('Müller', 'Łukasz', "O'Brien", 'de la Cruz', '王', 'Smith-Jones', 'José', 'Zoë', 'van Dyk') },
);

/** What the property needs to know about the entry being added (printed in counterexamples). */
export interface EntrySpec {
  key: string;
  title: string;
  authors: ({ given: string; family: string } | { literal: string })[];
  year?: number;
  doi?: string;
}

export const entrySpecArb: fc.Arbitrary<EntrySpec> = fc.record(
  {
    key: keyArb,
    title: titleArb,
    authors: fc.array(
      fc.oneof(
        { weight: 5, arbitrary: fc.record({ given: fc.oneof(nameArb, fc.constant('')), family: nameArb }) },
        { weight: 1, arbitrary: fc.record({ literal: fc.constantFrom('OpenAI', 'R&D Team', 'Google DeepMind', '深度求索', 'The "X" Group') }) },
      ),
      { minLength: 1, maxLength: 3 },
    ),
    year: fc.integer({ min: 1900, max: 2100 }),
    doi: fc.stringMatching(/^10\.[0-9]{4,9}\/[A-Za-z0-9._;()\/:<>-]{1,20}$/),
  },
  { requiredKeys: ['key', 'title', 'authors'] },
);

/** The corpus entry for a spec (see `entry` in helpers.ts). */
export function entryOf(spec: EntrySpec): Entry {
  return entry({
    key: spec.key, title: spec.title, authors: spec.authors, ...(spec.year !== undefined ? { year: spec.year } : {}),
    ...(spec.doi !== undefined ? { doi: spec.doi } : {}),
  });
}

/** A spec whose key is none of `taken` (ignoring case, as BibTeX and `planBibSync` do). */
export function freshKey(spec: EntrySpec, taken: readonly string[]): EntrySpec {
  const lower = new Set(taken.map((k) => k.toLowerCase()));
  let key = spec.key;
  while (lower.has(key.toLowerCase())) key += 'n';
  return { ...spec, key };
}

/** Makes keys unique ignoring case, keeping them valid keys. */
function uniqueKeys(keys: readonly string[]): string[] {
  const seen = new Set<string>();
  return keys.map((k) => {
    let key = k;
    for (let i = 2; seen.has(key.toLowerCase()); i++) key = `${k}-${i}`;
    seen.add(key.toLowerCase());
    return key;
  });
}

// ---------------------------------------------------------------------------------------------
// BibTeX

/** A field value: braced, quoted, a number, a macro, or a `#` concatenation of those. */
type BibValue =
  | { t: 'brace'; s: string }
  | { t: 'quote'; s: string }
  | { t: 'num'; n: number }
  | { t: 'macro'; i: number }
  | { t: 'concat'; parts: BibValue[]; sep: string };

const texTokenArb = fc.oneof(
  { weight: 6, arbitrary: plainWordArb },
  { weight: 1, arbitrary: fc.constantFrom('é', '中文', 'Ünïcödé', '—', 'naïve') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "\\'e", '{\\"o}', '\\&', '\\%', '$x^2$', '#', ':', ',', '=', "'", '~', '--', '\\textbf{B}', '{GPU}', '{\\LaTeX}',
      '(p)', ';', '{A {nested} group}', '\\_', '?', '!', '/', '*', '`',
    ),
  },
);
/** Balanced TeX text; may hold line breaks (written as `\n`, broken per the layout later). */
const texTextArb = fc
  .array(fc.tuple(texTokenArb, fc.constantFrom(' ', ' ', ' ', '', '  ', '\n', '\n  ')), { minLength: 1, maxLength: 7 })
  .map((ps) => ps.map(([t, s]) => t + s).join('').trim());

const bibLeafArb: fc.Arbitrary<BibValue> = fc.oneof(
  { weight: 5, arbitrary: texTextArb.map((s) => ({ t: 'brace' as const, s })) },
  // `"` may appear in a quoted value only inside braces
  { weight: 3, arbitrary: texTextArb.map((s) => ({ t: 'quote' as const, s: s.replace(/"/g, '{"}') })) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 3000 }).map((n) => ({ t: 'num' as const, n })) },
  { weight: 2, arbitrary: fc.nat({ max: 7 }).map((i) => ({ t: 'macro' as const, i })) },
);
const bibValueArb: fc.Arbitrary<BibValue> = fc.oneof(
  { weight: 4, arbitrary: bibLeafArb },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('concat' as const),
      parts: fc.array(bibLeafArb.filter((v) => v.t !== 'num'), { minLength: 2, maxLength: 4 }),
      sep: fc.constantFrom(' # ', '#', ' #\n    '),
    }),
  },
);

function renderBibValue(v: BibValue, macros: readonly string[]): string {
  switch (v.t) {
    case 'brace': return `{${v.s}}`;
    case 'quote': return `"${v.s}"`;
    case 'num': return String(v.n);
    case 'macro': return macros.length ? macros[v.i % macros.length]! : '{undefined macro}';
    case 'concat': return v.parts.map((p) => renderBibValue(p, macros)).join(v.sep);
  }
}

const FIELD_NAMES = ['title', 'author', 'journal', 'booktitle', 'year', 'note', 'publisher', 'doi', 'url', 'pages', 'volume', 'Title', 'AUTHOR'];
const MACRO_NAMES = ['conf', 'pub', 'venue', 'sosp', 'osdi', 'myMacro', 'j_acm', 'x-y'];

type BibItem =
  | {
    k: 'entry'; type: string; key: string; paren: boolean; oneLine: boolean; indent: string; assign: string; trailingComma: boolean;
    fields: [string, BibValue][];
  }
  | { k: 'string'; type: string; name: number; value: BibValue; paren: boolean }
  | { k: 'preamble'; type: string; s: string }
  | { k: 'comment'; type: string; s: string }
  | { k: 'percent'; s: string }
  | { k: 'free'; s: string }
  | { k: 'blank'; s: string };

/** Free text between entries (BibTeX ignores it): no `@`, which would start an entry. */
const freeTextArb = fc
  .array(fc.oneof(plainWordArb, fc.constantFrom('é', '中文', ':', ',', '.', ';', '=', '-', '(x)', '!', '?', "'", '"', '#', '%', '~', '{x}', '$')), {
    minLength: 1, maxLength: 8,
  })
  .map((ws) => ws.join(' '));

const bibItemArb: fc.Arbitrary<BibItem> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant('entry' as const),
      type: fc.constantFrom('article', 'inproceedings', 'misc', 'book', 'Article', 'MISC', 'techreport'),
      key: keyArb,
      paren: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      oneLine: fc.boolean(),
      indent: fc.constantFrom('  ', '    ', '\t', ''),
      assign: fc.constantFrom(' = ', '=', '\t=\t', ' =  '),
      trailingComma: fc.boolean(),
      fields: fc.uniqueArray(fc.tuple(fc.constantFrom(...FIELD_NAMES), bibValueArb), {
        minLength: 1, maxLength: 5, selector: ([n]) => n.toLowerCase(),
      }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('string' as const), type: fc.constantFrom('string', 'String', 'STRING'), name: fc.nat({ max: MACRO_NAMES.length - 1 }),
      value: bibValueArb, paren: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('preamble' as const), type: fc.constantFrom('preamble', 'PREAMBLE'),
      s: fc.constantFrom('"\\newcommand{\\noopsort}[1]{}"', '{\\providecommand{\\url}[1]{#1}}', '"a" # "b"'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('comment' as const), type: fc.constantFrom('comment', 'Comment', 'COMMENT'), s: freeTextArb.map((s) => s.replace(/[{}]/g, '')) }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('percent' as const), s: freeTextArb }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('free' as const), s: freeTextArb.map((s) => s.replace(/[{}]/g, '')) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('blank' as const), s: fc.constantFrom('', '', '  ', '\t', ' \t ') }) },
);

/** A generated `.bib` file: its text, and the keys of its entries in file order. */
export interface BibFile {
  text: string;
  keys: string[];
}

function renderBib(items: readonly BibItem[]): { logical: string; keys: string[] } {
  const keys = uniqueKeys(items.filter((it) => it.k === 'entry').map((it) => (it as { key: string }).key));
  const macros: string[] = [];
  const out: string[] = [];
  let e = 0;
  for (const it of items) {
    switch (it.k) {
      case 'entry': {
        const [open, close] = it.paren ? ['(', ')'] : ['{', '}'];
        const fields = it.fields.map(([n, v]) => `${n}${it.assign}${renderBibValue(v, macros)}`);
        const key = keys[e++]!;
        if (it.oneLine) out.push(`@${it.type}${open}${key}, ${fields.join(', ')}${it.trailingComma ? ',' : ''}${close}`);
        else out.push(`@${it.type}${open}${key},\n${fields.map((f) => it.indent + f).join(',\n')}${it.trailingComma ? ',' : ''}\n${close}`);
        break;
      }
      case 'string': {
        const name = MACRO_NAMES[it.name]!;
        const [open, close] = it.paren ? ['(', ')'] : ['{', '}'];
        out.push(`@${it.type}${open}${name} = ${renderBibValue(it.value, macros)}${close}`);
        if (!macros.includes(name)) macros.push(name);
        break;
      }
      case 'preamble': out.push(`@${it.type}{${it.s}}`); break;
      case 'comment': out.push(`@${it.type}{${it.s}}`); break;
      case 'percent': out.push(`% ${it.s}`); break;
      case 'free': out.push(it.s); break;
      case 'blank': out.push(it.s); break;
    }
  }
  return { logical: out.join('\n'), keys };
}

/** `.bib` files: entries, `@string`, `@preamble`, `@comment`, `%` lines, free text and blank lines, in any order. */
export const bibFileArb: fc.Arbitrary<BibFile> = fc
  .tuple(fc.array(bibItemArb, { maxLength: 8 }), layoutArb)
  .map(([items, layout]) => {
    const { logical, keys } = renderBib(items);
    return { text: renderText(logical, layout), keys };
  });

// ---------------------------------------------------------------------------------------------
// CSL items (shared by CSL-JSON and CSL-YAML)

type CslName = { family: string; given: string } | { literal: string };

export interface CslItem {
  id: string;
  type: string;
  title: string;
  author?: CslName[];
  issued?: { 'date-parts': number[][] };
  DOI?: string;
  URL?: string;
  'container-title'?: string;
}

const cslItemArb: fc.Arbitrary<CslItem> = fc.record(
  {
    id: keyArb,
    type: fc.constantFrom('article-journal', 'paper-conference', 'book', 'report', 'webpage', 'article', 'software'),
    title: titleArb,
    author: fc.array(
      fc.oneof(
        { weight: 5, arbitrary: fc.record({ family: nameArb, given: nameArb }) },
        { weight: 1, arbitrary: fc.record({ literal: fc.constantFrom('OpenAI', 'R&D: Team #1', '深度求索') }) },
      ),
      { minLength: 1, maxLength: 3 },
    ),
    issued: fc.integer({ min: 1900, max: 2100 }).map((y) => ({ 'date-parts': [[y]] })),
    DOI: fc.stringMatching(/^10\.[0-9]{4,9}\/[A-Za-z0-9._-]{1,12}$/),
    URL: fc.constantFrom('https://example.org/a', 'https://arxiv.org/abs/2309.06180', 'http://x.y/z?q=1&r=#f'),
    'container-title': titleArb,
  },
  { requiredKeys: ['id', 'type', 'title'] },
);

const cslItemsArb = (minLength: number) => fc.array(cslItemArb, { minLength, maxLength: 5 }).map((items) => {
  const ids = uniqueKeys(items.map((i) => i.id));
  return items.map((it, i) => ({ ...it, id: ids[i]! }));
});

/** A generated CSL file: its text, and the ids of its items in order. */
export interface CslFile {
  text: string;
  keys: string[];
}

// ---------------------------------------------------------------------------------------------
// CSL-JSON

/** CSL-JSON arrays: pretty-printed with 2 or 4 spaces or tabs, or minified; possibly empty. */
export const cslJsonFileArb: fc.Arbitrary<CslFile> = fc
  .record({
    items: cslItemsArb(0),
    indent: fc.constantFrom<number | string>(0, 2, 4, '\t'),
    empty: fc.constantFrom('[]', '[\n]', '[ ]', '[\n\n]', '[\n  \n]'),
    lead: fc.oneof({ weight: 5, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('\n', '  ', '\n\n') }),
    layout: layoutArb,
  })
  .map(({ items, indent, empty, lead, layout }) => {
    const json = items.length ? JSON.stringify(items, null, indent || undefined) : empty;
    return { text: renderText(lead + json, layout), keys: items.map((i) => i.id) };
  });

// ---------------------------------------------------------------------------------------------
// CSL-YAML

type ScalarStyle = 'plain' | 'double' | 'single';

const YAML_KEYWORDS = /^(true|false|null|yes|no|on|off|y|n|~|nan|inf)$/i;

/** Whether a string can be written as a plain YAML scalar (block context) and read back as the same string. */
export function plainSafe(s: string): boolean {
  return /^[A-Za-z][A-Za-z0-9 _.,()'/:-]*$/.test(s) && !/\s$/.test(s) && !/:(\s|$)/.test(s) && !YAML_KEYWORDS.test(s);
}

export function yamlScalar(s: string, style: ScalarStyle): string {
  if (style === 'plain' && plainSafe(s)) return s;
  if (style === 'single' && !/[\n\r]/.test(s)) return `'${s.replace(/'/g, "''")}'`;
  return JSON.stringify(s);
}

interface YamlItemStyle {
  scalar: ScalarStyle;
  idFirst: boolean;
  /** `author:` items indented under the key (true) or at the key's own indentation (false). */
  nestedSeq: boolean;
  flowAuthor: boolean;
  flowIssued: boolean;
}

const yamlItemStyleArb: fc.Arbitrary<YamlItemStyle> = fc.record({
  scalar: fc.constantFrom<ScalarStyle>('plain', 'double', 'single'),
  idFirst: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  nestedSeq: fc.boolean(),
  flowAuthor: fc.boolean(),
  flowIssued: fc.boolean(),
});

function yamlItemLines(item: CslItem, style: YamlItemStyle, indent: string): string[] {
  const sc = (s: string) => yamlScalar(s, style.scalar);
  const fields: string[][] = [];
  const id = [`id: ${sc(item.id)}`];
  fields.push([`type: ${sc(item.type)}`]);
  fields.push([`title: ${sc(item.title)}`]);
  if (item.author) {
    const person = (p: CslName): [string, string][] => ('literal' in p ? [['literal', p.literal]] : [['family', p.family], ['given', p.given]]);
    if (style.flowAuthor) {
      fields.push([`author: [${item.author.map((p) => `{${person(p).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')}}`).join(', ')}]`]);
    } else {
      const seqIndent = style.nestedSeq ? '  ' : '';
      fields.push(['author:', ...item.author.flatMap((p) => person(p).map(([k, v], j) => `${seqIndent}${j === 0 ? '- ' : '  '}${k}: ${sc(v)}`))]);
    }
  }
  if (item.issued) {
    const y = item.issued['date-parts'][0]![0]!;
    fields.push(style.flowIssued ? [`issued: {date-parts: [[${y}]]}`] : ['issued:', '  date-parts:', `    - [${y}]`]);
  }
  if (item.DOI) fields.push([`DOI: ${sc(item.DOI)}`]);
  if (item.URL) fields.push([`URL: ${yamlScalar(item.URL, style.scalar === 'plain' ? 'double' : style.scalar)}`]);
  if (item['container-title']) fields.push([`container-title: ${sc(item['container-title'])}`]);
  const ordered = style.idFirst ? [id, ...fields] : [fields[0]!, id, ...fields.slice(1)];
  return ordered.flat().map((line, i) => `${indent}${i === 0 ? '- ' : '  '}${line}`);
}

/** Top-level keys a Pandoc front matter or CSL-YAML file may hold beside `references:`. */
const OTHER_KEYS: Record<string, string[]> = {
  title: ['title: "My Paper: A Study"'],
  lang: ['lang: en-US'],
  nocite: ["nocite: '@*'"],
  'nocite-block': ['nocite: |', '  @a, @b'],
  'link-citations': ['link-citations: true'],
  csl: ['csl: apa.csl'],
  meta: ['meta:', '  a: 1', '  b: [x, y]'],
  tags: ['tags:', '  - x', '  - y: z'],
  notes: ['notes: >', '  folded', '  text # not a comment'],
};
const otherKeyArb = fc.constantFrom(...Object.keys(OTHER_KEYS));

const yamlCommentArb = fc
  .tuple(fc.constantFrom('', '  ', '    '), freeTextArb, fc.constantFrom('', '- id: fake', 'references:', '...'))
  .map(([ind, s, extra]) => `${ind}# ${s}${extra ? ` ${extra}` : ''}`);

interface YamlDoc {
  directive: boolean;
  start: boolean;
  leadComments: string[];
  before: string[];
  refs: 'items' | 'empty-flow' | 'null';
  refsComment: boolean;
  emptyFlow: string;
  itemIndent: string;
  items: { item: CslItem; style: YamlItemStyle; commentsAfter: string[] }[];
  after: string[];
  endComments: string[];
  end: boolean;
  afterEnd: string[];
}

const yamlDocArb: fc.Arbitrary<YamlDoc> = fc
  .record({
    directive: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    start: fc.boolean(),
    leadComments: fc.array(yamlCommentArb, { maxLength: 2 }),
    keys: fc.uniqueArray(otherKeyArb, { maxLength: 4, selector: (k) => OTHER_KEYS[k]![0]!.split(':')[0]! }),
    split: fc.nat({ max: 4 }),
    refs: fc.oneof(
      { weight: 8, arbitrary: fc.constant('items' as const) },
      { weight: 2, arbitrary: fc.constant('empty-flow' as const) },
      { weight: 1, arbitrary: fc.constant('null' as const) },
    ),
    refsComment: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    emptyFlow: fc.constantFrom('[]', '[ ]'),
    itemIndent: fc.constantFrom('', '  ', '    '),
    items: cslItemsArb(1).chain((items) =>
      fc.tuple(...items.map((item) =>
        fc.record({ item: fc.constant(item), style: yamlItemStyleArb, commentsAfter: fc.array(yamlCommentArb, { maxLength: 2 }) }))),
    ),
    endComments: fc.array(yamlCommentArb, { maxLength: 2 }),
    end: fc.boolean(),
    afterEnd: fc.array(yamlCommentArb.map((c) => c.trimStart()), { maxLength: 2 }),
  })
  .map((d) => ({
    directive: d.directive && d.start,
    start: d.start || d.directive,
    leadComments: d.leadComments,
    before: d.keys.slice(0, Math.min(d.split, d.keys.length)),
    after: d.keys.slice(Math.min(d.split, d.keys.length)),
    refs: d.refs === 'items' && !d.items.length ? 'empty-flow' : d.refs,
    refsComment: d.refsComment,
    emptyFlow: d.emptyFlow,
    itemIndent: d.itemIndent,
    items: d.refs === 'items' ? d.items : [],
    endComments: d.endComments,
    end: d.end,
    afterEnd: d.end ? d.afterEnd : [],
  }));

function renderYamlDoc(d: YamlDoc): string {
  const out: string[] = [];
  if (d.directive) out.push('%YAML 1.2');
  if (d.start) out.push('---');
  out.push(...d.leadComments);
  for (const k of d.before) out.push(...OTHER_KEYS[k]!);
  const comment = d.refsComment ? ' # the bibliography' : '';
  if (d.refs === 'empty-flow') out.push(`references: ${d.emptyFlow}${comment}`);
  else if (d.refs === 'null') out.push(`references:${comment}`);
  else {
    out.push(`references:${comment}`);
    for (const { item, style, commentsAfter } of d.items) out.push(...yamlItemLines(item, style, d.itemIndent), ...commentsAfter);
  }
  for (const k of d.after) out.push(...OTHER_KEYS[k]!);
  out.push(...d.endComments);
  if (d.end) out.push('...', ...d.afterEnd);
  return out.join('\n');
}

/**
 * CSL-YAML bibliographies: `references:` with a block list of items (indented 0, 2 or 4), or
 * `references: []`, with other top-level keys before and after, comments between items and at
 * the end, `---` / `...` markers, plain and quoted scalars.
 */
export const cslYamlFileArb: fc.Arbitrary<CslFile> = fc.tuple(yamlDocArb, layoutArb).map(([d, layout]) => ({
  text: renderText(renderYamlDoc(d), layout),
  keys: d.items.map((i) => i.item.id),
}));

/** The three bibliography formats, each with a file name and its generator of whole files. */
export const BIB_FILE_FORMATS = [
  { format: 'bibtex', path: 'refs.bib', arb: bibFileArb },
  { format: 'csl-json', path: 'refs.json', arb: cslJsonFileArb },
  { format: 'csl-yaml', path: 'refs.yaml', arb: cslYamlFileArb },
] as const;

/** CSL-YAML texts with LF line breaks and no BOM (seeds for the YAML mutation fuzzer). */
export const cslYamlLogicalArb: fc.Arbitrary<string> = yamlDocArb.map(renderYamlDoc);

/** Markdown documents with a YAML front matter (seeds for the YAML mutation fuzzer). */
export const frontMatterDocArb: fc.Arbitrary<string> = fc
  .tuple(yamlDocArb, fc.constantFrom('bibliography: refs.bib', 'bibliography:\n  - a.bib\n  - b.json', 'bibliography: [a.yaml]', ''))
  .map(([d, bib]) => {
    const body = renderYamlDoc({ ...d, directive: false, start: false, end: false, afterEnd: [] });
    return `---\n${bib ? `${bib}\n` : ''}${body}\n---\n\n# Heading\n\nText [@a].\n`;
  });
