/** Folded strings of many entries, kept a thousand to a string, for the library index's filters. */

/** Entries per string of a {@link Haystack}. */
export const CHUNK = 1024;

/**
 * One folded string per entry, kept {@link CHUNK} entries to a string (NUL between entries): a
 * filter runs `indexOf` over a hundred strings instead of testing 100,000, and the index keeps a
 * hundred strings instead of one per entry. Entry `i` is in string `i / CHUNK`: every string but
 * the last holds {@link CHUNK} entries.
 */
export class Haystack {
  private readonly texts: string[] = [];
  /** Per string: where each entry's text starts. */
  private readonly starts: number[][] = [];
  /** Entries pushed but not yet joined into the last string. */
  private open: string[] = [];
  private count = 0;

  /**
   * Restores strings written by {@link parts}.
   *
   * @throws Error when one is not a string, or holds more than {@link CHUNK} entries
   */
  static from(parts: readonly string[]): Haystack {
    const h = new Haystack();
    if (!Array.isArray(parts)) throw new Error('LibraryIndex: folded strings are not a list');
    for (const text of parts) {
      if (typeof text !== 'string') throw new Error('LibraryIndex: a folded string is not a string');
      const starts = [0];
      for (let i = text.indexOf('\0'); i >= 0; i = text.indexOf('\0', i + 1)) starts.push(i + 1);
      if (starts.length > CHUNK || (h.starts.length && h.starts[h.starts.length - 1]!.length < CHUNK)) throw new Error('LibraryIndex: folded strings of the wrong size');
      h.texts.push(text);
      h.starts.push(starts);
      h.count += starts.length;
    }
    return h;
  }

  /** Entries held. */
  get size(): number {
    return this.count;
  }

  /** Adds the next entry's string (joined when next read, or when its string is full). */
  push(s: string): void {
    this.open.push(s);
    this.count++;
    const last = this.starts[this.starts.length - 1];
    if (this.open.length === (!last || last.length === CHUNK ? CHUNK : CHUNK - last.length)) this.flush();
  }

  /** Joins the entries pushed into the last string. */
  flush(): void {
    if (!this.open.length) return;
    let c = this.texts.length - 1;
    if (c < 0 || this.starts[c]!.length === CHUNK) {
      this.texts.push('');
      this.starts.push([]);
      c++;
    }
    const starts = this.starts[c]!;
    const before = this.texts[c]!;
    let at = starts.length ? before.length + 1 : 0;
    for (const s of this.open) { starts.push(at); at += s.length + 1; }
    this.texts[c] = (before || starts.length > this.open.length ? `${before}\0` : '') + this.open.join('\0');
    this.open = [];
  }

  /** Entry `doc`'s string. */
  get(doc: number): string {
    this.flush();
    const c = Math.floor(doc / CHUNK);
    const j = doc % CHUNK;
    const starts = this.starts[c];
    if (!starts || j >= starts.length) return '';
    const text = this.texts[c]!;
    return text.slice(starts[j], j + 1 < starts.length ? starts[j + 1]! - 1 : text.length);
  }

  /** The entries whose string contains one of `needles` (none holds a NUL), in id order: a few native `indexOf` per string. */
  *matches(needles: readonly string[]): Generator<number, void, undefined> {
    this.flush();
    for (let ci = 0; ci < this.texts.length; ci++) {
      const text = this.texts[ci]!;
      const starts = this.starts[ci]!;
      const found: number[] = [];
      for (const needle of needles) {
        for (let p = text.indexOf(needle); p >= 0;) {
          // The entry holding offset p: the last start at or before it.
          let lo = 0;
          let hi = starts.length - 1;
          while (lo < hi) {
            const mid = (lo + hi + 1) >> 1;
            if (starts[mid]! <= p) lo = mid; else hi = mid - 1;
          }
          found.push(lo);
          if (lo + 1 >= starts.length) break;
          p = text.indexOf(needle, starts[lo + 1]!);
        }
      }
      if (needles.length > 1) found.sort((x, y) => x - y);
      for (let k = 0; k < found.length; k++) if (k === 0 || found[k] !== found[k - 1]) yield ci * CHUNK + found[k]!;
    }
  }

  /** The strings, for the cache ({@link from} reads them). */
  parts(): string[] {
    this.flush();
    return [...this.texts];
  }
}

