/**
 * Reading CSL libraries: CSL-JSON (a Zotero or Better BibTeX export: a JSON array of CSL items)
 * and CSL-YAML (Pandoc's `references:` list, or a top-level list of items), in slices
 * ({@link CslJsonReader}, {@link CslYamlReader}) or at once. An item that is not a mapping with an
 * `id` is a problem at its line; the other items load.
 */
import { isSeq, type Node as YamlNode } from 'yaml';
import { lineColumnAt } from '../bib/bibfile.js';
import { cslYamlReferences } from '../bib/sync.js';
import { parseYaml } from '../yaml.js';
import type { LibraryProblem } from './bibtex.js';

/** A CSL item of a library, with the 1-based line where it starts. */
export interface CslLibraryItem {
  item: Record<string, unknown>;
  line: number;
}

/** A CSL library as read. */
export interface CslLibrary {
  items: CslLibraryItem[];
  problems: LibraryProblem[];
}

const problemAt = (text: string, offset: number, message: string): LibraryProblem => ({ ...lineColumnAt(text, offset), message, severity: 'error' });

/** Adds an item, checked: a mapping with an `id`. */
function collect(v: unknown, line: number, out: CslLibrary): void {
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    out.problems.push({ line, column: 1, message: 'not a CSL item (expected a mapping with an "id"); skipped', severity: 'error' });
    return;
  }
  const item = v as Record<string, unknown>;
  if (typeof item.id !== 'string' && typeof item.id !== 'number') {
    out.problems.push({ line, column: 1, message: 'this CSL item has no "id"; skipped', severity: 'error' });
    return;
  }
  out.items.push({ item, line });
}

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
const DEADLINE_EVERY = 16;
/** Characters scanned between two looks at the deadline. */
const SCAN_EVERY = 1 << 16;

/** JSON's white space (RFC 8259 §2): space, tab, LF, CR. */
const isJsonSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/**
 * Reads a CSL-JSON library in slices. `JSON.parse` of a whole file cannot be cut into slices, so
 * the top-level array is scanned for its elements (strings skipped, one linear pass, in slices),
 * each element is parsed alone, and each item checked and given its line. Element by element
 * takes exactly the files `JSON.parse` takes: the scan checks the array's commas and brackets, and
 * anything it does not vouch for (a syntax error, text after the array) is parsed whole once, for
 * `JSON.parse`'s own verdict and error position.
 */
export class CslJsonReader implements CslReader {
  readonly items: CslLibraryItem[] = [];
  readonly problems: LibraryProblem[] = [];
  private phase: 'scan' | 'parse' | 'items' | 'done' = 'scan';
  /** Offsets of the array's elements, and of its closing bracket. */
  private starts: number[] = [];
  private open = -1;
  private close = -1;
  private at = 0;
  private depth = 0;
  private values: unknown[] = [];
  private next = 0;
  private line = 1;
  private lineFrom = 0;

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
      const { values, starts } = this;
      let since = 0;
      while (this.next < values.length) {
        const i = this.next++;
        collect(values[i], this.lineOf(starts[i] ?? 0), this);
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

  /** Finds the elements' offsets; false when stopped by the deadline. */
  private scan(deadline: () => boolean): boolean {
    const text = this.text;
    const n = text.length;
    let i = this.at;
    if (this.open < 0) {
      while (i < n && (isJsonSpace(text.charCodeAt(i)) || (i === 0 && text.charCodeAt(i) === 0xfeff))) i++;
      if (i === n) { this.phase = 'done'; return true; }
      if (text.charCodeAt(i) !== 91) return this.whole();
      this.open = i++;
      this.depth = 1;
    }
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
        if (depth === 1) this.starts.push(from);
      } else if (c === 91 || c === 123) { // [ {
        if (depth === 1) this.starts.push(i);
        depth++;
      } else if (c === 93 || c === 125) { // ] }
        if (--depth === 0) { this.close = i; break; }
      } else if (depth === 1 && !isJsonSpace(c) && c !== 44) {
        this.starts.push(i);
        while (i + 1 < n && !isJsonSpace(text.charCodeAt(i + 1)) && text.charCodeAt(i + 1) !== 44 && text.charCodeAt(i + 1) !== 93) i++;
      }
      if (depth <= 1 && i >= checkAt) {
        checkAt = i + SCAN_EVERY;
        if (deadline()) { this.at = i + 1; this.depth = depth; return false; }
      }
    }
    if (this.close < 0) return this.whole();
    for (let j = this.close + 1; j < n; j++) if (!isJsonSpace(text.charCodeAt(j))) return this.whole();
    this.phase = 'parse';
    return true;
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
      let value: unknown;
      try {
        value = JSON.parse(text.slice(starts[k], end));
      } catch {
        // ignored: the whole text is parsed next, for JSON.parse's own error and position.
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

  /** Parses the text whole (one piece): the scan could not vouch for it. */
  private whole(): true {
    const text = this.text;
    const body = text.replace(/^\uFEFF/, '');
    const bom = text.length - body.length;
    this.phase = 'done';
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (e) {
      const m = /position (\d+)/.exec((e as Error).message);
      this.problems.push(problemAt(text, (m ? Number(m[1]) : 0) + bom, `not JSON: ${(e as Error).message.split('\n')[0]}`));
      return true;
    }
    if (!Array.isArray(value)) {
      this.problems.push({ line: 1, column: 1, message: 'not a CSL-JSON library (expected a JSON array of CSL items)', severity: 'error' });
      return true;
    }
    // Valid JSON the scan refused (it should take every array): the elements' offsets of a full scan.
    this.starts = [];
    this.open = this.close = -1;
    this.at = 0;
    this.scan(() => false);
    this.values = value;
    this.next = 0;
    this.phase = 'items';
    return true;
  }

  /** The 1-based line of an offset at or after the last one asked (lines are counted once, forward). */
  private lineOf(offset: number): number {
    if (offset < this.lineFrom) { this.line = 1; this.lineFrom = 0; }
    for (let i = this.text.indexOf('\n', this.lineFrom); i >= 0 && i < offset; i = this.text.indexOf('\n', i + 1)) {
      this.line++;
      this.lineFrom = i + 1;
    }
    return this.line;
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

/**
 * Reads a CSL-YAML library in slices: the YAML is parsed in one piece (through `core/yaml.ts`:
 * depth limit, problems with positions), then each item is checked and given its line in slices.
 */
export class CslYamlReader implements CslReader {
  readonly items: CslLibraryItem[] = [];
  readonly problems: LibraryProblem[] = [];
  private parsed = false;
  private values: unknown[] = [];
  private nodes: (YamlNode | null)[] = [];
  private lines: number[] = [];
  private next = 0;

  constructor(readonly text: string) {}

  get total(): number {
    return this.values.length;
  }

  get done(): number {
    return this.next;
  }

  read(deadline: () => boolean = () => false): boolean {
    if (!this.parsed) {
      this.parsed = true;
      this.parse();
    }
    let since = 0;
    while (this.next < this.values.length) {
      const i = this.next++;
      collect(this.values[i], lineAt(this.lines, this.nodes[i]?.range?.[0] ?? 0), this);
      if (++since >= DEADLINE_EVERY && this.next < this.values.length) {
        since = 0;
        if (deadline()) return false;
      }
    }
    this.values = [];
    this.nodes = [];
    return true;
  }

  private parse(): void {
    const { text, problems } = this;
    const loneCr = /\r(?!\n)/.exec(text);
    if (loneCr) {
      problems.push(problemAt(text, loneCr.index, 'a line ends with a lone CR (classic Mac OS line endings), which we cannot read as YAML; save the file with LF or CRLF line endings'));
      return;
    }
    const parsed = parseYaml(text, { uniqueKeys: false });
    const errors = parsed.problems.filter((p) => p.severity === 'error');
    if (errors.length || !parsed.doc) {
      problems.push(...(errors.length ? errors : [{ offset: 0, message: 'cannot be read' }]).map((p) => problemAt(text, p.offset, `YAML: ${p.message}`)));
      return;
    }
    const refs = cslYamlReferences(parsed.doc);
    if (refs.error) {
      problems.push({ line: 1, column: 1, message: refs.error, severity: 'error' });
      return;
    }
    if (!refs.list || !isSeq(refs.list)) return;
    this.nodes = refs.list.items as (YamlNode | null)[];
    this.values = (isSeq(parsed.doc.contents) ? parsed.value : (parsed.value as { references: unknown }).references) as unknown[];
    this.lines = lineStarts(text);
  }
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
