/**
 * Text bound for a terminal. A terminal acts on control characters: ESC starts sequences that
 * set the window title, clear the screen or rewrite what is shown (ECMA-48), BEL rings, a C1
 * character (U+0080–U+009F, as CSI U+009B) does what ESC does on terminals that take 8-bit
 * controls, and a line break in a file name splits a `file:line:col` line in two. A key, title or
 * file name from a user's library or command line is no instruction to the terminal: its control
 * characters are shown as escapes instead.
 */

/** C0 controls (U+0000–U+001F), DEL (U+007F) and C1 controls (U+0080–U+009F). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text with every control character (C0, DEL, C1; ECMA-48 §5) shown as an escape: `\n`, `\r`,
 * `\t` by name, the others as `\xHH` (ESC is `\x1b`, CSI `\x9b`), as C and Bash's `$'…'` write
 * them. Printable text, non-ASCII letters included, is left as it is.
 *
 * @param text - any text (a field of an entry, a file name, a message holding them)
 * @param keep - control characters that are the output's own structure and stay as they are
 *   (`'\n'` for a block of lines, `'\n\t'` for tab-separated lines; with `'\n'`, a CR before an
 *   LF stays too: a CRLF entry printed as written); a field inside such a block is escaped with
 *   none kept first, so it cannot forge the structure
 * @returns text that holds no control character outside `keep`
 */
export function terminalSafe(text: string, keep = ''): string {
  const lines = keep.includes('\n');
  return text.replace(CONTROL, (c, at: number) => (keep.includes(c) || (lines && c === '\r' && text[at + 1] === '\n')
    ? c : NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

/**
 * JSON text for a terminal: `JSON.stringify`, which escapes C0 in strings (ECMA-404 requires it)
 * but leaves DEL and C1 as they are; those are written `\u007f`…`\u009f` here. Both escapes stand
 * for the same character, so the JSON parses to the same value; outside strings JSON has no
 * control characters but the layout's line breaks.
 *
 * @param value - anything `JSON.stringify` takes
 * @param indent - as `JSON.stringify`'s `space`
 * @throws TypeError as `JSON.stringify` does (a cycle, a BigInt)
 */
export function terminalJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
