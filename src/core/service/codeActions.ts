/**
/**
 * Code actions (LSP `textDocument/codeAction`): quick fixes for the service's diagnostics, "Add to
 * the bibliography" for a key the bibliography lacks, and, in an editor with our UI, the search for
 * a replacement of an unknown key; and, in an editor with our UI, "Open Note" on a cited key (its
 * literature note, created when missing). These run commands (`ServiceCommands`) rather than carry
 * edits: the edit is planned when the user picks the action. The record checks' fixes
 * (`recordChecks.ts`) and the named-system hints' fixes (`namedSystemHints.ts`) carry their edit,
 * planned on the document's version.
 */
import * as l10n from '@vscode/l10n';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeAction, CodeActionKind, Diagnostic, type Command, type Range } from 'vscode-languageserver-types';
import { citationAtIn } from '../cite/citations.js';
import { namedSystemActions } from './namedSystemHints.js';
import { recordCodeActions } from './recordChecks.js';
import { bibDocument, type ServiceContext } from './serviceContext.js';
import { DIAGNOSTIC_SOURCE, DiagnosticCodes, ServiceCommands } from './types.js';

/**
 * Quick fixes for the given diagnostics (diagnostics of other sources get none), then "Open Note"
 * for the cited key at the range's start.
 *
 * @param range - the editor's selection or cursor
 * @param diagnostics - the ones the editor sends with the request (their range spans the key)
 */
export async function codeActions(ctx: ServiceContext, doc: TextDocument, range: Range, diagnostics: readonly Diagnostic[]): Promise<CodeAction[]> {
  const out: CodeAction[] = [];
  for (const d of diagnostics) {
    if (d.source !== DIAGNOSTIC_SOURCE) continue;
    const key = doc.getText(d.range);
    if (d.code === DiagnosticCodes.notInBib) {
      const title = l10n.t('Add {0} to the bibliography', key);
      const command: Command = { title, command: ServiceCommands.addToBibliography, arguments: [doc.uri, key] };
      out.push({ title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: true, command });
    }
    if (d.code === DiagnosticCodes.unknown && ctx.clientUi()) {
      const title = l10n.t('Search MLSys Papers for a replacement for {0}', key);
      out.push({ title, kind: CodeActionKind.QuickFix, diagnostics: [d], command: { title, command: ServiceCommands.replaceKey, arguments: [doc.uri, d.range, key] } });
    }
  }
  out.push(...await recordCodeActions(ctx, doc, diagnostics));
  out.push(...await namedSystemActions(ctx, doc, diagnostics));
  if (ctx.clientUi()) {
    const c = citationAtIn(bibDocument(doc), doc.offsetAt(range.start), await ctx.crossrefsOf(doc));
    if (c) {
      const title = l10n.t('Open Note for {0}', c.key);
      out.push({ title, kind: CodeActionKind.Empty, command: { title, command: ServiceCommands.openNote, arguments: [c.key, doc.uri] } });
    }
  }
  return out;
}
