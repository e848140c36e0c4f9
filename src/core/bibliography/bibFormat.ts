/**
 * What a bibliography file is: its format by file name, and where a CSL-YAML document keeps its
 * items. A leaf every reader, planner and store imports, so that none of them needs the planner
 * (`planAdditions.ts`) to know what a file is.
 */
import { isMap, isScalar, isSeq, type Document, type Node as YamlNode } from 'yaml';

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

/**
 * The problem of a CSL-YAML file that is a list of items with no `references:` field. Pandoc reads
 * no reference from it ("citation alpha not found", checked with pandoc 2.17 and
 * `test/unit/hostilePass3.test.ts`): its keys are not defined, and nothing is appended to it.
 */
export const BARE_CSL_YAML_LIST = 'a list of CSL items with no "references:" field: pandoc reads no references from it (put the list under "references:")';

/**
 * Where the CSL items of a CSL-YAML bibliography are: Pandoc's `references:` list (Pandoc's User's
 * Guide, "Citations": a YAML bibliography is a mapping whose `references` field holds CSL items).
 * Anything else is not a CSL-YAML bibliography; a top-level list of items ({@link BARE_CSL_YAML_LIST})
 * neither, as pandoc reads it.
 *
 * @returns the list and its key; or `error`, with `at` the offset the problem is placed at (the
 *   list's start for a top-level list, else absent: the file's start)
 */
export function cslYamlReferences(doc: Document.Parsed): { list?: YamlNode; pairKey?: YamlNode; error?: string; at?: number } {
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return {};
  if (isSeq(root)) return { error: BARE_CSL_YAML_LIST, at: root.range?.[0] ?? 0 };
  if (!isMap(root)) return { error: 'not a CSL-YAML bibliography (expected "references:" with a list of CSL items)' };
  const pair = root.items.find((p) => isScalar(p.key) && p.key.value === 'references');
  if (!pair) return { error: 'not a CSL-YAML bibliography: it has no "references:" field' };
  const value = pair.value as YamlNode | null;
  if (value === null || (isScalar(value) && value.value === null)) return { pairKey: pair.key as YamlNode };
  if (!isSeq(value)) return { error: '"references:" must be a list of CSL items' };
  return { list: value, pairKey: pair.key as YamlNode };
}
