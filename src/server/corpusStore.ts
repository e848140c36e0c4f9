/**
 * The corpus the language server answers from: the bundled compiled corpus plus the user's corpus
 * files (`mlsysPapers.corpusFiles`), validated here, off the editor's thread, with each problem as
 * a diagnostic on its file. The search index is built on first use after each change.
 */
import { Diagnostic, DiagnosticSeverity, Range } from 'vscode-languageserver-types';
import type { URI } from 'vscode-uri';
import { buildCorpus, crossCheck, entrySources, mergeCorpusData, type Corpus, type CorpusData, type EntrySource } from '../core/corpus.js';
import type { Problem } from '../core/diagnostics.js';
import type { Logger } from '../core/log.js';
import { createSearchIndex, type SearchIndex } from '../core/search.js';
import type { CorpusView } from '../core/service/types.js';

/** Reads a corpus file: its text, or why it cannot be read (`is not UTF-8 text`). */
export type CorpusFileReader = (uri: URI) => Promise<{ text: string } | { problem: string }>;

const BUNDLED = '(bundled corpus)';

/** The bundled corpus and the user's files, merged; see the module comment. */
export class CorpusStore {
  private bundled: CorpusData = { topics: [], entries: [] };
  private merged: CorpusData = this.bundled;
  private corpusValue: Corpus = buildCorpus(this.bundled);
  private indexValue: SearchIndex | undefined;
  private userFiles = new Set<string>();
  private lastTexts = new Map<string, string>();
  /** Diagnostics per corpus file URI; a file whose problems went away maps to []. */
  readonly fileDiagnostics = new Map<string, Diagnostic[]>();
  /** Increases whenever the corpus changes. */
  version = 0;

  constructor(private readonly log: Logger, private readonly read: CorpusFileReader) {}

  /** Sets the bundled corpus. */
  async init(bundled: CorpusData): Promise<void> {
    this.bundled = bundled;
    this.set(bundled);
  }

  /** The corpus and its index (built now if it was not). */
  get view(): CorpusView {
    const corpus = this.corpusValue;
    const self = this;
    return {
      corpus,
      get index() {
        return (self.indexValue ??= createSearchIndex(corpus));
      },
    };
  }

  /** The corpus as data, for clients that show it. */
  get data(): CorpusData {
    return this.merged;
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
    const texts = new Map<string, string>();
    const problems: Problem[] = [];
    const sources: EntrySource[] = [];
    for (const uri of uris) {
      const id = uri.toString();
      const r = await this.read(uri);
      if ('text' in r) texts.set(id, r.text);
      else {
        texts.set(id, `\u0000${r.problem}`);
        problems.push({ file: id, line: 1, column: 1, field: '', message: `cannot read: ${r.problem}`, severity: 'error' });
      }
    }
    // Unchanged files, same list: nothing to do (settings events fire for every write of settings.json).
    const same = texts.size === this.lastTexts.size && [...texts].every(([k, v]) => this.lastTexts.get(k) === v);
    if (same && uris.length === this.userFiles.size) return false;
    for (const [id, text] of texts) {
      if (text.startsWith('\u0000')) continue;
      const res = entrySources(text, id);
      problems.push(...res.problems);
      sources.push(...res.sources);
    }
    problems.push(...crossCheck(this.bundled.topics, [
      ...this.bundled.entries.map((entry) => ({ entry, file: BUNDLED, line: 1 })),
      ...sources,
    ]).filter((p) => p.file !== BUNDLED));
    for (const uri of this.fileDiagnostics.keys()) this.fileDiagnostics.set(uri, []);
    for (const p of problems) {
      const list = this.fileDiagnostics.get(p.file) ?? [];
      // To the end of the problem's line.
      const line = (texts.get(p.file) ?? '').split(/\r\n|\r|\n/, p.line)[p.line - 1] ?? '';
      const end = Math.max(p.column - 1, line.length);
      list.push(Diagnostic.create(Range.create(p.line - 1, p.column - 1, p.line - 1, end),
        p.field ? `${p.field}: ${p.message}` : p.message,
        p.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning, undefined, 'MLSys Papers'));
      this.fileDiagnostics.set(p.file, list);
    }
    this.userFiles = new Set(uris.map((u) => u.toString()));
    this.lastTexts = texts;
    this.set(mergeCorpusData(this.bundled, sources.map((s) => s.entry)));
    this.log.info(`corpus: ${this.merged.entries.length} entries (${sources.length} from ${uris.length} file(s) of yours, ${problems.length} problem(s)) in ${Date.now() - started} ms`);
    return true;
  }

  private set(data: CorpusData): void {
    this.merged = data;
    this.corpusValue = buildCorpus(data);
    this.indexValue = undefined;
    this.version++;
  }
}
