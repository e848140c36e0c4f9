/**
 * The command lines a project's build runs, read statically from its Makefile or shell scripts, so
 * that what the build passes to pandoc (`--bibliography`, `--defaults`, `--metadata-file`,
 * `--filter pandoc-crossref`) can be read without running anything (`bibliography/pandocBuild.ts` reads the
 * options).
 *
 * What is read, and where each rule comes from:
 * - Makefiles (GNU make manual): a line ending in `\` continues on the next; `#` starts a comment
 *   outside a recipe's shell words; `NAME = value`, `:=`, `::=`, `?=` (only when unset), `+=`
 *   (appended with a space), with `override`/`export` before the name; a target-specific
 *   `targets: NAME += value` counts as an assignment too (the options of every target are read).
 *   Recipe lines start with a tab. `$(NAME)` and `${NAME}` expand (recursively, as `=` variables
 *   expand where used), `$$` is `$`, `$(CURDIR)` is the Makefile's folder, an undefined variable is
 *   empty; a function (`$(shell …)`, `$(wildcard …)`) and an automatic variable (`$@`, `$<`) are
 *   left unresolved, and a word that holds one is not taken for a path.
 * - Shell scripts (POSIX shell command language): `NAME=value` assignments, `$NAME` and `${NAME}`
 *   expanded, single quotes literal, double quotes expanding, `\` escaping; `$(…)`, `` `…` `` and
 *   positional parameters left unresolved.
 * - In either, a command line is split into commands at `;`, `&&`, `||`, `|`, `(` and `)`, and
 *   `cd DIR` changes the folder of the commands after it on that line (in a script: until the
 *   subshell it is in ends; in a Makefile each recipe line runs in a shell of its own).
 *
 * Bounded: each text is read once; expansion stops at a depth of {@link MAX_DEPTH} and a value of
 * {@link MAX_VALUE} characters (a Makefile whose variables double each other is read, not expanded
 * without end), and at most {@link MAX_COMMANDS} commands are kept per file.
 *
 * Pure: no `node:`, no `vscode`; the folder comes in as a URI.
 */
import { URI, Utils } from 'vscode-uri';
import { fromFolder } from '../workspace/writtenPath.js';

/** A command of the build: its words (quotes removed, variables expanded) and the folder it runs in. */
export interface BuildCommand {
  words: string[];
  /** The folder the command runs in (the file's, or where a `cd` before it on its line went). */
  cwd: URI;
  /** 1-based line of the file where the command's line starts. */
  line: number;
}

/** Marks a piece of a word that could not be resolved statically (a function, `$@`, `$(…)`): such a word is no path. */
export const UNRESOLVED = '\u0000';

/** Expansion depth at most (a variable naming itself stops here). */
const MAX_DEPTH = 16;
/** Characters of one expanded value at most. */
const MAX_VALUE = 64 * 1024;
/** Commands kept per file at most. */
const MAX_COMMANDS = 2000;
/** Characters all expansions of one file may produce together (then the rest is unresolved). */
const MAX_FILE_EXPANSION = 4 * 1024 * 1024;

/** How one file's text is expanded: its variables, its rules, and what it may still produce. */
interface Expansion {
  lookup: (name: string) => string | undefined;
  /** Shell rules: `$NAME` expands too, `$(…)` is command substitution (unresolved), `$$` is the shell's PID. */
  shell: boolean;
  /** Characters left to produce ({@link MAX_FILE_EXPANSION} per file). */
  budget: number;
}

/** Logical lines: a line ending in an odd run of backslashes continues on the next (GNU make and the shell agree). */
function logicalLines(text: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  let pending: string | undefined;
  let start = 1;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    let run = 0;
    while (run < l.length && l.charCodeAt(l.length - 1 - run) === 92) run++;
    const body = run % 2 === 1 ? l.slice(0, -1) : l;
    if (pending === undefined) { pending = body; start = i + 1; } else pending += ` ${body.replace(/^[ \t]+/, '')}`;
    if (run % 2 === 0) { out.push({ text: pending, line: start }); pending = undefined; }
  }
  if (pending !== undefined) out.push({ text: pending, line: start });
  return out;
}

/**
 * Expands `$(NAME)`, `${NAME}` (and, for shell, `$NAME`) in `text`, `$$` → `$` (make only); an
 * unset variable is empty.
 */
function expand(text: string, x: Expansion, depth = 0): string {
  if (depth > MAX_DEPTH || x.budget <= 0) return UNRESOLVED;
  const { lookup, shell } = x;
  let out = '';
  for (let i = 0; i < text.length && out.length <= MAX_VALUE; i++) {
    const c = text[i]!;
    if (c !== '$') { out += c; continue; }
    const n = text[i + 1];
    if (n === undefined) { out += c; break; }
    if (n === '$' && !shell) { out += '$'; i++; continue; }
    if (n === '(' || n === '{') {
      const close = n === '(' ? ')' : '}';
      // The matching close, nested: $(patsubst %.md,%.pdf,$(SRC)).
      let depthHere = 0;
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === n) depthHere++;
        else if (text[j] === close && --depthHere === 0) break;
      }
      if (j >= text.length) { out += UNRESOLVED; break; }
      const inner = text.slice(i + 2, j);
      i = j;
      if (shell && n === '(') { out += UNRESOLVED; continue; }
      const name = expand(inner, x, depth + 1).trim();
      // A function call ($(shell …), $(wildcard …)) or anything not a plain name.
      if (!/^[A-Za-z_][\w.-]*$/.test(name)) { out += UNRESOLVED; continue; }
      const v = lookup(name);
      if (v !== undefined) out += expand(v, x, depth + 1);
      continue;
    }
    if (shell && /[A-Za-z_]/.test(n)) {
      let j = i + 1;
      while (j < text.length && /\w/.test(text[j]!)) j++;
      const v = lookup(text.slice(i + 1, j));
      if (v !== undefined) out += expand(v, x, depth + 1);
      i = j - 1;
      continue;
    }
    // $@, $<, $^, $1, $*: automatic variables and positional parameters.
    out += UNRESOLVED;
    i++;
  }
  x.budget -= out.length;
  return out.length > MAX_VALUE ? UNRESOLVED : out;
}

/**
 * Splits an expanded command line into commands of words, shell-style: quotes removed, `\`
 * escaping one character, separators `;`, `&`, `|`, `(`, `)` (and `&&`, `||`) between commands.
 *
 * @returns each command's words, with how many `(` were open before it and how many `)` after it
 */
function commandsOf(line: string): { words: string[]; open: number; closes: number }[] {
  const out: { words: string[]; open: number; closes: number }[] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let depth = 0;
  const endWord = () => { if (inWord) words.push(word); word = ''; inWord = false; };
  const endCommand = (closes = 0) => {
    endWord();
    if (words.length) out.push({ words, open: depth, closes });
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\' && i + 1 < line.length) { word += line[++i]; inWord = true; continue; }
    if (c === "'") {
      const j = line.indexOf("'", i + 1);
      word += line.slice(i + 1, j < 0 ? line.length : j);
      inWord = true;
      i = j < 0 ? line.length : j;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1]!)) j++;
        word += line[j];
      }
      inWord = true;
      i = j;
      continue;
    }
    if (c === ' ' || c === '\t') { endWord(); continue; }
    if (c === '#' && !inWord) break;
    if (c === ';' || c === '&' || c === '|') { endCommand(); continue; }
    if (c === '(') { endCommand(); depth++; continue; }
    if (c === ')') { endCommand(1); if (depth > 0) depth--; continue; }
    word += c;
    inWord = true;
  }
  endCommand();
  return out;
}

/** The folder `cd DIR` goes to from `cwd`; undefined for a folder that cannot be resolved (`cd $(dir $@)`, `cd -`). */
function cdTarget(cwd: URI, dir: string | undefined): URI | undefined {
  if (dir === undefined || dir === '' || dir === '-' || dir.includes(UNRESOLVED) || dir.startsWith('~')) return undefined;
  return fromFolder(cwd, dir);
}

/** The commands of one line, each with the folder it runs in, `cd` followed within the line (and its subshells). */
function placeCommands(line: string, cwd: URI, lineNo: number, out: BuildCommand[], shellCwd?: { at: URI }): void {
  const stack: URI[] = [];
  let here = shellCwd?.at ?? cwd;
  let known = true;
  let depth = 0;
  for (const cmd of commandsOf(line)) {
    while (depth < cmd.open) { stack.push(here); depth++; }
    if (cmd.words[0] === 'cd') {
      const to = cdTarget(here, cmd.words[1]);
      if (to) here = to; else known = false;
    } else if (known && out.length < MAX_COMMANDS) {
      out.push({ words: cmd.words, cwd: here, line: lineNo });
    }
    for (let k = 0; k < cmd.closes && depth > 0; k++) { here = stack.pop() ?? here; depth--; }
  }
  if (shellCwd && depth === 0 && known) shellCwd.at = here;
}

/**
 * A variable assignment of a Makefile line, `[targets:] [override|export|private] NAME op value`
 * with `op` one of `=`, `:=`, `::=`, `:::=`, `?=`, `+=`, `!=` (GNU make manual, "Setting Variables"
 * and "Target-specific Variable Values"); undefined for another line.
 */
function makeAssignment(line: string): { name: string; op: string; value: string } | undefined {
  const eq = line.indexOf('=');
  if (eq <= 0) return undefined;
  let start = eq;
  while (start > 0 && ':?+!'.includes(line[start - 1]!) && eq - start < 3) start--;
  const op = line.slice(start, eq + 1);
  if (!['=', ':=', '::=', ':::=', '?=', '+=', '!='].includes(op)) return undefined;
  // A target-specific assignment: what follows the rule's colon.
  let lhs = line.slice(0, start);
  const colon = lhs.lastIndexOf(':');
  if (colon >= 0) lhs = lhs.slice(colon + 1);
  const words = lhs.trim().split(/[ \t]+/).filter((w) => w !== 'override' && w !== 'export' && w !== 'private');
  if (words.length !== 1 || !/^[A-Za-z_][\w.-]*$/.test(words[0]!)) return undefined;
  return { name: words[0]!, op, value: line.slice(eq + 1).trim() };
}

/**
 * The commands a Makefile's recipes run, with its variables expanded.
 *
 * @param text - the Makefile's text
 * @param folder - the Makefile's folder (make runs there: `$(CURDIR)`)
 */
export function makefileCommands(text: string, folder: URI): BuildCommand[] {
  const vars = new Map<string, string>([['CURDIR', folder.path]]);
  const recipes: { text: string; line: number }[] = [];
  for (const l of logicalLines(text)) {
    if (l.text.startsWith('\t')) { recipes.push({ text: l.text.slice(1), line: l.line }); continue; }
    // A comment outside a recipe ends the line (an escaped \# stays).
    const code = l.text.replace(/(^|[^\\])#.*$/, '$1');
    const m = makeAssignment(code.trim());
    if (m) {
      const { name, op, value } = m;
      const prev = vars.get(name);
      if (op === '+=') vars.set(name, prev === undefined ? value : `${prev} ${value}`);
      else if (op === '?=') { if (prev === undefined) vars.set(name, value); }
      else if (op === '!=') vars.set(name, UNRESOLVED);
      else vars.set(name, value);
      continue;
    }
    // `target: prerequisites ; recipe`
    const semi = /^[^:=\t#]+:[^=;]*;(.*)$/.exec(code);
    if (semi) recipes.push({ text: semi[1]!, line: l.line });
  }
  const x: Expansion = { lookup: (name) => vars.get(name), shell: false, budget: MAX_FILE_EXPANSION };
  const out: BuildCommand[] = [];
  for (const r of recipes) {
    // Recipe prefixes: @ (silent), - (ignore errors), + (always run).
    const body = r.text.replace(/^[ \t]*[@+-]+/, '');
    placeCommands(expand(body, x), folder, r.line, out);
  }
  return out;
}

/**
 * The commands a shell script runs, with its variables expanded.
 *
 * @param text - the script's text
 * @param folder - the folder the script is taken to run in: its own
 */
export function shellScriptCommands(text: string, folder: URI): BuildCommand[] {
  const vars = new Map<string, string>();
  const x: Expansion = { lookup: (name) => vars.get(name), shell: true, budget: MAX_FILE_EXPANSION };
  const out: BuildCommand[] = [];
  const cwd = { at: folder };
  for (const l of logicalLines(text)) {
    const line = l.text.trim();
    if (!line || line.startsWith('#')) continue;
    const assign = /^(?:export\s+|readonly\s+|local\s+)?([A-Za-z_]\w*)=((?:"[^"]*"|'[^']*'|[^\s;&|])*)\s*$/.exec(line);
    if (assign) {
      const raw = assign[2]!;
      vars.set(assign[1]!, raw.startsWith("'") ? raw.slice(1, -1) : raw.replace(/^"(.*)"$/s, '$1'));
      continue;
    }
    placeCommands(expand(line, x), folder, l.line, out, cwd);
  }
  return out;
}
