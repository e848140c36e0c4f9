/**
 * Which entries the user has read, kept in the extension's global state so it survives restarts
 * and follows the user across workspaces.
 */
import * as vscode from 'vscode';
import { Disposable } from './dispose.js';

const STATE_KEY = 'mlsysPapers.readKeys';

/** The set of read citation keys (lower case), persisted in `Memento` global state. */
export class ReadState extends Disposable {
  private readonly keys: Set<string>;
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.emitter.event;

  constructor(private readonly memento: vscode.Memento) {
    super();
    this.keys = new Set(memento.get<string[]>(STATE_KEY, []).map((k) => k.toLowerCase()));
  }

  /** Every read key (lower case), sorted. */
  all(): string[] {
    return [...this.keys].sort();
  }

  isRead(key: string): boolean {
    return this.keys.has(key.toLowerCase());
  }

  /** Marks keys read or unread and persists the change. */
  async set(keys: readonly string[], read: boolean): Promise<void> {
    for (const k of keys) {
      if (read) this.keys.add(k.toLowerCase());
      else this.keys.delete(k.toLowerCase());
    }
    await this.memento.update(STATE_KEY, [...this.keys].sort());
    this.emitter.fire();
  }
}
