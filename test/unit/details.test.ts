import { describe, expect, it } from 'vitest';
import { detailsHtml } from '../../src/core/service/detailsHtml.js';
import { escapeHtml } from '../../src/core/text/html.js';
import { isWebLink } from '../../src/core/corpus/links.js';
import { entry, realCorpus } from './helpers.js';

const ctx = { nonce: 'abc123', cspSource: 'vscode-resource:', read: false, formatted: 'Ref <b>', styleName: 'apa', topicLabels: 'en' as const };

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
  it('keeps provenance (verified, unverified, the curator\'s note) in a collapsed Sources section at the end', () => {
    const e = realCorpus().entry('kwon2023efficient')!;
    expect(e.note).toMatch(/ACM DL page itself was not reachable/);
    const html = detailsHtml(realCorpus(), e, ctx);
    const sources = /<details id="sources"><summary>Sources<\/summary>([\s\S]*?)<\/details>/.exec(html);
    expect(sources).not.toBeNull();
    expect(html).not.toMatch(/<details[^>]*\sopen/);
    const [whole, inside] = [sources![0], sources![1]!];
    for (const url of e.verified) expect(inside).toContain(`<a href="${escapeHtml(url)}" data-open="${escapeHtml(url)}">${escapeHtml(url)}</a>`);
    expect(inside).toContain(escapeHtml(e.note!));
    // Nothing of the note outside the section; the section comes after the BibTeX, before the script.
    const outside = html.replace(whole, '');
    expect(outside).not.toContain('not reachable');
    expect(outside).not.toContain('id="note"');
    expect(outside).not.toContain('sosp2023.mpi-sws.org');
    expect(html.indexOf('id="bibtex"')).toBeLessThan(html.indexOf('<details id="sources">'));
    expect(html.indexOf('</details>')).toBeLessThan(html.indexOf('<script'));
    // The reader's text is still in the body.
    expect(outside).toContain(`<p id="summary">${escapeHtml(e.summary!)}</p>`);
  });
  it('escapes the Sources section, links only http(s) verified URLs, and names what is not verified', () => {
    const e = entry({
      key: 'x', topics: ['serving'], unverified: ['pages', '<b>year</b>'], note: 'Checked <script>alert(1)</script> & "more"',
      verified: ['https://example.org/a?x=1&y="2"', 'javascript:alert(1)'],
    });
    const html = detailsHtml(realCorpus(), e, ctx);
    const inside = /<details id="sources">([\s\S]*?)<\/details>/.exec(html)![1]!;
    expect(inside).toContain('<a href="https://example.org/a?x=1&amp;y=&quot;2&quot;" data-open="https://example.org/a?x=1&amp;y=&quot;2&quot;">');
    expect(html).not.toContain('javascript:');
    expect(inside).toContain('Not verified, left out: pages, &lt;b&gt;year&lt;/b&gt;');
    expect(inside).toContain('Checked &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;more&quot;');
    expect(html.replace(/<details id="sources">[\s\S]*?<\/details>/, '')).not.toContain('Not verified');
    expect([...html.matchAll(/<script/g)]).toHaveLength(1);
    const bare = detailsHtml(realCorpus(), entry({ key: 'y', topics: ['serving'] }), ctx);
    expect(bare).toContain('<details id="sources"><summary>Sources</summary>');
    expect(bare).not.toContain('id="note"');
    expect(bare).not.toContain('id="unverified"');
  });
  it('shows the BibTeX, the key and the read state', () => {
    const html = detailsHtml(realCorpus(), realCorpus().entry('kwon2023efficient')!, { ...ctx, read: true });
    expect(html).toContain('@inproceedings{kwon2023efficient,');
    expect(html).toContain('✓ read');
    expect(escapeHtml(`a'b`)).toBe('a&#39;b');
  });
});
