/**
 * The reviewed decisions (`scripts/corpus/selection/*.yaml`, committed): for each record a person
 * read, whether its paper goes in, its topics, and any correction to what the tool derives (the
 * aliases, a summary written from the abstract, a note). The generated entry files are made from
 * these and the records alone, so regenerating keeps every hand decision; edit these, not the
 * generated `corpus/entries/field-*.yaml`.
 *
 * A file:
 * ```yaml
 * include:
 *   - {id: "usenix:279382", topics: [serving.batching]}          # Orca: A Distributed Serving …
 *   - {id: "dblp:conf/sosp/NarayananHPSDGG19", topics: [training.pipeline-parallel], aliases: [PipeDream]}
 * exclude:
 *   - "usenix:279383"  # a title that is not ML systems
 * ```
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { RECORD_ID } from '../../src/core/corpus/schema.js';

/** One reviewed inclusion. */
export interface Include {
  id: string;
  topics: string[];
  /** Replaces the derived aliases (`[]`: none). */
  aliases?: string[];
  /** A summary in our own words, written from the abstract or the paper's page (never from memory). */
  summary?: string;
  /** A sentence added to the entry's note. */
  note?: string;
  /** The URLs read for the summary or the note, added to `verified`. */
  verified?: string[];
  /**
   * Why the paper is in but no entry is made yet (its records lack a field every entry needs: the
   * authors of NSDI 2025, which USENIX's BibTeX does not list yet). `generate` lists held papers.
   */
  hold?: string;
}

/** The decisions of every selection file. */
export interface Decisions {
  include: Map<string, Include & { file: string }>;
  exclude: Map<string, string>;
}

/** The folder of the selection files. */
export const SELECTION_DIR = 'scripts/corpus/selection';

/**
 * Reads every selection file.
 *
 * @throws Error naming the file when an item is malformed, an id is not a record id, or one id is
 *   decided twice
 */
export function readDecisions(dir = SELECTION_DIR): Decisions {
  const include = new Map<string, Include & { file: string }>();
  const exclude = new Map<string, string>();
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.yaml')).sort();
  } catch {
    return { include, exclude };
  }
  for (const name of names) {
    const file = join(dir, name);
    const doc = (parse(readFileSync(file, 'utf8')) ?? {}) as { include?: Include[]; exclude?: string[] };
    for (const inc of doc.include ?? []) {
      if (!inc || typeof inc.id !== 'string' || !RECORD_ID.test(inc.id) || !Array.isArray(inc.topics) || !inc.topics.length) {
        throw new Error(`${file}: include item ${JSON.stringify(inc)} needs a record id and topics`);
      }
      if (include.has(inc.id) || exclude.has(inc.id)) throw new Error(`${file}: ${inc.id} is decided twice`);
      include.set(inc.id, { ...inc, file });
    }
    for (const id of doc.exclude ?? []) {
      if (typeof id !== 'string' || !RECORD_ID.test(id)) throw new Error(`${file}: exclude item ${JSON.stringify(id)} is not a record id`);
      if (include.has(id) || exclude.has(id)) throw new Error(`${file}: ${id} is decided twice`);
      exclude.set(id, file);
    }
  }
  return { include, exclude };
}

/** A flow scalar for the selection file: plain when safe, else JSON-quoted. */
const q = (s: string) => (/^[A-Za-z][\w.-]*$/.test(s) ? s : JSON.stringify(s));

/**
 * Appends decisions to a selection file (creating it with a header): each include as one flow
 * map, each exclude as one id, both followed by the title as a comment for the reader.
 */
export function appendDecisions(
  file: string, header: string, inc: { item: Include; title: string }[], exc: { id: string; title: string }[],
): void {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = `${header.split('\n').map((l) => `# ${l}`.trimEnd()).join('\n')}\ninclude:\nexclude:\n`;
  }
  const comment = (t: string) => `  # ${t.replace(/\s+/g, ' ').slice(0, 110)}`;
  const incLines = inc.map(({ item, title }) => {
    const parts = [`id: ${JSON.stringify(item.id)}`, `topics: [${item.topics.map(q).join(', ')}]`];
    if (item.aliases) parts.push(`aliases: [${item.aliases.map((a) => JSON.stringify(a)).join(', ')}]`);
    return `  - {${parts.join(', ')}}${comment(title)}`;
  });
  const excLines = exc.map(({ id, title }) => `  - ${JSON.stringify(id)}${comment(title)}`);
  const at = text.indexOf('\nexclude:');
  if (at < 0) throw new Error(`${file}: has no "exclude:" line`);
  text = `${text.slice(0, at + 1)}${incLines.map((l) => `${l}\n`).join('')}${text.slice(at + 1)}`;
  text = `${text.replace(/\n*$/, '\n')}${excLines.map((l) => `${l}\n`).join('')}`;
  writeFileSync(file, text);
}
