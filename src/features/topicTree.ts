/**
 * The "Topics" view: topics, subtopics and entries, with read progress and a level filter.
 */
import * as vscode from 'vscode';
import { LEVEL_BADGES, LEVELS, type Entry, type Level } from '../core/schema.js';
import { Commands, ContextKeys, ContextValues, Views } from '../ids.js';
import type { ConfigStore } from './config.js';
import type { CorpusClient } from './corpusClient.js';
import { escapeMarkdown, venueYear } from '../core/service/present.js';
import { entryTooltip, KIND_ICONS } from './present.js';
import { Disposable } from './dispose.js';
import type { ReadState } from './readState.js';

/** A node of the tree: a topic, or an entry under a topic. */
export type TreeNode =
  | { nodeType: 'topic'; id: string }
  | { nodeType: 'entry'; entry: Entry; topicId: string };

/** `TreeDataProvider` over the corpus. Nodes are plain data; items are made on demand. */
export class TopicTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly emitter = this._register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly corpus: CorpusClient, private readonly read: ReadState, private readonly config: ConfigStore) {
    super();
    const refresh = () => this.emitter.fire(undefined);
    this._register(corpus.onDidChange(refresh));
    this._register(read.onDidChange(refresh));
    this._register(config.onDidChange(refresh));
  }

  private visible(e: Entry): boolean {
    return !e.level || this.config.value.levels.includes(e.level);
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    await this.corpus.ready;
    const c = this.corpus.corpus;
    // Topics with nothing to show (empty, or every entry filtered out by level) are left out.
    const shown = (id: string) => c.entriesUnder(id).some((e) => this.visible(e));
    if (!node) return c.roots.filter(shown).map((id) => ({ nodeType: 'topic', id }));
    if (node.nodeType === 'entry') return [];
    const topic = c.topic(node.id);
    if (!topic) return [];
    const subs: TreeNode[] = topic.children.filter(shown).map((id) => ({ nodeType: 'topic', id }));
    const entries: TreeNode[] = c.entriesOf(node.id).filter((e) => this.visible(e)).map((entry) => ({ nodeType: 'entry', entry, topicId: node.id }));
    return [...subs, ...entries];
  }

  getParent(node: TreeNode): TreeNode | undefined {
    const id = node.nodeType === 'topic' ? this.corpus.corpus.topic(node.id)?.parent : node.topicId;
    return id ? { nodeType: 'topic', id } : undefined;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const c = this.corpus.corpus;
    if (node.nodeType === 'topic') {
      const t = c.topic(node.id)!;
      const all = c.entriesUnder(t.id).filter((e) => this.visible(e));
      const done = all.filter((e) => this.read.isRead(e.key)).length;
      const label = this.config.value.showChineseLabels ? `${t.label} · ${t.zh}` : t.label;
      const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `topic:${t.id}`;
      item.description = `${done}/${all.length}`;
      item.tooltip = new vscode.MarkdownString(`**${escapeMarkdown(t.label)}** · ${escapeMarkdown(t.zh)}\n\n${escapeMarkdown(t.description ?? '')}\n\n${escapeMarkdown(t.description_zh ?? '')}\n\n${done} of ${all.length} read`);
      item.contextValue = ContextValues.topic;
      item.iconPath = new vscode.ThemeIcon(t.parent ? 'folder' : 'folder-library');
      return item;
    }
    const e = node.entry;
    const read = this.read.isRead(e.key);
    const item = new vscode.TreeItem(e.title, vscode.TreeItemCollapsibleState.None);
    item.id = `entry:${node.topicId}:${e.key}`;
    const mark = e.level === 'must-read' ? '⚡ ' : '';
    item.description = `${mark}${venueYear(e)}${read ? ' · ✓' : ''}`;
    item.tooltip = entryTooltip(c, e, { read });
    item.iconPath = new vscode.ThemeIcon(read ? 'pass' : KIND_ICONS[e.kind]);
    item.contextValue = read ? ContextValues.entryRead : ContextValues.entry;
    item.accessibilityInformation = {
      label: `${e.title}, ${venueYear(e)}${e.level ? `, ${e.level}` : ''}${read ? ', read' : ''}`,
    };
    item.command = { command: Commands.entryActions, title: 'Show actions', arguments: [node] };
    return item;
  }
}

/** Lets the user choose which levels the tree shows (setting `mlsysPapers.levels`). */
async function filterByLevel(config: ConfigStore): Promise<void> {
  const current = new Set(config.value.levels);
  const items = LEVELS.map((l) => ({ label: LEVEL_BADGES[l], level: l, picked: current.has(l) }));
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true, title: 'MLSys Papers: Show levels', placeHolder: 'Levels to show in the Topics view',
  });
  if (!picked) return;
  const levels: Level[] = picked.length ? picked.map((p) => p.level) : [...LEVELS];
  await config.update('levels', levels);
}

/** Registers the Topics view and its title-bar Filter by Level command. */
export function registerTopicTree(corpus: CorpusClient, read: ReadState, config: ConfigStore): vscode.Disposable {
  const provider = new TopicTreeProvider(corpus, read, config);
  const view = vscode.window.createTreeView(Views.topics, { treeDataProvider: provider, showCollapseAll: true, canSelectMany: true });
  const setContext = () =>
    void vscode.commands.executeCommand('setContext', ContextKeys.levelFiltered, config.value.levels.length < LEVELS.length);
  setContext();
  return vscode.Disposable.from(
    provider,
    view,
    config.onDidChange(setContext),
    vscode.commands.registerCommand(Commands.filterByLevel, () => filterByLevel(config)),
  );
}
