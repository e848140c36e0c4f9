import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LATEX_LANGUAGES, MARKDOWN_LANGUAGES } from '../../src/core/context.js';
import { Commands, Settings, Views } from '../../src/ids.js';

const ROOT = join(__dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

describe('package.json agrees with src/ids.ts', () => {
  it('contributes exactly the commands the code registers', () => {
    const contributed = pkg.contributes.commands.map((c: { command: string }) => c.command).sort();
    expect(contributed).toEqual(Object.values(Commands).sort());
  });
  it('contributes the view container and view', () => {
    expect(pkg.contributes.viewsContainers.activitybar[0].id).toBe(Views.container);
    expect(pkg.contributes.views[Views.container][0].id).toBe(Views.topics);
  });
  it('contributes exactly the settings the code reads', () => {
    const keys = Object.keys(pkg.contributes.configuration.properties).sort();
    const expected = Object.entries(Settings).filter(([k]) => k !== 'section').map(([, v]) => `${Settings.section}.${v}`).sort();
    expect(keys).toEqual(expected);
  });
  it('menus and keybindings only name contributed commands', () => {
    const known = new Set(Object.values(Commands));
    const menus = Object.values(pkg.contributes.menus).flat() as { command: string }[];
    for (const m of [...menus, ...pkg.contributes.keybindings]) expect(known.has(m.command), m.command).toBe(true);
  });
  it('does not activate on *, and activates in every language it reads citations in', () => {
    expect(pkg.activationEvents).not.toContain('*');
    expect([...pkg.activationEvents].sort()).toEqual([...LATEX_LANGUAGES, ...MARKDOWN_LANGUAGES].map((l) => `onLanguage:${l}`).sort());
  });
  it('when-clauses on editor languages name exactly the languages the code reads', () => {
    const clauses = [...Object.values(pkg.contributes.menus).flat(), ...pkg.contributes.keybindings]
      .map((m) => /editorLangId =~ \/\^\(([^)]*)\)\$\//.exec((m as { when?: string }).when ?? '')?.[1])
      .filter((l): l is string => !!l);
    expect(clauses.length).toBeGreaterThan(0);
    for (const c of clauses) {
      const langs = c.split('|').sort();
      const both = [...LATEX_LANGUAGES, ...MARKDOWN_LANGUAGES].sort();
      expect([both, [...MARKDOWN_LANGUAGES].sort()], c).toContainEqual(langs);
    }
  });
  it('snippet and icon files exist', () => {
    for (const s of pkg.contributes.snippets) expect(statSync(join(ROOT, s.path)).isFile()).toBe(true);
    expect(statSync(join(ROOT, pkg.contributes.viewsContainers.activitybar[0].icon)).isFile()).toBe(true);
  });
});

describe('architecture', () => {
  it('src/core never imports vscode', () => {
    const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
    for (const file of walk(join(ROOT, 'src/core'))) {
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/from ['"]vscode['"]|require\(['"]vscode['"]\)/);
    }
  });
});

describe('Pandoc citation grammar', () => {
  const g = JSON.parse(readFileSync(join(ROOT, 'syntaxes/pandoc-citations.tmLanguage.json'), 'utf8'));
  const key = new RegExp(g.repository.key.match, 'gu');
  it('matches citation keys and not e-mail addresses', () => {
    const keys = (t: string) => [...t.matchAll(key)].map((m) => m[3]);
    expect(keys('see @kwon2023efficient.')).toEqual(['kwon2023efficient']);
    expect(keys('[-@a; @b, p. 3]')).toEqual(['a', 'b']);
    expect(keys('mail me@example.org')).toEqual([]);
  });
  it('is injected into Markdown by package.json', () => {
    expect(pkg.contributes.grammars).toEqual([{ scopeName: g.scopeName, path: './syntaxes/pandoc-citations.tmLanguage.json', injectTo: ['text.html.markdown'] }]);
  });
});
