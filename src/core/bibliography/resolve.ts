/**
 * A document's bibliography, worked out the same way in the editor and on the command line: which
 * files it declares (`\bibliography`, `\addbibresource`, `% !TEX root`, the `latexRoot` setting,
 * Markdown front matter, a Quarto project's `_quarto.yml`), what they hold, and what citing
 * entries must change in them ({@link planBibliographyUpdate}).
 *
 * Pure: every file is read through the {@link WorkspaceFiles} the host provides (VS Code's
 * workspace with its open documents, or the file system for the CLI), with URIs from `vscode-uri`.
 */
import { URI, Utils } from 'vscode-uri';
import type { WorkspaceFiles } from '../workspace/files.js';
import { inWorkspaceReal, isInside, mayReadFor, namedFrom } from '../workspace/paths.js';
import { fromFolder } from '../workspace/writtenPath.js';
import { fileKind, isMarkdown } from '../workspace/fileKind.js';
import type { Entry } from '../corpus/schema.js';
import { quartoCustomKeys } from '../markdown/crossref.js';
import { parseYaml } from '../text/yaml.js';
import { textOf } from '../text/problemText.js';
import { LATEX_FILE_FACTS, latexFileFacts, type LatexFileFacts } from '../latex/fileFacts.js';
import { LatexProject } from '../latex/project.js';
import { readThebibliography, type ThebibliographySource } from './thebibliography.js';
import { inlineReferences, pandocBuildOf } from './pandocBuild.js';
import { latexBibliographies, readableDeclarations, TEX_ROOT, type BibDeclaration } from '../latex/bibDeclarations.js';
import { bibliographyDeclarations, FRONT_MATTER, markdownBibliographies } from '../markdown/frontMatter.js';
import { factOf, type FactSource } from '../text/textFacts.js';
import { undeclaredBibliography, type UndeclaredWhere } from './undeclared.js';
import { BibCache } from './bibCache.js';
import { planBibAddition, planBibSync, type BibSyncPlan } from './planAdditions.js';
import { readBibFile, type BibFile } from './bibFile.js';
import type { Refusal } from './refusal.js';
import { applySplices } from './fileEdit.js';

/** A document as the resolver sees it. */
export interface BibDocument {
  uri: URI;
  /** VS Code language id: `latex`, `markdown`, `quarto`, … */
  languageId: string;
  /** Read only when there are no `facts`, or for what they do not cover. */
  readonly text: string;
  /** The document's facts, kept across its edits (an open document's: `text/textFacts.ts`). */
  readonly facts?: FactSource;
}

/**
 * A bibliography file a document declares, as read. `inline`: the Markdown document itself, whose
 * front matter holds `references:` (never written to).
 */
export type ResolvedBibFile = BibFile & { uri: URI; inline?: true };

/** The first of `uris` that exists (a file, a folder or anything else there), if any. */
async function firstExisting(ws: WorkspaceFiles, uris: readonly URI[]): Promise<URI | undefined> {
  for (const u of uris) if (await ws.exists(u)) return u;
  return undefined;
}

/** The bibliography a document declares: where it lives and what it holds. */
export interface DocumentBibliography {
  /** The document whose declarations count: the LaTeX root file, the Markdown document, or `_quarto.yml`. */
  root: URI;
  /** Declared files that exist (each with its entries, or the `error` that stopped its parse). */
  files: ResolvedBibFile[];
  /** Declared files that do not exist yet. */
  missing: URI[];
  /**
   * Declared files that exist but give no text: a folder, a device or a pipe (a `refs.bib` that
   * links to `/dev/zero`), a file over the size cap or one that cannot be opened. Absent when none.
   */
  unreadable?: URI[];
  /**
   * LaTeX: every root file whose declarations count, `root` first (a file included by two roots
   * has both bibliographies).
   */
  roots?: URI[];
  /** LaTeX: the files of its roots that define `\bibitem` keys or hold a `thebibliography` environment (absent when none do). */
  thebibliography?: ThebibliographySource[];
  /**
   * LaTeX: a `% !TEX root` magic comment that names a file that does not exist, or (`outside`) one
   * that exists outside the workspace, which is not read ({@link mayReadFor}); the root was detected
   * instead.
   */
  missingRoot?: { path: string; uri: URI; line: number; start: number; end: number; outside?: boolean };
  /**
   * Declared resources that are not files we read, as written: a URL (`location=remote`), another
   * data type (`datatype=biblatexml`), a glob. A key may be defined there: none is flagged.
   */
  unread?: string[];
  /**
   * The document declares no bibliography, and `files` are the `.bib` files found beside its root
   * (`beside`) or at its workspace folder's root (`workspace`), which its keys are checked against
   * (`undeclared.ts`).
   */
  undeclared?: UndeclaredWhere;
}

/** Options of {@link resolveBibliography}. */
export interface ResolveOptions {
  /**
   * The LaTeX root file for documents without a `% !TEX root` magic comment, relative to
   * `latexRootBase` (the setting `mlsysPapers.latexRoot`).
   */
  latexRoot?: string;
  /** The folder `latexRoot` is relative to (the document's workspace folder). */
  latexRootBase?: URI;
  /**
   * Whether `latexRoot` came from a workspace's settings: then it must name a file inside the
   * workspace folders, or it is ignored.
   */
  latexRootFromWorkspace?: boolean;
  cache?: BibCache;
  /**
   * The workspace's LaTeX project ({@link LatexProject}): the roots of a file without a root
   * named by the setting or a magic comment, and each root's declarations across its included
   * files. Absent: a LaTeX document without either is its own root.
   */
  project?: Pick<LatexProject, 'rootsOf' | 'declarationsOf'> & Partial<Pick<LatexProject, 'thebibliographyOf' | 'indexing'>>;
}

/** The names of the Quarto project file, in the order Quarto looks for them. */
const QUARTO_PROJECT = ['_quarto.yml', '_quarto.yaml'];

/** A Quarto project: its `_quarto.yml`, the bibliography it declares, and its custom cross-reference types' keys. */
export interface QuartoProject {
  uri: URI;
  decls: BibDeclaration[];
  /** `crossref: custom: [{ key }]` (Quarto's "Cross Reference Options"), for `markdown/crossref.ts`. */
  crossrefCustom: string[];
}

/**
 * The Quarto project a document belongs to: the nearest `_quarto.yml` in its folder or a parent
 * folder, up to its workspace folder (Quarto's "Project Basics": a project is a directory with
 * `_quarto.yml`, and its metadata applies to every document in it).
 */
export async function quartoProject(ws: WorkspaceFiles, doc: URI, cache: BibCache): Promise<QuartoProject | undefined> {
  const top = ws.folders.find((f) => isInside(f, doc));
  if (!top) return undefined;
  for (let dir = Utils.dirname(doc); isInside(top, dir); dir = Utils.dirname(dir)) {
    for (const name of QUARTO_PROJECT) {
      const uri = Utils.joinPath(dir, name);
      const read = await cache.get(ws, uri, 'quarto', (text) => {
        const value = parseYaml(text).value as { bibliography?: unknown; crossref?: unknown } | undefined;
        const object = value && typeof value === 'object' ? value : undefined;
        return { decls: bibliographyDeclarations(object?.bibliography), crossrefCustom: quartoCustomKeys(object?.crossref) };
      });
      if (read) return { uri, ...read };
    }
    if (dir.path === top.path || dir.path === '/') break;
  }
  return undefined;
}

/**
 * The bookdown book a document is a chapter of: the nearest `_bookdown.yml` in its folder or a
 * parent folder, up to its workspace folder, whose folder holds `index.Rmd`. bookdown merges the
 * chapters into one document that starts with `index.Rmd`, whose front matter is the book's
 * metadata ("bookdown: Authoring Books and Technical Documents with R Markdown", 1.3 and 4.4).
 *
 * @returns `index.Rmd` and its front matter's `bibliography:`, undefined when the document is in
 *   no book or the book's `index.Rmd` declares none
 */
async function bookdownBook(ws: WorkspaceFiles, doc: URI, cache: BibCache): Promise<{ uri: URI; decls: BibDeclaration[] } | undefined> {
  const top = ws.folders.find((f) => isInside(f, doc));
  if (!top) return undefined;
  for (let dir = Utils.dirname(doc); isInside(top, dir); dir = Utils.dirname(dir)) {
    if (await cache.get(ws, Utils.joinPath(dir, '_bookdown.yml'), 'bookdown', () => true)) {
      const index = Utils.joinPath(dir, 'index.Rmd');
      if (index.toString() === doc.toString()) return undefined;
      const decls = await cache.get(ws, index, 'markdown', (text) => markdownBibliographies(text));
      return decls?.length ? { uri: index, decls } : undefined;
    }
    if (dir.path === top.path || dir.path === '/') break;
  }
  return undefined;
}

/**
 * Finds the bibliography of a LaTeX or Markdown document.
 *
 * LaTeX: the root file is, in this order, the one the `latexRoot` setting names (when it exists),
 * the one a `% !TEX root =` magic comment names (when it exists; else `missingRoot` says so), the
 * roots the project finds by following `\input`, `\include`, `\subfile` and `\import` up to a
 * file with `\documentclass` (every one of them: a file included by two roots gets both
 * bibliographies), else the document itself. A root's `\bibliography`/`\addbibresource`
 * declarations count, and, with a project, those of every file it includes. Markdown: the front
 * matter's `bibliography:`; without one, that of the document's Quarto project (`_quarto.yml`), or
 * of the bookdown book it is a chapter of (`index.Rmd` beside `_bookdown.yml`).
 * Declared paths are relative to the file that declares them (for LaTeX, the root: where BibTeX
 * and biber run).
 *
 * @returns undefined for documents of other languages
 */
export async function resolveBibliography(ws: WorkspaceFiles, doc: BibDocument, opts: ResolveOptions = {}): Promise<DocumentBibliography | undefined> {
  const cache = opts.cache ?? new BibCache();
  let roots: { uri: URI; decls: readonly BibDeclaration[] }[] = [];
  let missingRoot: DocumentBibliography['missingRoot'];
  const kind = fileKind(doc.uri, doc.languageId);
  if (kind === 'latex') {
    const project = opts.project;
    const self = doc.uri.toString();
    /** A root's declarations: the project's (its included files' too), else its own, scanned once per change; null when it does not exist. */
    const declsOf = async (root: URI): Promise<readonly BibDeclaration[] | null> => {
      const known = project?.declarationsOf(root);
      if (known) return known;
      return root.toString() === self ? factOf(doc, LATEX_FILE_FACTS).value.bibs : cache.get(ws, root, 'latex', latexBibliographies);
    };
    /**
     * A root a setting or a `% !TEX root` names is compiled as a root even without `\documentclass`
     * (its class and bibliography may come from files it `\input`s): the project's answer once it
     * has read the workspace, else its link chain read now, bounded (`LatexProject.readChain`), so
     * that the answer does not depend on how far the indexer got (issue 28, cause 3).
     */
    const namedDeclsOf = async (root: URI): Promise<readonly BibDeclaration[] | null> => {
      const known = project && !project.indexing ? project.declarationsOf(root, true) : undefined;
      if (known) return known;
      const chain = new LatexProject();
      const read = async (uri: URI): Promise<LatexFileFacts | undefined> => {
        if (uri.toString() === self) return factOf(doc, LATEX_FILE_FACTS).value;
        // The root was checked where it is named; every file it leads to must lie where the project may read.
        if (uri.toString() !== root.toString() && !(await mayReadFor(ws, doc.uri, uri))) return undefined;
        return (await cache.get(ws, uri, 'latexFacts', latexFileFacts)) ?? undefined;
      };
      return (await chain.readChain(root, read)) ? chain.declarationsOf(root, true) ?? [] : null;
    };
    const named: URI[] = [];
    if (opts.latexRoot && opts.latexRootBase) {
      const setting = Utils.joinPath(opts.latexRootBase, opts.latexRoot);
      if (!opts.latexRootFromWorkspace || (await inWorkspaceReal(ws, setting))) named.push(setting);
    }
    const magic = factOf(doc, TEX_ROOT).value;
    const magicUri = magic && namedFrom(doc.uri, magic.path);
    // A root outside the workspace is named in a message, never read (one that is not there is missing, as inside).
    const magicOutside = !!magicUri && !(await mayReadFor(ws, doc.uri, magicUri));
    if (magicUri && !magicOutside) named.push(magicUri);
    if (magicOutside) missingRoot = { path: magic!.path, uri: magicUri, line: magic!.line, start: magic!.start, end: magic!.end, ...(await ws.exists(magicUri) ? { outside: true } : {}) };
    for (const uri of named) {
      const decls = await namedDeclsOf(uri);
      if (decls) { roots = [{ uri, decls }]; break; }
      if (uri === magicUri) missingRoot = { path: magic!.path, uri, line: magic!.line, start: magic!.start, end: magic!.end };
    }
    if (!roots.length && project) {
      for (const uri of project.rootsOf(doc.uri)) {
        const decls = await declsOf(uri);
        if (decls) roots.push({ uri, decls });
      }
    }
    if (!roots.length) roots = [{ uri: doc.uri, decls: (await declsOf(doc.uri)) ?? [] }];
  } else if (isMarkdown(kind)) {
    let decls = markdownBibliographies(factOf(doc, FRONT_MATTER).value);
    let root = doc.uri;
    if (!decls.length) {
      const project = await quartoProject(ws, doc.uri, cache);
      if (project?.decls.length) { root = project.uri; decls = project.decls; }
    }
    if (!decls.length) {
      const book = await bookdownBook(ws, doc.uri, cache);
      if (book) { root = book.uri; decls = book.decls; }
    }
    // What the build names (a Makefile's pandoc --bibliography, a defaults or metadata file), after the document's own.
    const build = await pandocBuildOf(ws, doc, cache);
    roots = [{ uri: root, decls: [...decls, ...build.bibliographies] }];
  } else return undefined;
  const files: ResolvedBibFile[] = [];
  const missing: URI[] = [];
  const unreadableFiles: URI[] = [];
  const unread: string[] = [];
  const seen = new Set<string>();
  for (const r of roots) {
    const usable = readableDeclarations(r.decls);
    unread.push(...usable.unread);
    for (const d of usable.files) {
      // A path relative to another folder than the root's (a \subfix path, a build's working
      // directory) is looked for there first, then from the root: either way it is compiled.
      const candidates = d.dir ? [fromFolder(d.dir, d.path), namedFrom(r.uri, d.path)] : [namedFrom(r.uri, d.path)];
      let found = false;
      for (const uri of candidates) {
        if (seen.has(uri.toString())) { found = true; break; }
        const file = await cache.get(ws, uri, 'bib', (text) => readBibFile(d.path, text));
        if (file === null) continue;
        seen.add(uri.toString());
        if (file) files.push({ ...file, uri });
        found = true;
        break;
      }
      const first = candidates[0]!;
      if (!found && !seen.has(first.toString())) {
        seen.add(first.toString());
        // There but no text (a folder, a device, a pipe, over the cap): not a file to create.
        const there = await firstExisting(ws, candidates);
        if (there) unreadableFiles.push(there);
        else missing.push(first);
      }
    }
  }
  // Pandoc reads the front matter's references: beside the bibliography files.
  const inline = isMarkdown(kind) ? inlineReferences(doc.uri, factOf(doc, FRONT_MATTER).value) : undefined;
  if (inline) files.push(inline);
  const out: DocumentBibliography = { root: roots[0]!.uri, files, missing };
  if (unread.length) out.unread = unread;
  if (unreadableFiles.length) out.unreadable = unreadableFiles;
  if (kind === 'latex') {
    out.roots = roots.map((r) => r.uri);
    // With every declared .bib missing (an arXiv submission), the .bbl BibTeX wrote from them is what LaTeX reads.
    const jobBbl = !files.length && roots.some((r) => r.decls.some((d) => d.via === 'bibtex'));
    const thebibliography = await readThebibliography(ws, cache, out.roots, doc, opts.project, jobBbl, (uri) => mayReadFor(ws, doc.uri, uri));
    if (thebibliography.length) out.thebibliography = thebibliography;
  }
  // Nothing declared at all: the .bib files beside the root (or at the workspace's root) are where its keys are checked.
  if (!files.length && !missing.length && !unreadableFiles.length && !unread.length && !out.thebibliography) {
    const found = await undeclaredBibliography(ws, out.root);
    for (const uri of found?.uris ?? []) {
      const file = await cache.get(ws, uri, 'bib', (text) => readBibFile(uri.path, text));
      if (file) files.push({ ...file, uri });
    }
    if (files.length) out.undeclared = found!.where;
  }
  if (missingRoot) out.missingRoot = missingRoot;
  return out;
}

/**
 * What citing entries does to a document's bibliography, decided once for every host:
 *
 * - `none`: nothing to add (every entry is there, or is there under another key);
 * - `append`: add `entries` to the existing file `uri`; the host plans the insertion once, on the
 *   bytes it writes (the service on the open text and the disk bytes, the CLI on the disk bytes:
 *   the service's `planInsertionInto`);
 * - `create`: create the declared file `uri`, which does not exist yet, with `text`;
 * - `declare`: the document declares no bibliography; the host may offer to create one;
 * - `refuse`: nothing is written, for a {@link Refusal} (a reason code the host renders with
 *   `refusalText`, never a sentence): the file cannot be read, lies outside the workspace, is in a
 *   folder that does not exist, or is no format we write; or the document's only bibliography is a
 *   `thebibliography` written in LaTeX, `uri` its file.
 */
export type BibUpdate =
  | { kind: 'none' }
  | { kind: 'append'; uri: URI; entries: readonly Entry[] }
  | { kind: 'create'; uri: URI; text: string; entries: readonly Entry[] }
  | { kind: 'declare'; entries: readonly Entry[] }
  | ({ kind: 'refuse'; uri: URI; entries: readonly Entry[] } & Refusal);

/**
 * Plans the change to a document's bibliography that citing `plan.add` needs: the first declared
 * file that exists gets the entries (the first declared one is created when none exists).
 * Files whose real path ({@link inWorkspaceReal}) lies outside the workspace folders are never
 * written (unless `opts.allowOutside`), nor created in folders that do not exist.
 *
 * @param ws - for the workspace folders, real paths, and to check that a new file's folder exists
 * @param bib - the document's bibliography ({@link resolveBibliography})
 * @param plan - what to add ({@link planBibSync})
 * @param opts.allowOutside - the user asked to write outside the workspace (the CLI's `--allow-outside`)
 */
export async function planBibliographyUpdate(ws: WorkspaceFiles, bib: DocumentBibliography | undefined, plan: BibSyncPlan, opts: { allowOutside?: boolean } = {}): Promise<BibUpdate> {
  const entries = plan.add;
  if (!bib || !entries.length) return { kind: 'none' };
  // Files nobody declared are read for checks only: the document still declares no bibliography.
  if (bib.undeclared) return { kind: 'declare', entries };
  const keys = entries.map((e) => e.key);
  // A document's own front matter references are never written to.
  const writable = bib.files.filter((s) => !s.inline);
  const target = writable[0];
  const broken = writable.find((s) => s.error);
  if (target?.error || (!target && broken)) {
    const b = (target ?? broken)!;
    return { kind: 'refuse', uri: b.uri, reason: 'unreadable', keys, line: b.error!.line, column: b.error!.column, detail: textOf(b.error!), entries };
  }
  const uri = target?.uri ?? bib.missing[0];
  // A thebibliography is LaTeX the user (or BibTeX, long ago) wrote: nothing is appended to it; declaring a .bib
  // beside it would print a second list, and creating a missing declared one would have BibTeX overwrite its .bbl.
  const thebib = bib.thebibliography?.find((s) => s.environments) ?? bib.thebibliography?.[0];
  // Declared, there, and no file we can read (a folder, a device, a pipe, over the cap): nothing is created over it.
  const there = bib.unreadable?.[0];
  if (!target && there) return { kind: 'refuse', uri: there, reason: 'not-a-file', keys, entries };
  if (!target && thebib) return { kind: 'refuse', uri: thebib.uri, reason: 'thebibliography', keys, entries };
  if (!uri) return { kind: 'declare', entries };
  if (!opts.allowOutside && !(await inWorkspaceReal(ws, uri))) {
    return { kind: 'refuse', uri, reason: 'outside-workspace', keys, entries };
  }
  if (target) return { kind: 'append', uri, entries };
  const folder = Utils.dirname(uri);
  if (!(await ws.exists(folder))) {
    return { kind: 'refuse', uri, reason: 'no-folder', keys, entries };
  }
  const fresh = readBibFile(uri.path, '');
  const insertion = fresh && planBibAddition(fresh, entries);
  if (!insertion || 'refusal' in insertion) return { kind: 'refuse', uri, reason: 'format', keys, entries };
  return { kind: 'create', uri, text: applySplices('', insertion.splices), entries };
}

/**
 * Decides what to cite and what to add for `entries` in a document ({@link planBibSync} over its
 * readable files: a BibTeX file with a broken entry is read for the entries that read; writing to
 * it is refused by {@link planBibliographyUpdate}). Files nobody declared (`bib.undeclared`) are
 * read for checks only: the document prints none of their entries, so every entry is to add (and
 * the host offers to declare a bibliography).
 */
export function planCitationSync(bib: DocumentBibliography | undefined, entries: readonly Entry[]): BibSyncPlan {
  if (bib?.undeclared) return planBibSync(entries, []);
  return planBibSync(entries, bib?.files.filter((s) => !s.error || s.format === 'bibtex') ?? []);
}
