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
    updateUncitedItems(ids: string[]): void;
    makeBibliography(): [BibliographyParams, string[]] | false;
    /** Processes every citation at once ("Dynamic batched mode"): `[citationID, noteIndex, text]` per citation, in order. */
    rebuildProcessorState(citations: Citation[], format?: 'text' | 'html' | 'rtf', uncited?: string[]): [string, number, string][];
  }
  /** A citation cluster (citeproc-js manual, "Citations"). */
  export interface Citation {
    citationID: string;
    citationItems: CitationItem[];
    properties: { noteIndex: number; mode?: 'composite' | 'author-only' | 'suppress-author' };
  }
  export interface CitationItem {
    id: string;
    locator?: string;
    label?: string;
    prefix?: string;
    suffix?: string;
    'suppress-author'?: boolean;
    'author-only'?: boolean;
  }
  /** The first element of `makeBibliography`'s result. */
  export interface BibliographyParams {
    entry_ids: string[][];
    hangingindent?: boolean | number;
    'second-field-align'?: string | false;
    linespacing?: number;
    entryspacing?: number;
  }
  const CSL: { Engine: typeof Engine };
  export default CSL;
}
declare module '@citation-js/plugin-bibtex/lib/input/constants.js' {
  /** Diacritic commands (`"`, `'`, `v`, `c`) to the combining character they add. */
  export const diacritics: Record<string, string>;
  /** Text commands (`ss`, `o`, `textendash`) to the character they stand for. */
  export const commands: Record<string, string>;
  /** `--`, `---`, ` `` `, `''`, `~` to their characters. */
  export const ligatures: Record<string, string>;
  /** Math-mode commands (`alpha`, `times`) to the character they stand for. */
  export const mathCommands: Record<string, string>;
}
declare module '@citation-js/plugin-bibtex/lib/input/file.js' {
  /** A token of Citation.js's moo lexer. */
  export interface BibToken { type: string; value: string; text: string; offset: number; line: number; col: number }
  /** The moo lexer the grammar reads (its `index` is the offset of the next token). */
  export interface BibLexer {
    reset(text: string, info?: { line: number; col: number; state: string; stack: string[] }): BibLexer;
    next(): BibToken | undefined;
    clone(): BibLexer;
    index: number;
    formatError(token: BibToken | undefined, message: string): string;
  }
  /** The BibTeX grammar (`@citation-js/core`'s `util.Grammar`): its rules, and the lexer of its last parse. */
  export const bibtexGrammar: {
    rules: Record<string, (this: BibGrammarState) => unknown>;
    lexer: BibLexer;
  };
  /** What a rule sees as `this`. */
  export interface BibGrammarState {
    lexer: BibLexer;
    token: BibToken | undefined;
    state: { strings: Record<string, string> };
    log: string[];
    matchToken(type: string): boolean;
    matchEndOfFile(): boolean;
    consumeToken(type?: string, optional?: boolean): BibToken;
    consumeRule(rule: string): unknown;
  }
}
declare module '@citation-js/core/lib/util/grammar.js' {
  import type { BibGrammarState } from '@citation-js/plugin-bibtex/lib/input/file.js';
  /** A recursive-descent grammar over a token iterator; `parse` is not used (the reader drives the rules). */
  export class Grammar {
    constructor(rules: Record<string, (this: BibGrammarState) => unknown>, state: unknown);
  }
}
