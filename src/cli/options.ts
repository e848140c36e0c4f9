/**
 * What every command of the CLI shares: the options it knows, the context a command runs with,
 * how a command describes itself for the help, and the usage error (one line, exit 2).
 */
/** Every option the CLI knows; each command takes some of them (see {@link COMMANDS}). */
export const OPTIONS = {
  json: { type: 'boolean' },
  limit: { type: 'string' },
  format: { type: 'string' },
  topic: { type: 'string' },
  'cited-in': { type: 'string' },
  corpus: { type: 'string' },
  library: { type: 'string', multiple: true },
  'dry-run': { type: 'boolean' },
  'allow-outside': { type: 'boolean' },
  fix: { type: 'boolean' },
  write: { type: 'boolean' },
  stdio: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** An option's name, as written after `--`. */
export type OptionName = keyof typeof OPTIONS;
/** The parsed option values a command gets. */
export type Values = { [K in Exclude<OptionName, 'library'>]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string } & { library?: string[] };

/** A failure the user caused: printed as one line `mlsys-papers: <message>`, exit 2. */
export class UsageError extends Error {}

/** What a command runs with. */
export interface Context {
  /** Positional arguments after the command name. */
  args: string[];
  values: Values;
  out: (s: string) => void;
  err: (s: string) => void;
  /**
   * Writes text to stdout exactly as it is, with no line break added and nothing escaped: only a
   * file's own text (`check --fix` prints the fixed file, to be redirected like `cat`'s).
   */
  write: (s: string) => void;
}

/** How an option is shown in a command's help: `--format F   text`. */
export interface OptionHelp {
  /** The value's placeholder (`N`, `DIR`); none for a flag. */
  arg?: string;
  text: string;
}

/** A command: how the help shows it, the options it takes, and what it runs. */
export interface Command {
  /** The command line after `mlsys-papers `, as the overview and the help show it. */
  synopsis: string;
  /** One line for the overview. */
  summary: string;
  /** What the command does, for its own help. */
  description: string;
  /** The options the command takes (besides --help), with their help text. Nothing else is accepted. */
  options: Partial<Record<Exclude<OptionName, 'help'>, OptionHelp>>;
  /** The exit code; a promise for commands that read files through the core's asynchronous hosts (`sync`). */
  run(ctx: Context): number | Promise<number>;
}

/** The help of options several commands take. */
export const CORPUS_OPTION: OptionHelp = { arg: 'DIR', text: 'read a corpus folder (topics.yaml, entries/*.yaml) instead of the bundled corpus' };
export const JSON_OPTION: OptionHelp = { text: 'print JSON instead of text' };
export const LIBRARY_OPTION: OptionHelp = { arg: 'FILE', text: 'also your library: a .bib, CSL-JSON or CSL-YAML file (repeatable; cached in $XDG_CACHE_HOME/mlsys-papers)' };

/** A usage error when a command that takes no arguments got some. */
export function noArgs(ctx: Context, cmd: string): void {
  if (ctx.args.length) throw new UsageError(`${cmd} takes no arguments, got "${ctx.args[0]}" (see: mlsys-papers ${cmd} --help)`);
}
