/**
 * Issue 27, loose end: a declared bibliography that is not a regular file is named as such, end to
 * end over the Node host: a symlink to `/dev/zero`, to `/dev/stdin`, a FIFO (a real one, made with
 * `mkfifo`), and a link to a closed file descriptor (what `/dev/stdin` leads to in a process whose
 * standard input is closed). Each is "not a regular file" in the citing document's diagnostics
 * (never "does not exist yet"), citing into it is refused without creating over it, and nothing
 * blocks on the FIFO (the test would hang).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalText } from '../../src/core/bibliography/refusal.js';
import { DocumentDiagnosticRequest, type FullDocumentDiagnosticReport } from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import type { CitePlan } from '../../src/core/service/types.js';
import { Methods } from '../../src/server/protocol.js';
import { start, type Session } from './serverHarness.js';

const canFifo = process.platform === 'linux' && spawnSync('mkfifo', ['--help']).error === undefined;

let tmp: string;
beforeAll(() => { tmp = mkdtempSync(join(tmpdir(), 'mlsys-notfile-')); });
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cases: [string, (path: string) => void][] = [
  ['a link to /dev/zero', (p) => symlinkSync('/dev/zero', p)],
  ['a link to /dev/stdin', (p) => symlinkSync('/dev/stdin', p)],
  ['a FIFO', (p) => { spawnSync('mkfifo', [p]); }],
  // /dev/stdin is /proc/self/fd/0: with standard input closed, the link leads nowhere.
  ['a link to a closed file descriptor (/dev/stdin with no standard input)', (p) => symlinkSync('/proc/self/fd/987654', p)],
];

async function diskServer(ws: string): Promise<Session> {
  const { nodeServerHost } = await import('../../src/host/node/nodeServerHost.js');
  const host = nodeServerHost(join(__dirname, '../../dist'));
  return start({}, { citationStyle: 'apa' }, { fileSystem: host.fileSystem }, undefined, {}, ws);
}

describe.skipIf(!canFifo)('a declared bibliography that is not a regular file', () => {
  cases.forEach(([what, make], i) => {
    it(`${what}: "not a regular file" in the diagnostics, and citing into it is refused`, async () => {
      const ws = join(tmp, `case${i}`);
      mkdirSync(ws);
      make(join(ws, 'refs.bib'));
      expect(lstatSync(join(ws, 'refs.bib')).isFile()).toBe(false);
      const s = await diskServer(ws);
      try {
        const doc = URI.file(join(ws, 'paper.tex')).toString();
        s.open(doc, 'latex', '\\documentclass{article}\n\\begin{document}\n\\cite{kwon2023efficient,nosuch1999}\n\\bibliography{refs}\n\\end{document}\n');
        const report = await s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: doc } }) as FullDocumentDiagnosticReport;
        expect(report.items.map((d) => [d.code, d.message])).toEqual([
          ['unreadable-bibliography', '"kwon2023efficient" is in the MLSys Papers corpus; refs.bib is not a regular file (a device, a pipe, a folder or a link that leads to none), so it is not read.'],
          ['unknown-key', 'Unknown citation key "nosuch1999": the MLSys Papers corpus does not know it, and the declared bibliography (refs.bib) is missing or cannot be read.'],
        ]);
        const plan = await s.client.sendRequest<CitePlan>(Methods.planCitation, { uri: doc, position: { line: 2, character: 0 }, keys: ['yu2022orca'] });
        expect(plan.bibliography).toMatchObject({ kind: 'refuse', reason: 'not-regular', keys: ['yu2022orca'] });
        expect(plan.bibliography.kind === 'refuse' && refusalText(plan.bibliography)).toBe('not a regular file; it was not changed; add yu2022orca by hand');
      } finally {
        s.dispose();
      }
    });
  });
});
