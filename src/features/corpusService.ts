/**
 * The corpus the features see: the bundled compiled corpus plus the user's corpus files
 * (setting `mlsysPapers.corpusFiles`), with problems in user files shown as diagnostics.
 */
import * as vscode from 'vscode';
import { buildCorpus, crossCheck, entrySources, mergeCorpusData, type Corpus, type CorpusData, type EntrySource } from '../core/corpus.js';
import type { Problem } from '../core/diagnostics.js';
import type { Entry } from '../core/schema.js';
import { createSearchIndex, type SearchIndex } from '../core/search.js';
import type { Logger } from '../core/log.js';
import { fromWorkspaceSettings, inWorkspaceFolders, type ConfigStore } from './config.js';
import { readFileSync } from 'node:fs';
import { Settings } from '../ids.js';

/** Owns the current corpus and its search index; fires when either changes. */
export class CorpusService implements vscode.Disposable {
  private readonly bundled: CorpusData;
  private corpusValue: Corpus;
  private indexValue: SearchIndex | undefined;
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('mlsys-papers-corpus');
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  private watcher: vscode.FileSystemWatcher | undefined;
  readonly onDidChange = this.emitter.event;

  /**
   * @param corpusJson - path of the compiled bundled corpus (`dist/corpus.json`)
   */
  constructor(corpusJson: string, private readonly config: ConfigStore, private readonly log: Logger) {
    this.bundled = JSON.parse(readFileSync(corpusJson, 'utf8')) as CorpusData;
    this.corpusValue = buildCorpus(this.bundled);
    this.disposables.push(
      this.diagnostics,
      this.emitter,
      config.onDidChange(() => this.reloadSoon()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.reloadSoon()),
    );
    if (config.value.corpusFiles.length) this.reloadSoon();
  }

  get corpus(): Corpus {
    return this.corpusValue;
  }

  /** The search index, built on first use (not during activation). */
  get index(): SearchIndex {
    return (this.indexValue ??= createSearchIndex(this.corpusValue));
  }

  /** {@link reload}, from an event: a failure is logged and shown, never left as an unhandled rejection. */
  private reloadSoon(): void {
    this.reload().catch((e: unknown) => {
      this.log.error(e instanceof Error ? e : String(e));
      void vscode.window.showErrorMessage(`MLSys Papers: your corpus files could not be loaded (${e instanceof Error ? e.message : String(e)}); see the MLSys Papers log.`);
    });
  }

  /** Re-reads the user's corpus files and rebuilds the model. */
  async reload(): Promise<void> {
    const patterns = this.config.value.corpusFiles;
    this.watcher?.dispose();
    this.watcher = undefined;
    const uris = await this.resolveFiles(patterns);
    if (patterns.length) {
      this.watcher = vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml}');
      const onFile = (u: vscode.Uri) => { if (uris.some((x) => x.fsPath === u.fsPath)) this.reloadSoon(); };
      // A new file matters only when a glob may now match it, or it is a named file that was missing.
      const globs = patterns.some((p) => /[*?{[]/.test(p));
      this.watcher.onDidChange(onFile);
      this.watcher.onDidCreate((u) => (globs ? this.reloadSoon() : onFile(u)));
      this.watcher.onDidDelete(onFile);
    }
    const user = await this.readUserFiles(uris);
    const clash = crossCheck(this.bundled.topics, [
      ...this.bundled.entries.map((entry) => ({ entry, file: '(bundled corpus)', line: 1 })),
      ...user.sources,
    ]).filter((p) => p.file !== '(bundled corpus)');
    this.publish([...user.problems, ...clash], uris);
    this.corpusValue = buildCorpus(mergeCorpusData(this.bundled, user.entries));
    this.indexValue = undefined;
    this.emitter.fire();
  }

  /** Reads and validates the user's corpus files through VS Code's file system; a file that cannot be read is one problem. */
  private async readUserFiles(uris: readonly vscode.Uri[]): Promise<{ entries: Entry[]; sources: EntrySource[]; problems: Problem[] }> {
    const problems: Problem[] = [];
    const sources: EntrySource[] = [];
    for (const uri of uris) {
      const file = vscode.workspace.asRelativePath(uri, false);
      let text: string;
      try {
        text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
      } catch (e) {
        this.log.warn(`cannot read corpus file ${uri.toString(true)}: ${String(e)}`);
        problems.push({ file, line: 1, column: 1, field: '', message: `cannot read: ${e instanceof Error ? e.message : String(e)}`, severity: 'error' });
        continue;
      }
      const res = entrySources(text, file);
      problems.push(...res.problems);
      sources.push(...res.sources);
    }
    return { entries: sources.map((s) => s.entry), sources, problems };
  }

  private async resolveFiles(patterns: readonly string[]): Promise<vscode.Uri[]> {
    const out = new Map<string, vscode.Uri>();
    for (const p of patterns) {
      if (p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p)) { out.set(p, vscode.Uri.file(p)); continue; }
      if (/[*?{[]/.test(p)) {
        for (const u of await vscode.workspace.findFiles(p)) out.set(u.fsPath, u);
        continue;
      }
      for (const f of vscode.workspace.workspaceFolders ?? []) {
        const u = vscode.Uri.joinPath(f.uri, p);
        out.set(u.fsPath, u);
      }
    }
    const all = [...out.values()];
    if (!fromWorkspaceSettings(Settings.corpusFiles)) return all;
    const outside = all.filter((u) => !inWorkspaceFolders(u));
    for (const u of outside) {
      this.log.warn(`${Settings.section}.${Settings.corpusFiles} in the workspace settings names ${u.fsPath}, outside the workspace folders; not read`);
    }
    if (outside.length) {
      void vscode.window.showWarningMessage(`MLSys Papers: the workspace settings name corpus files outside the workspace (${outside.map((u) => u.fsPath).join(', ')}); they were not read. Name them in your user settings to use them.`);
    }
    return all.filter((u) => inWorkspaceFolders(u));
  }

  private publish(problems: readonly Problem[], uris: readonly vscode.Uri[]): void {
    this.diagnostics.clear();
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const p of problems) {
      const d = new vscode.Diagnostic(
        new vscode.Range(p.line - 1, p.column - 1, p.line - 1, Number.MAX_SAFE_INTEGER),
        p.field ? `${p.field}: ${p.message}` : p.message,
        p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
      );
      d.source = 'MLSys Papers';
      (byFile.get(p.file) ?? byFile.set(p.file, []).get(p.file)!).push(d);
    }
    for (const [file, diags] of byFile) {
      const uri = uris.find((u) => vscode.workspace.asRelativePath(u, false) === file) ?? vscode.Uri.file(file);
      this.diagnostics.set(uri, diags);
    }
  }

  dispose(): void {
    this.watcher?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
