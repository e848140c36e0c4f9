/**
 * The custom protocol's names, and the rule that the features reach the server only through the
 * typed facade.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, ResponseError } from 'vscode-languageserver/node';
import { ClientNotifications, ClientRequests, Methods, ServerNotifications, ServerRequests } from '../../src/server/protocol.js';
import { ClientRequestParams } from '../../src/server/requests.js';
import { start } from './serverHarness.js';

describe('the custom protocol (src/server/protocol.ts)', () => {
  const groups = { ClientRequests, ClientNotifications, ServerRequests, ServerNotifications };
  const messages = Object.values(groups).flatMap((g) => Object.entries(g));

  it('gives each message a name of its own under mlsysPapers/: no name is both a request and a notification, nor used in both directions', () => {
    const names = messages.map(([, m]) => m.method);
    expect(names.every((n) => /^mlsysPapers\/[a-zA-Z]+$/.test(n))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    expect(ClientRequests.libraryStatus.method).not.toBe(ServerNotifications.libraryStatusChanged.method);
  });

  it('the server handles every client request of the table, checking its parameters against the schema declared beside it', async () => {
    const s = await start({});
    const answers: Record<string, unknown> = {};
    for (const [key, type] of Object.entries(ClientRequests)) {
      // A number is no request's parameters: each with a schema answers InvalidParams, none MethodNotFound.
      const sent = ClientRequestParams[key as keyof typeof ClientRequests] ? s.client.sendRequest(type.method, 42) : s.client.sendRequest(type.method);
      answers[key] = await sent.then(() => 'answered', (e: unknown) => (e instanceof ResponseError ? e.code : String(e)));
    }
    expect(Object.entries(answers).filter(([k, a]) => a !== (ClientRequestParams[k as keyof typeof ClientRequests] ? ErrorCodes.InvalidParams : 'answered'))).toEqual([]);
    expect(Object.values(answers)).toContain(ErrorCodes.InvalidParams);
  });

  it('derives Methods from the typed messages: one key per message, its name written once', () => {
    expect(new Set(messages.map(([k]) => k)).size).toBe(messages.length);
    expect(Object.fromEntries(messages.map(([k, m]) => [k, m.method]))).toEqual(Methods);
  });
});

describe('the features reach the server only through ctx.server (features/client/serverApi.ts; eslint.config.mjs holds it)', () => {
  const { ESLint } = require('eslint') as typeof import('eslint');
  const root = join(__dirname, '../..');
  const eslint = new ESLint({ cwd: root });
  const rulesHit = async (code: string, file: string) =>
    (await eslint.lintText(code, { filePath: join(root, file) })).flatMap((r) => r.messages.map((m) => m.ruleId));

  it('refuses the language client and messages by name to a feature, and allows them to the client plumbing', async () => {
    const client = "import { State } from 'vscode-languageclient';\nexport const x = State;";
    expect(await rulesHit(client, 'src/features/probe.ts')).toContain('no-restricted-imports');
    expect(await rulesHit(client, 'src/features/client/probe.ts')).not.toContain('no-restricted-imports');
    expect(await rulesHit("import { Methods } from '../server/protocol.js';\nexport const x = Methods;", 'src/features/probe.ts')).toContain('no-restricted-imports');
    expect(await rulesHit("import { ClientRequests } from '../../server/protocol.js';\nexport const x = ClientRequests;", 'src/features/client/probe.ts')).not.toContain('no-restricted-imports');
    // The protocol's types stay open to every feature.
    expect(await rulesHit("import type { SearchResult } from '../server/protocol.js';\nexport type X = SearchResult;", 'src/features/probe.ts')).toEqual([]);
    // The transports stay the entry points' in the plumbing too.
    expect(await rulesHit("import { State } from 'vscode-languageclient/node';\nexport const x = State;", 'src/features/client/probe.ts')).toContain('no-restricted-imports');
  });
});
