/**
 * The files the server reads: open documents first (`TextDocuments` of `openDocument.ts`'s documents), over the one file system
 * chosen at `initialize` (the host's own, or the client's: `ServerContext.files`). Also the
 * extension's own files from the client, the paths settings name, and the wait for a document a
 * request names before its `didOpen` arrives.
 */
import { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { OPEN_DOCUMENTS } from './openDocument.js';
import { URI, Utils } from 'vscode-uri';
import * as l10n from '@vscode/l10n';
import { fileKind } from '../core/workspace/fileKind.js';
import { normalizeUri } from '../core/workspace/paths.js';
import { megabytes } from '../core/config/fileLimits.js';
import type { WorkspaceFiles } from '../core/workspace/files.js';
import type { ServerContext } from './serverContext.js';
import type { BundledFiles, HostFile } from './host.js';
import { ServerRequests } from './protocol.js';
import type { ServerSettings } from './serverSettings.js';

/** How long a request naming a document waits for the document's `didOpen` (see {@link ServerWorkspace.openDocument}), in ms. */
export const OPEN_WAIT_MS = 5000;

/**
 * A file's text, or why there is none (a sentence for a problem naming it). `stamp`: what
 * {@link WorkspaceFiles.stamp} gives for that text (an open document's version, else the file's
 * modification time and size as read), when known.
 */
export type TextOrProblem = { text: string; stamp?: string } | { problem: string };

/** The workspace as the server's modules and the citation service read it. */
export class ServerWorkspace {
  /** Open documents, one {@link OpenDocument} each: the text edited in place, and its facts. */
  readonly documents = new TextDocuments(OPEN_DOCUMENTS);

  /** The extension's own files, from the client (`mlsysPapers/readBundled`), when it offers them. */
  readonly bundledFiles: BundledFiles;
  /** The same files for the citation service and the core ({@link WorkspaceFiles}): open documents over the file system chosen at `initialize`. */
  readonly service: WorkspaceFiles;

  constructor(private readonly ctx: ServerContext, private readonly settings: ServerSettings) {
    this.bundledFiles = {
      get corpus() {
        return typeof ctx.init.bundledCorpus === 'string' ? ctx.init.bundledCorpus : undefined;
      },
      async read(path) {
        if (!ctx.init.bundledFiles) return undefined;
        const r = await ctx.connection.sendRequest(ServerRequests.readBundled, { path });
        return 'text' in r ? r.text : undefined;
      },
    };
    const documents = this.documents;
    const self = this;
    this.service = {
      get folders() { return ctx.folders; },
      get foldsCase() { return ctx.files.foldsCase; },
      realPath: (uri) => ctx.files.realPath(uri),
      async readText(uri) {
        const open = documents.get(uri.toString());
        if (open) return open.getText();
        const f = await self.readFile(uri);
        // A .bib, .tex or .bbl that is not UTF-8 is read as Windows-1252 (BibTeX and TeX read bytes):
        // its keys and links count; the planner writes only through readDisk, which refuses it.
        // JSON, YAML and Markdown must be UTF-8.
        if (f && 'notUtf8' in f) return legacyText(uri, f);
        return f && 'text' in f ? f.text.replace(/^\uFEFF/, '') : undefined;
      },
      async readDisk(uri) {
        const f = await self.readFile(uri);
        return f && ('text' in f ? f.text : 'notUtf8' in f ? { notUtf8: true } : undefined);
      },
      async stamp(uri) {
        const open = documents.get(uri.toString());
        if (open) return `v${open.version}`;
        const st = await self.fileStamp(uri);
        return st?.startsWith('d') || st?.startsWith('s') ? undefined : st;
      },
      async exists(uri) {
        return !!documents.get(uri.toString()) || (await self.fileStamp(uri)) !== undefined;
      },
      listFolder: (folder) => ctx.files.listFolder(folder),
      openDocument(uri) {
        const open = documents.get(uri.toString());
        return open && { version: open.version, text: open.getText() };
      },
    };
  }

  /** Reads a file through the file system chosen at `initialize` (regular files within the size cap only; anything else comes back as what it is). */
  async readFile(uri: URI): Promise<HostFile> {
    return this.ctx.files.readFile(uri, await this.settings.maxBytes());
  }

  /** A file's stamp on disk ({@link fileStampOf}), undefined when missing: asked on every keystroke for every declared file, so it never transfers the file. */
  fileStamp(uri: URI): Promise<string | undefined> {
    return this.ctx.files.stamp(uri);
  }

  /** Why a file gave no text, for a problem naming it ("not a regular file", "larger than 200 MB"). */
  async unreadable(f: HostFile): Promise<string> {
    if (!f) return l10n.t('no such file');
    if ('notUtf8' in f) return l10n.t('not UTF-8 text');
    if ('notFile' in f) return l10n.t('not a regular file');
    if ('tooLarge' in f) return l10n.t('larger than {0} MB', megabytes(await this.settings.maxBytes()));
    return l10n.t('a folder, not a file');
  }

  /** A file's text for a store (corpus files: without a byte-order mark), or why there is none. */
  async readForStore(uri: URI, { openFirst, stripBom }: { openFirst: boolean; stripBom: boolean }): Promise<TextOrProblem> {
    if (openFirst) {
      const open = this.documents.get(uri.toString());
      if (open) return { text: open.getText(), stamp: `v${open.version}` };
    }
    const f = await this.readFile(uri);
    if (f && 'text' in f) return { text: stripBom ? f.text.replace(/^\uFEFF/, '') : f.text, stamp: f.stamp };
    // A library is only read (never written): an 8-bit .bib is read as Windows-1252.
    const legacy = f && 'notUtf8' in f && fileKind(uri) === 'bibtex' ? f.legacyText : undefined;
    if (legacy !== undefined) return { text: legacy, stamp: f!.stamp };
    return { problem: await this.unreadable(f) };
  }

  /**
   * The files a setting's path names: an absolute path or `~/…` as it is, else that path in each
   * workspace folder.
   */
  settingUris(path: string): URI[] {
    // Normalised (`ws/./refs.bib`, `ws//refs.bib`, `ws/sub/../refs.bib` are `ws/refs.bib`), so that
    // a library is one file whichever way the settings spell it.
    if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) return [normalizeUri(URI.file(path))];
    if (path.startsWith('~/') && this.ctx.host.home) return [normalizeUri(URI.file(`${this.ctx.host.home}${path.slice(1)}`))];
    return this.ctx.folders.map((f) => normalizeUri(Utils.joinPath(f, path)));
  }

  /**
   * An open document that a client's own request names, undefined when it has not opened within
   * {@link OPEN_WAIT_MS}. The request may arrive before the document's `didOpen`: VS Code's client
   * (`vscode-languageclient` 9) sends a request made while it starts ahead of the `didOpen`s of the
   * documents already open (both wait for the start, the request first), so a command that starts
   * the extension would find no document. So it waits for the `didOpen` a while.
   */
  async openDocument(uri: string): Promise<TextDocument | undefined> {
    const open = this.documents.get(uri);
    if (open) return open;
    const { clock } = this.ctx;
    const doc = await new Promise<TextDocument | undefined>((resolve) => {
      const timer = clock.setTimeout(() => { listener.dispose(); resolve(undefined); }, OPEN_WAIT_MS);
      const listener = this.documents.onDidOpen(({ document }) => {
        if (document.uri !== uri) return;
        clock.clearTimeout(timer);
        listener.dispose();
        resolve(document);
      });
    });
    if (!doc) this.ctx.log.warn(`${uri} was named by a request but did not open within ${OPEN_WAIT_MS} ms`);
    return doc;
  }

  /** {@link openDocument}, for a request that cannot be answered without it. @throws Error naming the URI */
  async mustBeOpen(uri: string): Promise<TextDocument> {
    const doc = await this.openDocument(uri);
    if (!doc) throw new Error(`${uri} is not open`);
    return doc;
  }
}

/**
 * The Windows-1252 reading of a file whose bytes are not UTF-8, for the files BibTeX and TeX read
 * as bytes (`.bib`, LaTeX sources, `.bbl`: a Latin-1 root is then part of the LaTeX project, as the
 * CLI reads it); none for other formats (CSL-JSON, YAML, Markdown), which must be UTF-8. For
 * reading only: nothing is written through it.
 */
function legacyText(uri: URI, f: { legacyText?: string }): string | undefined {
  const kind = fileKind(uri);
  return kind === 'bibtex' || kind === 'latex' || kind === 'bbl' ? f.legacyText : undefined;
}
