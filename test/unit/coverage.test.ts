import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { realCorpus } from './helpers.js';

/**
 * The seed lists live beside the repository (`../shared/seeds`), as in CI; in a git worktree,
 * beside the repository the worktree belongs to (its common git folder's parent).
 */
function seedsDir(): string {
  const beside = join(__dirname, '../../../shared/seeds');
  if (existsSync(beside)) return beside;
  const git = spawnSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: __dirname, encoding: 'utf8' });
  const common = git.status === 0 ? git.stdout.trim() : '';
  return common ? join(dirname(common), '../shared/seeds') : beside;
}
const SEEDS = seedsDir();
const decode = (s: string) => s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');

/** Every URL of each seed file, in the shape that file has (see the seeds' README). */
function seedUrls(): Map<string, Set<string>> {
  const read = (name: string) => readFileSync(join(SEEDS, name), 'utf8');
  const s000 = read('000_8e56c9f6f1ee6b75.txt').split('\n').map((l) => l.trim()).filter((l) => /^https?:\/\//.test(l));
  const s001 = [...read('001_0351a6d2282d5f27.txt').matchAll(/href="([^"]+)"/g)].map((m) => decode(m[1]!));
  const t003 = read('003_ef4ecee814878e47.txt');
  const s003 = [...t003.matchAll(/(?:href|src)="(https?:\/\/[^"]+)"/g), ...t003.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => m[1]!);
  return new Map([['seed-000', new Set(s000)], ['seed-001', new Set(s001)], ['seed-003', new Set(s003)]]);
}

interface Row { seed: string; url: string; key?: string; excluded?: string }
const rows = parse(readFileSync(join(__dirname, 'fixtures/seed-coverage.yaml'), 'utf8')) as Row[];

describe('seed coverage', () => {
  it('has the seed lists beside the repository', () => {
    expect(existsSync(SEEDS), `${SEEDS} is missing: CI clones ../shared beside the repository`).toBe(true);
  });

  it('accounts for every URL of every seed', () => {
    const listed = new Set(rows.map((r) => `${r.seed} ${r.url}`));
    const missing = [...seedUrls()].flatMap(([seed, urls]) => [...urls].filter((u) => !listed.has(`${seed} ${u}`)).map((u) => `${seed} ${u}`));
    expect(missing).toEqual([]);
  });

  it('names, for each URL, exactly one existing entry or a reason', () => {
    const corpus = realCorpus();
    for (const r of rows) {
      expect(Object.keys(r).sort(), r.url).toEqual(r.key === undefined ? ['excluded', 'seed', 'url'] : ['key', 'seed', 'url']);
      if (r.key) {
        const e = corpus.entry(r.key);
        expect(e, `${r.url} → ${r.key}`).toBeDefined();
        expect(e!.seed_urls, `${r.key}.seed_urls`).toContain(r.url);
        expect(e!.sources, `${r.key}.sources`).toContain(r.seed);
      } else {
        expect(r.excluded!.length, r.url).toBeGreaterThan(10);
      }
    }
  });

  it('lists no URL that the seeds do not have', () => {
    const urls = seedUrls();
    for (const r of rows) expect(urls.get(r.seed)?.has(r.url), `${r.seed} ${r.url}`).toBe(true);
  });

  it('every entry that names a seed URL is listed for it', () => {
    const listed = new Set(rows.filter((r) => r.key).map((r) => `${r.key} ${r.url}`));
    for (const e of realCorpus().entries) for (const u of e.seed_urls) expect(listed.has(`${e.key} ${u}`), `${e.key} ${u}`).toBe(true);
  });
});
