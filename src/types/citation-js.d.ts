// Citation.js ships no type declarations for its BibTeX file parser; this is the part we use.
declare module '@citation-js/plugin-bibtex/lib/input/file.js' {
  /** Parses BibTeX text into entries; throws a SyntaxError naming `line L col C` on invalid input. */
  export function parse(text: string): { type: string; label: string; properties: Record<string, string> }[];
}
