/**
 * The CLI's command table, its help texts and the dispatch: which command runs, with which of its
 * options checked (two passes of `node:util`'s `parseArgs`), and every line it prints made
 * terminal-safe (`core/text/terminal.ts`).
 */
import { parseArgs } from 'node:util';
import { terminalJson, terminalSafe } from '../core/text/terminal.js';
import { runBuildCorpus, runLint } from './corpusCommands.js';
import { loadCorpus } from './cliFiles.js';
import { runCite, runExport, runList, runSearch } from './libraryCommands.js';
import { CORPUS_OPTION, JSON_OPTION, LIBRARY_OPTION, noArgs, OPTIONS, UsageError, type Command, type OptionName, type Values } from './options.js';
import { didYouMean, suggest } from './output.js';
import { runCheck, runLsp, runSync } from './documentCommands.js';

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
    run: runList,
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
  check: {
    synopsis: 'check <file...> [--json] [--fix] [--write] [--allow-outside]',
    summary: 'check bibliographies against the corpus: preprints with a version of record, fields that disagree',
    description: [
      'Checks .bib, CSL-JSON and CSL-YAML files against the corpus\'s verified records, as the editor does:',
      '- an entry cited as an arXiv preprint (journal = {arXiv preprint arXiv:...}, @misc with eprint, an arxiv.org',
      '  URL or DOI) whose version of record the corpus has;',
      '- an entry whose year, venue, pages, title or authors disagree with the verified record (only fields the',
      '  corpus verified; never a difference in form only: braces, case, -- or \u2013, Proc. of, initials).',
      'Prints one line per entry found (file:line: key: message); exit 1 when there are findings, 0 when none.',
      '--json prints an array, one object per preprint and per field that disagrees:',
      '  {file, line, key, kind ("version-of-record" or "mismatch"), corpusKey, source, message, field, found, expected}.',
      '--fix prints the fixed file (one file) to stdout, exactly: each preprint rewritten to its version of record',
      '  and each field set to the verified value, keeping your key, your own fields (file, keywords, note, abstract,',
      '  custom fields), the entry\'s layout and every other byte; what was fixed goes to stderr. With --write, each file',
      '  is rewritten in place instead; never a file outside the working directory (real paths compared) without',
      '  --allow-outside. With --fix, the exit code is 0 when everything found was fixed.',
    ].join('\n'),
    options: {
      json: JSON_OPTION,
      fix: { text: 'print the fixed file (or, with --write, rewrite the files)' },
      write: { text: 'with --fix: rewrite each file in place' },
      'allow-outside': { text: 'with --fix --write: write even where a file\'s real path leaves the working directory' },
      corpus: CORPUS_OPTION,
    },
    run: runCheck,
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
 *   other than the block's own line breaks and tabs arrive escaped (`core/text/terminal.ts`)
 * @param rawErr - where problems go (stderr), one call per line; every control character arrives
 *   escaped (the usage text excepted)
 * @param rawWrite - where a file's own text goes as it is (stdout, no line break added): `check
 *   --fix`'s fixed file; absent, it goes to `rawOut` as one block
 * @returns the exit code: 0 ok; 1 nothing found or problems found (no search result, unknown key,
 *   lint errors); 2 usage error (unknown option or command, bad value, missing or unreadable file or
 *   folder, unwritable output), reported as one line on `err`
 *   (a promise of it for `sync`, which reads files through the core's asynchronous host interface)
 * @throws only on a bug (anything but a usage error); the program's runner prints it as one line
 */
export function main(argv: string[], rawOut: (s: string) => void, rawErr: (s: string) => void, rawWrite?: (s: string) => void): number | Promise<number> {
  // Every print path goes through these two, so no control character from a library, a file name
  // or an argument reaches the terminal (`core/text/terminal.ts`); a result block keeps its own line
  // breaks and tabs (its fields were escaped whole), a problem is one line whatever it names.
  const out = (s: string) => rawOut(terminalSafe(s, '\n\t'));
  const err = (s: string) => rawErr(s === USAGE ? s : terminalSafe(s));
  // A file's own text (`check --fix`), as it is: without a way to write it so, a line (its final line break its own).
  const write = rawWrite ?? ((s: string) => rawOut(s.replace(/\r?\n$/, '')));
  const usage = (e: unknown) => {
    if (e instanceof UsageError) { err(`mlsys-papers: ${e.message}`); return 2; }
    throw e;
  };
  try {
    const code = dispatch(argv, out, err, write);
    return typeof code === 'number' ? code : code.catch(usage);
  } catch (e) {
    return usage(e);
  }
}

function dispatch(argv: string[], out: (s: string) => void, err: (s: string) => void, write: (s: string) => void): number | Promise<number> {
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
  return command.run({ args: parsed.positionals.slice(1), values: parsed.values as Values, out, err, write });
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
