/**
 * A LaTeX document's `thebibliography`: the `\bibitem` keys of the files of its roots
 * (`bibitems.ts`), read across a root's `\input`/`\include`d files and the `.bbl` files they input
 * (`\input{main.bbl}`), as LaTeX reads them when the root is compiled. These keys are defined as a
 * `.bib` file's keys are: citing one is no unknown key.
 *
 * Pure: files come through the resolver's {@link WorkspaceFiles}, parsed once per change ({@link BibCache}).
 */
import type { URI } from 'vscode-uri';
import type { BibCache } from './bibCache.js';
import type { WorkspaceFiles } from '../workspace/files.js';
import { texToText } from './texToText.js';
import { latexBibitems, type LatexBibitem } from '../latex/bibitems.js';
import { LATEX_FILE_FACTS } from '../latex/fileFacts.js';
import { bblCandidates } from '../latex/inputPaths.js';
import type { LatexProject, ThebibliographyFiles } from '../latex/project.js';
import { factOf, type FactSource } from '../text/textFacts.js';

/** A file that defines `\bibitem` keys or holds a `thebibliography` environment. */
export interface ThebibliographySource {
  uri: URI;
  items: readonly LatexBibitem[];
  /** How many `\begin{thebibliography}` it has. */
  environments: number;
}

/**
 * The `thebibliography` of a document's LaTeX roots: every file that defines `\bibitem` keys or
 * holds the environment, in the order LaTeX reads them, each once.
 *
 * @param ws - reads the `.bbl` files
 * @param cache - keeps each `.bbl` file's scan per change of the file
 * @param roots - the document's roots, in order (`resolveBibliography`'s)
 * @param doc - the document itself, whose text may be newer than the file's
 * @param project - the workspace's LaTeX project; without it (or when it does not know a root)
 *   the document, when it is its own root, is scanned alone with the `.bbl` files it inputs, and a
 *   root named by `% !TEX root` or the `latexRoot` setting counts for nothing here (a known limit:
 *   the server and the CLI always have a project, which holds every `.tex` file of the workspace)
 * @param jobBbl - also read each root's own `.bbl` (`main.tex`: `main.bbl`), which LaTeX's
 *   `\bibliography` inputs: for a document whose declared `.bib` files are all missing, as in an
 *   arXiv submission, which ships the `.bbl` BibTeX wrote and not the `.bib`
 * @param mayRead - whether a `.bbl` file may be read (the resolver's containment rule: inside the
 *   workspace, by real path); one that may not is left out as if it did not exist, and TeX's next
 *   candidate is tried
 * @returns the sources (empty when none); a `.bbl` file that does not exist is left out
 */
export async function readThebibliography(
  ws: WorkspaceFiles, cache: BibCache, roots: readonly URI[], doc: { uri: URI; readonly text: string; readonly facts?: FactSource },
  project?: Partial<Pick<LatexProject, 'thebibliographyOf'>>, jobBbl = false, mayRead: (uri: URI) => Promise<boolean> = async () => true,
): Promise<ThebibliographySource[]> {
  const out: ThebibliographySource[] = [];
  const seen = new Set<string>();
  const add = (uri: URI, t: { items: readonly LatexBibitem[]; environments: number }) => {
    if (seen.has(uri.toString())) return;
    seen.add(uri.toString());
    if (t.items.length || t.environments) out.push({ uri, items: t.items, environments: t.environments });
  };
  for (const root of roots) {
    let files: ThebibliographyFiles | undefined = project?.thebibliographyOf?.(root);
    if (!files) {
      // Without the project, only the document is scanned: another root (a `% !TEX root`) is read
      // for its declarations alone, once per change, as the resolver caches them.
      if (root.toString() !== doc.uri.toString()) continue;
      const facts = factOf(doc, LATEX_FILE_FACTS).value;
      files = { files: [{ uri: root, thebibliography: facts.thebibliography }], bbl: bblCandidates(root, facts) };
    }
    for (const f of files.files) add(f.uri, f.thebibliography);
    // `\bibliography` inputs the root's own `.bbl` (ltbibl.dtx: `\@input@{\jobname.bbl}`), BibTeX's output.
    const bbl = jobBbl ? [...files.bbl, [root.with({ path: root.path.replace(/(\.[^./]*)?$/, '.bbl') })]] : files.bbl;
    for (const candidates of bbl) {
      for (const uri of candidates) {
        if (!(await mayRead(uri))) continue;
        const read = await cache.get(ws, uri, 'bibitems', (text) => latexBibitems(text));
        if (read) { add(uri, read); break; }
      }
    }
  }
  return out;
}

/**
 * The `\bibitem` that defines a key: the last one LaTeX reads (each `\bibitem` writes
 * `\bibcite{key}` to the `.aux` file, and the last definition wins). Keys are compared exactly:
 * LaTeX's are case-sensitive (`ltbibl.dtx`: the key names the macro `\b@key`).
 *
 * @param sources - from {@link readThebibliography}; undefined gives none
 */
export function bibitemOf(sources: readonly ThebibliographySource[] | undefined, key: string): { source: ThebibliographySource; item: LatexBibitem } | undefined {
  let found: { source: ThebibliographySource; item: LatexBibitem } | undefined;
  for (const source of sources ?? []) {
    for (const item of source.items) if (item.key === key) found = { source, item };
  }
  return found;
}

/** The keys the `\bibitem`s of a thebibliography define (exactly as written). */
export function bibitemKeys(sources: readonly ThebibliographySource[] | undefined): Set<string> {
  return new Set(sources?.flatMap((s) => s.items.map((i) => i.key)) ?? []);
}

/**
 * Whether a document's bibliography defines a key: an entry of its bibliography files (compared
 * ignoring case, as BibTeX compares keys), a `.bib` entry commented out with `%` (which BibTeX
 * reads), or a `\bibitem` of its `thebibliography` (compared exactly, as LaTeX does).
 *
 * @param bib - the resolved bibliography (`resolveBibliography`); undefined defines nothing
 * @returns a test, built once (a set of each kind of key)
 */
export function definedKeys(bib: { files: readonly { entries: readonly { key: string }[]; commented?: readonly string[] }[]; thebibliography?: readonly ThebibliographySource[] } | undefined): (key: string) => boolean {
  // An entry commented out with % counts: BibTeX reads it (biber does not; which one builds is not known, and a false alarm costs more).
  const entries = new Set(bib?.files.flatMap((f) => [...f.entries.map((e) => e.key.toLowerCase()), ...(f.commented ?? []).map((k) => k.toLowerCase())]) ?? []);
  const items = bibitemKeys(bib?.thebibliography);
  return (key) => items.has(key) || entries.has(key.toLowerCase());
}

/**
 * A `\bibitem` as plain text for a completion's detail or a hover: its label (natbib's
 * `{Smith et~al.(2020)}` as `Smith et al.(2020)`) when `part` is `label` and it has one, else its
 * text, converted by `texToText` (`bibliography/texToText.ts`: accents, dashes, formatting commands dropped).
 *
 * @param max - at most this many characters; a longer text is cut and ends with `…`
 * @returns the text, or '' when there is none
 */
export function bibitemPlainText(item: LatexBibitem, part: 'label' | 'text', max: number): string {
  const plain = texToText(part === 'label' && item.label !== undefined ? item.label : item.text).replace(/\s+/g, ' ');
  return plain.length > max ? `${plain.slice(0, Math.max(0, max - 1)).trimEnd()}…` : plain;
}
