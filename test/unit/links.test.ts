import { describe, expect, it } from 'vitest';
import { markdownLink } from '../../src/core/cite/formatCitation.js';
import { entryLink, entryLinks, entryLinksMarkdown, markdownUrl, pdfLink } from '../../src/core/corpus/links.js';
import { entry } from './helpers.js';

describe('entry links (Open Paper, Open PDF, the views\' link rows)', () => {
  it('Open Paper prefers the landing page, then arXiv, then the DOI, then the PDF', () => {
    expect(entryLink(entry({ key: 'a', url: 'https://u.example/', arxiv: '2309.06180', doi: '10.1/x', pdf: 'https://p.example/a.pdf' }))).toBe('https://u.example/');
    expect(entryLink(entry({ key: 'a', arxiv: '2309.06180', doi: '10.1/x', pdf: 'https://p.example/a.pdf' }))).toBe('https://arxiv.org/abs/2309.06180');
    expect(entryLink(entry({ key: 'a', doi: '10.1145/3600006.3613165', pdf: 'https://p.example/a.pdf' }))).toBe('https://doi.org/10.1145/3600006.3613165');
    expect(entryLink(entry({ key: 'a', pdf: 'https://p.example/a.pdf' }))).toBe('https://p.example/a.pdf');
    expect(entryLink(entry({ key: 'a' }))).toBeUndefined();
  });

  it('Open PDF uses the pdf field, else arXiv\'s PDF, else nothing', () => {
    expect(pdfLink(entry({ key: 'a', pdf: 'https://p.example/a.pdf', arxiv: '2309.06180' }))).toBe('https://p.example/a.pdf');
    expect(pdfLink(entry({ key: 'a', arxiv: '2309.06180' }))).toBe('https://arxiv.org/pdf/2309.06180');
    expect(pdfLink(entry({ key: 'a', doi: '10.1/x' }))).toBeUndefined();
  });

  it('lists Paper, PDF, Code, DOI, arXiv in that order, and only http(s) links', () => {
    const e = entry({ key: 'a', url: 'https://u.example/', code: 'https://github.com/o/r', doi: '10.1/x', arxiv: '2309.06180' });
    expect(entryLinks(e)).toEqual([
      { label: 'Paper', url: 'https://u.example/' },
      { label: 'PDF', url: 'https://arxiv.org/pdf/2309.06180' },
      { label: 'Code', url: 'https://github.com/o/r' },
      { label: 'DOI', url: 'https://doi.org/10.1/x' },
      { label: 'arXiv', url: 'https://arxiv.org/abs/2309.06180' },
    ]);
    // A user corpus could carry any scheme; none but http(s) is ever offered.
    const hostile = entry({ key: 'b', url: 'javascript:alert(1)', pdf: 'file:///etc/passwd', code: 'command:workbench.action.quit' });
    expect(entryLinks(hostile)).toEqual([]);
  });
});

describe('links in Markdown cannot inject Markdown', () => {
  const hostile = 'https://x.org/a)![i](https://evil.example/t.png)[run](command:workbench.action.terminal.new "t")';
  it('encodes every character that could close the link destination', () => {
    const url = markdownUrl(hostile)!;
    expect(url).not.toMatch(/[()[\]\s'"<>\\]/);
    expect(decodeURI(url.replace(/%2[89]|%5[BD]|%27/g, (c) => String.fromCharCode(parseInt(c.slice(1), 16))))).toContain('evil.example');
    expect(markdownUrl('javascript:alert(1)')).toBeUndefined();
    expect(markdownUrl('command:workbench.action.terminal.new')).toBeUndefined();
  });
  it('an entry card links each URL once, with nothing after it but the closing parenthesis', () => {
    const links = entryLinksMarkdown(entry({ key: 'evil', url: hostile, code: `${hostile} <img src=x>` }));
    expect(links).toHaveLength(2);
    for (const l of links) expect(l).toMatch(/^\[(Paper|Code)\]\(https:\/\/x\.org\/[^()[\]\s]*\)$/);
    expect(markdownLink(entry({ key: 'evil', title: 'T', url: hostile }))).toMatch(/^\[T\]\(https:\/\/x\.org\/[^()[\]\s]*\)$/);
  });
});
