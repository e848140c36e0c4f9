import { describe, expect, it } from 'vitest';
import { ClientNotifications, ClientRequests, Methods, ServerNotifications, ServerRequests } from '../../src/server/protocol.js';

describe('the custom protocol (src/server/protocol.ts)', () => {
  const groups = { ClientRequests, ClientNotifications, ServerRequests, ServerNotifications };
  const messages = Object.values(groups).flatMap((g) => Object.entries(g));

  it('gives each message a name of its own under mlsysPapers/: no name is both a request and a notification, nor used in both directions', () => {
    const names = messages.map(([, m]) => m.method);
    expect(names.every((n) => /^mlsysPapers\/[a-zA-Z]+$/.test(n))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    expect(ClientRequests.libraryStatus.method).not.toBe(ServerNotifications.libraryStatusChanged.method);
  });

  it('derives Methods from the typed messages: one key per message, its name written once', () => {
    expect(new Set(messages.map(([k]) => k)).size).toBe(messages.length);
    expect(Object.fromEntries(messages.map(([k, m]) => [k, m.method]))).toEqual(Methods);
  });
});
