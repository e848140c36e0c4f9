/**
 * The file contract of the core: what every host gives the citation service, the resolver, the
 * planner and the workspace store (`store.ts`). Every member is required, so nothing in the core
 * probes a host for what it can do: a host without a notion (the CLI has no open documents, the
 * browser no symlinks) answers plainly (`undefined`, the normalised URI).
 *
 * After VS Code's Markdown language service's `IWorkspace` (`microsoft/vscode-markdown-languageservice`,
 * `src/workspace.ts`) and texlab's `base-db` workspace: the host owns reading; the core owns what
 * a text means. Hosts: the language server (`server/serverWorkspace.ts`: open documents over the
 * Node file system or the client's), the CLI (`host/node/nodeBibWorkspace.ts`), and the tests'
 * in-memory workspace (`test/unit/memoryWorkspace.ts`).
 */
import type { URI } from 'vscode-uri';

/** An open document as the editor has it: its version and its text (unsaved changes included). */
export interface OpenText {
  version: number;
  text: string;
}

/** The files of a workspace, open documents first, then disk. */
export interface WorkspaceFiles {
  /** The workspace folders; files are written only inside them. */
  readonly folders: readonly URI[];
  /**
   * Whether the file system ignores the case of names (Windows, macOS by default): real paths are
   * then compared case-folded (`paths.ts`'s `pathKey`).
   */
  readonly foldsCase: boolean;
  /**
   * The text of a file: its open document's (unsaved changes included) when there is one, else
   * the file's on disk (without a byte-order mark; a `.bib` that is not UTF-8 as Windows-1252,
   * for reading only).
   *
   * @returns undefined when the file does not exist or cannot be read
   */
  readText(uri: URI): Promise<string | undefined>;
  /**
   * The file's bytes on disk as UTF-8 text, byte-order mark kept as U+FEFF, ignoring any open
   * document: what a write that must keep every byte is planned on.
   *
   * @returns undefined when it does not exist or cannot be read; `{ notUtf8: true }` when its bytes are not UTF-8
   */
  readDisk(uri: URI): Promise<string | { notUtf8: true } | undefined>;
  /**
   * What changes when the file's text changes: `v<version>` for an open document, else the file's
   * modification time and size; undefined when the file does not exist (or is no regular file).
   */
  stamp(uri: URI): Promise<string | undefined>;
  /** Whether a file or folder exists. */
  exists(uri: URI): Promise<boolean>;
  /**
   * Where a file really is: symlinks resolved, `.` and `..` and doubled separators gone, in the
   * case the file system stores its names (Node: `fs.promises.realpath`). For a file that does not
   * exist yet: the real path of its nearest existing folder, plus the rest of the path (a dangling
   * symlink followed to where a write would land). A host that sees no symlink (the browser) gives
   * `normalizeUri` of the URI.
   *
   * @returns undefined when the path cannot be resolved (a symlink loop, no permission to look):
   *   `inWorkspaceReal` then counts it as outside, so nothing is written there
   */
  realPath(uri: URI): Promise<URI | undefined>;
  /** The file's open document, if the editor has it open; undefined elsewhere (the CLI). */
  openDocument(uri: URI): OpenText | undefined;
  /**
   * The names of the files in a folder (not of its subfolders; a link counts as a file), for what
   * a document does not name itself: its build's scripts (`bibliography/pandocBuild.ts`), a `.bib`
   * beside a document that declares none (`bibliography/undeclared.ts`). What is named is read
   * later as any file is (a regular file only).
   *
   * @returns undefined for a folder that cannot be listed: nothing is looked for there
   */
  listFolder(folder: URI): Promise<string[] | undefined>;
}
