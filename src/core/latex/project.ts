/**
 * The LaTeX project model: which `.tex` files include which, the root files (those with
 * `\documentclass`) each file belongs to, and the bibliography each root declares across the files
 * it includes. A section file opened alone then cites from its root's bibliography, as TeX reads it
 * when the root is compiled, without a `% !TEX root` magic comment.
 *
 * Each file is kept as its facts (`fileFacts.ts`: its links, declarations, `\bibitem`s, whether it
 * is a root); links are resolved where TeX looks for them (`inputPaths.ts`). The model's own rules:
 * - A root is a file with `\documentclass` (or LaTeX 2.09's `\documentstyle`), except a subfiles
 *   document (`\documentclass[main.tex]{subfiles}`, subfiles manual §2), whose roots are those of
 *   its main file, named relative to its own folder.
 * - A root's bibliography: its `\bibliography` and `\addbibresource` declarations and those of every
 *   file it includes, in the order the files are reached, paths relative to the root's folder (the
 *   folder BibTeX and biber run in), except a `\subfix{path}`, and a `\bibliography` path in a
 *   subfiles document, which are relative to the file that writes them (subfiles manual, "Fixing
 *   paths": the package applies `\subfix` to `\bibliography`).
 *
 * Linear: each file is read and scanned once per change of its text; the graph is walked again only
 * when a change alters a file's links or whether it is a root, and that walk visits each file once
 * per root that reaches it (its work is counted in {@link LatexProject.lastGraphWork}). Cycles and a
 * file that includes itself are walked once.
 *
 * Pure: no `node:`, no `vscode`; files come in as URIs and texts from the host (`indexing.ts` reads
 * a workspace's files in).
 */
import { URI, Utils } from 'vscode-uri';
import type { BibDeclaration } from './bibDeclarations.js';
import type { LatexThebibliography } from './bibitems.js';
import { latexFileFacts, type LatexFileFacts, type LatexLink } from './fileFacts.js';
import { bblCandidates, candidateNames, linkCandidates, linkFolders, namesBbl, namesBblFile } from './inputPaths.js';
import { fromFolder } from '../workspace/writtenPath.js';
import { fileKind } from '../workspace/fileKind.js';

/** At most this many files of a root's chain are read on demand ({@link LatexProject.readChain}). */
export const ROOT_CHAIN_LIMIT = 256;

/** Where a root's `\bibitem`s are: the files it reaches with their scans, and the `.bbl` files its links name (see {@link LatexProject.thebibliographyOf}). */
export interface ThebibliographyFiles {
  files: { uri: URI; thebibliography: LatexThebibliography }[];
  /** Per link to a `.bbl` file that is no known file, the URIs TeX would try, in order. */
  bbl: URI[][];
}

/** A link of a root's file that leads to no file the project knows (see {@link LatexProject.unresolvedOf}). */
export interface UnresolvedLink {
  /** The file that holds the link. */
  from: URI;
  /** The file as written. */
  path: string;
  /** The files TeX would try, in order (`name.tex` then `name`, in each folder the link is looked for in). */
  candidates: URI[];
}

interface FileState {
  uri: URI;
  facts: LatexFileFacts;
  /** The facts that decide the graph's shape, as one string (links, root, subfiles main). */
  shape: string;
}

/**
 * The LaTeX files of a workspace and the graph of their links. Files are added as their texts come
 * (the host's indexing, open documents, watched-file events); queries read only what is kept.
 */
export class LatexProject {
  private readonly files = new Map<string, FileState>();
  /** Texts set but not scanned yet (open documents, scanned on the next query). */
  private readonly pending = new Map<string, { uri: URI; text: string | (() => LatexFileFacts) }>();
  private graphVersion = 0;
  private walkedVersion = -1;
  /** For each file, the roots whose walk reaches it, in root order. */
  private rootsReaching = new Map<string, string[]>();
  /** For each root, the files it reaches, in the order reached (the root first). */
  private reach = new Map<string, string[]>();
  /** For each root, its files' links to `.bbl` files that are no known file: the URIs to try, in order. */
  private bbl = new Map<string, URI[][]>();
  /** For each root, its files' other links that lead to no known file ({@link unresolvedOf}). */
  private unresolved = new Map<string, UnresolvedLink[]>();
  /** Links followed and files visited by the last walk of the graph (for tests that bound it). */
  lastGraphWork = 0;
  /** How many texts were scanned since the project was made (for tests that count work). */
  scans = 0;
  /**
   * True while the host is still reading the workspace's files into the project (the server's
   * indexer): its answers may lack files not read yet.
   */
  indexing = false;
  /** Grows whenever a file's links, root status or declarations change, or a file goes: answers may differ. */
  revision = 0;

  /** How many files the project knows. */
  get size(): number {
    this.flush();
    return this.files.size;
  }

  /** Whether the project knows a file. */
  has(uri: URI): boolean {
    return this.files.has(uri.toString()) || this.pending.has(uri.toString());
  }

  /**
   * Sets a file's text: scanned at once (`now`), or on the next query (an open document's text,
   * which changes on every keystroke and is scanned only when asked about). `text` may be a
   * function giving the file's facts: an open document's, which the document keeps across edits.
   *
   * @returns whether the file's links, root status or declarations changed (when scanned at once)
   */
  set(uri: URI, text: string | (() => LatexFileFacts), now = true): boolean {
    const id = uri.toString();
    if (!now) {
      this.pending.set(id, { uri, text });
      return false;
    }
    this.pending.delete(id);
    return this.apply(uri, typeof text === 'string' ? latexFileFacts(text) : text());
  }

  /** Forgets a file (deleted). @returns whether the project knew it */
  delete(uri: URI): boolean {
    const id = uri.toString();
    const had = this.files.delete(id) || this.pending.delete(id);
    if (had) { this.graphVersion++; this.revision++; }
    return had;
  }

  /**
   * Forgets every file but those `keep` names (by URI string).
   *
   * @param keep - the files to keep (open documents, whose text the editor has)
   */
  clear(keep: (uri: string) => boolean = () => false): void {
    for (const map of [this.files, this.pending]) {
      for (const id of [...map.keys()]) if (!keep(id)) map.delete(id);
    }
    this.graphVersion++;
    this.revision++;
  }

  /** Scans the pending texts. @returns whether any file's facts changed */
  flush(): boolean {
    let changed = false;
    for (const { uri, text } of [...this.pending.values()]) changed = this.set(uri, text) || changed;
    return changed;
  }

  private apply(uri: URI, facts: LatexFileFacts): boolean {
    this.scans++;
    const id = uri.toString();
    const shape = JSON.stringify([facts.links, facts.documentClass, facts.subfilesMain ?? null]);
    const old = this.files.get(id);
    this.files.set(id, { uri, facts, shape });
    if (old?.shape !== shape) {
      this.graphVersion++;
      this.revision++;
      return true;
    }
    // The keys a file defines matter to diagnostics; where they are does not (it moves on every keystroke above them).
    const defined = (f: LatexFileFacts) => JSON.stringify([f.bibs, f.thebibliography.environments, f.thebibliography.items.map((i) => i.key)]);
    const changed = defined(old.facts) !== defined(facts);
    if (changed) this.revision++;
    return changed;
  }

  /** A known file at one of the candidate URIs, in order. */
  private lookup(candidates: readonly URI[]): FileState | undefined {
    for (const c of candidates) {
      this.lastGraphWork++;
      const f = this.files.get(c.toString());
      if (f) return f;
    }
    return undefined;
  }

  /** Whether a file is a root: it has `\documentclass` and is no subfiles document. */
  private isRoot(f: FileState): boolean {
    return f.facts.documentClass && f.facts.subfilesMain === undefined;
  }

  /**
   * Where a link of `from` leads: its target file and the folder the target's own links are read
   * from first (the import folder; else the root's folder).
   */
  private follow(from: FileState, base: URI, rootDir: URI, link: LatexLink): { target: FileState; base: URI } | undefined {
    for (const { dir, base: next } of linkFolders(from.uri, base, rootDir, link)) {
      const target = this.lookup(candidateNames(link.kind, link.path).map((name) => fromFolder(dir, name)));
      if (target) return { target, base: next };
    }
    return undefined;
  }

  /** Walks the graph from every root again when its shape changed since the last walk. */
  private walk(): void {
    this.flush();
    if (this.walkedVersion === this.graphVersion) return;
    this.walkedVersion = this.graphVersion;
    this.lastGraphWork = 0;
    this.rootsReaching = new Map();
    this.reach = new Map();
    this.bbl = new Map();
    this.unresolved = new Map();
    const roots = [...this.files.values()].filter((f) => this.isRoot(f)).sort((a, b) => (a.uri.toString() < b.uri.toString() ? -1 : 1));
    for (const root of roots) {
      const rootId = root.uri.toString();
      const unresolved: UnresolvedLink[] = [];
      const { order, bbl } = this.reachFrom(root, unresolved);
      for (const id of order) {
        let list = this.rootsReaching.get(id);
        if (!list) this.rootsReaching.set(id, list = []);
        list.push(rootId);
      }
      this.reach.set(rootId, order);
      this.bbl.set(rootId, bbl);
      this.unresolved.set(rootId, unresolved);
    }
  }

  /**
   * The files a root reaches, depth first in link order (the order TeX reads them), and the
   * `.bbl` links no known file answers.
   *
   * @param unresolved - when given, receives each other link no known file answers: the file it
   *   is in, its path as written and the URIs TeX tries, in order
   */
  private reachFrom(root: FileState, unresolved?: UnresolvedLink[]): { order: string[]; bbl: URI[][] } {
    const rootDir = Utils.dirname(root.uri);
    const order: string[] = [];
    const bbl: URI[][] = [];
    const visited = new Set<string>([root.uri.toString()]);
    // Depth first, in link order: files are reached in the order TeX reads them.
    const stack: { file: FileState; base: URI }[] = [{ file: root, base: rootDir }];
    while (stack.length) {
      const { file, base } = stack.pop()!;
      this.lastGraphWork++;
      const id = file.uri.toString();
      order.push(id);
      const next: { file: FileState; base: URI }[] = [];
      for (const link of file.facts.links) {
        const to = this.follow(file, base, rootDir, link);
        if (!to) {
          if (unresolved && !namesBbl(link)) unresolved.push({ from: file.uri, path: link.path, candidates: linkCandidates(file.uri, base, rootDir, link) });
          // Its `.tex` candidates (`main.bbl.tex`) were looked up: the project holds every `.tex` file it may read.
          if (namesBbl(link)) bbl.push(linkCandidates(file.uri, base, rootDir, link, namesBblFile));
          continue;
        }
        const tid = to.target.uri.toString();
        if (visited.has(tid)) continue;
        visited.add(tid);
        next.push({ file: to.target, base: to.base });
      }
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
    }
    return { order, bbl };
  }

  /**
   * The roots of a file, in the order their bibliographies count: the file itself when it is a
   * root; for a subfiles document, the roots of its main file; then every root whose includes reach
   * it (by URI). Empty when the project finds none (the file is then its own root).
   */
  rootsOf(uri: URI): URI[] {
    this.walk();
    const id = uri.toString();
    const out = new Map<string, URI>();
    const self = this.files.get(id);
    if (self && this.isRoot(self)) out.set(id, self.uri);
    if (self?.facts.subfilesMain) {
      const dir = Utils.dirname(self.uri);
      const main = this.lookup(candidateNames('input', self.facts.subfilesMain).map((n) => fromFolder(dir, n)));
      if (main) {
        if (this.isRoot(main)) out.set(main.uri.toString(), main.uri);
        for (const r of this.rootsReaching.get(main.uri.toString()) ?? []) out.set(r, this.files.get(r)!.uri);
      }
    }
    for (const r of this.rootsReaching.get(id) ?? []) out.set(r, this.files.get(r)!.uri);
    return [...out.values()];
  }

  /**
   * The bibliography declarations of a root and of every file it includes, in the order the files
   * are reached (the root's first), paths as written: relative to the root's folder, or to the
   * declaring file's (`dir`) for a `\subfix` path and a subfiles document's `\bibliography`.
   *
   * @param asRoot - read a file that is no root (no `\documentclass`: a `% !TEX root` naming a
   *   file whose class comes from a file it `\input`s) as a root all the same, following its links
   * @returns undefined when the project does not know the file
   */
  declarationsOf(root: URI, asRoot = false): BibDeclaration[] | undefined {
    this.walk();
    const id = root.toString();
    const self = this.files.get(id);
    if (!self) return undefined;
    const files = this.reach.get(id) ?? (asRoot ? this.reachFrom(self).order : [id]);
    return files.flatMap((f) => {
      const file = this.files.get(f);
      if (!file) return [];
      // A \subfix path is relative to the file that writes it, and so is a \bibliography in a
      // subfiles document (the package applies \subfix to \bibliography itself: subfiles manual,
      // "Fixing paths"), whether the subfile is compiled alone or through its main file.
      const own = f !== id && file.facts.subfilesMain !== undefined;
      const dir = Utils.dirname(file.uri);
      return file.facts.bibs.map((b) => (f !== id && (b.subfix || (own && b.via === 'bibtex')) ? { ...b, dir } : b));
    });
  }

  /**
   * Where a root's `\bibitem`s are read from: the root and every file it reaches, in the order
   * reached, with their scans; and the `.bbl` files their links name (`\input{main.bbl}`), which
   * the project does not index, as the URIs TeX tries in order (`main.bbl.tex`, then `main.bbl`,
   * in each folder {@link LatexProject.rootsOf}'s links are looked for in). The host reads those.
   *
   * @returns undefined when the project does not know the file; for a known file that is no root,
   *   that file alone
   */
  thebibliographyOf(root: URI): ThebibliographyFiles | undefined {
    this.walk();
    const id = root.toString();
    const self = this.files.get(id);
    if (!self) return undefined;
    const reached = this.reach.get(id);
    if (!reached) return { files: [{ uri: self.uri, thebibliography: self.facts.thebibliography }], bbl: bblCandidates(self.uri, self.facts) };
    return { files: reached.map((f) => ({ uri: this.files.get(f)!.uri, thebibliography: this.files.get(f)!.facts.thebibliography })), bbl: this.bbl.get(id) ?? [] };
  }

  /**
   * The links of a root's files that lead to no file the project knows (`\input{glyphtounicode}`
   * from TeX's own tree, `\\input{figure.pgf}`, a file not written yet), `.bbl` files aside
   * ({@link thebibliographyOf}): what the root reads is then not known in full from the project alone.
   *
   * @returns in the order reached; empty when the root is not known or every link resolves
   */
  unresolvedOf(root: URI): UnresolvedLink[] {
    this.walk();
    return this.unresolved.get(root.toString()) ?? [];
  }

  /**
   * Reads a root's link chain into this project on demand, breadth first by depth: each link no
   * known file answers is looked for where TeX looks ({@link LatexProject.declarationsOf}'s rules),
   * each candidate `.tex` file read at most once, at most `limit` reads in all.
   *
   * @param read - a file's facts ({@link latexFileFacts} of its text, which the caller may cache by
   *   stamp; it decides what may be read); undefined when it cannot be read
   * @returns whether the root could be read
   */
  async readChain(root: URI, read: (uri: URI) => Promise<LatexFileFacts | undefined>, limit = ROOT_CHAIN_LIMIT): Promise<boolean> {
    const facts = await read(root);
    if (facts === undefined) return false;
    this.pending.delete(root.toString());
    this.apply(root, facts);
    const tried = new Set<string>([root.toString()]);
    let reads = 1;
    for (let added = true; added;) {
      added = false;
      const unresolved: UnresolvedLink[] = [];
      this.reachFrom(this.files.get(root.toString())!, unresolved);
      for (const { candidates } of unresolved) {
        for (const c of candidates) {
          const id = c.toString();
          if (tried.has(id) || fileKind(c) !== 'latex') continue;
          if (reads >= limit) return true;
          tried.add(id);
          reads++;
          const f = await read(c);
          if (f === undefined) continue;
          this.pending.delete(id);
          this.apply(c, f);
          added = true;
          break;
        }
      }
    }
    return true;
  }

  /** The files a root reaches through its links, the root first (empty when it is not a known root). */
  filesOf(root: URI): URI[] {
    this.walk();
    return (this.reach.get(root.toString()) ?? []).map((f) => this.files.get(f)!.uri);
  }
}
