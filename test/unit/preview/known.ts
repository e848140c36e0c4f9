/**
 * Where the Markdown preview's citations differ from `pandoc --citeproc` 2.17 on the fixtures, each
 * with its reason; the tests fail when a listed difference goes away (the list is kept true).
 */

/** Text compared: case and blanks ignored (citeproc-js leaves a title's case as written; pandoc's citeproc makes it sentence case). */
export const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, '');

/**
 * Where the preview differs from pandoc 2.17, by style and pandoc's text of the citation, with the
 * reason (pandoc's own output, or citeproc-js's against pandoc's citeproc).
 */
export const KNOWN: { style: string; pandoc: string; reason: string }[] = [
  { style: 'apa', pandoc: '(Kwon et al., 2023, p. 4; Smith & Doe; 2020)', reason: 'an author-in-text citation joined by a bracketed one in a style that sorts its citations: pandoc 2.17 prints the names apart from the year; citeproc-js sorts the author-in-text work after the other' },
  { style: 'apa', pandoc: '(Smith & Doe, 2020, pp. Table 2)', reason: 'a delimited locator with a blank ({Table 2}): pandoc\'s citeproc takes it for a plural, citeproc-js for a singular' },
  { style: 'ieee', pandoc: '[2, pp. Table 2]', reason: 'the same plural of {Table 2}' },
  { style: 'gb-t-7714-2015', pandoc: '[nokey?,2]', reason: 'an unknown key before a known one: the style\'s brackets are a group inside its layout, which the preview cannot put the unknown key into' },
];

/** Where the bibliography's entries differ, by style: what both are compared without, and why. */
export const KNOWN_ENTRIES: Record<string, { without: RegExp; reason: string }> = {
  'gb-t-7714-2015': { without: /[.,]/g, reason: 'pandoc 2.17\'s citeproc separates the authors with ". " where the style\'s name delimiter is ", " (citeproc-js follows the style)' },
};

