/**
 * The "Topics" view: the reading list by topic (subtopics, entries in reading order, levels,
 * must-reads, read progress), and, when it shows everything (`mlsysPapers.topicsShow`), under each
 * topic a "More in this topic (N)" node with the field's other works filed there, by year with
 * counts; then "Libraries": one node per library file, its groups (JabRef groups, else keywords),
 * and their entries newest first. Every level is asked from the language server when it is opened
 * (`mlsysPapers/topicChildren`, `libraryGroups`, `libraryEntries`): the client holds no corpus.
 */
import * as vscode from 'vscode';
import { LEVELS, type Entry, type Level } from '../core/corpus/schema.js';
import type { BrowseNode, BrowseParent, YearGroup } from '../core/corpus/browse.js';
import { levelBadge, levelName, topicLabel } from '../core/corpus/labels.js';
import { Commands, ContextKeys, ContextValues, Settings, Views } from '../ids.js';
import { topicFilterOf, type ConfigStore } from './config.js';
import type { CorpusClient } from './corpusClient.js';
import { escapeMarkdown, venueYear } from '../core/service/entryCards.js';
import { entryTooltip, KIND_ICONS } from './widgetPresentation.js';
import { Disposable } from './dispose.js';
import type { Ctx } from './client/ctx.js';
import type { ReadState } from './readState.js';
import type { NoteIndex } from './noteIndex.js';

/** A topic as the server lists it, with its counts. */
type TopicRow = Extract<BrowseNode, { kind: 'topic' }>;

/**
 * A node of the tree: a topic, an entry, a topic's "More in this topic" group and one year of it;
 * the libraries, a library, a group of it, and the note on a group's rows not shown. Nodes under a
 * topic carry the node they are under (`parent`), so `getParent` returns the very object the view knows.
 */
export type TreeNode =
  | { nodeType: 'topic'; id: string; row?: TopicRow; parent?: TreeNode }
  | { nodeType: 'entry'; entry: Entry; topicId: string; parent?: TreeNode }
  | { nodeType: 'topicMore'; topic: string; count: number; parent: TreeNode }
  | { nodeType: 'year'; topic: string; year: YearGroup; count: number; parent: TreeNode }
  | { nodeType: 'libraries' }
  | { nodeType: 'library'; uri: string }
  | { nodeType: 'libraryGroup'; uri: string; group: string; label: string; count: number }
  | { nodeType: 'more'; parent: string; shown: number; total: number };

/**
 * The Libraries node. One object: a `TreeView` finds the element it reveals by identity, so
 * `getChildren` must return the very object Show Libraries reveals.
 */
const LIBRARIES: TreeNode = { nodeType: 'libraries' };

/** The `topicId` of entries under a library group. */
const groupId = (uri: string, group: string) => `library:${uri}#${group}`;

/** The `topicId` of a field work under a topic's "more" group, or one year of it (entry ids must differ from the reading list's). */
const moreId = (topic: string, year?: YearGroup) => `${topic}#more${year === undefined ? '' : `#${year}`}`;

/** `TreeDataProvider` over the server's topic listings and libraries. Nodes are plain data; items are made on demand. */
export class TopicTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly emitter = this._register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  /** Whether the last listing of the roots had the Libraries node. */
  private librariesShown = false;

  constructor(
    private readonly corpus: CorpusClient, private readonly read: ReadState, private readonly config: ConfigStore, private readonly log: vscode.LogOutputChannel,
    private readonly notes?: Pick<NoteIndex, 'has' | 'onDidChange'>,
  ) {
    super();
    const refresh = () => this.emitter.fire(undefined);
    if (notes) this._register(notes.onDidChange(refresh));
    this._register(corpus.onDidChange(refresh));
    // The server counts a topic's read entries: it has the read state before the view asks again
    // (the read state's own listener, registered first, sends it).
    this._register(read.onDidChange(refresh));
    this._register(config.onDidChange(refresh));
    // Libraries change whenever a document with another bibliography opens or closes. Only the
    // Libraries node shows them: the topics are not listed again, unless the node itself comes or goes.
    this._register(corpus.onDidChangeLibraries(() => {
      const shown = corpus.libraryStatus.length > 0;
      if (shown !== this.librariesShown) refresh();
      else if (shown) this.emitter.fire(LIBRARIES);
    }));
  }

  /** The rows under a node of the corpus's topics, as tree nodes under `parent`. */
  private async topicRows(where: BrowseParent, parent: TreeNode | undefined): Promise<TreeNode[]> {
    const rows = await this.corpus.topicChildren(where, topicFilterOf(this.config.value));
    const topicId = where.topic === undefined ? '' : where.group === undefined ? where.topic : moreId(where.topic, where.group === 'more' ? undefined : where.group);
    return rows.map((r): TreeNode => {
      switch (r.kind) {
        case 'topic': return { nodeType: 'topic', id: r.topic.id, row: r, parent };
        case 'entry': return { nodeType: 'entry', entry: r.entry, topicId, parent };
        case 'more': return { nodeType: 'topicMore', topic: r.topic, count: r.count, parent: parent! };
        case 'year': return { nodeType: 'year', topic: r.topic, year: r.year, count: r.count, parent: parent! };
      }
    });
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    try {
      return await this.children(node);
    } catch (e) {
      // The server restarting, or gone: the view shows nothing there until it is asked again.
      this.log.warn(`Topics view: cannot list ${node ? node.nodeType : 'the topics'}: ${e instanceof Error ? e.message : String(e)}`);
      return [];
    }
  }

  private async children(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) {
      const roots = await this.topicRows({}, undefined);
      this.librariesShown = this.corpus.libraryStatus.length > 0;
      return this.librariesShown ? [...roots, LIBRARIES] : roots;
    }
    switch (node.nodeType) {
      case 'entry': case 'more': return [];
      case 'topic': return this.topicRows({ topic: node.id }, node);
      case 'topicMore': return this.topicRows({ topic: node.topic, group: 'more' }, node);
      case 'year': return this.topicRows({ topic: node.topic, group: node.year }, node);
      case 'libraries': return this.corpus.libraryStatus.map((f) => ({ nodeType: 'library', uri: f.uri }));
      case 'library': {
        const groups = await this.corpus.libraryGroups(node.uri);
        return groups.map((g) => ({ nodeType: 'libraryGroup', uri: node.uri, group: g.id, label: g.label, count: g.count }));
      }
      case 'libraryGroup': {
        const r = await this.corpus.libraryEntries(node.uri, node.group);
        const topicId = groupId(node.uri, node.group);
        const rows: TreeNode[] = r.entries.map((entry) => ({ nodeType: 'entry', entry, topicId }));
        return r.total > r.entries.length ? [...rows, { nodeType: 'more', parent: topicId, shown: r.entries.length, total: r.total }] : rows;
      }
    }
  }

  getParent(node: TreeNode): TreeNode | undefined {
    // Library nodes are reached by opening them; only a library's own node is revealed.
    if (node.nodeType === 'library') return LIBRARIES;
    if (node.nodeType === 'topic' || node.nodeType === 'entry' || node.nodeType === 'topicMore' || node.nodeType === 'year') return node.parent;
    return undefined;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    if (node.nodeType === 'libraries') {
      const files = this.corpus.libraryStatus;
      const item = new vscode.TreeItem(vscode.l10n.t('Libraries'), vscode.TreeItemCollapsibleState.Collapsed);
      item.id = 'libraries';
      item.description = vscode.l10n.t('{0} entries', files.reduce((n, f) => n + f.entries, 0).toLocaleString('en-US'));
      item.tooltip = vscode.l10n.t('Your own libraries (the setting mlsysPapers.libraries)');
      item.iconPath = new vscode.ThemeIcon('library');
      item.contextValue = 'libraries';
      return item;
    }
    if (node.nodeType === 'library') {
      const f = this.corpus.libraryStatus.find((x) => x.uri === node.uri);
      const item = new vscode.TreeItem(f?.name ?? node.uri, f?.state === 'ready' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      item.id = `library:${node.uri}`;
      const problems = !f?.problems ? '' : f.problems === 1 ? ` · ${vscode.l10n.t('1 problem')}` : ` · ${vscode.l10n.t('{0} problems', f.problems)}`;
      item.description = !f ? '' : f.state === 'loading' ? vscode.l10n.t('loading {0} / {1}', f.done.toLocaleString('en-US'), f.total.toLocaleString('en-US'))
        : f.state === 'error' ? vscode.l10n.t('cannot be read') : `${vscode.l10n.t('{0} entries', f.entries.toLocaleString('en-US'))}${problems}`;
      item.tooltip = `${vscode.Uri.parse(node.uri).toString(true)}${f?.fromDocument ? `\n${vscode.l10n.t('(the bibliography of an open document)')}` : ''}${f?.message ? `\n${f.message}` : ''}`;
      item.resourceUri = vscode.Uri.parse(node.uri);
      item.iconPath = new vscode.ThemeIcon(f?.state === 'error' ? 'warning' : f?.state === 'loading' ? 'sync~spin' : 'book');
      item.contextValue = 'library';
      return item;
    }
    if (node.nodeType === 'libraryGroup') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = groupId(node.uri, node.group);
      item.description = node.count.toLocaleString('en-US');
      item.iconPath = new vscode.ThemeIcon('tag');
      item.contextValue = 'libraryGroup';
      return item;
    }
    if (node.nodeType === 'more') {
      const item = new vscode.TreeItem(vscode.l10n.t('{0} more: search to find them', (node.total - node.shown).toLocaleString('en-US')), vscode.TreeItemCollapsibleState.None);
      item.id = `${node.parent}#more`;
      item.description = vscode.l10n.t('newest {0} of {1} shown', node.shown.toLocaleString('en-US'), node.total.toLocaleString('en-US'));
      item.iconPath = new vscode.ThemeIcon('search');
      item.command = { command: Commands.search, title: vscode.l10n.t('Search') };
      return item;
    }
    if (node.nodeType === 'topicMore') {
      const item = new vscode.TreeItem(vscode.l10n.t('More in this topic ({0})', node.count.toLocaleString('en-US')), vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `topic:${moreId(node.topic)}`;
      item.tooltip = vscode.l10n.t("The field's other works filed under this topic, beyond the reading list ({0})", node.count.toLocaleString('en-US'));
      item.iconPath = new vscode.ThemeIcon('list-unordered');
      item.contextValue = 'topicMore';
      return item;
    }
    if (node.nodeType === 'year') {
      const item = new vscode.TreeItem(node.year === 'none' ? vscode.l10n.t('No year') : String(node.year), vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `topic:${moreId(node.topic, node.year)}`;
      item.description = node.count.toLocaleString('en-US');
      item.iconPath = new vscode.ThemeIcon('calendar');
      item.contextValue = 'topicYear';
      return item;
    }
    if (node.nodeType === 'topic') {
      const row = node.row;
      const t = row?.topic ?? this.corpus.taxonomy.topic(node.id) ?? { id: node.id, label: node.id, zh: '' };
      const [done, all, more] = [row?.read ?? 0, row?.readingList ?? 0, row?.more ?? 0];
      const item = new vscode.TreeItem(topicLabel(t, this.config.topicLabels), vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `topic:${t.id}`;
      const progress = all ? `${done}/${all}` : '';
      const others = !more ? '' : all ? vscode.l10n.t('{0} more', more.toLocaleString('en-US')) : vscode.l10n.t('{0} works', more.toLocaleString('en-US'));
      item.description = [progress, others].filter(Boolean).join(' · ');
      const lines = [`**${escapeMarkdown(t.label)}** · ${escapeMarkdown(t.zh)}`, escapeMarkdown(t.description ?? ''), escapeMarkdown(t.description_zh ?? ''),
        escapeMarkdown(vscode.l10n.t('{0} of {1} read', done, all)), more ? escapeMarkdown(vscode.l10n.t("{0} more works of the field (More in this topic)", more.toLocaleString('en-US'))) : ''];
      item.tooltip = new vscode.MarkdownString(lines.filter(Boolean).join('\n\n'));
      item.contextValue = ContextValues.topic;
      item.iconPath = new vscode.ThemeIcon(t.parent ? 'folder' : 'folder-library');
      return item;
    }
    const e = node.entry;
    const read = this.read.isRead(e.key);
    const item = new vscode.TreeItem(e.title, vscode.TreeItemCollapsibleState.None);
    item.id = `entry:${node.topicId}:${e.key}`;
    const mark = e.level === 'must-read' ? '⚡ ' : '';
    const note = this.notes?.has(e.key) ?? false;
    item.description = `${mark}${venueYear(e)}${read ? ' · ✓' : ''}${note ? ' · ✎' : ''}`;
    item.tooltip = entryTooltip(this.corpus.taxonomy, e, { topicLabels: this.config.topicLabels, read });
    item.iconPath = new vscode.ThemeIcon(read ? 'pass' : e.library ? 'library' : KIND_ICONS[e.kind]);
    item.contextValue = read ? ContextValues.entryRead : ContextValues.entry;
    item.accessibilityInformation = {
      label: `${e.title}, ${venueYear(e)}${e.level ? `, ${levelName(e.level)}` : ''}${read ? `, ${vscode.l10n.t('read')}` : ''}${note ? `, ${vscode.l10n.t('has a note')}` : ''}`,
    };
    item.command = { command: Commands.entryActions, title: vscode.l10n.t('Show actions'), arguments: [node] };
    return item;
  }
}

/** Lets the user choose which levels the tree shows (setting `mlsysPapers.levels`). */
async function filterByLevel(config: ConfigStore): Promise<void> {
  const current = new Set(config.value.levels);
  const items = LEVELS.map((l) => ({ label: levelBadge(l), level: l, picked: current.has(l) }));
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true, title: vscode.l10n.t('MLSys Papers: Show levels'), placeHolder: vscode.l10n.t('Levels to show in the Topics view'),
  });
  if (!picked) return;
  const levels: Level[] = picked.length ? picked.map((p) => p.level) : [...LEVELS];
  await config.update('levels', levels);
}

/**
 * Registers the Topics view and its title-bar commands: Filter by Level, and Show the Reading List
 * Only / Show Everything (the setting `mlsysPapers.topicsShow`; one of the two shows at a time).
 */
export function registerTopicTree(ctx: Ctx): vscode.Disposable {
  const { corpus, read, config, log, notes } = ctx;
  const provider = new TopicTreeProvider(corpus, read, config, log, notes);
  const view = vscode.window.createTreeView(Views.topics, { treeDataProvider: provider, showCollapseAll: true, canSelectMany: true });
  const setContext = () => {
    void vscode.commands.executeCommand('setContext', ContextKeys.levelFiltered, config.value.levels.length < LEVELS.length);
    void vscode.commands.executeCommand('setContext', ContextKeys.topicsShow, config.value.topicsShow);
  };
  setContext();
  return vscode.Disposable.from(
    provider,
    view,
    config.onDidChange(setContext),
    vscode.commands.registerCommand(Commands.filterByLevel, () => filterByLevel(config)),
    vscode.commands.registerCommand(Commands.showReadingListOnly, () => config.update(Settings.topicsShow, 'readingList')),
    vscode.commands.registerCommand(Commands.showEverything, () => config.update(Settings.topicsShow, 'everything')),
    // The status bar's item: the Topics view, with its Libraries node open.
    vscode.commands.registerCommand(Commands.showLibraries, async () => {
      await vscode.commands.executeCommand(`${Views.topics}.focus`);
      if (!corpus.libraryStatus.length) {
        void vscode.window.showInformationMessage(vscode.l10n.t('MLSys Papers: no library yet. Name your .bib, CSL-JSON or CSL-YAML files in the setting mlsysPapers.libraries.'));
        return;
      }
      // A reveal right after the tree refreshed (a library loaded) can reach the view before it
      // has the node again ("Data tree node not found"): tried again, then left to the user's click.
      for (let attempt = 1; ; attempt++) {
        try {
          await view.reveal(LIBRARIES, { expand: true, focus: true, select: true });
          return;
        } catch (e) {
          if (attempt === 3) { log.warn(`Show Libraries: cannot reveal the Libraries node: ${e instanceof Error ? e.message : String(e)}`); return; }
          await new Promise((r) => setTimeout(r, 300 * attempt));
        }
      }
    }),
  );
}
