/**
 * Commands are reached from the tree (a node), the search (an entry), keybindings (nothing) and
 * other extensions (a key): this turns any of those into entries.
 */
import type { Corpus } from '../core/model.js';
import type { Entry } from '../core/schema.js';

/** A tree node that carries an entry. */
export interface EntryNodeLike {
  entry: Entry;
}

function isEntry(x: unknown): x is Entry {
  return !!x && typeof x === 'object' && 'key' in x && 'authors' in x && 'title' in x;
}

/**
 * Resolves a command's arguments to entries.
 *
 * @param corpus - to look up keys
 * @param arg - the clicked node / an entry / a key / an array of those
 * @param selection - the selected tree nodes (VS Code passes them as the second argument); used when
 *   they include `arg`
 * @returns the entries, without duplicates; empty when nothing was given
 */
export function entriesFromArgs(corpus: Corpus, arg: unknown, selection?: unknown): Entry[] {
  // VS Code passes the selection even when the clicked node is not part of it (right-click on an
  // unselected row): the selection counts only when it holds the clicked node.
  const selected = Array.isArray(selection) && selection.length && (arg === undefined || selection.includes(arg)) ? selection : undefined;
  const items: unknown[] = selected ?? (Array.isArray(arg) ? arg : arg === undefined ? [] : [arg]);
  const out = new Map<string, Entry>();
  for (const item of items) {
    const e = typeof item === 'string' ? corpus.entry(item)
      : isEntry(item) ? item
      : item && typeof item === 'object' && 'entry' in item && isEntry((item as EntryNodeLike).entry) ? (item as EntryNodeLike).entry
      : undefined;
    if (e) out.set(e.key, e);
  }
  return [...out.values()];
}
