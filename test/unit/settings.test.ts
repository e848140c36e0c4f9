/**
 * The one settings schema (`src/core/config/settings.ts`) against `package.json`'s
 * `contributes.configuration`: every key, its type, enum, items, default and scope; and how a
 * hand-edited value that does not fit is read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { readSettings, SETTINGS, SETTINGS_SECTION, topicLabelsOf, type SettingName } from '../../src/core/config/settings.js';
import { documentSettingsFrom, documentSettingsOf } from '../../src/core/service/types.js';

interface Declared { type?: unknown; enum?: unknown; items?: unknown; default?: unknown; scope?: unknown }
const pkg = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, Declared> } | { properties: Record<string, Declared> }[] } };
const declared = Object.fromEntries([pkg.contributes.configuration].flat().flatMap((c) => Object.entries(c.properties)));

/** What package.json says of a value's shape: the JSON Schema fields VS Code reads. */
const shape = (d: Declared) => ({ type: d.type, ...(d.enum ? { enum: d.enum } : {}), ...(d.items ? { items: d.items } : {}) });

describe('the settings schema', () => {
  it('has every setting package.json declares, and no other', () => {
    expect(Object.keys(SETTINGS).map((k) => `${SETTINGS_SECTION}.${k}`).sort()).toEqual(Object.keys(declared).sort());
  });

  it.each(Object.keys(SETTINGS) as SettingName[])('declares %s as package.json does: type, enum, items, default, scope', (name) => {
    const d = declared[`${SETTINGS_SECTION}.${name}`]!;
    const spec = SETTINGS[name];
    const { $schema: _, ...schema } = z.toJSONSchema(spec.schema) as Record<string, unknown>;
    expect(schema).toEqual(shape(d));
    expect(spec.default).toEqual(d.default);
    expect(spec.scope).toBe(d.scope);
  });

  it('reads each setting on its own: a value that does not fit is its default, the others are kept', () => {
    const s = readSettings({
      latexCommand: 'footcite', markdownStyle: 'link', corpusFiles: ['a.yaml', '  ', 3, null], libraries: 'refs.bib', maxFileSizeMB: '50',
      levels: ['advanced', 'expert'], topicLabels: 'klingon', syncBibliography: 'yes', latexRoot: '  main.tex ', citationStyle: '   ',
    });
    expect(s).toMatchObject({
      latexCommand: 'cite', markdownStyle: 'link', corpusFiles: ['a.yaml'], libraries: [], maxFileSizeMB: 200,
      levels: ['advanced'], topicLabels: 'auto', syncBibliography: true, latexRoot: 'main.tex', citationStyle: 'apa',
    });
    expect(readSettings({ levels: ['expert'] }).levels).toEqual(['must-read', 'optional', 'advanced']);
    expect(readSettings(null)).toEqual(readSettings({}));
    expect(readSettings({})).toEqual(Object.fromEntries(Object.entries(SETTINGS).map(([k, v]) => [k, v.default])));
  });

  it('gives the service a document\'s settings from the same reading', () => {
    expect(documentSettingsFrom({ latexCommand: 'citep', latexRoot: ' ', allowWritesOutsideWorkspace: 'true' }, true))
      .toEqual({
        latexCommand: 'citep', markdownStyle: 'pandoc', syncBibliography: true, latexRoot: undefined, latexRootFromWorkspace: true,
        recordChecks: 'information', recordChecksInDocuments: 'off', namedSystemHints: true, topicLabels: 'en',
      });
    expect(documentSettingsFrom({ latexRoot: 'paper/main.tex', allowWritesOutsideWorkspace: true })).toMatchObject({ latexRoot: 'paper/main.tex', allowWritesOutside: true });
  });

  it('resolves the topic labels from the setting, the older switch and the display language', () => {
    const labels = (raw: Record<string, unknown>, language?: string) => topicLabelsOf(readSettings(raw), language);
    expect(labels({})).toBe('en');
    expect(labels({}, 'zh-cn')).toBe('zh');
    expect(labels({}, 'ZH-TW')).toBe('zh');
    expect(labels({}, 'zhx')).toBe('en');
    expect(labels({ topicLabels: 'english' }, 'zh-cn')).toBe('en');
    expect(labels({ topicLabels: 'chinese' })).toBe('zh');
    expect(labels({ topicLabels: 'both' })).toBe('both');
    expect(labels({ showChineseLabels: true }, 'zh-cn')).toBe('both');
    expect(labels({ topicLabels: 'english', showChineseLabels: true })).toBe('en');
    // The service's settings of a document carry the labels the locale gives.
    expect(documentSettingsOf(readSettings({}), false, 'zh-cn').topicLabels).toBe('zh');
  });
});
