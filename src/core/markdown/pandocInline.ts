/**
 * Inline text of a Markdown paragraph as pandoc's Markdown reader reads it, for the citation reader
 * (`pandoc.ts`): citation keys (`citeKey`), where a key may start (`notAfterString`), example
 * references, and the parts that are not text (inline code, TeX math, raw TeX commands, HTML
 * comments and tags, autolinks, link destinations, Quarto shortcodes).
 *
 * Sources: pandoc's User's Guide ("Citation syntax") and `src/Text/Pandoc/Readers/Markdown.hs`
 * (`cite`, `textualCite`, `normalCite`, `str`, `inline`), `src/Text/Pandoc/Parsing/Citations.hs`
 * (`citeKey`); see `pandoc.ts` for the rules and limits. Offsets are UTF-16 code units.
 */

import { countWork, finder, type Bracket, type PandocKey, type View } from './pandocScanBase.js';

const ALNUM = /[\p{L}\p{N}]/u;
const isAlnum = (c: string): boolean => ALNUM.test(c);
/** Whether the code point `c` is a letter or digit (Haskell's `isAlphaNum`), ASCII decided without a regular expression. */
const isAlnumCode = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || (c >= 128 && ALNUM.test(String.fromCodePoint(c)));
/** The length in UTF-16 units of the code point `c`. */
const unitsOf = (c: number): number => (c > 0xffff ? 2 : 1);
const REGCHAR = /[\p{L}\p{N}_]/u;
const INTERNAL_PUNCT = ':.#$%&-+?<>~/';

/**
 * The simple key (`simpleCiteIdentifier`) starting at `i`; it may start with `*` (pandoc's `@*`,
 * which cites every entry in `nocite`).
 *
 * @returns the offset after it, or -1 when no key starts there
 */
function simpleKeyEnd(t: string, i: number, end: number): number {
  if (i >= end || !(REGCHAR.test(charAt(t, i)) || t[i] === '*')) return -1;
  let k = i + charAt(t, i).length;
  while (k < end) {
    const c = charAt(t, k);
    if (REGCHAR.test(c)) { k += c.length; continue; }
    const next = k + 1 < end ? charAt(t, k + 1) : '';
    if (INTERNAL_PUNCT.includes(c) && next && REGCHAR.test(next)) { k++; continue; }
    if ((c === ':' || c === '/') && next === '/') { k++; continue; }
    break;
  }
  return k;
}

/** The code point at `i` as a string (one or two UTF-16 units). */
function charAt(t: string, i: number): string {
  const cp = t.codePointAt(i);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

/**
 * The braced key `{…}` at `i` (`charsInBalanced '{' '}'` of non-blank characters).
 *
 * @param ends - {@link bracedKeyEnds} of `t`, when the caller reads many keys of one text
 * @returns the offset after the closing brace, or -1
 */
function bracedKeyEnd(t: string, i: number, end: number, ends?: Int32Array): number {
  if (t[i] !== '{') return -1;
  if (ends) return ends[i]! <= end ? ends[i]! : -1;
  let depth = 0;
  for (let k = i; k < end; k++) {
    const c = t[k]!;
    if (/\s/.test(c)) { countWork(k - i); return -1; }
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) { countWork(k - i); return k + 1; }
  }
  countWork(end - i);
  return -1;
}

/**
 * For every `{` of a text, where the braced key it opens ends ({@link bracedKeyEnd}'s answer: the
 * offset after the `}` that balances it with no blank between), or -1; one pass with a stack, which
 * a blank empties (no brace open before it can close without a blank inside). Reading each `@{`
 * of a paragraph to its end instead was quadratic: 60 kB of `[@{` took over a minute (issue 28).
 */
export function bracedKeyEnds(t: string): Int32Array {
  countWork(t.length);
  const out = new Int32Array(t.length).fill(-1);
  // The stack in a typed array: a JavaScript array grown to hundreds of thousands of elements cost
  // more per element the longer it got (600 kB of `@{`: 160 ms, against 10 ms so).
  const open = new Int32Array(t.length);
  let top = 0;
  for (let k = 0; k < t.length; k++) {
    const c = t.charCodeAt(k);
    if (c === 123) open[top++] = k;
    else if (c === 125) { if (top) out[open[--top]!] = k + 1; }
    else if (c <= 32 || c >= 128 ? /\s/.test(t[k]!) : false) top = 0;
  }
  return out;
}

/**
 * The citation key written right after an `@` (pandoc's `citeKey`: a simple key, or `{…}`).
 *
 * @param t - the text
 * @param i - the offset right after the `@`
 * @param ends - {@link bracedKeyEnds} of `t`, for a caller that reads every `@` of a text (each
 *   `@{` would otherwise read on to the text's end)
 * @returns the key's `[keyStart, keyEnd)` and where the citation key's syntax ends (after a `}`),
 *   or undefined when no key starts there
 */
export function pandocKeyAt(t: string, i: number, ends?: Int32Array): { keyStart: number; keyEnd: number; end: number } | undefined {
  const simple = simpleKeyEnd(t, i, t.length);
  if (simple > 0) return { keyStart: i, keyEnd: simple, end: simple };
  const braced = bracedKeyEnd(t, i, t.length, ends);
  return braced > 0 ? { keyStart: i + 1, keyEnd: braced - 1, end: braced } : undefined;
}

/**
 * Reads a paragraph's inline text for citations, as pandoc's `inline` parser does (see the
 * module's documentation), and records the parts of it that are text.
 *
 * @param t - the whole document
 * @param views - the paragraph's lines
 * @param keys - receives the citations found
 * @param regions - receives the parts that are text, `[start, end)` in the document
 * @param brackets - receives every pair of square brackets of the text, in the order they close
 */
export function scanInlines(t: string, views: readonly View[], keys: PandocKey[], regions: { start: number; end: number }[], brackets: Bracket[]): void {
  // The paragraph as one string, and where each of its lines starts in it.
  const starts: number[] = [];
  const parts: string[] = [];
  let len = 0;
  for (const v of views) {
    starts.push(len);
    parts.push(t.slice(v.s, v.e));
    len += v.e - v.s + 1;
  }
  const p = parts.join('\n');
  const n = p.length;
  countWork(n);
  const next = finder(p);
  let line = 0;
  const at = (i: number): number => {
    while (line + 1 < starts.length && starts[line + 1]! <= i) line++;
    return views[line]!.s + (i - starts[line]!);
  };
  // Parts that are not text (code, math, …), `[a, b)` in the paragraph, ascending.
  const cuts: [number, number][] = [];
  const cut = (a: number, b: number) => cuts.push([a, b]);
  // Closing candidates: the paragraph's backtick runs by length, found in one pass at its first
  // backtick, each list read forward once (the openers come in order). Searching on from each
  // opener was quadratic for a long run never closed: pandoc reads its first backtick as a symbol
  // and tries again from the next, so a run of 3,000 made 3,000 searches to the paragraph's end.
  let runs: Map<number, { starts: number[]; next: number }> | undefined;
  /** The end of the last backtick run the reader measured. */
  let runEnd = -1;
  const closingBackticks = (from: number, run: number): number => {
    if (!runs) {
      runs = new Map();
      countWork(n);
      for (let b = p.indexOf('`'); b >= 0; b = p.indexOf('`', b)) {
        let e = b;
        while (e < n && p[e] === '`') e++;
        let list = runs.get(e - b);
        if (!list) runs.set(e - b, list = { starts: [], next: 0 });
        list.starts.push(b);
        b = e;
      }
    }
    const list = runs.get(run);
    if (!list) return -1;
    while (list.next < list.starts.length && list.starts[list.next]! < from) { list.next++; countWork(1); }
    return list.next < list.starts.length ? list.starts[list.next]! : -1;
  };
  // pandoc's `mathInlineWith "$" "$"`: the math ends at the first `$` (not escaped); it is no
  // math when a blank comes before that `$` or a digit after it (`$5 and $6`).
  const closingDollar = (from: number): number => {
    for (let k = p.indexOf('$', from); k >= 0; k = p.indexOf('$', k + 1)) {
      countWork(k - from);
      if (p[k - 1] === '\\') continue;
      return /\s/.test(p[k - 1]!) || /\d/.test(p[k + 1] ?? '') ? -1 : k;
    }
    return -1;
  };
  // Where each `{` and `[` of the paragraph closes, computed once when raw TeX needs it.
  let matches: Int32Array | undefined;
  // Where each braced key of the paragraph ends, computed once at its first `@{`.
  let braced: Int32Array | undefined;
  let lastStr = -1;
  // The `[` still open (offsets in the paragraph; in the document, taken when met, as `at` only
  // moves forward), innermost last; the keys each one holds directly.
  const open: number[] = [];
  const openInDoc: number[] = [];
  const inside = new Map<number, PandocKey[]>();
  let openStar = 0, openUnderscore = 0;
  let i = 0;
  while (i < n) {
    const c = p[i]!;
    switch (c) {
      case '\\': {
        const d = p[i + 1] ?? '';
        if (/[A-Za-z]/.test(d)) {
          // Raw TeX (`\emph{…}`): the command and its braced and bracketed arguments.
          let k = i + 1;
          // Pandoc's TeX reader takes `@` as a letter of command names (`\make@title`).
          while (k < n && /[A-Za-z@]/.test(p[k]!)) k++;
          matches ??= bracketMatches(p);
          const e = texArgumentsEnd(p, k, matches, p.slice(i + 1, k));
          if (e > k) cut(i, e);
          i = e;
        } else i += d && d !== '\n' ? 2 : 1;
        continue;
      }
      case '`': {
        // Inside a run already measured (pandoc tries again from its next backtick), its end is known.
        const from = i < runEnd ? runEnd : i;
        let k = from;
        while (k < n && p[k] === '`') k++;
        countWork(k - from + 1);
        runEnd = k;
        const run = k - i;
        const close = closingBackticks(k, run);
        if (close >= 0) {
          let e = close + run;
          // A raw inline `` `…`{=latex} `` or attributes.
          if (p[e] === '{') { const a = next('}', e); if (a > 0) e = a + 1; }
          cut(i, e);
          i = e;
        } else i++; // pandoc then reads one backtick as a symbol and tries again from the next
        continue;
      }
      case '$': {
        let e = -1;
        if (p[i + 1] === '$') {
          const d = next('$$', i + 2);
          if (d >= 0) e = d + 2;
        } else if (i + 1 < n && !/\s/.test(p[i + 1]!)) {
          const d = closingDollar(i + 1);
          if (d >= 0) e = d + 1;
        }
        if (e > 0) { cut(i, e); i = e; } else i++;
        continue;
      }
      case '<': {
        let e = -1;
        if (p.startsWith('<!--', i)) {
          // `<!-->` and `<!--->` are whole (empty) comments, as HTML reads them.
          const empty = /^<!---?>/.exec(p.slice(i, i + 6));
          const d = empty ? -1 : next('-->', i + 4);
          if (empty) e = i + empty[0].length;
          else if (d >= 0) e = d + 3;
        } else {
          for (const re of [AUTOLINK, HTML_TAG]) {
            re.lastIndex = i;
            const m = re.exec(p);
            if (m) { e = i + m[0].length; break; }
          }
        }
        if (e > 0) { cut(i, e); i = e; } else i++;
        continue;
      }
      case '{': {
        const d = p.startsWith('{{<', i) ? next('>}}', i + 3) : -1;
        if (d >= 0) { cut(i, d + 3); i = d + 3; } else i++;
        continue;
      }
      case '[':
        open.push(i);
        openInDoc.push(at(i));
        i++;
        continue;
      case ']': {
        const from = open.pop();
        const fromInDoc = openInDoc.pop();
        i++;
        if (from === undefined || fromInDoc === undefined) continue;
        const pair = { start: fromInDoc, end: at(i - 1) + 1 };
        brackets.push(pair);
        for (const k of inside.get(from) ?? []) k.bracket = pair;
        inside.delete(from);
        // A link's destination `(url "title")`, or attributes `{…}`, are not text.
        const e = p[i] === '(' ? destinationEnd(p, i) : p[i] === '{' ? next('}', i) + 1 : -1;
        if (e > 0) { cut(i, e); i = e; }
        continue;
      }
      case '.': {
        let k = i;
        while (k < n && p[k] === '.') k++;
        // `...` is an ellipsis; a lone `.` (or what is left after ellipses) is a word (`str`).
        if ((k - i) % 3 !== 0) lastStr = k;
        i = k;
        continue;
      }
      case '*':
      case '_': {
        let k = i;
        while (k < n && p[k] === c) k++;
        const before = i > 0 ? p[i - 1]! : ' ';
        const after = k < n ? p[k]! : ' ';
        const canOpen = !/\s/.test(after) && !(c === '_' && isAlnum(before));
        const canClose = !/\s/.test(before) && !(c === '_' && isAlnum(after));
        const open = c === '*' ? openStar : openUnderscore;
        if (canClose && open > 0) {
          // An emphasis closer counts as the end of a word (`updateLastStrPos`): `*a*@b` cites nothing.
          lastStr = k;
          if (c === '*') openStar--; else openUnderscore--;
        } else if (canOpen) {
          if (c === '*') openStar++; else openUnderscore++;
        }
        i = k;
        continue;
      }
      case '@': {
        if (lastStr === i) { i = exampleRefEnd(p, i + 1); continue; }
        let keyStart = i + 1, keyEnd = simpleKeyEnd(p, keyStart, n), end = keyEnd;
        if (keyEnd < 0) {
          if (p.charCodeAt(keyStart) === 123) braced ??= bracedKeyEnds(p);
          end = bracedKeyEnd(p, keyStart, n, braced);
          if (end > 0) { keyStart++; keyEnd = end - 1; }
        }
        // No citation: pandoc's `exampleRef` takes the `@` and a label, which ends no word.
        if (end < 0) { i = exampleRefEnd(p, i + 1); continue; }
        // `@*` cites every entry only in `nocite` metadata; in the text it names no entry.
        if (keyEnd > keyStart && p.slice(keyStart, keyEnd) !== '*') {
          const key: PandocKey = { key: p.slice(keyStart, keyEnd), offset: at(keyStart), length: keyEnd - keyStart, suppressAuthor: p[i - 1] === '-', bracketed: open.length > 0 };
          keys.push(key);
          if (open.length) {
            const innermost = open[open.length - 1]!;
            let list = inside.get(innermost);
            if (!list) inside.set(innermost, list = []);
            list.push(key);
          }
        }
        i = end;
        continue;
      }
      default: {
        const ch = p.codePointAt(i)!;
        if (isAlnumCode(ch)) {
          // A word (`str`): letters and digits, with single dots inside.
          let k = i;
          for (;;) {
            const w = k < n ? p.codePointAt(k)! : -1;
            if (w >= 0 && isAlnumCode(w)) k += unitsOf(w);
            else if (w === 46 && p[k + 1] !== '.') k++;
            else break;
          }
          lastStr = k;
          i = k;
          continue;
        }
        i += unitsOf(ch);
      }
    }
  }
  // The text: each line's part of the paragraph, minus the cuts.
  let ci = 0;
  for (let k = 0; k < views.length; k++) {
    const from = starts[k]!, to = from + (views[k]!.e - views[k]!.s);
    let a = from;
    while (ci < cuts.length && cuts[ci]![1] <= from) ci++;
    for (let j = ci; j < cuts.length && cuts[j]![0] <= to; j++) {
      const [x, y] = cuts[j]!;
      if (x > a) regions.push({ start: views[k]!.s + (a - from), end: views[k]!.s + (x - from) });
      a = Math.max(a, y);
    }
    if (a <= to) regions.push({ start: views[k]!.s + (a - from), end: views[k]!.e });
  }
}

/** The end of an example label (`exampleRef`: letters and digits, with single `_` or `-` inside) starting at `i`. */
function exampleRefEnd(p: string, i: number): number {
  let k = i;
  for (;;) {
    const c = charAt(p, k);
    if (c && isAlnum(c)) { k += c.length; continue; }
    if ((p[k] === '_' || p[k] === '-') && k > i && isAlnum(charAt(p, k + 1))) { k++; continue; }
    return k;
  }
}

/**
 * For every `{` and `[` of a text, the offset of the `}` or `]` that closes it (nested pairs of the
 * same kind counted, a backslash escaping the character after it), or -1; one pass with a stack.
 */
function bracketMatches(p: string): Int32Array {
  countWork(p.length);
  const out = new Int32Array(p.length).fill(-1);
  const braces: number[] = [], squares: number[] = [];
  for (let k = 0; k < p.length; k++) {
    const c = p[k];
    if (c === '\\') k++;
    else if (c === '{') braces.push(k);
    else if (c === '[') squares.push(k);
    else if (c === '}' && braces.length) out[braces.pop()!] = k;
    else if (c === ']' && squares.length) out[squares.pop()!] = k;
  }
  return out;
}

/**
 * Commands that pandoc's LaTeX reader knows to take no argument: a bracket right after one is text
 * (`\LaTeX[@key]` cites `key`). Each was checked with pandoc 2.17 (`\X[@a] x` cites `a`); other
 * known commands of that kind (`\today`, `\dag`) are read by pandoc as taking options, and so by us.
 */
const NO_OPTIONS = new Set(['LaTeX', 'TeX', 'ldots', 'dots', 'textbackslash', 'S', 'P', 'copyright', 'pounds', 'ss', 'aa', 'o', 'l', 'i', 'j', 'ae', 'oe', 'AA', 'AE', 'OE', 'O', 'L']);

/**
 * The end of a raw TeX command's arguments after its name (`name` ends at `k`), as pandoc's Markdown
 * reader takes them into the raw inline (checked against pandoc 2.17): white space, then options
 * `[…]`, then braced arguments `{…}`, each after optional white space; once a braced argument is
 * taken, a bracket is text again (`\emph{b}[@a]` cites `a`), and the commands of {@link NO_OPTIONS}
 * take no options at all.
 *
 * @returns `k` when the command has no argument
 */
function texArgumentsEnd(p: string, k: number, matches: Int32Array, name: string): number {
  let e = k;
  let options = !NO_OPTIONS.has(name);
  for (;;) {
    let j = e;
    while (j < p.length && (p[j] === ' ' || p[j] === '\t' || p[j] === '\n')) j++;
    const c = p[j];
    if (c !== '{' && !(c === '[' && options)) return e;
    const close = matches[j]!;
    if (close < 0) return e;
    if (c === '{') options = false;
    e = close + 1;
  }
}

const AUTOLINK = /<(?:[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\s]*|[A-Za-z0-9][A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]*@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>/y;
/** An HTML open or closing tag with well-formed attributes (CommonMark's "Raw HTML" grammar, which pandoc's tag reader accepts too). */
const HTML_TAG = /<(?:[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?|\/[A-Za-z][A-Za-z0-9-]*\s*)>/y;

/**
 * The end of a link destination at `i`: `(`, a URL (no blank; parentheses balanced) or `<URL>`,
 * then an optional title in quotes or parentheses, then `)` (pandoc's `source`); -1 if it is not one.
 * Reads no further than the URL and title, so a thousand `](` never closed cost one pass.
 */
function destinationEnd(p: string, i: number): number {
  const k = destinationScan(p, i);
  countWork(Math.abs(k) - i);
  return k > 0 ? k : -1;
}

/**
 * How long a link's URL or title may be; longer ones, and ones that run into another `](`, are not
 * read as destinations (which keeps `[a](b[a](b…` linear).
 */
const MAX_URL = 2048;

/** {@link destinationEnd}'s reading: the end, or minus where it stopped. */
function destinationScan(p: string, i: number): number {
  let k = i + 1;
  const blanks = () => { while (k < p.length && /\s/.test(p[k]!)) k++; };
  blanks();
  const limit = Math.min(p.length, k + MAX_URL);
  if (p[k] === '<') {
    let e = k + 1;
    while (e < limit && p[e] !== '>' && p[e] !== '\n' && !(p[e] === ']' && p[e + 1] === '(')) e++;
    if (p[e] !== '>') return -e;
    k = e + 1;
  } else {
    let depth = 0;
    for (; k < limit; k++) {
      const c = p[k];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || (c === ']' && p[k + 1] === '(')) break;
      if (c === '\\') { k++; continue; }
      if (c === '(') depth++;
      else if (c === ')' && depth-- === 0) return k + 1;
    }
  }
  blanks();
  const q = p[k];
  if (q === '"' || q === "'" || q === '(') {
    const closeQuote = q === '(' ? ')' : q;
    let e = k + 1;
    const titleLimit = Math.min(p.length, e + MAX_URL);
    while (e < titleLimit && p[e] !== closeQuote && !(p[e] === ']' && p[e + 1] === '(')) e += p[e] === '\\' ? 2 : 1;
    if (e >= titleLimit) return -e;
    k = e + 1;
    blanks();
  }
  return p[k] === ')' ? k + 1 : -k;
}
