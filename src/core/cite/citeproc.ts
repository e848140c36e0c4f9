/**
 * Formatted references through citeproc-js (package `citeproc`), the CSL 1.0.2 processor that
 * Zotero and Mendeley use. Styles and locales are CSL XML files; the bundled ones come from the
 * Citation Style Language project (see `csl/README.md`).
 */
import CSL, { type Citation, type CitationItem } from 'citeproc';
import type { Entry } from '../corpus/schema.js';
import type { CiteMode } from '../markdown/citationGroups.js';
import { toCslJson } from './formatCitation.js';
import { locatorTerms, parseLocator, xmlText } from './locator.js';
import { escapeHtml } from '../text/html.js';

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
  const engine = engineFor(styleXml, items, readLocale);
  engine.setOutputFormat(format);
  engine.updateItems([...items.keys()]);
  const result = engine.makeBibliography();
  if (!result) return [];
  const [, refs] = result;
  return refs.map((r) => (format === 'text' ? r.replace(/\s+/g, ' ').trim() : r.trim()));
}

/**
 * A citeproc-js engine for a style over the given items.
 *
 * @throws Error (`MLSys Papers: …`) when the text is not a CSL style or citeproc-js cannot use it;
 *   the message never quotes the text (a setting may name any file)
 */
function engineFor(styleXml: string, items: ReadonlyMap<string, unknown>, readLocale: LocaleReader): InstanceType<typeof CSL.Engine> {
  const sys = {
    retrieveLocale: (lang: string) => readLocale(lang) ?? readLocale('en-US'),
    retrieveItem: (id: string) => items.get(id),
  };
  // A CSL style's root element (CSL 1.0.2 specification, "Styles"); anything else is refused
  // before citeproc-js, whose errors quote what it was given.
  if (!/<style\b[^>]*\bxmlns\s*=\s*["']http:\/\/purl\.org\/net\/xbiblio\/csl["']/.test(styleXml.slice(0, 8192))) {
    throw new Error('MLSys Papers: not a CSL style (no <style xmlns="http://purl.org/net/xbiblio/csl"> element)');
  }
  try {
    return new CSL.Engine(sys, styleXml);
  } catch (e) {
    // citeproc-js's own message quotes the style it was given: kept as the cause, not shown.
    throw new Error('MLSys Papers: cannot use this CSL style: citeproc-js could not read it', { cause: e });
  }
}

/** One cited work of a citation to render (a Pandoc citation's item, `core/markdown/citationGroups.ts`). */
export interface CiteToRender {
  key: string;
  prefix: string;
  /** The suffix as written, its locator still in it (read here with the style's locale's terms). */
  suffix: string;
  mode: CiteMode;
}

/** {@link renderCitations}'s result: HTML, every text in it escaped by citeproc-js or here. */
export interface RenderedCitations {
  /** Each citation's HTML, in the order given. */
  citations: string[];
  /**
   * The bibliography's entries in the style's order, each `<div id="ref-KEY" class="csl-entry">…</div>`
   * as pandoc writes them (empty when nothing known is cited).
   */
  entries: string[];
  /** The style asks for a hanging indent (`hanging-indent="true"`). */
  hangingIndent: boolean;
  /** Cited keys with no item, in order of first citation (pandoc warns about each). */
  unknown: string[];
}

/** Escapes text for HTML content and attributes. */

/**
 * The affixes and delimiter of the style's citation layout, and whether it sorts its citations
 * (CSL 1.0.2, "Citation"), for keys the processor cannot render.
 */
function citationLayout(styleXml: string): { prefix: string; suffix: string; delimiter: string; sorted: boolean } {
  const at = styleXml.indexOf('<citation');
  const layout = at < 0 ? -1 : styleXml.indexOf('<layout', at);
  const attrs = layout < 0 ? '' : styleXml.slice(layout, styleXml.indexOf('>', layout) + 1);
  const attr = (name: string) => {
    const m = new RegExp(`\\b${name}="([^"]*)"`).exec(attrs);
    return m ? xmlText(m[1]!) : '';
  };
  return { prefix: attr('prefix'), suffix: attr('suffix'), delimiter: attr('delimiter'), sorted: at >= 0 && layout > at && styleXml.slice(at, layout).includes('<sort') };
}

/** The language of a style's `default-locale` (`en-US` when it names none). */
function styleLocale(styleXml: string): string {
  return /<style\b[^>]*\bdefault-locale="([\w-]+)"/.exec(styleXml.slice(0, 8192))?.[1] ?? 'en-US';
}

/**
 * Renders citations and their bibliography in a CSL style, as `pandoc --citeproc` places them:
 * author-in-text citations as "Author (Year)" (the names alone, then the citation without them;
 * a numeric style prints its number only, as pandoc 2.17 does), the locator read from each suffix
 * (`cite/locator.ts`), and a key with no item as pandoc shows it: `<strong>key?</strong>` in the
 * layout's affixes.
 *
 * @param items - CSL-JSON items by key (the key is the citation key; an item's own `id` is ignored)
 * @param citations - the citations in document order
 * @param uncited - keys that go into the bibliography uncited (`nocite`), after the cited ones
 * @throws Error (`MLSys Papers: …`) when the style cannot be used ({@link formatBibliography})
 */
export function renderCitations(items: ReadonlyMap<string, Record<string, unknown>>, citations: readonly (readonly CiteToRender[])[], styleXml: string, readLocale: LocaleReader, uncited: readonly string[] = []): RenderedCitations {
  const known = new Map([...items].map(([k, v]) => [k, { ...v, id: k }]));
  const engine = engineFor(styleXml, known, readLocale);
  engine.setOutputFormat('html');
  const lang = styleLocale(styleXml);
  // The style's locale's terms only, as pandoc reads them: an English `p.` is no locator in a Chinese style.
  const terms = locatorTerms(readLocale(lang) ?? readLocale('en-US') ?? '');
  const layout = citationLayout(styleXml);
  const unknown = new Set<string>();
  const batch: Citation[] = [];
  for (const [i, cite] of citations.entries()) {
    const citationItems: CitationItem[] = [];
    for (const it of cite) {
      if (!known.has(it.key)) { unknown.add(it.key); continue; }
      const loc = parseLocator(it.suffix, terms);
      citationItems.push({
        id: it.key,
        ...(it.prefix ? { prefix: `${it.prefix} ` } : {}),
        ...(loc.suffix ? { suffix: loc.suffix } : {}),
        ...(loc.locator ? { locator: loc.locator, label: loc.label } : {}),
        ...(it.mode === 'suppress-author' ? { 'suppress-author': true } : {}),
      });
    }
    if (!citationItems.length) continue;
    // Author-in-text, as pandoc's citeproc renders it: the first work's names alone, then the
    // citation with that work's names left out (its locator and suffix inside the brackets).
    if (cite[0]?.mode === 'author-in-text' && citationItems[0]!.id === cite[0].key) {
      batch.push({ citationID: `a${i}`, citationItems: [{ id: citationItems[0]!.id }], properties: { noteIndex: i + 1, mode: 'author-only' } });
      citationItems[0] = { ...citationItems[0]!, 'suppress-author': true };
    }
    batch.push({ citationID: `c${i}`, citationItems, properties: { noteIndex: i + 1 } });
  }
  const cited = new Set(batch.flatMap((c) => c.citationItems.map((x) => x.id)));
  const rendered = new Map((batch.length ? engine.rebuildProcessorState(batch, 'html', uncited.filter((k) => known.has(k) && !cited.has(k))) : []).map(([id, , html]) => [id, html]));
  const out = citations.map((cite, i) => {
    // citeproc-js marks an author-only part it could not print (a numeric style has no names in its citations).
    const names = (rendered.get(`a${i}`) ?? '').replace(/\[NO_PRINTED_FORM\]/g, '').trim();
    const html = [names, rendered.get(`c${i}`) ?? ''].filter(Boolean).join(' ');
    const missing = [...new Set(cite.filter((it) => !known.has(it.key)).map((it) => `<strong>${escapeHtml(it.key)}?</strong>`))];
    if (!missing.length) return html;
    if (!html) return `${escapeHtml(layout.prefix)}${missing.join(escapeHtml(layout.delimiter))}${escapeHtml(layout.suffix)}`;
    const [prefix, suffix, delimiter] = [escapeHtml(layout.prefix), escapeHtml(layout.suffix), escapeHtml(layout.delimiter)];
    // Unknown keys first in a citation the style does not sort stay first, as pandoc leaves them; else they go last.
    const first = cite.findIndex((it) => known.has(it.key));
    if (!layout.sorted && cite.findIndex((it) => !known.has(it.key)) < first && html.startsWith(prefix)) {
      return `${prefix}${missing.join(delimiter)}${delimiter}${html.slice(prefix.length)}`;
    }
    const body = suffix && html.endsWith(suffix) ? html.slice(0, -suffix.length) : html;
    return `${body}${delimiter}${missing.join(delimiter)}${suffix && html.endsWith(suffix) ? suffix : ''}`;
  });
  let entries: string[] = [];
  let hangingIndent = false;
  if (batch.length || uncited.some((k) => known.has(k))) {
    if (!batch.length) engine.updateUncitedItems(uncited.filter((k) => known.has(k)));
    const bib = engine.makeBibliography();
    if (bib) {
      const [params, list] = bib;
      hangingIndent = !!params.hangingindent;
      entries = list.map((html, j) => html.trim().replace(/^<div class="csl-entry"/, `<div id="ref-${escapeHtml(params.entry_ids[j]?.[0] ?? '')}" class="csl-entry"`));
    }
  }
  return { citations: out, entries, hangingIndent, unknown: [...unknown] };
}
