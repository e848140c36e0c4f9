/**
 * The corpus's words in the display language: a topic's label and path (in the languages the
 * caller's settings chose, `text/l10n.ts`'s `TopicLabels`), a reading level's badge and name, an
 * entry's kind.
 */
import * as l10n from '@vscode/l10n';
import type { TopicLabels } from '../text/l10n.js';
import type { Taxonomy, Topic } from './model.js';
import type { Entry, Level } from './schema.js';

/**
 * The label of a topic in the given languages: `Distributed training`, `分布式训练`, or
 * `Distributed training · 分布式训练`.
 */
export function topicLabel(t: Pick<Topic, 'label' | 'zh'>, mode: TopicLabels): string {
  if (mode === 'zh') return t.zh || t.label;
  return mode === 'both' && t.zh ? `${t.label} · ${t.zh}` : t.label;
}

/** A topic's path from its root in the given languages, `A › B`; the id when unknown. */
export function topicPath(corpus: Taxonomy, id: string, mode: TopicLabels): string {
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
