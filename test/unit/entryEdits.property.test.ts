/**
 * Property tests of the two edits of existing entries (`bibliography/entryEdits.ts`), on `.bib`,
 * CSL-JSON and CSL-YAML files of every shape the generators in fuzz/arbitraries.ts produce (line
 * endings of any mix, BOMs, comments, `@string`, flow and block YAML), planned on the raw text and
 * on `editorText(raw)`. For each case that gets a plan:
 *
 * - renaming a key: each splice replaces exactly the old key (or, for a CSL-JSON number id, the
 *   number) with the new key (quoted when it must be); every other byte is kept; the result reads
 *   without error as the same entries, the one renamed;
 * - removing entries: the splices only delete; each removed `.bib` range holds the entry and
 *   white space only, each CSL-JSON range the item, `,` and white space only; the result reads as
 *   the other entries, each unchanged; nothing else (comments, `@string`, other YAML keys) goes.
 *
 * A plan may be refused (the read-back is the planner's safety net): a refusal is a skipped case
 * the tally names (`refused: read-back`), and at least 15% of all cases must be checked (a CSL-YAML
 * file with a lone CR reads no entry, so most raw YAML cases have nothing to plan on). `FUZZ_RUNS` cases per property (300 by default), seed 42
 * (`FUZZ_SEED`); see vitest.fuzz.config.mts.
 */
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { parseDocument } from 'yaml';
import { editorText } from '../../src/core/bibliography/bibtexFile.js';
import { planEntryRemoval, planKeyRename } from '../../src/core/bibliography/entryEdits.js';
import { applySplices } from '../../src/core/bibliography/fileEdit.js';
import { readBibFile, type BibFile } from '../../src/core/bibliography/bibFile.js';
import { keyRefusal } from '../../src/core/cite/keyRules.js';
import { BIB_FILE_FORMATS, keyArb } from './fuzz/arbitraries.js';
import { call, check, runFuzz, Skip, tallies, TEST_TIMEOUT_MS } from './fuzz/harness.js';

const FORMATS = BIB_FILE_FORMATS;

const show = (v: unknown) => JSON.stringify(v);
const sameEntry = (format: string, a: BibFile['entries'][number], b: BibFile['entries'][number]) =>
  a.type === b.type && (format === 'bibtex' ? show(a.fields) === show(b.fields) : show({ ...a.csl, id: null }) === show({ ...b.csl, id: null }));

/** A YAML file's top-level mapping without `references`, as the `yaml` library reads it. */
function otherYamlKeys(text: string): unknown {
  const v = parseDocument(text.replace(/^\uFEFF/, ''), { prettyErrors: false }).toJS({ maxAliasCount: -1 }) as unknown;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const { references: _, ...rest } = v as Record<string, unknown>;
  return rest;
}

function readable(path: string, raw: string, variant: 'raw' | 'editor'): { text: string; file: BibFile } {
  const text = variant === 'raw' ? raw : editorText(raw);
  const file = call('readBibFile', () => readBibFile(path, text));
  if (!file || file.error || !file.entries.length) throw new Skip('no entry reads');
  return { text, file };
}

describe('renaming a key touches the key alone and reads back as the same entries', () => {
  for (const { format, path, arb } of FORMATS) {
    for (const variant of ['raw', 'editor'] as const) {
      it(`${format}, ${variant} text`, () => {
        const cases = fc.record({ file: arb, pick: fc.nat(), name: keyArb });
        runFuzz(`rename ${format}/${variant}`, cases, ({ file: gen, pick, name }) => {
          const { text, file } = readable(path, gen.text, variant);
          const old = file.entries[pick % file.entries.length]!;
          if (keyRefusal(name, [format === 'bibtex' ? 'bibtex' : 'csl-json'])) throw new Skip('not a key of the format');
          if (file.entries.some((e) => e.key.toLowerCase() === name.toLowerCase())) throw new Skip('name taken');
          const plan = call('planKeyRename', () => planKeyRename({ path, text }, old.key, name));
          if ('refusal' in plan) throw new Skip(`refused: ${plan.refusal}`);
          check('one splice per entry with the key', plan.splices.length === file.entries.filter((e) => (format === 'bibtex' ? e.key.toLowerCase() === old.key.toLowerCase() : e.key === old.key)).length,
            () => show(plan.splices));
          for (const s of plan.splices) {
            const was = text.slice(s.offset, s.offset + s.length);
            check('a splice replaces the old key', was.toLowerCase() === old.key.toLowerCase(), () => `${show(was)} for ${show(old.key)}`);
            check('a splice writes the new key', s.text === name || s.text === JSON.stringify(name), () => show(s.text));
          }
          const after = applySplices(text, plan.splices);
          const back = call('readBibFile (after)', () => readBibFile(path, after));
          check('reads without error', !!back && !back.error, () => show(back?.error));
          check('the same number of entries', back.entries.length === file.entries.length);
          back.entries.forEach((e, i) => {
            const was = file.entries[i]!;
            const renamed = format === 'bibtex' ? was.key.toLowerCase() === old.key.toLowerCase() : was.key === old.key;
            check('keys: the old one renamed, the others kept', e.key === (renamed ? name : was.key), () => `${show(e.key)} at ${i}`);
            check('every entry otherwise unchanged', sameEntry(format, e, was), () => `${show(e)} vs ${show(was)}`);
          });
          if (format === 'csl-yaml') check('other YAML keys kept', show(otherYamlKeys(after)) === show(otherYamlKeys(text)));
        }, { minChecked: 0.15 });
      }, TEST_TIMEOUT_MS);
    }
  }
});

describe('removing entries deletes them with their separators only, and reads back as the others', () => {
  for (const { format, path, arb } of FORMATS) {
    for (const variant of ['raw', 'editor'] as const) {
      it(`${format}, ${variant} text`, () => {
        const cases = fc.record({ file: arb, which: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }) });
        runFuzz(`remove ${format}/${variant}`, cases, ({ file: gen, which }) => {
          const { text, file } = readable(path, gen.text, variant);
          const gone = file.entries.filter((_, i) => which[i % which.length]);
          if (!gone.length) throw new Skip('nothing to remove');
          const starts = new Set(gone.map((e) => `${e.start}:${e.key}`));
          const plan = call('planEntryRemoval', () => planEntryRemoval({ path, text }, (e) => starts.has(`${e.start}:${e.key}`)));
          if ('refusal' in plan) throw new Skip(`refused: ${plan.refusal}`);
          const sorted = [...plan.splices].sort((a, b) => a.offset - b.offset);
          sorted.forEach((s, i) => {
            check('a splice deletes', s.text === '' && s.length > 0);
            check('splices apart', i === 0 || sorted[i - 1]!.offset + sorted[i - 1]!.length < s.offset);
          });
          if (format !== 'csl-yaml') {
            // What each range deletes besides the entries: white space, and for JSON the commas between items.
            const spans = gone.map((e) => [e.start!, format === 'bibtex' ? e.end! : -1] as const);
            for (const s of sorted) {
              let rest = text.slice(s.offset, s.offset + s.length);
              for (const [a, b] of spans) {
                if (a < s.offset || a >= s.offset + s.length) continue;
                const end = b >= 0 ? b : a + rest.length;
                rest = format === 'bibtex' ? rest.replace(text.slice(a, end), '') : rest;
              }
              if (format === 'bibtex') check('a .bib range holds entries and white space only', /^\s*$/.test(rest), () => show(rest));
            }
          }
          const after = applySplices(text, plan.splices);
          const back = call('readBibFile (after)', () => readBibFile(path, after));
          check('reads without error', !!back && !back.error, () => show(back?.error));
          const kept = file.entries.filter((e) => !gone.includes(e));
          check('the other entries, in order', show(back.entries.map((e) => e.key)) === show(kept.map((e) => e.key)), () => `${show(back.entries.map((e) => e.key))} vs ${show(kept.map((e) => e.key))}`);
          back.entries.forEach((e, i) => check('each unchanged', sameEntry(format, e, kept[i]!), () => show(e)));
          if (format === 'csl-json') {
            // Each range, less a `,` at one end, is a list of whole items: together, the removed ones.
            let items = 0;
            for (const s of sorted) {
              const deleted = text.slice(s.offset, s.offset + s.length).replace(/^\s*,/, '').replace(/,\s*$/, '');
              const list = call('JSON.parse (a removed range)', () => JSON.parse(`[${deleted}]`) as unknown[]);
              items += list.length;
            }
            check('CSL-JSON ranges hold the removed items, commas and white space only', items === gone.length, () => `${items} items for ${gone.length}`);
          }
          if (format === 'csl-yaml') check('other YAML keys kept', show(otherYamlKeys(after)) === show(otherYamlKeys(text)));
        }, { minChecked: 0.15 });
      }, TEST_TIMEOUT_MS);
    }
  }
});

afterAll(() => {
  for (const t of tallies) if (t.bad) console.log(t.summary());
});
