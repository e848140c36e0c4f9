/**
 * Time bounds as ratios, for inputs that were (or could be) super-linear: the input 10× larger
 * must take at most 15× longer. Each size is timed as the median of 7 repetitions after a
 * warm-up, small and large interleaved; a call too fast to time is repeated in a batch (the same
 * batch size for both inputs) until the small input's batch takes at least 10 ms (at 2 ms, the
 * timer and the scheduler's slices showed in the ratio: 16-23 for linear code on a loaded
 * machine). A ratio over the bound is timed once more, and the second timing decides.
 *
 * Used only by the serial performance run (`npm run test:perf`, vitest.perf.config.mts): a ratio
 * read on a machine busy with something else measures the machine. The unit run counts work instead.
 */
import { expect } from 'vitest';

/** The bound: 10× the input takes at most this many times as long. */
export const MAX_RATIO = 15;
const REPS = 7;
const MIN_BATCH_MS = 10;

function batch(f: () => unknown, k: number): number {
  const t0 = performance.now();
  for (let i = 0; i < k; i++) f();
  return performance.now() - t0;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median times (ms) of `small` and `large` (per batch of `k` calls) and their ratio. */
export function timeRatio(small: () => unknown, large: () => unknown): { small: number; large: number; ratio: number; k: number } {
  small(); large(); small(); large(); // warm-up
  // The fastest of three: one batch slowed by a collection or another process would leave a batch
  // too short to time (a 1 ms small input timed alone gave ×27 for linear code).
  let k = 1;
  while (Math.min(batch(small, k), batch(small, k), batch(small, k)) < MIN_BATCH_MS && k < 1 << 22) k *= 2;
  const s: number[] = [];
  const l: number[] = [];
  for (let r = 0; r < REPS; r++) {
    s.push(batch(small, k));
    l.push(batch(large, k));
  }
  return { small: median(s), large: median(l), ratio: median(l) / median(s), k };
}

/** Fails when `large` (10× the input of `small`) takes more than `max` times as long; prints the timings. */
export function expectLinear(what: string, small: () => unknown, large: () => unknown, max = MAX_RATIO): void {
  // Timed again once when over the bound: the run is serial, but not alone on the machine, and a
  // burst of another process can land in one size's repetitions. A super-linear cost is over it twice.
  let r = timeRatio(small, large);
  if (r.ratio > max) {
    console.log(`${what}: ×${r.ratio.toFixed(1)} (${r.small.toFixed(2)} ms vs ${r.large.toFixed(2)} ms, batch of ${r.k}); timed again`);
    r = timeRatio(small, large);
  }
  const msg = `${what}: ${r.small.toFixed(2)} ms vs ${r.large.toFixed(2)} ms for 10× the input (×${r.ratio.toFixed(1)}, batch of ${r.k})`;
  console.log(msg);
  expect(r.ratio, msg).toBeLessThanOrEqual(max);
}
