/**
 * Literature notes: one Markdown file per entry (`notes/<key>.md`), created from a template. Pure:
 * the file's name from the key, the template's rendering, and what the extension reads back from a
 * note's front matter (its key, and `read:`). The server plans a note (`server/literatureNotes.ts`:
 * where, inside the workspace by real path, with what text); the VS Code client creates it with a
 * workspace edit and keeps the Topics view's marks and the read state (`features/literatureNotes.ts`, `features/noteIndex.ts`).
 */
import { markdownLinkText } from '../cite/formatCitation.js';
import { allAuthors } from '../cite/names.js';
import { entryLink, entryLinks } from '../corpus/links.js';
import type { Entry } from '../corpus/schema.js';
import { URI, Utils } from 'vscode-uri';
import { isInside, normalizeUri } from '../workspace/paths.js';

/** The extension of a note's file. */
export const NOTE_EXTENSION = '.md';

/** The longest name a note's file gets before `.md`, in UTF-8 bytes (file systems allow 255; some is left for the extension and editors' backups). */
export const MAX_NOTE_NAME_BYTES = 200;

// Characters a note's name keeps as they are: letters, marks, digits, `_`, `-`, `.`, `+`. Everything
// else (separators, `:`, `*`, `?`, `"`, `<`, `>`, `|`, `%`, blanks, control and format characters,
// such as a right-to-left override) is written as `%XX` of its UTF-8 bytes, which reads back.
const KEEP = /^[\p{L}\p{M}\p{N}_.+-]$/u;
// Names Windows reserves for devices, whatever follows them after a dot.
const DEVICE = /^(?:con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(?:\.|$)/i;

/** `%XX` for each UTF-8 byte of a character. */
function percent(c: string): string {
  return [...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** FNV-1a of a string's UTF-16 code units, as 8 hex digits: what tells two long keys' names apart. */
function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/**
 * The file name of an entry's note: the key with every character that is not a letter, digit,
 * `_`, `-`, `.` or `+` written as `%XX` of its UTF-8 bytes (so no separator, `..`, control or
 * format character, or character a file system refuses gets through, and {@link keyOfNoteName}
 * reads the key back), a leading and a trailing `.` escaped too (no hidden file, nothing Windows
 * drops), a Windows device name (`con`, `nul`, …) escaped in its first letter; then `.md`. A name
 * longer than {@link MAX_NOTE_NAME_BYTES} is cut, with a hash of the whole key after it (its key is
 * then read from the note's `citekey:`). Keys that differ only in case get names that differ only
 * in case: one note on a file system that ignores case, as BibTeX compares keys.
 *
 * @param key - a citation key, any string (the empty key, which no bibliography has, gives `_.md`)
 * @returns a file name without any path separator
 */
export function noteFileName(key: string): string {
  const chars = [...key];
  const parts = chars.map((c, i) => (KEEP.test(c) && !(c === '.' && (i === 0 || i === chars.length - 1)) ? c : percent(c)));
  let name = parts.join('');
  if (!name) name = '_';
  if (DEVICE.test(name)) name = percent(name[0]!) + name.slice(1);
  const utf8 = new TextEncoder();
  if (utf8.encode(name).length > MAX_NOTE_NAME_BYTES) {
    // Whole characters and escapes only, up to the limit less the hash's 9 bytes.
    let cut = '';
    let bytes = 0;
    for (const part of name.match(/%[0-9A-F]{2}|[\s\S]/gu) ?? []) {
      const n = utf8.encode(part).length;
      if (bytes + n > MAX_NOTE_NAME_BYTES - 9) break;
      cut += part;
      bytes += n;
    }
    name = `${cut}~${fnv1a(key)}`;
  }
  return `${name}${NOTE_EXTENSION}`;
}

/**
 * The key a note's file name stands for (the inverse of {@link noteFileName}), when the name is one
 * it gives and was not cut.
 *
 * @returns undefined for another name
 */
export function keyOfNoteName(name: string): string | undefined {
  if (!name.endsWith(NOTE_EXTENSION)) return undefined;
  let key: string;
  try {
    key = decodeURIComponent(name.slice(0, -NOTE_EXTENSION.length));
  } catch {
    // ignored: a name with a malformed escape is no note name of ours; undefined says so.
    return undefined;
  }
  return noteFileName(key) === name ? key : undefined;
}

/** What a template's placeholders stand for: one entry's fields, as text or lists of text. */
export interface NoteFields {
  key: string;
  title: string;
  authors: string[];
  venue: string;
  year: string;
  links: string[];
  topics: string[];
  tags: string[];
  /** Today, `YYYY-MM-DD`. */
  date: string;
}

/**
 * The fields of an entry's note: its title (the English one for a non-English work), authors,
 * venue, year, links (paper, PDF, code, DOI, arXiv), topic ids, and the tag `literature-note`;
 * for a key nothing knows, the key and the date only.
 *
 * @param now - the date the note is made
 */
export function noteFields(key: string, entry: Entry | undefined, now: Date): NoteFields {
  // The writer's calendar day (local time), not UTC's: an evening west of Greenwich is not tomorrow.
  const date = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  if (!entry) return { key, title: key, authors: [], venue: '', year: '', links: [], topics: [], tags: ['literature-note'], date };
  const links = [...new Set([entryLink(entry), ...entryLinks(entry).map((l) => l.url)].filter((u): u is string => !!u))];
  return {
    key,
    title: entry.title_en ?? entry.title,
    authors: allAuthors(entry.authors) ? entry.authors.map((p) => allAuthors([p])) : [],
    venue: entry.venue_full ?? entry.venue ?? '',
    year: entry.year ? String(entry.year) : '',
    links,
    topics: [...(entry.topics ?? [])],
    tags: ['literature-note'],
    date,
  };
}

/**
 * The template of a note when the setting `mlsysPapers.noteTemplate` names none: front matter with
 * the entry's fields (and `read: false`, which the user turns to `true`), its title, and a citation
 * of it, so that completion, hover and the preview work in the note.
 */
export const DEFAULT_NOTE_TEMPLATE = `---
title: {{title}}
citekey: {{key}}
authors: {{authors}}
venue: {{venue}}
year: {{year}}
links: {{links}}
topics: {{topics}}
tags: {{tags}}
created: {{date}}
read: false
---

# {{title}}

{{cite}}

## Summary

## Notes

## Questions
`;

/** A key pandoc reads after `@` without braces (`citeKey`'s simple form; see `markdown/pandocInline.ts`). */
const SIMPLE_KEY = /^[\p{L}\p{N}_](?:[\p{L}\p{N}_]|[:.#$%&\-+?<>~/](?=[\p{L}\p{N}_]))*$/u;

/**
 * A Pandoc citation of a key: `[@key]`, or `[@{key}]` for a key pandoc reads only in braces (pandoc's
 * User's Guide, "Citation syntax"; a key with blanks or braces, which pandoc cannot cite, loses them).
 */
export function pandocCitationOf(key: string): string {
  return SIMPLE_KEY.test(key) ? `[@${key}]` : `[@{${key.replace(/[{}\s]/g, '')}}]`;
}

const PLACEHOLDER = /(["']?)\{\{\s*(key|title|authors|venue|year|links|topics|tags|date|cite)\s*\}\}\1/g;

/** A value in YAML: a string double-quoted (JSON's escapes are YAML's), a list as a flow sequence. */
function yamlValue(v: string | string[]): string {
  return Array.isArray(v) ? `[${v.map((s) => JSON.stringify(s)).join(', ')}]` : JSON.stringify(v);
}

/**
 * A note's text from a template: `{{key}}`, `{{title}}`, `{{authors}}`, `{{venue}}`, `{{year}}`,
 * `{{links}}`, `{{topics}}`, `{{tags}}`, `{{date}}` and `{{cite}}` (the entry's Pandoc citation)
 * are filled in; other text, unknown placeholders included, is kept as written. In the front
 * matter (between a first line `---` and the next `---` or `...` line) a value is written as YAML
 * (strings quoted, lists as `[…]`; inside quotes the template wrote, escaped for them), so that no
 * title breaks the front matter; in the body, as Markdown text (lists joined with `, `, markup
 * characters escaped), so that no title adds a link, HTML or emphasis.
 *
 * @param template - the template's text
 */
export function renderNoteTemplate(template: string, f: NoteFields): string {
  const head = /^(\uFEFF?---[ \t]*\r?\n)([\s\S]*?\r?\n)((?:---|\.\.\.)[ \t]*(?:\r?\n|$))/.exec(template);
  const value = (name: string): string | string[] => (name === 'cite' ? pandocCitationOf(f.key) : f[name as Exclude<keyof NoteFields, never>]);
  const inYaml = (s: string) => s.replace(PLACEHOLDER, (_m, quote: string, name: string) => {
    const v = value(name);
    if (!quote) return yamlValue(v);
    const text = Array.isArray(v) ? v.join(', ') : v;
    return quote === '"' ? JSON.stringify(text) : `'${text.replace(/'/g, "''").replace(/\r?\n/g, ' ')}'`;
  });
  const inBody = (s: string) => s.replace(PLACEHOLDER, (_m, quote: string, name: string) => {
    const v = value(name);
    const text = name === 'cite' ? (v as string) : markdownLinkText(Array.isArray(v) ? v.join(', ') : v);
    return `${quote}${text}${quote}`;
  });
  if (!head) return inBody(template);
  return `${head[1]}${inYaml(head[2]!)}${head[3]}${inBody(template.slice(head[0].length))}`;
}

/** What the extension reads from a note: the key it is about and whether it says it was read. */
export interface NoteFrontMatter {
  citekey?: string;
  read?: boolean;
}

/** How much of a note is read for its front matter. */
const FRONT_MATTER_LIMIT = 16_384;

/**
 * A note's `citekey:` and `read:` (YAML 1.2's `true`/`false`, any case) from its front matter, read
 * line by line (no YAML library in the extension): top-level `key: value` lines only, a value plain,
 * single- or double-quoted, a comment after it allowed. Only the first 16 KB are read.
 *
 * @returns the fields found; none when the text has no front matter
 */
export function noteFrontMatter(text: string): NoteFrontMatter {
  const head = text.slice(0, FRONT_MATTER_LIMIT).replace(/^\uFEFF/, '');
  const lines = head.split(/\r?\n/);
  if (!/^---[ \t]*$/.test(lines[0] ?? '')) return {};
  const out: NoteFrontMatter = {};
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^(?:---|\.\.\.)[ \t]*$/.test(line)) return out;
    const m = /^(citekey|read):(.*)$/.exec(line);
    if (!m) continue;
    const raw = m[2]!.trim();
    let v: string | undefined;
    if (raw.startsWith('"')) {
      const end = /^"(?:[^"\\]|\\.)*"/.exec(raw);
      try { v = end ? (JSON.parse(end[0]) as string) : undefined; } catch { v = undefined; /* ignored: a malformed string is no value */ }
    } else if (raw.startsWith("'")) {
      const end = /^'(?:[^']|'')*'/.exec(raw);
      v = end ? end[0].slice(1, -1).replace(/''/g, "'") : undefined;
    } else v = raw.replace(/[ \t]+#.*$/, '').trim();
    if (v === undefined) continue;
    if (m[1] === 'citekey' && v) out.citekey = v;
    if (m[1] === 'read' && /^(?:true|false)$/i.test(v) && !raw.startsWith('"') && !raw.startsWith("'")) out.read = v.toLowerCase() === 'true';
  }
  // No closing line within the limit: no front matter.
  return {};
}

/**
 * The notes folder a workspace folder's `mlsysPapers.notesFolder` names: a relative path joined to
 * the folder (`.` and `..` resolved), and only when the result lies inside it (lexically; a writer
 * also checks the real path). The server plans notes and the client lists them by this one rule.
 *
 * @param folder - the workspace folder
 * @param setting - the setting as written (`notes`, `reading/papers`)
 * @returns undefined for an absolute path (`/tmp/notes`, `C:\notes`) or one that leaves the folder (`../x`)
 */
export function notesFolderOf(folder: URI, setting: string): URI | undefined {
  if (setting.startsWith('/') || setting.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(setting)) return undefined;
  const dir = normalizeUri(Utils.joinPath(folder, setting.replace(/\\/g, '/')));
  return isInside(folder, dir) ? dir : undefined;
}
