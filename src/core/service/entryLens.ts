/**
 * How often each entry of a bibliography file is cited, where the entry is: a code lens over each
 * entry ("cited 3 times in 2 files", LSP `textDocument/codeLens`) and a line in the hover on its
 * key. In an editor with our UI the lens opens the citations (`mlsysPapers.showCitations`, the
 * same locations as find all citations); elsewhere it is text. When the file's unused entries are
 * not marked because its readers are not known in full, a lens on the first line says why.
 */
import * as l10n from '@vscode/l10n';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Hover, Location, MarkupKind, Position, Range, type CodeLens } from 'vscode-languageserver-types';
import type { BibEntry } from '../bibliography/bibtexFile.js';
import type { CitationScope, ScopeDocument } from './citationScope.js';
import { codeSpan, escapeMarkdown } from './entryCards.js';
import { citationLocations } from './keyReferences.js';
import { entryAt, entryKeyAt } from './keyOccurrences.js';
import { rangeOf, type ServiceContext } from './serviceContext.js';
import { entryUsage, unmarkedReason, type EntryUsage } from './unusedEntries.js';
import { NOT_CANCELLED, ServiceCommands, type Cancellation } from './types.js';
import type { CitedKey } from '../cite/citations.js';


/** "cited 3 times in 2 files", "cited once in main.tex", "not cited". */
function citedText(ctx: ServiceContext, cites: readonly { doc: ScopeDocument; cite: CitedKey }[]): string {
  const files = [...new Set(cites.map((c) => c.doc.uri.toString()))];
  if (!cites.length) return l10n.t('not cited');
  const one = files.length === 1 ? ctx.displayPath(cites[0]!.doc.uri) : undefined;
  if (cites.length === 1) return l10n.t('cited once in {0}', one!);
  return one ? l10n.t('cited {0} times in {1}', cites.length, one) : l10n.t('cited {0} times in {1} files', cites.length, files.length);
}

/** An entry's citations as locations, in reader order. */
function locationsOf(cites: readonly { doc: ScopeDocument; cite: CitedKey }[]): Location[] {
  const byDoc = new Map<ScopeDocument, CitedKey[]>();
  for (const { doc, cite } of cites) {
    const list = byDoc.get(doc);
    if (list) list.push(cite); else byDoc.set(doc, [cite]);
  }
  return citationLocations({ documents: [...byDoc].map(([doc, c]) => ({ doc, cites: c })) });
}

/**
 * The code lenses of a bibliography document: one per entry with how often it is cited, and one
 * on the first line when the unused entries are not marked and why. None for a file no known
 * document reads.
 */
export async function entryLenses(ctx: ServiceContext, scope: CitationScope, doc: TextDocument, token: Cancellation = NOT_CANCELLED): Promise<CodeLens[]> {
  const usage = await entryUsage(ctx, scope, doc);
  if (!usage || token.isCancellationRequested || !usage.readers.documents.length || usage.file.text !== doc.getText()) return [];
  const out: CodeLens[] = [];
  const reason = unmarkedReason(ctx, usage);
  if (reason) out.push({ range: Range.create(0, 0, 0, 0), command: { title: reason, command: '' } });
  for (const [entry, cites] of usage.citations) {
    const at = entryKeyAt(usage.file.text, entry);
    if (at < 0) continue;
    const range = rangeOf(doc, { offset: at, length: entry.key.length });
    const title = citedText(ctx, cites);
    out.push({
      range,
      command: ctx.clientUi() && cites.length
        ? { title, command: ServiceCommands.showCitations, arguments: [doc.uri, range.start, locationsOf(cites)] }
        : { title, command: '' },
    });
  }
  return out;
}

/**
 * The hover on an entry's key in a bibliography document: how often it is cited and where, and
 * why unused entries are not marked when they are not.
 *
 * @returns undefined off an entry's key, for a file no known document reads, or when cancelled
 */
export async function entryHover(ctx: ServiceContext, scope: CitationScope, doc: TextDocument, position: Position, token: Cancellation = NOT_CANCELLED): Promise<Hover | undefined> {
  const usage = await entryUsage(ctx, scope, doc);
  if (!usage || token.isCancellationRequested || !usage.readers.documents.length || usage.file.text !== doc.getText()) return undefined;
  const hit = entryAt(usage.file, doc.offsetAt(position));
  if (!hit) return undefined;
  const cites = citationsOf(usage, hit.entry);
  const lines = [`${codeSpan(hit.entry.key)} ${escapeMarkdown(citedText(ctx, cites))}`];
  const files = [...new Set(cites.map((c) => c.doc.uri.toString()))];
  if (files.length > 1) lines.push(files.map((f) => `- ${escapeMarkdown(ctx.displayPath(cites.find((c) => c.doc.uri.toString() === f)!.doc.uri))}`).join('\n'));
  const reason = unmarkedReason(ctx, usage);
  if (reason) lines.push(escapeMarkdown(reason));
  return { contents: { kind: MarkupKind.Markdown, value: lines.join('\n\n') }, range: rangeOf(doc, { offset: hit.at, length: hit.entry.key.length }) };
}

/** An entry's citations in a usage (the entry as the usage read it). */
function citationsOf(usage: EntryUsage, entry: BibEntry): { doc: ScopeDocument; cite: CitedKey }[] {
  return usage.citations.get(entry) ?? [];
}
