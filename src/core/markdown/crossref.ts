/**
 * Cross-references written with citation syntax: `@fig-plot` in Quarto, `@fig:plot` with the
 * pandoc-crossref filter. Pandoc reads both as citations (`Cite` elements); Quarto's own filter and
 * pandoc-crossref turn them into references to labels before citeproc runs, so they are not
 * citation keys and are never flagged as unknown ones.
 *
 * Sources: Quarto's "Cross References" guide (the reserved prefixes: "fig, tbl, lst, tip, nte, wrn,
 * imp, cau, thm, lem, cor, prp, cnj, def, exm, exr, sol, rem, alg, eq, sec"; a capitalised prefix,
 * `@Fig-x`, starts a sentence), its "Cross Reference Options" (`crossref: custom:` types, each with
 * a `key`), and pandoc-crossref's manual (`@fig:`, `@tbl:`, `@sec:`, `@eq:`, `@lst:`, capitalised
 * forms too).
 *
 * Imports nothing: the VS Code client's bundle reaches it through `cite/citationContext.ts`, without YAML.
 */

/** Quarto's reserved cross-reference prefixes (Quarto's "Cross References" guide). */
export const QUARTO_CROSSREF_PREFIXES: readonly string[] = [
  'fig', 'tbl', 'lst', 'tip', 'nte', 'wrn', 'imp', 'cau', 'thm', 'lem', 'cor', 'prp', 'cnj', 'def', 'exm', 'exr', 'sol', 'rem',
  'alg', 'eq', 'sec',
];

/** pandoc-crossref's reference prefixes (its manual, "Syntax"). */
export const PANDOC_CROSSREF_PREFIXES: readonly string[] = ['fig', 'tbl', 'sec', 'eq', 'lst'];

/**
 * pandoc-crossref's metadata fields (its manual, "Customization"): a project file (front matter,
 * metadata file, defaults file) that sets one is configuring the filter, so the project runs it.
 */
export const PANDOC_CROSSREF_FIELDS: ReadonlySet<string> = new Set([
  'figPrefix', 'eqnPrefix', 'tblPrefix', 'lstPrefix', 'secPrefix', 'figureTitle', 'tableTitle', 'listingTitle',
  'figPrefixTemplate', 'eqnPrefixTemplate', 'tblPrefixTemplate', 'lstPrefixTemplate', 'secPrefixTemplate',
  'crossrefYaml', 'autoSectionLabels', 'codeBlockCaptions', 'figureTemplate', 'tableTemplate', 'listingTemplate',
  'eqnIndexTemplate', 'subfigureTemplate', 'chapDelim', 'rangeDelim', 'pairDelim', 'lastDelim', 'refDelim', 'linkReferences',
]);

/** Whether a metadata mapping (parsed YAML) sets one of pandoc-crossref's fields ({@link PANDOC_CROSSREF_FIELDS}). */
export function hasCrossrefFields(meta: unknown): boolean {
  return !!meta && typeof meta === 'object' && !Array.isArray(meta) && Object.keys(meta).some((k) => PANDOC_CROSSREF_FIELDS.has(k));
}

/** Which cross-reference syntaxes a Markdown document uses. */
export interface CrossrefSyntax {
  /** Quarto's `@<prefix>-<label>`: a `.qmd` file, or a document of a Quarto project. */
  quarto: boolean;
  /** The keys of Quarto's custom cross-reference types (`crossref: custom: [{ key: vid, … }]`), from the front matter or `_quarto.yml`. */
  quartoCustom: readonly string[];
  /** pandoc-crossref's `@<prefix>:<label>`: the document names the filter, or has `crossref` metadata outside Quarto. */
  pandocCrossref: boolean;
}

/** No cross-reference syntax: every `@key` is a citation. */
export const NO_CROSSREFS: CrossrefSyntax = { quarto: false, quartoCustom: [], pandocCrossref: false };

/**
 * The keys of custom cross-reference types in a Quarto `crossref` metadata value.
 *
 * @param crossref - the parsed value of `crossref:` (anything: non-objects give none)
 */
export function quartoCustomKeys(crossref: unknown): string[] {
  if (!crossref || typeof crossref !== 'object') return [];
  const custom = (crossref as { custom?: unknown }).custom;
  if (!Array.isArray(custom)) return [];
  return custom.flatMap((c: unknown) => {
    const key = c && typeof c === 'object' ? (c as { key?: unknown }).key : undefined;
    return typeof key === 'string' && /^[\p{L}\p{N}_]+$/u.test(key) ? [key] : [];
  });
}

/**
 * Whether a key written after `@` is a cross-reference under these syntaxes: a Quarto prefix
 * (reserved or custom) and `-`, or a pandoc-crossref prefix and `:`; the prefix may be capitalised.
 *
 * @param key - the key as written, without `@` (a partial one while typing: `fig-`)
 */
export function isCrossReference(key: string, syntax: CrossrefSyntax): boolean {
  const m = /^([\p{L}\p{N}_]+)([-:])/u.exec(key);
  if (!m) return false;
  const prefix = m[1]!.charAt(0).toLowerCase() + m[1]!.slice(1);
  if (m[2] === '-') return syntax.quarto && (QUARTO_CROSSREF_PREFIXES.includes(prefix) || syntax.quartoCustom.includes(prefix) || syntax.quartoCustom.includes(m[1]!));
  return syntax.pandocCrossref && PANDOC_CROSSREF_PREFIXES.includes(prefix);
}
