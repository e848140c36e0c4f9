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
 * - **One work, one row.** A library entry that is a corpus entry's work (same DOI, arXiv id, or
 *   normalised title and year) is that entry's twin: the search shows the corpus row, and citing
 *   it cites the user's key (unless `preferCorpusKeys`).
 * - **Problems** (broken entries, keys defined in an earlier library too) are diagnostics on the
 *   file, with line and column.
 */
import * as l10n from '@vscode/l10n';
import { Diagnostic, DiagnosticSeverity, Range } from 'vscode-languageserver-types';
import { URI, Utils } from 'vscode-uri';
import { STRING_COMMAND, type BibEntry, type ParsedBib } from '../core/bib/bibfile.js';
import { bibFormatOf } from '../core/bib/sync.js';
import type { Logger } from '../core/log.js';
import type { Corpus } from '../core/model.js';
import type { Entry } from '../core/schema.js';
import type { ParsedQuery, SearchHit } from '../core/search.js';
import { BibtexLibraryReader, readEntryAt, type LibraryProblem } from '../core/library/bibtex.js';
import { entryFromBibtex } from '../core/library/entries.js';
import { libraryCacheKey, libraryJsonPieces, LibraryLoader, LibraryRestorer, type LibraryTextId, type LoadedLibrary, type RestoreResult } from '../core/library/load.js';
import { corpusWorks, twinKey } from '../core/library/twins.js';
import { prepareEntry } from '../core/library/verbatim.js';
import { DIAGNOSTIC_SOURCE, textHash } from '../core/service/types.js';
import { UNGROUPED, type LibraryFileStatus, type LibraryGroup } from './protocol.js';

/**
 * A cache of loaded libraries, by key (`libraryCacheKey`; the host decides where: the extension's
 * global storage, `~/.cache/mlsys-papers`). What it gives back is checked before it is used.
 */
export interface LibraryCache {
  /** The value saved under a key; undefined when there is none, or it cannot be read (the host reports why). */
  get(key: string): Promise<string | undefined>;
  /**
   * Saves a value: whole, or in pieces that come as they are made (stored in order, joined; when
   * the pieces throw, nothing is saved and `set` rejects with that error).
   */
  set(key: string, value: string | AsyncIterable<string>): Promise<void>;
}

/** What the store needs from the server. */
export interface LibraryStoreHost {
  /** The file's text (a byte-order mark kept: the store drops it), or why it cannot be read. */
  read(uri: URI): Promise<{ text: string } | { problem: string }>;
  /** A hash of a text for the cache key (Node: SHA-256); absent: FNV-1a (the key holds the text's length and format too). */
  hash?(text: string): string;
  cache?: LibraryCache;
  /** Lets other work run (a macrotask). */
  yield(): Promise<void>;
  /** Milliseconds, for slicing. */
  now(): number;
}

/** Work per slice before other requests get their turn (ms). */
const SLICE_MS = 12;

/** Status notifications while loading, at most every this many ms. */
const STATUS_EVERY_MS = 250;

/** Entries one group of the tree lists at most. */
export const GROUP_LIMIT = 1000;


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
  lib?: LoadedLibrary;
  /** Problems of the file itself and keys an earlier library defines too. */
  diagnostics: Diagnostic[];
  /** Twins: library entry → corpus key. */
  twins?: Map<Entry, string>;
}

/**
 * A library entry as `parseBib` gives it: key, entry type and fields (names in lower case, macros
 * expanded), the fields read from the entry's text when first asked for.
 */
function bibEntryAt(e: Entry, text: string, start: number, end: number, macros: Readonly<Record<string, string>>): BibEntry {
  let fields: Record<string, string> | undefined;
  return {
    key: e.key,
    type: (e.library?.sourceType ?? e.type).toLowerCase(),
    start,
    line: e.library?.line,
    get fields() {
      fields ??= Object.fromEntries(Object.entries(readEntryAt(text, start, end, macros)?.properties ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      return fields;
    },
  };
}

/** The store; see the module comment. */
export class LibraryStore {
  private files = new Map<string, LibraryFile>();
  /** Files that stopped being libraries since the diagnostics were last taken (theirs are cleared). */
  private readonly gone = new Set<string>();
  private corpusIds = new Map<string, string>();
  /** Corpus key (lower case) → its twin in a library. */
  private twinOf = new Map<string, Entry>();
  /** Increases when any library's entries change. */
  version = 0;
  /** Who waits for a file's load under way to end (ready, failed, or the file dropped). */
  private readonly loadWaiters = new Map<LibraryFile, (() => void)[]>();
  /** Whether citing a corpus entry with a library twin cites the corpus key (`mlsysPapers.preferCorpusKeys`). */
  preferCorpusKeys = false;

  /**
   * @param onStatus - the files' status changed (loading progress, done); throttled while loading
   * @param onChanged - a library's entries changed (loaded, reloaded, removed): answers depend on them
   */
  constructor(
    private readonly log: Logger,
    private readonly host: LibraryStoreHost,
    private readonly onStatus: (files: LibraryFileStatus[]) => void,
    private readonly onChanged: () => void,
  ) {}

  /** The status of every library file. */
  status(): LibraryFileStatus[] {
    return [...this.files.values()].map((f) => ({
      uri: f.id, name: f.name, state: f.state, done: f.done, total: f.total,
      entries: f.lib?.entries.length ?? 0, problems: f.lib?.problems.length ?? (f.state === 'error' ? 1 : 0),
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
   * A BibTeX library's entries as the citation service reads a document's `.bib` (`parseBib`), so
   * that a file that is both a library and a document's bibliography is parsed once, and an edit
   * of it is read again only where it changed: the store's entries when it has read exactly
   * `text` or can bring itself there incrementally (an edit of the open document that the
   * edit-pause timer has not passed on yet). A load under way is waited for (in slices, the server
   * keeps answering); a change that needs a full read starts one and waits for it.
   *
   * @param uri - the file's URI, as the store keys it
   * @param text - the text the service read (the open document's, else the file's on disk)
   * @returns undefined when the file is not a loaded BibTeX library of this text; else what
   *   `parseBib` gives (the same one reader): the entries that read, the problems, the first error;
   *   each entry's `fields` are read from the text when first asked for
   */
  async parsedBib(uri: string, text: string): Promise<ParsedBib | undefined> {
    for (let loads = 0; loads < 3; loads++) {
      let f = this.files.get(uri);
      while (f?.state === 'loading') {
        const waiting = f;
        await new Promise<void>((resolve) => this.loadWaiters.set(waiting, [...(this.loadWaiters.get(waiting) ?? []), resolve]));
        f = this.files.get(uri);
      }
      const lib = f?.lib;
      if (!f || f.state !== 'ready' || !lib || lib.format !== 'bibtex' || f.text === undefined) return undefined;
      if (f.text !== text && !this.updateBibtex(f, text)) {
        // A change of @string macros: read in full, in slices, and asked again.
        void this.load(f, text);
        continue;
      }
      const spans = lib.spans!;
      const macros = lib.macros ?? {};
      const read = f.text;
      const first = lib.problems.find((p) => p.severity === 'error');
      return {
        entries: lib.entries.map((e, i) => bibEntryAt(e, read, spans[2 * i]!, spans[2 * i + 1]!, macros)),
        problems: lib.problems,
        ...(first ? { error: { line: first.line, column: first.column, message: first.message } } : {}),
      };
    }
    return undefined;
  }

  /** Wakes who waits for `f`'s load ({@link parsedBib}). */
  private loadEnded(f: LibraryFile): void {
    const waiting = this.loadWaiters.get(f);
    if (!waiting) return;
    this.loadWaiters.delete(f);
    for (const wake of waiting) wake();
  }

  /**
   * Sets the library files: new ones start loading, gone ones are dropped, the others stay.
   *
   * @param wanted - URI → whether it joins as an open document's bibliography
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
    for (const [id, w] of wanted) {
      if (this.files.has(id)) continue;
      const name = Utils.basename(w.uri);
      const file: LibraryFile = { uri: w.uri, id, name, fromDocument: w.fromDocument, generation: 0, state: 'loading', done: 0, total: 0, diagnostics: [] };
      this.files.set(id, file);
      void this.load(file);
    }
    if (changed) this.afterChange();
    this.onStatus(this.status());
  }

  /** A library file changed on disk: that file is read again (a load under way restarts). */
  fileChanged(uri: string): void {
    const f = this.files.get(uri);
    if (f) void this.load(f);
  }

  /** The corpus changed: twins are found again. */
  setCorpus(corpus: Corpus): void {
    this.corpusIds = corpusWorks(corpus);
    for (const f of this.files.values()) this.findTwins(f);
    this.rebuildTwins();
  }

  /** Loads a file (from `text` when given: its open document's), cancelling a load under way. */
  private async load(f: LibraryFile, given?: string): Promise<void> {
    const generation = ++f.generation;
    const current = () => f.generation === generation && this.files.get(f.id) === f;
    f.state = 'loading';
    f.done = 0;
    f.total = 0;
    f.cached = false;
    this.onStatus(this.status());
    const started = this.host.now();
    const format = bibFormatOf(f.uri.path);
    const fail = (message: string) => {
      if (!current()) return;
      f.state = 'error';
      f.message = message;
      f.lib = undefined;
      f.text = undefined;
      f.diagnostics = [Diagnostic.create(Range.create(0, 0, 0, 0), message, DiagnosticSeverity.Error, undefined, DIAGNOSTIC_SOURCE)];
      this.log.warn(`library ${f.name}: ${message}`);
      this.afterChange();
      this.loadEnded(f);
    };
    if (!format) return fail(l10n.t('is not a library format (.bib, .json or .yaml); not read'));
    const r = given === undefined ? await this.host.read(f.uri) : { text: given };
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
      const restored = await this.restore(f, saved, ref, textId, current);
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
      if (this.host.cache) void this.save(f, this.host.cache, key, textId, lib, () => current() && f.lib === lib && f.text === text);
    }
    if (!current()) return;
    f.text = text;
    f.lib = lib;
    f.state = 'ready';
    f.message = undefined;
    f.done = f.total = lib.entries.length;
    this.findTwins(f);
    this.afterChange();
    this.loadEnded(f);
    if (!f.fromDocument || lib.problems.length) {
      this.log.info(`library ${f.name}: ${lib.entries.length} entries, ${lib.problems.length} problem(s), ${f.cached ? 'from the cache' : 'read'} in ${Math.round(this.host.now() - started)} ms`);
    }
  }

  /**
   * Restores a cached library in slices of {@link SLICE_MS} (at 100,000 entries the JSON is tens of
   * megabytes: parsed at once it held every request for most of a second).
   *
   * @returns the library or why the cache is not used; undefined when the load was cancelled meanwhile
   */
  private async restore(f: LibraryFile, saved: string, ref: { uri: string; name: string }, textId: LibraryTextId, current: () => boolean): Promise<RestoreResult | undefined> {
    const restorer = new LibraryRestorer(saved, ref, textId);
    for (;;) {
      const until = this.host.now() + SLICE_MS;
      try {
        if (restorer.step(() => this.host.now() > until)) return restorer.result();
      } catch (e) {
        // A defect of ours, not of the cache (the restorer turns every fault of the cache into a
        // miss): logged with its cause, and the file read instead.
        this.log.error(e instanceof Error ? e : String(e));
        return { miss: 'not restored' };
      }
      const p = restorer.progress;
      f.done = p.done;
      f.total = p.total;
      await this.host.yield();
      if (!current()) return undefined;
    }
  }

  /**
   * Saves a loaded library to the cache in slices of {@link SLICE_MS} between other work (at
   * 100,000 entries the JSON is tens of megabytes), while it is `unchanged()`: an edit or a reload
   * cancels the save (the cache is keyed by the text that was loaded).
   */
  private async save(f: LibraryFile, cache: LibraryCache, key: string, textId: LibraryTextId, lib: LoadedLibrary, unchanged: () => boolean): Promise<void> {
    const host = this.host;
    const cancelled = new Error('the library changed while it was saved');
    async function* slices(): AsyncGenerator<string, void, undefined> {
      const pieces = libraryJsonPieces(lib, textId);
      for (let done = false; !done;) {
        await host.yield();
        if (!unchanged()) throw cancelled;
        const until = host.now() + SLICE_MS;
        const out: string[] = [];
        do {
          const r = pieces.next();
          if (r.done) done = true; else out.push(r.value);
        } while (!done && host.now() < until);
        yield out.join('');
      }
    }
    await this.host.yield();
    // After the first search, not before it.
    if (!unchanged()) return;
    try {
      await cache.set(key, slices());
    } catch (e) {
      // A save cancelled by an edit is no failure: the edited text is another key.
      if (e !== cancelled) this.log.warn(`library cache: cannot save ${f.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /**
   * The open document of a library changed: the entries it touches are read again (BibTeX;
   * other formats, and a change to an `@string`, read the whole text again).
   */
  documentChanged(uri: string, text: string): void {
    const f = this.files.get(uri);
    if (!f || f.state !== 'ready' || !f.lib || f.text === undefined || f.text === text) return;
    if (f.lib.format !== 'bibtex' || !this.updateBibtex(f, text)) {
      void this.load(f, text);
    }
  }

  /** Incremental update of a loaded BibTeX library; false when the change needs a full read. */
  private updateBibtex(f: LibraryFile, text: string): boolean {
    const lib = f.lib!;
    const old = f.text!;
    // The reader counts a lone CR as a line break; the line arithmetic here counts LFs: such a file is read in full.
    if (/\r(?!\n)/.test(text) || /\r(?!\n)/.test(old)) return false;
    const spans = lib.spans!;
    let p = 0;
    const max = Math.min(old.length, text.length);
    while (p < max && old.charCodeAt(p) === text.charCodeAt(p)) p++;
    let s = 0;
    while (s < max - p && old.charCodeAt(old.length - 1 - s) === text.charCodeAt(text.length - 1 - s)) s++;
    const oldEnd = old.length - s;
    const delta = text.length - old.length;
    // A change inside or next to an @string block changes what every later entry expands to.
    for (const [, at] of lib.strings ?? []) if (at.start <= oldEnd && at.end >= p) return false;
    if (STRING_COMMAND.test(text.slice(p, text.length - s))) return false;
    const n = lib.entries.length;
    // What is read again is whole lines, from the line the change starts on to the start of a line
    // where an entry after the change begins: the entries in it are replaced, and so are the
    // problems on its lines (a problem has a line, and entries can share one).
    const atLineStart = (offset: number) => offset === 0 || old.charCodeAt(offset - 1) === 10;
    let first = 0;
    while (first < n && spans[2 * first + 1]! < p) first++;
    let from = lineStartOf(old, p);
    for (;;) {
      // An entry that ends after the range starts (on its first line, before the change) is read again too.
      while (first > 0 && spans[2 * (first - 1) + 1]! > from) first--;
      if (first < n && spans[2 * first]! < from) from = lineStartOf(old, spans[2 * first]!);
      else break;
    }
    let last = n;
    while (last > first && spans[2 * (last - 1)]! > oldEnd) last--;
    const startLine = lineOfOffset(old, from);
    // What an edit opens may run into the entries after it (an unclosed brace, an entry that now
    // starts mid-line), as a fresh read of the file would read it: while the range read has an
    // error, it takes in the next entry too, a few times; past that, the errors are the file's.
    let to: number;
    let reader: BibtexLibraryReader;
    for (let grown = 0; ; grown++) {
      while (last < n && !atLineStart(spans[2 * last]!)) last++;
      to = last < n ? spans[2 * last]! + delta : text.length;
      if (to < from) return false;
      // An @string in what is read again (one that an edit made or unmade) changes what later
      // entries expand to: the whole file is read.
      if (STRING_COMMAND.test(text.slice(from, to)) || STRING_COMMAND.test(old.slice(from, to - delta))) return false;
      reader = new BibtexLibraryReader(text, { start: from, end: to, line: startLine, macros: lib.macros });
      reader.read();
      if (last === n || grown === 4 || !reader.problems.some((q) => q.severity === 'error')) break;
      last++;
    }
    const ref = { uri: f.id, name: f.name };
    const added = reader.entries.map((raw) => entryFromBibtex(raw, ref));
    const removed = lib.entries.slice(first, last);
    const oldTo = to - delta;
    const lineDelta = lineBreaks(text, from, to) - lineBreaks(old, from, oldTo);
    // The last line of the range in the old text (the range ends at a line start, or at the end).
    const lastLine = oldTo > from ? startLine + lineBreaks(old, from, oldTo - 1) : startLine - 1;
    for (let i = last; i < n; i++) lib.entries[i]!.library!.line += lineDelta;
    const newSpans = [...spans.slice(0, 2 * first), ...reader.entries.flatMap((r) => [r.start, r.end]), ...spans.slice(2 * last).map((x) => x + delta)];
    lib.entries.splice(first, last - first, ...added);
    lib.spans = newSpans;
    for (const [, at] of lib.strings ?? []) if (at.start >= oldEnd) { at.start += delta; at.end += delta; }
    lib.problems = [...lib.problems.filter((q) => q.line < startLine), ...reader.problems,
      ...lib.problems.filter((q) => q.line > lastLine).map((q) => ({ ...q, line: q.line + lineDelta }))];
    lib.index.update(removed, added);
    f.text = text;
    f.done = f.total = lib.entries.length;
    this.findTwins(f);
    this.afterChange();
    if (!f.fromDocument) this.log.info(`library ${f.name}: ${removed.length} entr${removed.length === 1 ? 'y' : 'ies'} read again as ${added.length}`);
    return true;
  }

  private findTwins(f: LibraryFile): void {
    if (!f.lib) return;
    const twins = new Map<Entry, string>();
    for (const e of f.lib.entries) {
      const key = twinKey(e, this.corpusIds);
      if (key) twins.set(e, key);
      e.library!.sameAs = key;
    }
    f.twins = twins;
  }

  /**
   * The twins citing uses: those of the libraries the settings name. An open document's
   * bibliography is searched (its twins still show as the corpus row) but is not another
   * document's source: citing a corpus entry elsewhere does not copy that file's version of it.
   */
  private rebuildTwins(): void {
    this.twinOf = new Map();
    for (const f of this.files.values()) {
      if (f.fromDocument) continue;
      for (const [e, key] of f.twins ?? []) if (!this.twinOf.has(key.toLowerCase())) this.twinOf.set(key.toLowerCase(), e);
    }
  }

  /** Recomputes what depends on all libraries (twins, duplicate keys) and tells the server. */
  private afterChange(): void {
    this.version++;
    this.rebuildTwins();
    // Keys defined in an earlier library: a diagnostic on the later one's entry.
    const seen = new Map<string, string>();
    for (const f of this.files.values()) {
      if (!f.lib) continue;
      const own: Diagnostic[] = f.lib.problems.map((q: LibraryProblem) => Diagnostic.create(Range.create(q.line - 1, q.column - 1, q.line - 1, q.column - 1 + 1),
        q.message, q.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning, undefined, DIAGNOSTIC_SOURCE));
      const mine = new Set<string>();
      // Only among the libraries the settings name: an open document's bibliography holds what
      // was cited from them, under the same keys, on purpose.
      if (f.fromDocument) { f.diagnostics = own; continue; }
      for (const e of f.lib.entries) {
        const k = e.key.toLowerCase();
        const earlier = seen.get(k);
        if (earlier !== undefined && !mine.has(k)) {
          const line = e.library!.line - 1;
          own.push(Diagnostic.create(Range.create(line, 0, line, 0), l10n.t('Duplicate key "{0}": {1} defines it too, and that one is used.', e.key, earlier), DiagnosticSeverity.Warning, 'duplicate-key', DIAGNOSTIC_SOURCE));
        }
        mine.add(k);
      }
      for (const k of mine) if (!seen.has(k)) seen.set(k, f.name);
      f.diagnostics = own;
    }
    this.onChanged();
    this.onStatus(this.status());
  }

  /** A library entry by key (ignoring case): the first library's that has it. */
  entry(key: string): Entry | undefined {
    for (const f of this.files.values()) {
      const e = f.lib?.index.entry(key);
      if (e) return e;
    }
    return undefined;
  }

  /** What citing a corpus key cites: its library twin (the user's key), unless corpus keys are preferred. */
  twin(corpusKey: string): Entry | undefined {
    return this.preferCorpusKeys ? undefined : this.twinOf.get(corpusKey.toLowerCase());
  }

  /** The twin of a corpus entry whatever the preference (to show "in your library as …"). */
  twinOfCorpus(corpusKey: string): Entry | undefined {
    return this.twinOf.get(corpusKey.toLowerCase());
  }

  /**
   * Searches every loaded library; twins of corpus entries are left out (the corpus row stands
   * for them).
   */
  search(query: ParsedQuery, limit: number): SearchHit[] {
    const hits: SearchHit[] = [];
    for (const f of this.files.values()) {
      if (!f.lib) continue;
      const twins = f.twins;
      hits.push(...f.lib.index.search(query, limit, twins?.size ? (e) => twins.has(e) : undefined));
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, limit);
  }

  /**
   * Library entries as citing copies them: a BibTeX entry with its own text, macros and crossref
   * parent (a CSL library's entry carries its item from the load). Other entries come back as they are.
   */
  prepare(entries: readonly Entry[]): Entry[] {
    return entries.map((e) => {
      if (!e.library || e.library.format !== 'bibtex') return e;
      const f = this.files.get(e.library.uri);
      if (!f?.lib || f.text === undefined) return e;
      return prepareEntry(f.lib, f.text, e);
    });
  }

  /** All fields of a library entry as written (macros expanded), for the details page. */
  fields(e: Entry): Record<string, string> | undefined {
    const lib = e.library;
    if (!lib) return undefined;
    if (lib.csl) return Object.fromEntries(Object.entries(lib.csl).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    const f = this.files.get(lib.uri);
    if (!f?.lib || f.text === undefined) return undefined;
    const i = f.lib.entries.indexOf(e);
    return i < 0 ? undefined : readEntryAt(f.text, f.lib.spans![2 * i]!, f.lib.spans![2 * i + 1]!, f.lib.macros ?? {})?.properties;
  }

  /**
   * The groups of a library for the tree: its JabRef groups when any entry has some, else its
   * keywords; then the entries in none.
   */
  groups(uri: string): LibraryGroup[] | undefined {
    const lib = this.files.get(uri)?.lib;
    if (!lib) return undefined;
    const byGroups = lib.entries.some((e) => e.library!.groups.length);
    const counts = new Map<string, number>();
    let none = 0;
    for (const e of lib.entries) {
      const names = byGroups ? e.library!.groups : e.library!.keywords;
      if (!names.length) none++;
      for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
    }
    const out = [...counts].sort((a, b) => a[0].localeCompare(b[0])).map(([label, count]) => ({ id: label, label, count }));
    if (none) out.push({ id: UNGROUPED, label: byGroups ? l10n.t('(in no group)') : l10n.t('(no keywords)'), count: none });
    return out;
  }

  /** The entries of a group (see {@link groups}), newest first, at most {@link GROUP_LIMIT}; and how many there are. */
  groupEntries(uri: string, group: string): { entries: Entry[]; total: number } | undefined {
    const lib = this.files.get(uri)?.lib;
    if (!lib) return undefined;
    const byGroups = lib.entries.some((e) => e.library!.groups.length);
    const all = lib.entries.filter((e) => {
      const names = byGroups ? e.library!.groups : e.library!.keywords;
      return group === UNGROUPED ? !names.length : names.includes(group);
    });
    all.sort((a, b) => (b.year ?? 0) - (a.year ?? 0));
    return { entries: all.slice(0, GROUP_LIMIT), total: all.length };
  }
}

/** The offset where the line holding `offset` starts. */
function lineStartOf(text: string, offset: number): number {
  // `lastIndexOf` reads a negative position as 0: at offset 0 it would find a line break there.
  return offset <= 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
}

/** Line breaks (LF) in `[from, to)`. */
function lineBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The 1-based line of an offset. */
function lineOfOffset(text: string, offset: number): number {
  return lineBreaks(text, 0, offset) + 1;
}
