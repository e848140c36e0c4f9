/**
 * Formatted references through citeproc-js (package `citeproc`), the CSL 1.0.2 processor that
 * Zotero and Mendeley use. Styles and locales are CSL XML files; the bundled ones come from the
 * Citation Style Language project (see `csl/README.md`).
 */
import CSL from 'citeproc';
import type { Entry } from '../corpus/schema.js';
import { toCslJson } from './formatCitation.js';

export { BUNDLED_STYLES, type BundledStyle } from './styles.js';

/** Reads CSL locale XML by language tag (`en-US`), or undefined when it has none. */
export type LocaleReader = (lang: string) => string | undefined;

/** Output of {@link formatBibliography}. */
export type CslFormat = 'text' | 'html';

/**
 * Formats entries as a bibliography in a CSL style.
 *
 * @param entries - in citation order (numeric styles number them in this order)
 * @param styleXml - the style's CSL XML
 * @param readLocale - supplies locale XML; `en-US` must be available
 * @param format - `text` (plain) or `html`
 * @returns one formatted reference per entry, in the style's order
 * @throws Error (`MLSys Papers: …`) when the text is not a CSL style or citeproc-js cannot use
 *   it; the message never quotes the text (a setting may name any file)
 */
export function formatBibliography(entries: readonly Entry[], styleXml: string, readLocale: LocaleReader, format: CslFormat = 'text'): string[] {
  if (!entries.length) return [];
  const items = new Map(entries.map((e) => [e.key, toCslJson(e)]));
  const sys = {
    retrieveLocale: (lang: string) => readLocale(lang) ?? readLocale('en-US'),
    retrieveItem: (id: string) => items.get(id),
  };
  // A CSL style's root element (CSL 1.0.2 specification, "Styles"); anything else is refused
  // before citeproc-js, whose errors quote what it was given.
  if (!/<style\b[^>]*\bxmlns\s*=\s*["']http:\/\/purl\.org\/net\/xbiblio\/csl["']/.test(styleXml.slice(0, 8192))) {
    throw new Error('MLSys Papers: not a CSL style (no <style xmlns="http://purl.org/net/xbiblio/csl"> element)');
  }
  let engine: InstanceType<typeof CSL.Engine>;
  try {
    engine = new CSL.Engine(sys, styleXml);
  } catch (e) {
    // citeproc-js's own message quotes the style it was given: kept as the cause, not shown.
    throw new Error('MLSys Papers: cannot use this CSL style: citeproc-js could not read it', { cause: e });
  }
  engine.setOutputFormat(format);
  engine.updateItems([...items.keys()]);
  const result = engine.makeBibliography();
  if (!result) return [];
  const [, refs] = result as [unknown, string[]];
  return refs.map((r) => (format === 'text' ? r.replace(/\s+/g, ' ').trim() : r.trim()));
}

