/**
 * Every YAML text we read (corpus files, CSL-YAML bibliographies, Markdown front matter, Quarto
 * projects) goes through {@link parseYaml}: one place that keeps the `yaml` library's failure modes
 * from reaching the user.
 *
 * - Deep nesting is refused before the library sees it: `yaml` recurses per level, and about 850
 *   nested `[` can exhaust the stack inside V8's regexp compiler, which aborts Node 20 outright
 *   (SIGABRT, not a catchable exception).
 * - Errors are reported without `prettyErrors`: its context formatting is quadratic on large inputs
 *   (3.4 s for a 64 KB front matter).
 * - Duplicate keys are found here, with one Set per mapping: the library's `uniqueKeys` check
 *   compares every key with every other (×35 time for ×10 keys in one mapping).
 * - `toJS()` exceptions (an undefined alias `*nope`, alias expansion over the limit, a bad merge
 *   key) become a problem with a position instead of escaping.
 */
import { isScalar, LineCounter, parseDocument, visit, type Document } from 'yaml';

/** A YAML problem at a UTF-16 offset of the text. */
export interface YamlProblem {
  offset: number;
  message: string;
  severity: 'error' | 'warning';
}

/** A parsed YAML text: the document (absent when it could not be parsed at all) and every problem. */
export interface ParsedYaml {
  /** The document, when it parsed without errors. */
  doc?: Document.Parsed;
  /** The value (`doc.toJS()`), when the document converted; undefined for an empty document. */
  value?: unknown;
  /** Line and column lookup for offsets of this text. */
  lines: LineCounter;
  problems: YamlProblem[];
}

/** Nesting depth past which a text is refused (no corpus entry, CSL item or front matter comes close). */
export const MAX_YAML_DEPTH = 100;

/**
 * Alias expansions allowed while converting (the `yaml` default is 100, which refuses a normal
 * 102-entry file that reuses one anchor in every entry). Expansion is still bounded, so a
 * "billion laughs" document is refused.
 */
const MAX_ALIAS_COUNT = 10_000;

/**
 * An upper bound on a YAML text's nesting depth, in one linear pass: flow brackets outside quotes
 * and comments, and per line the indentation plus leading `- ` / `? ` indicators. It may
 * over-count (a plain scalar with brackets), never under-count.
 *
 * @returns the offset where {@link MAX_YAML_DEPTH} is first exceeded, or -1
 */
export function tooDeepAt(text: string, limit = MAX_YAML_DEPTH): number {
  let flow = 0;
  let quote = '';
  let lineStart = true;
  let indent = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n' || c === '\r') { lineStart = true; indent = 0; if (!quote) continue; }
    if (quote) {
      if (quote === '"' && c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (lineStart) {
      if (c === ' ' || c === '\t') { indent++; if (indent + flow > limit) return i; continue; }
      if ((c === '-' || c === '?') && (text[i + 1] === ' ' || text[i + 1] === '\t')) { indent += 2; i++; if (indent + flow > limit) return i; continue; }
      lineStart = false;
    }
    if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      while (i + 1 < text.length && text[i + 1] !== '\n' && text[i + 1] !== '\r') i++;
    } else if (c === '"' || (c === "'" && (i === 0 || /[\s[{,:]/.test(text[i - 1]!)))) {
      quote = c;
    } else if (c === '[' || c === '{') {
      if (++flow + indent > limit) return i;
    } else if ((c === ']' || c === '}') && flow > 0) {
      flow--;
    }
  }
  return -1;
}

/**
 * Parses a YAML text into a document and its value, never throwing.
 *
 * @param text - the YAML text (a leading BOM is allowed)
 * @param opts.uniqueKeys - report duplicate mapping keys as errors (default true)
 * @returns the document and value when it parsed, and every problem with its offset;
 *   when any problem is an error, `doc` and `value` are absent
 * @example
 * const { value, problems } = parseYaml('references:\n  - id: a\n');
 */
export function parseYaml(text: string, opts: { uniqueKeys?: boolean } = {}): ParsedYaml {
  const lines = new LineCounter();
  const deep = tooDeepAt(text);
  if (deep >= 0) {
    lines.addNewLine(0);
    for (let i = 0; i < deep; i++) if (text[i] === '\n') lines.addNewLine(i + 1);
    return { lines, problems: [{ offset: deep, message: `nested more than ${MAX_YAML_DEPTH} levels deep; not read`, severity: 'error' }] };
  }
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  } catch (e) {
    return { lines, problems: [{ offset: 0, message: `cannot be parsed: ${firstLine(e)}`, severity: 'error' }] };
  }
  const problems: YamlProblem[] = [
    ...doc.errors.map((e) => ({ offset: e.pos[0], message: firstLine(e), severity: 'error' as const })),
    ...doc.warnings.map((e) => ({ offset: e.pos[0], message: firstLine(e), severity: 'warning' as const })),
  ];
  if (opts.uniqueKeys ?? true) {
    visit(doc, {
      Map(_key, map) {
        const seen = new Set<unknown>();
        for (const pair of map.items) {
          const k = isScalar(pair.key) ? pair.key.value : pair.key;
          if (!seen.has(k)) { seen.add(k); continue; }
          const at = (pair.key as { range?: [number, number, number] } | null)?.range?.[0] ?? map.range?.[0] ?? 0;
          problems.push({ offset: at, message: 'Map keys must be unique', severity: 'error' });
        }
      },
    });
  }
  if (problems.some((p) => p.severity === 'error')) return { lines, problems };
  // Aliases to anchors that do not exist are an error of the text, with a position; toJS would throw.
  let dangling: YamlProblem | undefined;
  visit(doc, {
    Alias(_key, node) {
      if (!node.resolve(doc)) { dangling = { offset: node.range?.[0] ?? 0, message: `alias *${node.source} refers to no anchor`, severity: 'error' }; return visit.BREAK; }
      return undefined;
    },
  });
  if (dangling) return { lines, problems: [...problems, dangling] };
  try {
    return { doc, value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), lines, problems };
  } catch (e) {
    return { lines, problems: [...problems, { offset: 0, message: `cannot be read: ${firstLine(e)}`, severity: 'error' }] };
  }
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}
