import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';

const CORPUS = join(__dirname, '../../corpus');
function run(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = main([...args, '--corpus', CORPUS], (s) => out.push(s), (s) => err.push(s));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('mlsys-papers CLI', () => {
  it('search --json returns entries in rank order with the documented fields', () => {
    const r = run('search', 'paged attention', '--limit', '3', '--json');
    expect(r.code).toBe(0);
    const hits = JSON.parse(r.out) as Record<string, unknown>[];
    expect(hits).toHaveLength(3);
    expect(hits[0]!.key).toBe('kwon2023efficient');
    for (const f of ['key', 'title', 'authors', 'year', 'venue', 'doi', 'arxiv', 'url', 'topics', 'level', 'kind']) expect(hits[0]).toHaveProperty(f);
    expect((hits[0]!.authors as { given: string; family: string }[])[0]).toEqual({ given: 'Woosuk', family: 'Kwon' });
  });

  it('cite formats keys for LaTeX, Pandoc, Markdown and BibTeX', () => {
    expect(run('cite', 'kwon2023efficient', 'yu2022orca', '--format', 'latex').out).toBe('\\cite{kwon2023efficient,yu2022orca}');
    expect(run('cite', 'kwon2023efficient', 'yu2022orca', '--format', 'pandoc').out).toBe('[@kwon2023efficient; @yu2022orca]');
    expect(run('cite', 'kwon2023efficient', '--format', 'markdown').out).toMatch(/^\[Efficient Memory Management .*\]\(https:\/\//);
    expect(run('cite', 'kwon2023efficient', '--format', 'bibtex').out).toMatch(/^@inproceedings\{kwon2023efficient,/);
  });

  it('cite fails with exit 1 on an unknown key', () => {
    const r = run('cite', 'nosuchkey2020x');
    expect(r.code).toBe(1);
    expect(r.err).toContain('unknown key(s): nosuchkey2020x');
  });

  it('topics --json and list --json', () => {
    const topics = JSON.parse(run('topics', '--json').out) as { id: string; zh: string; entries: number }[];
    expect(topics.find((t) => t.id === 'serving.memory')).toMatchObject({ zh: '显存管理' });
    const list = JSON.parse(run('list', '--topic', 'serving.memory', '--json').out) as { key: string }[];
    expect(list.map((e) => e.key)).toContain('kwon2023efficient');
  });

  it('export writes BibTeX or CSL-JSON for a topic', () => {
    const bib = run('export', '--topic', 'serving.batching').out;
    expect(bib).toMatch(/@inproceedings\{yu2022orca,/);
    const csl = JSON.parse(run('export', '--topic', 'serving.batching', '--format', 'csl-json').out) as { id: string }[];
    expect(csl.map((c) => c.id)).toContain('yu2022orca');
    expect(csl.length).toBe(bib.match(/^@/gm)!.length);
  });

  it('export --cited-in writes the entries a document cites, in citation order', () => {
    const file = join(__dirname, 'fixtures/cited.md');
    const r = run('export', '--cited-in', file);
    expect(r.code).toBe(0);
    expect([...r.out.matchAll(/^@\w+\{([^,]+),/gm)].map((m) => m[1])).toEqual(['yu2022orca', 'kwon2023efficient']);
    expect(r.err).toContain('not in the corpus, left out: unknown2020key');
  });

  it('lint prints file:line:col problems and exits 1', () => {
    const file = join(__dirname, 'fixtures/corpus-bad/bad-doi.yaml');
    const r = run('lint', file);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`${file}:6:8: error: [0].doi: must be a bare DOI such as 10.1145/3600006.3613165`);
    const ok = run('lint', join(CORPUS, 'entries/seed003-d.yaml'), join(CORPUS, 'topics.yaml'));
    expect(ok.code, ok.err).toBe(0);
  });

  it('usage errors exit 2', () => {
    expect(run('search', 'x', '--limit', 'lots').code).toBe(2);
    expect(run('frobnicate').code).toBe(2);
    expect(run('export', '--topic', 'nope').err).toContain('unknown topic "nope"');
  });
});
