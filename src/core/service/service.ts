/**
 * The citation language service: everything the editor asks about citations, answered from the
 * corpus and the document's bibliography, whatever the editor. The language server serves it over
 * LSP (`src/server/`); unit tests run it on in-memory workspaces.
 *
 * Positions are LSP positions (line and UTF-16 character, both 0-based); results are LSP types
 * (`vscode-languageserver-types`). Files are read only through the {@link ServiceWorkspace}; the
 * service imports neither `vscode` nor `node:`.
 */
import * as l10n from '@vscode/l10n';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CodeAction, CodeActionKind, CompletionItem, CompletionItemKind, CompletionList, Diagnostic, DiagnosticSeverity,
  Hover, Location, MarkupKind, Position, Range, type Command,
} from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { bibKeyOffset, duplicateKeys, editorText, eolOf, findBibKey, lineColumnAt, parseBib, type BibEntry } from '../bib/bibfile.js';
import {
  BibCache, bibFileOf, inWorkspaceReal, isInside, planBibliographyUpdate, planCitationSync, quartoProject, resolveBibliography, type DocumentBibliography,
} from '../bib/resolve.js';
import { bibFormatOf, planBibAddition, planBibSync, readBibFile } from '../bib/sync.js';
import { toBibtex } from '../cite/bibtex.js';
import { planCitation } from '../cite/insert.js';
import { foldAscii } from '../cite/key.js';
import { citationAt, citationsIn, citedKeys, crossrefSyntaxOf, type CitedKey } from '../citations.js';
import { planLatexBibDeclaration, planMarkdownBibDeclaration } from '../bib/locate.js';
import { citeContextAt, isCitingLanguage, LATEX_LANGUAGES, MARKDOWN_LANGUAGES } from '../context.js';
import type { LatexProject } from '../latex/project.js';
import type { CrossrefSyntax } from '../markdown/crossref.js';
import type { Logger } from '../log.js';
import type { Entry } from '../schema.js';
import { bibEntryMarkdown, entryMarkdown, escapeMarkdown, venueYear } from './present.js';
import {
  DIAGNOSTIC_SOURCE, DiagnosticCodes, ENTRY_SCHEME, NOT_CANCELLED, ServiceCommands, textHash, type BibChange, type Cancellation, type CitePlan, type CorpusView, type DocumentSettings,
  type ServiceWorkspace,
} from './types.js';

/** How many candidates one completion request returns. */
export const COMPLETION_LIMIT = 100;

/** What {@link createCitationService} needs. */
export interface CitationServiceOptions {
  workspace: ServiceWorkspace;
  /** The current corpus and index (asked on every request, so a reloaded corpus counts at once). */
  corpus: () => CorpusView;
  /** The settings in a document's scope. */
  config: (uri: URI) => DocumentSettings | Promise<DocumentSettings>;
  logger: Logger;
  /**
   * Formats entries as references in the configured CSL style, for hovers and completion
   * documentation. Absent or failing: the cards show without it (the formatting commands report why).
   */
  formatReferences?: (entries: readonly Entry[], scope: URI) => Promise<string[]>;
  /** Whether the user marked an entry read. */
  isRead?: (key: string) => boolean;
  /** How many parsed files to keep (default 64). */
  cacheSize?: number;
  /**
   * Whether the editor has our own UI (the VS Code extension): then hovers link to the details
   * page, code actions offer the search for a replacement key, and definitions may point at
   * `mlsys-papers:/<key>.bib`. Other editors get none of these, which they could not open.
   */
  clientUi?: () => boolean;
  /** The workspace's LaTeX project: the roots of a LaTeX file that names none (see `resolveBibliography`). */
  project?: Pick<LatexProject, 'rootsOf' | 'declarationsOf'>;
}

/** The citation language service; see {@link createCitationService}. */
export interface CitationService {
  /** Citation keys at a position inside a LaTeX citation command or a Pandoc citation; undefined elsewhere. */
  complete(doc: TextDocument, position: Position, token?: Cancellation): Promise<CompletionList | undefined>;
  /** Adds the documentation (entry card and formatted reference) to a completion item of {@link complete}. */
  resolveCompletion(item: CompletionItem, token?: Cancellation): Promise<CompletionItem>;
  /** The entry behind the cited key under the cursor, and whether the bibliography has it. */
  hover(doc: TextDocument, position: Position, token?: Cancellation): Promise<Hover | undefined>;
  /** The key's entry in the bibliography file; else the corpus entry's BibTeX at `mlsys-papers:/<key>.bib`. */
  definition(doc: TextDocument, position: Position, token?: Cancellation): Promise<Location | undefined>;
  /** Unknown keys and keys missing from the bibliography (LaTeX, Markdown); duplicate keys (`.bib`). */
  diagnostics(doc: TextDocument, token?: Cancellation): Promise<Diagnostic[]>;
  /** Quick fixes for the service's diagnostics. */
  codeActions(doc: TextDocument, range: Range, diagnostics: readonly Diagnostic[]): CodeAction[];
  /** The BibTeX shown for `mlsys-papers:/<key>.bib`. */
  entryDocument(uri: string): string;
  /**
   * Plans citing corpus entries at a position: the citation's edit, and what the bibliography
   * gains. A work the bibliography has under another key is cited by that key.
   *
   * @param keys - corpus keys; unknown ones are left out
   */
  planCitation(doc: TextDocument, position: Position, keys: readonly string[]): Promise<CitePlan>;
  /** Plans adding corpus entries that the document cites to its bibliography (the "Add to bibliography" fix). */
  planBibliography(doc: TextDocument, keys: readonly string[]): Promise<{ reused: CitePlan['reused']; bibliography: BibChange }>;
  /**
   * Plans adding corpus entries to a given bibliography file in the workspace: the ones it lacks,
   * or a new file with them when it does not exist.
   */
  planInsertion(file: URI, keys: readonly string[]): Promise<BibChange>;
  /**
   * Plans declaring a new bibliography file in a document (`\\bibliography`, `\\addbibresource`,
   * or the front matter's `bibliography:`), in the document's own line ending.
   *
   * @param file - the file's name relative to the document (`references.bib`)
   * @returns the insertions, or undefined for a LaTeX document without `\\end{document}`
   */
  planDeclaration(doc: TextDocument, file: string): { version: number; insertions: { offset: number; text: string }[] } | undefined;
  /** The keys a document cites, in order, each once (ignoring case). */
  citedKeys(doc: TextDocument): string[];
  /** Forgets every cached file (the workspace folders changed). */
  clearCache(): void;
  /** The bibliography files a document declares that exist, readable or not (for `includeDocumentBibliography`). */
  bibliographyFiles(doc: TextDocument): Promise<URI[]>;
}

/** The words a bibliography entry is matched on (key, title, authors, year), kept per parsed entry. */
const entryWords = new WeakMap<BibEntry, string[]>();
function wordsOf(b: BibEntry): string[] {
  let words = entryWords.get(b);
  if (!words) {
    words = [...foldAscii([b.key, b.fields.title, b.fields.author, b.fields.year].join(' ')).split(/[^a-z0-9]+/), foldAscii(b.key)];
    entryWords.set(b, words);
  }
  return words;
}

/** Data kept on a completion item for {@link CitationService.resolveCompletion}. */
interface ItemData {
  key: string;
  uri: string;
}

function rangeOf(doc: TextDocument, c: { offset: number; length: number }): Range {
  return Range.create(doc.positionAt(c.offset), doc.positionAt(c.offset + c.length));
}

/**
 * Creates the citation language service.
 *
 * @param opts - the host: workspace, corpus, settings, logger and optional formatting
 */
export function createCitationService(opts: CitationServiceOptions): CitationService {
  const ws = opts.workspace;
  const log = opts.logger;
  const cache = new BibCache(opts.cacheSize ?? 64);
  const isRead = opts.isRead ?? (() => false);

  /** Paths as the user sees them: relative to the workspace folder that holds the file. */
  const displayPath = (uri: URI): string => {
    const folder = ws.folders.find((f) => isInside(f, uri));
    if (folder) return uri.path.slice(folder.path.replace(/\/$/, '').length + 1);
    return uri.scheme === 'file' ? uri.fsPath : uri.toString(true);
  };

  const bibliographyOf = async (doc: TextDocument): Promise<DocumentBibliography | undefined> => {
    const uri = URI.parse(doc.uri);
    const settings = await opts.config(uri);
    const folder = ws.folders.find((f) => isInside(f, uri));
    return resolveBibliography(ws, { uri, languageId: doc.languageId, text: doc.getText() }, {
      latexRoot: settings.latexRoot || undefined,
      latexRootBase: folder,
      latexRootFromWorkspace: settings.latexRootFromWorkspace,
      cache,
      project: opts.project,
    });
  };

  /**
   * A Markdown document's cross-reference syntax: Quarto's in `.qmd` files and in documents of a
   * Quarto project (with the project's custom types), and what its front matter adds; undefined
   * for other languages.
   */
  const crossrefsOf = async (doc: TextDocument): Promise<CrossrefSyntax | undefined> => {
    if (!MARKDOWN_LANGUAGES.has(doc.languageId)) return undefined;
    const uri = URI.parse(doc.uri);
    const project = await quartoProject(ws, uri, cache);
    const quarto = doc.languageId === 'quarto' || /\.qmd$/i.test(uri.path) || !!project;
    return crossrefSyntaxOf(doc.getText(), { quarto, quartoCustom: project?.crossrefCustom ?? [] });
  };

  const bibEntries = (bib: DocumentBibliography | undefined) =>
    bib?.files.flatMap((s) => s.entries.map((entry) => ({ entry, source: s }))) ?? [];

  const formatted = async (entry: Entry, scope: string): Promise<string | undefined> => {
    if (!opts.formatReferences) return undefined;
    try {
      return (await opts.formatReferences([entry], URI.parse(scope)))[0];
    } catch (e) {
      // A broken custom style is reported by the formatting commands; here the card shows without it.
      log.warn(`formatting ${entry.key} for a hover: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  };

  /** An entry of the corpus or of a library by key. */
  const lookup = (key: string): Entry | undefined => {
    const v = opts.corpus();
    return v.entry ? v.entry(key) : v.corpus.entry(key);
  };

  /** The entries citing `keys` cites (a corpus entry's library twin when there is one), ready to copy. */
  const entriesOf = (keys: readonly string[]): Entry[] => {
    const v = opts.corpus();
    const list = [...new Set(keys.map((k) => (v.toCite ? v.toCite(k) : v.corpus.entry(k))).filter((e): e is Entry => !!e))];
    return v.prepare ? v.prepare(list) : list;
  };

  /** The refusal for a bibliography file that is one of the user's libraries, which we never write. */
  const refuseLibrary = async (uri: URI, keys: readonly string[]): Promise<BibChange | undefined> =>
    (await opts.corpus().isLibrary?.(uri.toString()))
      ? { kind: 'refuse', uri: uri.toString(), message: l10n.t('is one of your libraries (mlsysPapers.libraries), which MLSys Papers never writes to; it was not changed; add {0} to it with your reference manager', keys.join(', ')) }
      : undefined;

  /** Plans adding entries to an existing file, on its open document's text and on its bytes on disk. */
  const insertionInto = async (uri: URI, entries: readonly Entry[], open: { version: number; text: string } | undefined): Promise<BibChange> => {
    const keys = entries.map((e) => e.key);
    let document: { version: number; offset: number; text: string } | undefined;
    if (open) {
      const source = readBibFile(uri.path, open.text);
      const ins = source && planBibAddition(source, entries);
      if (ins) document = { version: open.version, ...ins };
    }
    let disk;
    const raw = ws.readDisk ? await ws.readDisk(uri) : await ws.readText(uri);
    if (typeof raw === 'string') {
      const source = readBibFile(uri.path, raw);
      const ins = source && planBibAddition(source, entries);
      if (ins) disk = { ...ins, length: raw.length, hash: textHash(raw), editorSafe: editorText(raw) === raw };
    }
    if (!document && !disk) {
      const why = raw && typeof raw === 'object' ? l10n.t('is not UTF-8 text, and rewriting it would change its other characters') : l10n.t('has a shape we cannot add to without rewriting it');
      return { kind: 'refuse', uri: uri.toString(), message: l10n.t('{0}; it was not changed; add {1} by hand', why, keys.join(', ')) };
    }
    return { kind: 'insert', uri: uri.toString(), keys, document, disk };
  };

  const openDocument = (uri: URI) => ws.openDocument?.(uri);

  /**
   * A file that gave no text but exists (its bytes are not UTF-8, or it is a folder) must not be
   * created over: the refusal that says why, or undefined when it really does not exist.
   */
  const refuseExisting = async (uri: URI, keys: readonly string[]): Promise<BibChange | undefined> => {
    if (!(await ws.exists(uri))) return undefined;
    const raw = ws.readDisk ? await ws.readDisk(uri) : undefined;
    const why = raw && typeof raw === 'object' ? l10n.t('is not UTF-8 text, and rewriting it would change its other characters') : l10n.t('exists but cannot be read as a file');
    return { kind: 'refuse', uri: uri.toString(), message: l10n.t('{0}; it was not changed; add {1} by hand', why, keys.join(', ')) };
  };

  const planBibliography = async (doc: TextDocument, entries: readonly Entry[]) => {
    const bib = await bibliographyOf(doc);
    // Reused works name their file by URI: a source's `path` is the name it was declared by (an
    // absolute path, or relative to whichever root file declared it first, as cached).
    const sync = planCitationSync(bib && { ...bib, files: bib.files.map((s) => ({ ...s, path: s.uri.toString() })) }, entries);
    const reused = sync.reused.map((r) => ({ key: r.entry.key, citeAs: r.key, title: r.entry.title, file: r.path }));
    const update = await planBibliographyUpdate(ws, bib, sync, { allowOutside: (await opts.config(URI.parse(doc.uri))).allowWritesOutside });
    let bibliography: BibChange;
    // A library is never written, whatever else would have stopped the write.
    const library = update.kind !== 'none' && update.kind !== 'declare' && await refuseLibrary(update.uri, 'entries' in update ? update.entries.map((e) => e.key) : entries.map((e) => e.key));
    if (library) return { reused, bibliography: library, citeAs: sync.citeAs };
    switch (update.kind) {
      case 'none': bibliography = { kind: 'none' }; break;
      case 'declare': bibliography = { kind: 'declare', root: bib!.root.toString(), keys: update.entries.map((e) => e.key) }; break;
      case 'create': {
        const keys = update.entries.map((e) => e.key);
        bibliography = (await refuseExisting(update.uri, keys)) ?? { kind: 'create', uri: update.uri.toString(), text: update.text, keys };
        break;
      }
      case 'refuse':
        bibliography = { kind: 'refuse', uri: update.uri.toString(), message: update.message, line: update.line, column: update.column };
        break;
      case 'append':
        bibliography = await insertionInto(update.uri, update.entries, openDocument(update.uri));
    }
    return { reused, bibliography, citeAs: sync.citeAs };
  };

  return {
    async complete(doc, position, token = NOT_CANCELLED) {
      // The scanners see the whole document, to know whether the cursor is in a comment, verbatim
      // text or an \iffalse block (LaTeX), or in code, math or a comment (Markdown): a few ms for
      // a 300 KB paper.
      const text = doc.getText();
      const ctx = citeContextAt(text, doc.offsetAt(position), doc.languageId, await crossrefsOf(doc));
      if (!ctx) return undefined;
      // In Markdown, only offer keys right after '@' (inside brackets, the user types '@' first).
      if (ctx.syntax === 'pandoc' && text[ctx.keyStart - 1] !== '@') return undefined;
      const view = opts.corpus();
      const { corpus, index } = view;
      const hits = ctx.prefix ? index.search(ctx.prefix, COMPLETION_LIMIT).map((h) => h.entry) : corpus.entries.slice(0, COMPLETION_LIMIT);
      const bib = await bibliographyOf(doc);
      if (token.isCancellationRequested) return undefined;
      // The document's own bibliography: its entries that the corpus does not have, matched on
      // every typed word (prefix of a word of key, title, author or year), come first.
      const words = foldAscii(ctx.prefix).split(/[^a-z0-9]+/).filter(Boolean);
      // A bibliography that is a loaded library is searched through the index instead (it may hold 100,000 entries).
      const own = bibEntries(bib).filter((b) => !view.isLibraryReady?.(b.source.uri.toString())).map((b) => b.entry)
        .filter((b) => !corpus.entry(b.key) && !ctx.existing.includes(b.key))
        .filter((b) => {
          const hay = wordsOf(b);
          return words.every((w) => hay.some((h) => h.startsWith(w)));
        })
        .slice(0, COMPLETION_LIMIT)
        .map((b): CompletionItem => ({
          label: b.key,
          labelDetails: { description: b.fields.year },
          kind: CompletionItemKind.Reference,
          detail: b.fields.title?.replace(/[{}]/g, ''),
          documentation: { kind: MarkupKind.Markdown, value: bibEntryMarkdown(b.key, b.fields) },
        }));
      // The document's own bibliography first, as when it is scanned below: read as a library, its
      // entries are among the hits.
      const declared = new Set(bib?.files.map((f) => f.uri.toString()) ?? []);
      const isOwn = (e: Entry) => !!e.library && declared.has(e.library.uri);
      const ranked = [...hits.filter(isOwn), ...hits.filter((e) => !isOwn(e))];
      const fromCorpus = ranked.map((e) => view.toCite?.(e.key) ?? e).filter((e) => !ctx.existing.includes(e.key)).map((e): CompletionItem => ({
        // A corpus entry with a twin in the user's library is offered under the user's key.
        label: e.key,
        labelDetails: { description: e.library ? [venueYear(e), e.library.name].filter(Boolean).join(' · ') : venueYear(e) },
        kind: CompletionItemKind.Reference,
        detail: e.title,
        data: { key: e.key, uri: doc.uri } satisfies ItemData,
      }));
      const range = Range.create(doc.positionAt(ctx.keyStart), doc.positionAt(ctx.keyEnd));
      const insert = Range.create(doc.positionAt(ctx.keyStart), position);
      const items = [...own, ...fromCorpus].map((item, rank): CompletionItem => ({
        ...item,
        // Our rank decides the order, and the typed text decides nothing more: every item's
        // filter text is exactly what was typed, so the editor's fuzzy filter keeps them all.
        sortText: rank.toString().padStart(4, '0'),
        filterText: ctx.prefix || item.label,
        textEdit: { newText: item.label, insert, replace: range },
      }));
      // Incomplete: the editor asks again on every keystroke, so the ranking follows the text.
      return CompletionList.create(items, true);
    },

    async resolveCompletion(item) {
      const data = item.data as ItemData | undefined;
      if (!data?.key || item.documentation) return item;
      const { corpus } = opts.corpus();
      const entry = lookup(data.key);
      if (!entry) return item;
      let md = entryMarkdown(corpus, entry, { read: isRead(entry.key) });
      const ref = await formatted(entry, data.uri);
      if (ref) md += `\n\n---\n\n${escapeMarkdown(ref)}`;
      return { ...item, documentation: { kind: MarkupKind.Markdown, value: md } };
    },

    async hover(doc, position, token = NOT_CANCELLED) {
      const c = citationAt(doc.getText(), doc.offsetAt(position), doc.languageId, await crossrefsOf(doc));
      if (!c) return undefined;
      const bib = await bibliographyOf(doc);
      if (token.isCancellationRequested) return undefined;
      const own = bibEntries(bib).find((b) => b.entry.key.toLowerCase() === c.key.toLowerCase());
      const { corpus } = opts.corpus();
      const entry = lookup(c.key);
      const where = own ? l10n.t('✓ in {0}', displayPath(own.source.uri))
        : bib?.files.length ? l10n.t('✗ not in {0}', bib.files.map((s) => displayPath(s.uri)).join(', ')) : l10n.t('no bibliography declared');
      let md: string;
      if (entry) {
        md = entryMarkdown(corpus, entry, { read: isRead(entry.key), detailsLink: !!opts.clientUi?.() });
        const ref = await formatted(entry, doc.uri);
        if (ref) md += `\n\n---\n\n${escapeMarkdown(ref)}`;
      } else if (own) {
        md = bibEntryMarkdown(c.key, own.entry.fields);
      } else {
        md = escapeMarkdown(l10n.t('Unknown key {0}', c.key));
      }
      md += `\n\n---\n\n${escapeMarkdown(where)}`;
      return { contents: { kind: MarkupKind.Markdown, value: md }, range: rangeOf(doc, c) };
    },

    async definition(doc, position, token = NOT_CANCELLED) {
      const c = citationAt(doc.getText(), doc.offsetAt(position), doc.languageId, await crossrefsOf(doc));
      if (!c) return undefined;
      const bib = await bibliographyOf(doc);
      if (token.isCancellationRequested) return undefined;
      for (const s of bib?.files ?? []) {
        // The entry as the reader found it (BibTeX uses the first of duplicate keys); else a search of the text.
        const own = s.format === 'bibtex' ? s.entries.find((e) => e.key.toLowerCase() === c.key.toLowerCase()) : undefined;
        const at = own?.start !== undefined ? bibKeyOffset(s.text, own.start) : findBibKey(s.text, c.key);
        if (at >= 0) {
          const { line, column } = lineColumnAt(s.text, at);
          const pos = Position.create(line - 1, column - 1);
          return Location.create(s.uri.toString(), Range.create(pos, pos));
        }
      }
      const library = lookup(c.key)?.library;
      if (library) return Location.create(library.uri, Range.create(library.line - 1, 0, library.line - 1, 0));
      if (opts.clientUi?.() && opts.corpus().corpus.entry(c.key)) return Location.create(URI.from({ scheme: ENTRY_SCHEME, path: `/${c.key}.bib` }).toString(), Range.create(0, 0, 0, 0));
      return undefined;
    },

    async diagnostics(doc, token = NOT_CANCELLED) {
      if (!isCitingLanguage(doc.languageId)) {
        const uri = URI.parse(doc.uri);
        const bibtex = bibFormatOf(uri.path) === 'bibtex';
        if (doc.languageId !== 'bibtex' && !bibtex) return [];
        const text = doc.getText();
        // The workspace's view of this very document: read once for it and for the documents that cite from it.
        const shared = bibtex && ws.openDocument?.(uri)?.version === doc.version
          ? await cache.get(ws, uri, 'bib', (t) => bibFileOf(ws, uri, uri.path, t))
          : undefined;
        const read = shared?.text === text ? shared : parseBib(text);
        const out: Diagnostic[] = [];
        // Duplicate keys, in one pass: each entry knows where it starts (issue 20, finding 8).
        const dups = duplicateKeys(read.entries);
        if (dups.size) {
          for (const e of read.entries) {
            if (!dups.has(e.key.toLowerCase()) || e.start === undefined) continue;
            const start = bibKeyOffset(text, e.start);
            if (start < 0) continue;
            out.push({
              range: rangeOf(doc, { offset: start, length: e.key.length }), severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE,
              code: DiagnosticCodes.duplicate,
              message: l10n.t('Duplicate key "{0}": BibTeX uses the first and ignores the others (keys are case-insensitive).', e.key),
            });
          }
        }
        // The reader's problems (a skipped entry, a field left out), unless the file is a library
        // whose store publishes them already. Not an undefined macro: BibTeX reads a document's
        // databases as one (`\bibliography{abbrev,refs}`), so another file may define it.
        if (!opts.corpus().isLibraryReady?.(uri.toString())) {
          for (const p of read.problems ?? []) {
            if (p.message.startsWith('undefined macro ')) continue;
            const at = Position.create(p.line - 1, p.column - 1);
            out.push({ range: Range.create(at, Position.create(at.line, at.character + 1)), severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE, message: p.message });
          }
        }
        return out;
      }
      // Cross-references written as citations (`@fig-plot` in Quarto) are not citation keys.
      const cited = citationsIn(doc.getText(), doc.languageId, await crossrefsOf(doc));
      const bib = await bibliographyOf(doc);
      if (token.isCancellationRequested) return [];
      const inBib = new Set(bibEntries(bib).map((b) => b.entry.key.toLowerCase()));
      // A BibTeX file with a broken entry is read as BibTeX reads it: the other entries count.
      const readable = bib?.files.filter((s) => !s.error || s.format === 'bibtex') ?? [];
      const bibName = readable.map((s) => displayPath(s.uri)).join(', ');
      // Declared files that are missing or cannot be parsed: the document does declare a bibliography.
      const unreadable = [...(bib?.files.filter((s) => !readable.includes(s)).map((s) => s.uri) ?? []), ...(bib?.missing ?? [])].map(displayPath).join(', ');
      const { corpus } = opts.corpus();
      const out: Diagnostic[] = [];
      const raise = (c: CitedKey, code: string, message: string) =>
        out.push({ range: rangeOf(doc, c), severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE, code, message });
      if (bib?.missingRoot) {
        const m = bib.missingRoot;
        const found = bib.root.toString() === doc.uri ? l10n.t('the document itself') : displayPath(bib.root);
        out.push({
          range: rangeOf(doc, { offset: m.start, length: m.end - m.start }), severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE, code: DiagnosticCodes.missingRoot,
          message: l10n.t('The root file "{0}" named by % !TEX root does not exist; the root used instead is {1}.', m.path, found),
        });
      }
      // Once per broken bibliography, on the first citation (not per citation): the keys it defines elsewhere still count.
      const first = cited[0];
      if (first) {
        for (const s of readable) {
          if (!s.error) continue;
          out.push({
            range: rangeOf(doc, first), severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE,
            message: l10n.t('{0}, line {1}: {2}. The keys of its other entries are checked.', displayPath(s.uri), s.error.line, s.error.message),
          });
        }
      }
      for (const c of cited) {
        if (inBib.has(c.key.toLowerCase())) continue;
        const known = corpus.entry(c.key) ?? lookup(c.key);
        const from = known?.library ? l10n.t('your library {0}', known.library.name) : l10n.t('the MLSys Papers corpus');
        if (!known) {
          // Without a readable bibliography we cannot tell a typo from a key defined elsewhere,
          // unless the corpus does not know it either: then say so.
          raise(c, DiagnosticCodes.unknown, readable.length
            ? l10n.t('Unknown citation key "{0}": not in {1}, nor in the MLSys Papers corpus.', c.key, bibName)
            : unreadable
              ? l10n.t('Unknown citation key "{0}": the MLSys Papers corpus does not know it, and the declared bibliography ({1}) is missing or cannot be read.', c.key, unreadable)
              : l10n.t('Unknown citation key "{0}": the document declares no bibliography and the MLSys Papers corpus does not know it.', c.key));
        } else if (readable.length) {
          raise(c, DiagnosticCodes.notInBib, l10n.t('"{0}" is in {1} but not in {2}.', c.key, from, bibName));
        } else if (bib?.missing.length && !bib.files.length) {
          // Declared but not created yet: the quick fix creates it with the entry.
          raise(c, DiagnosticCodes.notInBib, l10n.t('"{0}" is in {1}; {2} does not exist yet.', c.key, from, bib.missing.map(displayPath).join(', ')));
        }
      }
      return out;
    },

    codeActions(doc, _range, diagnostics) {
      const out: CodeAction[] = [];
      const text = doc.getText();
      for (const d of diagnostics) {
        if (d.source !== DIAGNOSTIC_SOURCE) continue;
        const key = text.slice(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end));
        if (d.code === DiagnosticCodes.notInBib) {
          const title = l10n.t('Add {0} to the bibliography', key);
          const command: Command = { title, command: ServiceCommands.addToBibliography, arguments: [doc.uri, key] };
          out.push({ title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: true, command });
        }
        if (d.code === DiagnosticCodes.unknown && opts.clientUi?.()) {
          const title = l10n.t('Search MLSys Papers for a replacement for {0}', key);
          out.push({ title, kind: CodeActionKind.QuickFix, diagnostics: [d], command: { title, command: ServiceCommands.replaceKey, arguments: [doc.uri, d.range, key] } });
        }
      }
      return out;
    },

    entryDocument(uri) {
      const key = URI.parse(uri).path.replace(/^\//, '').replace(/\.bib$/, '');
      const e = opts.corpus().corpus.entry(key);
      if (!e) return `% MLSys Papers: no entry ${key}\n`;
      return `% ${e.title}\n% From the MLSys Papers corpus. ${e.summary}\n\n${toBibtex(e)}`;
    },

    async planCitation(doc, position, keys) {
      const entries = entriesOf(keys);
      const settings = await opts.config(URI.parse(doc.uri));
      const sync = settings.syncBibliography && isCitingLanguage(doc.languageId);
      const planned = sync ? await planBibliography(doc, entries) : undefined;
      const cited = entries.map((e) => ({ ...e, key: planned?.citeAs.get(e.key) ?? e.key }));
      const ins = planCitation(doc.getText(), doc.offsetAt(position), doc.languageId, cited, settings);
      return {
        version: doc.version,
        edit: ins.added.length ? { offset: ins.offset, length: ins.length, text: ins.text } : undefined,
        added: ins.added,
        reused: planned?.reused ?? [],
        bibliography: planned?.bibliography ?? { kind: 'none' },
      };
    },

    async planBibliography(doc, keys) {
      const { reused, bibliography } = await planBibliography(doc, entriesOf(keys));
      return { reused, bibliography };
    },

    async planInsertion(file, keys) {
      const entries = entriesOf(keys);
      const uri = file.toString();
      if (!(await opts.config(file)).allowWritesOutside && !(await inWorkspaceReal(ws, file))) return { kind: 'refuse', uri, message: l10n.t('is outside the workspace; it was not changed') };
      const library = await refuseLibrary(file, entries.map((e) => e.key));
      if (library) return library;
      const text = await ws.readText(file);
      const source = readBibFile(file.path, text ?? '');
      if (!source) return { kind: 'refuse', uri, message: l10n.t('is not a bibliography format we can write (.bib, .json or .yaml)') };
      if (text === undefined) {
        const refused = await refuseExisting(file, entries.map((e) => e.key));
        if (refused) return refused;
        const ins = planBibAddition(source, entries);
        return ins ? { kind: 'create', uri, text: ins.text, keys: entries.map((e) => e.key) } : { kind: 'refuse', uri, message: l10n.t('cannot be created') };
      }
      if (source.error) {
        return { kind: 'refuse', uri, line: source.error.line, column: source.error.column, message: l10n.t('could not be read at line {0} ({1}); it was not changed', source.error.line, source.error.message) };
      }
      const { add } = planBibSync(entries, [source]);
      if (!add.length) return { kind: 'none' };
      return insertionInto(file, add, openDocument(file));
    },

    planDeclaration(doc, file) {
      const text = doc.getText();
      const eol = eolOf(text) === '\r\n' ? '\r\n' : '\n';
      const insertions = LATEX_LANGUAGES.has(doc.languageId) ? planLatexBibDeclaration(text, file, eol) : [planMarkdownBibDeclaration(text, file, eol)];
      return insertions && { version: doc.version, insertions };
    },

    citedKeys(doc) {
      return citedKeys(doc.getText(), doc.languageId, MARKDOWN_LANGUAGES.has(doc.languageId)
        ? { quarto: doc.languageId === 'quarto' || /\.qmd$/i.test(URI.parse(doc.uri).path) } : undefined);
    },

    clearCache() {
      cache.clear();
    },

    async bibliographyFiles(doc) {
      if (!isCitingLanguage(doc.languageId)) return [];
      const bib = await bibliographyOf(doc);
      // One that does not parse as a whole joins too: the library reader reads its good entries.
      return bib?.files.map((f) => f.uri) ?? [];
    },
  };
}
