/**
 * The workspace's change events (`server/workspaceChanges.ts`): every listener hears every change,
 * whatever an earlier one does. A listener that throws is logged once, in one line without a
 * stack (through the server's failure path, `ServerContext.fail`), and the listeners after it are
 * still told.
 */
import { describe, expect, it } from 'vitest';
import type { Connection, TextDocuments } from 'vscode-languageserver';
import { OpenDocument } from '../../src/server/openDocument.js';
import { ServerContext } from '../../src/server/serverContext.js';
import { WorkspaceChanges, type WorkspaceChange } from '../../src/server/workspaceChanges.js';

/** A context over a connection whose console is recorded; the documents' events, fired by hand. */
function setUp() {
  const errors: string[] = [];
  const quiet = () => {};
  const connection = { console: { info: quiet, warn: quiet, error: (m: string) => errors.push(m) } } as unknown as Connection;
  const ctx = new ServerContext(connection, { bundledCorpus: async () => { throw new Error('unused'); } } as never);
  const handlers: { open?: (e: { document: OpenDocument }) => void; change?: (e: { document: OpenDocument }) => void; close?: (e: { document: OpenDocument }) => void } = {};
  const documents = {
    onDidOpen: (h: typeof handlers.open) => { handlers.open = h; },
    onDidChangeContent: (h: typeof handlers.change) => { handlers.change = h; },
    onDidClose: (h: typeof handlers.close) => { handlers.close = h; },
  } as unknown as TextDocuments<OpenDocument>;
  const changes = new WorkspaceChanges(ctx);
  changes.listenToDocuments(documents);
  const doc = new OpenDocument('file:///ws/a.tex', 'latex', 1, '\\cite{x}');
  const edit = () => handlers.change!({ document: doc });
  return { errors, changes, edit };
}

describe('WorkspaceChanges', () => {
  it('tells every listener, after one that throws; the failure is one line without a stack', async () => {
    const { errors, changes, edit } = setUp();
    const heard: string[] = [];
    class Thrower { workspaceChanged(): void { throw new Error('broken listener\n    at somewhere (file.ts:1:1)'); } }
    changes.subscribe(
      { workspaceChanged: (c: WorkspaceChange) => { heard.push(`first ${c.files[0]!.how}`); } },
      new Thrower(),
      { workspaceChanged: (c: WorkspaceChange) => { heard.push(`last ${c.files[0]!.how}`); } },
    );
    edit();
    edit();
    // The log is sent on the next turn.
    await new Promise((r) => setTimeout(r, 0));
    expect(heard).toEqual(['first edited', 'last edited', 'first edited', 'last edited']);
    expect(errors).toHaveLength(2);
    for (const e of errors) {
      expect(e).not.toContain('\n');
      expect(e).toMatch(/Thrower.*broken listener/);
    }
  });
});
