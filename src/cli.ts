/**
 * `mlsys-papers`: the corpus, search and citations from a terminal, over the same core as the extension.
 * Run `mlsys-papers help` for usage.
 */
import { writeFileSync, mkdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildCorpus, crossCheck, entrySources, parseTopicsFile, type Corpus } from './core/corpus.js';
import { formatProblem } from './core/diagnostics.js';
import { loadCompiledCorpus, loadCorpusDir } from './core/load.js';
import { createSearchIndex } from './core/search.js';
import { toBibtexAll } from './core/cite/bibtex.js';
import { CITE_FORMATS, formatCitation, toCslJson, type CiteFormat } from './core/cite/format.js';
import { shortAuthors } from './core/cite/names.js';
import { entryJson } from './core/json.js';
import { citedKeys } from './core/citations.js';

const USAGE = `Usage: mlsys-papers <command> [options]

Commands:
  topics [--json]                          the topic tree
  list [--topic ID] [--json]               entries (all, or under a topic)
  search "<query>" [--limit N] [--json]    ranked search; filters author: year: venue: topic:
  cite <key...> [--format latex|pandoc|markdown|bibtex]
  export [--topic ID] [--cited-in FILE] [--format bibtex|csl-json]
                                           (--cited-in: the entries a .tex or .md file cites, in citation order)
  lint <file...>                           validate corpus YAML (entries or topics) files
  build-corpus <dir> <out.json>            validate a corpus folder and compile it (used by the build)

Options:
  --corpus DIR   read a corpus folder of YAML instead of the bundled compiled corpus
`;

/** Parsed command line: positional arguments and `--name value` / `--flag` options. */
interface Args {
  positional: string[];
  options: Map<string, string | true>;
}

const FLAGS = new Set(['json', 'help']);

function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
      if (inline !== undefined) options.set(name, inline);
      else if (FLAGS.has(name) || i + 1 >= argv.length) options.set(name, true);
      else options.set(name, argv[++i]!);
    } else positional.push(a);
  }
  return { positional, options };
}

class UsageError extends Error {}

function opt(args: Args, name: string): string | undefined {
  const v = args.options.get(name);
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}

function loadCorpus(args: Args): Corpus {
  const dir = opt(args, 'corpus');
  if (dir) {
    const loaded = loadCorpusDir(resolve(dir));
    const errors = loaded.problems.filter((p) => p.severity === 'error');
    if (errors.length) throw new UsageError(errors.map(formatProblem).join('\n'));
    return buildCorpus(loaded.data);
  }
  return loadCompiledCorpus(join(__dirname, 'corpus.json'));
}

function entriesForTopic(corpus: Corpus, topic: string | undefined) {
  if (!topic) return corpus.entries;
  if (!corpus.topic(topic)) throw new UsageError(`unknown topic "${topic}" (see: mlsys-papers topics)`);
  return corpus.entriesUnder(topic);
}

/**
 * Runs the CLI.
 *
 * @param argv - arguments after the program name
 * @param out - where results go (stdout)
 * @param err - where problems go (stderr)
 * @returns the exit code: 0 ok, 1 problems found (lint, unknown keys), 2 usage error
 */
export function main(argv: string[], out: (s: string) => void, err: (s: string) => void): number {
  const args = parseArgs(argv);
  const [cmd, ...rest] = args.positional;
  const json = args.options.has('json');
  try {
    switch (cmd) {
      case 'topics': {
        const corpus = loadCorpus(args);
        if (json) {
          out(JSON.stringify(corpus.topics.map((t) => ({
            id: t.id, label: t.label, zh: t.zh, description: t.description, parent: t.parent ?? null,
            children: t.children, entries: corpus.entriesUnder(t.id).length,
          })), null, 2));
        } else {
          for (const t of corpus.topics) {
            const depth = t.path.length - 1;
            out(`${'  '.repeat(depth)}${t.id}  ${t.label} (${t.zh})  [${corpus.entriesUnder(t.id).length}]`);
          }
        }
        return 0;
      }
      case 'list': {
        const corpus = loadCorpus(args);
        const entries = entriesForTopic(corpus, opt(args, 'topic'));
        if (json) out(JSON.stringify(entries.map(entryJson), null, 2));
        else for (const e of entries) out(`${e.key}\t${e.year ?? ''}\t${e.venue ?? ''}\t${e.title}`);
        return 0;
      }
      case 'search': {
        const query = rest.join(' ');
        if (!query.trim()) throw new UsageError('search needs a query');
        const limitText = opt(args, 'limit') ?? '10';
        const limit = Number(limitText);
        if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit must be a positive whole number, not "${limitText}"`);
        const corpus = loadCorpus(args);
        const hits = createSearchIndex(corpus).search(query, limit);
        if (json) out(JSON.stringify(hits.map((h) => ({ ...entryJson(h.entry), score: Number(h.score.toFixed(3)) })), null, 2));
        else for (const h of hits) out(`${h.entry.key}\t${h.entry.title}\n\t${shortAuthors(h.entry.authors)} · ${[h.entry.venue, h.entry.year].filter(Boolean).join(' ')}`);
        return 0;
      }
      case 'cite': {
        if (!rest.length) throw new UsageError('cite needs at least one key');
        const format = (opt(args, 'format') ?? 'latex') as CiteFormat;
        if (!CITE_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${CITE_FORMATS.join(', ')}`);
        const corpus = loadCorpus(args);
        const missing = rest.filter((k) => !corpus.entry(k));
        if (missing.length) { err(`mlsys-papers: unknown key(s): ${missing.join(', ')}`); return 1; }
        out(formatCitation(rest.map((k) => corpus.entry(k)!), format));
        return 0;
      }
      case 'export': {
        const format = opt(args, 'format') ?? 'bibtex';
        if (format !== 'bibtex' && format !== 'csl-json') throw new UsageError('--format must be bibtex or csl-json');
        const corpus = loadCorpus(args);
        const citedIn = opt(args, 'cited-in');
        let entries = entriesForTopic(corpus, opt(args, 'topic'));
        if (citedIn) {
          if (!existsSync(citedIn)) throw new UsageError(`--cited-in: no file ${citedIn}`);
          const lang = /\.(tex|ltx|latex)$/i.test(citedIn) ? 'latex' : /\.(md|markdown|qmd|rmd)$/i.test(citedIn) ? 'markdown' : undefined;
          if (!lang) throw new UsageError('--cited-in takes a LaTeX (.tex) or Markdown (.md) file');
          const keys = citedKeys(readFileSync(citedIn, 'utf8'), lang);
          const unknown = keys.filter((k) => !corpus.entry(k));
          if (unknown.length) err(`mlsys-papers: not in the corpus, left out: ${unknown.join(', ')}`);
          const allowed = new Set(entries.map((e) => e.key));
          // Keys are matched ignoring case: two spellings of one key export the entry once.
          entries = [...new Set(keys.map((k) => corpus.entry(k)))].filter((e): e is NonNullable<typeof e> => !!e && allowed.has(e.key));
        }
        out(format === 'bibtex' ? toBibtexAll(entries) : JSON.stringify(entries.map(toCslJson), null, 2));
        return 0;
      }
      case 'lint': {
        if (!rest.length) throw new UsageError('lint needs at least one file');
        let errors = 0;
        for (const file of rest) {
          if (!existsSync(file)) { err(`${file}:1:1: error: file not found`); errors++; continue; }
          const text = readFileSync(file, 'utf8');
          const isTopics = /^\s*-\s+id:/m.test(text) && !/^\s*-?\s*key:/m.test(text);
          let problems;
          if (isTopics) problems = parseTopicsFile(text, file).problems;
          else {
            const res = entrySources(text, file);
            // Topics live in another file: lint checks one entries file on its own.
            problems = [...res.problems, ...crossCheck([], res.sources).filter((p) => !p.message.startsWith('unknown topic'))];
          }
          for (const p of problems) err(formatProblem(p));
          errors += problems.filter((p) => p.severity === 'error').length;
        }
        if (!errors) out(`${rest.length} file(s) OK`);
        return errors ? 1 : 0;
      }
      case 'build-corpus': {
        const [dir, outFile] = rest;
        if (!dir || !outFile) throw new UsageError('build-corpus needs <dir> <out.json>');
        const loaded = loadCorpusDir(resolve(dir));
        for (const p of loaded.problems) err(formatProblem(p));
        if (loaded.problems.some((p) => p.severity === 'error')) return 1;
        mkdirSync(dirname(outFile), { recursive: true });
        writeFileSync(outFile, JSON.stringify(loaded.data));
        out(`corpus: ${loaded.data.entries.length} entries, ${loaded.data.topics.length} root topics → ${outFile}`);
        return 0;
      }
      case undefined:
      case 'help':
        out(USAGE);
        return cmd ? 0 : 2;
      default:
        throw new UsageError(`unknown command "${cmd}"`);
    }
  } catch (e) {
    if (e instanceof UsageError) { err(`mlsys-papers: ${e.message}`); return 2; }
    throw e;
  }
}

if (require.main === module) {
  // `mlsys-papers list | head` closes the pipe early; that is not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => { if (e.code === 'EPIPE') process.exit(0); else throw e; });
  process.exitCode = main(process.argv.slice(2), (s) => process.stdout.write(`${s}\n`), (s) => process.stderr.write(`${s}\n`));
}
