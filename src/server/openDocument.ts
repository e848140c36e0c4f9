/**
 * The server's one model of an open document: its text as lines edited in place
 * (`core/text/lineText.ts`) and the facts its readers asked for, carried over the edits that cannot
 * change them (`core/text/textFacts.ts`). `TextDocuments` (vscode-languageserver) creates and
 * updates it in place of `vscode-languageserver-textdocument`'s document, which copies the whole
 * text on every change; every module of the server reads open documents through it.
 */
import type { TextDocumentsConfiguration } from 'vscode-languageserver';
import type { Position, Range, TextDocument, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { contentLength, LineText } from '../core/text/lineText.js';
import { CarriedFact, plainEdit, type FactLanguage, type FactSource, type FactView, type TextFact } from '../core/text/textFacts.js';

/** An open document: `TextDocument`'s members, plus its facts ({@link FactSource}). */
export class OpenDocument implements TextDocument, FactSource {
  private text: LineText;
  private readonly facts = new Map<TextFact<unknown>, CarriedFact<unknown>>();

  constructor(readonly uri: string, readonly languageId: string, private _version: number, content: string) {
    this.text = new LineText(content);
  }

  get version(): number { return this._version; }

  get lineCount(): number { return this.text.lineCount; }

  /** The whole text (joined once per version), or the text of a range. */
  getText(range?: Range): string {
    if (!range) return this.text.toString();
    return this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end));
  }

  /** The LSP position of a UTF-16 offset (clamped to the text; inside a line break: its line's end), as `TextDocument.positionAt`. */
  positionAt(offset: number): Position {
    return this.text.positionAt(offset);
  }

  /** The UTF-16 offset of an LSP position (clamped as `TextDocument.offsetAt` clamps it). */
  offsetAt(position: Position): number {
    return this.text.offsetAt(position);
  }

  /** A fact of the current text: kept from an earlier version when no edit since could change it, else computed now. */
  fact<T>(f: TextFact<T>): FactView<T> {
    let carried = this.facts.get(f) as CarriedFact<T> | undefined;
    if (!carried) {
      carried = new CarriedFact(f, this.text.toString());
      this.facts.set(f, carried);
    }
    return carried.view();
  }

  /**
   * Applies LSP content changes in order (a range replaced, or the whole text), as
   * `TextDocument.update` does: a range is made well-formed (start before end) and its positions
   * clamped as `offsetAt` clamps them.
   */
  update(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      if (!('range' in change) || !change.range) {
        this.text = new LineText(change.text);
        this.facts.clear();
        continue;
      }
      const { start, end } = wellFormed(change.range);
      const s = this.offsetAt(start), e = this.offsetAt(end);
      const from = this.text.positionAt(s);
      const oneLine = from.line === this.text.positionAt(e).line && !/[\r\n]/.test(change.text);
      const before = this.facts.size && oneLine ? lineContent(this.text.line(from.line)) : undefined;
      this.text.replace(s, e, change.text);
      if (!this.facts.size) continue;
      let after: string | undefined;
      const plain = new Map<FactLanguage, boolean>();
      const isPlain = (language: FactLanguage): boolean => {
        if (before === undefined) return false;
        after ??= lineContent(this.text.line(from.line));
        if (!plain.has(language)) {
          plain.set(language, plainEdit(language, {
            oldLine: before, newLine: after, column: from.character, removed: e - s, inserted: change.text.length,
            previousLine: () => (from.line > 0 ? lineContent(this.text.line(from.line - 1)) : undefined),
          }));
        }
        return plain.get(language)!;
      };
      const edit = { at: s, removed: e - s, inserted: change.text.length };
      for (const [f, carried] of this.facts) if (!carried.carry(edit, isPlain)) this.facts.delete(f);
    }
    this._version = version;
  }
}

/** A line without its line break. */
const lineContent = (line: string): string => line.slice(0, contentLength(line));

function wellFormed(range: Range): Range {
  const { start, end } = range;
  return start.line > end.line || (start.line === end.line && start.character > end.character) ? { start: end, end: start } : range;
}

/** What `TextDocuments` makes open documents with: {@link OpenDocument}s, updated in place. */
export const OPEN_DOCUMENTS: TextDocumentsConfiguration<OpenDocument> = {
  create: (uri, languageId, version, content) => new OpenDocument(uri, languageId, version, content),
  update(document, changes, version) {
    document.update(changes, version);
    return document;
  },
};
