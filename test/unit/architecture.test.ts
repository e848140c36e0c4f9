/**
 * What the linter cannot hold of ARCHITECTURE.md: the folder rules ("Who may import what") are
 * `eslint.config.mjs`'s (`npm run lint`); here, no import cycle of any kind (import-x's `no-cycle`
 * skips type-only imports), the core's layer order over every import, what the extension bundles
 * and which transport each entry point takes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the config is plain JavaScript without types
import { CORE_LAYERS as LAYERS } from '../../eslint.config.mjs';

const CORE_LAYERS = LAYERS as readonly string[];

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

/** Every `.ts` file under a folder, recursively. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/**
 * The import graph of src/: each file (`src/`-relative, `/`-separated) to the src files it imports,
 * type-only imports and re-exports included.
 */
function importGraph(): Map<string, string[]> {
  const rel = (f: string) => relative(SRC, f).split(sep).join('/');
  const graph = new Map<string, string[]>();
  for (const f of tsFiles(SRC)) {
    graph.set(rel(f), [...new Set(importsOf(f).filter((s) => s.startsWith('.')).map((s) => rel(join(dirname(f), s)).replace(/\.js$/, '.ts')))]);
  }
  return graph;
}

/** The import cycles of a graph: each strongly connected component of more than one file (Tarjan). */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do { w = stack.pop()!; onStack.delete(w); scc.push(w); } while (w !== v);
    if (scc.length > 1 || graph.get(v)!.includes(v)) out.push(scc.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

/** The core layer (`CORE_LAYERS`) a `src/`-relative file is in, or undefined outside `core/`. */
function layerOf(file: string): string | undefined {
  const parts = file.split('/');
  if (parts[0] !== 'core' || parts.length < 3) return undefined;
  if (parts[1] === 'search' && parts.length > 3) return `search/${parts[2]}`;
  return parts[1];
}

describe('the import graph of src/ (ARCHITECTURE.md, "Who may import what")', () => {
  const graph = importGraph();
  it('reads the graph it checks, type-only imports included', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('core/corpus/schema.ts')).toContain('core/corpus/identifiers.ts');
    // `import type { Ctx }`: a type-only import is an edge.
    expect(graph.get('features/entryArgs.ts')).toContain('features/client/ctx.ts');
  });
  it('finds a cycle when there is one (the check can fail)', () => {
    expect(cyclesOf(new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']], ['d.ts', ['a.ts']]]))).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(cyclesOf(new Map([['a.ts', ['b.ts']], ['b.ts', []]]))).toEqual([]);
  });
  it('has no import cycle of any kind: no file reaches itself, through type-only imports either', () => {
    expect(cyclesOf(graph)).toEqual([]);
  });
  it('places every core folder in the layer order', () => {
    const layers = new Set([...graph.keys()].flatMap((f) => layerOf(f) ?? []));
    expect([...layers].filter((l) => !CORE_LAYERS.includes(l))).toEqual([]);
    expect(layerOf('core/search/library/query.ts')).toBe('search/library');
    expect(layerOf('core/search/queryLanguage.ts')).toBe('search');
  });
  it('every import between core folders goes down the layer order (type-only imports too)', () => {
    const up: string[] = [];
    for (const [file, targets] of graph) {
      const from = layerOf(file);
      if (from === undefined) continue;
      for (const t of targets) {
        const to = layerOf(t);
        if (to !== undefined && CORE_LAYERS.indexOf(to) > CORE_LAYERS.indexOf(from)) up.push(`${file} -> ${t}`);
      }
    }
    expect(up).toEqual([]);
  });
  it('ARCHITECTURE.md writes the same layer order', () => {
    const doc = readFileSync(join(SRC, '../ARCHITECTURE.md'), 'utf8');
    expect(doc).toContain(CORE_LAYERS.map((l) => `\`${l}\``).join(' < '));
  });
});

describe('the size of src/ files (issue 27: no file over 500 lines)', () => {
  /** The `.ts` files under `src/` over `max` lines (line ends, as `wc -l` counts), each as "path: count", by path. */
  const overLong = (max: number) => tsFiles(SRC).sort()
    .map((f) => ({ f: relative(SRC, f).split(sep).join('/'), n: readFileSync(f, 'utf8').match(/\n/g)?.length ?? 0 }))
    .filter(({ n }) => n > max).map(({ f, n }) => `${f}: ${n} lines`);
  it('names each file over the limit with its count (the check can fail)', () => {
    expect(overLong(0).length).toBeGreaterThan(100);
    expect(overLong(0)).toContain(`extension.ts: ${readFileSync(join(SRC, 'extension.ts'), 'utf8').split('\n').length - 1} lines`);
  });
  it('has no .ts file over 500 lines', () => {
    expect(overLong(500)).toEqual([]);
  });
});

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
