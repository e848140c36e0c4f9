/**
 * Reading CSL libraries: CSL-JSON (a Zotero or Better BibTeX export: a JSON array of CSL items)
 * here, CSL-YAML (Pandoc's `references:` list) in `readCslYaml.ts`, in
 * slices ({@link CslJsonReader}, `CslYamlReader`) or at once. An item that is not a mapping with a
 * non-empty `id`, that contains itself (a YAML alias inside its own anchor) or that is nested more
 * than {@link MAX_CSL_DEPTH} levels deep is a problem at its line; the other items load, each with
 * its line, its offset and the offset of its `id` value (where go to definition lands). What the
 * readers hand on is plain, acyclic data of bounded depth (`JSON.stringify` and structured clone
 * walk it recursively: the cache, the language server's responses).
 */
import { lineColumnAt } from './bibtexFile.js';
import { parseJson } from '../text/json.js';
import { MAX_YAML_DEPTH } from '../text/yaml.js';
import { problem, type ProblemText } from '../text/problemText.js';
import type { LibraryProblem } from './readBibtex.js';

/** A CSL item of a library, with the 1-based line where it starts. */
export interface CslLibraryItem {
  item: Record<string, unknown>;
  line: number;
  /** UTF-16 offset of the item's first character (JSON's `{`, the YAML mapping's first key), where the reader knows it. */
  start?: number;
  /** UTF-16 offset of the first character of its `id` value (inside quotes), where the reader knows it. */
  keyStart?: number;
}

/** A CSL library as read. */
export interface CslLibrary {
  items: CslLibraryItem[];
  problems: LibraryProblem[];
}

/**
 * Nesting allowed in a CSL item, the item itself being level 1 (the YAML reader's limit: a real
 * item, with `author` → person or `issued` → `date-parts` → parts, stays under 5).
 */
export const MAX_CSL_DEPTH = MAX_YAML_DEPTH;

const TOO_DEEP = problem('csl-too-deep', MAX_CSL_DEPTH);

/** An error at an offset of a text (its line and column counted as `lineColumnAt` does). */
export const problemAt = (text: string, offset: number, what: ProblemText): LibraryProblem => ({ ...lineColumnAt(text, offset), ...what, severity: 'error' });

/**
 * Why an item's `id` cannot be its key (CSL 1.0.2: `id` is the item's identifier, a string or a
 * number; an empty or blank one names nothing a citation could cite): missing, empty, blank (only
 * white space, as `String.prototype.trim` takes it) or of another type. Each reader's problem for
 * the item, at its line: one per item, and the other items read.
 *
 * @returns the problem (a code, worded where it is shown), or undefined for a usable id
 */
function badId(item: Readonly<Record<string, unknown>>): ProblemText | undefined {
  const id = item.id;
  if (id === undefined || id === null) return problem('csl-no-id');
  if (typeof id === 'number') return undefined;
  if (typeof id !== 'string') {
    return Array.isArray(id) ? problem('csl-id-list') : typeof id === 'object' ? problem('csl-id-mapping')
      : typeof id === 'boolean' ? problem('csl-id-boolean') : problem('csl-id-other', typeof id);
  }
  if (!id) return problem('csl-id-empty');
  if (!id.trim()) return problem('csl-id-blank');
  return undefined;
}

/**
 * Adds an item, checked ({@link badId}): a mapping with an `id` that is a number or a string with more than white space.
 *
 * @param at - where the item and its `id` value start in the text, when the reader knows
 */
export function collect(v: unknown, line: number, out: CslLibrary, at: { start?: number; keyStart?: number } = {}): void {
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    out.problems.push({ line, column: 1, ...problem('csl-not-item'), severity: 'error' });
    return;
  }
  const item = v as Record<string, unknown>;
  const bad = badId(item);
  if (bad) {
    out.problems.push({ line, column: 1, ...bad, severity: 'error' });
    return;
  }
  out.items.push({ item, line, ...(at.start !== undefined ? { start: at.start } : {}), ...(at.keyStart !== undefined ? { keyStart: at.keyStart } : {}) });
}

/**
 * Why a value converted from YAML is not plain data to hand on: it contains itself (an alias
 * inside its own anchor makes a cycle) or is nested deeper than {@link MAX_CSL_DEPTH} (aliases
 * can stack anchors' depths past what the YAML reader's text limit saw). One walk with its own
 * stack; a node shared by two aliases (not a cycle) is walked twice, as `JSON.stringify` would,
 * within the alias limit of `core/text/yaml.ts`.
 *
 * @returns the problem, or undefined for plain data
 */
export function notPlainData(root: unknown): ProblemText | undefined {
  if (!isContainer(root)) return undefined;
  const onPath = new Set<object>([root]);
  const frames: { node: object; children: unknown[]; next: number }[] = [{ node: root, children: childrenOf(root), next: 0 }];
  while (frames.length) {
    const top = frames[frames.length - 1]!;
    if (top.next === top.children.length) {
      onPath.delete(top.node);
      frames.pop();
      continue;
    }
    const child = top.children[top.next++];
    if (!isContainer(child)) continue;
    if (onPath.has(child)) return problem('csl-contains-itself');
    if (frames.length >= MAX_CSL_DEPTH) return TOO_DEEP;
    onPath.add(child);
    frames.push({ node: child, children: childrenOf(child), next: 0 });
  }
  return undefined;
}

/** Arrays and plain objects (what YAML's maps and sequences become); other objects are leaves. */
function isContainer(v: unknown): v is object {
  if (!v || typeof v !== 'object') return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

const childrenOf = (v: object): unknown[] => (Array.isArray(v) ? v : Object.values(v));

/** A CSL library read in slices: call {@link read} until it returns true; take {@link items} as they come. */
export interface CslReader {
  /** Items read and not yet taken (the caller may empty the list between slices). */
  readonly items: CslLibraryItem[];
  readonly problems: LibraryProblem[];
  /** Elements of the list (known once the text has been scanned; 0 before). */
  readonly total: number;
  /** Elements read. */
  readonly done: number;
  /**
   * Reads on until the library is read or `deadline()` (asked every few items) says to stop.
   *
   * @returns true when it is all read
   */
  read(deadline?: () => boolean): boolean;
}

/** Elements read between two looks at the deadline. */
export const DEADLINE_EVERY = 16;
/** Characters scanned between two looks at the deadline. */
export const SCAN_EVERY = 1 << 16;

/** JSON's white space (RFC 8259 §2): space, tab, LF, CR. */
const isJsonSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/**
 * Reads a CSL-JSON library in slices. `JSON.parse` of a whole file cannot be cut into slices, so
 * the top-level array is scanned for its elements (strings skipped, one linear pass, in slices,
 * counting lines and each element's nesting as it goes), each element is parsed alone, and each
 * item checked and given its line. Element by element takes exactly the files `JSON.parse` takes:
 * the scan checks the array's commas and brackets, and anything it does not vouch for (a syntax
 * error, text after the array) is parsed whole once, for `JSON.parse`'s verdict, with the place
 * and reason of an error from `core/text/json.ts` (a parser's, not the engine's message text).
 *
 * An element nested more than {@link MAX_CSL_DEPTH} levels deep is a problem at its line: what
 * the reader hands on is plain data that `JSON.stringify` and structured clone can walk.
 */
export class CslJsonReader implements CslReader {
  readonly items: CslLibraryItem[] = [];
  readonly problems: LibraryProblem[] = [];
  /** Characters the scan has looked at (each once, when the text is JSON): its work, for tests. */
  scanned = 0;
  private phase: 'scan' | 'parse' | 'items' | 'done' = 'scan';
  /** Offsets of the array's elements, their 1-based lines and their nesting (1 for `{}`, 0 for a scalar). */
  private starts: number[] = [];
  private lines: number[] = [];
  private depths: number[] = [];
  /** Per element that is an object: where its `"id"` member's value starts (sparse). */
  private keyStarts: number[] = [];
  private open = -1;
  private close = -1;
  private at = 0;
  private depth = 0;
  private line = 1;
  private values: unknown[] = [];
  private next = 0;
  /** Scanning again after `JSON.parse` took the text: the scan's refusal cannot send it back. */
  private rescan = false;

  constructor(readonly text: string) {}

  get total(): number {
    return this.phase === 'scan' ? 0 : Math.max(this.starts.length, this.values.length);
  }

  get done(): number {
    return this.phase === 'items' || this.phase === 'done' ? this.next : 0;
  }

  read(deadline: () => boolean = () => false): boolean {
    if (this.phase === 'scan' && !this.scan(deadline)) return false;
    if (this.phase === 'parse' && !this.parse(deadline)) return false;
    if (this.phase === 'items') {
      const { values, lines, depths } = this;
      let since = 0;
      while (this.next < values.length) {
        const i = this.next++;
        const line = lines[i] ?? 1;
        if ((depths[i] ?? 0) > MAX_CSL_DEPTH) this.problems.push({ line, column: 1, ...TOO_DEEP, severity: 'error' });
        else collect(values[i], line, this, { start: this.starts[i], keyStart: this.keyStarts[i] });
        if (++since >= DEADLINE_EVERY && this.next < values.length) {
          since = 0;
          if (deadline()) return false;
        }
      }
      this.values = [];
      this.phase = 'done';
    }
    return true;
  }

  /** Finds the elements' offsets, lines and nesting; false when stopped by the deadline. */
  private scan(deadline: () => boolean): boolean {
    const text = this.text;
    const n = text.length;
    let i = this.at;
    const from = i;
    let line = this.line;
    if (this.open < 0) {
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) line++;
        else if (!isJsonSpace(c) && !(i === 0 && c === 0xfeff)) break;
      }
      if (i === n) { this.scanned += n; this.phase = 'done'; return true; }
      if (text.charCodeAt(i) !== 91) { this.scanned += i - from; return this.refuse(); }
      this.open = i++;
      this.depth = 1;
    }
    const { starts, lines, depths } = this;
    let depth = this.depth;
    let checkAt = i + SCAN_EVERY;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) { // "
        const from = i;
        for (i++; i < n; i++) {
          const d = text.charCodeAt(i);
          if (d === 92) i++;
          else if (d === 34) break;
        }
        if (depth === 1) { starts.push(from); lines.push(line); depths.push(0); }
        else if (depth === 2 && i === from + 3 && text.charCodeAt(from + 1) === 105 && text.charCodeAt(from + 2) === 100) this.idMember(i);
      } else if (c === 91 || c === 123) { // [ {
        if (depth === 1) { starts.push(i); lines.push(line); depths.push(0); }
        depth++;
        if (depth - 1 > depths[depths.length - 1]!) depths[depths.length - 1] = depth - 1;
      } else if (c === 93 || c === 125) { // ] }
        // The array's own bracket must be `]` (`[}` is not JSON); the elements' are JSON.parse's to check.
        if (--depth === 0) { this.close = c === 93 ? i : -2; break; }
      } else if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
        line++;
      } else if (depth === 1 && !isJsonSpace(c) && c !== 44) {
        starts.push(i); lines.push(line); depths.push(0);
        while (i + 1 < n && !isJsonSpace(text.charCodeAt(i + 1)) && text.charCodeAt(i + 1) !== 44 && text.charCodeAt(i + 1) !== 93) i++;
      }
      if (depth <= 1 && i >= checkAt) {
        checkAt = i + SCAN_EVERY;
        if (deadline()) { this.scanned += i + 1 - from; this.at = i + 1; this.depth = depth; this.line = line; return false; }
      }
    }
    this.scanned += Math.min(i + 1, n) - from;
    if (this.close < 0) return this.refuse();
    for (let j = this.close + 1; j < n; j++) if (!isJsonSpace(text.charCodeAt(j))) return this.refuse();
    if (!this.rescan) this.phase = 'parse';
    return true;
  }

  /**
   * After a string `"id"` inside an element (its closing quote at `close`): when a `:` follows, it
   * is the element's `id` member, and where its value starts is kept (the last one, as
   * `JSON.parse` keeps the last of duplicate names). Reads only the white space up to the value.
   */
  private idMember(close: number): void {
    const text = this.text;
    let j = close + 1;
    while (j < text.length && isJsonSpace(text.charCodeAt(j))) j++;
    if (text.charCodeAt(j) !== 58) return;
    j++;
    while (j < text.length && isJsonSpace(text.charCodeAt(j))) j++;
    const el = this.starts.length - 1;
    if (el >= 0 && text.charCodeAt(this.starts[el]!) === 123) this.keyStarts[el] = text.charCodeAt(j) === 34 ? j + 1 : j;
  }

  /** Parses the elements one by one; false when stopped by the deadline. */
  private parse(deadline: () => boolean): boolean {
    const { text, starts } = this;
    let since = 0;
    while (this.values.length < starts.length) {
      const k = this.values.length;
      const last = k + 1 === starts.length;
      if (k === 0) for (let j = this.open + 1; j < starts[0]!; j++) if (!isJsonSpace(text.charCodeAt(j))) return this.whole();
      // The element's text, up to the next one (its comma) or the closing bracket.
      let end = last ? this.close : starts[k + 1]!;
      while (end > starts[k]! && isJsonSpace(text.charCodeAt(end - 1))) end--;
      if (!last) {
        if (text.charCodeAt(end - 1) !== 44) return this.whole();
        end--;
      }
      // Deep elements are parsed too (V8's JSON.parse does not recurse): a syntax error in one is
      // the file's, as JSON.parse of the whole text would say.
      let value: unknown;
      try {
        value = JSON.parse(text.slice(starts[k], end));
      } catch {
        // ignored: the whole text is parsed next, for the error's place and reason.
        return this.whole();
      }
      this.values.push(value);
      if (++since >= DEADLINE_EVERY && this.values.length < starts.length) {
        since = 0;
        if (deadline()) return false;
      }
    }
    this.phase = 'items';
    return true;
  }

  private refuse(): true {
    return this.rescan || this.whole();
  }

  /** Parses the text whole (one piece): the scan could not vouch for it. */
  private whole(): true {
    const text = this.text;
    this.phase = 'done';
    const parsed = parseJson(text);
    if (parsed.error) {
      this.problems.push(problemAt(text, parsed.error.offset, problem('csl-not-json', parsed.error.text)));
      return true;
    }
    if (!Array.isArray(parsed.value)) {
      this.problems.push({ line: 1, column: 1, ...problem('csl-not-array'), severity: 'error' });
      return true;
    }
    // Valid JSON the scan refused (it should take every array): the elements of a full scan.
    this.starts = [];
    this.lines = [];
    this.depths = [];
    this.keyStarts = [];
    this.open = this.close = -1;
    this.at = 0;
    this.line = 1;
    this.rescan = true;
    this.scan(() => false);
    this.values = parsed.value;
    this.next = 0;
    this.phase = 'items';
    return true;
  }
}

/**
 * Reads a CSL-JSON library at once (see {@link CslJsonReader}).
 *
 * @returns the items, or one problem when the text is not a JSON array
 */
export function readCslJsonLibrary(text: string): CslLibrary {
  const r = new CslJsonReader(text);
  r.read();
  return { items: r.items, problems: r.problems };
}

/** Offsets where lines start (after each LF). */
export function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

/** The 1-based line of an offset, by binary search in {@link lineStarts}. */
export function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid; else hi = mid - 1;
  }
  return lo + 1;
}
