/**
 * "MLSys Papers: Search": a `QuickPick` over our search index. Our ranking is what the user sees:
 * VS Code's own filtering and sorting are switched off, every item is `alwaysShow`.
 */
import * as vscode from 'vscode';
import type { Entry } from '../core/corpus/schema.js';
import type { CorpusClient } from './corpusClient.js';
import { entryLink } from '../core/corpus/links.js';
import { bylineOf, topicPathOf } from '../core/service/entryCards.js';
import type { ConfigStore } from './config.js';

interface EntryItem extends vscode.QuickPickItem {
  entry: Entry;
}

const COPY_BIBTEX: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('copy'), tooltip: vscode.l10n.t('Copy BibTeX') };
const OPEN_PAPER: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('link-external'), tooltip: vscode.l10n.t('Open Paper') };

/** How many results the quick pick shows. */
const LIMIT = 60;

/** Callbacks for what the item buttons do (kept outside so the search stays a picker). */
export interface SearchButtons {
  copyBibtex(entries: readonly Entry[]): Thenable<void> | void;
  openPaper(entry: Entry): Thenable<void> | void;
}

/** The entry picker: the search as a `QuickPick`, used by every command that needs entries. */
export class EntryPicker {
  /** @param config - the window's settings: the topic labels an item's detail shows */
  constructor(private readonly corpus: CorpusClient, private readonly buttons: SearchButtons, private readonly config: Pick<ConfigStore, 'topicLabels'>) {}

  /**
   * Shows the search and resolves with the entries the user accepted: the checked ones, or the
   * highlighted one when none is checked. Resolves with [] when dismissed.
   *
   * @param title - the quick pick's title
   * @param initial - initial query text
   */
  pick(title = vscode.l10n.t('MLSys Papers: Search'), initial = ''): Promise<Entry[]> {
    const qp = vscode.window.createQuickPick<EntryItem>();
    qp.title = title;
    qp.placeholder = vscode.l10n.t('Title, author, system name (vLLM, ZeRO…), key; filters: author: year:2022..2024 venue: topic:');
    qp.canSelectMany = true;
    qp.matchOnDescription = false;
    qp.matchOnDetail = false;
    // VS Code re-sorts items by label match unless told not to; the setter exists on the
    // extension-host QuickPick (API proposal `quickPickSortByLabel`) and is a no-op where it does not.
    (qp as unknown as { sortByLabel: boolean }).sortByLabel = false;
    qp.value = initial;

    const itemCache = new Map<string, EntryItem>();
    const itemOf = (entry: Entry, sameWork?: { key: string; library: string }): EntryItem => {
      const id = `${entry.library?.uri ?? ''}#${entry.key}#${sameWork?.key ?? ''}`;
      let item = itemCache.get(id);
      if (!item) {
        // Titles are long: authors, venue and year go on the detail line, where they stay visible;
        // then where the entry is: its topics, or the user's library (with the library icon).
        const where = entry.library ? `$(library) ${entry.library.name}` : topicPathOf(this.corpus.taxonomy, entry, this.config.topicLabels);
        const also = sameWork ? ` · ${vscode.l10n.t('in {0} as {1}', sameWork.library, sameWork.key)}` : '';
        item = {
          entry,
          label: entry.title,
          detail: `${entry.level === 'must-read' ? '⚡ ' : ''}${bylineOf(entry)} — ${where}${also}`,
          ...(entry.library ? { iconPath: new vscode.ThemeIcon('library'), description: entry.key } : {}),
          alwaysShow: true,
          buttons: [COPY_BIBTEX, OPEN_PAPER],
        };
        itemCache.set(id, item);
      }
      return item;
    };
    const checked = new Map<string, EntryItem>();
    let updating = false;
    // Answers come from the language server; a new keystroke cancels the request of the previous
    // one, and only the answer to the latest query is shown.
    let asked = 0;
    let inFlight: vscode.CancellationTokenSource | undefined;
    let pending: Promise<void> = Promise.resolve();
    /** @param again - the same query asked again after a load: the row the user is on stays the active one */
    const update = async (again = false) => {
      const query = qp.value;
      const was = again ? qp.activeItems[0]?.entry : undefined;
      const mine = ++asked;
      inFlight?.cancel();
      inFlight?.dispose();
      const cts = (inFlight = new vscode.CancellationTokenSource());
      qp.busy = true;
      let answer;
      try {
        answer = await this.corpus.search(query, LIMIT, cts.token);
      } catch (e) {
        // A superseded query was cancelled on purpose; only the latest one's failure is news.
        if (mine === asked) qp.title = vscode.l10n.t('{0} (search failed: {1})', title, e instanceof Error ? e.message : String(e));
        return;
      } finally {
        if (mine === asked) qp.busy = false;
      }
      if (mine !== asked) return;
      const { invalid } = answer;
      const hits = answer.entries.map((e) => itemOf(e, e.library ? undefined : answer.sameWorkInLibraries[e.key]));
      // Checked entries stay at the top while the user searches for more.
      const items = [...checked.values(), ...hits.filter((i) => !checked.has(i.entry.key))];
      updating = true;
      qp.items = items;
      qp.selectedItems = [...checked.values()];
      // With canSelectMany no row is focused by default; focus our best hit so Enter takes it.
      const best = hits.find((i) => !checked.has(i.entry.key)) ?? items[0];
      const stay = was && items.find((i) => i.entry === was || (i.entry.key === was.key && i.entry.library?.uri === was.library?.uri));
      qp.activeItems = stay ? [stay] : best ? [best] : [];
      updating = false;
      qp.title = invalid.length ? vscode.l10n.t('{0} (not understood: {1}; try year:2023 or year:2022..2024)', title, invalid.join(', ')) : title;
    };

    return new Promise<Entry[]>((resolve) => {
      let done = false;
      const finish = (entries: Entry[]) => {
        if (done) return;
        done = true;
        resolve(entries);
        qp.hide();
      };
      const subs: vscode.Disposable[] = [
        qp.onDidChangeValue(() => { pending = update(); }),
        // The corpus reloaded or a library loaded or changed while the search is open: what was
        // typed is asked again, so a query typed during a load finds what the load brought.
        this.corpus.onDidChange(() => { pending = update(true); }),
        this.corpus.onDidChangeLibraries(() => { pending = update(true); }),
        qp.onDidChangeSelection((sel) => {
          if (updating) return;
          const shown = new Set(qp.items.map((i) => i.entry.key));
          for (const key of [...checked.keys()]) if (shown.has(key) && !sel.some((s) => s.entry.key === key)) checked.delete(key);
          for (const s of sel) checked.set(s.entry.key, s);
        }),
        qp.onDidAccept(async () => {
          // Enter right after typing: take the best hit of what was typed, not of the query before.
          await pending;
          const chosen = checked.size ? [...checked.values()] : qp.activeItems.slice(0, 1);
          if (chosen.length) finish(chosen.map((i) => i.entry));
        }),
        qp.onDidTriggerItemButton(async ({ item, button }) => {
          if (button === COPY_BIBTEX) await this.buttons.copyBibtex([item.entry]);
          else if (button === OPEN_PAPER && entryLink(item.entry)) await this.buttons.openPaper(item.entry);
        }),
        qp.onDidHide(() => {
          inFlight?.cancel();
          inFlight?.dispose();
          subs.forEach((d) => d.dispose());
          qp.dispose();
          finish([]);
        }),
      ];
      pending = update();
      qp.show();
    });
  }
}
