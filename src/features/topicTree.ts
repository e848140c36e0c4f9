/**
 * The "Topics" view: topics, subtopics and entries, with read progress and a level filter; then
 * "Libraries": one node per library file, its groups (JabRef groups, else keywords), and their
 * entries newest first, each asked from the language server when opened.
 */
import * as vscode from 'vscode';
import { LEVELS, type Entry, type Level } from '../core/corpus/schema.js';
import { levelBadge, levelName, topicLabel } from '../core/text/l10n.js';
import { Commands, ContextKeys, ContextValues, Views } from '../ids.js';
import type { ConfigStore } from './config.js';
import type { CorpusClient } from './corpusClient.js';
import { escapeMarkdown, venueYear } from '../core/service/entryCards.js';
import { entryTooltip, KIND_ICONS } from './widgetPresentation.js';
import { Disposable } from './dispose.js';
import type { Ctx } from './client/ctx.js';
import type { ReadState } from './readState.js';
import type { NoteIndex } from './literatureNotes.js';

/** A node of the tree: a topic, or an entry under a topic; the libraries, a library, a group of it, and the note on a group's rows not shown. */
export type TreeNode =
  | { nodeType: 'topic'; id: string }
  | { nodeType: 'entry'; entry: Entry; topicId: string }
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

/** `TreeDataProvider` over the corpus. Nodes are plain data; items are made on demand. */
export class TopicTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly emitter = this._register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  /** Whether the last listing of the roots had the Libraries node. */
  private librariesShown = false;

  constructor(private readonly corpus: CorpusClient, private readonly read: ReadState, private readonly config: ConfigStore, private readonly notes?: Pick<NoteIndex, 'has' | 'onDidChange'>) {
    super();
    const refresh = () => this.emitter.fire(undefined);
    if (notes) this._register(notes.onDidChange(refresh));
    this._register(corpus.onDidChange(refresh));
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

  private visible(e: Entry): boolean {
    return !e.level || this.config.value.levels.includes(e.level);
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    await this.corpus.ready;
    const c = this.corpus.corpus;
    // Topics with nothing to show (empty, or every entry filtered out by level) are left out.
    const shown = (id: string) => c.entriesUnder(id).some((e) => this.visible(e));
    if (!node) {
      const roots: TreeNode[] = c.roots.filter(shown).map((id) => ({ nodeType: 'topic', id }));
      this.librariesShown = this.corpus.libraryStatus.length > 0;
      return this.librariesShown ? [...roots, LIBRARIES] : roots;
    }
    if (node.nodeType === 'entry' || node.nodeType === 'more') return [];
    if (node.nodeType === 'libraries') return this.corpus.libraryStatus.map((f) => ({ nodeType: 'library', uri: f.uri }));
    if (node.nodeType === 'library') {
      const groups = await this.corpus.libraryGroups(node.uri);
      return groups.map((g) => ({ nodeType: 'libraryGroup', uri: node.uri, group: g.id, label: g.label, count: g.count }));
    }
    if (node.nodeType === 'libraryGroup') {
      const r = await this.corpus.libraryEntries(node.uri, node.group);
      const topicId = groupId(node.uri, node.group);
      const rows: TreeNode[] = r.entries.map((entry) => ({ nodeType: 'entry', entry, topicId }));
      return r.total > r.entries.length ? [...rows, { nodeType: 'more', parent: topicId, shown: r.entries.length, total: r.total }] : rows;
    }
    const topic = c.topic(node.id);
    if (!topic) return [];
    const subs: TreeNode[] = topic.children.filter(shown).map((id) => ({ nodeType: 'topic', id }));
    const entries: TreeNode[] = c.entriesOf(node.id).filter((e) => this.visible(e)).map((entry) => ({ nodeType: 'entry', entry, topicId: node.id }));
    return [...subs, ...entries];
  }

  getParent(node: TreeNode): TreeNode | undefined {
    // Only topics and their entries are revealed; library nodes are reached by opening them.
    if (node.nodeType !== 'topic' && node.nodeType !== 'entry') return node.nodeType === 'library' ? LIBRARIES : undefined;
    if (node.nodeType === 'entry' && node.topicId.startsWith('library:')) return undefined;
    const id = node.nodeType === 'topic' ? this.corpus.corpus.topic(node.id)?.parent : node.topicId;
    return id ? { nodeType: 'topic', id } : undefined;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const c = this.corpus.corpus;
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
    if (node.nodeType === 'topic') {
      const t = c.topic(node.id)!;
      const all = c.entriesUnder(t.id).filter((e) => this.visible(e));
      const done = all.filter((e) => this.read.isRead(e.key)).length;
      const label = topicLabel(t, this.config.value.topicLabels);
      const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `topic:${t.id}`;
      item.description = `${done}/${all.length}`;
      item.tooltip = new vscode.MarkdownString(`**${escapeMarkdown(t.label)}** · ${escapeMarkdown(t.zh)}\n\n${escapeMarkdown(t.description ?? '')}\n\n${escapeMarkdown(t.description_zh ?? '')}\n\n${escapeMarkdown(vscode.l10n.t('{0} of {1} read', done, all.length))}`);
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
    item.tooltip = entryTooltip(c, e, { read });
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

/** Registers the Topics view and its title-bar Filter by Level command. */
export function registerTopicTree(ctx: Ctx): vscode.Disposable {
  const { corpus, read, config, log, notes } = ctx;
  const provider = new TopicTreeProvider(corpus, read, config, notes);
  const view = vscode.window.createTreeView(Views.topics, { treeDataProvider: provider, showCollapseAll: true, canSelectMany: true });
  const setContext = () =>
    void vscode.commands.executeCommand('setContext', ContextKeys.levelFiltered, config.value.levels.length < LEVELS.length);
  setContext();
  return vscode.Disposable.from(
    provider,
    view,
    config.onDidChange(setContext),
    vscode.commands.registerCommand(Commands.filterByLevel, () => filterByLevel(config)),
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
