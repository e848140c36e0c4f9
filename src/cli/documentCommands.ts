/**
 * `mlsys-papers sync` (the bibliography of a document, through `host/node/addCitedEntries.ts`) and
 * `mlsys-papers lsp --stdio` (the language server for other editors).
 */
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
