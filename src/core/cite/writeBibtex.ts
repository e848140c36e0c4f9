/**
 * BibTeX output for corpus entries.
 *
 * Field names and entry types follow the BibTeX manual (Patashnik, "BibTeXing", 1988); `eprint`,
 * `archiveprefix` and `primaryclass` follow arXiv's own BibTeX guidance, and `eprinttype = {arxiv}`
 * is biblatex's (biblatex manual §3.14.7). Output is plain ASCII where a TeX command exists for a
 * character, so that pdflatex + bibtex accept it without `inputenc` surprises.
 */
import type { Entry, Person } from '../corpus/schema.js';
import { arxivUrl } from '../corpus/links.js';
import { hasCjk } from '../text/cjk.js';

/**
 * A literal brace is `\textbraceleft{}` / `\textbraceright{}`, not `\{`: BibTeX counts every
 * brace, escaped or not (`bibtex.web`, `scan_balanced_braces`), so a lone `\{` leaves the field open.
 */
const TEX_SPECIALS: Record<string, string> = {
  '\\': '\\textbackslash{}', '{': '\\textbraceleft{}', '}': '\\textbraceright{}', '&': '\\&', '%': '\\%', $: '\\$', '#': '\\#', _: '\\_',
  '~': '\\textasciitilde{}', '^': '\\textasciicircum{}',
};

/** Combining marks → the TeX accent command that produces them (Unicode NFD order). */
const TEX_ACCENTS: Record<string, string> = {
  '\u0300': '`', '\u0301': "'", '\u0302': '^', '\u0303': '~', '\u0304': '=', '\u0306': 'u', '\u0307': '.',
  '\u0308': '"', '\u030A': 'r', '\u030B': 'H', '\u030C': 'v', '\u0327': 'c', '\u0328': 'k',
};
const TEX_LETTERS: Record<string, string> = {
  ß: '{\\ss}', æ: '{\\ae}', Æ: '{\\AE}', œ: '{\\oe}', Œ: '{\\OE}', ø: '{\\o}', Ø: '{\\O}', ł: '{\\l}', Ł: '{\\L}',
  ı: '{\\i}', å: '{\\aa}', Å: '{\\AA}', '–': '--', '—': '---', '‘': '`', '’': "'", '“': '``', '”': "''", '\u00A0': '~',
  // Signs of titles (`μLayer`, `Tux²`, `PixArt-α`) that pdflatex's UTF-8 input does not set; math and textcomp do.
  μ: '{$\\mu$}', µ: '{$\\mu$}', α: '{$\\alpha$}', '¹': '{\\textsuperscript{1}}', '²': '{\\textsuperscript{2}}', '³': '{\\textsuperscript{3}}',
};

/**
 * Escapes text for a BibTeX field value: TeX specials are escaped and accented Latin letters become
 * TeX accent commands in braces (`é` → `{\'e}`, `í` → `{\'i}`), the form BibTeX treats as one letter
 * when sorting and changing case; μ and α become `{$\mu$}` and `{$\alpha$}`, superscript digits `\textsuperscript`.
 * Characters with no TeX command (CJK, for example) are kept as UTF-8.
 */
export function texEscape(s: string): string {
  let out = '';
  for (const ch of s.normalize('NFC')) {
    if (TEX_SPECIALS[ch]) { out += TEX_SPECIALS[ch]; continue; }
    if (TEX_LETTERS[ch]) { out += TEX_LETTERS[ch]; continue; }
    const d = ch.normalize('NFD');
    if (d.length > 1 && /^[A-Za-z]$/.test(d[0]!) && [...d.slice(1)].every((m) => TEX_ACCENTS[m])) {
      // `{\'i}`, not `{\'\i}`: biber reads the dotless form as ı plus a combining accent, which
      // pdflatex cannot set; LaTeX's accents on i and j are fine for BibTeX and LaTeX alike.
      let inner = d[0]!;
      for (const m of d.slice(1)) {
        const cmd = TEX_ACCENTS[m]!;
        inner = /[a-zA-Z]/.test(cmd) ? `\\${cmd}{${inner}}` : `\\${cmd}${inner}`;
      }
      out += `{${inner}}`;
      continue;
    }
    out += ch;
  }
  return out;
}

/**
 * Protects the capitalisation of a title from BibTeX styles that lower-case titles: a word with a
 * capital after its first letter, in any of its hyphenated parts (`GPipe`, `PyTorch`, `LLM`,
 * `Megatron-LM`, but not `Large-Scale`), a word with a digit
 * and a capital (`FlashAttention-2`), and any one-word name of `names` (system names such as the entry's aliases)
 * is wrapped in braces. Ordinary capitalised words are left for the style to handle.
 *
 * @param title - the escaped title
 * @param names - extra words to protect, matched case-sensitively as whole words
 */
export function protectCapitals(title: string, names: readonly string[] = []): string {
  const protect = new Set(names.filter((n) => !/\s/.test(n) && /[A-Z]/.test(n)));
  return title.replace(/[^\s{}]+/g, (word) => {
    const core = word.replace(/^[("'`]+|[)"'`,.;:!?]+$/g, '');
    if (!core || core.includes('\\')) return word;
    // Each part of a hyphenated word is judged on its own: `Megatron-LM` is protected (for `LM`),
    // `Large-Scale` and `Communication-Efficient` are ordinary words that a style may lower-case.
    const parts = core.split('-').filter(Boolean);
    const needs = parts.some((part) => /[A-Z]/.test(part.slice(1))) || (/[A-Z]/.test(core) && /\d/.test(core)) || protect.has(core);
    if (!needs) return word;
    const start = word.indexOf(core);
    return `${word.slice(0, start)}{${core}}${word.slice(start + core.length)}`;
  });
}

/** One name in BibTeX's `Family, Given` form; organisations are braced so they are not split. */
export function bibtexName(p: Person): string {
  if ('literal' in p) return `{${texEscape(p.literal)}}`;
  const family = texEscape(p.family);
  const fam = /\s/.test(p.family) ? `{${family}}` : family;
  return p.given ? `${fam}, ${texEscape(p.given)}` : fam;
}

/**
 * The BibTeX fields of an entry, in the order they are written.
 *
 * @returns `[name, value]` pairs with values already escaped (but not yet braced)
 */
export function bibtexFields(e: Entry): [string, string][] {
  const f: [string, string | undefined][] = [];
  const title = e.title_en && hasCjk(e.title) ? e.title_en : e.title;
  // pdflatex cannot typeset CJK script, so a name written with any (`AI闲谈`, `李沐`) stays in the
  // CSL-JSON export only; a person's Chinese name in `zh` is never exported to BibTeX. An entry
  // left with no author gets BibTeX's `key` field, which styles sort by instead.
  const authors = e.authors.filter((p) => !hasCjk('literal' in p ? p.literal : `${p.given}${p.family}`));
  f.push(['author', authors.map(bibtexName).join(' and ')]);
  if (!authors.length) f.push(['key', texEscape(e.venue ?? e.title_en ?? e.title)]);
  f.push(['title', protectCapitals(texEscape(title), e.aliases)]);
  if (e.type === 'article') f.push(['journal', e.journal && texEscape(e.journal)]);
  if (e.type === 'inproceedings' || e.type === 'incollection') f.push(['booktitle', protectCapitals(texEscape(e.booktitle ?? e.venue_full ?? e.venue ?? ''))]);
  f.push(['series', e.series && texEscape(e.series)]);
  f.push(['year', e.year?.toString()]);
  f.push(['volume', e.volume]);
  f.push(['number', e.number]);
  f.push(['pages', e.pages]);
  f.push(['edition', e.edition && texEscape(e.edition)]);
  f.push(['publisher', e.publisher && texEscape(e.publisher)]);
  f.push(['institution', e.institution && texEscape(e.institution)]);
  let howpublished = e.howpublished && texEscape(e.howpublished);
  if (!howpublished && e.type === 'misc') {
    if (e.arxiv && (!e.venue || e.venue === 'arXiv')) howpublished = `arXiv preprint arXiv:${e.arxiv}`;
    else if (e.venue) howpublished = texEscape(e.venue_full ?? e.venue);
  }
  f.push(['howpublished', howpublished]);
  f.push(['doi', e.doi]);
  if (e.arxiv) {
    f.push(['eprint', e.arxiv]);
    f.push(['archiveprefix', 'arXiv']);
    f.push(['eprinttype', 'arxiv']);
  }
  f.push(['url', e.url ?? (e.arxiv ? arxivUrl(e.arxiv) : undefined)]);
  if (e.title_en && hasCjk(e.title)) f.push(['note', 'In Chinese']);
  return f.filter((p): p is [string, string] => p[1] !== undefined && p[1] !== '');
}

/**
 * Formats an entry as a BibTeX entry.
 *
 * @example toBibtex(entry) // '@inproceedings{kwon2023efficient,\n  author = {Kwon, Woosuk and …},\n …}\n'
 */
export function toBibtex(e: Entry): string {
  // A library entry is copied as the library has it (see `library/verbatim.ts`), never regenerated.
  if (e.library?.bibtex) return `${e.library.bibtex.trimEnd()}\n`;
  const fields = bibtexFields(e);
  const width = Math.max(...fields.map(([k]) => k.length));
  const body = fields.map(([k, v]) => `  ${k.padEnd(width)} = {${v}}`).join(',\n');
  return `@${e.type}{${e.key},\n${body}\n}\n`;
}

/**
 * Formats several entries, separated by blank lines. Library entries come as the library has them
 * (see `library/verbatim.ts`, and `bibtexForAddition` of `bibliography/planAdditions.ts`): preceded by the `@string` macros they use and followed by the
 * entries their `crossref` names, each once, unless `has` says the destination has it already.
 *
 * @param has - what the destination already defines (default: nothing; the output stands alone)
 */
export function toBibtexAll(entries: readonly Entry[], has: { macro(name: string): boolean; key(key: string): boolean } = { macro: () => false, key: () => false }): string {
  const macros: string[] = [];
  const bodies: string[] = [];
  const parents: string[] = [];
  const named = new Set<string>();
  const keys = new Set(entries.map((e) => e.key.toLowerCase()));
  for (const e of entries) {
    bodies.push(toBibtex(e).trimEnd());
    const lib = e.library;
    for (const m of lib?.bibtexMacros ?? []) {
      if (named.has(m.name) || has.macro(m.name)) continue;
      named.add(m.name);
      macros.push(m.text);
    }
    const parent = lib?.crossref;
    if (parent && !keys.has(parent.key.toLowerCase()) && !has.key(parent.key)) {
      keys.add(parent.key.toLowerCase());
      parents.push(parent.bibtex.trimEnd());
    }
  }
  return [...macros, ...bodies, ...parents].map((t) => `${t}\n`).join('\n');
}
