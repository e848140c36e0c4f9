/**
 * `mlsys-papers`: the corpus, search and citations from a terminal, over the same core as the extension.
 * Run `mlsys-papers help` for usage, `mlsys-papers <command> --help` for a command's options.
 *
 * Every failure the user can cause (a bad option, a missing file or folder, an unwritable output)
 * is one line on stderr and exit 2; nothing prints a stack trace.
 */
import { mkdirSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { distance } from 'fastest-levenshtein';
import { buildCorpus, crossCheck, entryLocations, parseTopicsFile, type Corpus, type EntryLocation } from './core/corpus.js';
import { CorpusError, formatProblem, type Problem } from './core/problems.js';
import { loadCompiledCorpus, loadCorpusDir, type LoadedCorpus } from './host/node/load.js';
import { createSearchIndex, mergeHits, parseQuery, topicsMatching, type ParsedQuery, type SearchHit } from './core/search.js';
import { corpusWorks, twinKey } from './core/library/twins.js';
import { prepareEntry } from './core/library/verbatim.js';
import { LibraryFileError, loadLibraryFiles, type CliLibrary } from './host/node/libraries.js';
import { toBibtexAll } from './core/cite/bibtex.js';
import { CITE_FORMATS, formatCitation, toCslJson, type CiteFormat } from './core/cite/format.js';
import { shortAuthors } from './core/cite/names.js';
import { entryJson } from './core/entryJson.js';
import { citedKeys } from './core/citations.js';
import type { Entry, TopicInput } from './core/schema.js';
import { runNodeServer } from './host/node/server.js';
import { terminalJson, terminalSafe } from './core/terminal.js';
import { languageOfPath, syncBibliography } from './host/node/sync.js';
import { readProblem, readRegularFileSync } from './host/node/files.js';
import { DEFAULT_MAX_FILE_MB, maxFileBytes } from './core/fileLimits.js';

/** Every option the CLI knows; each command takes some of them (see {@link COMMANDS}). */
const OPTIONS = {
  json: { type: 'boolean' },
  limit: { type: 'string' },
  format: { type: 'string' },
  topic: { type: 'string' },
  'cited-in': { type: 'string' },
  corpus: { type: 'string' },
  library: { type: 'string', multiple: true },
  'dry-run': { type: 'boolean' },
  'allow-outside': { type: 'boolean' },
  stdio: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type OptionName = keyof typeof OPTIONS;
type Values = { [K in Exclude<OptionName, 'library'>]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string } & { library?: string[] };

/** A failure the user caused: printed as one line `mlsys-papers: <message>`, exit 2. */
class UsageError extends Error {}

/** What a command runs with. */
interface Context {
  /** Positional arguments after the command name. */
  args: string[];
  values: Values;
  out: (s: string) => void;
  err: (s: string) => void;
}

/** How an option is shown in a command's help: `--format F   text`. */
interface OptionHelp {
  /** The value's placeholder (`N`, `DIR`); none for a flag. */
  arg?: string;
  text: string;
}

interface Command {
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

const CORPUS_OPTION: OptionHelp = { arg: 'DIR', text: 'read a corpus folder (topics.yaml, entries/*.yaml) instead of the bundled corpus' };
const JSON_OPTION: OptionHelp = { text: 'print JSON instead of text' };
const LIBRARY_OPTION: OptionHelp = { arg: 'FILE', text: 'also your library: a .bib, CSL-JSON or CSL-YAML file (repeatable; cached in $XDG_CACHE_HOME/mlsys-papers)' };

const COMMANDS: Record<string, Command> = {
  topics: {
    synopsis: 'topics [--json]',
    summary: 'the topic tree with entry counts',
    description: 'Prints the topic tree: each topic\'s id, English and Chinese label, and how many entries it holds (subtopics included).',
    options: { json: JSON_OPTION, corpus: CORPUS_OPTION },
    run: (ctx) => {
      noArgs(ctx, 'topics');
      const corpus = loadCorpus(ctx.values);
      if (ctx.values.json) {
        ctx.out(terminalJson(corpus.topics.map((t) => ({
          id: t.id, label: t.label, zh: t.zh, description: t.description, parent: t.parent ?? null,
          children: t.children, entries: corpus.entriesUnder(t.id).length,
        })), 2));
      } else {
        for (const t of corpus.topics) {
          const depth = t.path.length - 1;
          ctx.out(`${'  '.repeat(depth)}${terminalSafe(t.id)}  ${terminalSafe(t.label)} (${terminalSafe(t.zh)})  [${corpus.entriesUnder(t.id).length}]`);
        }
      }
      return 0;
    },
  },
  list: {
    synopsis: 'list [--topic ID] [--library FILE] [--json]',
    summary: 'entries, all or under a topic (subtopics included)',
    description: 'Lists entries (key, year, venue, title), all of them or those under a topic, in reading order; then, without --topic, the entries of each --library.',
    options: { topic: { arg: 'ID', text: 'only entries under this topic or its subtopics (ids: mlsys-papers topics)' }, library: LIBRARY_OPTION, json: JSON_OPTION, corpus: CORPUS_OPTION },
    run: (ctx) => {
      noArgs(ctx, 'list');
      return withLibraries(ctx, ({ corpus, libraries }) => {
        const entries = [...entriesForTopic(corpus, ctx.values.topic), ...(ctx.values.topic === undefined ? libraries.entries() : [])];
        if (ctx.values.json) ctx.out(terminalJson(entries.map(entryJson), 2));
        else for (const e of entries) ctx.out([e.key, e.year ?? '', e.venue ?? '', e.title].map((f) => terminalSafe(String(f))).join('\t'));
        return 0;
      });
    },
  },
  search: {
    synopsis: 'search "<query>" [--limit N] [--library FILE] [--json]',
    summary: 'ranked search; filters author: year: venue: topic:',
    description: [
      'Ranked search over titles, system names, keys, authors, venues, topics and summaries.',
      'Filters: author:kwon  author:"Woosuk Kwon"  year:2023  year:2022..2024  year:2022..  year:..2024',
      '         venue:osdi  topic:serving (a topic id or label; subtopics included).',
      'A malformed filter (year:abc) or an unknown topic is an error (exit 2); no result is exit 1.',
      'With --library, entries of your libraries rank beside the corpus; a work both have shows once, as the corpus entry.',
    ].join('\n'),
    options: { limit: { arg: 'N', text: 'at most N results (default 10)' }, library: LIBRARY_OPTION, json: { text: 'print JSON, in rank order, with a relevance score' }, corpus: CORPUS_OPTION },
    run: runSearch,
  },
  cite: {
    synopsis: 'cite <key...> [--format latex|pandoc|markdown|bibtex] [--library FILE]',
    summary: 'citation text for keys: \\cite{a,b}, [@a; @b], Markdown links or BibTeX',
    description: 'Prints a citation of the keys (matched ignoring case; the corpus first, then each --library). An unknown key is exit 1, with the closest keys suggested. A library entry\'s BibTeX is its own text, as written.',
    options: { format: { arg: 'F', text: 'latex (default): \\cite{a,b}; pandoc: [@a; @b]; markdown: [Title](url); bibtex: the entries' }, library: LIBRARY_OPTION, corpus: CORPUS_OPTION },
    run: runCite,
  },
  export: {
    synopsis: 'export [--topic ID] [--cited-in FILE] [--format bibtex|csl-json] [--library FILE]',
    summary: 'BibTeX or CSL-JSON for the corpus, a topic, or the entries a .tex/.md file cites',
    description: 'Writes BibTeX or CSL-JSON for every entry, the entries under a topic, or the entries a document cites.',
    options: {
      topic: { arg: 'ID', text: 'only entries under this topic or its subtopics' },
      'cited-in': { arg: 'FILE', text: 'only the entries a LaTeX (.tex) or Markdown (.md, .qmd, .rmd) file cites, in citation order' },
      format: { arg: 'F', text: 'bibtex (default) or csl-json' },
      library: { arg: 'FILE', text: 'also your library (repeatable): with --cited-in, keys it has are exported as written' },
      corpus: CORPUS_OPTION,
    },
    run: runExport,
  },
  lint: {
    synopsis: 'lint <file...>',
    summary: 'validate corpus YAML files (entries or topics) as the build does',
    description: [
      'Validates corpus YAML files: file:line:col: error: field: message; exit 1 on errors.',
      'An entries file is checked like the build checks it: the schema, duplicate keys, DOIs, arXiv ids and',
      'titles (within the files and against the corpus), and topics that do not exist. The corpus it is checked',
      'against is --corpus DIR; else, for a file in a corpus folder (DIR/entries/*.yaml beside DIR/topics.yaml),',
      'the other files of that folder; else the bundled corpus. A topics file named with it supplies the topics.',
    ].join('\n'),
    options: { corpus: { arg: 'DIR', text: 'check entries against this corpus folder (instead of their own folder or the bundled corpus)' } },
    run: (ctx) => runLint(ctx),
  },
  sync: {
    synopsis: 'sync <file> [--dry-run] [--allow-outside]',
    summary: 'add the corpus entries a .tex/.md file cites to its bibliography',
    description: [
      'Adds to a LaTeX or Markdown document\'s bibliography every corpus entry it cites that the bibliography lacks,',
      'exactly as the editor does: the files of \\bibliography, \\addbibresource, % !TEX root, the front matter or',
      'a Quarto project\'s _quarto.yml; a work already there under another key is not added again (cite that key);',
      'the entries are appended without changing any other byte. Nothing is written outside the directory the',
      'command runs in (real paths compared: a symlink that leads out counts as outside), nor to a file that',
      'cannot be parsed (exit 2, one line).',
    ].join('\n'),
    options: {
      'dry-run': { text: 'print what would be added, and where, without writing' },
      'allow-outside': { text: 'write the bibliography even where its real path leaves the working directory' },
      corpus: CORPUS_OPTION,
    },
    run: runSync,
  },
  lsp: {
    synopsis: 'lsp --stdio',
    summary: 'the language server, for editors other than VS Code',
    description: [
      'Runs the MLSys Papers language server (the Language Server Protocol over standard input and output):',
      'completion of citation keys, hover, go to definition, diagnostics and quick fixes in LaTeX and Markdown,',
      'over the bundled corpus and each document\'s bibliography. Set-up for Neovim, Emacs and Helix: README.',
    ].join('\n'),
    options: { stdio: { text: 'speak LSP over standard input and output (the only transport)' } },
    run: runLsp,
  },
  'build-corpus': {
    synopsis: 'build-corpus <dir> <out.json>',
    summary: 'validate a corpus folder and compile it (used by the build)',
    description: 'Validates a corpus folder (topics.yaml, entries/*.yaml) and writes the compiled corpus; exit 1 on errors.',
    options: {},
    run: runBuildCorpus,
  },
};

/** The overview: every command, the common options and the exit codes. */
export const USAGE = usage();

function usage(): string {
  const width = 42;
  const lines = ['Usage: mlsys-papers <command> [options]', '', 'Commands:'];
  const row = (left: string, right: string) =>
    lines.push(left.length < width ? `  ${left.padEnd(width)}${right}` : `  ${left}\n  ${''.padEnd(width)}${right}`);
  for (const c of Object.values(COMMANDS)) row(c.synopsis, c.summary);
  row('help [<command>]', 'this text, or a command\'s options (also: <command> --help)');
  lines.push(
    '',
    'Options:',
    '  --corpus DIR   read a corpus folder of YAML instead of the bundled compiled corpus',
    '                 (every command but build-corpus)',
    '  -h, --help     help; after a command, that command\'s help',
    '',
    'Exit codes: 0 ok; 1 nothing found or problems found (no search result, unknown key, lint errors);',
    '2 usage error (unknown option, bad value, missing or unreadable file or folder).',
  );
  return lines.join('\n');
}

/** A command's help: its synopsis, what it does, and exactly the options it takes. */
function commandHelp(name: string): string {
  const c = COMMANDS[name]!;
  const opts: [string, string][] = Object.entries(c.options).map(([o, h]) => [`--${o}${h.arg ? ` ${h.arg}` : ''}`, h.text]);
  opts.push(['-h, --help', 'this help']);
  const width = Math.max(...opts.map(([l]) => l.length)) + 2;
  return [
    `Usage: mlsys-papers ${c.synopsis}${c.options.corpus ? ' [--corpus DIR]' : ''}`,
    '',
    c.description,
    '',
    'Options:',
    ...opts.map(([l, t]) => `  ${l.padEnd(width)}${t}`),
  ].join('\n');
}

/**
 * Runs the CLI.
 *
 * @param argv - arguments after the program name
 * @param rawOut - where results go (stdout), one call per line or block; control characters
 *   other than the block's own line breaks and tabs arrive escaped (`core/terminal.ts`)
 * @param rawErr - where problems go (stderr), one call per line; every control character arrives
 *   escaped (the usage text excepted)
 * @returns the exit code: 0 ok; 1 nothing found or problems found (no search result, unknown key,
 *   lint errors); 2 usage error (unknown option or command, bad value, missing or unreadable file or
 *   folder, unwritable output), reported as one line on `err`
 *   (a promise of it for `sync`, which reads files through the core's asynchronous host interface)
 * @throws only on a bug (anything but a usage error); the program's runner prints it as one line
 */
export function main(argv: string[], rawOut: (s: string) => void, rawErr: (s: string) => void): number | Promise<number> {
  // Every print path goes through these two, so no control character from a library, a file name
  // or an argument reaches the terminal (`core/terminal.ts`); a result block keeps its own line
  // breaks and tabs (its fields were escaped whole), a problem is one line whatever it names.
  const out = (s: string) => rawOut(terminalSafe(s, '\n\t'));
  const err = (s: string) => rawErr(s === USAGE ? s : terminalSafe(s));
  const usage = (e: unknown) => {
    if (e instanceof UsageError) { err(`mlsys-papers: ${e.message}`); return 2; }
    throw e;
  };
  try {
    const code = dispatch(argv, out, err);
    return typeof code === 'number' ? code : code.catch(usage);
  } catch (e) {
    return usage(e);
  }
}

function dispatch(argv: string[], out: (s: string) => void, err: (s: string) => void): number | Promise<number> {
  // First pass, lenient: find the command (options may come before it) and every option given.
  const { tokens } = parseArgs({ args: argv, options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const name = tokens.find((t) => t.kind === 'positional')?.value;
  const given = tokens.filter((t) => t.kind === 'option');
  const wantsHelp = given.some((t) => t.name === 'help');

  if (name === undefined) {
    if (wantsHelp) { out(USAGE); return 0; }
    if (given.length) throw new UsageError(`no command (see: mlsys-papers help)`);
    err(USAGE);
    return 2;
  }
  if (name === 'help') {
    const about = tokens.filter((t) => t.kind === 'positional').slice(1).map((t) => t.value);
    for (const t of given) if (t.name !== 'help') throw new UsageError(`help takes no ${t.rawName} (see: mlsys-papers help)`);
    if (about.length > 1) throw new UsageError('help takes one command (see: mlsys-papers help)');
    if (!about[0]) { out(USAGE); return 0; }
    out(commandHelp(commandName(about[0])));
    return 0;
  }
  const cmd = commandName(name);
  const command = COMMANDS[cmd]!;
  if (wantsHelp) { out(commandHelp(cmd)); return 0; }

  const see = `(see: mlsys-papers ${cmd} --help)`;
  for (const t of given) {
    if (!Object.hasOwn(OPTIONS, t.name)) throw new UsageError(`unknown option ${t.rawName} ${see}`);
    if (!Object.hasOwn(command.options, t.name)) throw new UsageError(`${cmd} does not take ${t.rawName} ${see}`);
    const type = OPTIONS[t.name as OptionName].type;
    if (type === 'string' && (t.value === undefined || (!t.inlineValue && t.value.startsWith('-')))) {
      throw new UsageError(`${t.rawName} needs a value (one starting with "-" goes as ${t.rawName}=-1) ${see}`);
    }
    if (type === 'boolean' && t.inlineValue) throw new UsageError(`${t.rawName} takes no value ${see}`);
  }

  // Second pass, strict, with only this command's options.
  const options = Object.fromEntries(
    Object.entries(OPTIONS).filter(([o]) => o === 'help' || Object.hasOwn(command.options, o)),
  ) as Partial<typeof OPTIONS>;
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError(`${argsMessage(e as Error)} ${see}`);
    throw e;
  }
  return command.run({ args: parsed.positionals.slice(1), values: parsed.values as Values, out, err });
}

/** Node's parseArgs message, as one line (`--limit -1` hints at `--limit=-1`). */
function argsMessage(e: Error): string {
  const dash = /use '(--[\w-]+)=-XYZ'/.exec(e.message);
  return dash ? `${dash[1]}: a value starting with "-" goes as ${dash[1]}=-1` : e.message.split('\n')[0]!;
}

/** The command called `name`, or a usage error suggesting the closest ones. */
function commandName(name: string): string {
  if (Object.hasOwn(COMMANDS, name)) return name;
  const near = suggest(name, [...Object.keys(COMMANDS), 'help']);
  throw new UsageError(`unknown command "${name}"${didYouMean(near)} (see: mlsys-papers help)`);
}

function noArgs(ctx: Context, cmd: string): void {
  if (ctx.args.length) throw new UsageError(`${cmd} takes no arguments, got "${ctx.args[0]}" (see: mlsys-papers ${cmd} --help)`);
}

// ---------------------------------------------------------------------------------------------
// Commands

function runLsp(ctx: Context): Promise<number> {
  noArgs(ctx, 'lsp');
  if (!ctx.values.stdio) throw new UsageError('lsp needs --stdio (see: mlsys-papers lsp --help)');
  runNodeServer();
  // Runs until the client sends `exit` (the connection ends the process).
  return new Promise(() => {});
}

async function runSync(ctx: Context): Promise<number> {
  if (ctx.args.length !== 1) throw new UsageError('sync takes one .tex or .md file (see: mlsys-papers sync --help)');
  const file = ctx.args[0]!;
  const text = readText(file, 'sync');
  const corpus = loadCorpus(ctx.values);
  let res;
  try {
    res = await syncBibliography(file, corpus, { cwd: process.cwd(), dryRun: ctx.values['dry-run'], allowOutside: ctx.values['allow-outside'], text });
  } catch (e) {
    throw new UsageError(firstLine(e));
  }
  for (const line of res.err) ctx.err(res.code === 0 ? `mlsys-papers: note: ${line}` : `mlsys-papers: ${line}`);
  for (const line of res.out) ctx.out(line);
  return res.code;
}

function runSearch(ctx: Context): number | Promise<number> {
  const query = ctx.args.join(' ');
  if (!query.trim()) throw new UsageError('search needs a query (see: mlsys-papers search --help)');
  const limitText = ctx.values.limit ?? '10';
  const limit = Number(limitText);
  if (!/^\s*\d+\s*$/.test(limitText) || !Number.isSafeInteger(limit) || limit < 1) {
    throw new UsageError(`--limit must be a positive whole number, not "${limitText}"`);
  }
  return withLibraries(ctx, ({ corpus, libraries }) => {
    const problem = queryProblem(query, corpus);
    if (problem) throw new UsageError(problem);
    const hits = mergeHits(createSearchIndex(corpus).search(query, limit), libraries.search(parseQuery(query), limit), limit);
    if (ctx.values.json) ctx.out(terminalJson(hits.map((h) => ({ ...entryJson(h.entry), score: Number(h.score.toFixed(3)) })), 2));
    else for (const h of hits) ctx.out(`${terminalSafe(h.entry.key)}\t${terminalSafe(h.entry.title)}\n\t${terminalSafe([shortAuthors(h.entry.authors), [h.entry.venue, h.entry.year].filter(Boolean).join(' '), h.entry.library?.name].filter(Boolean).join(' · '))}`);
    if (!hits.length) { ctx.err(`mlsys-papers: no entry matches "${query}"`); return 1; }
    return 0;
  });
}

/**
 * Checks a query's filters the way the search reads them (`parseQuery` in core/search.ts): a year
 * filter it could not read, or a `topic:` that names no topic id (or id prefix) and no label.
 *
 * @returns a one-line message for the first bad filter, or undefined when every filter is usable
 */
function queryProblem(query: string, corpus: Corpus): string | undefined {
  const parsed = parseQuery(query);
  const bad = parsed.invalid[0];
  if (bad) return `bad filter ${bad}: a year filter is year:2023, year:2022..2024, year:2022.. or year:..2024`;
  for (const needle of parsed.filters.topic ?? []) {
    if (!topicsMatching(corpus, needle).size) return `unknown topic in filter topic:${needle}${didYouMean(suggest(needle, corpus.topics.map((t) => t.id)))} (see: mlsys-papers topics)`;
  }
  return undefined;
}

function runCite(ctx: Context): number | Promise<number> {
  if (!ctx.args.length) throw new UsageError('cite needs at least one key (see: mlsys-papers cite --help)');
  const format = (ctx.values.format ?? 'latex') as CiteFormat;
  if (!CITE_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${CITE_FORMATS.join(', ')}, not "${format}"`);
  return withLibraries(ctx, ({ corpus, libraries }) => {
    const lookup = (k: string) => corpus.entry(k) ?? libraries.entry(k);
    const missing = ctx.args.filter((k) => !lookup(k));
    if (missing.length) {
      const keys = [...corpus.entries, ...libraries.entries()].map((e) => e.key);
      for (const k of missing) {
        const near = suggest(k, keys);
        ctx.err(`mlsys-papers: unknown key ${k}${near.length ? didYouMean(near) : ' (see: mlsys-papers search)'}`);
      }
      return 1;
    }
    ctx.out(formatCitation(libraries.prepare(ctx.args.map((k) => lookup(k)!)), format));
    return 0;
  });
}

function runExport(ctx: Context): number | Promise<number> {
  noArgs(ctx, 'export');
  const format = ctx.values.format ?? 'bibtex';
  if (format !== 'bibtex' && format !== 'csl-json') throw new UsageError(`--format must be bibtex or csl-json, not "${format}"`);
  const citedIn = ctx.values['cited-in'];
  let lang: string | undefined;
  if (citedIn !== undefined) {
    const st = statPath(citedIn);
    if (!st) throw new UsageError(`--cited-in ${citedIn}: no such file`);
    if (st.isDirectory()) throw new UsageError(`--cited-in ${citedIn}: is a folder, not a file`);
    lang = languageOfPath(citedIn);
    if (!lang) throw new UsageError(`--cited-in ${citedIn}: not a LaTeX (.tex) or Markdown (.md) file`);
  }
  return withLibraries(ctx, ({ corpus, libraries }) => {
    const lookup = (k: string) => corpus.entry(k) ?? libraries.entry(k);
    let entries: readonly Entry[] = entriesForTopic(corpus, ctx.values.topic);
    if (citedIn !== undefined && lang) {
      const keys = citedKeys(readText(citedIn, '--cited-in'), lang);
      const unknown = [...new Set(keys.filter((k) => !lookup(k)))];
      if (unknown.length) {
        const all = [...corpus.entries, ...libraries.entries()].map((e) => e.key);
        ctx.err(`mlsys-papers: not in the corpus${libraries.count ? ' or your libraries' : ''}, left out: ${unknown.map((k) => {
          const near = suggest(k, all);
          return near.length ? `${k} (did you mean ${orList(near)}?)` : k;
        }).join(', ')}`);
      }
      const allowed = new Set(entries.map((e) => e.key));
      // Keys are matched ignoring case: two spellings of one key export the entry once. A --topic
      // keeps corpus entries under it; library entries have no topics, so only without one.
      entries = [...new Set(keys.map(lookup))].filter((e): e is Entry => !!e && (e.library ? ctx.values.topic === undefined : allowed.has(e.key)));
    }
    const prepared = libraries.prepare(entries);
    ctx.out(format === 'bibtex' ? toBibtexAll(prepared) : terminalJson(prepared.map(toCslJson), 2));
    return 0;
  });
}

/** The user's libraries (`--library`), as the commands use them. */
interface CliLibraries {
  count: number;
  /** Every library entry, library by library, in file order. */
  entries(): Entry[];
  /** A library entry by key (ignoring case; the first library's). */
  entry(key: string): Entry | undefined;
  /** Library hits, twins of corpus entries left out. */
  search(query: ParsedQuery, limit: number): SearchHit[];
  /** Library entries with their own text, for output; others as they are. */
  prepare(entries: readonly Entry[]): Entry[];
}

/**
 * Runs a command body with the corpus (`--corpus` or the bundled one) and the `--library` files,
 * loaded through the language server's loader and cache (each broken library entry is a line on
 * stderr): at once without `--library`, after reading the files with it.
 */
function withLibraries(ctx: Context, body: (c: { corpus: Corpus; libraries: CliLibraries }) => number): number | Promise<number> {
  const corpus = loadCorpus(ctx.values);
  const paths = ctx.values.library ?? [];
  if (!paths.length) return body({ corpus, libraries: librariesOf(ctx, corpus, []) });
  return loadLibraryFiles(paths, { warn: (m) => ctx.err(`mlsys-papers: ${m}`) }).then((r) => {
    for (const p of r.problems) ctx.err(p);
    return body({ corpus, libraries: librariesOf(ctx, corpus, r.libraries) });
  }, (e: unknown) => {
    if (e instanceof LibraryFileError) throw new UsageError(e.message);
    throw e;
  });
}

/** The loaded libraries as the commands use them (twins of corpus entries left out of searches). */
function librariesOf(ctx: Context, corpus: Corpus, loaded: CliLibrary[]): CliLibraries {
  const works = corpusWorks(corpus);
  const twins = new Set(loaded.flatMap((l) => l.lib.entries.filter((e) => twinKey(e, works))));
  const owner = (e: Entry) => loaded.find((l) => l.lib.entries.includes(e));
  return {
    count: loaded.length,
    entries: () => loaded.flatMap((l) => l.lib.entries),
    entry: (key) => loaded.map((l) => l.lib.index.entry(key)).find((e) => !!e),
    search: (query, limit) => loaded.flatMap((l) => l.lib.index.search(query, limit, twins.size ? (e) => twins.has(e) : undefined))
      .sort((a, b) => b.score - a.score).slice(0, limit),
    prepare: (entries) => entries.map((e) => {
      const l = e.library?.format === 'bibtex' ? owner(e) : undefined;
      return l ? prepareEntry(l.lib, l.text, e) : e;
    }),
  };
}

function runBuildCorpus(ctx: Context): number {
  const [dir, outFile, extra] = ctx.args;
  if (!dir || !outFile || extra !== undefined) throw new UsageError('build-corpus needs <dir> <out.json> (see: mlsys-papers build-corpus --help)');
  const loaded = readCorpusDir(dir, 'build-corpus');
  for (const p of loaded.problems) ctx.err(formatProblem(p));
  if (loaded.problems.some((p) => p.severity === 'error')) return 1;
  writeText(outFile, JSON.stringify(loaded.data));
  ctx.out(`corpus: ${loaded.data.entries.length} entries, ${loaded.data.topics.length} root topics → ${terminalSafe(outFile)}`);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// lint

/** One file named on `lint`'s command line, read and parsed. */
interface Linted {
  /** As given on the command line; problems name it so. */
  file: string;
  abs: string;
  kind: 'missing' | 'topics' | 'entries';
  problems: Problem[];
  locations: EntryLocation[];
  /** For a topics file without errors: its topics. */
  topics?: TopicInput[];
}

/** Stands for the bundled corpus as a problem's "file" inside crossCheck; never printed. */
const BUNDLED = '\u0000bundled corpus';

function runLint(ctx: Context): number {
  if (!ctx.args.length) throw new UsageError('lint needs at least one file (see: mlsys-papers lint --help)');
  const linted: Linted[] = [];
  const seen = new Set<string>();
  // Read everything first: a path that is a folder stops the run before any output.
  for (const file of ctx.args) {
    const abs = resolve(file);
    if (seen.has(abs)) continue;
    seen.add(abs);
    const st = statPath(file);
    if (!st) {
      linted.push({ file, abs, kind: 'missing', locations: [], problems: [{ file, line: 1, column: 1, field: '', message: 'file not found', severity: 'error' }] });
      continue;
    }
    if (st.isDirectory()) throw new UsageError(`lint: ${file} is a folder, not a file (lint its files: ${join(file, '*.yaml')})`);
    const text = readText(file, 'lint');
    const isTopics = /^\s*-\s+id:/m.test(text) && !/^[ \t]*(?:-[ \t]*)?key:/m.test(text);
    if (isTopics) {
      const res = parseTopicsFile(text, file);
      const ok = !res.problems.some((p) => p.severity === 'error');
      linted.push({ file, abs, kind: 'topics', locations: [], problems: res.problems, topics: ok ? res.items : undefined });
    } else {
      const res = entryLocations(text, file);
      linted.push({ file, abs, kind: 'entries', locations: res.locations, problems: res.problems });
    }
  }

  const cross = new Map<string, Problem[]>();
  const entryFiles = linted.filter((l) => l.kind === 'entries');
  if (entryFiles.some((l) => l.locations.length)) {
    const ref = lintReference(ctx.values.corpus, entryFiles.map((l) => l.abs));
    const lintedPaths = new Set(linted.map((l) => l.abs));
    // The linted files replace their own version in the reference corpus (a file is no duplicate of itself).
    const others = ref.locations.filter((s) => s.file === BUNDLED || !lintedPaths.has(resolve(s.file)));
    const namedTopics = linted.flatMap((l) => l.topics ?? []);
    const topics = namedTopics.length ? namedTopics : ref.topics;
    const names = new Set(entryFiles.map((l) => l.file));
    for (const p of crossCheck(topics, [...others, ...entryFiles.flatMap((l) => l.locations)])) {
      if (!names.has(p.file)) continue; // a problem of the reference corpus itself
      if (!topics.length && p.message.startsWith('unknown topic')) continue; // no readable taxonomy to check against
      const message = p.message.split(`${BUNDLED}:1`).join('bundled corpus');
      if (!cross.has(p.file)) cross.set(p.file, []);
      cross.get(p.file)!.push({ ...p, message });
    }
  }

  let errors = 0;
  for (const l of linted) {
    const problems = [...l.problems, ...(cross.get(l.file) ?? []).sort((a, b) => a.line - b.line)];
    for (const p of problems) ctx.err(formatProblem(p));
    errors += problems.filter((p) => p.severity === 'error').length;
  }
  if (!errors) ctx.out(`${linted.length} file(s) OK`);
  return errors ? 1 : 0;
}

/** The corpus that linted entries are checked against: its taxonomy and its entries with where they are. */
interface Reference {
  topics: TopicInput[];
  locations: EntryLocation[];
}

/**
 * Picks and reads the corpus that `lint` checks entries files against: `--corpus DIR`; else the
 * corpus folder the files sit in (`DIR/entries/*.yaml` beside `DIR/topics.yaml`), as the build
 * would compile them; else the bundled compiled corpus.
 *
 * @throws UsageError when a folder cannot be read, or the files sit in two corpus folders
 */
function lintReference(corpusOption: string | undefined, files: readonly string[]): Reference {
  const fromDir = (loaded: LoadedCorpus): Reference => ({ topics: loaded.data.topics, locations: loaded.locations });
  if (corpusOption !== undefined) return fromDir(readCorpusDir(corpusOption, '--corpus'));
  const folders = [...new Set(files.map(corpusFolderOf).filter((d): d is string => !!d))];
  if (folders.length > 1) throw new UsageError(`lint: the files are in ${folders.length} corpus folders (${folders.join(', ')}); lint each folder's files on their own, or pass --corpus DIR`);
  if (folders[0]) return fromDir(readCorpusDir(folders[0], 'lint: corpus folder'));
  const corpus = bundledCorpus();
  const toInput = (id: string): TopicInput => {
    const t = corpus.topic(id)!;
    return { id: t.id, label: t.label, zh: t.zh, children: t.children.map(toInput) };
  };
  return { topics: corpus.roots.map(toInput), locations: corpus.entries.map((entry) => ({ entry, file: BUNDLED, line: 1 })) };
}

/** The corpus folder an entries file belongs to (`DIR` for `DIR/entries/x.yaml` when `DIR/topics.yaml` exists). */
function corpusFolderOf(abs: string): string | undefined {
  const entries = dirname(abs);
  if (basename(entries) !== 'entries') return undefined;
  const root = dirname(entries);
  return statPath(join(root, 'topics.yaml'))?.isFile() ? root : undefined;
}

// ---------------------------------------------------------------------------------------------
// Corpora, files and suggestions

function loadCorpus(values: Values): Corpus {
  const dir = values.corpus;
  if (dir === undefined) return bundledCorpus();
  const loaded = readCorpusDir(dir, '--corpus');
  const errors = loaded.problems.filter((p) => p.severity === 'error');
  if (errors.length) throw new UsageError(`--corpus ${dir}: invalid corpus (${errors.length} error(s)):\n${errors.map(formatProblem).join('\n')}`);
  return buildCorpus(loaded.data);
}

/** The compiled corpus shipped beside the program (`dist/corpus.json`). */
function bundledCorpus(): Corpus {
  const path = join(__dirname, 'corpus.json');
  try {
    return loadCompiledCorpus(path);
  } catch (e) {
    if (isFsError(e) || e instanceof SyntaxError || e instanceof CorpusError) {
      throw new UsageError(`cannot read the bundled corpus ${path}: ${reason(e, path)} (run npm run build, or pass --corpus DIR)`);
    }
    throw e;
  }
}

/**
 * Checks that a path is a corpus folder (with `topics.yaml` and `entries/`) and reads it.
 *
 * @param label - what names the folder in a message (`--corpus`, `build-corpus`)
 * @returns the loaded corpus with its problems
 * @throws UsageError, one line naming the folder, when it is missing, not a folder, not a corpus, or unreadable
 */
function readCorpusDir(dir: string, label: string): LoadedCorpus {
  const st = statPath(dir);
  if (!st) throw new UsageError(`${label} ${dir}: no such folder`);
  if (!st.isDirectory()) throw new UsageError(`${label} ${dir}: not a folder`);
  if (!statPath(join(dir, 'topics.yaml'))?.isFile()) throw new UsageError(`${label} ${dir}: not a corpus folder (no topics.yaml)`);
  if (!statPath(join(dir, 'entries'))?.isDirectory()) throw new UsageError(`${label} ${dir}: not a corpus folder (no entries/ folder)`);
  try {
    return loadCorpusDir(resolve(dir));
  } catch (e) {
    if (isFsError(e)) throw new UsageError(`${label} ${dir}: ${reason(e, dir)}`);
    throw e;
  }
}

/**
 * `stat` of a path.
 *
 * @returns the stats, or undefined when nothing is there
 * @throws UsageError when the path cannot be examined (permission, a parent that is a file)
 */
function statPath(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined; // a parent is a file: nothing is there
    if (isFsError(e)) throw new UsageError(`cannot read ${path}: ${reason(e, path)}`);
    throw e;
  }
}

/**
 * Reads a UTF-8 file that must be a regular file within the size cap (a FIFO, a device or
 * `/dev/stdin` would block or never end); a failure is a one-line usage error naming it.
 */
function readText(path: string, label: string): string {
  const max = maxFileBytes(DEFAULT_MAX_FILE_MB);
  const r = readRegularFileSync(path, max);
  if (r.kind !== 'file') throw new UsageError(`${label}: cannot read ${path}: ${readProblem(r, max)}`);
  return r.bytes.toString('utf8');
}

/** Writes a file, creating its folder; a failure is a one-line usage error naming it. */
function writeText(path: string, text: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  } catch (e) {
    if (isFsError(e)) throw new UsageError(`cannot write ${path}: ${reason(e, path, true)}`);
    throw e;
  }
}

function isFsError(e: unknown): e is NodeJS.ErrnoException {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' && typeof (e as NodeJS.ErrnoException).syscall === 'string';
}

const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a folder',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EMFILE: 'too many open files',
};

/**
 * Why an operation failed, in a few words and one line.
 *
 * @param e - what was thrown
 * @param named - the path the message already names (not repeated), if any
 * @param writing - whether the operation was a write (a missing place then "cannot be created")
 */
function reason(e: unknown, named?: string, writing = false): string {
  if (e instanceof CorpusError) return e.problems.map((p) => p.message).join('; ');
  if (isFsError(e)) {
    const at = e.path && e.path !== named ? `${e.path}: ` : '';
    if (e.code === 'ENOTDIR' || (e.code === 'EEXIST' && e.syscall === 'mkdir')) {
      const file = e.path && fileInTheWay(e.path);
      return `${file || 'a parent'} is a file, not a folder`;
    }
    if (e.code === 'ENOENT' && writing) return `${at}the file cannot be created there`;
    const words = FS_REASONS[e.code ?? ''];
    if (words) return `${at}${words}`;
  }
  return firstLine(e);
}

/** The first ancestor of a path (or the path itself) that is a file, where a folder was needed. */
function fileInTheWay(path: string): string | undefined {
  const chain: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    chain.unshift(p);
    if (dirname(p) === p) break;
  }
  return chain.find((p) => statPath(p)?.isFile());
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim();
}

function entriesForTopic(corpus: Corpus, topic: string | undefined) {
  if (topic === undefined) return corpus.entries;
  if (!corpus.topic(topic)) {
    throw new UsageError(`unknown topic "${topic}"${didYouMean(suggest(topic, corpus.topics.map((t) => t.id)))} (see: mlsys-papers topics)`);
  }
  return corpus.entriesUnder(topic);
}

/**
 * The candidates closest to a misspelt name (Levenshtein distance, ignoring case), for "did you mean".
 *
 * @param name - what the user typed
 * @param candidates - the names that exist
 * @param max - how many to return at most
 * @returns up to `max` candidates within a distance of max(2, a quarter of the name's length),
 *   closest first (ties in the candidates' order); empty when none is that close
 */
export function suggest(name: string, candidates: readonly string[], max = 3): string[] {
  const typed = name.toLowerCase();
  const within = Math.max(2, Math.floor(typed.length / 4));
  return candidates
    .map((c, i) => ({ c, i, d: distance(typed, c.toLowerCase()) }))
    .filter((x) => x.d <= within)
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .slice(0, max)
    .map((x) => x.c);
}

function orList(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

function didYouMean(names: readonly string[]): string {
  return names.length ? `; did you mean ${orList(names)}?` : '';
}

if (require.main === module) {
  // Anything unexpected is a bug: one line, exit 2, no stack trace.
  const internal = (e: unknown) => {
    process.stderr.write(`mlsys-papers: internal error: ${terminalSafe(firstLine(e))}\n`);
    process.exit(2);
  };
  process.on('uncaughtException', internal);
  // `mlsys-papers list | head` closes the pipe early; that is not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => { if (e.code === 'EPIPE') process.exit(0); else internal(e); });
  try {
    const code = main(process.argv.slice(2), (s) => process.stdout.write(`${s}\n`), (s) => process.stderr.write(`${s}\n`));
    if (typeof code === 'number') process.exitCode = code;
    else code.then((c) => { process.exitCode = c; }, internal);
  } catch (e) {
    internal(e);
  }
}
