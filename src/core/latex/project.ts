/**
 * The LaTeX project model: which `.tex` files include which, the root files (those with
 * `\documentclass`) each file belongs to, and the bibliography each root declares across the files
 * it includes. A section file opened alone then cites from its root's bibliography, as TeX reads it
 * when the root is compiled, without a `% !TEX root` magic comment.
 *
 * How links are read and resolved, and where each rule comes from:
 * - `\input{file}` and `\input file` (LaTeX2e `ltfiles.dtx`: with braces LaTeX's `\input`, without
 *   them TeX's primitive, whose file name ends at a blank); `\include{file}` (always `file.tex`);
 *   `\InputIfFileExists{file}`; the subfiles package's `\subfile{file}` and `\subfileinclude{file}`.
 *   A name without an extension is tried as `name.tex`, then as `name` (kpathsea's order for TeX
 *   input files). Paths are relative to the root's folder, TeX's working directory when the root is
 *   compiled; as LaTeX Workshop and texlab do, the including file's own folder is tried after it.
 * - The import package's `\import{dir}{file}` (`dir` from the root's folder, or absolute) and
 *   `\subimport{dir}{file}` (`dir` from the importing file's import folder), and their `\inputfrom`,
 *   `\includefrom`, `\subinputfrom`, `\subincludefrom` forms: the imported file's own links are
 *   then read from `dir` first (import package manual, "\import", "\subimport").
 * - A root is a file with `\documentclass` (or LaTeX 2.09's `\documentstyle`), except a subfiles
 *   document (`\documentclass[main.tex]{subfiles}`, subfiles manual §2), whose roots are those of
 *   its main file, named relative to its own folder.
 * - A root's bibliography: its `\bibliography` and `\addbibresource` declarations and those of every
 *   file it includes, in the order the files are reached, paths relative to the root's folder (the
 *   folder BibTeX and biber run in), except a `\subfix{path}`, and a `\bibliography` path in a
 *   subfiles document, which are relative to the file that writes them (subfiles manual, "Fixing
 *   paths": the package applies `\subfix` to `\bibliography`).
 * - Every command is read outside comments, verbatim text and `\iffalse` blocks (`maskLatex`); a
 *   path holding a macro (`\input{\dir/a}`) or a macro parameter (`#1`) is not followed.
 *
 * Linear: each file is read and scanned once per change of its text; the graph is walked again only
 * when a change alters a file's links or whether it is a root, and that walk visits each file once
 * per root that reaches it (its work is counted in {@link LatexProject.lastGraphWork}). Cycles and a
 * file that includes itself are walked once.
 *
 * Pure: no `node:`, no `vscode`; files come in as URIs and texts from the host.
 */
import { URI, Utils } from 'vscode-uri';
import { latexBibliographies, latexDeclarationSpans, type BibDeclaration } from './bibDeclarations.js';
import { fromFolder } from '../workspace/writtenPath.js';
import { latexBibitems, type LatexThebibliography } from './bibitems.js';
import { latexCommands } from './commands.js';
import { BACKSLASH, isLetter, LBRACE, maskLatex } from './scan.js';
import { fileKind } from '../workspace/fileKind.js';
import type { Span, TextFact } from '../text/textFacts.js';

/** At most this many `.tex` files are indexed (a workspace that is a whole file system is not read whole). */
export const LATEX_FILE_LIMIT = 20000;

/** At most this many files of a root's chain are read on demand ({@link LatexProject.readChain}). */
export const ROOT_CHAIN_LIMIT = 256;

/** How a file is pulled in. */
export type LatexLinkKind = 'input' | 'include' | 'subfile' | 'import' | 'subimport';

/** One link from a LaTeX file to another, as written. */
export interface LatexLink {
  kind: LatexLinkKind;
  /** The file as written (quotes and blanks around it removed). */
  path: string;
  /** `import`/`subimport`: the folder argument as written ('' for none). */
  dir?: string;
}

/** What the project keeps of one file: read from its text once per change. */
export interface LatexFileFacts {
  links: LatexLink[];
  /** Its `\bibliography` and `\addbibresource` declarations, paths as written. */
  bibs: BibDeclaration[];
  /** It has `\documentclass` (or `\documentstyle`): it can be compiled. */
  documentClass: boolean;
  /** Its `\bibitem`s and `thebibliography` environments (`bibitems.ts`). */
  thebibliography: LatexThebibliography;
  /** A subfiles document: the main file its `\documentclass[main]{subfiles}` names, as written ('' when none). */
  subfilesMain?: string;
}

/** Commands that pull in one file, by name (without backslash or star). */
const INCLUDE_COMMANDS: ReadonlyMap<string, LatexLinkKind> = new Map([
  ['input', 'input'], ['include', 'include'], ['InputIfFileExists', 'input'], ['subfile', 'subfile'], ['subfileinclude', 'subfile'],
  ['import', 'import'], ['inputfrom', 'import'], ['includefrom', 'import'],
  ['subimport', 'subimport'], ['subinputfrom', 'subimport'], ['subincludefrom', 'subimport'],
]);

/** Whether a character ends the file name of TeX's primitive `\input name` (a blank, a line end, or a character that starts TeX code). */
const endsBareName = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === BACKSLASH || c === LBRACE || c === 125 || c === 37;

/** A path as written, or undefined when it cannot be followed statically (empty, a macro, a parameter). */
function cleanPath(raw: string): string | undefined {
  let p = raw.trim();
  if (p.length >= 2 && p.startsWith('"') && p.endsWith('"')) p = p.slice(1, -1).trim();
  if (!p || /[\\#{}%]/.test(p)) return undefined;
  return p;
}

/**
 * What a LaTeX file links to and declares (see the module's documentation for the rules).
 *
 * @param text - the file's text
 * @returns its links in order, its bibliography declarations, whether it is a root
 */
export function latexFileFacts(text: string, clean = maskLatex(text)): LatexFileFacts {
  const links: LatexLink[] = [];
  const several = (name: string) => INCLUDE_COMMANDS.get(name) === 'import' || INCLUDE_COMMANDS.get(name) === 'subimport';
  for (const cmd of latexCommands(clean, (name) => INCLUDE_COMMANDS.has(name), several)) {
    const kind = INCLUDE_COMMANDS.get(cmd.command)!;
    const closed = cmd.groups.filter((g) => g.close >= 0);
    const arg = (i: number) => (closed[i] ? clean.slice(closed[i]!.open + 1, closed[i]!.close) : undefined);
    if (kind === 'import' || kind === 'subimport') {
      const dir = arg(0);
      const path = cleanPath(arg(1) ?? '');
      const d = dir === undefined ? undefined : dir.trim() === '' ? '' : cleanPath(dir);
      if (path && d !== undefined) links.push({ kind, path, dir: d });
      continue;
    }
    const path = cleanPath(arg(0) ?? '');
    if (path) links.push({ kind, path });
  }
  // TeX's primitive form: `\input name` (no braces).
  for (let at = clean.indexOf('\\input'); at >= 0; at = clean.indexOf('\\input', at + 6)) {
    let run = 0;
    while (at - run - 1 >= 0 && clean.charCodeAt(at - run - 1) === BACKSLASH) run++;
    if (run % 2 === 1) continue;
    let k = at + 6;
    if (k < clean.length && isLetter(clean.charCodeAt(k))) continue;
    while (k < clean.length && (clean.charCodeAt(k) === 32 || clean.charCodeAt(k) === 9)) k++;
    if (k >= clean.length || clean.charCodeAt(k) === LBRACE) continue;
    const s = k;
    while (k < clean.length && !endsBareName(clean.charCodeAt(k))) k++;
    const path = cleanPath(clean.slice(s, k));
    if (path) links.push({ kind: 'input', path });
  }
  let documentClass = false;
  let subfilesMain: string | undefined;
  for (const cmd of latexCommands(clean, (name) => name === 'documentclass' || name === 'documentstyle')) {
    const g = cmd.groups[0]!;
    if (g.close < 0) continue;
    documentClass = true;
    if (clean.slice(g.open + 1, g.close).trim() === 'subfiles') {
      const option = /\[([^\]]*)\]/.exec(clean.slice(cmd.start, g.open));
      // A subfiles document without the option names no main file ('').
      subfilesMain = (option && cleanPath(option[1]!)) ?? '';
    }
  }
  return { links, bibs: latexBibliographies(text, clean), documentClass, subfilesMain, thebibliography: latexBibitems(text, clean) };
}

/**
 * {@link latexFileFacts} as a fact of a text (`text/textFacts.ts`). An edit may change it where
 * its declarations are read (`latexDeclarationSpans`), inside the arguments of a link,
 * `\documentclass`, `\begin` or `\end` (read with every argument that follows), an
 * optional argument after them (`\begin{refsection}[refs.bib]`), a `\input name` and the line after
 * it, or from the first `\bibitem` on (an item's text runs to the next one); an edit before a
 * `\bibitem` moves its offset.
 */
export const LATEX_FILE_FACTS: TextFact<LatexFileFacts> = {
  name: 'latexFileFacts',
  language: 'latex',
  value: (text) => latexFileFacts(text),
  compute(text) {
    const clean = maskLatex(text);
    const value = latexFileFacts(text, clean);
    const n = clean.length;
    const spans: Span[] = latexDeclarationSpans(clean);
    const read = (name: string) => INCLUDE_COMMANDS.has(name) || name === 'documentclass' || name === 'documentstyle' || name === 'begin' || name === 'end';
    for (const cmd of latexCommands(clean, read, () => true)) {
      let end = cmd.groups[cmd.groups.length - 1]!.end;
      let k = end + 1;
      while (k < n && /\s/.test(clean[k]!)) k++;
      if (clean[k] === '[') { const close = clean.indexOf(']', k); end = close < 0 ? n : close; }
      spans.push({ start: cmd.start, end });
    }
    for (let at = clean.indexOf('\\input'); at >= 0; at = clean.indexOf('\\input', at + 6)) {
      let end = at;
      for (let line = 0; line < 2 && end < n; line++) {
        while (end < n && clean[end] !== '\n' && clean[end] !== '\r') end++;
        end++;
      }
      spans.push({ start: at, end });
    }
    const first = clean.indexOf('\\bibitem');
    if (first >= 0) spans.push({ start: first, end: n });
    return { value, spans };
  },
  shift(value, at, delta) {
    if (!value.thebibliography.items.some((i) => i.offset >= at)) return value;
    const items = value.thebibliography.items.map((i) => (i.offset >= at ? { ...i, offset: i.offset + delta } : i));
    return { ...value, thebibliography: { ...value.thebibliography, items } };
  },
};

/** `path` from folder `dir` (an absolute path as it is), normalised (`writtenPath.ts`). */
const under = fromFolder;

/** The names TeX tries for an input file: `name.tex` then `name`, or `name` alone when it has the extension; `\include` only `name.tex`. */
function candidateNames(kind: LatexLinkKind, path: string): string[] {
  if (/\.tex$/i.test(path)) return [path];
  return kind === 'include' ? [`${path}.tex`] : [`${path}.tex`, path];
}

/** Whether a link names a `.bbl` file (`\input{main.bbl}`): a file the project does not index, but whose `\bibitem`s count. */
const namesBbl = (link: LatexLink): boolean => namesBblFile(link.path);
const namesBblFile = (name: string): boolean => fileKind(name) === 'bbl';

/**
 * The `.bbl` files a file's own links name, each as the URIs TeX tries in order, from the file's
 * folder: for a file read alone, which no project holds (see {@link LatexProject.thebibliographyOf}).
 */
export function bblCandidates(uri: URI, facts: LatexFileFacts): URI[][] {
  const dir = Utils.dirname(uri);
  return facts.links.filter(namesBbl).map((link) => candidateNames(link.kind, link.path).map((name) => under(link.dir ? under(dir, link.dir) : dir, name)));
}

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
    for (const { dir, base: next } of this.linkDirs(from, base, rootDir, link)) {
      const target = this.lookup(candidateNames(link.kind, link.path).map((name) => under(dir, name)));
      if (target) return { target, base: next };
    }
    return undefined;
  }

  /** The folders a link's file is looked for in, in order, each with the folder the file's own links are then read from. */
  private linkDirs(from: FileState, base: URI, rootDir: URI, link: LatexLink): { dir: URI; base: URI }[] {
    const dirs: { dir: URI; base: URI }[] = [];
    const own = Utils.dirname(from.uri);
    if (link.kind === 'import' || link.kind === 'subimport') {
      const d = link.dir ?? '';
      const starts = link.kind === 'import' ? [rootDir, own] : [base, own];
      for (const s of starts) {
        const dir = d ? under(s, d) : s;
        dirs.push({ dir, base: dir });
      }
    } else {
      for (const dir of [base, rootDir, own]) dirs.push({ dir, base });
    }
    const seen = new Set<string>();
    return dirs.filter(({ dir }) => !seen.has(dir.toString()) && !!seen.add(dir.toString()));
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
          if (unresolved && !namesBbl(link)) unresolved.push({ from: file.uri, path: link.path, candidates: this.linkDirs(file, base, rootDir, link).flatMap(({ dir }) => candidateNames(link.kind, link.path).map((name) => under(dir, name))) });
          // Its `.tex` candidates (`main.bbl.tex`) were looked up: the project holds every `.tex` file it may read.
          if (namesBbl(link)) bbl.push(this.linkDirs(file, base, rootDir, link).flatMap(({ dir }) => candidateNames(link.kind, link.path).filter(namesBblFile).map((name) => under(dir, name))));
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
      const main = this.lookup(candidateNames('input', self.facts.subfilesMain).map((n) => under(dir, n)));
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

/** What {@link indexLatexFiles} needs from its host. */
export interface LatexIndexHost {
  /** A file's text (an open document's first); undefined when it cannot be read. */
  read(uri: URI): Promise<string | undefined>;
  /** Whether to pause now (a slice's time is up); default never. */
  shouldYield?(): boolean;
  /** Pauses, letting the host answer other requests. */
  yield?(): Promise<void>;
  /** Told after each pause and at the end: files done of total. */
  progress?(done: number, total: number): void;
  /** Stops the indexing when true (a newer one started). */
  cancelled?(): boolean;
}

/**
 * Reads files into a project, each once, in slices: between slices the host answers other requests.
 *
 * @param uris - the `.tex` files to index (the workspace's listing)
 * @returns how many files were read, or -1 when cancelled
 */
export async function indexLatexFiles(project: LatexProject, uris: readonly URI[], host: LatexIndexHost): Promise<number> {
  let done = 0;
  for (const uri of uris) {
    if (host.cancelled?.()) return -1;
    const text = await host.read(uri);
    if (text !== undefined) project.set(uri, text);
    done++;
    if (host.shouldYield?.()) {
      host.progress?.(done, uris.length);
      await host.yield?.();
    }
  }
  host.progress?.(done, uris.length);
  return done;
}
