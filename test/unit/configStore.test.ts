/**
 * The extension's `ConfigStore` (`src/features/config.ts`) over a stand-in `vscode` module: its
 * snapshot is the one schema's reading, not reshaped; its topic labels come from the same
 * `topicLabelsOf` the language server's hovers use, with the display language passed as a value;
 * and it fires only when a value it holds changes.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readSettings, topicLabelsOf } from '../../src/core/config/settings.js';

type Listener = (e: { affectsConfiguration(section: string): boolean }) => void;
const host = vi.hoisted(() => ({ values: {} as Record<string, unknown>, listeners: [] as ((e: unknown) => void)[] }));

vi.mock('vscode', () => {
  class EventEmitter<T> {
    private readonly listeners: ((v: T) => void)[] = [];
    readonly event = (l: (v: T) => void) => { this.listeners.push(l); return { dispose() {} }; };
    fire(v: T): void { for (const l of this.listeners) l(v); }
    dispose(): void {}
  }
  return {
    EventEmitter,
    ConfigurationTarget: { Global: 1 },
    workspace: {
      getConfiguration: () => ({ get: (key: string) => host.values[key] }),
      onDidChangeConfiguration: (l: Listener) => { host.listeners.push(l as (e: unknown) => void); return { dispose() {} }; },
    },
  };
});

const { ConfigStore } = await import('../../src/features/config.js');

/** The user edits settings.json: every listener hears of a change to the section. */
function edit(values: Record<string, unknown>): void {
  host.values = values;
  for (const l of host.listeners) l({ affectsConfiguration: (s: string) => s === 'mlsysPapers' });
}

beforeEach(() => {
  host.values = {};
  host.listeners = [];
});

describe('ConfigStore', () => {
  it('holds the one schema\'s reading of the settings, less the two only the server reads', () => {
    host.values = { latexCommand: 'citep', topicLabels: 'klingon', levels: ['advanced', 'expert'], maxFileSizeMB: 5 };
    const { maxFileSizeMB: _m, allowWritesOutsideWorkspace: _w, ...read } = readSettings(host.values);
    const value = new ConfigStore('en').value;
    expect(value).toEqual(read);
    expect(value).not.toHaveProperty('maxFileSizeMB');
  });

  it('gives the topic labels of topicLabelsOf, with the display language it was given as a value', () => {
    for (const language of ['en', 'zh-cn', 'zh-tw', 'fr']) {
      for (const values of [{}, { topicLabels: 'english' }, { topicLabels: 'chinese' }, { topicLabels: 'both' }, { showChineseLabels: true }]) {
        host.values = values;
        expect(new ConfigStore(language).topicLabels).toBe(topicLabelsOf(readSettings(values), language));
      }
    }
    host.values = {};
    expect(new ConfigStore('zh-cn').topicLabels).toBe('zh');
    expect(new ConfigStore('en').topicLabels).toBe('en');
    const store = new ConfigStore('zh-cn');
    edit({ topicLabels: 'english' });
    expect(store.topicLabels).toBe('en');
  });

  it('fires only when a value it holds changes', () => {
    host.values = { latexCommand: 'cite' };
    const store = new ConfigStore('en');
    const fired: string[] = [];
    store.onDidChange((c) => fired.push(c.latexCommand));
    edit({ latexCommand: 'cite' });
    edit({ latexCommand: 'cite', maxFileSizeMB: 10, allowWritesOutsideWorkspace: true });
    edit({ latexCommand: 'cite', markdownStyle: 'klingon' });
    expect(fired).toEqual([]);
    edit({ latexCommand: 'citep' });
    expect(fired).toEqual(['citep']);
    expect(store.value.latexCommand).toBe('citep');
  });
});
