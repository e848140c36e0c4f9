/**
 * A `.bib` entry's fields as a card shows them: names as people read them ("Jane Doe and R. Roe",
 * by BibTeX's name rules), LaTeX as text. Apart from `entryCards.ts` because it needs the library's
 * BibTeX name and LaTeX readers, which the VS Code client (which imports `entryCards.ts`) must not
 * bundle.
 */
import { allAuthors } from '../cite/names.js';
import { bibtexPerson, splitNames } from '../library/entries.js';
import { texToText } from '../bibliography/texToText.js';
import type { BibFields } from './entryCards.js';

/**
 * The fields of a `.bib` entry as {@link BibFields} for `bibEntryMarkdown`, read as text.
 *
 * @param f - the entry's fields as written (lower-case names)
 * @returns the title, authors, journal or booktitle as plain text, the year as written
 */
export function bibFieldsText(f: Readonly<Record<string, string | undefined>>): BibFields {
  const text = (v: string | undefined) => (v ? texToText(v) || undefined : undefined);
  return {
    title: text(f.title),
    author: f.author ? allAuthors(splitNames(f.author).map(bibtexPerson)) || undefined : undefined,
    journal: text(f.journal),
    booktitle: text(f.booktitle),
    year: f.year,
  };
}
