/**
 * Find all citations of a key (LSP `textDocument/references`), from a citation or from an entry's
 * key, across the key's scope (`keyOccurrences.ts`): every citation of it in the documents that
 * read the bibliography files that define it, open or not, and (with `includeDeclaration`) those
 * entries' keys.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Location, type Position } from 'vscode-languageserver-types';
import type { CitationScope } from './citationScope.js';
import { entryKeyAt, keyOccurrences, type KeyOccurrences } from './keyOccurrences.js';
import { rangeOf, type ServiceContext } from './serviceContext.js';
import { NOT_CANCELLED, type Cancellation } from './types.js';

/** The locations of a key's citations, document by document in scope order, each in document order. */
export function citationLocations(occ: Pick<KeyOccurrences, 'documents'>): Location[] {
  const out: Location[] = [];
  for (const { doc, cites } of occ.documents) {
    if (!cites.length) continue;
    const td = TextDocument.create(doc.uri.toString(), doc.languageId, doc.version ?? 0, doc.text);
    for (const c of cites) out.push(Location.create(td.uri, rangeOf(td, c)));
  }
  return out;
}

/** The locations of the entries' keys that define a key, file by file. */
export function entryLocations(occ: Pick<KeyOccurrences, 'files'>): Location[] {
  const out: Location[] = [];
  for (const { file, entries } of occ.files) {
    const td = TextDocument.create(file.uri.toString(), 'bibtex', 0, file.text);
    for (const e of entries) {
      const at = entryKeyAt(file.text, e);
      if (at >= 0) out.push(Location.create(td.uri, rangeOf(td, { offset: at, length: e.key.length })));
    }
  }
  return out;
}

/**
 * Every citation of the key under the cursor (and, with `includeDeclaration`, its entries first).
 *
 * @param position - LSP position in a citing document or a bibliography file
 * @returns undefined off a key or when cancelled
 */
export async function references(ctx: ServiceContext, scope: CitationScope, doc: TextDocument, position: Position, includeDeclaration: boolean, token: Cancellation = NOT_CANCELLED): Promise<Location[] | undefined> {
  const occ = await keyOccurrences(ctx, scope, doc, doc.offsetAt(position));
  if (!occ || token.isCancellationRequested) return undefined;
  return [...(includeDeclaration ? entryLocations(occ) : []), ...citationLocations(occ)];
}
