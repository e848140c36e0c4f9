/**
 * `mlsys-papers sync FILE [--dry-run]`: adds to a document's bibliography every corpus entry it
 * cites that the bibliography lacks, with the citation service's planner
 * (`core/service/bibliographyPlan.ts`, the editor's: the same file resolution,
 * the same "same work under another key" rule, the same byte-preserving insertion), writing only
 * inside the directory tree the command runs in: real paths compared, so a symlinked folder or file
 * that leads out of it is refused unless `--allow-outside` says otherwise.
 */
import { relative, resolve } from 'node:path';
import { URI } from 'vscode-uri';
import { inWorkspaceReal } from '../../core/workspace/paths.js';
import { fileKind, isCiting } from '../../core/workspace/fileKind.js';
import { planBibSync } from '../../core/bibliography/planAdditions.js';
import { refusalText } from '../../core/bibliography/refusal.js';
import { applySplices } from '../../core/bibliography/fileEdit.js';
import { planInsertionInto } from '../../core/service/plans.js';
import { citedKeys } from '../../core/cite/citations.js';
import { definedKeys } from '../../core/bibliography/thebibliography.js';
import type { Corpus } from '../../core/corpus/readCorpus.js';
import type { Entry } from '../../core/corpus/schema.js';
import { planDocumentBibliography } from '../../core/service/bibliographyPlan.js';
import { documentCitedKeys, nodeLatexProject } from './nodeLatexProject.js';
import { NodeBibWorkspace, readTextForRewrite, writeText } from './nodeBibWorkspace.js';
import { fsReason } from './safeWrite.js';

/**
 * The VS Code language id a document's name stands for (`fileKind`: `latex`, `markdown` or
 * `quarto`), or undefined for a file that cites nothing.
 */
export function languageOfPath(path: string): string | undefined {
  const kind = fileKind(path);
  return isCiting(kind) ? kind : undefined;
}

/** What `sync` did or would do. */
export interface SyncResult {
  /** 0: done (or nothing to do); 2: refused, nothing written. */
  code: 0 | 2;
  /** Lines for stdout: what was (or, with `dryRun`, would be) added, and the text of a dry run. */
  out: string[];
  /** Lines for stderr: notes (keys left as they are) and the reason for a refusal. */
  err: string[];
}

/**
 * Syncs a document's bibliography with the corpus entries it cites.
 *
 * @param file - the `.tex`, `.md`, `.qmd` or `.rmd` file (absolute, or relative to `cwd`)
 * @param corpus - the entries that can be added
 * @param opts.cwd - the directory tree writes must stay in (the command's working directory)
 * @param opts.dryRun - print the plan, write nothing
 * @param opts.text - the document's text, when already read
 * @param opts.allowOutside - write even where the file's real path leaves `cwd` (`--allow-outside`)
 * @param opts.maxBytes - the largest file read, in bytes (default: `DEFAULT_MAX_FILE_MB`)
 * @returns code 2 with one line naming the bibliography file as the user would (relative to
 *   `cwd`) when it is not UTF-8, not a regular file, larger than the cap, or cannot be written (a
 *   full disk, a file size limit, no permission): the file is then byte for byte as it was
 */
export async function syncBibliography(
  file: string, corpus: Corpus, opts: { cwd: string; dryRun?: boolean; text: string; allowOutside?: boolean; maxBytes?: number },
): Promise<SyncResult> {
  const out: string[] = [];
  const err: string[] = [];
  const languageId = languageOfPath(file);
  if (!languageId) return { code: 2, out, err: [`${file}: sync takes a LaTeX (.tex) or Markdown (.md, .qmd, .rmd) file`] };
  const ws = new NodeBibWorkspace(resolve(opts.cwd), opts.maxBytes);
  const show = (u: URI) => relative(opts.cwd, u.fsPath) || u.fsPath;
  // A section file's root is found from the .tex files under the working directory, as the language
  // server finds it; a root cites what the files it includes cite (as its .aux files say).
  const project = languageId === 'latex' ? await nodeLatexProject(ws, resolve(opts.cwd)) : undefined;
  const keys = await documentCitedKeys(ws, project, URI.file(resolve(opts.cwd, file)), opts.text, languageId);
  const entries = [...new Set(keys.map((k) => corpus.entry(k)))].filter((e) => !!e);
  const { bib, sync: plan, update } = await planDocumentBibliography(ws, { uri: URI.file(resolve(opts.cwd, file)), languageId, text: opts.text }, entries, { project, allowOutside: opts.allowOutside });
  // A root outside the working directory is not read (`mayReadFor`): the document is its own root.
  if (bib?.missingRoot?.outside) err.push(`${file}: % !TEX root names ${bib.missingRoot.path}, which is outside the working directory; it was not read`);
  const defined = definedKeys(bib);
  const unknown = keys.filter((k) => !corpus.entry(k) && !defined(k));
  if (unknown.length) err.push(`not in the bibliography nor the corpus, left as they are: ${unknown.join(', ')}`);
  for (const r of plan.reused) err.push(`${show(URI.parse(r.path))} has "${r.entry.title}" as ${r.key}; ${r.entry.key} was not added (cite ${r.key})`);
  const verb = opts.dryRun ? 'would add' : 'added';
  /** Declared files that exist but were not read (a folder, a FIFO, too large), each named once. */
  const unread = (except?: string) => [...ws.problems].filter(([path]) => path !== except).map(([path, why]) => `${show(URI.file(path))}: ${why}`);
  /** The refusal of a write whose real path left the working directory since it was planned (a symlink swapped in). */
  const escaped = async (uri: URI) => !opts.allowOutside && !(await inWorkspaceReal(ws, uri))
    ? `${show(uri)}: is outside the working directory (a symlink now leads out of it); it was not changed; pass --allow-outside to write there`
    : undefined;
  /** Writes the file whole or not at all; why it could not be written, as one line naming it, or undefined once written. */
  const write = (uri: URI, text: string, create: boolean): string | undefined => {
    try {
      writeText(uri.fsPath, text, { create });
      return undefined;
    } catch (e) {
      const why = fsReason(e) ?? (e as NodeJS.ErrnoException).code;
      if (why === undefined) throw e;
      return `${show(uri)}: cannot be written (${why}); nothing was written`;
    }
  };
  switch (update.kind) {
    case 'none':
      out.push(`${file}: the bibliography has every corpus entry it cites`);
      return { code: 0, out, err: [...err, ...unread()] };
    case 'declare':
      // Undeclared files are for checks only (nothing is written to them); said when they have every entry.
      if (bib?.undeclared && !planBibSync(update.entries, bib.files).add.length) {
        out.push(`${file}: declares no bibliography; ${bib.files.map((f) => show(f.uri)).join(', ')} ${bib.undeclared === 'beside' ? 'beside it' : 'at the root of the working directory'}, which its keys were checked against, has every corpus entry it cites`);
        return { code: 0, out, err: [...err, ...unread()] };
      }
      return { code: 2, out, err: [...err, ...unread(), `${file} declares no bibliography (\\bibliography{…}, \\addbibresource{…} or bibliography: in the front matter); nothing was written`] };
    case 'refuse': {
      // A declared file that is no regular file (a link to /dev/zero leads outside too): that is why.
      const why = ws.problems.get(update.uri.fsPath);
      if (why) return { code: 2, out, err: [...err, ...unread(update.uri.fsPath), `${show(update.uri)}: ${why}; nothing was written`] };
      const message = update.reason === 'outside-workspace'
        ? `is outside the working directory; it was not changed; add ${update.entries.map((e) => e.key).join(', ')} by hand, or pass --allow-outside to write there`
        : refusalText(update);
      return { code: 2, out, err: [...err, ...unread(), `${show(update.uri)}${update.line ? `:${update.line}:${update.column}` : ''}: ${message}`] };
    }
    case 'create': {
      // Declared but not read: a folder, a FIFO or a device by that name is no file to create.
      const why = ws.problems.get(update.uri.fsPath) ?? (await ws.exists(update.uri) ? 'exists but is not a regular file' : undefined);
      if (why) return { code: 2, out, err: [...err, ...unread(update.uri.fsPath), `${show(update.uri)}: ${why}; nothing was written`] };
      err.push(...unread());
      const keysText = update.entries.map((e) => e.key).join(', ');
      if (!opts.dryRun) {
        const refused = await escaped(update.uri);
        if (refused) return { code: 2, out, err: [...err, refused] };
        const failed = write(update.uri, update.text, true);
        if (failed) return { code: 2, out, err: [...err, failed] };
      }
      out.push(`${show(update.uri)}: ${opts.dryRun ? 'would create' : 'created'} with ${keysText}`);
      if (opts.dryRun) out.push(update.text);
      return { code: 0, out, err };
    }
    case 'append': {
      err.push(...unread());
      const path = update.uri.fsPath;
      // Plan again on the file's exact bytes (the resolver's text may have lost invalid UTF-8).
      let raw: string;
      try {
        raw = await readTextForRewrite(path, ws.maxBytes);
      } catch (e) {
        return { code: 2, out, err: [...err, `${show(update.uri)}: ${e instanceof Error ? e.message : String(e)}`] };
      }
      // The service's one insertion planner, on the bytes this command writes.
      const planned = planInsertionInto(update.uri, update.entries, undefined, raw);
      const ins = planned.kind === 'insert' ? planned.disk : undefined;
      if (!ins) return { code: 2, out, err: [...err, `${show(update.uri)}: ${planned.kind === 'refuse' ? refusalText(planned) : 'cannot be added to'}`] };
      if (!opts.dryRun) {
        const refused = await escaped(update.uri);
        if (refused) return { code: 2, out, err: [...err, refused] };
        const failed = write(update.uri, applySplices(raw, [{ offset: ins.offset, length: 0, text: ins.text }]), false);
        if (failed) return { code: 2, out, err: [...err, failed] };
      }
      out.push(`${show(update.uri)}: ${verb} ${update.entries.map((e) => e.key).join(', ')}`);
      if (opts.dryRun) out.push(`at offset ${ins.offset}:`, ins.text);
      return { code: 0, out, err };
    }
  }
}
