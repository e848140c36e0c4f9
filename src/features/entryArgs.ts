/**
 * Commands are reached from the tree (a node), the search (an entry), keybindings (nothing) and
 * other extensions (a key): this turns any of those into entries.
 */
import type { Entry } from '../core/corpus/schema.js';
import type { Ctx } from './client/ctx.js';
import type { CorpusClient } from './corpusClient.js';

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
export function entriesFromArgs(corpus: { entry(key: string): Entry | undefined }, arg: unknown, selection?: unknown): Entry[] {
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

/**
 * {@link entriesFromArgs}, with keys this window was not shown (another extension's, a keybinding's
 * argument, a hover's link) asked from the server, which has every corpus and library entry.
 */
export async function resolveEntries(corpus: CorpusClient, arg: unknown, selection?: unknown): Promise<Entry[]> {
  await corpus.ready;
  const keys = (Array.isArray(arg) ? arg : [arg]).filter((k): k is string => typeof k === 'string');
  const unknown = keys.filter((k) => !corpus.entry(k));
  if (unknown.length) await corpus.entries(unknown);
  return entriesFromArgs(corpus, arg, selection);
}

/**
 * A command handler over entries: resolves its arguments ({@link resolveEntries}), or asks for
 * entries through the search when it has none (palette, keybinding), then runs `fn` unless the
 * user picked nothing.
 */
export function commandOnEntries(ctx: Pick<Ctx, 'corpus' | 'picker'>, fn: (entries: Entry[]) => unknown) {
  return async (arg?: unknown, selection?: unknown): Promise<void> => {
    let entries = await resolveEntries(ctx.corpus, arg, selection);
    if (!entries.length) entries = await ctx.picker.pick();
    if (entries.length) await fn(entries);
  };
}
