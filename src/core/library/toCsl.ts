/**
 * A library's BibTeX entry as a CSL item, for CSL bibliographies and formatted references: by
 * Citation.js's own mapping, so the entry reads as Citation.js and Zotero read it.
 */
import { parse as parseBibtexEntries } from '@citation-js/plugin-bibtex/lib/input/entries.js';

/**
 * One BibTeX entry (as Citation.js's parser returns it) as a CSL item, by Citation.js's own
 * mapping (`@citation-js/plugin-bibtex`: biblatex and BibTeX fields to CSL variables, LaTeX to
 * Unicode, names split).
 *
 * @returns the item (its `id` is the citation key)
 * @throws Error when Citation.js cannot read one of the entry's values (an unclosed math string)
 */
export function bibtexToCsl(raw: { type: string; label: string; properties: Record<string, string> }): Record<string, unknown> | undefined {
  const [item] = parseBibtexEntries([raw]);
  return item && { ...item, id: raw.label };
}
