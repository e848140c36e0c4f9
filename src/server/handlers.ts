/**
 * The standard LSP requests the citation service answers: completion (+ resolve), hover,
 * definition, references, rename (+ prepare), code lenses, code actions, and
 * `workspace/executeCommand` for editors other than VS Code (the bibliography's change as a plain
 * `workspace/applyEdit`). Every handler goes through the request gate (`requests.ts`); a refused
 * rename is answered `RequestFailed` with the refusal's sentence, which the editor shows.
 */
import {
  ErrorCodes, LSPErrorCodes, ResponseError, type CodeActionParams, type CodeLensParams, type CompletionItem, type CompletionParams, type DefinitionParams, type ExecuteCommandParams,
  type HoverParams, type PrepareRenameParams, type ReferenceParams, type RenameParams, type WorkspaceEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import * as l10n from '@vscode/l10n';
import type { CitationService } from '../core/service/service.js';
import { ServiceCommands, type BibChange } from '../core/service/types.js';
import { refusalText } from '../core/bibliography/refusal.js';
import type { ServerContext } from './serverContext.js';
import { Params } from './requests.js';
import type { ServerWorkspace } from './serverWorkspace.js';

/** Registers the standard requests on the connection. */
export function registerLanguageFeatures(ctx: ServerContext, workspace: ServerWorkspace, service: CitationService): void {
  const { connection, gate } = ctx;
  const documents = workspace.documents;
  connection.onCompletion(gate.answer('textDocument/completion', Params.positional, (p: CompletionParams, token) => {
    const doc = documents.get(p.textDocument.uri);
    return doc ? service.complete(doc, p.position, token) : undefined;
  }));
  connection.onCompletionResolve(gate.answer('completionItem/resolve', Params.completionItem, (item: CompletionItem, token) => service.resolveCompletion(item, token)));
  connection.onHover(gate.answer('textDocument/hover', Params.positional, (p: HoverParams, token) => {
    const doc = documents.get(p.textDocument.uri);
    return doc ? service.hover(doc, p.position, token) : undefined;
  }));
  connection.onDefinition(gate.answer('textDocument/definition', Params.positional, (p: DefinitionParams, token) => {
    const doc = documents.get(p.textDocument.uri);
    return doc ? service.definition(doc, p.position, token) : undefined;
  }));
  connection.onCodeAction(gate.answer('textDocument/codeAction', Params.codeAction, (p: CodeActionParams) => {
    const doc = documents.get(p.textDocument.uri);
    return doc ? service.codeActions(doc, p.range, p.context.diagnostics) : [];
  }));
  connection.onReferences(gate.answer('textDocument/references', Params.references, (p: ReferenceParams, token) => {
    const doc = documents.get(p.textDocument.uri);
    return doc ? service.references(doc, p.position, p.context.includeDeclaration, token) : undefined;
  }));
  connection.onPrepareRename(gate.answer('textDocument/prepareRename', Params.positional, async (p: PrepareRenameParams) => {
    const doc = documents.get(p.textDocument.uri);
    const r = doc && await service.prepareRename(doc, p.position);
    if (r && 'refusal' in r) throw new ResponseError(LSPErrorCodes.RequestFailed, r.refusal);
    return r ?? null;
  }));
  connection.onRenameRequest(gate.answer('textDocument/rename', Params.rename, async (p: RenameParams) => {
    const doc = documents.get(p.textDocument.uri);
    const r = doc && await service.rename(doc, p.position, p.newName, { documentChanges: ctx.can.documentChanges, changeAnnotations: ctx.can.changeAnnotations });
    if (r && 'refusal' in r) throw new ResponseError(LSPErrorCodes.RequestFailed, r.refusal);
    return r?.edit ?? null;
  }));
  connection.onCodeLens(gate.answer('textDocument/codeLens', Params.textDocument, (p: CodeLensParams, token) => {
    const doc = documents.get(p.textDocument.uri);
    return doc ? service.codeLenses(doc, token) : [];
  }));
  connection.onExecuteCommand(gate.answer('workspace/executeCommand', Params.executeCommand, async (p: ExecuteCommandParams) => {
    // For editors other than VS Code: add the entry to the bibliography through `workspace/applyEdit`.
    if (p.command !== ServiceCommands.addToBibliography) return;
    const [uri, key] = p.arguments ?? [];
    if (typeof uri !== 'string' || typeof key !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, `${p.command} takes a document URI and a citation key`);
    const doc = documents.get(uri);
    if (!doc) return;
    const { bibliography: b } = await service.planBibliography(doc, [key]);
    const edit = await genericEdit(workspace, b);
    if (typeof edit === 'string') void connection.window.showWarningMessage(`MLSys Papers: ${edit}`);
    else if (edit) await connection.workspace.applyEdit({ label: l10n.t('Add {0} to the bibliography', key), edit });
  }));
}

/** A bibliography change as a plain `WorkspaceEdit`, for clients without our own UI; a string says why not. */
async function genericEdit(workspace: ServerWorkspace, b: BibChange): Promise<WorkspaceEdit | string | undefined> {
  switch (b.kind) {
    case 'none': return undefined;
    case 'refuse': return `${URI.parse(b.uri).path} ${refusalText(b)}.`;
    case 'declare': return l10n.t('the document declares no bibliography; declare one (\\bibliography{…} or bibliography: in the front matter) first.');
    case 'create': return { documentChanges: [{ kind: 'create', uri: b.uri, options: { ignoreIfExists: true } }, { textDocument: { uri: b.uri, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: b.text }] }] };
    case 'insert': {
      const open = workspace.documents.get(b.uri);
      if (open && b.document) {
        const at = open.positionAt(b.document.offset);
        return { documentChanges: [{ textDocument: { uri: b.uri, version: b.document.version }, edits: [{ range: { start: at, end: at }, newText: b.document.text }] }] };
      }
      // A closed file: the client opens it as it is on disk; positions count lines the way LSP does.
      if (!b.disk?.editorSafe) return l10n.t('{0} has mixed line endings or is not UTF-8; add the entry in an editor that keeps them, or run mlsys-papers sync.', URI.parse(b.uri).path);
      const raw = await workspace.service.readDisk(URI.parse(b.uri));
      if (typeof raw !== 'string') return l10n.t('{0} cannot be read.', URI.parse(b.uri).path);
      const at = TextDocument.create(b.uri, 'bibtex', 0, raw).positionAt(b.disk.offset);
      return { changes: { [b.uri]: [{ range: { start: at, end: at }, newText: b.disk.text }] } };
    }
  }
}
