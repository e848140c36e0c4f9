/**
 * Running a fuzz property: every case is timed and classified (passed, skipped by a stated
 * precondition, crashed, hung, or failed a check), the tally is printed per property, and the
 * property fails, with fast-check's shrunk counterexample, on any crash, hang or failed check.
 *
 * Two passes with the same seed: the first runs every case and counts outcomes without stopping
 * (so a report says how many cases of each kind there were); only when something went wrong does
 * the second pass run the same cases until the first bad one and shrink it.
 */
import fc from 'fast-check';

/** Cases per property: `FUZZ_RUNS` (300 by default, a few seconds per property). */
export const NUM_RUNS = Number(process.env.FUZZ_RUNS ?? 300);
/** Fixed seed, so a failure reproduces; `FUZZ_SEED` overrides it. */
export const SEED = Number(process.env.FUZZ_SEED ?? 42);
/**
 * A case (or one call inside it) taking longer than this many ms is a hang, in the long fuzz run
 * only (`npm run fuzz`: vitest.fuzz.config.mts sets `FUZZ_HANG_MS`, 2000). The unit run times no
 * case (Infinity): there a slow case is a busy machine, not a hang, and a real hang is caught by the
 * test's time-out.
 */
export const HANG_MS = Number(process.env.FUZZ_HANG_MS ?? Infinity);
/**
 * Time a property test may take: the fuzz run's (`FUZZ_TIMEOUT_MS`, set by vitest.fuzz.config.mts);
 * undefined in the unit run, which keeps its config's time-out, a hang catcher.
 */
export const TEST_TIMEOUT_MS = process.env.FUZZ_TIMEOUT_MS === undefined ? undefined : Number(process.env.FUZZ_TIMEOUT_MS);
/** Time spent shrinking one kind of failure before reporting the smallest case found so far. */
export const SHRINK_MS = Number(process.env.FUZZ_SHRINK_MS ?? 60_000);

/** A check of the property that did not hold. */
export class CheckFailed extends Error {
  constructor(readonly check: string, detail: string) {
    super(`${check}: ${detail}`);
  }
}
/** An exception thrown by the code under test. */
export class Crashed extends Error {
  constructor(readonly what: string, readonly error: unknown) {
    super(`${what} threw: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`.slice(0, 2000));
  }
}
/** A call to the code under test that took longer than {@link HANG_MS}. */
export class Hung extends Error {
  constructor(readonly what: string, readonly ms: number) {
    super(`${what} took ${Math.round(ms)} ms (limit ${HANG_MS} ms)`);
  }
}
/** Thrown by a check to skip a case whose precondition does not hold (counted, not failed). */
export class Skip extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Fails the check `name` unless `ok`. */
export function check(name: string, ok: boolean, detail: () => string = () => ''): asserts ok {
  if (!ok) throw new CheckFailed(name, detail());
}

/** Calls the code under test: exceptions become {@link Crashed}, slow calls {@link Hung}. */
export function call<R>(what: string, f: () => R): R {
  const t0 = performance.now();
  let r: R;
  try {
    r = f();
  } catch (e) {
    throw new Crashed(what, e);
  }
  const ms = performance.now() - t0;
  if (ms > HANG_MS) throw new Hung(what, ms);
  return r;
}

type Outcome =
  | { kind: 'ok'; ms: number }
  | { kind: 'skip'; reason: string; ms: number }
  | { kind: 'crash' | 'hang' | 'fail'; what: string; message: string; ms: number };

function judge<T>(body: (v: T) => void, v: T, caseLimitMs: number): Outcome {
  const t0 = performance.now();
  let o: Outcome;
  try {
    body(v);
    o = { kind: 'ok', ms: 0 };
  } catch (e) {
    if (e instanceof Skip) o = { kind: 'skip', reason: e.reason, ms: 0 };
    else if (e instanceof Crashed) o = { kind: 'crash', what: e.what, message: e.message, ms: 0 };
    else if (e instanceof Hung) o = { kind: 'hang', what: e.what, message: e.message, ms: 0 };
    else if (e instanceof CheckFailed) o = { kind: 'fail', what: e.check, message: e.message, ms: 0 };
    // an exception from the test's own code (a bug in the property, or the code under test
    // returning something the property cannot handle) counts as a crash too
    else o = { kind: 'crash', what: 'property', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e), ms: 0 };
  }
  o.ms = performance.now() - t0;
  if (o.kind === 'ok' && o.ms > caseLimitMs) o = { kind: 'hang', what: 'case', message: `case took ${Math.round(o.ms)} ms`, ms: o.ms };
  return o;
}

/** Counts of one property's outcomes. */
export class Tally {
  ran = 0;
  ok = 0;
  skipped = new Map<string, number>();
  crashes = new Map<string, number>();
  hangs = new Map<string, number>();
  failures = new Map<string, number>();
  maxMs = 0;
  totalMs = 0;
  private kinds: string[] = [];

  constructor(readonly label: string) {}

  add(o: Outcome): void {
    this.ran++;
    this.totalMs += o.ms;
    this.maxMs = Math.max(this.maxMs, o.ms);
    const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
    if (o.kind === 'ok') this.ok++;
    else if (o.kind === 'skip') bump(this.skipped, o.reason);
    else {
      bump(o.kind === 'crash' ? this.crashes : o.kind === 'hang' ? this.hangs : this.failures, o.what);
      if (!this.kinds.includes(`${o.kind}: ${o.what}`)) this.kinds.push(`${o.kind}: ${o.what}`);
    }
  }

  /** `kind: what` of every crash, hang and failure seen, in order of first appearance. */
  badKinds(): string[] {
    return [...this.kinds];
  }

  get bad(): number {
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    return sum(this.crashes) + sum(this.hangs) + sum(this.failures);
  }

  summary(): string {
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    const list = (m: Map<string, number>) => (m.size ? ` (${[...m].map(([k, n]) => `${k}: ${n}`).join(', ')})` : '');
    return `[fuzz] ${this.label}: ${this.ran} cases, ${this.ok} passed, ${sum(this.skipped)} skipped${list(this.skipped)}, `
      + `${sum(this.crashes)} crashes${list(this.crashes)}, ${Number.isFinite(HANG_MS) ? `${sum(this.hangs)} hangs > ${HANG_MS} ms${list(this.hangs)}, ` : ''}`
      + `${sum(this.failures)} failures${list(this.failures)}; slowest case ${Math.round(this.maxMs)} ms, total ${Math.round(this.totalMs)} ms`;
  }
}

/** Every tally of this test file, for a summary at the end. */
export const tallies: Tally[] = [];

/**
 * Runs a fuzz property: {@link NUM_RUNS} cases from `arb` with {@link SEED}, each through `body`
 * (which throws {@link CheckFailed} / {@link Crashed} / {@link Hung} / {@link Skip}).
 * Prints the tally; throws, with the shrunk counterexample, when any case crashed, hung or failed.
 *
 * @param opts.minChecked - fail when fewer cases than this fraction of the runs passed their
 *   preconditions (a generator that only produces skipped cases tests nothing)
 * @param opts.caseLimitMs - a whole case taking longer is a hang (each {@link call} is limited
 *   to {@link HANG_MS} on its own); default {@link HANG_MS}; like it, judged in the fuzz run only
 */
export function runFuzz<T>(
  label: string, arb: fc.Arbitrary<T>, body: (v: T) => void, opts: { minChecked?: number; caseLimitMs?: number } = {},
): Tally {
  const minChecked = opts.minChecked ?? 0.5;
  const caseLimitMs = Number.isFinite(HANG_MS) ? opts.caseLimitMs ?? HANG_MS : Infinity;
  const tally = new Tally(label);
  tallies.push(tally);
  fc.check(fc.property(arb, (v) => { tally.add(judge(body, v, caseLimitMs)); return true; }), { seed: SEED, numRuns: NUM_RUNS });
  console.log(tally.summary());
  if (tally.bad) {
    // One shrunk counterexample per kind of failure (up to 5), so one failure does not hide another.
    const reports: string[] = [];
    for (const key of tally.badKinds().slice(0, 5)) {
      const details = fc.check(
        fc.property(arb, (v) => {
          const o = judge(body, v, caseLimitMs);
          if ((o.kind === 'crash' || o.kind === 'hang' || o.kind === 'fail') && `${o.kind}: ${o.what}` === key) throw new Error(`${o.kind}: ${o.message}`);
        }),
        // A hang shrinks slowly (each attempt may take seconds): stop shrinking after a while
        // and report the smallest failing case found so far.
        { seed: SEED, numRuns: NUM_RUNS, interruptAfterTimeLimit: SHRINK_MS },
      );
      reports.push(`── ${key} ──\n${fc.defaultReportMessage(details) ?? '(fast-check did not reproduce it)'}`);
    }
    throw new Error(`${tally.summary()}\n\n${reports.join('\n\n')}`);
  }
  const checked = tally.ok / Math.max(1, tally.ran);
  if (checked < minChecked) throw new Error(`${tally.summary()}\nonly ${Math.round(checked * 100)}% of the cases were checked`);
  return tally;
}
