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
 * - At most {@link MAX_YAML_PROBLEMS} problems are reported, then one that says how many more
 *   there were. The library makes an `Error` (with a stack trace) for every problem, and a text
 *   can have one per character (400,000 `"` or `]` took 2–6 s); past the limit the problems are
 *   only counted.
 */
import { Composer, isScalar, LineCounter, Parser, visit, type Document, type ErrorCode, type Node as YamlNode, type Range } from 'yaml';
import { problem, type ProblemArg } from './problemText.js';

/**
 * A YAML problem at a UTF-16 offset of the text: ours as a code with its values, the `yaml`
 * library's own message as a plain string (it cannot be translated); `problemMessage` words either.
 */
export interface YamlProblem {
  offset: number;
  text: ProblemArg;
  severity: 'error' | 'warning';
}

/** A parsed YAML text: the document (absent when it could not be parsed at all) and its problems. */
export interface ParsedYaml {
  /** The document, when it parsed without errors (its own `errors` and `warnings` are empty: see `problems`). */
  doc?: Document.Parsed;
  /** The value (`doc.toJS()`), when the document converted; undefined for an empty document. */
  value?: unknown;
  /** Line and column lookup for offsets of this text. */
  lines: LineCounter;
  /** Errors and warnings: at most {@link MAX_YAML_PROBLEMS}, then one "… and N more YAML problems". */
  problems: YamlProblem[];
}

/** Nesting depth past which a text is refused (no corpus entry, CSL item or front matter comes close). */
export const MAX_YAML_DEPTH = 100;

/**
 * Problems reported for one text; any more are counted and summed up in one last problem
 * ("… and 199,899 more YAML problems"). A real file with a typo has a handful.
 */
export const MAX_YAML_PROBLEMS = 100;

/**
 * Alias expansions allowed while converting (the `yaml` default is 100, which refuses a normal
 * 102-entry file that reuses one anchor in every entry). Expansion is still bounded, so a
 * "billion laughs" document is refused.
 */
const MAX_ALIAS_COUNT = 10_000;

/**
 * An upper bound on a YAML text's nesting depth, in one linear pass: flow brackets outside quotes
 * and comments; per line the indentation plus leading `- ` / `? ` indicators; and the `:` value
 * indicators since the start of the line (in block context) or since the last `,` or bracket (in a
 * flow collection). `x: x: x: …` on one line nests a mapping per `: ` (an error, but the library
 * builds all the levels first: 1,000 of them overflowed its stack). It may over-count (a plain
 * scalar with brackets, prose in a block scalar), never under-count.
 *
 * @param text - the YAML text
 * @param limit - the largest depth allowed (default {@link MAX_YAML_DEPTH})
 * @returns the offset where `limit` is first exceeded, or -1
 */
export function tooDeepAt(text: string, limit = MAX_YAML_DEPTH): number {
  let flow = 0;
  let quote = '';
  let lineStart = true;
  let indent = 0;
  // `:` indicators of the current flow item (or block line), and of the enclosing flow items
  let keys = 0;
  let outerKeys = 0;
  const keyStack: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n' || c === '\r') {
      lineStart = true;
      indent = 0;
      if (!quote) { if (flow === 0) keys = 0; continue; }
    }
    if (quote) {
      if (quote === '"' && c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (lineStart) {
      if (c === ' ' || c === '\t') { indent++; if (indent + flow + outerKeys + keys > limit) return i; continue; }
      if ((c === '-' || c === '?') && (text[i + 1] === ' ' || text[i + 1] === '\t')) { indent += 2; i++; if (indent + flow + outerKeys + keys > limit) return i; continue; }
      lineStart = false;
    }
    if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      while (i + 1 < text.length && text[i + 1] !== '\n' && text[i + 1] !== '\r') i++;
    } else if (c === '"' || (c === "'" && (i === 0 || /[\s[{,:]/.test(text[i - 1]!)))) {
      quote = c;
    } else if (c === '[' || c === '{') {
      keyStack.push(keys);
      outerKeys += keys;
      keys = 0;
      if (++flow + indent + outerKeys > limit) return i;
    } else if ((c === ']' || c === '}') && flow > 0) {
      flow--;
      keys = keyStack.pop()!;
      outerKeys -= keys;
    } else if (c === ',' && flow > 0) {
      keys = 0;
    } else if (c === ':' && (i + 1 === text.length || /[\s,[\]{}]/.test(text[i + 1]!) || text[i - 1] === '"' || text[i - 1] === "'")) {
      if (++keys + indent + flow + outerKeys > limit) return i;
    }
  }
  return -1;
}

/**
 * Parses a YAML text into a document and its value, never throwing.
 *
 * Time is linear in the text: nesting is bounded by {@link tooDeepAt}, and problems past
 * {@link MAX_YAML_PROBLEMS} cost no more than counting them.
 *
 * @param text - the YAML text (a leading BOM is allowed)
 * @param opts.uniqueKeys - report duplicate mapping keys as errors (default true)
 * @param opts.toJS - convert the document to `value` (default true); without, the caller converts
 *   the nodes it wants with {@link nodeToJS}, so that one node's failure costs only that node
 * @returns the document and value when it parsed, and the problems with their offsets in the
 *   text: at most {@link MAX_YAML_PROBLEMS}, then one "… and N more YAML problems" at the first
 *   one left out; when any problem is an error, `doc` and `value` are absent. `lines` counts a
 *   line after every LF (as the `yaml` library does: a lone CR does not break a line).
 * @example
 * const { value, problems } = parseYaml('references:\n  - id: a\n');
 */
export function parseYaml(text: string, opts: { uniqueKeys?: boolean; toJS?: boolean } = {}): ParsedYaml {
  const lines = lineCounterOf(text);
  const deep = tooDeepAt(text);
  if (deep >= 0) {
    return { lines, problems: [{ offset: deep, text: problem('yaml-too-deep', MAX_YAML_DEPTH), severity: 'error' }] };
  }
  const problems = new ProblemList();
  let doc: Document.Parsed;
  try {
    doc = composeDocument(text, problems, lines);
  } catch (e) {
    return { lines, problems: [{ offset: 0, text: problem('yaml-cannot-parse', firstLine(e)), severity: 'error' }] };
  }
  if (opts.uniqueKeys ?? true) {
    visit(doc, {
      Map(_key, map) {
        const seen = new Set<unknown>();
        for (const pair of map.items) {
          const k = isScalar(pair.key) ? pair.key.value : pair.key;
          if (!seen.has(k)) { seen.add(k); continue; }
          const at = (pair.key as { range?: [number, number, number] } | null)?.range?.[0] ?? map.range?.[0] ?? 0;
          problems.add(at, problem('yaml-duplicate-key'), 'error');
        }
      },
    });
  }
  if (problems.hasError) return { lines, problems: problems.list() };
  // Aliases to anchors that do not exist are an error of the text, with a position; toJS would throw.
  let dangling: YamlProblem | undefined;
  visit(doc, {
    Alias(_key, node) {
      if (!node.resolve(doc)) { dangling = { offset: node.range?.[0] ?? 0, text: problem('yaml-dangling-alias', node.source), severity: 'error' }; return visit.BREAK; }
      return undefined;
    },
  });
  if (dangling) return { lines, problems: [...problems.list(), dangling] };
  if (opts.toJS === false) return { doc, lines, problems: problems.list() };
  try {
    return { doc, value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), lines, problems: problems.list() };
  } catch (e) {
    return { lines, problems: [...problems.list(), { offset: 0, text: problem('yaml-cannot-convert', firstLine(e)), severity: 'error' }] };
  }
}

/**
 * One node of a parsed document as plain JavaScript (`node.toJS`), with the alias limit of
 * {@link parseYaml}; aliases may point anywhere in the document.
 *
 * @returns the value, or the library's reason (an alias expansion over the limit, a bad merge key)
 */
export function nodeToJS(doc: Document.Parsed, node: YamlNode): { value: unknown; error?: undefined } | { value?: undefined; error: string } {
  try {
    return { value: node.toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (e) {
    return { error: firstLine(e) };
  }
}

/** Line starts of a text: 0 and after every LF (where the `yaml` library's own counter puts them). */
function lineCounterOf(text: string): LineCounter {
  const lines = new LineCounter();
  lines.addNewLine(0);
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines.addNewLine(i + 1);
  return lines;
}

/**
 * The problems of one text, up to {@link MAX_YAML_PROBLEMS}; past that only counted, with the
 * offset of the first one left out.
 */
class ProblemList {
  private readonly kept: YamlProblem[] = [];
  private more = 0;
  private moreAt = 0;
  private moreErrors = false;
  hasError = false;

  add(offset: number, text: ProblemArg | (() => ProblemArg), severity: YamlProblem['severity']): void {
    if (severity === 'error') this.hasError = true;
    if (this.kept.length < MAX_YAML_PROBLEMS) {
      this.kept.push({ offset, text: typeof text === 'function' ? text() : text, severity });
      return;
    }
    if (!this.more++) this.moreAt = offset;
    if (severity === 'error') this.moreErrors = true;
  }

  list(): YamlProblem[] {
    if (!this.more) return [...this.kept];
    const text = problem(this.more === 1 ? 'yaml-more-problem' : 'yaml-more-problems', this.more.toLocaleString('en-US'), MAX_YAML_PROBLEMS);
    return [...this.kept, { offset: this.moreAt, text, severity: this.moreErrors ? 'error' : 'warning' }];
  }
}

/** What the `yaml` library's composer reports a problem with (its `ComposeErrorHandler`). */
type ComposeErrorHandler = (source: number | [number, number] | Range | { offset: number; source?: string }, code: ErrorCode, message: string, warning?: boolean) => void;

function sourceOffset(source: Parameters<ComposeErrorHandler>[0]): number {
  return typeof source === 'number' ? source : Array.isArray(source) ? source[0] : source.offset;
}

/**
 * `parseDocument` of the `yaml` library (options `prettyErrors: false, uniqueKeys: false`), with
 * its problems going into `problems` instead of the document's `errors` and `warnings`.
 *
 * The library makes a `YAMLParseError` (an `Error`, with a stack trace) per problem, from the
 * composer's `onError` and from each top-level `error` token; here a problem becomes a
 * {@link YamlProblem} and, past {@link MAX_YAML_PROBLEMS}, only a count. `onError` is a private
 * member of the library's `Composer` (`yaml` 2.x); should it be missing, the library's errors are
 * read from the document as before (correct, only not bounded).
 *
 * @returns the first document; a second one is an error (as in `parseDocument`), at its start and
 *   in our words: the library's own message tells the user to call `YAML.parseAllDocuments()`
 * @throws whatever the library throws (the caller reports it)
 */
function composeDocument(text: string, problems: ProblemList, lines: LineCounter): Document.Parsed {
  // `logLevel: 'error'`: toJS's warnings (a key that is a collection) would go to `process.emitWarning`, which prints them with the PID to stderr.
  const composer = new Composer({ prettyErrors: false, uniqueKeys: false, logLevel: 'error' });
  const internal = composer as unknown as { onError?: ComposeErrorHandler };
  const hooked = typeof internal.onError === 'function';
  if (hooked) {
    internal.onError = (source, _code, message, warning) => {
      problems.add(sourceOffset(source), () => firstLine(message), warning ? 'warning' : 'error');
    };
  }
  let doc: Document.Parsed | undefined;
  let docs = 0;
  const take = (d: Document.Parsed): boolean => {
    if (++docs === 1) { doc = d; return true; }
    // The second document starts at its `---` (or, after a `...`, at its first token).
    const at = d.range[0];
    problems.add(at, problem(text.startsWith('---', at) ? 'yaml-second-document-marker' : 'yaml-second-document', lines.linePos(at).line), 'error');
    return false;
  };
  tokens: for (const token of new Parser().parse(text)) {
    // The composer turns these into errors itself, one `Error` each: count them here instead.
    if (hooked && token.type === 'error') {
      problems.add(token.offset, () => (token.source ? `${token.message}: ${JSON.stringify(token.source)}` : token.message), 'error');
      continue;
    }
    for (const d of composer.next(token)) if (!take(d)) break tokens;
  }
  if (docs < 2) for (const d of composer.end(true, text.length)) if (!take(d)) break;
  if (!hooked) {
    for (const e of doc!.errors) problems.add(e.pos[0], firstLine(e), 'error');
    for (const e of doc!.warnings) problems.add(e.pos[0], firstLine(e), 'warning');
  }
  return doc!;
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}
