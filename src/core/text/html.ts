/**
 * Text into HTML: the one escape for the details page, the citations of the Markdown preview and
 * the references citeproc formats.
 */

const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for HTML element content and for attribute values in either quote (HTML Living
 * Standard, "Serializing HTML fragments": `&`, `<`, `>`, `"`, and `'` as `&#39;`).
 *
 * @param s - any text
 * @returns the text with those five characters as character references
 */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITY[c]!);
}
