/**
 * The library index's one bounded heap: it keeps the best `limit` of the items offered, its root
 * the worst of them (the first to go). Used for a search's best hits ({@link topK}), a word's top
 * list and a prefix's newest entries (`build.ts`).
 */

/**
 * Offers `item` to a heap that keeps the best `limit` items: `worse(a, b)` says `a` goes before `b`.
 *
 * @param heap - the heap so far (an array in heap order, changed in place)
 * @param item - an id the comparison understands
 * @param limit - items kept at most
 * @param worse - a strict order: whether `a` is worse than `b`
 */
export function offerBounded(heap: number[], item: number, limit: number, worse: (a: number, b: number) => boolean): void {
  let i: number;
  if (heap.length < limit) {
    heap.push(item);
    for (i = heap.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[p]!)) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
    return;
  }
  if (!worse(heap[0]!, item)) return;
  heap[0] = item;
  for (i = 0; ;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
    if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
    if (m === i) return;
    [heap[i], heap[m]] = [heap[m]!, heap[i]!];
    i = m;
  }
}

/**
 * At most `k` of `docs` that `want` accepts, by score descending, then id ascending.
 *
 * @param docs - entry ids
 * @param acc - scores by entry id
 * @param want - the test an entry must pass (run on those that could still make the list)
 */
export function topK(docs: readonly number[], acc: Float64Array, k: number, want: (d: number) => boolean): number[] {
  const better = (a: number, b: number) => acc[a]! > acc[b]! || (acc[a] === acc[b] && a < b);
  const byRank = (a: number, b: number) => (better(a, b) ? -1 : better(b, a) ? 1 : 0);
  if (docs.length <= 4 * k) return docs.filter(want).sort(byRank).slice(0, k);
  const heap: number[] = [];
  for (const d of docs) {
    // The cheap test first: most documents cannot displace the worst of a full heap.
    if (heap.length === k && !better(d, heap[0]!)) continue;
    if (want(d)) offerBounded(heap, d, k, (a, b) => better(b, a));
  }
  return heap.sort(byRank);
}
