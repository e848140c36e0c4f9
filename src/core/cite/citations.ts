/**
 * Every citation key a document cites, with its position: for diagnostics, hover and go to definition.
 * LaTeX: the key lists of citation commands (`\cite`, natbib, biblatex, `\nocite`, multicite
 * `\cites{a}{b}`), outside comments, verbatim text and `\iffalse`/`\if0` blocks (`latex/scan.ts`).
 * Markdown: Pandoc citations as pandoc reads them (`markdown/pandoc.ts`), less cross-references
 * (`markdown/crossref.ts`), and the front matter's `nocite:` (Pandoc's User's Guide, "Citation syntax").
 */
import { FRONT_MATTER, frontMatterOf } from '../markdown/frontMatter.js';
import { latexCiteCommands, type LatexGroup } from '../latex/commands.js';
import { latexRegions, maskLatex, type LatexRegion } from '../latex/scan.js';
import { hasCrossrefFields, isCrossReference, quartoCustomKeys, type CrossrefSyntax } from '../markdown/crossref.js';
import { bracedKeyEnds, pandocKeyAt, scanPandoc, type PandocScan } from '../markdown/pandoc.js';
import { fileKind, isMarkdown } from '../workspace/fileKind.js';
import { factOf, type FactSource, type Span, type TextFact } from '../text/textFacts.js';

/** One cited key: `offset` and `length` in UTF-16 code units. */
export interface CitedKey {
  key: string;
  offset: number;
  length: number;
}

/** The comment that silences the citation keys on its line (see {@link latexCitations}). */
const IGNORE_COMMENT = /^%+[ \t]*mlsys-papers:[ \t]*ignore(?![\w-])/;

/**
 * What a LaTeX or Markdown document cites: its keys, and whether it also cites every entry of its
 * bibliography (`\nocite{*}` in LaTeX, `nocite: '@*'` in Pandoc's metadata).
 */
export interface DocumentCitations {
  cited: CitedKey[];
  all: boolean;
}

/**
 * The citations of a LaTeX document: the keys of every closed key list of a citation command
 * (`latexCiteCommands`), outside comments, verbatim text and `\iffalse`/`\if0` blocks
 * (`maskLatex`).
 *
 * Not keys:
 * - `*` in `\nocite{*}`: it cites every entry of the bibliography (BibTeX's and biblatex's manuals),
 *   which `all` says;
 * - a key holding `#` and a digit (`#1`, `##1`): a macro's parameter, as in
 *   `\newcommand{\inlinecite}[1]{\cite{#1}}` or `\def\x##1{\cite{##1}}` (outside a definition TeX
 *   refuses `#` there, so no real key has it);
 * - a key with a blank, `{` or `\` in it (a list left open while typing, a macro).
 * - every key on a line that carries the comment `% mlsys-papers: ignore`: the way to silence a
 *   citation TeX never sees, which a static reader cannot tell (a user macro that drops or prints
 *   its argument: `\newcommand{\todo}[1]{}`, then `\todo{\cite{later}} % mlsys-papers: ignore`).
 *   The comment applies to its own line only, wherever on the line it stands.
 *
 * @param text - the whole document
 * @returns the keys in document order, with their offsets in `text` (UTF-16 code units)
 */
export function latexDocumentCitations(text: string): DocumentCitations {
  const { cited, all } = latexCitationScan(text);
  return { cited, all };
}

/** {@link latexDocumentCitations}, with the key lists the keys were read from. */
function latexCitationScan(text: string): DocumentCitations & { groups: LatexGroup[] } {
  const groups: LatexGroup[] = [];
  const regions = latexRegions(text);
  const code = maskLatex(text, regions);
  const ignored = ignoredLines(text, regions);
  const cited: CitedKey[] = [];
  let all = false;
  for (const cmd of latexCiteCommands(code)) {
    for (const list of cmd.groups) {
      groups.push(list);
      if (list.close < 0) continue;
      let pos = list.open + 1;
      for (const part of code.slice(list.open + 1, list.close).split(',')) {
        const lead = part.length - part.trimStart().length;
        const key = part.trim();
        const offset = pos + lead;
        pos += part.length + 1;
        if (!key || /[\s{\\]|#\d/.test(key) || ignored(offset)) continue;
        if (key === '*') {
          if (cmd.command === 'nocite') all = true;
          continue;
        }
        cited.push({ key, offset, length: key.length });
      }
    }
  }
  return { cited, all, groups };
}

/**
 * Whether an offset lies on a line that a `% mlsys-papers: ignore` comment silences: a function
 * over ascending offsets of `text`, given its regions from `latexRegions`.
 */
function ignoredLines(text: string, regions: readonly LatexRegion[]): (offset: number) => boolean {
  const lines: [number, number][] = [];
  for (const r of regions) {
    if (r.kind !== 'comment' || !IGNORE_COMMENT.test(text.slice(r.start, Math.min(r.end, r.start + 64)))) continue;
    const from = Math.max(text.lastIndexOf('\n', r.start - 1), text.lastIndexOf('\r', r.start - 1)) + 1;
    lines.push([from, r.end]);
  }
  let at = 0;
  return (offset) => {
    while (at < lines.length && lines[at]![1] < offset) at++;
    return at < lines.length && offset >= lines[at]![0];
  };
}

/**
 * Keys cited in a LaTeX document ({@link latexDocumentCitations}, without whether it cites all).
 *
 * @param text - the whole document
 * @returns the keys in document order, with their offsets in `text`
 */
export function latexCitations(text: string): CitedKey[] {
  return latexDocumentCitations(text).cited;
}

/**
 * The cross-reference syntaxes of a Markdown document: what the host knows (a `.qmd` file, a
 * Quarto project and its custom types), plus what the document's front matter says: custom Quarto
 * types in `crossref: custom:`, and pandoc-crossref when the front matter names it anywhere
 * (`filters: [pandoc-crossref]`, R Markdown's `pandoc_args: ["--filter", "pandoc-crossref"]`) or,
 * outside Quarto, has `crossref` metadata.
 *
 * @param text - the document
 * @param base - what the host knows ({@link NO_CROSSREFS} when nothing)
 */
export function crossrefSyntaxOf(text: string, base: Partial<CrossrefSyntax> = {}): CrossrefSyntax {
  const fm = frontMatterOf(text);
  const quarto = !!base.quarto;
  let pandocCrossref = !!base.pandocCrossref;
  const custom = [...(base.quartoCustom ?? [])];
  if (fm) {
    if (/pandoc-crossref/.test(text.slice(fm.start, fm.end)) || hasCrossrefFields(fm.data)) pandocCrossref = true;
    const crossref = fm.data?.crossref;
    if (crossref !== undefined && !quarto) pandocCrossref = true;
    custom.push(...quartoCustomKeys(crossref));
  }
  return { quarto, quartoCustom: custom, pandocCrossref };
}

/**
 * The citations of a Pandoc Markdown document (R Markdown and Quarto too): every `@key` pandoc
 * reads as a citation (`markdown/pandoc.ts`: not in code, raw blocks, comments, math or metadata,
 * not an e-mail address or an example-list reference; `[@a,@b]`, `@{…}`, `-@a`), and the keys the
 * front matter's `nocite:` names (`@*` there cites every entry: `all`). Cross-references written
 * as citations (`@fig-plot` in Quarto, `@fig:plot` with pandoc-crossref) are left out
 * (`markdown/crossref.ts`).
 *
 * @param text - the whole document
 * @param crossrefs - what the host knows of the document's cross-reference syntax (a `.qmd` file,
 *   a Quarto project); the front matter adds to it ({@link crossrefSyntaxOf})
 * @returns the keys in document order, with their offsets in `text` (UTF-16 code units)
 */
export function pandocDocumentCitations(text: string, crossrefs: Partial<CrossrefSyntax> = {}): DocumentCitations {
  const syntax = crossrefSyntaxOf(text, crossrefs);
  const { cited, all } = pandocKeyScan(text);
  return { cited: cited.filter((k) => !isCrossReference(k.key, syntax)), all };
}

/** Every `@key` pandoc reads as a citation and the keys `nocite:` names, cross-references included, in order; with the metadata blocks read. */
function pandocKeyScan(text: string): DocumentCitations & { metadata: readonly Span[]; brackets: readonly Span[] } {
  const scan = scanPandoc(text);
  const { cited, all } = nociteOf(text, scan);
  for (const k of scan.keys) cited.push({ key: k.key, offset: k.offset, length: k.length });
  return { cited: cited.sort((a, b) => a.offset - b.offset), all, metadata: scan.metadata, brackets: scan.brackets };
}

/**
 * The keys the metadata's `nocite:` names (pandoc's User's Guide, "Including uncited items in the
 * bibliography"): `@key`s in its value; `@*` cites every entry (`all`).
 *
 * @param scan - `scanPandoc(text)`, whose metadata blocks are read (pandoc reads every one)
 * @returns the keys with their offsets in `text`, in order
 */
export function nociteOf(text: string, scan: Pick<PandocScan, 'metadata'>): DocumentCitations {
  const cited: CitedKey[] = [];
  let all = false;
  // Pandoc reads every YAML metadata block, not only the front matter; in them only `nocite:`
  // cites (the rest, e-mail addresses in `author:` for one, does not).
  for (const block of scan.metadata) {
    const head = text.slice(block.start, block.end);
    const nocite = /^nocite:(.*(?:\r?\n[ \t]+.*)*)/m.exec(head);
    if (nocite) {
      const base = block.start + nocite.index + 'nocite:'.length;
      const value = nocite[1]!;
      // Where each `@{…}` ends, found once: each `@{` read on to the end was quadratic.
      let braced: Int32Array | undefined;
      for (let k = value.indexOf('@'); k >= 0; k = value.indexOf('@', k + 1)) {
        if (k > 0 && /[\p{L}\p{N}]/u.test(value[k - 1]!)) continue;
        if (value[k + 1] === '*') { all = true; continue; }
        if (value[k + 1] === '{') braced ??= bracedKeyEnds(value);
        const found = pandocKeyAt(value, k + 1, braced);
        if (!found || found.keyEnd === found.keyStart) continue;
        cited.push({ key: value.slice(found.keyStart, found.keyEnd), offset: base + found.keyStart, length: found.keyEnd - found.keyStart });
      }
    }
  }
  return { cited, all };
}

/** Keys cited in a Markdown document ({@link pandocDocumentCitations}, without whether it cites all). */
export function pandocCitations(text: string, crossrefs: Partial<CrossrefSyntax> = {}): CitedKey[] {
  return pandocDocumentCitations(text, crossrefs).cited;
}

/**
 * What a document of the given VS Code language id cites; nothing for other languages.
 *
 * @param crossrefs - for Markdown: what the host knows of its cross-reference syntax; by default
 *   only the language (`quarto` reads Quarto's cross-references)
 */
export function documentCitations(text: string, languageId: string, crossrefs?: Partial<CrossrefSyntax>): DocumentCitations {
  return documentCitationsIn({ text, languageId }, crossrefs);
}

/**
 * What a document cites, as {@link documentCitations} finds it in the document's whole text, from
 * the document's facts when it has them (an open document: the citations are scanned once and
 * carried over plain edits, `text/textFacts.ts`, so a reader does not scan the whole text per
 * version).
 *
 * @param doc - the document; `text` is read only when it has no `facts`
 * @param crossrefs - for Markdown: its cross-reference syntax, as {@link documentCitations} takes it
 * @returns the keys in document order, with their offsets in the current text (UTF-16 code units)
 */
export function documentCitationsIn(
  doc: { readonly text: string; readonly languageId: string; readonly facts?: FactSource }, crossrefs?: Partial<CrossrefSyntax>,
): DocumentCitations {
  const kind = fileKind('', doc.languageId);
  if (kind !== 'latex' && !isMarkdown(kind)) return { cited: [], all: false };
  const view = factOf(doc, kind === 'latex' ? LATEX_CITATIONS : PANDOC_KEYS);
  const syntax = kind === 'latex' ? undefined : crossrefSyntaxOf(factOf(doc, FRONT_MATTER).value, crossrefs ?? { quarto: kind === 'quarto' });
  const cited: CitedKey[] = [];
  for (const c of view.value.cited) {
    if (syntax && isCrossReference(c.key, syntax)) continue;
    cited.push({ key: c.key, offset: view.fromBase(c.offset), length: c.length });
  }
  return { cited, all: view.value.all };
}


/**
 * The distinct keys a document cites, in order of first citation (what a numeric style numbers
 * by), as a list that also says whether the document cites every entry of its bibliography
 * (`\nocite{*}`, `nocite: '@*'`): then an export of the cited entries takes the whole bibliography.
 * `all` is a non-enumerable property, so the list compares, spreads and serialises as a plain
 * `string[]` (the `mlsysPapers/citedKeys` request sends only the keys).
 */
export type CitedKeys = string[] & { readonly all: boolean };

/** The distinct keys a document cites ({@link CitedKeys}). */
export function citedKeys(text: string, languageId: string, crossrefs?: Partial<CrossrefSyntax>): CitedKeys {
  return distinctKeys(documentCitations(text, languageId, crossrefs));
}

/** The distinct keys of a document's citations, in order of first citation ({@link CitedKeys}). */
export function distinctKeys({ cited, all }: DocumentCitations): CitedKeys {
  const keys = [...new Set(cited.map((c) => c.key))];
  // Not enumerable: the list stays a plain list to compare, copy and send as JSON.
  return Object.defineProperty(keys, 'all', { value: all, enumerable: false }) as CitedKeys;
}

/** The cited key at an offset, if any. */
export function citationAt(text: string, offset: number, languageId: string, crossrefs?: Partial<CrossrefSyntax>): CitedKey | undefined {
  return citationAtIn({ text, languageId }, offset, crossrefs);
}

/**
 * A LaTeX document's citations as a fact of its text (`text/textFacts.ts`): an edit inside a key
 * list (`\cite{a,` … `}` over several lines) changes them; any other plain edit only moves them.
 */
export const LATEX_CITATIONS: TextFact<DocumentCitations> = {
  name: 'latexCitations',
  language: 'latex',
  value: latexDocumentCitations,
  compute(text) {
    const { cited, all, groups } = latexCitationScan(text);
    return { value: { cited, all }, spans: groups.map((g) => ({ start: g.open, end: g.end })) };
  },
};

/** How far past a link's `](` pandoc's reader looks for its end (`markdown/pandocInline.ts`'s URL and title bound, with room). */
const LINK_REACH = 2 * 2048 + 16;

/**
 * A Markdown document's keys as a fact of its text, cross-references included (they depend on the
 * project, so readers leave them out): an edit inside a key, a metadata block (`nocite:`), a pair
 * of brackets (a citation's, or a link's label, which a reference definition may name) or a
 * link's reach changes them; any other plain edit only moves them.
 */
export const PANDOC_KEYS: TextFact<DocumentCitations> = {
  name: 'pandocKeys',
  language: 'markdown',
  value(text) {
    const { cited, all } = pandocKeyScan(text);
    return { cited, all };
  },
  compute(text) {
    const { cited, all, metadata, brackets } = pandocKeyScan(text);
    const spans: Span[] = cited.map((c) => ({ start: c.offset, end: c.offset + c.length }));
    for (const m of [...metadata, ...brackets]) spans.push({ start: m.start, end: m.end });
    for (let at = text.indexOf(']('); at >= 0; at = text.indexOf('](', at + 2)) spans.push({ start: at, end: at + LINK_REACH });
    return { value: { cited, all }, spans };
  },
};

/**
 * The cited key at an offset of a document, as {@link citationAt} finds it in the document's whole
 * text, from the document's facts when it has them (an open document: no scan of the whole text
 * per version).
 *
 * @param doc - the document; `text` is read only when it has no `facts`
 * @param offset - UTF-16 offset in the current text
 * @param crossrefs - for Markdown: its cross-reference syntax, as {@link citationAt} takes it
 */
export function citationAtIn(
  doc: { readonly text: string; readonly languageId: string; readonly facts?: FactSource }, offset: number, crossrefs?: Partial<CrossrefSyntax>,
): CitedKey | undefined {
  const kind = fileKind('', doc.languageId);
  if (kind !== 'latex' && !isMarkdown(kind)) return undefined;
  const view = factOf(doc, kind === 'latex' ? LATEX_CITATIONS : PANDOC_KEYS);
  const syntax = kind === 'latex' ? undefined : crossrefSyntaxOf(factOf(doc, FRONT_MATTER).value, crossrefs ?? { quarto: kind === 'quarto' });
  const { cited } = view.value;
  const at = view.toBase(offset);
  // The first key whose end is at or after the offset, then on while keys start at or before it.
  let lo = 0, hi = cited.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cited[mid]!.offset + cited[mid]!.length < at) lo = mid + 1; else hi = mid;
  }
  for (let i = lo; i < cited.length && cited[i]!.offset <= at; i++) {
    const c = cited[i]!;
    if (syntax && isCrossReference(c.key, syntax)) continue;
    return { key: c.key, offset: view.fromBase(c.offset), length: c.length };
  }
  return undefined;
}
