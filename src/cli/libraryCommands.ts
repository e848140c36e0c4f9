/**
 * The commands that read entries: `list`, `search`, `cite` and `export`, over the corpus and the
 * `--library` files as one catalog (`core/library/catalog.ts`, the language server's too).
 */
import { Catalog } from '../core/library/catalog.js';
import { toBibtexAll } from '../core/cite/writeBibtex.js';
import { CITE_FORMATS, formatCitation, toCslJson, type CiteFormat } from '../core/cite/formatCitation.js';
import { shortAuthors } from '../core/cite/names.js';
import type { Corpus } from '../core/corpus/readCorpus.js';
import { entryJson } from '../core/corpus/entryJson.js';
import type { Entry } from '../core/corpus/schema.js';
import { createSearchIndex, type SearchIndex } from '../core/search/corpus/corpusIndex.js';
import { parseQuery, topicsMatching } from '../core/search/queryLanguage.js';
import { terminalJson, terminalSafe } from '../core/text/terminal.js';
import { LibraryFileError, loadLibraryFiles } from '../host/node/libraries.js';
import { languageOfPath } from '../host/node/addCitedEntries.js';
import { documentCitedKeys, nodeLatexProject } from '../host/node/nodeLatexProject.js';
import { NodeBibWorkspace } from '../host/node/nodeBibWorkspace.js';
import { dirname, resolve } from 'node:path';
import { URI } from 'vscode-uri';
import { entriesForTopic, loadCorpus, readText, statPath } from './cliFiles.js';
import { noArgs, UsageError, type Context } from './options.js';
import { didYouMean, orList, suggest } from './output.js';

/** `list`: the corpus entries (all, or under `--topic`), then without `--topic` each library's. */
export function runList(ctx: Context): number | Promise<number> {
  noArgs(ctx, 'list');
  return withLibraries(ctx, ({ corpus, libraries }) => {
    const entries = [...entriesForTopic(corpus, ctx.values.topic), ...(ctx.values.topic === undefined ? libraries.libraryEntries() : [])];
    if (ctx.values.json) ctx.out(terminalJson(entries.map(entryJson), 2));
    else for (const e of entries) ctx.out([e.key, e.year ?? '', e.venue ?? '', e.title].map((f) => terminalSafe(String(f))).join('\t'));
    return 0;
  });
}

/** `search "<query>"`: ranked hits of the catalog; exit 1 when none, 2 for a bad filter or limit. */
export function runSearch(ctx: Context): number | Promise<number> {
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
    const hits = libraries.search(query, limit);
    if (ctx.values.json) ctx.out(terminalJson(hits.map((h) => ({ ...entryJson(h.entry), score: Number(h.score.toFixed(3)) })), 2));
    else for (const h of hits) ctx.out(`${terminalSafe(h.entry.key)}\t${terminalSafe(h.entry.title)}\n\t${terminalSafe([shortAuthors(h.entry.authors), [h.entry.venue, h.entry.year].filter(Boolean).join(' '), h.entry.library?.name].filter(Boolean).join(' · '))}`);
    if (!hits.length) { ctx.err(`mlsys-papers: no entry matches "${query}"`); return 1; }
    return 0;
  });
}

/**
 * Checks a query's filters the way the search reads them (`parseQuery` in core/search/queryLanguage.ts): a year
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

/** `cite <key...>`: citation text for the keys (a library entry's BibTeX as written); exit 1 for an unknown key. */
export function runCite(ctx: Context): number | Promise<number> {
  if (!ctx.args.length) throw new UsageError('cite needs at least one key (see: mlsys-papers cite --help)');
  const format = (ctx.values.format ?? 'latex') as CiteFormat;
  if (!CITE_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${CITE_FORMATS.join(', ')}, not "${format}"`);
  return withLibraries(ctx, ({ corpus, libraries }) => {
    const lookup = (k: string) => libraries.entry(k);
    const missing = ctx.args.filter((k) => !lookup(k));
    if (missing.length) {
      const keys = libraries.keys();
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

/** `export`: BibTeX or CSL-JSON for every entry, a topic's, or those a document cites. */
export function runExport(ctx: Context): number | Promise<number> {
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
  if (citedIn === undefined || !lang) return exportEntries(ctx, format, undefined);
  const text = readText(citedIn, '--cited-in');
  const file = resolve(citedIn);
  const ws = new NodeBibWorkspace(dirname(file));
  // A Markdown document's cross-references are no keys (its project says which syntax it uses).
  if (lang !== 'latex') return documentCitedKeys(ws, undefined, URI.file(file), text, lang).then((keys) => exportEntries(ctx, format, keys));
  // A root cites what the files it includes cite (its .aux files say so). TeX resolves \input
  // from the root's folder, so that folder's project is read (not the working directory's, which
  // may be a home folder).
  return nodeLatexProject(ws, dirname(file))
    .then((project) => documentCitedKeys(ws, project, URI.file(file), text, lang))
    .then((keys) => exportEntries(ctx, format, keys));
}

/** The body of `export`: every entry (or a topic's), or those `keys` names, as BibTeX or CSL-JSON. */
function exportEntries(ctx: Context, format: 'bibtex' | 'csl-json', keys: readonly string[] | undefined): number | Promise<number> {
  return withLibraries(ctx, ({ corpus, libraries }) => {
    const lookup = (k: string) => libraries.entry(k);
    let entries: readonly Entry[] = entriesForTopic(corpus, ctx.values.topic);
    if (keys) {
      const unknown = [...new Set(keys.filter((k) => !lookup(k)))];
      if (unknown.length) {
        const all = libraries.keys();
        ctx.err(`mlsys-papers: not in the corpus${libraries.libraryCount ? ' or your libraries' : ''}, left out: ${unknown.map((k) => {
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

/**
 * Runs a command body with the corpus (`--corpus` or the bundled one) and the `--library` files
 * as one catalog (`core/library/catalog.ts`, the language server's too), loaded through the language
 * server's loader and cache (each broken library entry is a line on stderr): at once without
 * `--library`, after reading the files with it.
 */
function withLibraries(ctx: Context, body: (c: { corpus: Corpus; libraries: Catalog }) => number): number | Promise<number> {
  const corpus = loadCorpus(ctx.values);
  let index: SearchIndex | undefined;
  const side = { corpus, get index() { return index ??= createSearchIndex(corpus); } };
  const paths = ctx.values.library ?? [];
  if (!paths.length) return body({ corpus, libraries: new Catalog(side) });
  return loadLibraryFiles(paths, { warn: (m) => ctx.err(`mlsys-papers: ${m}`) }).then((r) => {
    for (const p of r.problems) ctx.err(p);
    const catalog = new Catalog(side, r.libraries.map((l) => ({ id: l.uri, name: l.path, lib: l.lib, text: l.text, named: true })));
    for (const d of catalog.duplicateKeys()) ctx.err(`mlsys-papers: note: ${d.library.name}:${d.entry.library?.line ?? 1}: duplicate key "${d.entry.key}": ${d.earlier.name} defines it too, and that one is used`);
    return body({ corpus, libraries: catalog });
  }, (e: unknown) => {
    if (e instanceof LibraryFileError) throw new UsageError(e.message);
    throw e;
  });
}
