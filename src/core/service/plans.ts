/**
 * The service's edit plans: citing entries at a position, adding them to a document's
 * bibliography or to a given file, and declaring a new bibliography file. Plans only: the host
 * applies them (the server as a workspace edit, the CLI on disk), and every insertion into a file
 * is `planBibAddition`'s, byte-preserving. A library file is never written (a refusal says so).
 */
import * as l10n from '@vscode/l10n';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { editorText, eolOf } from '../bibliography/bibtexFile.js';
import { planLatexBibDeclaration } from '../latex/bibDeclarations.js';
import { planMarkdownBibDeclaration } from '../markdown/frontMatter.js';
import { inWorkspaceReal } from '../workspace/paths.js';
import { planBibAddition, planBibSync } from '../bibliography/planAdditions.js';
import { readBibFile } from '../bibliography/bibFile.js';
import { planCitation } from '../cite/insert.js';
import { applySplices } from '../bibliography/fileEdit.js';
import { fileKind, isCiting } from '../workspace/fileKind.js';
import type { Entry } from '../corpus/schema.js';
import { writesOutsideAllowed } from '../config/settings.js';
import { planDocumentBibliography } from './bibliographyPlan.js';
import type { ServiceContext } from './serviceContext.js';
import { textHash, type BibChange, type CitePlan } from './types.js';
import { textOf } from '../text/problemText.js';

/** The refusal for a bibliography file that is one of the user's libraries, which we never write. */
async function refuseLibrary(ctx: ServiceContext, uri: URI, keys: readonly string[]): Promise<BibChange | undefined> {
  return (await ctx.opts.corpus().isLibrary(uri.toString())) ? { kind: 'refuse', uri: uri.toString(), reason: 'library', keys } : undefined;
}

/**
 * Plans adding entries to an existing bibliography file, once per text it may be written from:
 * the open document's text (`open`) and the bytes on disk (`disk`: the text, or a non-string for
 * bytes that are not UTF-8, or undefined when unread). The one insertion planner of every host:
 * the language server applies `document` or `disk`, the CLI's `sync` writes `disk`.
 *
 * @param uri - the file (its extension picks the format)
 * @returns `insert` with the insertion on each text it could be planned on (UTF-16 offsets), or
 *   `refuse` (`not-utf8`, `unsafe`) when neither
 */
export function planInsertionInto(uri: URI, entries: readonly Entry[], open: { version: number; text: string } | undefined, disk: string | object | undefined): BibChange {
  const keys = entries.map((e) => e.key);
  // The one insertion an addition's plan is (`planBibAddition`: one splice of length 0).
  const plan = (text: string) => {
    const source = readBibFile(uri.path, text);
    const planned = source && planBibAddition(source, entries);
    const splice = planned && 'splices' in planned ? planned.splices[0] : undefined;
    return splice && { offset: splice.offset, text: splice.text };
  };
  const inOpen = open && plan(open.text);
  const inDisk = typeof disk === 'string' ? plan(disk) : undefined;
  if (!inOpen && !inDisk) return { kind: 'refuse', uri: uri.toString(), reason: disk && typeof disk === 'object' ? 'not-utf8' : 'unsafe', keys };
  return {
    kind: 'insert', uri: uri.toString(), keys,
    document: inOpen && { version: open.version, ...inOpen },
    disk: inDisk && typeof disk === 'string' ? { ...inDisk, length: disk.length, hash: textHash(disk), editorSafe: editorText(disk) === disk } : undefined,
  };
}

/** Plans adding entries to an existing file, on its open document's text and on its bytes on disk. */
async function insertionInto(ctx: ServiceContext, uri: URI, entries: readonly Entry[]): Promise<BibChange> {
  return planInsertionInto(uri, entries, ctx.ws.openDocument(uri), await ctx.ws.readDisk(uri));
}

/**
 * A file that gave no text but exists (its bytes are not UTF-8, it is over the size cap, or it is
 * not a regular file: a folder, a device, a pipe, a link that leads to nothing) must not be
 * created over: the refusal that says why, or undefined when it really does not exist.
 */
async function refuseExisting(ctx: ServiceContext, uri: URI, keys: readonly string[]): Promise<BibChange | undefined> {
  const { ws } = ctx;
  if (!(await ws.exists(uri))) return undefined;
  const raw = await ws.readDisk(uri);
  // No stamp: not a regular file (a folder, a device, a pipe, a link that leads to nothing); else a file we do not read (over the cap).
  const reason = raw && typeof raw === 'object' ? 'not-utf8' : (await ws.stamp(uri)) === undefined ? 'not-regular' : 'not-a-file';
  return { kind: 'refuse', uri: uri.toString(), reason, keys };
}

/** Plans adding `entries` to the document's bibliography, as a {@link BibChange}, with the keys to cite them by. */
async function planBibliography(ctx: ServiceContext, doc: TextDocument, entries: readonly Entry[]) {
  const uri = URI.parse(doc.uri);
  const { bib, sync, update } = await planDocumentBibliography(ctx.ws, { uri, languageId: doc.languageId, text: doc.getText() }, entries, await ctx.resolveOptions(uri));
  const reused = sync.reused.map((r) => ({ key: r.entry.key, citeAs: r.key, title: r.entry.title, file: r.path }));
  let bibliography: BibChange;
  // A library is never written, whatever else would have stopped the write.
  const library = update.kind !== 'none' && update.kind !== 'declare' && await refuseLibrary(ctx, update.uri, 'entries' in update ? update.entries.map((e) => e.key) : entries.map((e) => e.key));
  if (library) return { reused, bibliography: library, citeAs: sync.citeAs };
  switch (update.kind) {
    case 'none': bibliography = { kind: 'none' }; break;
    case 'declare': bibliography = { kind: 'declare', root: bib!.root.toString(), keys: update.entries.map((e) => e.key) }; break;
    case 'create': {
      const keys = update.entries.map((e) => e.key);
      bibliography = (await refuseExisting(ctx, update.uri, keys)) ?? { kind: 'create', uri: update.uri.toString(), text: update.text, keys };
      break;
    }
    case 'refuse': {
      // A declared file that is there but gives no text: why (not UTF-8, or no file).
      const { kind, uri, entries: _, ...refusal } = update;
      bibliography = (update.reason === 'not-a-file' ? await refuseExisting(ctx, uri, update.keys) : undefined) ?? { kind, uri: uri.toString(), ...refusal };
      break;
    }
    case 'append':
      bibliography = await insertionInto(ctx, update.uri, update.entries);
  }
  return { reused, bibliography, citeAs: sync.citeAs };
}

/**
 * Plans citing corpus entries at a position: the citation's edit, and what the bibliography
 * gains when the setting `syncBibliography` is on. A work the bibliography has under another key
 * is cited by that key.
 *
 * @param position - LSP position (0-based line, UTF-16 character)
 * @param keys - corpus keys; unknown ones are left out
 */
export async function planCitationAt(ctx: ServiceContext, doc: TextDocument, position: Position, keys: readonly string[]): Promise<CitePlan> {
  const entries = ctx.entriesOf(keys);
  const { settings } = await ctx.opts.config(URI.parse(doc.uri));
  const sync = settings.syncBibliography && isCiting(fileKind(URI.parse(doc.uri), doc.languageId));
  const planned = sync ? await planBibliography(ctx, doc, entries) : undefined;
  const cited = entries.map((e) => ({ ...e, key: planned?.citeAs.get(e.key) ?? e.key }));
  const ins = planCitation(doc.getText(), doc.offsetAt(position), doc.languageId, cited, settings);
  return {
    version: doc.version,
    edit: ins.added.length ? { offset: ins.offset, length: ins.length, text: ins.text } : undefined,
    added: ins.added,
    reused: planned?.reused ?? [],
    bibliography: planned?.bibliography ?? { kind: 'none' },
  };
}

/**
 * Plans adding corpus entries that the document cites to its bibliography (the "Add to
 * bibliography" fix).
 *
 * @param keys - corpus keys; unknown ones are left out
 */
export async function planBibliographyAddition(ctx: ServiceContext, doc: TextDocument, keys: readonly string[]): Promise<{ reused: CitePlan['reused']; bibliography: BibChange }> {
  const { reused, bibliography } = await planBibliography(ctx, doc, ctx.entriesOf(keys));
  return { reused, bibliography };
}

/**
 * Plans adding corpus entries to a given bibliography file: the ones it lacks, or a new file with
 * them when it does not exist. Refused: a file outside the workspace (unless the user's
 * `allowWritesOutsideWorkspace` allows it: `writesOutsideAllowed`), a library, a format we cannot write, an unreadable file.
 *
 * @param keys - corpus keys; unknown ones are left out
 */
export async function planInsertion(ctx: ServiceContext, file: URI, keys: readonly string[]): Promise<BibChange> {
  const { ws } = ctx;
  const entries = ctx.entriesOf(keys);
  const uri = file.toString();
  if (!writesOutsideAllowed(await ctx.opts.config(file)) && !(await inWorkspaceReal(ws, file))) return { kind: 'refuse', uri, reason: 'outside-workspace', keys: [] };
  const library = await refuseLibrary(ctx, file, entries.map((e) => e.key));
  if (library) return library;
  const text = await ws.readText(file);
  const source = readBibFile(file.path, text ?? '');
  if (!source) return { kind: 'refuse', uri, reason: 'format', keys: [] };
  if (text === undefined) {
    const refused = await refuseExisting(ctx, file, entries.map((e) => e.key));
    if (refused) return refused;
    const ins = planBibAddition(source, entries);
    return 'splices' in ins ? { kind: 'create', uri, text: applySplices('', ins.splices), keys: entries.map((e) => e.key) } : { kind: 'refuse', uri, reason: 'cannot-create', keys: [] };
  }
  if (source.error) {
    return { kind: 'refuse', uri, reason: 'unreadable', keys: [], line: source.error.line, column: source.error.column, detail: textOf(source.error) };
  }
  const { add } = planBibSync(entries, [source]);
  if (!add.length) return { kind: 'none' };
  return insertionInto(ctx, file, add);
}

/**
 * Plans declaring a new bibliography file in a document (`\\bibliography`, `\\addbibresource`,
 * or the front matter's `bibliography:`), in the document's own line ending.
 *
 * @param file - the file's name relative to the document (`references.bib`)
 * @returns the insertions (UTF-16 offsets into the document at `version`), or undefined for a
 *   LaTeX document without `\\end{document}`
 */
export function planDeclaration(doc: TextDocument, file: string): { version: number; insertions: { offset: number; text: string }[] } | undefined {
  const text = doc.getText();
  const eol = eolOf(text) === '\r\n' ? '\r\n' : '\n';
  const insertions = fileKind(URI.parse(doc.uri), doc.languageId) === 'latex' ? planLatexBibDeclaration(text, file, eol) : [planMarkdownBibDeclaration(text, file, eol)];
  return insertions && { version: doc.version, insertions };
}
