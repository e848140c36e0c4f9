/**
 * Property tests of the rewrite plan (`planEntryRewrite`, `planEntryRewrites` in
 * `bibliography/planRewrite.ts`): a preprint of a real corpus work, written in a generated layout
 * (type and field-name case, indentation, `=` spacing and alignment, braces or quotes, one line or
 * many, trailing comma, line endings) with fields of the writer's own (`file`, `keywords`, `note`,
 * `abstract`, a custom field), planted among the entries, `@string`s, comments and free text of a
 * generated `.bib` file (fuzz/arbitraries.ts); CSL-JSON and CSL-YAML files of every generated
 * shape gain such an item through `planBibAddition`. For each case:
 *
 * - the preprint is found, and its rewrite is planned;
 * - the plan replaces exactly the entry's text: every byte before and after it is kept;
 * - the result reads back with the same keys in the same order and no new error;
 * - the rewritten entry keeps the writer's key and their own fields as written (BibTeX: the same
 *   text; CSL: the same values), holds the record's fields, and is no longer found;
 * - BibTeX: the entry's own line ending is the only one inside it;
 * - "fix all" over two preprints is all or nothing, and keeps every byte outside the two entries.
 *
 * `FUZZ_RUNS` cases per property (300 by default), seed 42 (`FUZZ_SEED`); see vitest.fuzz.config.mts.
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, it } from 'vitest';
import { planBibAddition } from '../../src/core/bibliography/planAdditions.js';
import { readBibFile, type BibFile } from '../../src/core/bibliography/bibFile.js';
import { OWNED_BIBTEX_FIELDS, OWNED_CSL_VARIABLES, planEntryRewrite, planEntryRewrites } from '../../src/core/bibliography/planRewrite.js';
import { applySplices, type EditPlan } from '../../src/core/bibliography/fileEdit.js';
import { checkBibFile, fixOf } from '../../src/core/checks/checkRecords.js';
import { RecordMatcher } from '../../src/core/checks/matchRecord.js';
import { isVersionOfRecord } from '../../src/core/checks/recordFields.js';
import { bibtexFields } from '../../src/core/cite/writeBibtex.js';
import type { Entry } from '../../src/core/corpus/schema.js';
import { bibFileArb, cslJsonFileArb, cslYamlFileArb, eolArb, type Eol } from './fuzz/arbitraries.js';
import { call, check, runFuzz, Skip, tallies, TEST_TIMEOUT_MS } from './fuzz/harness.js';
import { entry, realCorpus } from './helpers.js';

const show = (v: unknown) => JSON.stringify(v);

/** Corpus works with a version of record and an arXiv id: what preprints are written of. */
const WORKS = realCorpus().entries.filter((e) => isVersionOfRecord(e) && e.arxiv);
const workArb = fc.constantFrom(...WORKS);

/** How a writer lays out a preprint entry. */
interface PreprintLayout {
  form: 'scholar' | 'arxiv' | 'dblp';
  typeCase: 'lower' | 'upper' | 'capital';
  nameCase: 'lower' | 'upper' | 'capital';
  indent: string;
  assign: string;
  align: boolean;
  quotes: boolean;
  oneLine: boolean;
  trailingComma: boolean;
  eol: Eol;
  /** The writer's own fields, in place among the others. */
  own: { name: string; value: string; at: number }[];
  key: string;
}

const layoutArb: fc.Arbitrary<PreprintLayout> = fc.record({
  form: fc.constantFrom('scholar', 'arxiv', 'dblp'),
  typeCase: fc.constantFrom('lower', 'upper', 'capital'),
  nameCase: fc.constantFrom('lower', 'upper', 'capital'),
  indent: fc.constantFrom('  ', '    ', '\t', ''),
  assign: fc.constantFrom(' = ', '=', ' =  ', '\t=\t'),
  align: fc.boolean(),
  quotes: fc.boolean(),
  oneLine: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  trailingComma: fc.boolean(),
  eol: eolArb,
  own: fc.uniqueArray(fc.record({
    name: fc.constantFrom('file', 'keywords', 'note', 'abstract', 'groups', 'x-read', 'mendeley-tags', 'Annote'),
    value: fc.constantFrom('/home/me/paper.pdf', 'serving, kv-cache', 'Read twice. {Important}!', 'We page the {KV} cache -- really.', 'a "quoted" word', '50\\% faster'),
    at: fc.nat({ max: 6 }),
  }), { maxLength: 3, selector: (o) => o.name.toLowerCase() }),
  key: fc.stringMatching(/^[a-z]{2,8}20[0-2][0-9][a-z]{0,4}$/),
});

const cased = (w: string, c: PreprintLayout['nameCase']) => (c === 'upper' ? w.toUpperCase() : c === 'capital' ? w[0]!.toUpperCase() + w.slice(1) : w);

/** A preprint entry of a work, as the writer lays it out. */
function preprintBibtex(work: Entry, l: PreprintLayout): string {
  const authors = work.authors.slice(0, 2).map((p) => ('literal' in p ? `{${p.literal}}` : `${p.family}, ${p.given}`)).join(' and ') + ' and others';
  const base: [string, string][] = l.form === 'scholar'
    ? [['title', work.title.replace(/[{}\\]/g, '')], ['author', authors], ['journal', `arXiv preprint arXiv:${work.arxiv}`], ['year', String((work.year ?? 2020) - 1)]]
    : l.form === 'dblp'
      ? [['author', authors], ['title', work.title.replace(/[{}\\]/g, '')], ['journal', 'CoRR'], ['volume', `abs/${work.arxiv}`], ['year', String(work.year)], ['eprinttype', 'arXiv'], ['eprint', work.arxiv!]]
      : [['title', work.title.replace(/[{}\\]/g, '')], ['author', authors], ['year', String(work.year)], ['eprint', work.arxiv!], ['archivePrefix', 'arXiv'], ['primaryClass', 'cs.LG']];
  const fields = [...base];
  for (const o of l.own) fields.splice(Math.min(o.at, fields.length), 0, [o.name, o.value]);
  const width = Math.max(...fields.map(([n]) => n.length));
  const value = (n: string, v: string) => (n === 'year' && !l.quotes ? v : l.quotes && !v.includes('"') ? `"${v}"` : `{${v}}`);
  const written = fields.map(([n, v]) => `${(l.align ? cased(n, l.nameCase).padEnd(width) : cased(n, l.nameCase))}${l.assign}${value(n, v)}`);
  const type = cased(l.form === 'arxiv' ? 'misc' : 'article', l.typeCase);
  const body = l.oneLine
    ? `@${type}{${l.key}, ${written.join(', ')}${l.trailingComma ? ',' : ''}}`
    : `@${type}{${l.key},\n${written.map((w) => l.indent + w).join(',\n')}${l.trailingComma ? ',' : ''}\n}`;
  return body.replace(/\n/g, l.eol);
}

const matcher = RecordMatcher.of(realCorpus().entries);

interface Case {
  before: string;
  after: string;
  work: Entry;
  layout: PreprintLayout;
  second?: { work: Entry; layout: PreprintLayout };
}

/** Where an entry with `key` begins in a file's text, as read. */
const entryOf = (file: BibFile, key: string) => file.entries.find((e) => e.key === key);

function bibtexProperty({ before, after, work, layout, second }: Case): void {
  const glue = (s: string) => (s && !/[\r\n]$/.test(s) ? layout.eol : '');
  const planted = preprintBibtex(work, layout);
  const secondText = second ? `${layout.eol}${preprintBibtex(second.work, { ...second.layout, key: `${second.layout.key}b` })}${layout.eol}` : '';
  const text = `${before}${glue(before)}${planted}${layout.eol}${secondText}${after}`;
  const file = call('readBibFile', () => readBibFile('refs.bib', text))!;
  const keys = file.entries.map((e) => e.key);
  if (new Set(keys.map((k) => k.toLowerCase())).size !== keys.length) throw new Skip('a generated key is the planted one');
  const mine = entryOf(file, layout.key);
  check('the planted entry reads', !!mine, () => `keys ${show(keys)}`);
  const found = call('checkBibFile', () => checkBibFile(file, matcher));
  const f = found.find((x) => x.key === layout.key);
  check('the preprint is found, as the version of record\'s', f?.kind === 'version-of-record' && f.record.key === work.key, () => show(found.map((x) => [x.key, x.kind, x.record.key])));
  const planned = call('planEntryRewrite', () => planEntryRewrite(file, f.entry, fixOf(f)));
  check('a plan', 'splices' in planned && planned.splices.length === 1, () => show(planned));
  const plan = planned.splices[0]!;
  const start = text.indexOf(planted);
  check('the plan replaces exactly the entry', plan.offset === start && plan.length === planted.length, () => `plan ${plan.offset}+${plan.length}, entry ${start}+${planted.length}`);
  const out = applySplices(text, [plan]);
  check('bytes before the entry kept', out.slice(0, start) === text.slice(0, start));
  check('bytes after the entry kept', out.slice(start + plan.text.length) === text.slice(start + planted.length));
  const breaks = plan.text.match(/\r\n|\r|\n/g) ?? [];
  check('the entry\'s own line ending only', breaks.every((b) => b === layout.eol), () => show([...new Set(breaks)]));
  const back = call('readBibFile(out)', () => readBibFile('refs.bib', out))!;
  check('same keys, same order', isDeepStrictEqual(back.entries.map((e) => e.key), keys), () => show(back.entries.map((e) => e.key)));
  check('no new error', (back.problems?.filter((p) => p.severity === 'error').length ?? 0) <= (file.problems?.filter((p) => p.severity === 'error').length ?? 0));
  const rewritten = entryOf(back, layout.key)!;
  for (const o of layout.own) {
    check(`the writer's ${o.name} kept`, rewritten.fields[o.name.toLowerCase()] === mine.fields[o.name.toLowerCase()], () => `${show(mine.fields[o.name.toLowerCase()])} → ${show(rewritten.fields[o.name.toLowerCase()])}`);
    check(`the writer's ${o.name} kept as written`, plan.text.includes(text.slice(text.indexOf(o.value, start) - 1, text.indexOf(o.value, start) + o.value.length + 1)));
  }
  for (const [name] of bibtexFields({ ...work, key: layout.key })) check(`the record's ${name}`, rewritten.fields[name] !== undefined);
  for (const name of Object.keys(rewritten.fields)) check(`no stale ${name}`, !OWNED_BIBTEX_FIELDS.has(name) || bibtexFields(work).some(([n]) => n === name), () => show(rewritten.fields));
  check('no longer found', !checkBibFile(back, matcher).some((x) => x.key === layout.key));
  if (!second) return;
  const all = checkBibFile(file, matcher).filter((x) => x.kind === 'version-of-record' && (x.key === layout.key || x.key === `${second.layout.key}b`));
  if (all.length !== 2) throw new Skip('the second preprint is not found');
  const fixAll: EditPlan = call('planEntryRewrites', () => planEntryRewrites(file, all.map((x) => ({ entry: x.entry, change: fixOf(x) }))));
  check('fix all: a plan', 'splices' in fixAll && fixAll.splices.length === 2, () => show(fixAll));
  const plans = fixAll.splices;
  const both = applySplices(text, plans);
  const [a, b] = plans;
  check('fix all: bytes outside the two entries kept', both.slice(0, a!.offset) === text.slice(0, a!.offset)
    && both.slice(a!.offset + a!.text.length, a!.offset + a!.text.length + (b!.offset - a!.offset - a!.length)) === text.slice(a!.offset + a!.length, b!.offset)
    && both.endsWith(text.slice(b!.offset + b!.length)));
  check('fix all: none found after', !checkBibFile(readBibFile('refs.bib', both)!, matcher).some((x) => x.kind === 'version-of-record' && all.some((y) => y.key === x.key)));
}

/** A CSL preprint item of a work, with variables of the writer's own (what a CSL library's item carries as written). */
function preprintCsl(work: Entry, key: string, own: Record<string, string>): Entry {
  const item = { id: key, type: 'article', title: work.title, author: work.authors.slice(0, 2).map((p) => ('literal' in p ? p : { family: p.family, given: p.given })), number: `arXiv:${work.arxiv}`, ...own };
  return { ...entry({ key, title: work.title }), library: { uri: 'file:///lib.json', name: 'lib.json', line: 1, sourceType: 'article', keywords: [], groups: [], format: 'csl-json', csl: item } } as unknown as Entry;
}

function cslProperty(path: string) {
  return ({ text: raw, work, own, key }: { text: string; work: Entry; own: Record<string, string>; key: string }): void => {
    const src = readBibFile(path, raw)!;
    if (src.error) throw new Skip('file does not read');
    if (src.entries.some((e) => e.key.toLowerCase() === key.toLowerCase())) throw new Skip('key taken');
    const added = planBibAddition(src, [preprintCsl(work, key, own)]);
    if ('refusal' in added) throw new Skip('no append plan');
    const add = added.splices[0]!;
    const text = raw.slice(0, add.offset) + add.text + raw.slice(add.offset);
    const file = call('readBibFile', () => readBibFile(path, text))!;
    const f = checkBibFile(file, matcher).find((x) => x.key === key);
    check('the preprint is found', f?.kind === 'version-of-record' && f.record.key === work.key, () => show(f));
    const planned = call('planEntryRewrite', () => planEntryRewrite(file, f.entry, fixOf(f)));
    check('a plan', 'splices' in planned && planned.splices.length === 1, () => `${show(planned)} on ${show(text)}`);
    const plan = planned.splices[0]!;
    const out = applySplices(text, [plan]);
    check('bytes before the item kept', out.slice(0, plan.offset) === text.slice(0, plan.offset));
    check('bytes after the item kept', out.slice(plan.offset + plan.text.length) === text.slice(plan.offset + plan.length));
    check('the item starts where it started', plan.offset === f.entry.start);
    const back = readBibFile(path, out)!;
    check('same ids, same order, no error', !back.error && isDeepStrictEqual(back.entries.map((e) => e.key), file.entries.map((e) => e.key)), () => show(back.error));
    check('other items unchanged', back.entries.every((e, i) => e.key === key || isDeepStrictEqual(e.csl, file.entries[i]!.csl)));
    const item = back.entries.find((e) => e.key === key)!.csl!;
    for (const [k, v] of Object.entries(own)) check(`the writer's ${k} kept`, item[k] === v);
    check('the record\'s DOI or container', item['container-title'] !== undefined && !Object.keys(item).some((k) => k === 'number'));
    check('only owned variables changed', Object.keys(item).every((k) => k === 'id' || OWNED_CSL_VARIABLES.has(k) || k in own), () => show(item));
    check('no longer found', !checkBibFile(back, matcher).some((x) => x.key === key));
  };
}

describe('rewriting a preprint to its version of record keeps every other byte', () => {
  afterAll(() => console.log(tallies.map((t) => t.summary()).join('\n')));
  const bibCases: fc.Arbitrary<Case> = fc.record({
    before: bibFileArb.map((f) => f.text), after: bibFileArb.map((f) => f.text.replace(/^\uFEFF/, '')),
    work: workArb, layout: layoutArb,
    second: fc.option(fc.record({ work: workArb, layout: layoutArb }), { nil: undefined }),
  });
  it('BibTeX: a preprint among generated entries, strings, comments and free text', () => {
    runFuzz('rewrite/bibtex', bibCases, bibtexProperty, { minChecked: 0.7 });
  }, TEST_TIMEOUT_MS);

  const ownArb = fc.dictionary(fc.constantFrom('note', 'keyword', 'abstract', 'custom-field', 'annote'), fc.constantFrom('mine', 'a, b', 'x "y" z'), { maxKeys: 3 });
  for (const [path, arb] of [['refs.json', cslJsonFileArb], ['refs.yaml', cslYamlFileArb]] as const) {
    it(`${path}: a preprint item added to a generated file`, () => {
      runFuzz(`rewrite/${path}`, fc.record({ text: arb.map((f) => f.text), work: workArb, own: ownArb, key: fc.stringMatching(/^[a-z]{3,8}20[0-2][0-9]$/) }), cslProperty(path), { minChecked: 0.3 });
    }, TEST_TIMEOUT_MS);
  }
});
