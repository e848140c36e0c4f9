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
const OURS = /[\uE000-\uE003]/;
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

/** The text with the citations' spans replaced by placeholders, and the `::: {#refs}` lines by an empty line and a marker. */
function placeholders(src: string, r: RenderedCitations): { text: string; placed: Placed } {
  const parts: string[] = [];
  const originals: string[] = [];
  const citations: (TextSpan & { html: string })[] = [];
  const edits: { start: number; end: number; text: (original: string) => string }[] = [];
  for (const c of r.citations) {
    edits.push({ start: c.start, end: c.end, text: (original) => {
      const n = citations.length;
      citations.push(c);
      originals.push(original);
      return `${OPEN}${n}${CLOSE}${(original.match(/\r\n|\r|\n/g) ?? []).map((eol) => `${eol}${FILLER}`).join('')}`;
    } });
  }
  const b = r.bibliography;
  if (b?.open && b.close) {
    edits.push({ start: b.open.start, end: b.open.end, text: () => '' });
    edits.push({ start: b.close.start, end: b.close.end, text: () => REFS });
  }
  edits.sort((x, y) => x.start - y.start);
  let at = 0;
  for (const e of edits) {
    if (e.start < at || e.end > src.length) continue;
    parts.push(src.slice(at, e.start), e.text(src.slice(e.start, e.end)));
    at = e.end;
  }
  parts.push(src.slice(at));
  return { text: parts.join(''), placed: { citations, originals, bibliography: b } };
}

/** A text with placeholders back to the original text. */
function restore(s: string, placed: Placed): string {
  if (!OURS.test(s)) return s;
  return s.replace(PLACEHOLDER, (m, n: string) => placed.originals[Number(n)] ?? m).replace(/[\uE002\uE003]/g, '');
}

/** Text tokens split at the placeholders: text, citation, text, …; fillers dropped with the soft break before them. */
function splitChildren(state: StateCore, children: Token[], placed: Placed): Token[] {
  const out: Token[] = [];
  for (const t of children) {
    if (t.type !== 'text') {
      if (t.content && OURS.test(t.content)) t.content = restore(t.content, placed);
      if (t.children) t.children = splitChildren(state, t.children, placed);
      if (t.attrs) for (const a of t.attrs) a[1] = restore(a[1], placed);
      out.push(t);
      continue;
    }
    if (!OURS.test(t.content)) { out.push(t); continue; }
    let content = t.content;
    // A line inside a citation: its filler and the soft break before it go (the citation stands for the whole span).
    if (content.startsWith(FILLER) && out[out.length - 1]?.type === 'softbreak') out.pop();
    content = content.replace(/[\uE002\uE003]/g, '');
    const re = /\uE000(\d+)\uE001/g;
    let last = 0;
    for (let m = re.exec(content); m; m = re.exec(content)) {
      const c = placed.citations[Number(m[1])];
      if (m.index > last) out.push(textToken(state, content.slice(last, m.index), t));
      if (c) {
        const tok = new state.Token('mlsys_citation', '', 0);
        tok.meta = { html: c.html };
        tok.content = placed.originals[Number(m[1])] ?? '';
        out.push(tok);
      }
      last = m.index + m[0].length;
    }
    if (last < content.length) out.push(textToken(state, content.slice(last), t));
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
    if (t.type === 'inline' && t.content.includes(REFS) && placed.bibliography) {
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
      t.children = splitChildren(state, t.children, placed);
      t.content = restore(t.content, placed);
    } else if (t.content && OURS.test(t.content)) t.content = restore(t.content, placed);
    if (t.info && OURS.test(t.info)) t.info = restore(t.info, placed);
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
    if (OURS.test(src)) return;
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
