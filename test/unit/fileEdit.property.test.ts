/**
 * The one change of a bibliography file (`bibliography/fileEdit.ts`), held across every planner:
 * on `.bib`, CSL-JSON and CSL-YAML files of every shape fuzz/arbitraries.ts generates, each of the
 * three planners (an addition, a key renamed, an entry removed, an entry rewritten to a record) gives
 * either a refusal code of the one union, or splices that lie inside the text and do not overlap;
 * applied with the one apply (`applySplices`), every code unit outside the splices is kept, in order,
 * and the result reads back with no error. `FUZZ_RUNS` cases per property (300 by default), seed 42.
 */
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import { planEntryRemoval, planKeyRename } from '../../src/core/bibliography/entryEdits.js';
import { applySplices, type EditPlan, type EditRefusal } from '../../src/core/bibliography/fileEdit.js';
import { planBibAddition } from '../../src/core/bibliography/planAdditions.js';
import { planEntryRewrite } from '../../src/core/bibliography/planRewrite.js';
import { BIB_FILE_FORMATS, entryOf, entrySpecArb, freshKey, keyArb } from './fuzz/arbitraries.js';
import { call, check, runFuzz, Skip, tallies, TEST_TIMEOUT_MS } from './fuzz/harness.js';

const REFUSALS: readonly EditRefusal[] = ['broken', 'unplaced', 'shape', 'overlap', 'read-back'];
const show = (v: unknown) => JSON.stringify(v);

/** Checks one plan on `text` (see the module comment); true when it had splices to check. */
function holds(planner: string, path: string, text: string, plan: EditPlan): boolean {
  if ('refusal' in plan) {
    check(`${planner}: a refusal of the one union`, REFUSALS.includes(plan.refusal), () => show(plan));
    return false;
  }
  const sorted = [...plan.splices].sort((a, b) => a.offset - b.offset);
  sorted.forEach((s, i) => {
    check(`${planner}: a splice inside the text`, s.offset >= 0 && s.length >= 0 && s.offset + s.length <= text.length, () => show(s));
    check(`${planner}: splices apart`, i === 0 || sorted[i - 1]!.offset + sorted[i - 1]!.length <= s.offset, () => show(sorted));
  });
  const after = applySplices(text, plan.splices);
  // Walk both texts: each gap between splices is in the result, in order, as it was.
  let from = 0;
  let to = 0;
  for (const s of sorted) {
    const gap = text.slice(from, s.offset);
    check(`${planner}: the bytes between splices kept`, after.slice(to, to + gap.length) === gap, () => `at ${from}: ${show(gap)}`);
    check(`${planner}: the splice's text where it goes`, after.slice(to + gap.length, to + gap.length + s.text.length) === s.text);
    to += gap.length + s.text.length;
    from = s.offset + s.length;
  }
  check(`${planner}: the bytes after the last splice kept`, after.slice(to) === text.slice(from) && after.length === to + text.length - from);
  const back = call(`readBibFile after ${planner}`, () => readBibFile(path, after));
  check(`${planner}: the result reads without error`, !!back && !back.error, () => show(back?.error));
  return true;
}

describe('every planner\'s plan, applied with the one apply, keeps every byte outside its splices', () => {
  afterAll(() => console.log(tallies.map((t) => t.summary()).join('\n')));
  for (const { format, path, arb } of BIB_FILE_FORMATS) {
    it(`${format}: addition, rename, removal, rewrite`, () => {
      const cases = fc.record({ file: arb, spec: entrySpecArb, pick: fc.nat(), name: keyArb });
      runFuzz(`one change ${format}`, cases, ({ file: gen, spec, pick, name }) => {
        const text = gen.text;
        const file = call('readBibFile', () => readBibFile(path, text));
        if (!file || file.error) throw new Skip('the file does not read');
        const keys = file.entries.map((e) => e.key);
        const added = entryOf(freshKey(spec, keys));
        let checked = holds('addition', path, text, call('planBibAddition', () => planBibAddition(file, [added])));
        const target = file.entries[pick % Math.max(1, file.entries.length)];
        if (target) {
          if (!keys.some((k) => k.toLowerCase() === name.toLowerCase())) {
            checked = holds('rename', path, text, call('planKeyRename', () => planKeyRename({ path, text }, target.key, name))) || checked;
          }
          checked = holds('removal', path, text, call('planEntryRemoval', () => planEntryRemoval({ path, text }, (e) => e === target || (e.start === target.start && e.key === target.key)))) || checked;
          const record = entryOf({ ...spec, key: target.key });
          checked = holds('rewrite', path, text, call('planEntryRewrite', () => planEntryRewrite(file, target, { kind: 'record', record }))) || checked;
        }
        if (!checked) throw new Skip('every planner refused');
      }, { minChecked: 0.3 });
    }, TEST_TIMEOUT_MS);
  }
});
