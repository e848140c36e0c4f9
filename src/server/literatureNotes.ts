/**
 * `mlsysPapers/planNote`: where an entry's literature note is (`<notesFolder>/<key>.md` in the
 * workspace folder of the document or folder the client names, the file name made safe by
 * `core/notes/literatureNote.ts`), whether it exists, and the text of a new one from the template
 * (`mlsysPapers.noteTemplate`, else the built-in one). The note's path must lie inside the
 * workspace folders by real path (a notes folder that is, or passes through, a link to elsewhere
 * is refused), and so must a template a workspace's settings name. Nothing is written here: the
 * client creates the note with a workspace edit, which the user can undo.
 */
import * as l10n from '@vscode/l10n';
import { URI, Utils } from 'vscode-uri';
import { inWorkspaceReal, isInside } from '../core/workspace/paths.js';
import { DEFAULT_NOTE_TEMPLATE, noteFields, noteFileName, notesFolderOf, renderNoteTemplate } from '../core/notes/literatureNote.js';
import type { ServerContext } from './serverContext.js';
import { type PlanNoteResult } from './protocol.js';
import type { ServerSettings } from './serverSettings.js';
import type { ServerWorkspace } from './serverWorkspace.js';
import type { Sources } from './sources.js';

/** Registers the `mlsysPapers/planNote` handler. */
export function registerLiteratureNotes(ctx: ServerContext, settings: ServerSettings, workspace: ServerWorkspace, sources: Sources): void {
  const { connection, gate } = ctx;
  gate.onRequest(connection, 'planNote', async (p): Promise<PlanNoteResult> => {
    const scope = p.scope ? URI.parse(p.scope) : undefined;
    const folder = (scope && ctx.folders.find((f) => isInside(f, scope))) ?? ctx.folders[0];
    if (!folder) return { error: l10n.t('MLSys Papers: open a folder to keep literature notes in.') };
    const { settings: s, fromWorkspace } = await settings.scope(scope ?? folder);
    const ws = workspace.service;
    const dir = notesFolderOf(folder, s.notesFolder);
    const uri = dir && Utils.joinPath(dir, noteFileName(p.key));
    if (!uri || !isInside(folder, uri) || !(await inWorkspaceReal(ws, uri))) {
      return { error: l10n.t('MLSys Papers: the notes folder "{0}" (setting mlsysPapers.notesFolder) is not inside the workspace folder, so no note is written there.', s.notesFolder) };
    }
    if (await ws.exists(uri)) return { uri: uri.toString(), exists: true };
    let template = DEFAULT_NOTE_TEMPLATE;
    if (s.noteTemplate) {
      const file = workspace.settingUris(s.noteTemplate).find((u) => isInside(folder, u)) ?? workspace.settingUris(s.noteTemplate)[0];
      if (!file || (fromWorkspace.includes('noteTemplate') && !(await inWorkspaceReal(ws, file)))) {
        return { error: l10n.t('MLSys Papers: the note template "{0}" named by the workspace settings (mlsysPapers.noteTemplate) is outside the workspace folders, so it is not read.', s.noteTemplate) };
      }
      const text = await ws.readText(file);
      if (text === undefined) return { error: l10n.t('MLSys Papers: cannot read the note template "{0}" (setting mlsysPapers.noteTemplate).', s.noteTemplate) };
      template = text;
    }
    const entry = sources.view().entry(p.key);
    return { uri: uri.toString(), exists: false, text: renderNoteTemplate(template, noteFields(p.key, entry, new Date())) };
  });
}
