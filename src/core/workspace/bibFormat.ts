/**
 * What a bibliography file is: its format by file name. A leaf every reader, planner and store
 * imports (and `workspace/fileKind.ts`, which the client bundles too: no YAML library here).
 */

/** Bibliography formats Pandoc reads and we can append to. */
export type BibFormat = 'bibtex' | 'csl-json' | 'csl-yaml';

/**
 * The format of a bibliography file, from its extension: Pandoc's rule (MANUAL, "Specifying
 * bibliographic data": `.bib`/`.bibtex` BibTeX, `.json` CSL JSON, `.yaml`/`.yml` CSL YAML; we read
 * `.bib` as BibTeX with biblatex's fields).
 *
 * @param path - a path or URI path; only its ending is read
 * @returns undefined for any other extension
 */
export function bibFormatOf(path: string): BibFormat | undefined {
  if (/\.(bib|bibtex)$/i.test(path)) return 'bibtex';
  if (/\.json$/i.test(path)) return 'csl-json';
  if (/\.ya?ml$/i.test(path)) return 'csl-yaml';
  return undefined;
}
