/**
 * The server's LaTeX project ({@link LatexProject}): the workspace's `.tex` files indexed in the
 * server's process, in slices with progress (LSP `window/workDoneProgress`), then kept up to date
 * from open documents (their text, scanned when asked about), watched-file events (created,
 * changed, deleted: only that file is read again) and workspace folder changes (listed again).
 * Imports no `node:`: the host lists and reads.
 */
import { URI } from 'vscode-uri';
import type { LatexFileFacts } from '../core/latex/fileFacts.js';
import { indexLatexFiles, LATEX_FILE_LIMIT } from '../core/latex/indexing.js';
import { LatexProject } from '../core/latex/project.js';
import type { Logger } from '../core/config/logger.js';
import { fileKind } from '../core/workspace/fileKind.js';
import { LATEX_FILE_FACTS } from '../core/latex/fileFacts.js';
import type { Clock } from './host.js';
import type { FileChange, WorkspaceChange, WorkspaceChangeListener } from './workspaceChanges.js';

/** How long one slice of indexing may run before the server answers other requests, in ms. */
const SLICE_MS = 12;
/** How long after the last keystroke an open document's new links are looked at, in ms. */
const EDIT_PAUSE_MS = 300;

/** A progress report the client shows (LSP `window/workDoneProgress`). */
export interface ProgressReporter {
  report(percentage: number, message: string): void;
  done(): void;
}

/** What the indexer needs from the server. */
export interface LatexProjectHost {
  /** The workspace's `.tex` files (the host's own listing or the client's `mlsysPapers/findFiles`). */
  list(): Promise<URI[]>;
  /** A file's text: its open document's, else the file's on disk; undefined when unreadable. */
  read(uri: URI): Promise<string | undefined>;
  yield(): Promise<void>;
  now(): number;
  /** The server's clock, for the pause after an edit (tests drive it). */
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /** Starts a progress report, when the client shows them. */
  progress?(title: string): Promise<ProgressReporter | undefined>;
  /**
   * The project's answers may have changed (a root, an include or a declaration): refresh what
   * depends on them.
   *
   * @param files - the LaTeX files (URIs) whose answers may have changed: each file whose text
   *   was given, its roots now and every file those roots reach now (a file whose roots were
   *   others before is among the files those others reached); undefined when any may have (the
   *   workspace was indexed again, or the project changed on a read nobody gave)
   */
  changed(files?: readonly string[]): void;
  log: Logger;
  /** Logs a failure of work nobody awaits (`ServerContext.fail`). */
  fail(e: unknown): void;
}

/** Whether a URI names a file the project indexes (a LaTeX file by its name). */
const isLatexFile = (uri: string): boolean => fileKind(URI.parse(uri)) === 'latex';

/** What a read gives when a newer text of the file arrived while it was under way. */
const STALE: unique symbol = Symbol('stale');

/** Keeps the server's {@link LatexProject} in step with the workspace. */
export class LatexProjectIndexer implements WorkspaceChangeListener {
  readonly project = new LatexProject();
  private readonly open = new Set<string>();
  /**
   * For each file, how many times its text was given since the indexer started (an open
   * document's change, its close, a watched-file event): a read from disk that began before the
   * count moved is stale and is dropped, so an open document's text always wins (issue 28, cause 3).
   */
  private readonly given = new Map<string, number>();
  /** The files whose text was given since the server was last told ({@link checkChanged}). */
  private readonly touched = new Set<string>();
  private generation = 0;
  private editTimer: unknown;
  private seenRevision = 0;
  /** Settles when the latest indexing ends. */
  indexed: Promise<void> = Promise.resolve();

  constructor(private readonly host: LatexProjectHost) {}

  /** Lists and reads the workspace's `.tex` files again (at start, and when the folders change); a newer call cancels an older one. */
  index(): Promise<void> {
    const generation = ++this.generation;
    // Until the latest indexing ends, a named root's chain is read on demand (resolve.ts).
    this.project.indexing = true;
    this.indexed = this.run(generation)
      .catch((e: unknown) => this.host.log.error(`indexing the LaTeX files: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => { if (generation === this.generation) this.project.indexing = false; });
    return this.indexed;
  }

  private async run(generation: number): Promise<void> {
    const started = this.host.now();
    let uris = await this.host.list();
    if (generation !== this.generation) return;
    if (uris.length > LATEX_FILE_LIMIT) {
      this.host.log.warn(`the workspace has ${uris.length} .tex files; only the first ${LATEX_FILE_LIMIT} are read for \\input and \\include`);
      uris = uris.slice(0, LATEX_FILE_LIMIT);
    }
    const listed = new Set(uris.map((u) => u.toString()));
    const hadFiles = this.project.size > 0;
    // Files of an earlier listing (folders removed) go; open documents keep their text.
    this.project.clear((id) => this.open.has(id));
    const progress = uris.length ? await this.host.progress?.('MLSys Papers: reading LaTeX files') : undefined;
    let sliceEnd = this.host.now() + SLICE_MS;
    try {
      const done = await indexLatexFiles(this.project, uris, {
        read: async (uri) => { const text = await this.readUnlessGiven(uri); return text === STALE ? undefined : text; },
        shouldYield: () => this.host.now() > sliceEnd,
        yield: async () => {
          await this.host.yield();
          sliceEnd = this.host.now() + SLICE_MS;
        },
        progress: (n, total) => progress?.report(Math.floor((100 * n) / Math.max(1, total)), `${n}/${total}`),
        cancelled: () => generation !== this.generation,
      });
      if (done < 0) return;
    } finally {
      progress?.done();
    }
    // Open documents keep their unsaved text; one the listing does not have stays too.
    for (const id of this.open) if (!listed.has(id)) this.host.log.info(`LaTeX project: ${id} is open but not in the workspace listing`);
    this.host.log.info(`LaTeX project: ${uris.length} .tex file(s) read in ${Math.round(this.host.now() - started)} ms`);
    this.seenRevision = this.project.revision;
    this.touched.clear();
    // Nothing to tell when there was and is no file (a workspace without LaTeX).
    if (uris.length || hadFiles) this.host.changed();
  }

  /**
   * The workspace changed: the folders are listed again; an open LaTeX document's facts (kept across
   * its edits: no scan of the whole text per keystroke) are its text; a closed one's file counts
   * again; `.tex` files changed on disk are read again.
   */
  workspaceChanged(change: WorkspaceChange): void {
    if (change.folders) void this.index();
    const disk: FileChange[] = [];
    for (const f of change.files) {
      if (f.kind !== 'latex') continue;
      const doc = f.document;
      if (f.how === 'closed') void this.documentClosed(f.uri).catch(this.host.fail);
      else if (doc) this.documentChanged(f.uri, () => doc.fact(LATEX_FILE_FACTS).value);
      else disk.push(f);
    }
    if (disk.length) void this.filesChanged(disk).catch(this.host.fail);
  }

  /** An open document's text or the function giving its facts (on open and on every change): scanned when the project is next asked, and its new links looked at after a pause. */
  documentChanged(uri: string, text: string | (() => LatexFileFacts)): void {
    this.open.add(uri);
    this.give(uri);
    this.project.set(URI.parse(uri), text, false);
    this.host.clock.clearTimeout(this.editTimer);
    this.editTimer = this.host.clock.setTimeout(() => this.checkChanged(), EDIT_PAUSE_MS);
  }

  /** A document closed: the file on disk counts again (read once), or, when there is none, the file goes. */
  async documentClosed(uri: string): Promise<void> {
    this.open.delete(uri);
    this.give(uri);
    const u = URI.parse(uri);
    const text = isLatexFile(uri) ? await this.readUnlessGiven(u) : undefined;
    if (text === STALE) return;
    if (text === undefined) this.project.delete(u);
    else this.project.set(u, text);
    this.checkChanged();
  }

  /** Watched-file events (as `workspaceChanges.ts` gives them): each `.tex` file created or changed is read again, each deleted one forgotten; other files are passed over. */
  async filesChanged(changes: readonly FileChange[]): Promise<void> {
    let any = false;
    for (const c of changes) {
      if (c.kind !== 'latex' || c.document || this.open.has(c.uri)) continue;
      const u = URI.parse(c.uri);
      any = true;
      this.give(c.uri);
      if (c.how === 'deleted') { this.project.delete(u); continue; }
      const text = await this.readUnlessGiven(u);
      if (text === STALE) continue;
      if (text === undefined) this.project.delete(u);
      else this.project.set(u, text);
    }
    if (any) this.checkChanged();
  }

  /** A file's text was given (or its file changed): reads of it under way are stale. */
  private give(uri: string): void {
    this.given.set(uri, (this.given.get(uri) ?? 0) + 1);
    this.touched.add(uri);
  }

  /**
   * A file's text from the host, or {@link STALE} when the file is open or its text was given
   * while the read was under way (a host may answer late: the disk's older text never overwrites
   * an open document's).
   */
  private async readUnlessGiven(uri: URI): Promise<string | undefined | typeof STALE> {
    const id = uri.toString();
    if (this.open.has(id)) return STALE;
    const before = this.given.get(id) ?? 0;
    const text = await this.host.read(uri);
    return this.open.has(id) || (this.given.get(id) ?? 0) !== before ? STALE : text;
  }

  /**
   * Tells the server when the project's answers may have changed since it was last told, and for
   * which files: those given since, their roots and the files those roots reach (`host.changed`).
   */
  private checkChanged(): void {
    this.project.flush();
    const touched = [...this.touched];
    this.touched.clear();
    if (this.project.revision === this.seenRevision) return;
    this.seenRevision = this.project.revision;
    // A change nobody gave (a root's chain read on demand while answering) may touch anyone.
    if (!touched.length) { this.host.changed(); return; }
    const files = new Set<string>();
    for (const id of touched) {
      const u = URI.parse(id);
      files.add(id);
      // A root reaches its files; a file's roots reach it and their other files (their declarations are its).
      for (const root of [u, ...this.project.rootsOf(u)]) {
        files.add(root.toString());
        for (const f of this.project.filesOf(root)) files.add(f.toString());
      }
    }
    this.host.changed([...files]);
  }

  /** Stops the timers (the connection closed). */
  dispose(): void {
    this.host.clock.clearTimeout(this.editTimer);
    this.generation++;
  }
}
