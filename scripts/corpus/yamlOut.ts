/**
 * Corpus entries as YAML text, in the house style of `corpus/entries/*.yaml`: one block per entry,
 * fields in a fixed order, strings double-quoted (JSON's escapes are YAML's), authors one flow map
 * a line. The build's own validator reads every file the tool writes before it is kept.
 */
import type { EntryInput, Person } from '../../src/core/corpus/schema.js';

/** The order of fields in an entry. */
const ORDER = [
  'key', 'type', 'kind', 'title', 'title_en', 'authors', 'year', 'venue', 'venue_full', 'booktitle', 'journal', 'series',
  'volume', 'number', 'pages', 'publisher', 'institution', 'howpublished', 'edition', 'doi', 'arxiv', 'url', 'pdf', 'code',
  'topics', 'level', 'aliases', 'summary', 'sources', 'seed_urls', 'verified', 'records', 'unverified', 'note',
] as const;

/** A scalar for a flow context: plain when it starts with a letter and holds only letters, digits and a few safe marks (never a number, boolean or null to YAML); else quoted. */
function flowScalar(s: string): string {
  return /^\p{L}[\p{L}\p{N}\p{M} .'-]*$/u.test(s) && !/^(?:true|false|null|yes|no|on|off|y|n|~)$/i.test(s) && !/[ .'-]$/.test(s)
    ? s : JSON.stringify(s);
}

/** A person as a flow map: `{given: Woosuk, family: Kwon}`. */
export function personYaml(p: Person): string {
  return 'literal' in p ? `{literal: ${flowScalar(p.literal)}}` : `{given: ${p.given ? flowScalar(p.given) : '""'}, family: ${flowScalar(p.family)}}`;
}

/** One entry as a YAML list item (no trailing blank line). */
export function entryYaml(e: EntryInput): string {
  const lines: string[] = [];
  const rec = e as unknown as Record<string, unknown>;
  for (const f of ORDER) {
    const v = rec[f];
    if (v === undefined || (Array.isArray(v) && !v.length && f !== 'topics' && f !== 'sources' && f !== 'verified')) continue;
    const head = lines.length ? '  ' : '- ';
    if (f === 'authors') {
      lines.push(`${head}authors:`);
      for (const p of v as Person[]) lines.push(`    - ${personYaml(p)}`);
    } else if (f === 'verified' || f === 'records') {
      lines.push(`${head}${f}:`);
      for (const u of v as string[]) lines.push(`    - ${JSON.stringify(u)}`);
    } else if (Array.isArray(v)) {
      lines.push(`${head}${f}: [${(v as string[]).map(flowScalar).join(', ')}]`);
    } else if (typeof v === 'number' || f === 'key' || f === 'type' || f === 'kind' || f === 'level') {
      lines.push(`${head}${f}: ${String(v)}`);
    } else {
      lines.push(`${head}${f}: ${JSON.stringify(String(v))}`);
    }
  }
  return lines.join('\n');
}

/** A whole entries file: the header comment (each line prefixed `# `), then the entries. */
export function entriesFileYaml(header: string[], entries: readonly EntryInput[]): string {
  return `${header.map((l) => `# ${l}`.trimEnd()).join('\n')}\n\n${entries.map(entryYaml).join('\n\n')}\n`;
}

/**
 * Adds `records:` to one entry of a hand-made file, touching no other byte: a `records:` block is
 * inserted before the entry's `verified:` line (or appended to its existing `records:` block list).
 *
 * @param text - the file's text; entries start with `- key: <key>` at the line start
 * @throws Error when there is no such entry, it has no `verified:` line, or it writes `records:` as
 *   a flow list
 */
export function insertRecords(text: string, key: string, ids: string[]): string {
  const start = text.search(new RegExp(`^- key: ${key.replace(/[.]/g, '\\.')}$`, 'm'));
  if (start < 0) throw new Error(`link: no entry ${key}`);
  const next = text.slice(start + 1).search(/^- /m);
  const end = next < 0 ? text.length : start + 1 + next;
  const body = text.slice(start, end);
  const block = ids.map((id) => `    - ${JSON.stringify(id)}\n`).join('');
  const rec = /^ {2}records:\n((?: {4}- .*\n)*)/m.exec(body);
  let out: string;
  if (!rec && /^ {2}records:/m.test(body)) throw new Error(`link: entry ${key} writes records: as a flow list; add the ids by hand`);
  if (rec) {
    const at = rec.index + rec[0].length;
    out = body.slice(0, at) + block + body.slice(at);
  } else {
    const v = /^ {2}verified:/m.exec(body);
    if (!v) throw new Error(`link: entry ${key} has no verified: line`);
    out = `${body.slice(0, v.index)}  records:\n${block}${body.slice(v.index)}`;
  }
  return text.slice(0, start) + out + text.slice(end);
}
