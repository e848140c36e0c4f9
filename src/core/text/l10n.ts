/**
 * The display language of the text the core writes for people (hovers, diagnostics, the details
 * page, refusals): `@vscode/l10n`, which reads the same `l10n/bundle.l10n.<locale>.json` bundles
 * as `vscode.l10n` (`@vscode/l10n-dev` extracts both kinds of call into `l10n/bundle.l10n.json`).
 * Until {@link configureL10n} is given a bundle, every message is its English source; the CLI and
 * other editors' clients get English.
 *
 * Topic labels are the corpus's own two languages (`label`, `zh` in `corpus/topics.yaml`), not
 * translations: {@link TopicLabels} says which the views show.
 */
import * as l10n from '@vscode/l10n';
import type { Taxonomy, Topic } from '../corpus/model.js';
import type { Entry, Level } from '../corpus/schema.js';

/**
 * Which of a topic's labels are shown: the English `label`, the Chinese `zh`, or both
 * (`English · 中文`).
 */
export type TopicLabels = 'en' | 'zh' | 'both';

/** The values of {@link TopicLabels}, for validating what a client sends. */
export const TOPIC_LABELS: readonly TopicLabels[] = ['en', 'zh', 'both'];

let topicLabels: TopicLabels = 'en';

/**
 * Sets the language of the core's messages and topic labels for this process.
 *
 * @param opts.bundle - a loaded l10n bundle (message → translation), as `vscode.l10n.bundle` has
 *   it; absent or `undefined` keeps English
 * @param opts.topicLabels - which topic labels to show; unchanged when absent
 */
export function configureL10n(opts: { bundle?: Record<string, string>; topicLabels?: TopicLabels }): void {
  if (opts.bundle && Object.keys(opts.bundle).length) l10n.config({ contents: opts.bundle });
  if (opts.topicLabels) topicLabels = opts.topicLabels;
}

/** Which topic labels the views show (see {@link configureL10n}). */
export function currentTopicLabels(): TopicLabels {
  return topicLabels;
}

/**
 * The label of a topic in the configured language: `Distributed training`, `分布式训练`, or
 * `Distributed training · 分布式训练`.
 */
export function topicLabel(t: Pick<Topic, 'label' | 'zh'>, mode: TopicLabels = topicLabels): string {
  if (mode === 'zh') return t.zh || t.label;
  return mode === 'both' && t.zh ? `${t.label} · ${t.zh}` : t.label;
}

/** A topic's path from its root in the configured language, `A › B`; the id when unknown. */
export function topicPath(corpus: Taxonomy, id: string, mode: TopicLabels = topicLabels): string {
  const path: string[] = [];
  for (let t = corpus.topic(id); t; t = t.parent ? corpus.topic(t.parent) : undefined) path.unshift(topicLabel(t, mode));
  return path.length ? path.join(' › ') : id;
}

/** The badge of a reading level, `⚡ must-read`, in the display language. */
export function levelBadge(level: Level): string {
  switch (level) {
    case 'must-read': return l10n.t('⚡ must-read');
    case 'optional': return l10n.t('💎 optional');
    case 'advanced': return l10n.t('💡 advanced');
  }
}

/** The name of a reading level, `must-read`, in the display language (for screen readers: no emoji). */
export function levelName(level: Level): string {
  switch (level) {
    case 'must-read': return l10n.t('must-read');
    case 'optional': return l10n.t('optional');
    case 'advanced': return l10n.t('advanced');
  }
}

/** What an entry is (`paper`, `survey`, … or a library entry's BibTeX type) in the display language. */
export function kindLabel(e: Pick<Entry, 'kind' | 'library'>): string {
  if (e.library) return e.library.sourceType;
  switch (e.kind) {
    case 'paper': return l10n.t('paper');
    case 'survey': return l10n.t('survey');
    case 'framework': return l10n.t('framework');
    case 'course': return l10n.t('course');
    case 'book': return l10n.t('book');
    case 'blog': return l10n.t('blog');
    case 'video': return l10n.t('video');
    case 'tutorial': return l10n.t('tutorial');
    case 'talk': return l10n.t('talk');
    case 'docs': return l10n.t('docs');
    case 'report': return l10n.t('report');
    default: return e.kind;
  }
}
