// Citation.js ships no type declarations for its BibTeX file parser; this is the part we use.
declare module '@citation-js/plugin-bibtex/lib/input/file.js' {
  /** Parses BibTeX text into entries; throws a SyntaxError naming `line L col C` on invalid input. */
  export function parse(text: string): { type: string; label: string; properties: Record<string, string> }[];
}
declare module '@citation-js/plugin-bibtex/lib/input/constants.js' {
  /** The macros every file starts with (month numbers, journal names of BibTeX's `plain.bst`), by lower-case name. */
  export const defaultStrings: Record<string, string>;
}

// citeproc-js ships no type declarations; this is the part we use (citeproc-js manual, "Running the processor").
declare module 'citeproc' {
  interface Sys {
    retrieveLocale(lang: string): string | undefined;
    retrieveItem(id: string): unknown;
  }
  class Engine {
    constructor(sys: Sys, style: string, lang?: string, forceLang?: boolean);
    setOutputFormat(format: 'text' | 'html' | 'rtf'): void;
    updateItems(ids: string[]): void;
    makeBibliography(): [unknown, string[]] | false;
  }
  const CSL: { Engine: typeof Engine };
  export default CSL;
}
