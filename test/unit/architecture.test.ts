/**
 * The import rules of ARCHITECTURE.md ("Who may import what"), checked on every source file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '../../src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(join(dir, d.name)) : /\.ts$/.test(d.name) ? [join(dir, d.name)] : []);
}

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

const rules: { folder: string; forbidden: (spec: string, to: string | undefined) => boolean; why: string }[] = [
  {
    folder: 'core',
    forbidden: (spec, to) => spec === 'vscode' || spec.startsWith('node:') || spec.startsWith('vscode-languageserver/') || spec === 'vscode-languageserver'
      || spec.startsWith('vscode-languageclient') || !!to && !to.startsWith('core'),
    why: 'the core runs in a Web Worker and in any editor: no vscode, no node:, no LSP transport, nothing outside src/core',
  },
  {
    folder: 'server',
    forbidden: (spec, to) => spec === 'vscode' || spec.startsWith('node:') || spec.startsWith('vscode-languageserver/') || spec.startsWith('vscode-languageclient')
      || !!to && !to.startsWith('core') && !to.startsWith('server'),
    why: 'the server runs in a Node process and in a Web Worker: no vscode, no node:, no transport-specific entry, only src/core',
  },
  {
    folder: 'host/node',
    forbidden: (spec, to) => spec === 'vscode' || !!to && (to.startsWith('features') || to === 'extension' || to === 'cli'),
    why: 'the Node host serves the CLI (and a future server): no vscode, no VS Code layer',
  },
  {
    folder: 'host/browser',
    forbidden: (spec, to) => spec === 'vscode' || spec.startsWith('node:') || spec === 'vscode-languageserver/node'
      || !!to && !to.startsWith('core') && !to.startsWith('server') && !to.startsWith('host/browser'),
    why: 'the Web Worker host runs in a browser: no vscode, no node:, no Node transport, no embedded data (its client gives it the package files)',
  },
  {
    folder: 'features',
    forbidden: (spec, to) => spec.startsWith('node:') || spec === 'vscode-languageclient/node' || spec === 'vscode-languageclient/browser'
      || !!to && (to.startsWith('host') || to === 'cli' || to.startsWith('server') && to !== 'server/protocol.js'),
    why: 'the VS Code layer runs on desktop and in the browser: files through VS Code, the server only through its protocol, no node:, no transport (the entry points choose it)',
  },
];

describe('import rules (ARCHITECTURE.md)', () => {
  it('finds the imports it checks', () => {
    expect(importsOf(join(SRC, 'core/bib/resolve.ts'))).toContain('vscode-uri');
    expect(importsOf(join(SRC, 'extension.ts'))).toContain('vscode');
  });
  for (const rule of rules) {
    it(`src/${rule.folder}: ${rule.why}`, () => {
      const broken = files(join(SRC, rule.folder)).flatMap((f) =>
        importsOf(f).filter((spec) => rule.forbidden(spec, target(f, spec))).map((spec) => `${relative(SRC, f)} imports ${spec}`));
      expect(broken).toEqual([]);
    });
  }
  it('the VS Code client does not bundle the YAML reader or Citation.js (parsing runs in the server)', () => {
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
    const heavy = [...seen].flatMap((f) => valueImportsOf(f).filter((s) => s === 'yaml' || s.startsWith('@citation-js') || s === 'citeproc')
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
  it('src/cli.ts does not import vscode or the VS Code layer', () => {
    const f = join(SRC, 'cli.ts');
    expect(importsOf(f).filter((s) => s === 'vscode' || target(f, s)?.startsWith('features'))).toEqual([]);
  });
});
