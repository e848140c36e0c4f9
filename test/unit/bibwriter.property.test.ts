/**
 * Property tests of appending to a user's bibliography (`planBibAddition`), for `.bib`, CSL-JSON
 * and CSL-YAML files of every shape the generators in fuzz/arbitraries.ts produce, planned both on
 * the file's raw text (what a command-line tool writes back) and on `editorText(raw)` (what VS
 * Code holds for an open document). For each case:
 *
 * - a bibliography that reads without error gets a plan (the planner documents refusing only
 *   unreadable files and files that are not a bibliography of their format: a YAML mapping
 *   without `references:`, JSON that is not a list; the generators make neither);
 * - the plan is one insertion that keeps every other byte, not before a BOM, not inside a CRLF;
 * - the result reads without error: the old keys, then the new one; the old entries unchanged;
 *   the new entry as written (CSL: the item `toCslJson` gives; BibTeX: as its BibTeX reads alone);
 *   CSL-YAML: every other top-level key unchanged;
 * - the insertion uses the file's line ending (`eolOf`, or a kind of break the file already has),
 *   no lone CR in a file without one, and
 *   does not fuse or split the file's line breaks.
 *
 * `FUZZ_RUNS` cases per property (300 by default), seed 42 (`FUZZ_SEED`); see vitest.fuzz.config.mts.
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, it } from 'vitest';
import { parseDocument } from 'yaml';
import { editorText, eolOf, parseBib, type BibEntry } from '../../src/core/bibliography/bibtexFile.js';
import { planBibAddition } from '../../src/core/bibliography/planAdditions.js';
import { applySplices } from '../../src/core/bibliography/fileEdit.js';
import { readBibFile, type BibFile } from '../../src/core/bibliography/bibFile.js';
import { toBibtex } from '../../src/core/cite/writeBibtex.js';
import { toCslJson } from '../../src/core/cite/formatCitation.js';
import {
  BIB_FILE_FORMATS, entryOf, entrySpecArb, freshKey, type EntrySpec,
} from './fuzz/arbitraries.js';
import { call, check, runFuzz, Skip, tallies, TEST_TIMEOUT_MS } from './fuzz/harness.js';

type Variant = 'raw' | 'editor';
interface Case {
  raw: string;
  add: EntrySpec;
}

const FORMATS = BIB_FILE_FORMATS;

const show = (v: unknown) => JSON.stringify(v);
const breaks = (s: string) => s.match(/\r\n|\r|\n/g) ?? [];
const LONE_CR = /\r(?!\n)/;
/** Plain data as JSON would carry it (drops undefined fields). */
const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

/** The value of a YAML text as the `yaml` library reads it (the library readBibFile uses). */
function yamlValue(text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: false });
  return doc.toJS({ maxAliasCount: -1 });
}

function appendProperty(path: string, format: string, variant: Variant) {
  return ({ raw, add }: Case): void => {
    const t = variant === 'raw' ? raw : call('editorText', () => editorText(raw));
    const src = call('readBibFile', () => readBibFile(path, t)) as BibFile | undefined;
    check('readBibFile gives a source', src !== undefined, () => `for ${path}`);
    if (src.error) throw new Skip('file does not read');
    const oldKeys = src.entries.map((e) => e.key);
    if (oldKeys.some((k) => k.toLowerCase() === add.key.toLowerCase())) throw new Skip('new key already in the file');
    const e = entryOf(add);

    const planned = call('planBibAddition', () => planBibAddition(src, [e]));
    check(`plan for a readable bibliography${LONE_CR.test(t) ? ' (file with a lone CR)' : ''}`, 'splices' in planned && planned.splices.length === 1,
      () => `planBibAddition refused a bibliography that reads without error: ${show(planned)}`);
    const plan = planned.splices[0]!;
    const { offset } = plan;
    check('an insertion', plan.length === 0);
    check('offset within the text', Number.isInteger(offset) && offset >= 0 && offset <= t.length, () => `offset ${offset}, length ${t.length}`);
    check('insertion not empty', plan.text.length > 0);
    check('insertion not before the BOM', !(t.startsWith('\uFEFF') && offset === 0));
    const after = applySplices(t, planned.splices);
    check('bytes before the insertion kept', after.slice(0, offset) === t.slice(0, offset));
    check('bytes after the insertion kept', after.slice(offset + plan.text.length) === t.slice(offset));

    // Line endings: the file's own, no lone CR in a file without one, no line break fused or split.
    // eolOf (the first break) is the rule; a separator after a final lone CR is a CR, so that an
    // LF does not fuse with it: either way, only kinds of break the file already has.
    const eol = eolOf(t);
    const own = new Set(breaks(t));
    if (!LONE_CR.test(t)) check('no lone CR inserted into a file without one', !LONE_CR.test(plan.text), () => show(plan.text));
    check('insertion uses the file\'s line ending (eolOf, or a break the file has)', breaks(plan.text).every((b) => b === eol || own.has(b)),
      () => `eolOf ${show(eol)}, inserted ${show([...new Set(breaks(plan.text))])}`);
    check('line breaks neither fused nor split', breaks(after).length === breaks(t).length + breaks(plan.text).length,
      () => `around the insertion: ${show(t.slice(Math.max(0, offset - 2), offset))} | ${show(plan.text.slice(0, 2))} … ${show(plan.text.slice(-2))} | ${show(t.slice(offset, offset + 2))}`);

    // Reading the result back: old keys then the new one, old entries unchanged.
    const back = call('readBibFile(after)', () => readBibFile(path, after))!;
    check('result reads without error', !back.error, () => show(back.error));
    const keys = back.entries.map((x) => x.key);
    check('keys are the old keys then the new key', isDeepStrictEqual(keys, [...oldKeys, add.key]),
      () => `expected ${show([...oldKeys, add.key])}, read ${show(keys)}`);
    check('old entries unchanged', isDeepStrictEqual(back.entries.slice(0, -1), src.entries),
      () => `before ${show(src.entries)}, after ${show(back.entries.slice(0, -1))}`);

    if (format === 'bibtex') {
      const content = (b: BibEntry | undefined) => b && { key: b.key, type: b.type, fields: b.fields };
      const alone = content(parseBib(toBibtex(e)).entries[0]);
      check('new entry reads as its BibTeX alone', isDeepStrictEqual(content(back.entries.at(-1)), alone),
        () => `alone ${show(alone)}, in the file ${show(back.entries.at(-1))}`);
    } else if (format === 'csl-json') {
      const before = JSON.parse(t.replace(/^\uFEFF/, '').trim() || '[]') as unknown[];
      const now = JSON.parse(after.replace(/^\uFEFF/, '')) as unknown[];
      check('JSON: old items unchanged', isDeepStrictEqual(now.slice(0, -1), before));
      check('JSON: new item is toCslJson(entry)', isDeepStrictEqual(now.at(-1), plain(toCslJson(e))),
        () => `expected ${show(plain(toCslJson(e)))}, read ${show(now.at(-1))}`);
    } else {
      const before = yamlValue(t) as Record<string, unknown>;
      const now = yamlValue(after) as Record<string, unknown>;
      const refs = (v: Record<string, unknown>) => (Array.isArray(v) ? v : ((v?.references as unknown[] | null) ?? []));
      check('YAML: new item inside references:', isDeepStrictEqual(refs(now).at(-1), plain(toCslJson(e))),
        () => `expected ${show(plain(toCslJson(e)))}, read ${show(refs(now).at(-1))}`);
      check('YAML: old items unchanged', isDeepStrictEqual(refs(now).slice(0, -1), refs(before)));
      const others = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v ?? {}).filter(([k]) => k !== 'references'));
      check('YAML: other top-level keys unchanged', isDeepStrictEqual(others(now), others(before)),
        () => `before ${show(others(before))}, after ${show(others(now))}`);
    }
  };
}

describe('appending an entry to a bibliography keeps the file and reads back as old + new', () => {
  afterAll(() => {
    console.log(tallies.map((t) => t.summary()).join('\n'));
  });
  for (const { format, path, arb } of FORMATS) {
    const cases: fc.Arbitrary<Case> = fc.tuple(arb as fc.Arbitrary<{ text: string; keys: string[] }>, entrySpecArb)
      .map(([file, spec]) => ({ raw: file.text, add: freshKey(spec, file.keys) }));
    for (const variant of ['raw', 'editor'] as const) {
      it(`${format}, planned on the ${variant === 'raw' ? 'raw file text' : 'editor text (editorText(raw))'}`, () => {
        runFuzz(`${format}/${variant}`, cases, appendProperty(path, format, variant), { minChecked: 0.3 });
      }, TEST_TIMEOUT_MS);
    }
  }
});
