/**
 * Where a JSON text goes wrong, found by a parser rather than read out of an engine's error text:
 * V8's `JSON.parse` says "at position 25", Firefox's "at line 2 column 13", Safari's neither, and
 * vscode.dev runs on all three. `JSON.parse` still decides whether a text is JSON (it is native
 * and exact); {@link jsonSyntaxError} then says where and why, in our words.
 *
 * The tokens come from Microsoft's `jsonc-parser` scanner (the one VS Code uses; browser-safe),
 * with comments and trailing commas refused as RFC 8259 refuses them. Its own `visit` and `parse`
 * recurse once per nesting level, so 12,000 nested `[` would exhaust the stack; the grammar here
 * keeps its nesting in an array instead.
 */
// The ESM build: the package's `main` is a UMD bundle whose `require` calls esbuild cannot follow.
import { createScanner } from 'jsonc-parser/lib/esm/main.js';
import { problem, type ProblemCode, type ProblemText } from './problemText.js';

/**
 * A JSON syntax error at a UTF-16 offset of the text: what is wrong as a code (`problemMessage`
 * words it), or the engine's own message as a plain string.
 */
export interface JsonSyntaxError {
  offset: number;
  text: ProblemText | string;
}

// jsonc-parser's `SyntaxKind` and `ScanError` (declared `const enum`, which isolated modules cannot read).
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const COMMA = 5;
const COLON = 6;
const NULL = 7;
const TRUE = 8;
const FALSE = 9;
const STRING = 10;
const NUMBER = 11;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const LINE_BREAK = 14;
const TRIVIA = 15;
const EOF = 17;

const SCAN_ERRORS: Record<number, ProblemCode> = {
  1: 'json-comment-not-closed',
  2: 'json-string-not-closed',
  3: 'json-number-short',
  4: 'json-unicode-escape',
  5: 'json-unknown-escape',
  6: 'json-control-character',
};

/** What the grammar waits for next. */
const enum Want { Value, ValueOrClose, Key, KeyOrClose, Colon, CommaOrClose, End }

/**
 * The first syntax error of a JSON text (RFC 8259: no comments, no trailing commas, only space,
 * tab, LF and CR between tokens), in one linear pass with no recursion.
 *
 * @param text - the text; a leading byte-order mark is skipped (offsets stay the text's own)
 * @returns the error's offset and what is wrong (a problem code), or undefined for a text that is one JSON value
 *   (an empty text is an error: "the text ends where a value is expected")
 * @example
 * jsonSyntaxError('[1,]') // { offset: 3, text: { code: 'json-value-expected' } }
 */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const scanner = createScanner(text, false);
  if (text.charCodeAt(0) === 0xfeff) scanner.setPosition(1);
  /** Open containers: true for an object. */
  const open: boolean[] = [];
  let want = Want.Value;
  const at = (code: ProblemCode): JsonSyntaxError => ({ offset: scanner.getTokenOffset(), text: problem(code) });
  for (;;) {
    const token = scanner.scan();
    if (token === TRIVIA || token === LINE_BREAK) continue;
    if (token === LINE_COMMENT || token === BLOCK_COMMENT) return at('json-comment');
    const scanError = scanner.getTokenError();
    if (scanError) return at(SCAN_ERRORS[scanError] ?? 'json-not-token');
    if (token === EOF) {
      if (want === Want.End) return undefined;
      return at(want === Want.Value && !open.length ? 'json-ends-before-value' : 'json-ends-inside-value');
    }
    switch (want) {
      case Want.End:
        return at('json-text-after');
      case Want.Colon:
        if (token !== COLON) return at('json-colon-expected');
        want = Want.Value;
        continue;
      case Want.Key:
      case Want.KeyOrClose:
        if (token === CLOSE_BRACE && want === Want.KeyOrClose) break;
        if (token !== STRING) return at(want === Want.KeyOrClose ? 'json-name-or-close-expected' : 'json-name-expected');
        want = Want.Colon;
        continue;
      case Want.CommaOrClose: {
        const inObject = open[open.length - 1]!;
        if (token === COMMA) { want = inObject ? Want.Key : Want.Value; continue; }
        if (token === (inObject ? CLOSE_BRACE : CLOSE_BRACKET)) break;
        return at(inObject ? 'json-comma-or-brace-expected' : 'json-comma-or-bracket-expected');
      }
      case Want.Value:
      case Want.ValueOrClose:
        if (token === CLOSE_BRACKET && want === Want.ValueOrClose) break;
        if (token === OPEN_BRACE) { open.push(true); want = Want.KeyOrClose; continue; }
        if (token === OPEN_BRACKET) { open.push(false); want = Want.ValueOrClose; continue; }
        if (token !== STRING && token !== NUMBER && token !== TRUE && token !== FALSE && token !== NULL) {
          return at(token === CLOSE_BRACKET || token === CLOSE_BRACE || token === COMMA || token === COLON ? 'json-value-expected' : 'json-not-value');
        }
        want = open.length ? Want.CommaOrClose : Want.End;
        continue;
    }
    // A container closes.
    open.pop();
    want = open.length ? Want.CommaOrClose : Want.End;
  }
}

/**
 * Parses a JSON text: `JSON.parse`'s value, or where and why it is not JSON.
 *
 * @param text - the text; a leading byte-order mark is skipped
 * @returns `{ value }`, or `{ error }` with the offset in `text` (the engine's own message at
 *   offset 0 should `JSON.parse` refuse a text {@link jsonSyntaxError} takes: a property test
 *   holds that they agree)
 */
export function parseJson(text: string): { value: unknown; error?: undefined } | { value?: undefined; error: JsonSyntaxError } {
  try {
    return { value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
  } catch (e) {
    return { error: jsonSyntaxError(text) ?? { offset: 0, text: (e instanceof Error ? e.message : String(e)).split('\n')[0]! } };
  }
}
