/**
 * What text to insert for a citation, given the document, the cursor and the keys.
 * Pure: the VS Code layer turns the result into a `WorkspaceEdit`.
 */
import { citeContextAt } from './citationContext.js';
import { fileKind, isMarkdown } from '../workspace/fileKind.js';
import type { Entry } from '../corpus/schema.js';
import type { CiteCommand, MarkdownStyle } from './citationForms.js';
import { markdownLink, plainReference } from './formatCitation.js';



/** Options for {@link planCitation}. */
export interface CitationOptions {
  latexCommand: CiteCommand;
  markdownStyle: MarkdownStyle;
}

/** A single text insertion: insert `text` at `offset`, replacing `length` code units. */
export interface TextInsertion {
  offset: number;
  length: number;
  text: string;
  /** Keys actually added (those already cited in the list are skipped). */
  added: string[];
}

/**
 * Plans the insertion of citations for `entries` at `offset`.
 *
 * - LaTeX: inside an existing `\cite…{a,…}` the keys are added to the list; elsewhere
 *   `\<command>{k1,k2}` is inserted.
 * - Markdown (Pandoc style): inside `[@a; …]` `@key` is appended to the list, right after `@` the
 *   partial key is completed; elsewhere `[@k1; @k2]` is inserted. Link style inserts `[Title](url)`.
 * - Any other language: a plain-text reference per entry.
 *
 * Citation syntax: natbib and biblatex manuals for the LaTeX commands, Pandoc's User's Guide
 * ("Citation syntax") for Markdown.
 *
 * @param text - the document's text
 * @param offset - the cursor, in UTF-16 code units
 * @param languageId - VS Code language id
 * @returns the insertion; `added` is empty when every key was already in the list (nothing to do)
 */
export function planCitation(
  text: string, offset: number, languageId: string, entries: readonly Entry[], opts: CitationOptions,
): TextInsertion {
  const keys = entries.map((e) => e.key);
  const kind = fileKind('', languageId);
  if (kind === 'latex') {
    const ctx = citeContextAt(text, offset, languageId);
    if (ctx) {
      const partialFull = text.slice(ctx.keyStart, ctx.keyEnd);
      const fresh = keys.filter((k) => !ctx.existing.includes(k));
      if (!fresh.length) return { offset, length: 0, text: '', added: [] };
      // Replace a partial key under the cursor; otherwise insert between separators.
      if (partialFull) return { offset: ctx.keyStart, length: partialFull.length, text: fresh.join(','), added: fresh };
      const before = text.slice(ctx.listStart, offset).trimEnd();
      const after = text.slice(offset, ctx.listEnd).trimStart();
      const lead = before === '' || before.endsWith(',') ? '' : ',';
      const trail = after === '' || after.startsWith(',') ? '' : ',';
      return { offset, length: 0, text: `${lead}${fresh.join(',')}${trail}`, added: fresh };
    }
    return { offset, length: 0, text: `\\${opts.latexCommand}{${keys.join(',')}}`, added: keys };
  }
  if (isMarkdown(kind)) {
    if (opts.markdownStyle === 'link') return { offset, length: 0, text: entries.map(markdownLink).join(', '), added: keys };
    const ctx = citeContextAt(text, offset, languageId);
    if (ctx) {
      const fresh = keys.filter((k) => !ctx.existing.includes(k));
      if (!fresh.length) return { offset, length: 0, text: '', added: [] };
      const partialFull = text.slice(ctx.keyStart, ctx.keyEnd);
      if (ctx.keyStart < offset || partialFull || text[offset - 1] === '@') {
        // Right after '@' or inside a key: complete it, and add the rest as a list.
        const [first, ...rest] = fresh;
        const tail = rest.map((k) => `; @${k}`).join('');
        return { offset: ctx.keyStart, length: partialFull.length, text: `${first}${tail}`, added: fresh };
      }
      if (ctx.bracketed) {
        // Insert after the last non-blank character before the cursor, replacing the blanks, so
        // that `[@a |]` becomes `[@a; @key]` and `[@a; |]` becomes `[@a; @key]`.
        const before = text.slice(ctx.listStart, offset).trimEnd();
        const at = ctx.listStart + before.length;
        const after = text.slice(offset, ctx.listEnd).trimStart();
        const lead = before === '' ? '' : before.endsWith(';') ? ' ' : '; ';
        const trail = after === '' || after.startsWith(';') ? '' : '; ';
        return { offset: at, length: offset - at, text: `${lead}${fresh.map((k) => `@${k}`).join('; ')}${trail}`, added: fresh };
      }
    }
    return { offset, length: 0, text: `[${keys.map((k) => `@${k}`).join('; ')}]`, added: keys };
  }
  return { offset, length: 0, text: entries.map(plainReference).join('\n'), added: keys };
}
