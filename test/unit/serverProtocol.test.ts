/**
 * The language server's edge (`src/server/requests.ts`): every request is answered, in LSP's
 * lifecycle (3.17, "Server lifecycle"), with `InvalidParams` for parameters that do not fit, and a
 * result the writer can send, whatever a library holds; Markdown built from a library key stays
 * one code span.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CompletionResolveRequest, ErrorCodes, ExecuteCommandRequest, HoverRequest, InitializeRequest, LSPErrorCodes, ResponseError, ShutdownRequest,
  type CompletionItem, type Hover, type MarkupContent,
} from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { codeSpan } from '../../src/core/service/entryCards.js';
import { Methods, type LibraryStatusParams, type SearchResult } from '../../src/server/protocol.js';
import { assertSendable } from '../../src/server/requests.js';
import { connectOnly, start } from './serverHarness.js';

const FIX = join(__dirname, 'fixtures/protocol');
const fixture = (name: string) => readFileSync(join(FIX, name), 'utf8');

/** The error a request is answered with (fails when it is answered with a result). */
async function errorOf(p: Promise<unknown>): Promise<ResponseError<unknown>> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ResponseError);
    return e as ResponseError<unknown>;
  }
  throw new Error('answered with a result, not an error');
}

/** A session whose one library is `file` (as `/ws/lib/<name>`), loaded. */
async function withLibrary(name: string, text: string) {
  const s = await start({ [`/ws/lib/${name}`]: text }, { citationStyle: 'apa', libraries: [`lib/${name}`] });
  await s.notified<LibraryStatusParams>(Methods.libraryStatusChanged, (p) => p.files.length > 0 && p.files.every((f) => f.state !== 'loading'));
  return s;
}

describe('the server answers every request', () => {
  it('answers ServerNotInitialized (-32002) before initialize, for standard and custom requests', async () => {
    const { client } = connectOnly();
    const hover = await errorOf(client.sendRequest(HoverRequest.type, { textDocument: { uri: 'file:///ws/a.tex' }, position: { line: 0, character: 0 } }));
    expect(hover.code).toBe(ErrorCodes.ServerNotInitialized);
    expect(hover.message).toMatch(/not initialized/);
    expect((await errorOf(client.sendRequest(Methods.search, { query: 'x' }))).code).toBe(ErrorCodes.ServerNotInitialized);
    expect((await errorOf(client.sendRequest(Methods.topics))).code).toBe(ErrorCodes.ServerNotInitialized);
    // Then initialize works, and a second one is refused.
    const init = await client.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, capabilities: {}, workspaceFolders: null });
    expect(init.capabilities.hoverProvider).toBe(true);
    expect((await errorOf(client.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, capabilities: {}, workspaceFolders: null }))).code).toBe(ErrorCodes.InvalidRequest);
  });

  it('answers InvalidRequest (-32600) after shutdown', async () => {
    const s = await start({});
    expect(await s.client.sendRequest(ShutdownRequest.type)).toBeNull();
    const after = await errorOf(s.client.sendRequest(Methods.search, { query: 'paged' }));
    expect(after.code).toBe(ErrorCodes.InvalidRequest);
    expect((await errorOf(s.client.sendRequest(HoverRequest.type, { textDocument: { uri: 'file:///ws/a.tex' }, position: { line: 0, character: 0 } }))).code).toBe(ErrorCodes.InvalidRequest);
  });

  it('answers InvalidParams (-32602), naming the field, when parameters do not fit, and keeps serving', async () => {
    const s = await start({});
    const search = await errorOf(s.client.sendRequest(Methods.search, { query: 5 }));
    expect(search.code).toBe(ErrorCodes.InvalidParams);
    expect(search.message).toMatch(/^mlsysPapers\/search: invalid params: query: /);
    expect((await errorOf(s.client.sendRequest(Methods.search))).code).toBe(ErrorCodes.InvalidParams);
    expect((await errorOf(s.client.sendRequest(Methods.planCitation, { uri: 'a b:c', position: { line: 0, character: 0 }, keys: [] }))).code).toBe(ErrorCodes.InvalidParams);
    expect((await errorOf(s.client.sendRequest(HoverRequest.type, { textDocument: { uri: 'file:///ws/a.tex' } } as never))).code).toBe(ErrorCodes.InvalidParams);
    expect((await errorOf(s.client.sendRequest(CompletionResolveRequest.type, { label: 'x', data: { key: 5 } } as never))).code).toBe(ErrorCodes.InvalidParams);
    expect((await errorOf(s.client.sendRequest(ExecuteCommandRequest.type, { command: 'mlsysPapers.addToBibliography', arguments: [5] }))).code).toBe(ErrorCodes.InvalidParams);
    expect((await s.client.sendRequest<SearchResult>(Methods.search, { query: 'paged attention' })).keys[0]).toBe('kwon2023efficient');
  });

  it('answers RequestFailed (-32803) with one line and no stack when a handler fails', async () => {
    const s = await start({}, { citationStyle: 'apa' }, { fileSystem: { readFile: () => { throw new Error('disk on fire'); } } });
    const e = await errorOf(s.client.sendRequest(Methods.planInsertion, { uri: URI.file('/ws/refs.bib').toString(), keys: ['kwon2023efficient'] }));
    expect(e.code).toBe(LSPErrorCodes.RequestFailed);
    expect(e.message).toBe('mlsysPapers/planInsertion failed: disk on fire');
  });

  it('answers a search over a CSL item that contains itself (a YAML alias): a result or an error, never silence', async () => {
    const s = await withLibrary('loop.yaml', fixture('csl-yaml-self-alias.yaml'));
    const answer = await s.client.sendRequest<SearchResult>(Methods.search, { query: 'loop holds itself' }).then(
      (r) => ({ result: r }), (e: unknown) => ({ error: e as ResponseError<unknown> }));
    if ('error' in answer) {
      expect(answer.error.code).toBe(LSPErrorCodes.RequestFailed);
      expect(answer.error.message).toMatch(/cannot be sent \(a cycle at result\.entries\[0\]/);
      expect(answer.error.message).not.toMatch(/\n\s+at /);
    } else {
      expect(() => JSON.stringify(answer.result)).not.toThrow();
    }
    // The server still serves.
    expect((await s.client.sendRequest<SearchResult>(Methods.search, { query: 'paged attention' })).keys[0]).toBe('kwon2023efficient');
  });

  it('checks a result before sending it: a cycle, nesting too deep, a BigInt are refused with where they are', () => {
    const loop: Record<string, unknown> = { id: 'x' };
    loop.note = loop;
    expect(() => assertSendable({ entries: [{ csl: loop }] })).toThrow('a cycle at result.entries[0].csl.note');
    let deep: unknown = 'leaf';
    for (let i = 0; i < 12_000; i++) deep = [deep];
    expect(() => assertSendable(deep)).toThrow(/nested deeper than 1000 levels/);
    expect(() => assertSendable({ n: 1n })).toThrow('a BigInt at result.n');
    const shared = { a: 1 };
    expect(() => assertSendable({ x: shared, y: [shared, shared], u: URI.file('/ws/a'), d: new Date(0) })).not.toThrow();
  });
});

describe('Markdown from a library key', () => {
  const EVIL = 'a`[x](command:workbench.action.terminal.new)`b';

  it('puts a key holding backticks in one code span, fenced longer than its runs (CommonMark)', () => {
    expect(codeSpan('kwon2023')).toBe('`kwon2023`');
    expect(codeSpan(EVIL)).toBe('``a`[x](command:workbench.action.terminal.new)`b``');
    expect(codeSpan('a``b')).toBe('```a``b```');
    expect(codeSpan('`a')).toBe('`` `a ``');
    expect(codeSpan(' a ')).toBe('`  a  `');
    expect(codeSpan('a\n\nb')).toBe('`a  b`');
  });

  it('hovers and resolves a library key holding backticks without a link in the Markdown', async () => {
    const s = await withLibrary('keys.bib', fixture('key-backticks.bib'));
    const paper = URI.file('/ws/p.tex').toString();
    s.open(paper, 'latex', `\\cite{${EVIL}}\n`);
    const hover = await s.client.sendRequest(HoverRequest.type, { textDocument: { uri: paper }, position: { line: 0, character: 8 } }) as Hover;
    const md = (hover.contents as MarkupContent).value;
    expect(md).toContain(`\`\`${EVIL}\`\``);
    // Outside the code span no `](` remains: the link is text.
    expect(md.replace(`\`\`${EVIL}\`\``, '')).not.toContain('](command:workbench.action.terminal');
    const item = await s.client.sendRequest(CompletionResolveRequest.type, { label: EVIL, data: { key: EVIL, uri: paper } }) as CompletionItem;
    expect((item.documentation as MarkupContent).value).toContain(`\`\`${EVIL}\`\``);
  });
});
