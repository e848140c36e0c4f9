/**
 * Text that leaves for a terminal, the user's Markdown or stderr: control characters escaped
 * (`core/text/terminal.ts`, finding 12), titles as Markdown link text without markup
 * (`core/cite/formatCitation.ts`, finding 13), no `yaml` process warning (finding 14).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { formatCitation, markdownLink, markdownLinkText } from '../../src/core/cite/formatCitation.js';
import { planCitation } from '../../src/core/cite/insert.js';
import type { CorpusEntry } from '../../src/core/corpus/schema.js';
import { terminalJson, terminalSafe } from '../../src/core/text/terminal.js';
import { parseYaml } from '../../src/core/text/yaml.js';

const FIX = join(__dirname, 'fixtures/output');

const entry = (over: Partial<CorpusEntry>): CorpusEntry => ({
  key: 'evil2024', type: 'misc', title: 'T', authors: [{ family: 'Doe' }], year: 2024, topics: [], kind: 'paper', source: 'curated', ...over,
} as CorpusEntry);

describe('terminalSafe', () => {
  it('escapes C0, DEL and C1, by name where C has one, and keeps what the output is made of', () => {
    expect(terminalSafe('a\u001b]0;pwned\u0007\u001b[2Jb')).toBe('a\\x1b]0;pwned\\x07\\x1b[2Jb');
    expect(terminalSafe('x\ny\tz\r\u0000\u007f\u0080\u009b\u009f')).toBe('x\\ny\\tz\\r\\x00\\x7f\\x80\\x9b\\x9f');
    expect(terminalSafe('line\n\tmore\u001b', '\n\t')).toBe('line\n\tmore\\x1b');
    // A CRLF line break is a line break; a lone CR (which would let text overwrite its line) is not.
    expect(terminalSafe('a\r\nb\rc', '\n')).toBe('a\r\nb\\rc');
    expect(terminalSafe('a\r\nb')).toBe('a\\r\\nb');
    // Printable text, non-ASCII too, stays: U+00A0 and above are not controls.
    expect(terminalSafe('Schrödinger 大模型 \u00a0é')).toBe('Schrödinger 大模型 \u00a0é');
  });

  it('terminalJson writes DEL and C1 as \\u escapes and parses back to the same value', () => {
    const value = { t: 'a\u001b\u007f\u009bz', n: [1, 'é'] };
    const text = terminalJson(value, 2);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain('\\u007f');
    expect(text).toContain('\\u009b');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('titles as Markdown (finding 13)', () => {
  const XSS = 'Fast <img src=x onerror=alert(1)> <script>alert(2)</script> & *bold* [x](javascript:alert(3))';

  it('markdownLinkText escapes HTML, entities, emphasis, code spans and links; a line break becomes a space', () => {
    expect(markdownLinkText(XSS)).toBe('Fast \\<img src=x onerror=alert(1)\\> \\<script\\>alert(2)\\</script\\> \\& \\*bold\\* \\[x\\](javascript:alert(3))');
    expect(markdownLinkText('a`b`_c_\n!d')).toBe('a\\`b\\`\\_c\\_ \\!d');
    expect(markdownLinkText('Attention Is All You Need: v2.0 - (again)')).toBe('Attention Is All You Need: v2.0 - (again)');
  });

  it('cite --format markdown and the link citation style print no raw HTML from a title', () => {
    const e = entry({ title: XSS, url: 'https://example.org/paper' });
    const md = formatCitation([e], 'markdown');
    expect(md).toBe(markdownLink(e));
    expect(md).not.toMatch(/(?<!\\)<\/?(img|script)/);
    expect(md).toMatch(/^\[Fast \\<img .*\]\(https:\/\/example\.org\/paper\)$/);
    const plan = planCitation('See .', 4, 'markdown', [e], { latexCommand: 'cite', markdownStyle: 'link' });
    expect(plan.text).toBe(md);
    // Without a URL, the title alone: escaped too.
    expect(formatCitation([entry({ title: '<script>x</script>' })], 'markdown')).toBe('\\<script\\>x\\</script\\>');
  });
});

describe('yaml (finding 14)', () => {
  it('a key that is a collection gives no process warning (it printed the PID to stderr)', () => {
    const warn = vi.spyOn(process, 'emitWarning');
    try {
      const r = parseYaml(readFileSync(join(FIX, 'yaml-collection-key.yaml'), 'utf8'));
      expect(r.value).toEqual({ '[ a ]': 1 });
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});
