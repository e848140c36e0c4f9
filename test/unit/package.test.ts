import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIBTEX_LANGUAGE, LATEX_LANGUAGES, MARKDOWN_LANGUAGES } from '../../src/core/workspace/fileKind.js';
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
  it('does not activate on *, and activates in every language it reads citations in, on a BibTeX file and in a workspace with one', () => {
    expect(pkg.activationEvents).not.toContain('*');
    // A .bib opened first (its lenses, unused entries, record checks) must start the server too.
    const expected = [...[...LATEX_LANGUAGES, ...MARKDOWN_LANGUAGES, BIBTEX_LANGUAGE].map((l) => `onLanguage:${l}`), 'workspaceContains:**/*.bib'];
    expect([...pkg.activationEvents].sort()).toEqual(expected.sort());
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
  it('the .vsix size cap the package script holds is the one the README states: 3 MB', () => {
    const script = readFileSync(join(ROOT, 'scripts/package.mjs'), 'utf8');
    expect(/^const LIMIT = (.*);$/m.exec(script)?.[1]).toBe('3 * 1024 * 1024');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('the script fails\nabove 3 MB');
    expect(readme).toContain('its size (≤ 3 MB)');
    expect(readme).not.toMatch(/\b1 MB\b.*vsix|vsix.*\b1 MB\b/);
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

describe('the getting-started walkthrough', () => {
  interface WalkthroughStep { id: string; title: string; description: string; media: { image: string; altText: string }; completionEvents: string[] }
  const walkthroughs = pkg.contributes.walkthroughs as { id: string; title: string; description: string; steps: WalkthroughStep[] }[];
  const en = JSON.parse(readFileSync(join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const zh = JSON.parse(readFileSync(join(ROOT, 'package.nls.zh-cn.json'), 'utf8')) as Record<string, string>;
  /** The text of a `%key%` in a bundle ('' when missing). */
  const text = (bundle: Record<string, string>, ref: string) => bundle[ref.replace(/^%|%$/g, '')] ?? '';
  /** The `command:` links of a step description, as VS Code reads them: `[label](command:…)`. */
  const commandLinks = (s: string) => [...s.matchAll(/\]\((command:[^)\s]+)\)/g)].map((m) => m[1]!);
  const steps = walkthroughs.flatMap((w) => w.steps);

  it('has one walkthrough with its eight steps, each titled and described', () => {
    expect(walkthroughs).toHaveLength(1);
    expect(text(en, walkthroughs[0]!.title)).toBe('Get started with MLSys Papers');
    expect(steps.map((s) => s.id)).toEqual(['topics', 'search', 'citeLatex', 'citeMarkdown', 'bibliography', 'checkBibliography', 'libraries', 'citationStyle']);
    for (const s of steps) {
      for (const field of [s.title, s.description, s.media.altText]) {
        expect(field, s.id).toMatch(/^%walkthrough\.[\w.]+%$/);
        expect(text(en, field).trim(), `${s.id}: ${field} in package.nls.json`).not.toBe('');
      }
    }
  });

  it('every step has a button: a command: link, the same in English and Chinese, naming a contributed command or a workbench one', () => {
    const known = new Set<string>(Object.values(Commands));
    for (const s of steps) {
      const links = commandLinks(text(en, s.description));
      expect(links.length, `${s.id} has no command: link`).toBeGreaterThan(0);
      expect(commandLinks(text(zh, s.description)), `${s.id}: the Chinese description's links`).toEqual(links);
      for (const link of links) {
        const id = link.replace(/^command:(toSide:)?/, '').replace(/\?.*$/, '');
        expect(id.startsWith('mlsysPapers.') ? known.has(id) : /^workbench\./.test(id), `${s.id}: ${link}`).toBe(true);
        // Arguments are URI-encoded JSON, as VS Code decodes them.
        const query = link.includes('?') ? link.slice(link.indexOf('?') + 1) : undefined;
        if (query !== undefined) expect(() => JSON.parse(decodeURIComponent(query)), `${s.id}: ${link}`).not.toThrow();
      }
    }
  });

  it('every step has completion events, of the kinds VS Code knows, naming our views, commands and settings', () => {
    const settings = new Set(Object.keys(pkg.contributes.configuration.properties));
    const commands = new Set<string>(Object.values(Commands));
    for (const s of steps) {
      expect(s.completionEvents.length, s.id).toBeGreaterThan(0);
      for (const e of s.completionEvents) {
        const [kind, arg = ''] = e.split(/:(.*)/s);
        expect(['onCommand', 'onView', 'onSettingChanged', 'onLink', 'onContext', 'onStepSelected', 'onExtensionInstalled'], `${s.id}: ${e}`).toContain(kind);
        if (kind === 'onSettingChanged') expect(settings.has(arg), `${s.id}: ${e}`).toBe(true);
        if (kind === 'onView') expect(arg, `${s.id}: ${e}`).toBe(Views.topics);
        if (kind === 'onCommand' && arg.startsWith('mlsysPapers.')) expect(commands.has(arg), `${s.id}: ${e}`).toBe(true);
      }
    }
  });

  it('every step has its picture: a JPEG in media/walkthrough/, together at most 90 KB', () => {
    let total = 0;
    for (const s of steps) {
      expect(s.media.image, s.id).toMatch(/^media\/walkthrough\/[\w-]+\.jpg$/);
      const bytes = readFileSync(join(ROOT, s.media.image));
      expect([...bytes.subarray(0, 3)], `${s.media.image} is not a JPEG`).toEqual([0xff, 0xd8, 0xff]);
      total += bytes.length;
    }
    expect(new Set(steps.map((s) => s.media.image)).size).toBe(steps.length);
    expect(total, 'bytes of the walkthrough pictures').toBeLessThanOrEqual(90 * 1024);
  });
});
