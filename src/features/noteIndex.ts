/**
 * Which entries have a literature note (the Topics view marks them), from the notes folders' files
 * and a watcher on them; and a note whose front matter says `read: true` marks its entry read (its
 * key from the front matter's `citekey:`, else from the file's name). Opening and creating a note
 * is `literatureNotes.ts`'s.
 */
import * as vscode from 'vscode';
import { URI } from 'vscode-uri';
import { keyOfNoteName, noteFileName, noteFrontMatter, notesFolderOf, NOTE_EXTENSION } from '../core/notes/literatureNote.js';
import { decodeUtf8 } from '../core/text/utf8.js';
import type { ConfigStore } from './config.js';
import { Disposable } from './dispose.js';
import type { ReadState } from './readState.js';
import type { Logger } from '../core/config/logger.js';

/** The largest note read for its front matter (bytes). */
const NOTE_READ_LIMIT = 1024 * 1024;
/** At most this many notes are read at start for their `read:` (the rest as they change). */
const NOTES_READ_AT_START = 2000;

/** Which entries have a literature note, and the read state notes set. */
export class NoteIndex extends Disposable {
  /** Note file names per notes folder (by the folder's URI). */
  private readonly names = new Map<string, Set<string>>();
  private watching: vscode.Disposable[] = [];
  /** The latest listing: an older one still running stops. */
  private generation = 0;
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  /** Fires when a note comes or goes. */
  readonly onDidChange = this.emitter.event;
  /** Settles after the first listing of the notes folders. */
  ready: Promise<void>;

  constructor(private readonly config: ConfigStore, private readonly read: ReadState, private readonly log: Logger) {
    super();
    this._register({ dispose: () => this.unwatch() });
    this.ready = this.rescan();
    // Any mlsysPapers.* change fires (the Topics view's own filters write settings): listed again only when the folders differ.
    this._register(config.onDidChange(() => { if (this.folders().map(folderKey).join('\n') !== [...this.names.keys()].join('\n')) this.ready = this.rescan(); }));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => { this.ready = this.rescan(); }));
    this._register(vscode.workspace.onDidSaveTextDocument((d) => { if (this.folderOf(d.uri)) void this.readNote(d.uri, d.getText()); }));
  }

  /** Whether the entry with this key has a note in a notes folder. */
  has(key: string): boolean {
    const name = noteFileName(key);
    for (const set of this.names.values()) if (set.has(name)) return true;
    return false;
  }

  /** Records a note just created (the watcher will say so too, later). */
  added(uri: vscode.Uri): void {
    const folder = this.folderOf(uri);
    if (folder && !folder.has(baseName(uri))) { folder.add(baseName(uri)); this.emitter.fire(); }
  }

  /** The notes folders: `mlsysPapers.notesFolder` of each workspace folder, where it lies inside it (`notesFolderOf`, the server's rule). */
  private folders(): vscode.Uri[] {
    const out: vscode.Uri[] = [];
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      const dir = notesFolderOf(URI.parse(f.uri.toString()), this.config.for(f.uri).notesFolder);
      if (dir) out.push(vscode.Uri.parse(dir.toString()));
    }
    return out;
  }

  /** The names of the notes folder that holds `uri` directly. */
  private folderOf(uri: vscode.Uri): Set<string> | undefined {
    if (!uri.path.endsWith(NOTE_EXTENSION)) return undefined;
    return this.names.get(folderKey(vscode.Uri.joinPath(uri, '..')));
  }

  private unwatch(): void {
    for (const w of this.watching) w.dispose();
    this.watching = [];
  }

  /** Lists every notes folder, watches them, and reads their notes' `read:`. */
  private async rescan(): Promise<void> {
    const mine = ++this.generation;
    this.unwatch();
    this.names.clear();
    const found: vscode.Uri[] = [];
    for (const dir of this.folders()) {
      const set = new Set<string>();
      this.names.set(folderKey(dir), set);
      const pattern = new vscode.RelativePattern(dir, `*${NOTE_EXTENSION}`);
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      this.watching.push(
        watcher,
        watcher.onDidCreate((u) => { set.add(baseName(u)); this.emitter.fire(); void this.readNote(u); }),
        watcher.onDidChange((u) => void this.readNote(u)),
        watcher.onDidDelete((u) => { if (set.delete(baseName(u))) this.emitter.fire(); }),
      );
      try {
        for (const u of await vscode.workspace.findFiles(pattern, null, 100_000)) { set.add(baseName(u)); found.push(u); }
      } catch (e) {
        this.log.warn(`notes in ${dir.toString(true)}: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (mine !== this.generation) return;
    }
    this.emitter.fire();
    for (const u of found.slice(0, NOTES_READ_AT_START)) {
      if (mine !== this.generation) return;
      await this.readNote(u);
    }
  }

  /** Marks a note's entry read when its front matter says `read: true`. */
  private async readNote(uri: vscode.Uri, text?: string): Promise<void> {
    let body = text;
    if (body === undefined) {
      try {
        // A regular file within the cap: a note that links to a device or a FIFO would never end or never answer.
        const st = await vscode.workspace.fs.stat(uri);
        if (!(st.type & vscode.FileType.File) || st.size > NOTE_READ_LIMIT) return;
        body = decodeUtf8(await vscode.workspace.fs.readFile(uri));
      } catch (e) {
        this.log.warn(`note ${uri.toString(true)}: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
    }
    if (body === undefined) return;
    const fm = noteFrontMatter(body);
    const key = fm.citekey ?? keyOfNoteName(baseName(uri));
    if (key && fm.read === true && !this.read.isRead(key)) await this.read.set([key], true);
  }
}

/** A folder's URI as a key: `..` and `.` resolved, no trailing separator. */
function folderKey(uri: vscode.Uri): string {
  const n = vscode.Uri.joinPath(uri, '.');
  return n.with({ path: n.path.replace(/\/+$/, '') || '/' }).toString();
}

/** A URI's last path segment. */
function baseName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}
