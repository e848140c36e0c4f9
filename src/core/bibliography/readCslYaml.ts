/**
 * Reading a CSL-YAML library (Pandoc's `references:` list; a top-level list of CSL items is one
 * problem, as pandoc reads no reference from it: {@link BARE_CSL_YAML_LIST}) in slices, with the
 * checks every CSL reader makes (`readCslJson.ts`): an item that is not a mapping with a non-empty
 * `id`, that contains itself or is nested too deeply is a problem at its line.
 */
import { isMap, isScalar, isSeq, type Document, type Node as YamlNode } from 'yaml';
import { nodeToJS, parseYaml, type YamlProblem } from '../text/yaml.js';
import type { LibraryProblem } from './readBibtex.js';
import { problem, type ProblemText } from '../text/problemText.js';
import {
  collect, DEADLINE_EVERY, lineAt, lineStarts, notPlainData, problemAt, SCAN_EVERY, type CslLibrary, type CslLibraryItem, type CslReader,
} from './readCslJson.js';

/** Items the YAML parser reads together, at most. */
const YAML_BATCH_ITEMS = 32;

/**
 * Characters the YAML parser reads together, at most: a longer item is read alone. An item
 * whose batch fails is read again alone, so one call of {@link CslYamlReader.read} hands the
 * parser at most twice this, or twice its one item.
 */
export const YAML_BATCH_CHARS = 16 * 1024;

/**
 * Reads a CSL-YAML library in slices. The `yaml` library parses a document in one piece (a
 * 100,000-item file took 9 s and 1.8 GB), so the list is split first, by a linear scan of the
 * lines: in Pandoc's `references:` list an item starts at a `- ` at the
 * list's indentation and runs to the next one (YAML lets no line of an item's node start there:
 * its block scalars and flow lines are indented further). The items are then parsed a few dozen
 * at a time, each batch as a list of its own, and the text around the list (other keys, `---`,
 * `...`, comments) once, to hold that it is what the scan took it for. A batch with an error is
 * read again item by item: a broken item is a problem at its line, the others load.
 *
 * Where the scan cannot vouch for the split, the document is parsed whole, as before: anchors
 * (an alias may refer to another item's anchor), directives, flow style (`references: [...]`),
 * tabs in the list's indentation, a second document, anything but a list. Then each item is
 * converted alone (`nodeToJS`), so an alias bomb or an item that contains itself costs only
 * that item. Problems carry their line and column in the whole file either way.
 */
export class CslYamlReader implements CslReader {
  readonly items: CslLibraryItem[] = [];
  readonly problems: LibraryProblem[] = [];
  /** Characters handed to the YAML parser by the last call of {@link read} (its work, for tests). */
  lastParsed = 0;
  /** Whether the text had to be parsed in one piece (see the class comment). */
  wholeDocument = false;
  private phase: 'scan' | 'check' | 'items' | 'whole' | 'convert' | 'done' = 'scan';
  // The line scan.
  private pos = 0;
  private line = 1;
  private cr = -2;
  private amp = -2;
  private where: 'head' | 'list' | 'tail' = 'head';
  private sawContent = false;
  private sawDocStart = false;
  private refsPending = false;
  private endMarker = false;
  private indent = -1;
  /** Where each item starts (its line's start) and its 1-based line; where the list ends. */
  private starts: number[] = [];
  private lines: number[] = [];
  private listEnd = -1;
  /** The list's items, once known (the scan's, or the whole document's). */
  private count = 0;
  private next = 0;
  // The whole document, when the scan cannot split it.
  private doc?: Document.Parsed;
  private nodes: unknown[] = [];
  private lineStarts: number[] = [];
  private bom = 0;

  /**
   * @param text - the file's text
   * @param opts.whole - parse the document in one piece, as where the scan cannot split it (tests
   *   compare the two)
   */
  constructor(readonly text: string, opts: { whole?: boolean } = {}) {
    if (opts.whole) this.phase = 'whole';
  }

  get total(): number {
    return this.count;
  }

  get done(): number {
    return this.next;
  }

  read(deadline: () => boolean = () => false): boolean {
    this.lastParsed = 0;
    for (;;) {
      const phase = this.phase;
      if (phase === 'done') return true;
      if (phase === 'scan') {
        if (!this.scan(deadline)) return false;
        continue;
      }
      if (phase === 'items') return this.readItems(deadline);
      if (phase === 'convert') return this.convert(deadline);
      // One piece each (the text around the list, or the whole document): a look at the deadline after.
      if (phase === 'check') this.check();
      else this.parseWhole();
      if (this.phase !== 'done' && deadline()) return false;
    }
  }

  /** The line scan (see the class comment); false when stopped by the deadline. */
  private scan(deadline: () => boolean): boolean {
    const text = this.text;
    const n = text.length;
    let pos = this.pos === 0 && text.charCodeAt(0) === 0xfeff ? 1 : this.pos;
    let checkAt = pos + SCAN_EVERY;
    while (pos < n) {
      let le = text.indexOf('\n', pos);
      if (le < 0) le = n;
      if (this.cr !== -1 && this.cr < pos) this.cr = text.indexOf('\r', pos);
      for (; this.cr >= 0 && this.cr < le; this.cr = text.indexOf('\r', this.cr + 1)) {
        if (text.charCodeAt(this.cr + 1) !== 10) {
          this.problems.push(problemAt(text, this.cr, LONE_CR));
          this.phase = 'done';
          return true;
        }
      }
      const ce = le > pos && text.charCodeAt(le - 1) === 13 ? le - 1 : le;
      if (this.amp !== -1 && this.amp < pos) this.amp = text.indexOf('&', pos);
      for (; this.amp >= 0 && this.amp < ce; this.amp = text.indexOf('&', this.amp + 1)) {
        // An anchor: the split would cut its aliases off it.
        if (anchorAt(text, this.amp, pos, ce)) return this.fallBack();
      }
      if (!this.classify(pos, ce)) return this.fallBack();
      if (this.phase === 'done') return true;
      pos = le + 1;
      this.line++;
      if (pos >= checkAt && pos < n) {
        checkAt = pos + SCAN_EVERY;
        if (deadline()) { this.pos = pos; return false; }
      }
    }
    this.pos = n;
    if (this.where === 'head') return this.fallBack();
    if (this.where === 'list') this.listEnd = n;
    this.phase = 'check';
    return true;
  }

  /** Takes one line `[ls, ce)` (no line break) of the scan; false when the scan cannot vouch for the split. */
  private classify(ls: number, ce: number): boolean {
    const text = this.text;
    let j = ls;
    while (j < ce && text.charCodeAt(j) === 32) j++;
    let k = j;
    while (k < ce && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k++;
    if (k === ce || text.charCodeAt(k) === 35) return true; // blank, or a comment
    const ind = j - ls;
    const tabbed = k > j;
    const c = text.charCodeAt(j);
    const marker = ind === 0 && (text.startsWith('---', ls) || text.startsWith('...', ls)) && restIsBlank(text, ls + 3, ce, true) ? text[ls] : '';
    const item = !tabbed && c === 45 && (j + 1 === ce || text.charCodeAt(j + 1) === 32 || text.charCodeAt(j + 1) === 9);
    if (this.where === 'head') {
      if (tabbed || (ind === 0 && c === 37) || marker === '.') return false; // `%` directive
      if (marker === '-') {
        if (this.sawContent || this.sawDocStart) return false;
        this.sawDocStart = true;
        return true;
      }
      if (item) {
        if (!this.refsPending && this.sawContent) return false;
        if (!this.refsPending) {
          // The document is a list: no `references:`, so pandoc reads no item of it.
          this.problems.push(problemAt(text, j, BARE_CSL_YAML_LIST));
          this.phase = 'done';
          return true;
        }
        this.where = 'list';
        this.indent = ind;
        this.starts.push(ls);
        this.lines.push(this.line);
        return true;
      }
      if (this.refsPending) return false;
      if (ind === 0 && text.startsWith('references:', j) && restIsBlank(text, j + 11, ce, true)) this.refsPending = true;
      this.sawContent = true;
      return true;
    }
    if (this.where === 'list') {
      if (item && ind === this.indent) {
        this.starts.push(ls);
        this.lines.push(this.line);
        return true;
      }
      if (!marker && ind > this.indent) return true;
      this.listEnd = ls;
      this.where = 'tail';
    }
    // After the list: other keys of the mapping, and a `...` that ends the document.
    if (this.endMarker || marker === '-' || tabbed) return false;
    if (marker === '.') return (this.endMarker = true);
    return !(ind === 0 && (c === 37 || c === 34 || c === 39 || text.startsWith('references', j)));
  }

  private fallBack(): true {
    this.phase = 'whole';
    return true;
  }

  /**
   * Parses the text around the list (the list cut out) and holds that it is the list's place:
   * Pandoc's mapping with one `references:` and no value left, or nothing at all.
   */
  private check(): void {
    const { text, starts, listEnd } = this;
    const from = starts[0]!;
    const skeleton = text.slice(0, from) + text.slice(listEnd);
    this.lastParsed += skeleton.length;
    const parsed = parseYaml(skeleton, { uniqueKeys: false, toJS: false });
    const errors = parsed.problems.filter((p) => p.severity === 'error');
    if (errors.length || !parsed.doc) {
      const cut = listEnd - from;
      this.problems.push(...yamlProblemsAt(text, errors.length ? errors : [{ offset: 0, text: problem('yaml-cannot-be-read'), severity: 'error' }], (o) => (o < from ? o : o + cut)));
      this.phase = 'done';
      return;
    }
    const root = parsed.doc.contents;
    const empty = (v: unknown) => v === null || (isScalar(v) && v.value === null);
    const ok = isMap(root) && root.items.filter((p) => isScalar(p.key) && p.key.value === 'references' && empty(p.value)).length === 1
      && root.items.every((p) => isScalar(p.key) && (p.key.value !== 'references' || empty(p.value)));
    this.phase = ok ? 'items' : 'whole';
    if (ok) this.count = starts.length;
  }

  /** Parses the items batch by batch; false when stopped by the deadline. */
  private readItems(deadline: () => boolean): boolean {
    const { starts, listEnd } = this;
    const count = starts.length;
    const endOf = (i: number) => (i + 1 < count ? starts[i + 1]! : listEnd);
    while (this.next < count) {
      const b = this.next;
      let e = b + 1;
      while (e < count && e - b < YAML_BATCH_ITEMS && endOf(e) - starts[b]! <= YAML_BATCH_CHARS) e++;
      this.parseBatch(b, e);
      this.next = e;
      if (this.next < count && deadline()) return false;
    }
    this.starts = [];
    this.lines = [];
    this.phase = 'done';
    return true;
  }

  /** Parses items `[b, e)` as one list; again one by one when that fails. */
  private parseBatch(b: number, e: number): void {
    const { text, starts } = this;
    const from = starts[b]!;
    const to = e < starts.length ? starts[e]! : this.listEnd;
    const batch = text.slice(from, to);
    this.lastParsed += batch.length;
    const parsed = parseYaml(batch, { uniqueKeys: false });
    const error = parsed.problems.find((p) => p.severity === 'error');
    const seq = parsed.doc?.contents;
    if (!error && isSeq(seq) && seq.items.length === e - b && Array.isArray(parsed.value)) {
      for (let i = b; i < e; i++) {
        const node = seq.items[i - b] as YamlNode | null;
        this.take(parsed.value[i - b], node?.range ? this.lineIn(i, from + node.range[0]).line : this.lines[i]!, placeOf(text, node, from));
      }
      return;
    }
    if (e - b > 1) {
      for (let i = b; i < e; i++) this.parseBatch(i, i + 1);
      return;
    }
    // One item that does not read: its first error, at its place in the file.
    const at = error ? this.lineIn(b, from + error.offset) : { line: this.lines[b]!, column: 1 };
    this.problems.push({ ...at, ...(error ? problem('yaml', error.text) : problem('csl-yaml-item-alone')), severity: 'error' });
  }

  /** Line and column of an offset within item `i` (counting from its first line: bounded by the item). */
  private lineIn(i: number, offset: number): { line: number; column: number } {
    const text = this.text;
    let line = this.lines[i]!;
    let start = this.starts[i]!;
    for (let j = text.indexOf('\n', start); j >= 0 && j < offset; j = text.indexOf('\n', j + 1)) {
      line++;
      start = j + 1;
    }
    return { line, column: offset - start + 1 };
  }

  /** Checks an item's value (plain data, then a CSL item) and adds it. */
  private take(value: unknown, line: number, at: { start?: number; keyStart?: number }): void {
    const bad = notPlainData(value);
    if (bad) this.problems.push({ line, column: 1, ...bad, severity: 'error' });
    else collect(value, line, this, at);
  }

  /** Parses the document in one piece (the scan could not split it); the items are converted next. */
  private parseWhole(): void {
    const text = this.text;
    this.wholeDocument = true;
    this.phase = 'done';
    const loneCr = /\r(?!\n)/.exec(text);
    if (loneCr) {
      this.problems.push(problemAt(text, loneCr.index, LONE_CR));
      return;
    }
    this.lastParsed += text.length;
    // Without its byte-order mark: the `yaml` library reads `\uFEFF- id: a` as a scalar.
    const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    const parsed = parseYaml(bom ? text.slice(1) : text, { uniqueKeys: false, toJS: false });
    const errors = parsed.problems.filter((p) => p.severity === 'error');
    if (errors.length || !parsed.doc) {
      this.problems.push(...yamlProblemsAt(text, errors.length ? errors : [{ offset: 0, text: problem('yaml-cannot-be-read'), severity: 'error' }], (o) => o + bom));
      return;
    }
    this.bom = bom;
    const refs = cslYamlReferences(parsed.doc);
    if (refs.error) {
      this.problems.push(refs.at === undefined ? { line: 1, column: 1, ...refs.error, severity: 'error' } : problemAt(text, refs.at + bom, refs.error));
      return;
    }
    if (!refs.list || !isSeq(refs.list)) return;
    this.doc = parsed.doc;
    this.nodes = refs.list.items;
    this.count = this.nodes.length;
    this.lineStarts = lineStarts(text);
    this.phase = 'convert';
  }

  /** Converts the whole document's items one by one; false when stopped by the deadline. */
  private convert(deadline: () => boolean): boolean {
    const { nodes, doc } = this;
    let since = 0;
    while (this.next < nodes.length) {
      const node = nodes[this.next++] as YamlNode | null;
      const line = lineAt(this.lineStarts, (node?.range?.[0] ?? 0) + this.bom);
      const r = node ? nodeToJS(doc!, node) : { value: null };
      if (r.error !== undefined) this.problems.push({ line, column: 1, ...problem('csl-item-unreadable', r.error), severity: 'error' });
      else this.take(r.value, line, placeOf(this.text, node, this.bom));
      if (++since >= DEADLINE_EVERY && this.next < nodes.length) {
        since = 0;
        if (deadline()) return false;
      }
    }
    this.doc = undefined;
    this.lineStarts = [];
    this.phase = 'done';
    return true;
  }
}

/**
 * Where an item's node starts in the file, and its `id` value (the last `id` key's, as the
 * conversion keeps the last of duplicate keys; inside its quotes when quoted).
 *
 * @param base - the offset in the file of the text the node was parsed from
 */
function placeOf(text: string, node: YamlNode | null | undefined, base: number): { start?: number; keyStart?: number } {
  if (!node?.range) return {};
  const start = base + node.range[0];
  if (!isMap(node)) return { start };
  let value: YamlNode | null | undefined;
  for (const p of node.items) if (isScalar(p.key) && p.key.value === 'id') value = p.value as YamlNode | null;
  if (!value?.range) return { start };
  const at = base + value.range[0];
  const quoted = text.charCodeAt(at) === 34 || text.charCodeAt(at) === 39;
  return { start, keyStart: quoted ? at + 1 : at };
}

const LONE_CR = problem('csl-lone-cr');

/** Characters that cannot follow the `&` of an anchor (YAML 1.2 §6.9.2: white space and flow indicators). */
const ANCHOR_NOT_AFTER = new Set([32, 9, 13, 10, 44, 91, 93, 123, 125]);
const isBlank = (c: number) => c === 32 || c === 9;

/**
 * Whether the `&` at `amp` (on the line `[ls, ce)`) may start an anchor: where a node starts, at
 * the line's start after its indentation or after an indicator (`- `, `? `, `: `, `[`, `{`, `,`)
 * or a tag, then white space. It may say yes to prose in a scalar (`x - &y`); then the document
 * is only parsed whole. "Research & Development", `AT&T`, `a=1&b=2` and "see &amp;" are not
 * anchors. Each character is looked at a bounded number of times over a line.
 */
function anchorAt(text: string, amp: number, ls: number, ce: number): boolean {
  if (amp + 1 >= ce || ANCHOR_NOT_AFTER.has(text.charCodeAt(amp + 1))) return false;
  let i = amp - 1;
  if (i < ls) return true;
  const prev = text.charCodeAt(i);
  if (prev === 91 || prev === 123 || prev === 44 || prev === 58) return true; // [ { , and `"key":&a` in flow
  if (!isBlank(prev)) return false;
  while (i >= ls && isBlank(text.charCodeAt(i))) i--;
  if (i < ls) return true;
  const c = text.charCodeAt(i);
  if (c === 91 || c === 123 || c === 44 || c === 58) return true; // [ { , :
  if ((c === 45 || c === 63) && (i === ls || isBlank(text.charCodeAt(i - 1)))) return true; // - ?
  // A tag before it (`!!map &a`): the token starts with `!`.
  let k = i;
  while (k >= ls && !isBlank(text.charCodeAt(k))) k--;
  return text.charCodeAt(k + 1) === 33;
}

/** Whether `[from, to)` holds only spaces and tabs (and, when `comment`, then a `#` comment). */
function restIsBlank(text: string, from: number, to: number, comment: boolean): boolean {
  let i = from;
  if (i < to && text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 9) return false;
  while (i < to && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return i === to || (comment && text.charCodeAt(i) === 35);
}

/**
 * YAML errors as library problems with line and column in `text`, in one pass however many there
 * are (the parser reports at most about a hundred); `map` takes a parsed text's offsets to `text`'s.
 */
function yamlProblemsAt(text: string, found: readonly YamlProblem[], map: (offset: number) => number = (o) => o): LibraryProblem[] {
  const order = found.map((p, k) => [Math.min(map(p.offset), text.length), k] as const).sort((a, b) => a[0] - b[0]);
  const out: LibraryProblem[] = new Array(found.length);
  let line = 1;
  let start = 0;
  let i = 0;
  for (const [offset, k] of order) {
    for (; i < offset; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) { line++; start = i + 1; }
    }
    out[k] = { line, column: offset - start + 1, ...problem('yaml', found[k]!.text), severity: 'error' };
  }
  return out;
}

/**
 * Reads a CSL-YAML library at once (see {@link CslYamlReader}).
 *
 * @returns the items, or the YAML's problems when it cannot be read
 */
export function readCslYamlLibrary(text: string): CslLibrary {
  const r = new CslYamlReader(text);
  r.read();
  return { items: r.items, problems: r.problems };
}

/**
 * The problem of a CSL-YAML file that is a list of items with no `references:` field. Pandoc reads
 * no reference from it ("citation alpha not found", checked with pandoc 2.17 and
 * `test/unit/hostilePass3.test.ts`): its keys are not defined, and nothing is appended to it.
 */
export const BARE_CSL_YAML_LIST = problem('csl-bare-list');

/**
 * Where the CSL items of a CSL-YAML bibliography are: Pandoc's `references:` list (Pandoc's User's
 * Guide, "Citations": a YAML bibliography is a mapping whose `references` field holds CSL items).
 * Anything else is not a CSL-YAML bibliography; a top-level list of items ({@link BARE_CSL_YAML_LIST})
 * neither, as pandoc reads it.
 *
 * @returns the list and its key; or `error`, with `at` the offset the problem is placed at (the
 *   list's start for a top-level list, else absent: the file's start)
 */
export function cslYamlReferences(doc: Document.Parsed): { list?: YamlNode; pairKey?: YamlNode; error?: ProblemText; at?: number } {
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return {};
  if (isSeq(root)) return { error: BARE_CSL_YAML_LIST, at: root.range?.[0] ?? 0 };
  if (!isMap(root)) return { error: problem('csl-not-yaml-bibliography') };
  const pair = root.items.find((p) => isScalar(p.key) && p.key.value === 'references');
  if (!pair) return { error: problem('csl-no-references') };
  const value = pair.value as YamlNode | null;
  if (value === null || (isScalar(value) && value.value === null)) return { pairKey: pair.key as YamlNode };
  if (!isSeq(value)) return { error: problem('csl-references-not-list') };
  return { list: value, pairKey: pair.key as YamlNode };
}
