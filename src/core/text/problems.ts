/**
 * Problems found in corpus or bibliography files, with a position a user can jump to.
 */

/** One problem in a file. `line` and `column` are 1-based, as compilers print them. */
export interface Problem {
  file: string;
  line: number;
  column: number;
  /** Dotted path of the offending field (`[3].authors[0].family`), or '' for the file as a whole. */
  field: string;
  message: string;
  severity: 'error' | 'warning';
}

/**
 * Formats a problem the way compilers do, so that terminals and editors make it clickable:
 * `file:line:col: error: field: message`.
 */
export function formatProblem(p: Problem): string {
  const field = p.field ? `${p.field}: ` : '';
  return `${p.file}:${p.line}:${p.column}: ${p.severity}: ${field}${p.message}`;
}

/** Thrown when the bundled corpus is invalid; carries every problem found. */
export class CorpusError extends Error {
  constructor(readonly problems: readonly Problem[]) {
    super(`MLSys Papers: invalid corpus:\n${problems.map(formatProblem).join('\n')}`);
    this.name = 'CorpusError';
  }
}
