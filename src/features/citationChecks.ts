/**
 * Checks on citation keys where the writer types them: diagnostics, quick fixes, hover and go to
 * definition, over the document's bibliography and the corpus.
 */
import * as vscode from 'vscode';
import { duplicateKeys, findBibKey, findBibKeys, lineColumnAt, parseBib, type BibEntry } from '../core/bib/bibfile.js';
import { bibFormatOf } from '../core/bib/sync.js';
import { toBibtex } from '../core/cite/bibtex.js';
import { citationAt, citationsIn, type CitedKey } from '../core/citations.js';
import { isCitingLanguage } from '../core/context.js';
import { Commands } from '../ids.js';
import { CITATION_SELECTOR } from './completion.js';
import type { Bibliographies, DocumentBibliography } from './bibliography.js';
import { toVsUri } from './bibliography.js';
import type { CorpusService } from './corpusService.js';
import type { Formatter } from './formatted.js';
import { entryMarkdown, escapeMarkdown } from './present.js';
import type { ReadState } from './readState.js';

/** Diagnostic codes, for quick fixes. */
const Code = { unknown: 'unknown-key', notInBib: 'not-in-bibliography', duplicate: 'duplicate-key' } as const;

/** The scheme of the read-only documents that show a corpus entry's BibTeX (go to definition). */
export const ENTRY_SCHEME = 'mlsys-papers';

function bibEntries(bib: DocumentBibliography | undefined): { entry: BibEntry; uri: vscode.Uri; text: string }[] {
  return bib?.sources.flatMap((s) => s.entries.map((entry) => ({ entry, uri: toVsUri(s.uri), text: s.text }))) ?? [];
}

function rangeOf(doc: vscode.TextDocument, c: CitedKey): vscode.Range {
  return new vscode.Range(doc.positionAt(c.offset), doc.positionAt(c.offset + c.length));
}

/** Computes and publishes citation diagnostics for LaTeX/Markdown documents and duplicate keys in open `.bib` files. */
class CitationDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('mlsys-papers-citations');
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subs: vscode.Disposable[];

  constructor(private readonly corpus: CorpusService, private readonly bibs: Bibliographies) {
    const soon = (doc: vscode.TextDocument) => this.schedule(doc);
    this.subs = [
      this.collection,
      vscode.workspace.onDidOpenTextDocument(soon),
      vscode.workspace.onDidChangeTextDocument((e) => soon(e.document)),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        // A bibliography changed: every citing document may have new answers.
        if (bibFormatOf(doc.uri.path)) for (const d of vscode.workspace.textDocuments) this.schedule(d);
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => this.collection.delete(doc.uri)),
      corpus.onDidChange(() => vscode.workspace.textDocuments.forEach(soon)),
    ];
    vscode.workspace.textDocuments.forEach(soon);
  }

  private schedule(doc: vscode.TextDocument): void {
    if (!isCitingLanguage(doc.languageId) && doc.languageId !== 'bibtex' && !/\.bib$/i.test(doc.uri.path)) return;
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => { this.timers.delete(key); void this.update(doc); }, 300));
  }

  async update(doc: vscode.TextDocument): Promise<void> {
    if (doc.isClosed) return;
    if (!isCitingLanguage(doc.languageId)) {
      const text = doc.getText();
      const dups = duplicateKeys(parseBib(text).entries);
      const diags: vscode.Diagnostic[] = [];
      for (const key of dups.keys()) {
        for (const start of findBibKeys(text, key)) {
          const found = text.substr(start, key.length);
          const d = new vscode.Diagnostic(new vscode.Range(doc.positionAt(start), doc.positionAt(start + key.length)),
            `Duplicate key "${found}": BibTeX uses the first and ignores the others (keys are case-insensitive).`, vscode.DiagnosticSeverity.Warning);
          d.source = 'MLSys Papers';
          d.code = Code.duplicate;
          diags.push(d);
        }
      }
      this.collection.set(doc.uri, diags);
      return;
    }
    const cited = citationsIn(doc.getText(), doc.languageId);
    const bib = await this.bibs.of(doc);
    const inBib = new Set(bibEntries(bib).map((b) => b.entry.key.toLowerCase()));
    const readable = bib?.sources.filter((s) => !s.error) ?? [];
    const bibName = readable.map((s) => vscode.workspace.asRelativePath(toVsUri(s.uri), false)).join(', ');
    const diags: vscode.Diagnostic[] = [];
    for (const c of cited) {
      if (inBib.has(c.key.toLowerCase())) continue;
      const known = this.corpus.corpus.entry(c.key);
      let d: vscode.Diagnostic | undefined;
      if (!known) {
        // Without a readable bibliography we cannot tell a typo from a key defined elsewhere,
        // unless the corpus does not know it either: then say so.
        d = new vscode.Diagnostic(rangeOf(doc, c),
          readable.length ? `Unknown citation key "${c.key}": not in ${bibName}, nor in the MLSys Papers corpus.`
            : `Unknown citation key "${c.key}": the document declares no bibliography and the MLSys Papers corpus does not know it.`,
          vscode.DiagnosticSeverity.Warning);
        d.code = Code.unknown;
      } else if (readable.length) {
        d = new vscode.Diagnostic(rangeOf(doc, c), `"${c.key}" is in the MLSys Papers corpus but not in ${bibName}.`, vscode.DiagnosticSeverity.Warning);
        d.code = Code.notInBib;
      }
      if (d) { d.source = 'MLSys Papers'; diags.push(d); }
    }
    this.collection.set(doc.uri, diags);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const s of this.subs) s.dispose();
  }
}

/** Quick fixes: add a corpus entry to the bibliography; search the corpus for a replacement key. */
class CitationFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, ctx: vscode.CodeActionContext): vscode.CodeAction[] {
    const out: vscode.CodeAction[] = [];
    for (const d of ctx.diagnostics) {
      if (d.source !== 'MLSys Papers') continue;
      const key = doc.getText(d.range);
      if (d.code === Code.notInBib) {
        const a = new vscode.CodeAction(`Add ${key} to the bibliography`, vscode.CodeActionKind.QuickFix);
        a.command = { command: Commands.addToBibliography, title: a.title, arguments: [doc.uri, key] };
        a.diagnostics = [d];
        a.isPreferred = true;
        out.push(a);
      }
      if (d.code === Code.unknown) {
        const a = new vscode.CodeAction(`Search MLSys Papers for a replacement for ${key}`, vscode.CodeActionKind.QuickFix);
        a.command = { command: Commands.replaceKey, title: a.title, arguments: [doc.uri, d.range, key] };
        a.diagnostics = [d];
        out.push(a);
      }
    }
    return out;
  }
}

/** Hover on a cited key: the formatted entry, and whether the document's bibliography has it. */
class CitationHover implements vscode.HoverProvider {
  constructor(
    private readonly corpus: CorpusService, private readonly read: ReadState, private readonly formatter: Formatter,
    private readonly bibs: Bibliographies,
  ) {}

  async provideHover(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.Hover | undefined> {
    const c = citationAt(doc.getText(), doc.offsetAt(pos), doc.languageId);
    if (!c) return undefined;
    const bib = await this.bibs.of(doc);
    const own = bibEntries(bib).find((b) => b.entry.key.toLowerCase() === c.key.toLowerCase());
    const entry = this.corpus.corpus.entry(c.key);
    const where = own
      ? `✓ in ${vscode.workspace.asRelativePath(own.uri, false)}`
      : bib?.sources.length ? `✗ not in ${bib.sources.map((s) => vscode.workspace.asRelativePath(toVsUri(s.uri), false)).join(', ')}` : 'no bibliography declared';
    let md: vscode.MarkdownString;
    if (entry) {
      md = entryMarkdown(this.corpus.corpus, entry, { read: this.read.isRead(entry.key), detailsLink: true });
      let formatted: string | undefined;
      try {
        formatted = this.formatter.format([entry])[0];
      } catch {
        formatted = undefined; // a broken custom style is reported by the commands, not on every hover
      }
      if (formatted) md.appendMarkdown(`\n\n---\n\n${escapeMarkdown(formatted)}`);
    } else if (own) {
      md = new vscode.MarkdownString();
      const f = own.entry.fields;
      md.appendText(f.title ?? c.key);
      md.appendMarkdown('\n\n');
      md.appendText([f.author, f.journal ?? f.booktitle, f.year].filter(Boolean).join(' · '));
    } else {
      md = new vscode.MarkdownString();
      md.appendText(`Unknown key ${c.key}`);
    }
    md.appendMarkdown(`\n\n---\n\n${escapeMarkdown(where)}`);
    return new vscode.Hover(md, rangeOf(doc, c));
  }
}

/** Go to definition: the key's entry in the `.bib`, else the corpus entry's BibTeX in a read-only document. */
class CitationDefinition implements vscode.DefinitionProvider {
  constructor(private readonly corpus: CorpusService, private readonly bibs: Bibliographies) {}

  async provideDefinition(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.Location | undefined> {
    const c = citationAt(doc.getText(), doc.offsetAt(pos), doc.languageId);
    if (!c) return undefined;
    const bib = await this.bibs.of(doc);
    for (const s of bib?.sources ?? []) {
      const at = findBibKey(s.text, c.key);
      if (at >= 0) {
        const { line, column } = lineColumnAt(s.text, at);
        return new vscode.Location(toVsUri(s.uri), new vscode.Position(line - 1, column - 1));
      }
    }
    if (this.corpus.corpus.entry(c.key)) return new vscode.Location(vscode.Uri.from({ scheme: ENTRY_SCHEME, path: `/${c.key}.bib` }), new vscode.Position(0, 0));
    return undefined;
  }
}

/** The read-only BibTeX of corpus entries, at `mlsys-papers:/<key>.bib`. */
class EntryContent implements vscode.TextDocumentContentProvider {
  constructor(private readonly corpus: CorpusService) {}
  provideTextDocumentContent(uri: vscode.Uri): string {
    const e = this.corpus.corpus.entry(uri.path.replace(/^\//, '').replace(/\.bib$/, ''));
    if (!e) return `% MLSys Papers: no entry ${uri.path}\n`;
    return `% ${e.title}\n% From the MLSys Papers corpus. ${e.summary}\n\n${toBibtex(e)}`;
  }
}

/** Registers diagnostics, quick fixes, hover, definition and their commands. */
export function registerCitationChecks(
  corpus: CorpusService, read: ReadState, formatter: Formatter, bibs: Bibliographies, pick: (query: string) => Promise<string[]>,
): vscode.Disposable {
  return vscode.Disposable.from(
    new CitationDiagnostics(corpus, bibs),
    vscode.languages.registerCodeActionsProvider(CITATION_SELECTOR, new CitationFixes(), { providedCodeActionKinds: CitationFixes.kinds }),
    vscode.languages.registerHoverProvider(CITATION_SELECTOR, new CitationHover(corpus, read, formatter, bibs)),
    vscode.languages.registerDefinitionProvider(CITATION_SELECTOR, new CitationDefinition(corpus, bibs)),
    vscode.workspace.registerTextDocumentContentProvider(ENTRY_SCHEME, new EntryContent(corpus)),
    vscode.commands.registerCommand(Commands.addToBibliography, async (uri: vscode.Uri, key: string) => {
      const doc = await vscode.workspace.openTextDocument(uri);
      const entry = corpus.corpus.entry(key);
      if (!entry) return;
      const { bib, plan } = await bibs.prepare(doc, [entry]);
      await bibs.complete(bib, plan);
    }),
    vscode.commands.registerCommand(Commands.replaceKey, async (uri: vscode.Uri, range: vscode.Range, key: string) => {
      const [replacement] = await pick(key);
      if (!replacement) return;
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, range, replacement);
      if (await vscode.workspace.applyEdit(edit)) await vscode.commands.executeCommand(Commands.addToBibliography, uri, replacement);
    }),
  );
}
