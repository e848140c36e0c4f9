/**
 * What the Libraries tree and the details page read of a loaded library: its groups (JabRef groups,
 * else keywords), a group's entries, and an entry's fields as written.
 */
import * as l10n from '@vscode/l10n';
import type { LoadedLibrary } from '../core/library/loadLibrary.js';
import type { Entry } from '../core/corpus/schema.js';
import { UNGROUPED, type LibraryGroup } from './protocol.js';

/** Entries one group of the tree lists at most. */
export const GROUP_LIMIT = 1000;

/**
 * All fields of a library entry as written (macros expanded), for the details page: a CSL entry's
 * item, a BibTeX entry's fields as its library's file reads them (from its text).
 */
export function libraryFields(e: Entry, loaded: LoadedLibrary | undefined): Record<string, string> | undefined {
  const lib = e.library;
  if (!lib) return undefined;
  if (lib.csl) return Object.fromEntries(Object.entries(lib.csl).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  if (!loaded) return undefined;
  const i = loaded.entries.indexOf(e);
  return i < 0 ? undefined : loaded.file.entries[i]!.fields;
}

/**
 * The groups of a library for the tree: its JabRef groups when any entry has some, else its
 * keywords; then the entries in none.
 */
export function libraryGroups(lib: LoadedLibrary): LibraryGroup[] {
  const byGroups = lib.entries.some((e) => e.library!.groups.length);
  const counts = new Map<string, number>();
  let none = 0;
  for (const e of lib.entries) {
    const names = byGroups ? e.library!.groups : e.library!.keywords;
    if (!names.length) none++;
    for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  }
  const out = [...counts].sort((a, b) => a[0].localeCompare(b[0])).map(([label, count]) => ({ id: label, label, count }));
  if (none) out.push({ id: UNGROUPED, label: byGroups ? l10n.t('(in no group)') : l10n.t('(no keywords)'), count: none });
  return out;
}

/** The entries of a group (see {@link libraryGroups}), newest first, at most {@link GROUP_LIMIT}; and how many there are. */
export function libraryGroupEntries(lib: LoadedLibrary, group: string): { entries: Entry[]; total: number } {
  const byGroups = lib.entries.some((e) => e.library!.groups.length);
  const all = lib.entries.filter((e) => {
    const names = byGroups ? e.library!.groups : e.library!.keywords;
    return group === UNGROUPED ? !names.length : names.includes(group);
  });
  all.sort((a, b) => (b.year ?? 0) - (a.year ?? 0));
  return { entries: all.slice(0, GROUP_LIMIT), total: all.length };
}
