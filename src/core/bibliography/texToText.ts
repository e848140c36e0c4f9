/**
 * LaTeX field values as a reader sees them: `Schr{\"o}dinger's {GPU} --- a \emph{study}` →
 * `Schrödinger's GPU — a study`. For showing and searching library entries; what a bibliography
 * gets is always the entry's own text (see `verbatim.ts`).
 *
 * The character tables are Citation.js's (`@citation-js/plugin-bibtex`: its diacritics, text
 * commands and ligatures, from the LaTeX2e font encodings, and its Greek letters), with the few
 * text commands it lacks (`\aa`, `\dots`, the logos); the scan is ours and linear, so a
 * field of any length or nesting costs one pass. Citation.js's full value parser also does this,
 * at several times the cost and with exceptions on odd input (an unclosed math string), too slow
 * to run on every entry of a 100,000-entry library at load.
 */
import { commands, diacritics, ligatures, mathCommands } from '@citation-js/plugin-bibtex/lib/input/constants.js';

/** LaTeX2e text commands that Citation.js's table lacks: `\aa` (å), `\dots`, the logos. */
const MORE_COMMANDS: Record<string, string> = {
  aa: 'å', AA: 'Å', dots: '…', ldots: '…', TeX: 'TeX', LaTeX: 'LaTeX', LaTeXe: 'LaTeX2ε', BibTeX: 'BibTeX',
};

/** A text command's character: Citation.js's text commands, then ours, then its math-mode Greek letters. */
function commandText(name: string): string | undefined {
  if (Object.hasOwn(commands, name)) return commands[name];
  if (Object.hasOwn(MORE_COMMANDS, name)) return MORE_COMMANDS[name];
  return Object.hasOwn(mathCommands, name) ? mathCommands[name] : undefined;
}

/** Control symbols that are spacing, not characters: `\,` `\;` `\:` `\>` a space; `\-` (a hyphenation point), `\/`, `\!`, `\@` nothing. */
const SPACING: Record<string, string> = { ',': ' ', ';': ' ', ':': ' ', '>': ' ', '-': '', '/': '', '!': '', '@': '' };

/** The characters the scan acts on; text between them is copied as it is. */
const SPECIAL = /[\\{}$~`'-]/g;

/** Commands whose argument is kept and the command dropped (`\emph{x}` → `x`). */
const KEEP_ARGUMENT = /^(?:emph|textbf|textit|textsc|textrm|textsf|texttt|textup|textsl|textnormal|mbox|hbox|text|mathrm|mathbf|mathit|mathsf|mathtt|mathcal|url|href|uppercase|lowercase|MakeUppercase|MakeLowercase|NoCaseChange|enquote|bibstring|ensuremath)$/;

/**
 * Converts a BibTeX field value (as the parser returns it: macros expanded, inner braces kept) to
 * plain Unicode text: diacritic commands to composed characters (NFC; `\t{oo}` keeps the group's
 * other letters, an accent on nothing is dropped), text commands (`\ss`, `\o`, `\aa`,
 * `\textendash`, `\dots`, the `\LaTeX` logos) to their characters, `--`/`---`/`~` to dashes and a
 * space, formatting commands and braces dropped (`\href{url}{text}` keeps its text), `\&`, `\%`,
 * `\$`, `\_`, `\#` to their characters, `\\` and the spacing commands `\,` `\;` `\:` to a space,
 * `\-` (a hyphenation point) and `\/` to nothing, other unknown commands dropped with their
 * argument kept as text, runs of white space to one space. Math is kept as typed, without its `$`,
 * except that Greek letters become their characters (`$\alpha$-VAE` → `α-VAE`).
 *
 * @param value - the field's value
 * @param max - at most this many characters of `value` are read (default 4,000)
 * @returns the text, trimmed
 */
export function texToText(value: string, max = 4000): string {
  const s = value.length > max ? value.slice(0, max) : value;
  SPECIAL.lastIndex = 0;
  if (!SPECIAL.test(s)) return s.replace(/\s+/g, ' ').trim();
  let out = '';
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = s[i]!;
    if (c === '{' || c === '}' || c === '$') { i++; continue; }
    if (c === '~') { out += ' '; i++; continue; }
    if (c === '-' || c === '`' || c === "'") {
      const three = s.slice(i, i + 3);
      const two = s.slice(i, i + 2);
      if (three === '---') { out += ligatures['---']; i += 3; continue; }
      if (two in ligatures && two !== '~') { out += ligatures[two]; i += 2; continue; }
      out += c; i++; continue;
    }
    if (c !== '\\') {
      // A run of plain text, copied at once.
      SPECIAL.lastIndex = i + 1;
      const stop = SPECIAL.exec(s)?.index ?? n;
      out += s.slice(i, stop);
      i = stop;
      continue;
    }
    // A command: \name or \<symbol>.
    const next = s[i + 1];
    if (next === undefined) { i++; continue; }
    if (/[A-Za-z]/.test(next)) {
      let j = i + 1;
      while (j < n && /[A-Za-z]/.test(s[j]!)) j++;
      const name = s.slice(i + 1, j);
      // White space after a command word ends it.
      let k = j;
      while (k < n && (s[k] === ' ' || s[k] === '\t')) k++;
      if (Object.hasOwn(diacritics, name)) {
        const { base, end } = argument(s, k);
        if (base) out += (base + diacritics[name]).normalize('NFC');
        i = end;
      } else if (commandText(name) !== undefined) {
        out += commandText(name);
        i = k;
        if (s[i] === '{' && s[i + 1] === '}') i += 2;
      } else if (name === 'href' && s[k] === '{') {
        // \href{url}{text}: the url is skipped (a url has no braces).
        const close = s.indexOf('}', k);
        i = close < 0 ? n : close + 1;
      } else if (KEEP_ARGUMENT.test(name)) {
        i = k;
      } else {
        // Unknown command: dropped; its argument, if any, stays as text.
        i = k;
      }
      continue;
    }
    if (Object.hasOwn(diacritics, next)) {
      const { base, end } = argument(s, i + 2);
      if (base) out += (base + diacritics[next]).normalize('NFC');
      i = end;
      continue;
    }
    // \\, \&, \%, \{, \ (control space) and other symbols stand for themselves; spacing ones do not.
    out += next === '\\' ? ' ' : SPACING[next] ?? next;
    i += 2;
  }
  return out.replace(/\s+/g, ' ').trim();
}

/**
 * A diacritic's argument at `i` (`{o}`, `{\i}`, `{\o}`, `o`, `\i`): its base letter, and where the
 * scan goes on: after that letter, so the rest of a group (`\t{oo}`) is read as text and its `}`
 * dropped. The base is empty when the accent has no letter (`\"{}`).
 */
function argument(s: string, i: number): { base: string; end: number } {
  let j = i;
  if (s[j] === '{') {
    j++;
    while (s[j] === '{' || s[j] === ' ') j++;
  }
  if (s[j] === '\\') {
    let k = j + 1;
    while (k < s.length && /[A-Za-z]/.test(s[k]!)) k++;
    const name = s.slice(j + 1, k);
    if (name === 'i' || name === 'j') return { base: name, end: k };
    if (Object.hasOwn(commands, name)) return { base: commands[name]!, end: k };
    return { base: '', end: j };
  }
  if (j >= s.length || s[j] === '}') return { base: '', end: j };
  const c = s.codePointAt(j)!;
  const base = String.fromCodePoint(c);
  return { base, end: j + base.length };
}
