/**
 * Reading CSL libraries: CSL-JSON (a Zotero or Better BibTeX export: a JSON array of CSL items)
 * and CSL-YAML (Pandoc's `references:` list, or a top-level list of items). An item that is not a
 * mapping with an `id` is a problem at its line; the other items load.
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

/** Adds items, each checked: a mapping with an `id`. */
function collect(values: unknown[], lineOf: (i: number) => number, out: CslLibrary): void {
  values.forEach((v, i) => {
    const line = lineOf(i);
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
  });
}

/**
 * Reads a CSL-JSON library. Lines come from a scan for each item's opening brace at the top level
 * of the array (one linear pass over the text, strings skipped).
 *
 * @returns the items, or one problem when the text is not a JSON array
 */
export function readCslJsonLibrary(text: string): CslLibrary {
  const body = text.replace(/^\uFEFF/, '');
  const bom = text.length - body.length;
  const out: CslLibrary = { items: [], problems: [] };
  if (!body.trim()) return out;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    out.problems.push(problemAt(text, (m ? Number(m[1]) : 0) + bom, `not JSON: ${(e as Error).message.split('\n')[0]}`));
    return out;
  }
  if (!Array.isArray(value)) {
    out.problems.push({ line: 1, column: 1, message: 'not a CSL-JSON library (expected a JSON array of CSL items)', severity: 'error' });
    return out;
  }
  // Offsets of the array's elements: depth-1 values, strings skipped.
  const starts: number[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) { // "
      const from = i;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
      if (depth === 1) starts.push(from);
    } else if (c === 91 || c === 123) { // [ {
      if (depth === 1) starts.push(i);
      depth++;
    } else if (c === 93 || c === 125) depth--;
    else if (depth === 1 && c > 32 && c !== 44) {
      starts.push(i);
      while (i + 1 < text.length && !/[\s,\]]/.test(text[i + 1]!)) i++;
    }
  }
  const lines = lineStarts(text);
  collect(value, (i) => lineAt(lines, starts[i] ?? 0), out);
  return out;
}

/**
 * Reads a CSL-YAML library (through `core/yaml.ts`: depth limit, problems with positions).
 *
 * @returns the items, or the YAML's problems when it cannot be read
 */
export function readCslYamlLibrary(text: string): CslLibrary {
  const out: CslLibrary = { items: [], problems: [] };
  const loneCr = /\r(?!\n)/.exec(text);
  if (loneCr) {
    out.problems.push(problemAt(text, loneCr.index, 'a line ends with a lone CR (classic Mac OS line endings), which we cannot read as YAML; save the file with LF or CRLF line endings'));
    return out;
  }
  const parsed = parseYaml(text, { uniqueKeys: false });
  const errors = parsed.problems.filter((p) => p.severity === 'error');
  if (errors.length || !parsed.doc) {
    out.problems.push(...(errors.length ? errors : [{ offset: 0, message: 'cannot be read' }]).map((p) => problemAt(text, p.offset, `YAML: ${p.message}`)));
    return out;
  }
  const refs = cslYamlReferences(parsed.doc);
  if (refs.error) {
    out.problems.push({ line: 1, column: 1, message: refs.error, severity: 'error' });
    return out;
  }
  if (!refs.list || !isSeq(refs.list)) return out;
  const nodes = refs.list.items as (YamlNode | null)[];
  const values = isSeq(parsed.doc.contents) ? parsed.value : (parsed.value as { references: unknown }).references;
  const lines = lineStarts(text);
  collect(values as unknown[], (i) => lineAt(lines, nodes[i]?.range?.[0] ?? 0), out);
  return out;
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
