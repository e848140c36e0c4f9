/**
 * A reader's problems with their sentence in place of their code, for tests that compare whole
 * problems with the English they are shown in (`problemMessage`, English without a bundle).
 */
import { problemMessage, type ProblemArg, type ProblemText } from '../../src/core/text/problemText.js';

type Worded<T> = T extends ProblemText ? Omit<T, 'code' | 'args'> & { message: string }
  : T extends { text: ProblemArg } ? Omit<T, 'text'> & { message: string } : T;

/** One problem (a `LibraryProblem`, a `BibSyntaxError`, a YAML or JSON error) with `message` for its code. */
function wordedOne<T extends object>(p: T): Worded<T> {
  if ('code' in p) {
    const { code, args, ...rest } = p as unknown as ProblemText & Record<string, unknown>;
    return { ...rest, message: problemMessage(args ? { code, args } : { code }) } as Worded<T>;
  }
  if ('text' in p) {
    const { text, ...rest } = p as unknown as { text: ProblemArg } & Record<string, unknown>;
    return { ...rest, message: problemMessage(text) } as Worded<T>;
  }
  return p as Worded<T>;
}

/** The problems (or one problem, or none) in words. */
export function worded<T extends object>(p: readonly T[]): Worded<T>[];
export function worded<T extends object>(p: T): Worded<T>;
export function worded<T extends object>(p: T | undefined): Worded<T> | undefined;
export function worded<T extends object>(p: T | readonly T[] | undefined): unknown {
  if (p === undefined) return undefined;
  return Array.isArray(p) ? p.map((q: T) => wordedOne(q)) : wordedOne(p as T);
}
