/**
 * The user's libraries in the language server: the files of `mlsysPapers.libraries` (and, with
 * `includeDocumentBibliography`, the bibliographies the open documents declare), each loaded in
 * slices off the editor's thread, cached by its text (hash, length, format; a cache that fails
 * its checks is read again from the file, logged once, and written again), searched beside the corpus, and
 * kept current as the files change. Library files are never written.
 *
 * - **Per file.** A file that changes while it loads cancels and restarts that file's load only;
 *   a changed file reloads that file, not the others. Edits to an open `.bib` re-read only the
 *   entries they touch.
 * - **One catalog.** The loaded libraries are handed to the core's `Catalog` (`core/library/catalog.ts`),
 *   which the citation service and the CLI read: lookup, the same work (one work, one row), search, the
 *   text citing copies.
 * - **Problems** (broken entries, keys defined in an earlier library too) are diagnostics on the
 *   file, with line and column.
 *
 * Its concerns beside the file set and status: loading and the cache in slices
 * (`libraryLoading.ts`), the incremental edit of an open `.bib` (`libraryEdit.ts`), its BibTeX
 * libraries' readings in the citation service's one bibliography cache (`core/bibliography/resolve.ts`'s
 * `BibCache`: a library's `BibFile` is the reading, published after each load and edit, and
 * asked for on the cache's miss), and what the tree reads, groups and fields (`libraryGroups.ts`).
 */
import * as l10n from '@vscode/l10n';
import { Diagnostic, DiagnosticSeverity, Range } from 'vscode-languageserver-types';
import { URI, Utils } from 'vscode-uri';
import type { BibFile } from '../core/bibliography/bibFile.js';
import type { BibReadings } from '../core/bibliography/bibCache.js';
import { fileKind, isBibliography } from '../core/workspace/fileKind.js';
import type { Logger } from '../core/config/logger.js';
import { buildCorpus } from '../core/corpus/model.js';
import type { Entry } from '../core/corpus/schema.js';
import { createSearchIndex } from '../core/search/corpus/corpusIndex.js';
import { Catalog, type CatalogLibrary } from '../core/library/catalog.js';
import type { LibraryProblem } from '../core/bibliography/readBibtex.js';
import { libraryCacheKey, type LibraryTextId } from '../core/library/libraryCacheFormat.js';
import { LibraryLoader, sharedReading, type LoadedLibrary } from '../core/library/loadLibrary.js';
import { DIAGNOSTIC_SOURCE, textHash } from '../core/service/types.js';
import type { LibraryFileStatus, LibraryGroup } from './protocol.js';
import { updateBibtexLibrary } from './libraryEdit.js';
import { GROUP_LIMIT, libraryFields, libraryGroupEntries, libraryGroups } from './libraryGroups.js';
import { restoreSliced, saveSliced, SLICE_MS, type LibraryStoreHost } from './libraryLoading.js';
import { problemMessage } from '../core/text/problemText.js';

export type { LibraryCache, LibraryStoreHost } from './libraryLoading.js';
export { GROUP_LIMIT } from './libraryGroups.js';

/** Status notifications while loading, at most every this many ms. */
const STATUS_EVERY_MS = 250;



interface LibraryFile {
  uri: URI;
  id: string;
  name: string;
  fromDocument: boolean;
  generation: number;
  state: LibraryFileStatus['state'];
  done: number;
  total: number;
  message?: string;
  cached?: boolean;
  text?: string;
  /** The stamp of `text` (`BibWorkspace.stamp`), when known: its reading is published under it. */
  stamp?: string;
  /** Increases whenever `lib` changes in place (an edit read where it changed): a published reading of an older one is void. */
  revision: number;
  lib?: LoadedLibrary;
  /** Problems of the file itself and keys an earlier library defines too. */
  diagnostics: Diagnostic[];
}

/** The store; see the module comment. */
export class LibraryStore implements BibReadings {
  private files = new Map<string, LibraryFile>();
  /** Files that stopped being libraries since the diagnostics were last taken (theirs are cleared). */
  private readonly gone = new Set<string>();
  /** Increases when any library's entries change. */
  version = 0;
  /** Who waits for a file's load under way to end (ready, failed, or the file dropped). */
  private readonly loadWaiters = new Map<LibraryFile, (() => void)[]>();

  /**
   * @param onStatus - the files' status changed (loading progress, done); throttled while loading
   * @param onChanged - a library's entries changed (loaded, reloaded, removed): answers depend on them
   * @param catalog - the corpus plus libraries this store feeds (default: one over an empty corpus,
   *   for a store on its own)
   */
  constructor(
    private readonly log: Logger,
    private readonly host: LibraryStoreHost,
    private readonly onStatus: (files: LibraryFileStatus[]) => void,
    private readonly onChanged: () => void,
    readonly catalog: Catalog = emptyCatalog(),
  ) {}

  /** The status of every library file. */
  status(): LibraryFileStatus[] {
    return [...this.files.values()].map((f) => ({
      uri: f.id, name: f.name, state: f.state, done: f.done, total: f.total,
      entries: f.lib?.entries.length ?? 0, problems: f.lib ? f.lib.file.problems?.length ?? 0 : (f.state === 'error' ? 1 : 0),
      message: f.message, fromDocument: f.fromDocument, cached: f.cached,
    }));
  }

  /** Diagnostics per library file (an empty list for a file whose problems went away, or that is no library any more). */
  diagnostics(): Map<string, Diagnostic[]> {
    const out = new Map<string, Diagnostic[]>([...this.gone].map((id) => [id, []]));
    this.gone.clear();
    for (const f of this.files.values()) out.set(f.id, f.diagnostics);
    return out;
  }

  /** Whether a URI is one of the library files. */
  has(uri: string): boolean {
    return this.files.has(uri);
  }

  /** Whether a URI is a library named by `mlsysPapers.libraries` (never written to). */
  isConfigured(uri: string): boolean {
    const f = this.files.get(uri);
    return !!f && !f.fromDocument;
  }

  /** Library files that are loaded (their entries are searchable). */
  isReady(uri: string): boolean {
    return this.files.get(uri)?.state === 'ready';
  }

  /**
   * Whether an edit of this file's open document is read by the store ({@link documentChanged}),
   * and the change told once read (a loaded library; one loading tells when its load ends); not a
   * library whose load failed, which an edit does not read again.
   */
  followsEdits(uri: string): boolean {
    const state = this.files.get(uri)?.state;
    return state === 'ready' || state === 'loading';
  }

  /**
   * A library's reading of `text`, asked by the bibliography cache before it parses a
   * bibliography file ({@link BibReadings}), so that a file that is both a library and a document's
   * bibliography is parsed once, and an edit of a `.bib` is read again only where it changed: the
   * store's file when it has read exactly `text` or can bring itself there incrementally (an
   * edit of the open document that the edit-pause timer has not passed on yet). A load under way is
   * waited for (in slices, the server keeps answering); a change that needs a full read starts one
   * and waits for it.
   *
   * @param text - the text the service read (the open document's, else the file's on disk)
   * @returns undefined when the file is not a loaded library of this text, or one whose file is
   *   not what `readBibFile` gives (`sharedReading`); else the library's `BibFile`, a BibTeX
   *   entry's `fields` read from the text when first asked for
   */
  async readingOf(uri: URI, text: string): Promise<BibFile | undefined> {
    const id = uri.toString();
    for (let loads = 0; loads < 3; loads++) {
      let f = this.files.get(id);
      while (f?.state === 'loading') {
        await this.loadEnd(f);
        f = this.files.get(id);
      }
      const lib = f?.lib;
      if (!f || f.state !== 'ready' || !lib || f.text === undefined) return undefined;
      if (f.text !== text) {
        // An edit of an open CSL library: the service reads the text itself, in slices; the store
        // follows the edit after its pause. (Loading here would index the whole file per keystroke.)
        if (lib.file.format !== 'bibtex') return undefined;
        if (!this.updateBibtex(f, text)) {
          // A change of @string macros: read in full, in slices, and asked again.
          void this.load(f, { text });
          continue;
        }
      }
      return sharedReading(f.lib!);
    }
    return undefined;
  }

  /**
   * Publishes a BibTeX library's reading of its text under that text's stamp, when known
   * ({@link LibraryStoreHost.publish}); the reading is made only when the service asks, and is
   * void once the library changed again.
   */
  private publish(f: LibraryFile): void {
    const { lib, text, stamp, revision } = f;
    if (!this.host.publish || !lib || text === undefined || stamp === undefined) return;
    const reading = sharedReading(lib);
    if (reading) this.host.publish(f.uri, stamp, () => (this.files.get(f.id) === f && f.lib === lib && f.revision === revision ? reading : undefined));
  }

  /** Resolves when `f`'s load under way ends (ready, failed, or the file dropped): {@link loadEnded} wakes it. */
  private loadEnd(f: LibraryFile): Promise<void> {
    return new Promise<void>((resolve) => this.loadWaiters.set(f, [...(this.loadWaiters.get(f) ?? []), resolve]));
  }

  /** Wakes who waits for `f`'s load ({@link loadEnd}). */
  private loadEnded(f: LibraryFile): void {
    const waiting = this.loadWaiters.get(f);
    if (!waiting) return;
    this.loadWaiters.delete(f);
    for (const wake of waiting) wake();
  }

  /**
   * Sets the library files: new ones start loading, gone ones are dropped, the others stay.
   *
   * @param wanted - URI → whether it joins as an open document's bibliography, in the order the
   *   libraries are looked up in (a key defined by two is taken from the first)
   */
  setFiles(wanted: ReadonlyMap<string, { uri: URI; fromDocument: boolean }>): void {
    let changed = false;
    for (const [id, f] of this.files) {
      if (!wanted.has(id)) this.gone.add(id);
      if (wanted.has(id)) {
        const fromDocument = wanted.get(id)!.fromDocument;
        if (f.fromDocument !== fromDocument) { f.fromDocument = fromDocument; changed = true; }
        continue;
      }
      f.generation++;
      this.files.delete(id);
      this.loadEnded(f);
      changed = true;
      // An open document's bibliography comes and goes with its editors: not worth a line each time.
      if (!f.fromDocument) this.log.info(`library ${f.name}: removed`);
    }
    // In `wanted`'s order: which library a key is taken from does not depend on when each joined.
    if ([...wanted.keys()].filter((id) => this.files.has(id)).join('\n') !== [...this.files.keys()].join('\n')) changed = true;
    const ordered = new Map<string, LibraryFile>();
    const added: LibraryFile[] = [];
    for (const [id, w] of wanted) {
      let file = this.files.get(id);
      if (!file) {
        file = { uri: w.uri, id, name: Utils.basename(w.uri), fromDocument: w.fromDocument, generation: 0, revision: 0, state: 'loading', done: 0, total: 0, diagnostics: [] };
        added.push(file);
      }
      ordered.set(id, file);
    }
    this.files = ordered;
    for (const file of added) void this.load(file);
    if (changed) this.afterChange();
    this.onStatus(this.status());
  }

  /** A library file changed on disk: that file is read again (a load under way restarts). */
  fileChanged(uri: string): void {
    const f = this.files.get(uri);
    if (f) void this.load(f);
  }

  /**
   * Reads a library again if its file changed since it was read: a change no watcher reported
   * (written after the read and before the client's watcher on it was in place). A load under way
   * is waited for first; a library that is an open document follows its edits instead.
   */
  async recheck(uri: string): Promise<void> {
    const f = this.files.get(uri);
    if (!f || !this.host.stamp) return;
    while (f.state === 'loading') await this.loadEnd(f);
    const read = f.stamp;
    const generation = f.generation;
    if (this.files.get(uri) !== f || read === undefined || read.startsWith('v')) return;
    const now = await this.host.stamp(f.uri);
    // Unless another load started meanwhile (it reads the file as it is now).
    if (this.files.get(uri) === f && f.generation === generation && now !== read) {
      this.log.info(`library ${f.name}: changed before it was watched; reading it again`);
      void this.load(f);
    }
  }

  /** Loads a file (from `given` when given: its open document's text, and its stamp when known), cancelling a load under way. */
  private async load(f: LibraryFile, given?: { text: string; stamp?: string }): Promise<void> {
    const generation = ++f.generation;
    const current = () => f.generation === generation && this.files.get(f.id) === f;
    f.state = 'loading';
    f.done = 0;
    f.total = 0;
    f.cached = false;
    this.onStatus(this.status());
    const started = this.host.now();
    const kind = fileKind(f.uri);
    const format = isBibliography(kind) ? kind : undefined;
    const fail = (message: string) => {
      if (!current()) return;
      f.state = 'error';
      f.message = message;
      f.lib = undefined;
      f.text = undefined;
      f.stamp = undefined;
      f.diagnostics = [Diagnostic.create(Range.create(0, 0, 0, 0), message, DiagnosticSeverity.Error, undefined, DIAGNOSTIC_SOURCE)];
      this.log.warn(`library ${f.name}: ${message}`);
      this.afterChange();
      this.loadEnded(f);
    };
    if (!format) return fail(l10n.t('is not a library format (.bib, .json or .yaml); not read'));
    const r = given ?? await this.host.read(f.uri);
    if (!current()) return;
    if (!('text' in r)) return fail(l10n.t('cannot be read: {0}', r.problem));
    // Kept without its byte-order mark, as an editor's document and the citation service have it:
    // an edit then compares as the change it is, not as one at offset 0 (which reads every entry
    // before it again).
    const text = r.text.charCodeAt(0) === 0xfeff ? r.text.slice(1) : r.text;
    // The cache is of this text read as this format (a file renamed from .json to .bib is read again).
    const textId: LibraryTextId = { hash: this.host.hash ? this.host.hash(text) : textHash(text), length: text.length, format };
    const key = libraryCacheKey(textId);
    const ref = { uri: f.id, name: f.name };
    let lib: LoadedLibrary | undefined;
    const saved = await this.host.cache?.get(key).catch((e: unknown) => { this.log.warn(`library cache: ${String(e)}`); return undefined; });
    if (!current()) return;
    if (saved) {
      const restored = await restoreSliced(this.host, this.log, saved, ref, textId, text, (done, total) => { f.done = done; f.total = total; }, current);
      if (!restored) return;
      if ('lib' in restored) {
        lib = restored.lib;
        f.cached = true;
      } else {
        // Logged once: the file is read, and its cache written again (the same key).
        this.log.info(`library ${f.name}: the cached copy is not used (${restored.miss}); reading the file`);
      }
    }
    if (!lib) {
      let loader: LibraryLoader;
      try {
        loader = new LibraryLoader(text, format, ref);
      } catch (e) {
        return fail(l10n.t('cannot be read: {0}', e instanceof Error ? e.message : String(e)));
      }
      let lastStatus = this.host.now();
      for (;;) {
        const until = this.host.now() + SLICE_MS;
        let done: boolean;
        try {
          done = loader.step(() => this.host.now() > until);
        } catch (e) {
          // A defect of ours, not of the file: logged with its cause, the file reported.
          this.log.error(e instanceof Error ? e : String(e));
          return fail(l10n.t('cannot be read: {0}', e instanceof Error ? e.message : String(e)));
        }
        const p = loader.progress;
        f.done = p.phase === 'read' ? p.done : p.total;
        f.total = p.total;
        if (done) break;
        if (this.host.now() - lastStatus > STATUS_EVERY_MS) { lastStatus = this.host.now(); this.onStatus(this.status()); }
        await this.host.yield();
        if (!current()) return;
      }
      lib = loader.result();
      if (this.host.cache) void saveSliced(this.host, this.log, f.name, this.host.cache, key, textId, lib, () => current() && f.lib === lib && f.text === text);
    }
    if (!current()) return;
    f.text = text;
    f.stamp = r.stamp;
    f.revision++;
    f.lib = lib;
    f.state = 'ready';
    f.message = undefined;
    f.done = f.total = lib.entries.length;
    this.publish(f);
    this.afterChange();
    this.loadEnded(f);
    const problems = lib.file.problems?.length ?? 0;
    if (!f.fromDocument || problems) {
      this.log.info(`library ${f.name}: ${lib.entries.length} entries, ${problems} problem(s), ${f.cached ? 'from the cache' : 'read'} in ${Math.round(this.host.now() - started)} ms`);
    }
  }

  /**
   * The open document of a library changed: the entries it touches are read again (BibTeX;
   * other formats, and a change to an `@string`, read the whole text again).
   *
   * @param stamp - the stamp of `text` (`v` and the document's version), under which its reading is published
   */
  documentChanged(uri: string, text: string, stamp?: string): void {
    const f = this.files.get(uri);
    if (!f || f.state !== 'ready' || !f.lib || f.text === undefined || f.text === text) return;
    if (f.lib.file.format !== 'bibtex' || !this.updateBibtex(f, text, stamp)) {
      void this.load(f, { text, stamp });
    }
  }

  /**
   * Incremental update of a loaded BibTeX library (`libraryEdit.ts`), published under `stamp` when
   * known; false when the change needs a full read.
   */
  private updateBibtex(f: LibraryFile, text: string, stamp?: string): boolean {
    const lib = f.lib!;
    const r = updateBibtexLibrary(lib, f.text!, text, { uri: f.id, name: f.name });
    if (!r) return false;
    const { removed, added } = r;
    f.text = text;
    f.stamp = stamp;
    f.revision++;
    f.done = f.total = lib.entries.length;
    this.publish(f);
    this.catalog.libraryChanged(lib);
    this.afterChange();
    if (!f.fromDocument) this.log.info(`library ${f.name}: ${removed.length} entr${removed.length === 1 ? 'y' : 'ies'} read again as ${added.length}`);
    return true;
  }

  /** The loaded libraries, in order, as the catalog reads them. */
  private catalogLibraries(): CatalogLibrary[] {
    const out: CatalogLibrary[] = [];
    for (const f of this.files.values()) if (f.lib) out.push({ id: f.id, name: f.name, lib: f.lib, text: f.text, named: !f.fromDocument });
    return out;
  }

  /** Hands the catalog the libraries, recomputes the diagnostics (own problems, duplicate keys) and tells the server. */
  private afterChange(): void {
    this.version++;
    this.catalog.setLibraries(this.catalogLibraries());
    const duplicates = new Map<string, Diagnostic[]>();
    for (const d of this.catalog.duplicateKeys()) {
      const line = d.entry.library!.line - 1;
      const list = duplicates.get(d.library.id) ?? [];
      list.push(Diagnostic.create(Range.create(line, 0, line, 0), l10n.t('Duplicate key "{0}": {1} defines it too, and that one is used.', d.entry.key, d.earlier.name), DiagnosticSeverity.Warning, 'duplicate-key', DIAGNOSTIC_SOURCE));
      duplicates.set(d.library.id, list);
    }
    for (const f of this.files.values()) {
      if (!f.lib) continue;
      const own: Diagnostic[] = (f.lib.file.problems ?? []).map((q: LibraryProblem) => Diagnostic.create(Range.create(q.line - 1, q.column - 1, q.line - 1, q.column - 1 + 1),
        problemMessage(q), q.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning, undefined, DIAGNOSTIC_SOURCE));
      f.diagnostics = [...own, ...(duplicates.get(f.id) ?? [])];
    }
    this.onChanged();
    this.onStatus(this.status());
  }

  /** A library entry by key (ignoring case): the first library's that has it (`Catalog.libraryEntry`). */
  entry(key: string): Entry | undefined {
    return this.catalog.libraryEntry(key);
  }

  /** All fields of a library entry as written (macros expanded), for the details page. */
  fields(e: Entry): Record<string, string> | undefined {
    const f = e.library && this.files.get(e.library.uri);
    return libraryFields(e, f?.lib);
  }

  /** The groups of a library for the tree (`libraryGroups.ts`). */
  groups(uri: string): LibraryGroup[] | undefined {
    const lib = this.files.get(uri)?.lib;
    return lib && libraryGroups(lib);
  }

  /** The entries of a group, newest first, at most {@link GROUP_LIMIT}; and how many there are. */
  groupEntries(uri: string, group: string): { entries: Entry[]; total: number } | undefined {
    const lib = this.files.get(uri)?.lib;
    return lib && libraryGroupEntries(lib, group);
  }
}

/** A catalog over an empty corpus, for a store on its own (tests, a server before its corpus). */
function emptyCatalog(): Catalog {
  const corpus = buildCorpus({ topics: [], entries: [] });
  return new Catalog({ corpus, get index() { return createSearchIndex(corpus); } });
}
