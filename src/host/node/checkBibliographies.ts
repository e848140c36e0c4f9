/**
 * `mlsys-papers check FILE… [--json] [--fix] [--write] [--allow-outside]`: the record checks
 * (`core/checks/`) over bibliography files on disk, for a terminal and CI. What the editor shows as
 * diagnostics, this prints as lines or JSON; the fixes are the editor's, planned by
 * `core/bibliography/planRewrite.ts` on the file's exact bytes, and written only inside the
 * directory the command runs in (real paths compared, as `sync`), unless `--allow-outside`.
 */
import { resolve } from 'node:path';
import { URI } from 'vscode-uri';
import { bibFormatOf } from '../../core/workspace/bibFormat.js';
import { readBibFile, type BibFile } from '../../core/bibliography/bibFile.js';
import { planEntryRewrites } from '../../core/bibliography/planRewrite.js';
import { applySplices } from '../../core/bibliography/fileEdit.js';
import { inWorkspaceReal } from '../../core/workspace/paths.js';
import { checkBibFile, fixOf, type RecordFinding } from '../../core/checks/checkRecords.js';
import { findingMessage } from '../../core/checks/findingText.js';
import { RecordMatcher } from '../../core/checks/matchRecord.js';
import type { Entry } from '../../core/corpus/schema.js';
import { decodeForReading, decodeUtf8 } from '../../core/text/utf8.js';
import { NodeBibWorkspace, writeText } from './nodeBibWorkspace.js';
import { readProblem, readRegularFile } from './regularFiles.js';
import { fsReason } from './safeWrite.js';
import { problemMessage } from '../../core/text/problemText.js';

/** One finding as `--json` prints it: one object per preprint, and one per field that disagrees. */
export interface CheckJson {
  file: string;
  line: number;
  key: string;
  kind: 'version-of-record' | 'mismatch';
  corpusKey: string;
  /** Where the record's facts come from (`dblp:…`, `usenix:…`, `doi:…`, or a URL). */
  source: string;
  message: string;
  field?: string;
  found?: string;
  expected?: string;
}

/** What `check` did. */
export interface CheckResult {
  /** 0: nothing found (or, with `fix`, every finding fixed); 1: findings (left); 2: a file could not be read or written. */
  code: 0 | 1 | 2;
  /** stdout: finding lines, or the JSON. */
  out: string[];
  /** With `fix` and no `write`: the fixed file's text, to print exactly as it is. */
  fixed?: string;
  /** stderr: one line per problem, and with `fix`, what was fixed. */
  err: string[];
}

/** The JSON objects of a finding. */
function jsonOf(file: string, f: RecordFinding): CheckJson[] {
  const at = { file, line: f.entry.line ?? 0, key: f.key };
  const about = { corpusKey: f.record.key, source: f.source, message: findingMessage(f) };
  if (f.kind === 'version-of-record') return [{ ...at, kind: 'version-of-record', ...about }];
  return f.fields.map((m) => ({ ...at, kind: 'mismatch' as const, ...about, field: m.field, found: m.found, expected: m.expected }));
}

/**
 * Checks bibliography files against the corpus, and fixes them when asked.
 *
 * @param files - paths as the user gave them (relative to `opts.cwd`, or absolute)
 * @param entries - the corpus entries to check against
 * @param opts.fix - plan every fix; without `write`, print the fixed file (one file only)
 * @param opts.write - with `fix`: rewrite each file in place
 * @param opts.allowOutside - write even where a file's real path leaves `opts.cwd`
 */
export async function checkBibliographies(files: readonly string[], entries: readonly Entry[], opts: { cwd: string; json?: boolean; fix?: boolean; write?: boolean; allowOutside?: boolean; maxBytes: number }): Promise<CheckResult> {
  const out: string[] = [];
  const err: string[] = [];
  const json: CheckJson[] = [];
  const matcher = RecordMatcher.of(entries);
  const ws = new NodeBibWorkspace(resolve(opts.cwd), opts.maxBytes);
  let found = 0;
  let left = 0;
  let failed = false;
  let printed: string | undefined;
  for (const file of files) {
    const path = resolve(opts.cwd, file);
    if (!bibFormatOf(path)) { err.push(`${file}: not a bibliography (.bib, .json or .yaml)`); failed = true; continue; }
    const r = await readRegularFile(path, opts.maxBytes);
    if (r.kind !== 'file') { err.push(`${file}: cannot read: ${readProblem(r, opts.maxBytes)}`); failed = true; continue; }
    // Checking reads an 8-bit file as Windows-1252, as BibTeX reads bytes; fixing needs UTF-8.
    const utf8 = decodeUtf8(r.bytes);
    const text = utf8 ?? decodeForReading(r.bytes).text;
    const source = readBibFile(path, text)!;
    for (const p of source.problems ?? []) if (p.severity === 'error') err.push(`${file}:${p.line}:${p.column}: ${problemMessage(p)}`);
    const findings = checkBibFile(source, matcher);
    found += findings.length;
    if (!opts.fix) {
      for (const f of findings) {
        if (opts.json) json.push(...jsonOf(file, f));
        else out.push(`${file}:${f.entry.line ?? 0}: ${f.key}: ${findingMessage(f)}`);
      }
      continue;
    }
    const fixed = fixFile(source, findings);
    if (utf8 === undefined && findings.length) { err.push(`${file}: is not UTF-8 text; rewriting it would change its other characters; nothing was written`); failed = true; left += findings.length; continue; }
    if (!fixed) { err.push(`${file}: the fixes could not be planned without changing other entries; nothing was written`); left += findings.length; continue; }
    for (const f of findings) err.push(`${file}:${f.entry.line ?? 0}: ${f.key}: ${opts.write ? 'fixed' : 'fix'}: ${findingMessage(f)}`);
    if (!opts.write) { printed = fixed.text; continue; }
    if (!findings.length) continue;
    const uri = URI.file(path);
    if (!opts.allowOutside && !(await inWorkspaceReal(ws, uri))) {
      err.push(`${file}: is outside the working directory; it was not changed; pass --allow-outside to write there`);
      failed = true;
      left += findings.length;
      continue;
    }
    // The bytes must still be the ones planned on.
    const now = await readRegularFile(path, opts.maxBytes);
    if (now.kind !== 'file' || decodeUtf8(now.bytes) !== text) { err.push(`${file}: changed while it was checked; nothing was written`); failed = true; left += findings.length; continue; }
    // Whole or not at all (safeWrite.ts); a refusal or a full disk is one line naming the file.
    try {
      writeText(path, fixed.text);
    } catch (e) {
      const why = fsReason(e) ?? (e as NodeJS.ErrnoException).code;
      if (why === undefined) throw e;
      err.push(`${file}: cannot be written (${why}); nothing was written`);
      failed = true;
      left += findings.length;
    }
  }
  if (opts.json && !opts.fix) out.push(JSON.stringify(json, null, 2));
  return { code: failed ? 2 : opts.fix ? (left ? 1 : 0) : found ? 1 : 0, out, err, ...(printed !== undefined ? { fixed: printed } : {}) };
}

/** The file's text with every finding fixed (one plan for all), or undefined when it cannot be planned. */
function fixFile(source: BibFile, findings: readonly RecordFinding[]): { text: string } | undefined {
  if (!findings.length) return { text: source.text };
  const plan = planEntryRewrites(source, findings.map((f) => ({ entry: f.entry, change: fixOf(f) })));
  return 'splices' in plan ? { text: applySplices(source.text, plan.splices) } : undefined;
}
