/**
 * A markdown-it plugin that puts rendered Pandoc citations and their bibliography into markdown-it's
 * output (VS Code's Markdown preview), from citations already rendered (`mlsysPapers/previewCitations`:
 * spans of the text and their HTML). markdown-it calls plugins synchronously, so the plugin never
 * reads citations itself: it asks its host for what is known of the text being parsed, and tells
 * it which document was rendered so that the host can ask the language server when that is stale.
 *
 * How the citations get into the output, without a second reading of the Markdown: before
 * markdown-it reads the text, each citation's span is replaced by a placeholder (a private-use
 * character, its number, another; a line break inside the span is kept, followed by a filler
 * character, so every line stays where it was and the preview's line numbers stay right), and the
 * `::: {#refs}` fence lines by an empty line and a marker. markdown-it then reads the text as it
 * always does; afterwards, placeholders in text become `mlsys_citation` tokens, the marker an
 * `mlsys_bibliography` block (else one goes at the end), and a placeholder where markdown-it reads
 * no text (code, raw HTML, an attribute: where markdown-it and pandoc disagree) gets its original
 * text back. A text that holds any of the private-use characters itself is left alone.
 *
 * Work is linear in the text and the number of tokens: one pass to place the placeholders, one
 * over the tokens.
 */
import type MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';

/** `[start, end)` of a text, UTF-16 code units. */
export interface TextSpan {
  start: number;
  end: number;
}

/** What is known of a text: its citations (spans ascending, not overlapping) and its bibliography. */
export interface RenderedCitations {
  citations: readonly (TextSpan & { html: string })[];
  /** The bibliography's HTML, and the `::: {#refs}` div's fence lines when it goes there. */
  bibliography: { html: string; open?: TextSpan; close?: TextSpan } | null;
}

/** What is known of one document's text: its length, and each citation's and fence line's text, to check a text against. */
export interface KnownCitations {
  length: number;
  citations: readonly (TextSpan & { html: string; source: string })[];
  bibliography: { html: string; open?: TextSpan; close?: TextSpan; sources?: readonly [string, string] } | null;
}

/**
 * What is known of a text, from what is known of each document: the document of the text's
 * length whose citations hold their texts at their places, the most of them; of it, the citations
 * that do (the others an edit has touched since), and the bibliography when its fences are still
 * where they were. Work: the citations' texts compared, no reading of the text.
 *
 * @returns undefined when no document fits
 */
export function fittingCitations(text: string, documents: Iterable<KnownCitations>): RenderedCitations | undefined {
  let best: RenderedCitations | undefined;
  let bestCount = 0;
  for (const d of documents) {
    if (d.length !== text.length) continue;
    const citations = d.citations.filter((c) => text.startsWith(c.source, c.start));
    const b = d.bibliography;
    const fits = !!b && (!b.open || !b.close || !b.sources || (text.startsWith(b.sources[0], b.open.start) && text.startsWith(b.sources[1], b.close.start)));
    const count = citations.length + (fits ? 1 : 0);
    if (count > bestCount) {
      bestCount = count;
      best = { citations, bibliography: fits && b ? { html: b.html, ...(b.open && b.close ? { open: b.open, close: b.close } : {}) } : null };
    }
  }
  return best;
}

/** A text change: `[offset, offset + length)` replaced by `text` (VS Code's `rangeOffset`, `rangeLength`, `text`). */
export interface TextChange {
  offset: number;
  length: number;
  text: string;
}

/**
 * Spans after a change: those before it stay, those after it move by its length difference, and
 * those it touches (its ends included: `]` then `(` is a link, not a citation) are dropped.
 *
 * @returns the spans, ascending as given
 */
export function shiftSpans<T extends TextSpan>(spans: readonly T[], c: TextChange): T[] {
  const delta = c.text.length - c.length;
  const out: T[] = [];
  for (const s of spans) {
    if (s.end < c.offset) out.push(s);
    else if (s.start > c.offset + c.length) out.push({ ...s, start: s.start + delta, end: s.end + delta });
  }
  return out;
}

/** What the plugin asks of its host (`features/markdownPreview.ts`). */
export interface CitationHost {
  /**
   * What is known of a text being parsed, if anything (synchronous: a cache look-up). Only
   * citations whose span still holds their text should be given.
   */
  lookup(text: string): RenderedCitations | undefined;
  /** A document was rendered (markdown-it's render `env.currentDocument`, a `vscode.Uri` in VS Code). */
  rendered(document: unknown): void;
}

const OPEN = '\uE000';
const CLOSE = '\uE001';
const FILLER = '\uE002';
const REFS = '\uE003';
const PLACEHOLDER = /\uE000(\d+)\uE001((?:\r?\n|\r)[^\uE002\n\r]*\uE002)*/g;

/** What a parse put in place of the citations, kept on the parse's `env` for the second pass. */
interface Placed {
  /** The citations, by placeholder number. */
  citations: readonly (TextSpan & { html: string })[];
  /** Each citation's original text, by placeholder number. */
  originals: string[];
  bibliography: RenderedCitations['bibliography'];
}

const ENV_KEY = 'mlsysPapersCitations';

const OURS = /[\uE000\uE002\uE003]/;
/** Whether a string holds a placeholder or marker of ours (one pass over it). */
const hasOurs = (s: string): boolean => OURS.test(s);

/** The text with the citations' spans replaced by placeholders, and the `::: {#refs}` lines by an empty line and a marker. */
function placeholders(src: string, r: RenderedCitations): { text: string; placed: Placed } {
  const parts: string[] = [];
  const originals: string[] = [];
  const citations: (TextSpan & { html: string })[] = [];
  const b = r.bibliography;
  const fences = b?.open && b.close ? [{ ...b.open, marker: '' }, { ...b.close, marker: REFS }] : [];
  let at = 0;
  let f = 0;
  const fence = (before: number) => {
    while (f < fences.length && fences[f]!.start < before) {
      const x = fences[f++]!;
      if (x.start < at || x.end > src.length) continue;
      parts.push(src.slice(at, x.start), x.marker);
      at = x.end;
    }
  };
  for (const c of r.citations) {
    fence(c.start);
    if (c.start < at || c.end > src.length) continue;
    const original = src.slice(c.start, c.end);
    const n = citations.length;
    citations.push(c);
    originals.push(original);
    let placeholder = `${OPEN}${n}${CLOSE}`;
    // Each line break of the span stays, with a filler after it: the line stays a line of the paragraph.
    if (original.indexOf('\n') >= 0 || original.indexOf('\r') >= 0) {
      for (const eol of original.match(/\r\n|\r|\n/g) ?? []) placeholder += eol + FILLER;
    }
    parts.push(src.slice(at, c.start), placeholder);
    at = c.end;
  }
  fence(Infinity);
  parts.push(src.slice(at));
  return { text: parts.join(''), placed: { citations, originals, bibliography: b } };
}

/** A text with placeholders back to the original text (for code and attributes, where markdown-it reads no Markdown). */
function restore(s: string, placed: Placed): string {
  if (!hasOurs(s)) return s;
  return s.replace(PLACEHOLDER, (m, n: string) => placed.originals[Number(n)] ?? m).replace(/[\uE002\uE003]/g, '');
}

/** Text tokens split at the placeholders: text, citation, text, …; fillers dropped with the soft break before them. */
function splitChildren(state: StateCore, children: Token[], placed: Placed): Token[] {
  const out: Token[] = [];
  for (const t of children) {
    if (t.type !== 'text') {
      if (t.content && hasOurs(t.content)) t.content = restore(t.content, placed);
      if (t.children) t.children = splitChildren(state, t.children, placed);
      if (t.attrs) for (const a of t.attrs) if (hasOurs(a[1])) a[1] = restore(a[1], placed);
      out.push(t);
      continue;
    }
    const content = t.content;
    if (!hasOurs(content)) { out.push(t); continue; }
    // A line inside a citation: its filler and the soft break before it go (the citation stands for the whole span).
    if (content.startsWith(FILLER) && out[out.length - 1]?.type === 'softbreak') out.pop();
    let last = 0;
    let text = '';
    for (let i = 0; i < content.length; i++) {
      const ch = content[i];
      if (ch === FILLER || ch === REFS) { text += content.slice(last, i); last = i + 1; continue; }
      if (ch !== OPEN) continue;
      const close = content.indexOf(CLOSE, i);
      const n = close < 0 ? NaN : Number(content.slice(i + 1, close));
      const c = placed.citations[n];
      if (!c) continue;
      text += content.slice(last, i);
      if (text) out.push(textToken(state, text, t));
      text = '';
      const tok = new state.Token('mlsys_citation', '', 0);
      tok.meta = { html: c.html };
      tok.content = placed.originals[n] ?? '';
      out.push(tok);
      i = close;
      last = close + 1;
    }
    text += content.slice(last);
    if (text) out.push(textToken(state, text, t));
  }
  return out;
}

function textToken(state: StateCore, content: string, like: Token): Token {
  const t = new state.Token('text', '', 0);
  t.content = content;
  t.level = like.level;
  return t;
}

/**
 * The second pass: citations into tokens, the bibliography where its marker is (else at the end),
 * everything else with a placeholder back to its original text.
 */
function placeTokens(state: StateCore, placed: Placed): void {
  const tokens = state.tokens;
  const out: Token[] = [];
  let bibliographyPlaced = false;
  const bibliography = (): Token => {
    const t = new state.Token('mlsys_bibliography', '', 0);
    t.block = true;
    t.meta = { html: placed.bibliography?.html ?? '' };
    bibliographyPlaced = true;
    return t;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'inline' && placed.bibliography && t.content.indexOf(REFS) >= 0) {
      const lines = t.content.split('\n');
      const own = lines.length === 1 && lines[0]!.trim() === REFS;
      const open = tokens[i - 1], close = tokens[i + 1];
      if (own && open?.type === 'paragraph_open' && close?.type === 'paragraph_close') {
        // The marker is a paragraph of its own: the bibliography in its place.
        out.pop();
        const b = bibliography();
        b.map = t.map;
        out.push(b);
        i++;
        continue;
      }
      if (lines[lines.length - 1]!.trim() === REFS && close?.type === 'paragraph_close') {
        // The marker ends a paragraph (the div's last line before the fence): the bibliography after it.
        t.content = lines.slice(0, -1).join('\n');
        const kids = t.children ?? [];
        while (kids.length && (kids[kids.length - 1]!.type === 'softbreak' || (kids[kids.length - 1]!.type === 'text' && kids[kids.length - 1]!.content.trim() === REFS))) kids.pop();
        t.children = splitChildren(state, kids, placed);
        t.content = restore(t.content, placed);
        out.push(t, close, bibliography());
        i++;
        continue;
      }
    }
    if (t.type === 'inline' && t.children) {
      // A paragraph without a citation (most of them) is left as markdown-it read it.
      if (!hasOurs(t.content)) { out.push(t); continue; }
      t.children = splitChildren(state, t.children, placed);
      // A heading's text as written (for what reads its source); a paragraph's is left as read.
      if (tokens[i - 1]?.type === 'heading_open') t.content = restore(t.content, placed);
    } else if (t.content && hasOurs(t.content)) t.content = restore(t.content, placed);
    if (t.info && hasOurs(t.info)) t.info = restore(t.info, placed);
    out.push(t);
  }
  if (!bibliographyPlaced && placed.bibliography) out.push(bibliography());
  state.tokens = out;
}

/**
 * Adds rendered citations to a markdown-it instance (VS Code's `extendMarkdownIt`).
 *
 * @param md - the preview's markdown-it
 * @param host - what is known of each text, and who to tell of a render
 * @returns `md`, extended
 */
export function markdownItCitations(md: MarkdownIt, host: CitationHost): MarkdownIt {
  md.core.ruler.before('normalize', 'mlsys_citations_place', (state) => {
    const src = state.src;
    if (hasOurs(src)) return;
    const known = host.lookup(src);
    if (!known || (!known.citations.length && !known.bibliography)) return;
    const { text, placed } = placeholders(src, known);
    state.src = text;
    (state.env as Record<string, unknown>)[ENV_KEY] = placed;
  });
  md.core.ruler.push('mlsys_citations_tokens', (state) => {
    const env = state.env as Record<string, unknown> | undefined;
    const placed = env?.[ENV_KEY] as Placed | undefined;
    if (!placed) return;
    delete env![ENV_KEY];
    placeTokens(state, placed);
  });
  md.renderer.rules.mlsys_citation = (tokens, idx) => tokens[idx]!.meta.html as string;
  md.renderer.rules.mlsys_bibliography = (tokens, idx) => `${tokens[idx]!.meta.html as string}\n`;
  const render = md.renderer.render.bind(md.renderer);
  md.renderer.render = (tokens, options, env: unknown) => {
    const doc = env && typeof env === 'object' ? (env as { currentDocument?: unknown }).currentDocument : undefined;
    if (doc) host.rendered(doc);
    return render(tokens, options, env);
  };
  return md;
}
