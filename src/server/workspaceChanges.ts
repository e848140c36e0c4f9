/**
 * The one owner of the workspace's change events (issue 27, move 4): `server.ts` feeds it the
 * client's document and file notifications (`textDocument/didOpen`, `didChange`, `didClose`,
 * `workspace/didChangeWatchedFiles`, `didChangeWorkspaceFolders`, `didChangeConfiguration`), and
 * it turns each into one typed {@link WorkspaceChange}: which files (URI, file kind, how: opened,
 * edited, closed, or created, changed, deleted on disk), the folders, the settings. The modules
 * that follow the workspace (settings, the LaTeX indexer, the sources, the scope host, diagnostics)
 * subscribe ({@link WorkspaceChangeListener}) and are told in the order they subscribed, each
 * whatever the others do (one that throws is logged); none is called by `server.ts`. The folders themselves are kept here, in the server's context, before
 * anyone is told.
 */
import { FileChangeType, type Connection, type DidChangeConfigurationParams, type DidChangeWatchedFilesParams, type TextDocuments, type WorkspaceFoldersChangeEvent } from 'vscode-languageserver';
import { URI } from 'vscode-uri';
import { fileKind, type FileKind } from '../core/workspace/fileKind.js';
import type { OpenDocument } from './openDocument.js';
import { messageOf, Params } from './requests.js';
import type { ServerContext } from './serverContext.js';

/** How a file changed: an open document's `opened`, `edited`, `closed`; on disk (a watched file's event) `created`, `changed`, `deleted`. */
export type FileChangeHow = 'opened' | 'edited' | 'closed' | 'created' | 'changed' | 'deleted';

/** One file's change. */
export interface FileChange {
  /** The file's URI as the client sent it. */
  readonly uri: string;
  /** What the file is (`fileKind`: by the open document's language, else by its name); undefined for any other file. */
  readonly kind: FileKind | undefined;
  readonly how: FileChangeHow;
  /** The open document, for `opened`, `edited` and `closed` (a closed one: as it was last). */
  readonly document?: OpenDocument;
}

/**
 * What changed in the workspace, from one notification of the client: some files, the workspace
 * folders, or the settings.
 */
export interface WorkspaceChange {
  /** The files that changed, in the client's order ([] when the folders or the settings changed). */
  readonly files: readonly FileChange[];
  /** Workspace folders added and removed (`workspace/didChangeWorkspaceFolders`); the context's folders are already the new ones. */
  readonly folders?: { readonly added: readonly URI[]; readonly removed: readonly URI[] };
  /** The settings changed (`workspace/didChangeConfiguration`), with what the client sent. */
  readonly settings?: DidChangeConfigurationParams;
}

/** A module that follows the workspace's changes. */
export interface WorkspaceChangeListener {
  workspaceChanged(change: WorkspaceChange): void;
}

/** Whether a change is of one document: opened, edited or closed. */
export const documentChange = (change: WorkspaceChange): FileChange | undefined =>
  (change.files.length === 1 && change.files[0]!.document ? change.files[0] : undefined);

const ON_DISK: Record<number, FileChangeHow> = { [FileChangeType.Created]: 'created', [FileChangeType.Changed]: 'changed', [FileChangeType.Deleted]: 'deleted' };

/** The workspace's change events (see the file comment). */
export class WorkspaceChanges {
  private readonly listeners: WorkspaceChangeListener[] = [];

  constructor(private readonly ctx: ServerContext) {}

  /** Adds listeners, told after those already added, in the order given. */
  subscribe(...listeners: WorkspaceChangeListener[]): void {
    this.listeners.push(...listeners);
  }

  /**
   * Tells every listener, each whatever the others do: one that throws is logged in one line
   * (its name and the first line of its message, no stack: `ServerContext.fail`), and the
   * listeners after it are still told.
   */
  private emit(change: WorkspaceChange): void {
    for (const l of this.listeners) {
      try {
        l.workspaceChanged(change);
      } catch (e) {
        this.ctx.fail(`workspace change: ${l.constructor.name === 'Object' ? 'a listener' : l.constructor.name} failed: ${messageOf(e)}`);
      }
    }
  }

  private document(document: OpenDocument, how: 'opened' | 'edited' | 'closed'): void {
    this.emit({ files: [{ uri: document.uri, kind: fileKind(URI.parse(document.uri), document.languageId), how, document }] });
  }

  /** Listens to the open documents' events. `TextDocuments` tells a `didOpen` as an open and then a change of content: both are one `opened`. */
  listenToDocuments(documents: TextDocuments<OpenDocument>): void {
    let opening: OpenDocument | undefined;
    documents.onDidOpen(({ document }) => { opening = document; });
    documents.onDidChangeContent(({ document }) => {
      const how = opening === document ? 'opened' : 'edited';
      opening = undefined;
      this.document(document, how);
    });
    documents.onDidClose(({ document }) => { this.document(document, 'closed'); });
  }

  /** Listens to the workspace's notifications: watched files and settings now; folders once `initialized` ({@link listenToFolders}). */
  listenToWorkspace(connection: Connection): void {
    const { gate } = this.ctx;
    connection.onDidChangeConfiguration(gate.heed('workspace/didChangeConfiguration', Params.didChangeConfiguration, (settings: DidChangeConfigurationParams) => {
      this.emit({ files: [], settings });
    }));
    connection.onDidChangeWatchedFiles(gate.heed('workspace/didChangeWatchedFiles', Params.didChangeWatchedFiles, ({ changes }: DidChangeWatchedFilesParams) => {
      this.emit({ files: changes.map((c) => ({ uri: c.uri, kind: fileKind(URI.parse(c.uri)), how: ON_DISK[c.type] ?? 'changed' })) });
    }));
  }

  /** Listens to `workspace/didChangeWorkspaceFolders` (registered once initialized, for a client that sends it); the context's folders follow. */
  listenToFolders(connection: Connection): void {
    const { ctx } = this;
    connection.workspace.onDidChangeWorkspaceFolders(ctx.gate.heed('workspace/didChangeWorkspaceFolders', Params.workspaceFolders, (e: WorkspaceFoldersChangeEvent) => {
      const gone = new Set(e.removed.map((f) => f.uri));
      const added = e.added.map((f) => URI.parse(f.uri));
      ctx.folders = [...ctx.folders.filter((f) => !gone.has(f.toString())), ...added];
      this.emit({ files: [], folders: { added, removed: e.removed.map((f) => URI.parse(f.uri)) } });
    }));
  }
}
