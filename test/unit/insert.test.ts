import { describe, expect, it } from 'vitest';
import { planCitation, type CitationOptions } from '../../src/core/cite/insert.js';
import { CURSOR, cursor, entry } from './helpers.js';

const A = entry({ key: 'kwon2023efficient', title: 'Efficient Memory Management [vLLM]', url: 'https://example.org/a(b)' });
const B = entry({ key: 'yu2022orca', title: 'Orca' });
const opts: CitationOptions = { latexCommand: 'cite', markdownStyle: 'pandoc' };

/** Applies the plan to the marked text and returns the result, with the cursor marker where the cursor ends. */
function apply(marked: string, lang: string, entries = [A], o = opts): string {
  const { text, offset } = cursor(marked);
  const p = planCitation(text, offset, lang, entries, o);
  const out = text.slice(0, p.offset) + p.text + text.slice(p.offset + p.length);
  const end = p.offset + p.text.length;
  return `${out.slice(0, end)}${CURSOR}${out.slice(end)}`;
}

describe('planCitation: LaTeX', () => {
  it.each([
    [`As shown ${CURSOR}.`, `As shown \\cite{kwon2023efficient}${CURSOR}.`],
    [`\\cite{${CURSOR}}`, `\\cite{kwon2023efficient${CURSOR}}`],
    [`\\cite{a${CURSOR}}`, `\\cite{kwon2023efficient${CURSOR}}`], // completes the partial key under the cursor
    [`\\cite{a,${CURSOR}}`, `\\cite{a,kwon2023efficient${CURSOR}}`],
    [`\\cite{a, ${CURSOR}}`, `\\cite{a, kwon2023efficient${CURSOR}}`],
    [`\\cite{a${CURSOR},b}`, `\\cite{kwon2023efficient${CURSOR},b}`],
    [`\\cite{a,${CURSOR} b}`, `\\cite{a,kwon2023efficient,${CURSOR} b}`],
    [`\\citep[p.~3]{a,${CURSOR}}`, `\\citep[p.~3]{a,kwon2023efficient${CURSOR}}`],
  ])('%j → %j', (marked, expected) => {
    expect(apply(marked, 'latex')).toBe(expected);
  });

  it('uses the configured command and cites several keys at once', () => {
    expect(apply(`x ${CURSOR}`, 'latex', [A, B], { ...opts, latexCommand: 'citep' })).toBe(`x \\citep{kwon2023efficient,yu2022orca}${CURSOR}`);
  });

  it('does not cite a key twice in one list', () => {
    const p = planCitation('\\cite{kwon2023efficient,}', 24, 'latex', [A], opts);
    expect(p.added).toEqual([]);
  });
});

describe('planCitation: Markdown', () => {
  it.each([
    [`As shown ${CURSOR}.`, `As shown [@kwon2023efficient]${CURSOR}.`],
    [`[@a; ${CURSOR}]`, `[@a; @kwon2023efficient${CURSOR}]`],
    [`[@a${CURSOR}]`, `[@kwon2023efficient${CURSOR}]`],
    [`[@a ${CURSOR}]`, `[@a; @kwon2023efficient${CURSOR}]`],
    [`[@${CURSOR}]`, `[@kwon2023efficient${CURSOR}]`],
    [`see @kw${CURSOR}`, `see @kwon2023efficient${CURSOR}`],
    [`[see @a, p. 3${CURSOR}]`, `[see @a, p. 3; @kwon2023efficient${CURSOR}]`],
  ])('%j → %j', (marked, expected) => {
    expect(apply(marked, 'markdown')).toBe(expected);
  });

  it('cites several keys as one Pandoc citation', () => {
    expect(apply(`x ${CURSOR}`, 'markdown', [A, B])).toBe(`x [@kwon2023efficient; @yu2022orca]${CURSOR}`);
  });

  it('writes a link when the style is link, escaping brackets and parentheses', () => {
    expect(apply(`x ${CURSOR}`, 'markdown', [A], { ...opts, markdownStyle: 'link' }))
      .toBe(`x [Efficient Memory Management \\[vLLM\\]](https://example.org/a%28b%29)${CURSOR}`);
  });

  it('does not treat an e-mail address as a citation', () => {
    expect(apply(`write to me@x.org ${CURSOR}`, 'markdown')).toBe(`write to me@x.org [@kwon2023efficient]${CURSOR}`);
  });
});

describe('planCitation: other files', () => {
  it('writes a plain-text reference', () => {
    expect(apply(`${CURSOR}`, 'plaintext', [B])).toBe(`Ann Smith. Orca${CURSOR}`);
  });
});
