/**
 * The corpus the language server answers from: the bundled compiled corpus plus the user's corpus
 * files (`mlsysPapers.corpusFiles`), validated here, off the editor's thread, with each problem as
 * a diagnostic on its file. The search index is built on first use after each change.
 */
import { Diagnostic, DiagnosticSeverity, Range } from 'vscode-languageserver-types';
import type { URI } from 'vscode-uri';
import { buildCorpus, crossCheck, entryLocations, mergeCorpusData, type Corpus, type CorpusData, type EntryLocation } from '../core/corpus/readCorpus.js';
import type { Problem } from '../core/text/problems.js';
import type { Logger } from '../core/config/logger.js';
import { createSearchIndex, type SearchIndex } from '../core/search/corpus/corpusIndex.js';
import { CorpusBrowser } from '../core/corpus/browse.js';
import type { CatalogCorpus } from '../core/library/catalog.js';
import { DIAGNOSTIC_SOURCE, textHash } from '../core/service/types.js';

/** Reads a corpus file: its text, or why it cannot be read (`is not UTF-8 text`). */
export type CorpusFileReader = (uri: URI) => Promise<{ text: string } | { problem: string }>;

const BUNDLED = '(bundled corpus)';

/** The bundled corpus and the user's files, merged; see the module comment. */
export class CorpusStore {
  private bundled: CorpusData = { topics: [], entries: [] };
  private merged: CorpusData = this.bundled;
  /** The corpus, with its index and browser once made (kept together, so a reload never pairs one with the other's). */
  private current: { corpus: Corpus; index?: SearchIndex; browser?: CorpusBrowser } = { corpus: buildCorpus(this.bundled) };
  /** The user's files as last read: URI → hash of the text, or the reason it could not be read. */
  private userFiles = new Map<string, string>();
  /** Diagnostics per corpus file URI; a file whose problems went away maps to []. */
  readonly fileDiagnostics = new Map<string, Diagnostic[]>();
  /** Increases whenever the corpus changes. */
  version = 0;

  constructor(private readonly log: Logger, private readonly read: CorpusFileReader) {}

  /** Sets the bundled corpus. */
  async init(bundled: CorpusData): Promise<void> {
    this.bundled = bundled;
    this.set(bundled);
    this.log.info(`corpus: ${bundled.entries.length} entries bundled`);
  }

  /** The corpus and its index (built now if it was not). */
  get view(): CatalogCorpus {
    const c = this.current;
    const log = this.log;
    return {
      corpus: c.corpus,
      get index() {
        if (!c.index) {
          const started = Date.now();
          c.index = createSearchIndex(c.corpus);
          log.info(`search index: ${c.corpus.entries.length} entries in ${Date.now() - started} ms`);
        }
        return c.index;
      },
    };
  }

  /** The corpus as data (its taxonomy is what clients get). */
  get data(): CorpusData {
    return this.merged;
  }

  /** What the Topics view lists of the corpus as it is now (made on first use after each change). */
  get browser(): CorpusBrowser {
    return (this.current.browser ??= new CorpusBrowser(this.current.corpus));
  }

  /** Whether a URI is one of the user's corpus files. */
  isUserFile(uri: string): boolean {
    return this.userFiles.has(uri);
  }

  /**
   * Reads and validates the user's corpus files and merges them with the bundled corpus.
   *
   * @param uris - the files (globs already resolved)
   * @returns whether the corpus changed
   */
  async loadUserFiles(uris: readonly URI[]): Promise<boolean> {
    const started = Date.now();
    const read = new Map<string, { text: string } | { problem: string }>();
    for (const uri of uris) read.set(uri.toString(), await this.read(uri));
    const seen = new Map([...read].map(([id, r]) => [id, 'text' in r ? `#${textHash(r.text)}` : `!${r.problem}`]));
    // Unchanged files, same list: nothing to do (settings events fire for every write of settings.json).
    if (seen.size === this.userFiles.size && [...seen].every(([id, h]) => this.userFiles.get(id) === h)) return false;
    const problems: Problem[] = [];
    const locations: EntryLocation[] = [];
    for (const [id, r] of read) {
      if (!('text' in r)) {
        problems.push({ file: id, line: 1, column: 1, field: '', message: `cannot read: ${r.problem}`, severity: 'error' });
        continue;
      }
      const res = entryLocations(r.text, id);
      problems.push(...res.problems);
      locations.push(...res.locations);
    }
    problems.push(...crossCheck(this.bundled.topics, [
      ...this.bundled.entries.map((entry) => ({ entry, file: BUNDLED, line: 1 })),
      ...locations,
    ]).filter((p) => p.file !== BUNDLED));
    for (const uri of this.fileDiagnostics.keys()) this.fileDiagnostics.set(uri, []);
    // Each problem's range runs to the end of its line; lines are measured once per file.
    const lengths = new Map<string, number[]>();
    const lineLengths = (id: string): number[] => {
      let l = lengths.get(id);
      if (!l) {
        const r = read.get(id);
        lengths.set(id, l = r && 'text' in r ? r.text.split(/\r\n|\r|\n/).map((line) => line.length) : []);
      }
      return l;
    };
    for (const p of problems) {
      const list = this.fileDiagnostics.get(p.file) ?? [];
      // To the end of the problem's line.
      const end = Math.max(p.column - 1, lineLengths(p.file)[p.line - 1] ?? 0);
      list.push(Diagnostic.create(Range.create(p.line - 1, p.column - 1, p.line - 1, end),
        p.field ? `${p.field}: ${p.message}` : p.message,
        p.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning, undefined, DIAGNOSTIC_SOURCE));
      this.fileDiagnostics.set(p.file, list);
    }
    this.userFiles = seen;
    this.set(mergeCorpusData(this.bundled, locations.map((s) => s.entry)));
    this.log.info(`corpus: ${this.merged.entries.length} entries (${locations.length} from ${uris.length} file(s) of yours, ${problems.length} problem(s)) in ${Date.now() - started} ms`);
    return true;
  }

  private set(data: CorpusData): void {
    this.merged = data;
    this.current = { corpus: buildCorpus(data) };
    this.version++;
  }
}
