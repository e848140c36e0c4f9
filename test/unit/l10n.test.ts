/**
 * The Chinese UI is complete: every string the code localizes (`vscode.l10n.t` in the extension,
 * `l10n.t` of `@vscode/l10n` in the core and the server), as `@vscode/l10n-dev` extracts it, has a
 * translation in `l10n/bundle.l10n.zh-cn.json` with the same placeholders; every `%key%` of
 * `package.json` has an English and a Chinese text; and no user-facing message is written around
 * the l10n functions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';
import { describe, expect, it } from 'vitest';
const repoRoot = join(__dirname, '../..');

const read = (rel: string) => readFileSync(join(repoRoot, rel), 'utf8');
const json = (rel: string) => JSON.parse(read(rel)) as Record<string, unknown>;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && d.name.endsWith('.ts') && !d.name.endsWith('.d.ts'))
    .map((d) => join(d.parentPath, d.name).slice(repoRoot.length + 1));
}

/** The message of a bundle value (a string, or `{ message, comment }`). */
const messageOf = (v: unknown) => (typeof v === 'string' ? v : (v as { message: string }).message);
/** `{0}`, `{1}`… of a message, sorted. */
const placeholders = (s: string) => [...s.matchAll(/\{(\d+)\}/g)].map((m) => m[1]).sort();

describe('l10n: runtime strings', () => {
  it('l10n/bundle.l10n.json is what @vscode/l10n-dev extracts from src/ today (run `npm run l10n` after changing a message)', async () => {
    const files = sourceFiles('src').map((f) => ({ contents: read(f), extension: '.ts' }));
    const extracted = await getL10nJson(files);
    expect(Object.keys(extracted).length).toBeGreaterThan(100);
    expect(Object.keys(json('l10n/bundle.l10n.json')).sort()).toEqual(Object.keys(extracted).sort());
  });

  it('every string has a Chinese translation with the same placeholders, and the bundle has no stale ones', () => {
    const en = json('l10n/bundle.l10n.json');
    const zh = json('l10n/bundle.l10n.zh-cn.json');
    const missing = Object.keys(en).filter((k) => typeof zh[k] !== 'string' || !(zh[k] as string).trim());
    expect(missing, 'strings missing from l10n/bundle.l10n.zh-cn.json').toEqual([]);
    expect(Object.keys(zh).filter((k) => !(k in en)), 'translations of strings the code no longer has').toEqual([]);
    const wrong = Object.keys(en).filter((k) => placeholders(messageOf(en[k])).join() !== placeholders(zh[k] as string).join());
    expect(wrong, 'translations whose {n} placeholders differ from the English').toEqual([]);
  });

  it('the Chinese bundle is Chinese: most translations differ from the English', () => {
    const en = json('l10n/bundle.l10n.json');
    const zh = json('l10n/bundle.l10n.zh-cn.json');
    const same = Object.keys(en).filter((k) => zh[k] === messageOf(en[k]));
    expect(same.length / Object.keys(en).length).toBeLessThan(0.05);
  });

  it('no message shown to the user is written outside vscode.l10n.t (a literal or template passed straight to the UI)', () => {
    const ui = /\b(?:show(?:Information|Warning|Error)Message|setStatusBarMessage)\(\s*['`"]|\b(?:placeholder|placeHolder|title|tooltip|saveLabel)\s*[:=]\s*['`"][A-Z]/;
    const offenders = [...sourceFiles('src/features'), 'src/activate.ts']
      .flatMap((f) => read(f).split('\n').map((line, i) => ({ at: `${f}:${i + 1}`, line })))
      .filter(({ line }) => ui.test(line) && !/^\s*(\*|\/\/)/.test(line))
      .map(({ at, line }) => `${at}: ${line.trim()}`);
    expect(offenders).toEqual([]);
  });
});

describe('l10n: package.json contributions', () => {
  const pkg = read('package.json');
  const keys = [...pkg.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]!);

  it('every %key% of package.json has an English and a Chinese text, and neither file has extra keys', () => {
    const en = json('package.nls.json');
    const zh = json('package.nls.zh-cn.json');
    expect(keys.length).toBeGreaterThan(40);
    expect(keys.filter((k) => typeof en[k] !== 'string'), 'missing from package.nls.json').toEqual([]);
    expect(keys.filter((k) => typeof zh[k] !== 'string' || !(zh[k] as string).trim()), 'missing from package.nls.zh-cn.json').toEqual([]);
    expect(Object.keys(en).filter((k) => !keys.includes(k)), 'unused in package.nls.json').toEqual([]);
    expect(Object.keys(zh).filter((k) => !keys.includes(k)), 'unused in package.nls.zh-cn.json').toEqual([]);
  });

  it('no contributed title or description is left as English text in package.json', () => {
    const manifest = JSON.parse(pkg) as { contributes: unknown };
    const raw: string[] = [];
    (function walk(node: unknown, key: string) {
      if (typeof node === 'string') {
        if (['title', 'name', 'description', 'markdownDescription', 'enumDescriptions', 'markdownDeprecationMessage', 'altTitle'].includes(key) && !/^%.+%$/.test(node) && node !== 'MLSys Papers') raw.push(`${key}: ${node}`);
      } else if (Array.isArray(node)) {
        for (const v of node) walk(v, key);
      } else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) walk(v, k);
      }
    })(manifest.contributes, '');
    expect(raw).toEqual([]);
  });
});
