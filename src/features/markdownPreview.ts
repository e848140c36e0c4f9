/**
 * Citations in VS Code's built-in Markdown preview (`contributes.markdown.markdownItPlugins`, the
 * `extendMarkdownIt` that activation returns): `[@key]`, `@key` and `[-@key]` rendered as
 * `pandoc --citeproc` renders them in the chosen CSL style, with the bibliography at the end or in
 * `::: {#refs}`.
 *
 * markdown-it runs plugins synchronously on the extension host's thread, so nothing is read or
 * rendered here: the plugin (`core/markdown/markdownItCitations.ts`) renders from a cache per
 * document, which `mlsysPapers/previewCitations` fills (the server reads the citations with the one
 * citation reader, resolves the bibliography as for every other feature, and runs citeproc-js). A
 * render of a document whose cache is missing or stale asks the server, 250 ms after the last
 * render (edits re-render the preview); the answer is for the text that was sent, and edits made
 * while it was on its way shift its spans, as they shift the cache's (a citation an edit touches is
 * dropped until the next answer). When an answer changes what the preview shows,
 * `markdown.preview.refresh` renders it again. A change of the settings, the corpus or a library,
 * and a saved file that is not Markdown (a bibliography, a style), make every cache stale.
 */
import * as vscode from 'vscode';
import type MarkdownIt from 'markdown-it';
import { affectsMarkdownCitations } from '../core/markdown/buildFiles.js';
import { MARKDOWN_LANGUAGES } from '../core/workspace/fileKind.js';
import { fittingCitations, markdownItCitations, shiftSpans, type KnownCitations, type RenderedCitations, type TextChange, type TextSpan } from '../core/markdown/markdownItCitations.js';
import { Settings } from '../ids.js';
import type { PreviewCitationsResult } from '../server/protocol.js';
import type { Ctx } from './client/ctx.js';
import { Disposable } from './dispose.js';

/** How long after the last render of a stale document the server is asked (ms). */
export const PREVIEW_DEBOUNCE_MS = 250;
/** How many documents' citations are kept (the least recently rendered go first). */
const CACHE_LIMIT = 16;

/** What is known of one document's citations. */
interface DocCitations extends KnownCitations {
  /** The document version the spans are valid for (shifted through the edits since the answer). */
  version: number;
  citations: (TextSpan & { html: string; source: string })[];
  bibliography: (NonNullable<PreviewCitationsResult['bibliography']> & { sources?: [string, string] }) | null;
  /** Whether the server should be asked again (edits since the answer, or something it read changed). */
  stale: boolean;
}

/** The preview's cache of rendered citations, and the markdown-it host over it. */
class PreviewCitations extends Disposable {
  private readonly docs = new Map<string, DocCitations>();
  /** Per document being asked for: the version sent, the edits since, and the request's cancellation. */
  private readonly asking = new Map<string, { version: number; changes: TextChange[][]; cts: vscode.CancellationTokenSource }>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Messages already logged (a broken style is said once, not on every render). */
  private readonly said = new Set<string>();

  constructor(private readonly ctx: Ctx) {
    super();
    this._register(vscode.workspace.onDidChangeTextDocument((e) => this.changed(e)));
    const stale = () => this.invalidate();
    // Any scope's citation style (a folder may set its own), and the other settings the server reads.
    this._register(vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration(Settings.section)) stale(); }));
    this._register(ctx.server.onCorpusChanged(stale));
    this._register(ctx.server.onLibrariesChanged(stale));
    // A saved bibliography, style, metadata or defaults file, or build script (not a LaTeX file, nor code).
    this._register(vscode.workspace.onDidSaveTextDocument((d) => { if (affectsMarkdownCitations(d.uri.path, d.languageId)) stale(); }));
    this._register(vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri.toString())));
    this._register({ dispose: () => { for (const t of this.timers.values()) clearTimeout(t); for (const a of this.asking.values()) a.cts.cancel(); } });
  }

  /** The plugin's host: look-ups by text, and renders reported by document. */
  readonly host = {
    lookup: (text: string): RenderedCitations | undefined => this.lookup(text),
    rendered: (doc: unknown): void => this.rendered(doc),
  };

  private lookup(text: string): RenderedCitations | undefined {
    return fittingCitations(text, this.docs.values());
  }

  private rendered(doc: unknown): void {
    if (!(doc instanceof vscode.Uri)) return;
    const key = doc.toString();
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    if (!document || !MARKDOWN_LANGUAGES.has(document.languageId)) return;
    const known = this.docs.get(key);
    if (known) { this.docs.delete(key); this.docs.set(key, known); }
    if (known && !known.stale && known.version === document.version) return;
    if (this.asking.get(key)?.version === document.version) return;
    const timer = this.timers.get(key);
    if (timer) clearTimeout(timer);
    this.timers.set(key, setTimeout(() => { this.timers.delete(key); void this.ask(document); }, PREVIEW_DEBOUNCE_MS));
  }

  private async ask(document: vscode.TextDocument): Promise<void> {
    const key = document.uri.toString();
    this.asking.get(key)?.cts.cancel();
    const version = document.version;
    const text = document.getText();
    const mine = { version, changes: [] as TextChange[][], cts: new vscode.CancellationTokenSource() };
    this.asking.set(key, mine);
    let answer: PreviewCitationsResult | undefined;
    try {
      answer = await this.ctx.server.previewCitations({ uri: key, languageId: document.languageId, text }, mine.cts.token);
    } catch (e) {
      if (!mine.cts.token.isCancellationRequested) this.say(`preview of ${key}: ${e instanceof Error ? e.message : String(e)}`);
    }
    // A newer request, or the document's closing, cancelled this one: its answer is not used.
    const superseded = mine.cts.token.isCancellationRequested;
    mine.cts.dispose();
    if (this.asking.get(key) === mine) this.asking.delete(key);
    if (!answer || superseded) return;
    if (answer.error) this.say(vscode.l10n.t('MLSys Papers: the Markdown preview shows citations as written: {0}', answer.error));
    const b = answer.bibliography;
    let next: DocCitations = {
      version,
      length: text.length,
      citations: answer.citations.map((c) => ({ ...c, source: text.slice(c.start, c.end) })),
      bibliography: b ? { ...b, ...(b.open && b.close ? { sources: [text.slice(b.open.start, b.open.end), text.slice(b.close.start, b.close.end)] as [string, string] } : {}) } : null,
      stale: false,
    };
    // Edits made while the answer was on its way: its spans move with them.
    for (const changes of mine.changes) next = this.apply(next, changes);
    next.version = document.version;
    const before = this.docs.get(key);
    this.docs.delete(key);
    this.docs.set(key, next);
    while (this.docs.size > CACHE_LIMIT) this.docs.delete(this.docs.keys().next().value!);
    if (!sameRendering(before, next)) void vscode.commands.executeCommand('markdown.preview.refresh');
  }

  private apply(d: DocCitations, changes: readonly TextChange[]): DocCitations {
    let { citations, bibliography, length } = d;
    for (const c of changes) {
      citations = shiftSpans(citations, c);
      if (bibliography?.open && bibliography.close) {
        const [open, close] = [shiftSpans([bibliography.open], c)[0], shiftSpans([bibliography.close], c)[0]];
        bibliography = open && close ? { ...bibliography, open, close } : { html: bibliography.html };
      }
      length += c.text.length - c.length;
    }
    return { ...d, citations, bibliography, length, stale: true };
  }

  private changed(e: vscode.TextDocumentChangeEvent): void {
    if (!e.contentChanges.length) return;
    const key = e.document.uri.toString();
    const changes = e.contentChanges.map((c) => ({ offset: c.rangeOffset, length: c.rangeLength, text: c.text }));
    this.asking.get(key)?.changes.push(changes);
    const d = this.docs.get(key);
    if (d) this.docs.set(key, { ...this.apply(d, changes), version: e.document.version });
  }

  /** Every document's citations are asked again at its next render, and the previews render again. */
  private invalidate(): void {
    if (!this.docs.size) return;
    for (const d of this.docs.values()) d.stale = true;
    void vscode.commands.executeCommand('markdown.preview.refresh');
  }

  private forget(key: string): void {
    this.docs.delete(key);
    this.asking.get(key)?.cts.cancel();
    const t = this.timers.get(key);
    if (t) { clearTimeout(t); this.timers.delete(key); }
  }

  private say(message: string): void {
    if (this.said.has(message)) return;
    this.said.add(message);
    this.ctx.log.warn(message);
  }
}

/** Whether two caches render the same (the preview need not render again). */
function sameRendering(a: DocCitations | undefined, b: DocCitations): boolean {
  if (!a) return !b.citations.length && !b.bibliography;
  if (a.citations.length !== b.citations.length || a.bibliography?.html !== b.bibliography?.html) return false;
  return a.citations.every((c, i) => c.start === b.citations[i]!.start && c.html === b.citations[i]!.html);
}

/**
 * Registers the preview's citations.
 *
 * @returns the `Disposable`, and `extendMarkdownIt` for activation to return
 */
export function registerMarkdownPreview(ctx: Ctx): { disposable: vscode.Disposable; extendMarkdownIt(md: MarkdownIt): MarkdownIt } {
  const cache = new PreviewCitations(ctx);
  return { disposable: cache, extendMarkdownIt: (md) => markdownItCitations(md, cache.host) };
}
