/**
 * Our keybindings (package.json `contributes.keybindings`) against VS Code's defaults and the
 * keybindings of LaTeX Workshop, Markdown All in One and Pandoc Citer, recorded as data in
 * fixtures/keybindings/ (each file names its source, version or commit, and retrieval date).
 *
 * "Collide": on the same OS (Linux and Windows use `linux`/`win`, else `key`; macOS uses `mac`,
 * else `key`), the same normalised chord, or one chord is the first part of the other's two-part
 * chord, and both `when` clauses can be true at once. Conservative: two clauses only count as
 * exclusive when they clearly are (`x` and `!x`; `k == 'a'` and `k == 'b'`; disjoint lists of
 * `editorLangId`; a platform key such as `!isMac` that is false on that OS). An absent `when` is
 * always true.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

type Os = 'linux' | 'win' | 'mac';
const OSES: readonly Os[] = ['linux', 'win', 'mac'];

/** A keybinding as package.json contributes it. */
interface Binding { key?: string; mac?: string; linux?: string; win?: string; command: string; when?: string }
/** A binding as it applies on one OS. */
interface Resolved { source: string; os: Os; chord: string[]; raw: string; command: string; when?: string }

const ROOT = join(__dirname, '../..');
const FIXTURES = join(__dirname, 'fixtures/keybindings');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const pkg = readJson(join(ROOT, 'package.json'));
const ours: Binding[] = pkg.contributes.keybindings;
const ourCommands = new Set<string>(pkg.contributes.commands.map((c: { command: string }) => c.command));

// ---- chords ---------------------------------------------------------------------------------------

const MODIFIER_ORDER = ['ctrl', 'shift', 'alt', 'meta'];
const MODIFIERS: Record<string, string> = { ctrl: 'ctrl', shift: 'shift', alt: 'alt', option: 'alt', cmd: 'meta', meta: 'meta', win: 'meta' };
/** VS Code's names for US-layout punctuation keys, and other spellings of the same key. */
const KEYS: Record<string, string> = {
  oem_1: ';', oem_plus: '=', oem_comma: ',', oem_minus: '-', oem_period: '.', oem_2: '/', oem_3: '`',
  oem_4: '[', oem_5: '\\', oem_6: ']', oem_7: "'", esc: 'escape', return: 'enter', del: 'delete', ins: 'insert',
};

/** One part of a chord, normalised: lower case, modifiers in a fixed order (`Shift+Cmd+P` → `shift+meta+p`). */
function normalisePart(part: string): string {
  let p = part.trim().toLowerCase();
  let key = '';
  if (p.endsWith('++')) { key = '+'; p = p.slice(0, -2); }
  const pieces = p.split('+').filter((x) => x !== '');
  if (!key) key = pieces.pop() ?? '';
  if (!key) throw new Error(`no key in "${part}"`);
  const mods = new Set(pieces.map((m) => {
    const n = MODIFIERS[m];
    if (!n) throw new Error(`unknown modifier "${m}" in "${part}"`);
    return n;
  }));
  return [...MODIFIER_ORDER.filter((m) => mods.has(m)), KEYS[key] ?? key].join('+');
}

/** A chord's parts (one, or two as in `ctrl+k ctrl+s`), each normalised. */
function normaliseChord(chord: string): string[] {
  return chord.trim().split(/\s+/).map(normalisePart);
}

/** Same chord, or one is the first part of the other's two-part chord. */
function chordsClash(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The bindings of a package.json-style list as they apply on `os` (VS Code: the OS's field if set, else `key`). */
function resolve(source: string, bindings: readonly Binding[], os: Os): Resolved[] {
  return bindings.flatMap((b) => {
    const raw = b[os] ?? b.key;
    return raw ? [{ source, os, chord: normaliseChord(raw), raw, command: b.command, when: b.when }] : [];
  });
}

// ---- when clauses ---------------------------------------------------------------------------------

/** Splits `text` at `sep` outside parentheses, quotes and regex literals. */
function splitTop(text: string, sep: '&&' | '||'): string[] {
  const out: string[] = [];
  let depth = 0, start = 0, quote = '', inRegex = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) { if (c === quote) quote = ''; continue; }
    if (inRegex) { if (c === '\\') i++; else if (c === '/') inRegex = false; continue; }
    if (c === "'" || c === '"') quote = c;
    else if (c === '/' && /=~\s*$/.test(text.slice(0, i))) inRegex = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && text.startsWith(sep, i)) { out.push(text.slice(start, i)); start = i + sep.length; i++; }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim().replace(/\s+/g, ' '));
}

/** A when clause as a disjunction (`||`, the weaker operator) of conjunctions of terms; a parenthesised term stays opaque. */
function parseWhen(when: string | undefined): string[][] {
  if (!when?.trim()) return [[]];
  return splitTop(when, '||').map((d) => splitTop(d, '&&'));
}

/** The language ids `editorLangId == 'x'`, `editorLangId =~ /^(a|b)$/` or `/^a$|^b$/` allows; undefined for any other term. */
function languagesOf(term: string): Set<string> | undefined {
  const eq = /^editorLangId ?== ?'?([\w.-]+)'?$/.exec(term);
  if (eq) return new Set([eq[1]]);
  const body = /^editorLangId ?=~ ?\/(.*)\/$/.exec(term)?.[1];
  if (body === undefined) return undefined;
  const group = /^\^\(([\w.|-]+)\)\$$/.exec(body);
  if (group) return new Set(group[1].split('|'));
  const alternatives = body.split('|');
  return alternatives.every((a) => /^\^[\w.-]+\$$/.test(a)) ? new Set(alternatives.map((a) => a.slice(1, -1))) : undefined;
}

const PLATFORM: Record<Os, Record<string, boolean>> = {
  linux: { isLinux: true, isMac: false, isWindows: false },
  win: { isLinux: false, isMac: false, isWindows: true },
  mac: { isLinux: false, isMac: true, isWindows: false },
};

/** Whether a when clause can be true on `os`: not if each of its conjunctions needs a platform key that is false there. */
function possibleOn(when: string | undefined, os: Os): boolean {
  return parseWhen(when).some((terms) => !terms.some((t) => {
    const negated = t.startsWith('!');
    const value = PLATFORM[os][negated ? t.slice(1).trim() : t];
    return value !== undefined && value === negated;
  }));
}

function equalityOf(term: string): { key: string; value: string; equal: boolean } | undefined {
  const m = /^([\w.:-]+) ?(==|!=) ?'?([^'\s]*)'?$/.exec(term);
  return m ? { key: m[1], value: m[3], equal: m[2] === '==' } : undefined;
}

/** Whether two conjunctions clearly exclude each other. */
function conjunctionsExclude(a: readonly string[], b: readonly string[]): boolean {
  for (const s of a) for (const t of b) {
    if (s === '!' + t || t === '!' + s) return true;
    const x = equalityOf(s), y = equalityOf(t);
    if (x && y && x.key === y.key && (x.equal && y.equal ? x.value !== y.value : x.equal !== y.equal && x.value === y.value)) return true;
    if ((x?.equal && x.value && t === '!' + x.key) || (y?.equal && y.value && s === '!' + y.key)) return true;
    const la = languagesOf(s), lb = languagesOf(t);
    if (la && lb && ![...la].some((l) => lb.has(l))) return true;
  }
  return false;
}

/** Whether two when clauses clearly cannot both be true; anything unclear counts as "could be". */
function whenExclusive(a: string | undefined, b: string | undefined): boolean {
  const db = parseWhen(b);
  return parseWhen(a).every((x) => db.every((y) => conjunctionsExclude(x, y)));
}

function collide(a: Resolved, b: Resolved): boolean {
  return a.os === b.os && chordsClash(a.chord, b.chord)
    && possibleOn(a.when, a.os) && possibleOn(b.when, b.os) && !whenExclusive(a.when, b.when);
}

const describeBinding = (r: Resolved) => `${r.source}: ${r.raw} → ${r.command}${r.when ? ` (when ${r.when})` : ' (no when)'}`;

/** Every collision of `mine` with `others` on every OS, as messages naming both bindings. */
function collisions(mine: readonly Binding[], others: readonly { name: string; forOs: (os: Os) => Resolved[] }[]): string[] {
  const found: string[] = [];
  for (const os of OSES) {
    for (const a of resolve('ours', mine, os)) {
      for (const src of others) for (const b of src.forOs(os)) {
        if (collide(a, b)) found.push(`[${os}] ${describeBinding(a)} collides with ${describeBinding(b)}`);
      }
    }
  }
  return found;
}

/** Problems of our own bindings: no `when`, an unknown command, no chord for some OS, two of ours colliding. */
function ownProblems(mine: readonly Binding[], commands: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const b of mine) {
    if (!b.when?.trim()) problems.push(`${b.command} (${b.key ?? b.mac}) has no when clause`);
    if (!commands.has(b.command)) problems.push(`${b.command} (${b.key ?? b.mac}) is not a command we contribute`);
    for (const os of OSES) if (!(b[os] ?? b.key)) problems.push(`${b.command} has no chord on ${os}`);
  }
  for (const os of OSES) {
    const list = resolve('ours', mine, os);
    list.forEach((a, i) => list.slice(i + 1).forEach((b) => {
      if (collide(a, b)) problems.push(`[${os}] ${describeBinding(a)} collides with ${describeBinding(b)}`);
    }));
  }
  return problems;
}

// ---- fixtures -------------------------------------------------------------------------------------

interface ExtensionFixture { source: string; repository: string; commit: string; version: string; retrieved: string; bindings: Binding[] }
interface VscodeFixture { source: string; version: string; retrieved: string; bindings: Record<Os, Binding[]> }

const vscodeDefault: VscodeFixture = readJson(join(FIXTURES, 'vscode-default.json'));
const vscodeDesktop: ExtensionFixture = readJson(join(FIXTURES, 'vscode-desktop-extra.json'));
const extensions: Record<string, ExtensionFixture> = {
  'LaTeX Workshop': readJson(join(FIXTURES, 'latex-workshop.json')),
  'Markdown All in One': readJson(join(FIXTURES, 'markdown-all-in-one.json')),
  'Pandoc Citer': readJson(join(FIXTURES, 'pandoc-citer.json')),
};

const SOURCES: { name: string; forOs: (os: Os) => Resolved[] }[] = [
  { name: 'VS Code', forOs: (os) => resolve(`VS Code ${os} default`, vscodeDefault.bindings[os], os) },
  { name: 'VS Code desktop', forOs: (os) => resolve('VS Code desktop-only default', vscodeDesktop.bindings, os) },
  ...Object.entries(extensions).map(([name, f]) => ({ name, forOs: (os: Os) => resolve(name, f.bindings, os) })),
];

const CITING = '/^(latex|tex|latex-expl3|markdown|quarto|rmd|pandoc|mdx)$/';
const latexWorkshop = (): Binding[] => structuredClone(extensions['LaTeX Workshop'].bindings);
const onlyLatexWorkshop = [{ name: 'LaTeX Workshop', forOs: (os: Os) => resolve('LaTeX Workshop', latexWorkshop(), os) }];

describe('keybinding fixtures', () => {
  it('name their source, version and retrieval date, and hold data for every OS', () => {
    expect(vscodeDefault.version).toMatch(/1\.139\.1/);
    expect(vscodeDefault.retrieved).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const os of OSES) expect(vscodeDefault.bindings[os].length, os).toBeGreaterThan(1000);
    for (const f of [vscodeDesktop, ...Object.values(extensions)]) {
      expect(f.source).toBeTruthy();
      expect(f.retrieved).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    for (const f of Object.values(extensions)) expect(f.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(extensions['LaTeX Workshop'].bindings.length).toBeGreaterThan(30);
    expect(extensions['Markdown All in One'].bindings.length).toBeGreaterThan(15);
    expect(extensions['Pandoc Citer'].bindings).toEqual([]); // it contributes none
  });

  it('hold only chords this test can read', () => {
    for (const src of SOURCES) for (const os of OSES) expect(() => src.forOs(os), `${src.name} ${os}`).not.toThrow();
  });
});

describe('our keybindings', () => {
  it('each has a when clause, a chord on every OS, and a command we contribute', () => {
    expect(ours.length).toBeGreaterThan(0);
    expect(ownProblems(ours, ourCommands)).toEqual([]);
  });

  it('collide with no VS Code default and no binding of LaTeX Workshop, Markdown All in One or Pandoc Citer', () => {
    expect(collisions(ours, SOURCES)).toEqual([]);
  });
});

describe('the collision check itself', () => {
  it('normalises chords: case, modifier order, cmd/meta, oem names', () => {
    expect(normaliseChord('Shift+Ctrl+P')).toEqual(['ctrl+shift+p']);
    expect(normaliseChord('cmd+alt+c')).toEqual(normaliseChord('Alt+Meta+C'));
    expect(normaliseChord('ctrl+l ctrl+oem_minus')).toEqual(['ctrl+l', 'ctrl+-']);
    expect(normaliseChord('ctrl+shift+=')).toEqual(['ctrl+shift+=']);
  });

  it('treats a chord that is the first part of a two-part chord as a clash, both ways round', () => {
    expect(chordsClash(['ctrl+l'], ['ctrl+l', 'alt+c'])).toBe(true);
    expect(chordsClash(['ctrl+l', 'alt+c'], ['ctrl+l'])).toBe(true);
    expect(chordsClash(['ctrl+l', 'alt+c'], ['ctrl+l', 'alt+v'])).toBe(false);
    expect(chordsClash(['ctrl+alt+c'], ['ctrl+alt+v'])).toBe(false);
  });

  it('finds the old Ctrl+Alt+C (Insert Citation) against LaTeX Workshop\'s Clean up auxiliary files, naming both', () => {
    const old: Binding[] = [{ command: 'mlsysPapers.insertCitation', key: 'ctrl+alt+c', mac: 'cmd+alt+c', when: `editorTextFocus && editorLangId =~ ${CITING}` }];
    const found = collisions(old, onlyLatexWorkshop);
    expect(found.length).toBe(3); // linux, win, mac
    for (const m of found) expect(m).toMatch(/ours: (ctrl|cmd)\+alt\+c → mlsysPapers\.insertCitation .* collides with LaTeX Workshop: (ctrl|cmd)\+alt\+c → latex-workshop\.clean/);
    // and against the full list too
    expect(collisions(old, SOURCES).some((m) => m.includes('latex-workshop.clean'))).toBe(true);
  });

  it('finds a colliding chord put into a copy of the data, and a two-part one', () => {
    const mine = ours.map((b) => structuredClone(b));
    const copy = latexWorkshop();
    copy.push({ key: mine[0].key, mac: mine[0].mac, command: 'planted.same', when: 'editorTextFocus' });
    copy.push({ key: `${mine[1].key} x`, mac: `${mine[1].mac} x`, command: 'planted.twoPart' });
    const found = collisions(mine, [{ name: 'copy', forOs: (os) => resolve('copy', copy, os) }]);
    expect(found.filter((m) => m.includes('planted.same'))).toHaveLength(3);
    expect(found.filter((m) => m.includes('planted.twoPart'))).toHaveLength(3);
  });

  it('finds the old global Ctrl+Alt+P / Cmd+Alt+P: no when clause, and Cmd+Alt+P is VS Code\'s on macOS', () => {
    const old: Binding[] = [{ command: 'mlsysPapers.search', key: 'ctrl+alt+p', mac: 'cmd+alt+p' }];
    expect(ownProblems(old, ourCommands)).toEqual(['mlsysPapers.search (ctrl+alt+p) has no when clause']);
    expect(collisions(old, SOURCES).filter((m) => m.startsWith('[mac]')).join('\n')).toMatch(/togglePreserveCase/);
  });

  it('reports a binding to a command we do not contribute', () => {
    const bad: Binding[] = [{ command: 'mlsysPapers.noSuchCommand', key: 'ctrl+alt+k', mac: 'ctrl+cmd+k', when: 'editorTextFocus' }];
    expect(ownProblems(bad, ourCommands)).toEqual(['mlsysPapers.noSuchCommand (ctrl+alt+k) is not a command we contribute']);
  });

  it('only counts when clauses as exclusive when they clearly are', () => {
    expect(whenExclusive(`editorLangId =~ ${CITING}`, "editorLangId == 'python'")).toBe(true);
    expect(whenExclusive(`editorLangId =~ ${CITING}`, 'editorLangId =~ /^latex$|^context$/')).toBe(false);
    expect(whenExclusive(`editorLangId =~ ${CITING}`, 'editorLangId =~ /^bibtex$|^context$/')).toBe(true);
    expect(whenExclusive('editorTextFocus', '!editorTextFocus')).toBe(true);
    expect(whenExclusive("focusedView == 'a'", "focusedView == 'b'")).toBe(true);
    expect(whenExclusive('editorTextFocus', 'terminalFocus')).toBe(false); // exclusive in practice, not clearly
    expect(whenExclusive('editorTextFocus', undefined)).toBe(false);
    expect(whenExclusive('a || editorTextFocus', '!editorTextFocus')).toBe(false);
    expect(whenExclusive('!a && b || !a && c', 'a')).toBe(true);
    // a regex with `|` and `||`-like text inside stays one term
    expect(parseWhen('x =~ /^(a||b)$/ && y')).toEqual([['x =~ /^(a||b)$/', 'y']]);
  });

  it('ignores a binding whose when clause is false on that OS (Markdown All in One\'s Alt+C is !isMac)', () => {
    const probe: Binding[] = [{ command: 'probe', key: 'alt+c', when: `editorTextFocus && editorLangId =~ ${CITING}` }];
    const mdAllInOne = [{ name: 'md', forOs: (os: Os) => resolve('Markdown All in One', extensions['Markdown All in One'].bindings, os) }];
    const found = collisions(probe, mdAllInOne);
    expect(found.map((m) => m.slice(0, m.indexOf(']') + 1))).toEqual(['[linux]', '[win]']);
  });
});
