/**
 * No silent catches in `src/`: a caught error is logged with its cause, rethrown, turned into a
 * result that carries it, or the catch says why dropping it loses nothing:
 *
 * - `// ignored: <reason>` — the error is dropped on purpose and nothing is lost (a file that is
 *   not there is reported as missing, a string that is not a URL is not a web link).
 * - `// no-logger: <what is lost>` — known debt: the cause is lost because no logger reaches the
 *   code. Only the places listed in `NO_LOGGER` below may say so.
 *
 * A `catch` whose body is empty or only comments, a `catch {` that does not even bind the error,
 * and a `.catch(() => {})` must carry one of these markers.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../..');

/** Where a cause is lost because no logger reaches (file → how many such catches). Shrink it; do not grow it. */
const NO_LOGGER: Record<string, number> = {};

interface Catch {
  line: number;
  /** Whether the clause binds the error: `catch (e)` rather than `catch`. */
  binds: boolean;
  /** The body between the braces, comments included. */
  body: string;
}

/** Index just past the `}` that closes the `{` at `open`, skipping strings, templates and comments. */
function closingBrace(src: string, open: number): number {
  // A stack of contexts: '{' code braces, '`' a template literal, '$' a `${` inside one.
  const stack: string[] = ['{'];
  let i = open + 1;
  while (i < src.length && stack.length) {
    const c = src[i]!;
    const top = stack[stack.length - 1];
    if (top === '`') {
      if (c === '\\') i += 2;
      else if (c === '`') { stack.pop(); i++; }
      else if (c === '$' && src[i + 1] === '{') { stack.push('$'); i += 2; }
      else i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') { i = src.indexOf('\n', i); if (i < 0) i = src.length; continue; }
    if (c === '/' && src[i + 1] === '*') { i = src.indexOf('*/', i + 2) + 2; if (i < 2) i = src.length; continue; }
    if (c === "'" || c === '"') {
      i++;
      while (i < src.length && src[i] !== c && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === '`') stack.push('`');
    else if (c === '{') stack.push('{');
    else if (c === '}') stack.pop();
    i++;
  }
  return i;
}

/** The `catch` clauses of a TypeScript source (not `.catch(…)` calls). */
export function catchClauses(src: string): Catch[] {
  const out: Catch[] = [];
  for (const m of src.matchAll(/(?<![.\w])catch\s*(\([^)]*\))?\s*\{/g)) {
    const open = m.index + m[0].length - 1;
    const close = closingBrace(src, open);
    out.push({ line: src.slice(0, m.index).split('\n').length, binds: !!m[1], body: src.slice(open + 1, close - 1) });
  }
  return out;
}

const stripComments = (s: string) => s.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
const IGNORED = /\/\/ ignored: \S/;
const NO_LOGGER_MARK = /\/\/ no-logger: \S/;

/** What is wrong with a source's catches: `line: reason`, and how many `no-logger` catches it has. */
export function silentCatches(src: string): { problems: string[]; noLogger: number } {
  const problems: string[] = [];
  let noLogger = 0;
  for (const c of catchClauses(src)) {
    const ignored = IGNORED.test(c.body);
    const debt = NO_LOGGER_MARK.test(c.body);
    if (debt) noLogger++;
    if (ignored || debt) continue;
    if (!stripComments(c.body).trim()) problems.push(`${c.line}: an empty catch (or only comments) without "// ignored: <reason>"`);
    else if (!c.binds) problems.push(`${c.line}: \`catch {\` drops the error without "// ignored: <reason>"`);
  }
  for (const m of src.matchAll(/\.catch\(\s*(?:\([^)]*\)|\w+)\s*=>\s*(?:\{\s*\}|undefined|void 0|null)\s*\)/g)) {
    problems.push(`${src.slice(0, m.index).split('\n').length}: \`${m[0]}\` drops the error`);
  }
  return { problems, noLogger };
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('no silent catches in src/', () => {
  const files = sources(join(ROOT, 'src')).map((p) => ({ rel: relative(ROOT, p).split('\\').join('/'), src: readFileSync(p, 'utf8') }));

  it('finds the catch clauses it checks', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.reduce((n, f) => n + catchClauses(f.src).length, 0)).toBeGreaterThan(20);
  });

  it('every caught error is handled, or its catch says why ignoring it loses nothing', () => {
    const found = files.flatMap((f) => silentCatches(f.src).problems.map((p) => `${f.rel}:${p}`));
    expect(found).toEqual([]);
  });

  it('loses a cause for want of a logger only where listed', () => {
    const debt = Object.fromEntries(files.map((f) => [f.rel, silentCatches(f.src).noLogger]).filter(([, n]) => n));
    expect(debt).toEqual(NO_LOGGER);
  });
});

describe('the catch scanner', () => {
  it('flags empty, comment-only and unbound catches, and empty .catch handlers', () => {
    expect(silentCatches('try { f(); } catch {}').problems).toHaveLength(1);
    expect(silentCatches('try { f(); } catch (e) {\n  // nothing to do\n}').problems).toHaveLength(1);
    expect(silentCatches('try { f(); } catch { return undefined; }').problems).toHaveLength(1);
    expect(silentCatches('void p.catch(() => {});').problems).toHaveLength(1);
    expect(silentCatches('void p.catch((e: unknown) => undefined);').problems).toHaveLength(1);
  });
  it('accepts handled errors and the markers', () => {
    expect(silentCatches('try { f(); } catch (e) { log.warn(`x ${String(e)}`); }').problems).toEqual([]);
    expect(silentCatches('try { f(); } catch {\n  // ignored: not a URL, so not a link\n  return false;\n}').problems).toEqual([]);
    expect(silentCatches('try { f(); } catch {\n  // no-logger: the cause is lost\n}')).toEqual({ problems: [], noLogger: 1 });
    expect(silentCatches('void p.catch((e: unknown) => log.warn(String(e)));').problems).toEqual([]);
  });
  it('finds the end of a body past braces in strings, templates and comments', () => {
    const [c] = catchClauses("try {} catch (e) { const s = '}'; const t = `${'{'}}`; /* } */ // }\n log(e); }\nafter();");
    expect(c!.body).toContain('log(e);');
    expect(c!.body).not.toContain('after');
  });
});
