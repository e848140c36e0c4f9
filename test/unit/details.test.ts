import { describe, expect, it } from 'vitest';
import { detailsHtml, escapeHtml } from '../../src/core/details.js';
import { isWebLink } from '../../src/core/links.js';
import { entry, realCorpus } from './helpers.js';

const ctx = { nonce: 'abc123', cspSource: 'vscode-resource:', read: false, formatted: 'Ref <b>', styleName: 'apa' };

describe('details page', () => {
  it('escapes every text it shows', () => {
    const e = entry({ key: 'x', title: '<img src=x onerror=alert(1)>', summary: '"quotes" & <tags>', topics: ['serving'] });
    const html = detailsHtml(realCorpus(), e, ctx);
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&quot;quotes&quot; &amp; &lt;tags&gt;');
    expect(html).toContain('Ref &lt;b&gt;');
  });
  it('has a strict CSP: nothing remote, only the nonce script', () => {
    const html = detailsHtml(realCorpus(), realCorpus().entry('kwon2023efficient')!, ctx);
    expect(html).toMatch(/Content-Security-Policy" content="default-src 'none'; style-src vscode-resource: 'nonce-abc123'; script-src 'nonce-abc123'; img-src vscode-resource:"/);
    const scripts = [...html.matchAll(/<script([^>]*)>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![1]).toBe(' nonce="abc123"');
    expect(html).not.toMatch(/https?:\/\/[^"]*\.(js|css)"/);
  });
  it('links only http(s) URLs', () => {
    expect(isWebLink('https://arxiv.org/abs/1')).toBe(true);
    expect(isWebLink('javascript:alert(1)')).toBe(false);
    expect(isWebLink('file:///etc/passwd')).toBe(false);
    expect(isWebLink('command:workbench.action.quit')).toBe(false);
    const html = detailsHtml(realCorpus(), realCorpus().entry('kwon2023efficient')!, ctx);
    for (const m of html.matchAll(/href="([^"]+)"/g)) expect(isWebLink(m[1]!.replace(/&amp;/g, '&'))).toBe(true);
    expect(html).toContain('data-open="https://github.com/vllm-project/vllm"');
  });
  it('shows the BibTeX, the key and the read state', () => {
    const html = detailsHtml(realCorpus(), realCorpus().entry('kwon2023efficient')!, { ...ctx, read: true });
    expect(html).toContain('@inproceedings{kwon2023efficient,');
    expect(html).toContain('✓ read');
    expect(escapeHtml(`a'b`)).toBe('a&#39;b');
  });
});
