/**
 * The requests a client that shows the corpus asks instead of holding it (issue 26: at 3,000+
 * entries the client builds nothing per entry): the taxonomy (`mlsysPapers/topics`), the Topics
 * view's rows under one node with their counts (`mlsysPapers/topicChildren`, from the core's
 * `CorpusBrowser`), every entry under topics (`mlsysPapers/topicEntries`, for Export Entries) and
 * entries by key (`mlsysPapers/entries`). Every handler goes through the request gate (`requests.ts`).
 */
import type { BrowseOptions } from '../core/corpus/browse.js';
import type { Entry } from '../core/corpus/schema.js';
import type { ServerContext } from './serverContext.js';
import { type EntriesResult, type TopicChildrenResult, type TopicFilter, type TopicsResult } from './protocol.js';
import type { Sources } from './sources.js';

/** What the topic requests answer from. */
export interface TopicRequestsDeps {
  sources: Sources;
  /** Keys (lower case) the user marked read: a topic's progress counts them. */
  read: ReadonlySet<string>;
}

/** Registers the `mlsysPapers/topics`, `topicChildren`, `topicEntries` and `entries` handlers. */
export function registerTopicRequests(ctx: ServerContext, { sources, read }: TopicRequestsDeps): void {
  const { connection, gate } = ctx;
  const options = (f: TopicFilter): BrowseOptions => ({ scope: f.scope, levels: f.levels, isRead: (key) => read.has(key) });
  gate.onRequest(connection, 'topics', (): TopicsResult => ({ version: sources.corpus.version, topics: sources.corpus.data.topics }));
  gate.onRequest(connection, 'topicChildren', (p): TopicChildrenResult =>
    ({ version: sources.corpus.version, nodes: sources.corpus.browser.children(p.parent, options(p)) }));
  gate.onRequest(connection, 'topicEntries', (p): EntriesResult =>
    ({ entries: sources.corpus.browser.entriesUnder(p.topics, options(p)) }));
  gate.onRequest(connection, 'entries', (p): EntriesResult => {
    const v = sources.view();
    return { entries: p.keys.map((k) => v.entry(k)).filter((e): e is Entry => !!e) };
  });
}
