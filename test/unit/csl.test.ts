import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_STYLES, formatBibliography, renderCitations } from '../../src/core/cite/citeproc.js';
import { realCorpus } from './helpers.js';

const CSL_DIR = join(__dirname, '../../csl');
const style = (id: keyof typeof BUNDLED_STYLES) => readFileSync(join(CSL_DIR, 'styles', BUNDLED_STYLES[id]), 'utf8');
const locale = (lang: string) => {
  try { return readFileSync(join(CSL_DIR, 'locales', `locales-${lang}.xml`), 'utf8'); } catch { return undefined; }
};
const kwon = () => realCorpus().entry('kwon2023efficient')!;

describe('formatted references (citeproc-js)', () => {
  it('APA', () => {
    const [ref] = formatBibliography([kwon()], style('apa'), locale);
    // CSL processors keep the stored title case (the CSL specification leaves sentence case to the data).
    expect(ref).toMatch(/^Kwon, W\., Li, Z\., Zhuang, S\., .*, & Stoica, I\. \(2023\)\. Efficient Memory Management for Large Language Model Serving with PagedAttention\. Proceedings of the ACM SIGOPS 29th Symposium/);
    expect(ref).toContain('https://doi.org/10.1145/3600006.3613165');
  });
  it('IEEE numbers references in citation order', () => {
    const refs = formatBibliography([kwon(), realCorpus().entry('yu2022orca')!], style('ieee'), locale);
    expect(refs[0]).toMatch(/^\[1\] W\. Kwon et al\., “Efficient Memory Management/);
    expect(refs[1]).toMatch(/^\[2\] G\.-I\. Yu/);
  });
  it.each(Object.keys(BUNDLED_STYLES) as (keyof typeof BUNDLED_STYLES)[])('%s formats every bundled entry', (id) => {
    const entries = realCorpus().entries;
    const refs = formatBibliography(entries, style(id), locale);
    expect(refs).toHaveLength(entries.length);
    for (const r of refs) expect(r.length).toBeGreaterThan(10);
  });
  it('GB/T 7714-2015 uses its own conventions (等 for et al.)', () => {
    const [ref] = formatBibliography([kwon()], style('gb-t-7714-2015'), locale);
    expect(ref).toMatch(/^\[1\] KWON W, LI Z, ZHUANG S, 等\. Efficient Memory Management/);
  });
  it('reports a broken style', () => {
    expect(() => formatBibliography([kwon()], '<style>', locale)).toThrow(/^MLSys Papers: not a CSL style/);
  });
});

describe('a file that is not a CSL style', () => {
  it('is refused without quoting a byte of it', () => {
    const secret = 'root:x:0:0:root:/root:/bin/bash\nSECRET-TOKEN-1234\n';
    for (const text of [secret, `<?xml version="1.0"?><style xmlns="http://purl.org/net/xbiblio/csl">${secret}`]) {
      let message = '';
      try { formatBibliography([kwon()], text, locale); } catch (e) { message = (e as Error).message; }
      expect(message).toMatch(/^MLSys Papers: (not a CSL style|cannot use this CSL style)/);
      expect(message).not.toMatch(/root:x|SECRET/);
    }
  });
});

describe('a citation of keys no bibliography has', () => {
  it('takes the style\'s layout prefix, suffix and delimiter with their character references decoded (hex ones too)', () => {
    const ieee = style('ieee').replace('<layout delimiter=", ">', '<layout prefix="&#x5b;" suffix="&#93;" delimiter="&#x3B; ">');
    expect(ieee).toContain('&#x5b;');
    const r = renderCitations(new Map(), [[{ key: 'a', prefix: '', suffix: '', mode: 'normal' }, { key: 'b', prefix: '', suffix: '', mode: 'normal' }]], ieee, locale);
    expect(r.citations[0]).toBe('[<strong>a?</strong>; <strong>b?</strong>]');
  });
});
