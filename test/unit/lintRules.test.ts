/**
 * The project's own ESLint rule (`eslint.config.mjs`): no silent catch. The layer, cycle and
 * regular-expression rules are ESLint's and its plugins' own, tested there; here probe files show
 * that our configuration of them can fail. `npm run lint` runs all.
 */
import { RuleTester } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the config is plain JavaScript without types
import { noSilentCatch } from '../../eslint.config.mjs';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } }).run('no-silent-catch', noSilentCatch, {
  valid: [
    'try { f(); } catch (e) { log.warn(`x ${String(e)}`); }',
    'function g() { try { f(); } catch {\n  // ignored: not a URL, so not a link\n  return false;\n} }',
    'function g() { try { f(); } catch (e) { return { error: e }; } }',
    'try { f(); } catch { throw new Error("wrapped"); }',
    'void p.catch((e) => log.warn(String(e)));',
    'void p.catch(() => {\n  // ignored: the file is reported as missing\n});',
  ],
  invalid: [
    { code: 'try { f(); } catch {}', errors: [{ messageId: 'silent' }] },
    { code: 'try { f(); } catch (e) {\n  // nothing to do\n}', errors: [{ messageId: 'silent' }] },
    { code: 'function g() { try { f(); } catch { return undefined; } }', errors: [{ messageId: 'silent' }] },
    { code: 'void p.catch(() => {});', errors: [{ messageId: 'handler' }] },
    { code: 'void p.catch((e) => undefined);', errors: [{ messageId: 'handler' }] },
  ],
});

describe('eslint.config.mjs holds the architecture (a rule that cannot fail is a defect)', () => {
  const { ESLint } = require('eslint') as typeof import('eslint');
  const eslint = new ESLint({ cwd: join(__dirname, '../..') });
  const rulesHit = async (code: string, file: string) =>
    (await eslint.lintText(code, { filePath: join(__dirname, '../..', file) })).flatMap((r) => r.messages.map((m) => m.ruleId));

  it('refuses vscode, node: and files outside src/core in the core', async () => {
    expect(await rulesHit("import * as vscode from 'vscode';\nexport const x = vscode;", 'src/core/probe.ts')).toContain('no-restricted-imports');
    expect(await rulesHit("import { readFileSync } from 'node:fs';\nexport const x = readFileSync;", 'src/core/probe.ts')).toContain('no-restricted-imports');
    expect(await rulesHit("import { startServer } from '../server/server.js';\nexport const x = startServer;", 'src/core/probe.ts')).toContain('import-x/no-restricted-paths');
  });
  it('refuses the server to the VS Code layer, and the server beyond its protocol to the features', async () => {
    expect(await rulesHit("import { readFileSync } from 'node:fs';\nexport const x = readFileSync;", 'src/server/probe.ts')).toContain('no-restricted-imports');
    expect(await rulesHit("import { startServer } from '../server/server.js';\nexport const x = startServer;", 'src/features/probe.ts')).toContain('import-x/no-restricted-paths');
    expect(await rulesHit("import { Methods } from '../server/protocol.js';\nexport const x = Methods;", 'src/features/probe.ts')).not.toContain('import-x/no-restricted-paths');
  });
  it('holds the core\'s layer order (CORE_LAYERS): a folder may import the ones below it, not the ones above', async () => {
    const probe = "import type { Entry } from '../corpus/schema.js';\nexport type X = Entry;";
    expect(await rulesHit(probe, 'src/core/text/probe.ts')).toContain('import-x/no-restricted-paths');
    expect(await rulesHit(probe, 'src/core/bibliography/probe.ts')).not.toContain('import-x/no-restricted-paths');
    expect(await rulesHit("import { readBibFile } from '../bibliography/bibFile.js';\nexport const x = readBibFile;", 'src/core/markdown/probe.ts')).toContain('import-x/no-restricted-paths');
    // `search` is the folder's own files: its subfolders are layers above it, and they may import it.
    expect(await rulesHit("import { LibraryIndex } from './library/libraryIndex.js';\nexport const x = LibraryIndex;", 'src/core/search/probe.ts')).toContain('import-x/no-restricted-paths');
    expect(await rulesHit("import { parseQuery } from '../queryLanguage.js';\nexport const x = parseQuery;", 'src/core/search/library/probe.ts')).not.toContain('import-x/no-restricted-paths');
  });
  it('flags a regular expression with super-linear backtracking and a silent catch', async () => {
    expect(await rulesHit('export const r = /^(a+)+$/;', 'src/core/probe.ts')).toContain('regexp/no-super-linear-backtracking');
    expect(await rulesHit('export function f(g: () => void) { try { g(); } catch { /* */ } }', 'src/core/probe.ts')).toContain('local/no-silent-catch');
  });
});
