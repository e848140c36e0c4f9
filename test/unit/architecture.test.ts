/**
 * What the linter cannot hold of ARCHITECTURE.md: the folder rules ("Who may import what") are
 * `eslint.config.mjs`'s (`npm run lint`); here, what the extension bundles and which transport
 * each entry point takes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '../../src');

/** Every module specifier a file imports or re-exports (static, dynamic and `require`). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) {
    out.push((m[1] ?? m[2] ?? m[3] ?? m[4])!);
  }
  return out;
}

/** The `src/`-relative folder an import resolves to, for relative imports. */
function target(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  return relative(SRC, join(file, '..', spec));
}

describe('what the linter cannot hold (eslint.config.mjs holds the import rules of ARCHITECTURE.md)', () => {
  it('finds the imports it checks', () => {
    expect(importsOf(join(SRC, 'extension.ts'))).toContain('vscode');
  });
  it('the VS Code client does not bundle the YAML reader, Citation.js, citeproc-js or a markdown-it of its own (parsing and rendering run in the server; the preview brings markdown-it)', () => {
    // Every src module the extension reaches, following relative imports from src/extension.ts.
    // Type-only imports (`import type`) are erased by the build: only value imports count.
    const valueImportsOf = (file: string) => {
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?!type\b)[^'"`;]*?from\s*['"]([^'"]+)['"]|\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)]
        .map((m) => (m[1] ?? m[2] ?? m[3])!);
    };
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of valueImportsOf(file)) if (spec.startsWith('.')) visit(join(file, '..', spec).replace(/\.js$/, '.ts'));
    };
    visit(join(SRC, 'extension.ts'));
    visit(join(SRC, 'extension.web.ts'));
    expect(seen.size).toBeGreaterThan(20);
    const heavy = [...seen].flatMap((f) => valueImportsOf(f).filter((s) => s === 'yaml' || s.startsWith('@citation-js') || s === 'citeproc' || s.startsWith('markdown-it'))
      .map((s) => `${relative(SRC, f)} imports ${s}`));
    expect(heavy).toEqual([]);
  });
  it('each entry point takes its own transport: extension.ts the Node one, extension.web.ts the browser one, and the browser one no node:', () => {
    const desktop = importsOf(join(SRC, 'extension.ts'));
    const web = importsOf(join(SRC, 'extension.web.ts'));
    expect(desktop).toContain('vscode-languageclient/node');
    expect(web).toContain('vscode-languageclient/browser');
    expect(web.filter((s) => s.startsWith('node:') || s.endsWith('/node'))).toEqual([]);
    expect(importsOf(join(SRC, 'activate.ts')).filter((s) => s.startsWith('node:') || s.startsWith('vscode-languageclient'))).toEqual([]);
  });
  it('the protocol is declared once: no message is registered or sent by its name string outside src/server/protocol.ts', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const d of readdirSync(dir, { withFileTypes: true })) {
        if (d.isDirectory()) walk(join(dir, d.name));
        else if (d.name.endsWith('.ts')) files.push(join(dir, d.name));
      }
    };
    walk(SRC);
    const byName = files.filter((f) => !f.endsWith(join('server', 'protocol.ts')))
      .filter((f) => /\bMethods\b|['"]mlsysPapers\/\w+['"]/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f));
    expect(byName).toEqual([]);
  });
  it('src/cli.ts and src/cli/ do not import vscode or the VS Code layer', () => {
    for (const f of [join(SRC, 'cli.ts'), ...readdirSync(join(SRC, 'cli')).map((n) => join(SRC, 'cli', n))]) {
      expect(importsOf(f).filter((s) => s === 'vscode' || target(f, s)?.startsWith('features') || target(f, s)?.startsWith('activate'))).toEqual([]);
    }
  });
});
