/**
 * `mlsys-papers`: the corpus, search and citations from a terminal, over the same core as the extension.
 * Run `mlsys-papers help` for usage, `mlsys-papers <command> --help` for a command's options.
 *
 * Every failure the user can cause (a bad option, a missing file or folder, an unwritable output)
 * is one line on stderr and exit 2; nothing prints a stack trace.
 *
 * This is the entry (`scripts/build.mjs` bundles it to `dist/cli.js`); the commands live in
 * `cli/`: `main.ts` (the command table, help and dispatch), `options.ts`, `output.ts`, `cliFiles.ts`,
 * `corpusCommands.ts` (build-corpus, lint), `libraryCommands.ts` (list, search, cite, export), `documentCommands.ts` (sync, check, lsp).
 */
import { terminalSafe } from './core/text/terminal.js';
import { main } from './cli/main.js';
import { fileTextFor, firstLine } from './cli/output.js';

export { main, USAGE } from './cli/main.js';
export { fileTextFor, suggest } from './cli/output.js';

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
    const code = main(process.argv.slice(2), (s) => process.stdout.write(`${s}\n`), (s) => process.stderr.write(`${s}\n`), (s) => process.stdout.write(fileTextFor(s, !!process.stdout.isTTY)));
    if (typeof code === 'number') process.exitCode = code;
    else code.then((c) => { process.exitCode = c; }, internal);
  } catch (e) {
    internal(e);
  }
}
