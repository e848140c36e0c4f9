/**
 * The one in-memory workspace of the service tests (the citation service, `resolveBibliography`,
 * the planner, the LaTeX project's bibliographies), after VS Code's Markdown language service's
 * `InMemoryWorkspace` (`microsoft/vscode-markdown-languageservice`, `src/test/inMemoryWorkspace.ts`):
 * the core's file contract `WorkspaceFiles` (`src/core/workspace/files.ts`) over maps, so a test says what is on disk and what is open, and
 * checks what was read. No disk, no clock.
 */
import { URI } from 'vscode-uri';
import { normalizeUri } from '../../src/core/workspace/paths.js';
import type { WorkspaceFiles } from '../../src/core/workspace/files.js';
import { createSearchIndex } from '../../src/core/search/corpus/corpusIndex.js';
import { createCitationService, type CitationService } from '../../src/core/service/service.js';
import type { CitationServiceOptions } from '../../src/core/service/serviceContext.js';
import { corpusView, type CorpusView } from '../../src/core/service/types.js';
import { scopeSettings } from '../../src/core/config/settings.js';
import { realCorpus } from './helpers.js';
import { indexLatexFiles } from '../../src/core/latex/indexing.js';
import { LatexProject } from '../../src/core/latex/project.js';
import type { ScopeHost } from '../../src/core/service/citationScope.js';
import { fileKind, isCiting } from '../../src/core/workspace/fileKind.js';

/** A file by absolute path (`/ws/refs.bib`) or by URI. */
export type FileRef = string | URI;

const idOf = (f: FileRef): string => (typeof f === 'string' ? URI.file(f) : f).toString();

/**
 * Files on disk, documents open in the "editor" and the workspace folders, as the hosts show them:
 *
 * - `readText` gives an open document's text, else the file's with its byte-order mark dropped;
 *   `readDisk` the file's own text (BOM kept) or `{ notUtf8: true }`, ignoring open documents.
 * - `stamp` is `v<version>` for an open document and `w<n>` for a file, `n` counting writes: every
 *   write is a new stamp, so caches keyed by it see every change.
 * - `exists` holds for files, open documents, the folders and their parents, and every folder that
 *   holds a file.
 * - `realPath` follows the links made with {@link link} (a folder or a file), else gives the URI
 *   normalised (`normalizeUri`), as a host that sees no symlink does.
 * - `listFolder` names the files (on disk or open) directly in a folder.
 * - Every `readText` and `readDisk` is recorded in {@link reads}, to check what was, and was not, read.
 */
export class MemoryWorkspace implements WorkspaceFiles {
  readonly folders: URI[];
  readonly foldsCase = false;
  /** URIs (as strings) read through `readText` and `readDisk`, in order. */
  readonly reads: string[] = [];
  private readonly disk = new Map<string, string>();
  private readonly notUtf8 = new Set<string>();
  private readonly open = new Map<string, { version: number; text: string }>();
  private readonly stamps = new Map<string, number>();
  private readonly links = new Map<string, string>();
  private writes = 0;

  /**
   * @param files - absolute path → text on disk
   * @param folders - the workspace folders' absolute paths
   */
  constructor(files: Record<string, string> = {}, folders: readonly string[] = ['/ws']) {
    this.folders = folders.map((f) => URI.file(f));
    for (const [path, text] of Object.entries(files)) this.write(path, text);
  }

  /** Writes a file on disk (a new stamp). */
  write(file: FileRef, text: string): void {
    const id = idOf(file);
    this.disk.set(id, text);
    this.notUtf8.delete(id);
    this.stamps.set(id, ++this.writes);
  }

  /** Writes a file whose bytes are not UTF-8 (a new stamp). */
  writeNotUtf8(file: FileRef): void {
    const id = idOf(file);
    this.disk.delete(id);
    this.notUtf8.add(id);
    this.stamps.set(id, ++this.writes);
  }

  /** The text of a file on disk, as last written; undefined when there is none. */
  text(file: FileRef): string | undefined {
    return this.disk.get(idOf(file));
  }

  /** Opens a document, or changes an open one, with unsaved `text` at `version`. */
  openDoc(file: FileRef, version: number, text: string): void {
    this.open.set(idOf(file), { version, text });
  }

  /** Closes a document: its file on disk counts again. */
  closeDoc(file: FileRef): void {
    this.open.delete(idOf(file));
  }

  /** Makes `path` a symbolic link to `target` (absolute paths), for {@link realPath}. */
  link(path: string, target: string): void {
    this.links.set(path.replace(/\/$/, ''), target.replace(/\/$/, ''));
  }

  async readText(uri: URI): Promise<string | undefined> {
    const id = uri.toString();
    this.reads.push(id);
    return this.open.get(id)?.text ?? this.disk.get(id)?.replace(/^\uFEFF/, '');
  }

  async readDisk(uri: URI): Promise<string | { notUtf8: true } | undefined> {
    const id = uri.toString();
    this.reads.push(id);
    return this.notUtf8.has(id) ? { notUtf8: true } : this.disk.get(id);
  }

  async stamp(uri: URI): Promise<string | undefined> {
    const id = uri.toString();
    const open = this.open.get(id);
    if (open) return `v${open.version}`;
    const s = this.stamps.get(id);
    return s === undefined || (!this.disk.has(id) && !this.notUtf8.has(id)) ? undefined : `w${s}`;
  }

  async exists(uri: URI): Promise<boolean> {
    const id = uri.toString();
    if (this.disk.has(id) || this.open.has(id) || this.notUtf8.has(id)) return true;
    const dir = uri.path.replace(/\/$/, '');
    if (this.folders.some((f) => f.path === dir || f.path.startsWith(`${dir}/`))) return true;
    return [...this.disk.keys(), ...this.open.keys()].some((k) => URI.parse(k).path.startsWith(`${dir}/`));
  }

  async realPath(uri: URI): Promise<URI | undefined> {
    let at = normalizeUri(uri);
    // Each turn follows the longest linked prefix; a loop ends as "cannot be resolved", as ELOOP does.
    for (let turn = 0; turn <= this.links.size; turn++) {
      const parts = at.path.split('/');
      const prefix = parts.map((_, i) => parts.slice(0, parts.length - i).join('/')).find((p) => this.links.has(p));
      if (prefix === undefined) return at;
      at = normalizeUri(at.with({ path: this.links.get(prefix)! + at.path.slice(prefix.length) }));
    }
    return undefined;
  }

  openDocument(uri: URI): { version: number; text: string } | undefined {
    return this.open.get(uri.toString());
  }

  /** Every file on disk and every open document, by URI, in the order written or opened. */
  list(): URI[] {
    return [...new Set([...this.disk.keys(), ...this.notUtf8, ...this.open.keys()])].map((k) => URI.parse(k));
  }

  async listFolder(folder: URI): Promise<string[] | undefined> {
    const dir = normalizeUri(folder).path.replace(/\/$/, '');
    const names = new Set<string>();
    for (const k of [...this.disk.keys(), ...this.open.keys(), ...this.notUtf8]) {
      const p = URI.parse(k).path;
      if (p.slice(0, p.lastIndexOf('/')) === dir) names.add(p.slice(p.lastIndexOf('/') + 1));
    }
    return [...names].sort();
  }
}

let view: CorpusView | undefined;

/** The real bundled corpus with its search index, built once per worker. */
function bundledView(): CorpusView {
  view ??= (() => {
    const corpus = realCorpus();
    return corpusView(corpus, createSearchIndex(corpus));
  })();
  return view;
}

/** A service over a whole project (see {@link projectServiceOver}) and what it runs on. */
export interface ProjectService {
  service: CitationService;
  ws: MemoryWorkspace;
  project: LatexProject;
  /** Opens (or changes) a document in the workspace and in the LaTeX project, as the server's events do. */
  open(path: string, version: number, text: string): void;
  /** Writes a file on disk and into the LaTeX project, as a watched-file event does. */
  write(path: string, text: string): void;
}

/**
 * A citation service over a whole project of in-memory files, as the language server runs it: the
 * LaTeX project indexed from the `.tex` files, and the citation scope (`citationScope.ts`) listing
 * every LaTeX and Markdown file (`complete: false` when `listing` says the listing was cut).
 */
export async function projectServiceOver(files: Record<string, string>, extra: Partial<CitationServiceOptions> = {}, opts: { folders?: string[]; listing?: 'complete' | 'cut' } = {}): Promise<ProjectService> {
  const ws = new MemoryWorkspace(files, opts.folders);
  const project = new LatexProject();
  await indexLatexFiles(project, ws.list().filter((u) => fileKind(u) === 'latex'), { read: (u) => ws.readText(u) });
  const scope: ScopeHost = {
    citingFiles: async () => ({ uris: ws.list().filter((u) => isCiting(fileKind(u))), complete: opts.listing !== 'cut' }),
    filesOf: (root) => project.filesOf(root),
    unresolvedOf: (root) => project.unresolvedOf(root),
  };
  const corpus = bundledView();
  const service = createCitationService({
    workspace: ws, corpus: () => corpus, config: () => scopeSettings({}), logger: { info() {}, warn() {}, error() {} }, project, scope, ...extra,
  });
  return {
    service, ws, project,
    open(path, version, text) {
      ws.openDoc(path, version, text);
      if (fileKind(path) === 'latex') project.set(URI.file(path), text);
    },
    write(path, text) {
      ws.write(path, text);
      if (fileKind(path) === 'latex') project.set(URI.file(path), text);
    },
  };
}

/**
 * A citation service over a {@link MemoryWorkspace} of `files` (absolute path → text) and the real
 * bundled corpus with its search index (built once per worker), with the default document settings
 * and a silent logger; `extra` overrides any option.
 */
export function serviceOver(files: Record<string, string>, extra: Partial<CitationServiceOptions> = {}): CitationService {
  const corpus = bundledView();
  return createCitationService({
    workspace: new MemoryWorkspace(files), corpus: () => corpus, config: () => scopeSettings({}),
    logger: { info() {}, warn() {}, error() {} }, ...extra,
  });
}
