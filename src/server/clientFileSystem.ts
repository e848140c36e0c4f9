/**
 * The client's file system, for a server with none of its own (the Web Worker) or a workspace its
 * own cannot reach (folders that are no `file:` URIs): every file through `mlsysPapers/readFile`
 * and `mlsysPapers/stat`, listings through `mlsysPapers/findFiles`, as `vscode.workspace.fs`
 * answers them. A client that does not offer them (`initializationOptions.fileSystem` unset) gives
 * no file: every file is missing and every listing empty.
 */
import type { Connection } from 'vscode-languageserver';
import { URI } from 'vscode-uri';
import type { Logger } from '../core/config/logger.js';
import { inWorkspace, isInside, normalizeUri } from '../core/workspace/paths.js';
import { fileStampOf, type HostFile, type HostFileSystem } from './host.js';
import { ServerRequests } from './protocol.js';

/**
 * The client's file system over a connection.
 *
 * @param offered - whether the client answers the file requests (`initializationOptions.fileSystem`)
 * @param folders - the workspace folders, asked when a listing is made (a `findFiles` answer outside them is dropped)
 */
export function clientFileSystem(connection: Connection, log: Logger, offered: boolean, folders: () => readonly URI[]): HostFileSystem {
  return {
    foldsCase: false,
    // No symlink is seen through the client: URIs are compared normalised.
    realPath: async (uri) => normalizeUri(uri),
    async readFile(uri, maxBytes): Promise<HostFile> {
      if (!offered) return undefined;
      try {
        const r = await connection.sendRequest(ServerRequests.readFile, { uri: uri.toString(), maxBytes });
        if ('missing' in r) return undefined;
        const stamp = fileStampOf(r.mtime, r.size, 'directory' in r || ('notFile' in r ? 'special' : false));
        if ('directory' in r) return { directory: true, stamp };
        if ('notFile' in r) return { notFile: true, stamp };
        if ('tooLarge' in r) return { tooLarge: true, size: r.size, stamp };
        // A client that does not know the cap (an older one) sent the text: it is held to it here.
        if ('text' in r && (r.size > maxBytes || r.text.length > maxBytes)) return { tooLarge: true, size: r.size, stamp };
        return 'notUtf8' in r ? { notUtf8: true, stamp, ...(r.legacyText !== undefined ? { legacyText: r.legacyText } : {}) } : { text: r.text, stamp };
      } catch (e) {
        log.warn(`cannot read ${uri.toString(true)} through the client: ${String(e)}`);
        return undefined;
      }
    },
    async stamp(uri) {
      if (!offered) return undefined;
      try {
        const r = await connection.sendRequest(ServerRequests.stat, { uri: uri.toString() });
        return 'missing' in r ? undefined : fileStampOf(r.mtime, r.size, 'directory' in r || ('notFile' in r ? 'special' : false));
      } catch (e) {
        log.warn(`cannot stat ${uri.toString(true)} through the client: ${String(e)}`);
        return undefined;
      }
    },
    async listFolder(folder) {
      // One folder's files: a glob relative to the workspace folder that holds it (VS Code's
      // findFiles matches it in every folder), answers outside it dropped.
      if (!offered) return undefined;
      const top = folders().find((f) => isInside(f, folder));
      if (!top) return undefined;
      const rel = folder.path.slice(top.path.replace(/\/$/, '').length).replace(/^\/+|\/+$/g, '');
      const pattern = `${rel.replace(/[[\]{}*?!]/g, '[$&]')}${rel ? '/' : ''}*`;
      const found = await connection.sendRequest(ServerRequests.findFiles, { pattern })
        .catch((e: unknown) => { log.warn(`findFiles ${pattern}: ${String(e)}`); return []; });
      const dir = normalizeUri(folder).path.replace(/\/$/, '');
      return found.map((u) => URI.parse(u)).filter((u) => u.scheme === folder.scheme && u.authority === folder.authority && u.path.slice(0, u.path.lastIndexOf('/')) === dir)
        .map((u) => u.path.slice(u.path.lastIndexOf('/') + 1));
    },
    async listFiles(_folders, extensions) {
      if (!offered) return [];
      const pattern = extensions.length === 1 ? `**/*${extensions[0]}` : `**/*{${extensions.join(',')}}`;
      const found = await connection.sendRequest(ServerRequests.findFiles, { pattern })
        .catch((e: unknown) => { log.warn(`findFiles ${pattern}: ${String(e)}`); return []; });
      return found.map((u) => URI.parse(u)).filter((u) => inWorkspace({ folders: folders() }, u));
    },
  };
}
