/**
 * `mlsys-papers sync` (the bibliography of a document, through `host/node/addCitedEntries.ts`),
 * `mlsys-papers check` (bibliographies against the corpus's records, `host/node/checkBibliographies.ts`)
 * and `mlsys-papers lsp --stdio` (the language server for other editors).
 */
import { DEFAULT_MAX_FILE_MB, maxFileBytes } from '../core/config/fileLimits.js';
import { checkBibliographies } from '../host/node/checkBibliographies.js';
import { runNodeServer } from '../host/node/nodeServerHost.js';
import { syncBibliography } from '../host/node/addCitedEntries.js';
import { loadCorpus, readText } from './cliFiles.js';
import { noArgs, UsageError, type Context } from './options.js';
import { firstLine } from './output.js';

/** `lsp --stdio`: runs the language server until the client sends `exit`. */
export function runLsp(ctx: Context): Promise<number> {
  noArgs(ctx, 'lsp');
  if (!ctx.values.stdio) throw new UsageError('lsp needs --stdio (see: mlsys-papers lsp --help)');
  runNodeServer();
  // Runs until the client sends `exit` (the connection ends the process).
  return new Promise(() => {});
}

/** `sync <file>`: the document's bibliography gains the corpus entries it cites (`host/node/addCitedEntries.ts`); notes and refusals on stderr. */
export async function runSync(ctx: Context): Promise<number> {
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

/** `check <file…>`: findings as lines or JSON, or the fixed files (`host/node/checkBibliographies.ts`). */
export async function runCheck(ctx: Context): Promise<number> {
  const { json, fix, write } = ctx.values;
  if (!ctx.args.length) throw new UsageError('check takes one or more .bib, .json or .yaml files (see: mlsys-papers check --help)');
  if (write && !fix) throw new UsageError('--write goes with --fix (see: mlsys-papers check --help)');
  if (ctx.values['allow-outside'] && !write) throw new UsageError('--allow-outside goes with --fix --write (see: mlsys-papers check --help)');
  if (json && fix) throw new UsageError('--json does not go with --fix (see: mlsys-papers check --help)');
  if (fix && !write && ctx.args.length > 1) throw new UsageError('--fix prints one fixed file; give one file, or add --write (see: mlsys-papers check --help)');
  const corpus = loadCorpus(ctx.values);
  let res;
  try {
    res = await checkBibliographies(ctx.args, corpus.entries, { cwd: process.cwd(), json, fix, write, allowOutside: ctx.values['allow-outside'], maxBytes: maxFileBytes(DEFAULT_MAX_FILE_MB) });
  } catch (e) {
    throw new UsageError(firstLine(e));
  }
  for (const line of res.err) ctx.err(`mlsys-papers: ${line}`);
  for (const line of res.out) ctx.out(line);
  if (res.fixed !== undefined) ctx.write(res.fixed);
  return res.code;
}
