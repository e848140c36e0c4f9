/**
 * What the CLI prints besides results: a failure's first line, and "did you mean" suggestions.
 * Everything printed goes through `main`'s terminal-safe writers (`core/text/terminal.ts`).
 */
import { distance } from 'fastest-levenshtein';
import { terminalSafe } from '../core/text/terminal.js';

/**
 * A file's own text as `check --fix` prints it: as it is into a pipe or a file (the fixed file,
 * byte for byte), with its control characters shown as escapes on a terminal, where an ESC in a
 * field would act (`core/text/terminal.ts`; line breaks, a CR before them, and tabs kept).
 *
 * @param terminal - whether stdout is a terminal (`process.stdout.isTTY`)
 */
export function fileTextFor(text: string, terminal: boolean): string {
  return terminal ? terminalSafe(text, '\n\t') : text;
}

/** The first line of an error's message (no stack trace reaches the user). */
export function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim();
}

/**
 * The candidates closest to a misspelt name (Levenshtein distance, ignoring case), for "did you mean".
 *
 * @param name - what the user typed
 * @param candidates - the names that exist
 * @param max - how many to return at most
 * @returns up to `max` candidates within a distance of max(2, a quarter of the name's length)
 *   and at most one more than the closest one's, closest first (ties in the candidates' order);
 *   empty when none is that close
 */
export function suggest(name: string, candidates: readonly string[], max = 3): string[] {
  const typed = name.toLowerCase();
  const within = Math.max(2, Math.floor(typed.length / 4));
  const near = candidates
    .map((c, i) => ({ c, i, d: distance(typed, c.toLowerCase()) }))
    .filter((x) => x.d <= within)
    .sort((a, b) => a.d - b.d || a.i - b.i);
  // In a corpus of thousands of keys, a key one letter off should not bring others four letters off.
  const best = near[0]?.d ?? 0;
  return near.filter((x) => x.d <= best + 1).slice(0, max).map((x) => x.c);
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** `; did you mean a or b?`, or nothing without names. */
export function didYouMean(names: readonly string[]): string {
  return names.length ? `; did you mean ${orList(names)}?` : '';
}
