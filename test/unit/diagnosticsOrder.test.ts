/**
 * Diagnostics that do not depend on the order documents open or libraries load. A declares
 * `refs.bib` (which defines `k`), B cites `k` and keys defined nowhere without declaring a
 * bibliography (it knows `k` only once A's bibliography has joined the libraries,
 * `includeDocumentBibliography`), and C is a section A `\input`s (its bibliography is A's once A is
 * open). Whatever the order of the `didOpen`s and whether the library's load ends before or after
 * the first pull, the last diagnostics the client holds are the same: pulled on open and again
 * after each `workspace/diagnostic/refresh` (as VS Code's client does), or the last ones pushed
 * (Neovim). The server runs on a clock the test moves (no sleep, no wall clock); a library's load
 * waits on a gate the test opens.
 */
import { describe, expect, it } from 'vitest';
import {
  DidChangeTextDocumentNotification, DidChangeWatchedFilesNotification, DidCloseTextDocumentNotification, FileChangeType, DocumentDiagnosticRequest, PublishDiagnosticsNotification,
  type Diagnostic, type DocumentDiagnosticReport, type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { Methods } from '../../src/server/protocol.js';
import type { Clock } from '../../src/server/server.js';
import { start, type Session } from './serverHarness.js';

const uri = (path: string) => URI.file(path).toString();
const A = uri('/ws/a.tex');
const B = uri('/ws/b.tex');
const C = uri('/ws/c.tex');
const TEXT: Record<string, string> = {
  [A]: '\\documentclass{article}\n\\begin{document}\n\\cite{k}\n\\input{c}\n\\bibliography{refs}\n\\end{document}\n',
  [B]: 'See \\cite{k} and \\cite{nowhere1,nowhere2}.\n',
  [C]: 'Section: \\cite{k,nowhere3}.\n',
};
const entry = (key: string, title: string) => `@article{${key},\n  title = {${title}},\n  author = {Doe, Jo},\n  year = {2024},\n}\n`;
const REFS = entry('k', 'A Key Defined in refs.bib');

/** A clock the test moves: timers run only when {@link ManualClock.next} fires them, earliest first. */
class ManualClock implements Clock {
  private at = 0;
  private id = 0;
  private readonly timers = new Map<number, { at: number; run: () => void }>();
  now = () => this.at;
  setTimeout = (run: () => void, ms: number) => { this.timers.set(++this.id, { at: this.at + ms, run }); return this.id; };
  clearTimeout = (handle: unknown) => { this.timers.delete(handle as number); };
  /** Fires the earliest timer (moving the time to it); false when none is pending. */
  next(): boolean {
    const first = [...this.timers].sort((x, y) => x[1].at - y[1].at || x[0] - y[0])[0];
    if (!first) return false;
    this.timers.delete(first[0]);
    this.at = Math.max(this.at, first[1].at);
    first[1].run();
    return true;
  }
}

/** The last diagnostics the client holds, per document URI, as `line:character message`. */
type Held = Record<string, string[]>;
const lines = (items: readonly Diagnostic[]) => items.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.message}`);

/** A client on a server whose clock and library loads the test drives. */
interface Client {
  s: Session;
  /** Lets every library load go on (they wait until then). */
  openGate(): void;
  /** Opens a LaTeX document (and pulls it, for a pulling client). */
  open(uri: string, text: string): void;
  change(uri: string, version: number, text: string): Promise<void>;
  close(uri: string): Promise<void>;
  /** Runs every timer, pulling again after each refresh, until nothing is pending and (once the gate is open) every answer is in. */
  settle(): Promise<void>;
  /** The last diagnostics held for each open document (pulled, or pushed). */
  held(): Held;
  /** The last diagnostics pushed for a file. */
  published(uri: string): string[] | undefined;
}

async function client(kind: 'pull' | 'push', files: Record<string, string>, settings: Record<string, unknown> = {}): Promise<Client> {
  const clock = new ManualClock();
  let opening!: () => void;
  let gateOpen = false;
  const gate = new Promise<void>((resolve) => { opening = resolve; });
  const openGate = () => { gateOpen = true; opening(); };
  // The library store asks its cache first: a miss that answers once the gate opens delays exactly the loads.
  const cache = { get: async () => { await gate; return undefined; }, set: async () => {} };
  const s = await start(files, { citationStyle: 'apa', ...settings }, { clock, libraryCache: () => cache }, undefined,
    kind === 'pull' ? { diagnostics: { refreshSupport: true } } : {}, '/ws', kind === 'pull');
  const opened = new Set<string>();
  const pulled: Held = {};
  const latest = new Map<string, number>();
  const inFlight: Promise<void>[] = [];
  let seq = 0;
  /** Pulls a document; the answer counts unless a newer pull of it was sent (VS Code's client cancels the older one). */
  const pull = (doc: string) => {
    const mine = ++seq;
    latest.set(doc, mine);
    inFlight.push(s.client.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: doc } }).then((r: DocumentDiagnosticReport) => {
      if (latest.get(doc) === mine && r.kind === 'full') pulled[doc] = lines(r.items);
    }));
  };
  // Messages are handled in order both ways: after a few round trips, what the server started on its own has run.
  const roundTrips = async () => { for (let i = 0; i < 8; i++) await s.client.sendRequest(Methods.libraryStatus); };
  let refreshes = 0;
  const published = (doc: string) => {
    const last = s.notifications.filter((n) => n.method === PublishDiagnosticsNotification.method && (n.params as PublishDiagnosticsParams).uri === doc).at(-1);
    return last && lines((last.params as PublishDiagnosticsParams).diagnostics);
  };
  return {
    s,
    openGate,
    open(doc, text) {
      s.open(doc, 'latex', text);
      opened.add(doc);
      if (kind === 'pull') pull(doc);
    },
    async change(doc, version, text) {
      await s.client.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: doc, version }, contentChanges: [{ text }] });
      if (kind === 'pull') pull(doc);
    },
    async close(doc) {
      await s.client.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: doc } });
      opened.delete(doc);
      delete pulled[doc];
      latest.delete(doc);
    },
    async settle() {
      for (let round = 0; round < 2; round++) {
        for (let i = 0; ; i++) {
          if (i > 500) throw new Error('the server never settled');
          await roundTrips();
          if (s.refreshes() > refreshes) { refreshes = s.refreshes(); for (const doc of opened) pull(doc); continue; }
          if (!clock.next()) break;
        }
        // A pull may wait for a library's load: its answer is awaited once the loads may go on.
        if (gateOpen) await Promise.all(inFlight);
      }
    },
    held() {
      const out: Held = {};
      for (const doc of opened) out[doc] = (kind === 'pull' ? pulled[doc] : published(doc)) ?? ['(none)'];
      return out;
    },
    published,
  };
}

interface Scenario {
  order: readonly string[];
  /** Whether every timer runs between one `didOpen` and the next. */
  gap: boolean;
  /** Whether the library's load ends before the first pull, or only after it. */
  load: 'before' | 'after';
  client: 'pull' | 'push';
  /** Whether `refs.bib` is a library the settings name too (then A's opening adds no library). */
  named: boolean;
}

const WANT: Held = {
  [A]: [],
  // b.tex declares nothing: it is checked against the refs.bib beside it (issue 28), and says so.
  [B]: [
    '0:23 Unknown citation key "nowhere1": not declared; checked against refs.bib beside it; the MLSys Papers corpus does not know it either.',
    '0:32 Unknown citation key "nowhere2": not declared; checked against refs.bib beside it; the MLSys Papers corpus does not know it either.',
  ],
  [C]: ['0:17 Unknown citation key "nowhere3": not in refs.bib, nor in the MLSys Papers corpus.'],
};

const scenarios: Scenario[] = [];
for (const kind of ['pull', 'push'] as const) {
  for (const order of [[A, B, C], [A, C, B], [B, A, C], [B, C, A], [C, A, B], [C, B, A]]) {
    // Four of the eight mixes of gap, load and named: each value twice, each pair of them at least once.
    for (const [gap, load, named] of [[false, 'after', false], [false, 'before', true], [true, 'before', true], [true, 'after', false]] as const) {
      scenarios.push({ order, gap, load, client: kind, named });
    }
  }
}
const name = (sc: Scenario) => `${sc.client}: ${sc.order.map((u) => u.slice(-5)).join(', ')}${sc.gap ? ', settled between' : ''}, load ends ${sc.load} the first pull${sc.named ? ', refs.bib named by the settings' : ''}`;

describe('diagnostics whatever the order of didOpen and library loads', () => {
  it.each(scenarios.map((sc) => [name(sc), sc] as const))('%s', async (_name, sc) => {
    const c = await client(sc.client, { '/ws/refs.bib': REFS }, sc.named ? { libraries: ['refs.bib'] } : {});
    if (sc.load === 'before') c.openGate();
    for (const [i, doc] of sc.order.entries()) {
      if (i > 0 && sc.gap) await c.settle();
      c.open(doc, TEXT[doc]!);
    }
    c.openGate();
    await c.settle();
    expect(c.held()).toEqual(WANT);
  });
});

describe('what the catalog knows does not depend on when each thing happened', () => {
  // p.bib and q.bib both define `dup`; R declares r.bib, which does not, and cites `dup`.
  const P = uri('/ws/p.tex');
  const Q = uri('/ws/q.tex');
  const R = uri('/ws/r.tex');
  const bibs = { '/ws/p.bib': entry('dup', 'From p.bib'), '/ws/q.bib': entry('dup', 'From q.bib'), '/ws/r.bib': entry('other', 'Other') };
  const doc = (bib: string, cites = '') => `\\documentclass{article}\n\\begin{document}\n${cites}\n\\bibliography{${bib}}\n\\end{document}\n`;

  it.each(['pull', 'push'] as const)('libraries are looked up in one order, whichever document opened first (%s)', async (kind) => {
    const runs: Held[] = [];
    for (const order of [[P, Q], [Q, P]]) {
      const c = await client(kind, bibs);
      c.openGate();
      c.open(R, doc('r', '\\cite{dup}'));
      for (const d of order) { await c.settle(); c.open(d, doc(d === P ? 'p' : 'q')); }
      await c.settle();
      runs.push(c.held());
    }
    expect(runs[0]![R]).toEqual(['2:6 "dup" is in your library p.bib but not in r.bib.']);
    expect(runs[1]).toEqual(runs[0]);
  });

  it.each(['pull', 'push'] as const)('a document that closes while the libraries reload takes its bibliography with it (%s)', async (kind) => {
    // refs.bib is named by the settings and still loading: the reload after A opens waits for it
    // (A's bibliography is read through the library store); A closes meanwhile.
    // a2.bib is not beside b.tex, which declares nothing and is checked against the refs.bib there.
    const c = await client(kind, { '/ws/refs.bib': REFS, '/ws/lib/a2.bib': entry('a2key', 'Only in a2.bib') }, { libraries: ['refs.bib'] });
    c.open(B, 'See \\cite{a2key}.\n');
    await c.settle();
    c.open(A, doc('refs,lib/a2'));
    await c.settle();
    await c.close(A);
    await c.settle();
    c.openGate();
    await c.settle();
    expect(c.held()).toEqual({ [B]: ['0:10 Unknown citation key "a2key": not declared; checked against refs.bib beside it; the MLSys Papers corpus does not know it either.'] });
  });

  it('a push under way when its document closes is not sent: the closed document keeps no diagnostics', async () => {
    // The computation waits for refs.bib's load (A's bibliography is read through the library store).
    const c = await client('push', { '/ws/refs.bib': REFS }, { libraries: ['refs.bib'] });
    await c.settle();
    c.open(A, doc('refs', '\\cite{k,nowhere4}'));
    await c.settle();
    await c.close(A);
    await c.settle();
    c.openGate();
    await c.settle();
    expect(c.published(A)).toEqual([]);
  });
});

describe('a .bbl file changed on disk', () => {
  it.each(['pull', 'push'] as const)('the documents that read it are checked again (%s)', async (kind) => {
    // An arXiv-style paper: its references are the .bbl it inputs, which BibTeX rewrites on disk.
    const M = uri('/ws/main.tex');
    const bbl = (key: string) => `\\begin{thebibliography}{1}\n\\bibitem{${key}}\nA. Doe. Something. 2024.\n\\end{thebibliography}\n`;
    const c = await client(kind, { '/ws/main.bbl': bbl('old') });
    c.openGate();
    c.open(M, '\\documentclass{article}\n\\begin{document}\n\\cite{fresh}\n\\input{main.bbl}\n\\end{document}\n');
    await c.settle();
    expect(c.held()[M]).toHaveLength(1);
    c.s.write('/ws/main.bbl', bbl('fresh'));
    await c.s.client.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri('/ws/main.bbl'), type: FileChangeType.Changed }] });
    await c.settle();
    expect(c.held()[M]).toEqual([]);
  });
});
