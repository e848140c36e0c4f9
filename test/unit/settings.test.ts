/**
 * The one settings schema (`src/core/config/settings.ts`) against `package.json`'s
 * `contributes.configuration`: every key, its type, enum, items, default and scope; and how a
 * hand-edited value that does not fit is read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  readSettings, scopeSettings, SETTINGS, SETTINGS_SECTION, topicLabelsOf, writesOutsideAllowed, type SettingName,
} from '../../src/core/config/settings.js';

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

  it('gives the service a scope\'s settings as read, unchanged, with what is not a setting beside them', () => {
    const raw = { latexCommand: 'citep', latexRoot: ' paper/main.tex ', allowWritesOutsideWorkspace: 'true' };
    expect(scopeSettings(raw, ['latexRoot', 'nosuch', 3, 'libraries'], 'zh-cn'))
      .toEqual({ settings: readSettings(raw), fromWorkspace: ['latexRoot', 'libraries'], language: 'zh-cn' });
    expect(scopeSettings(undefined)).toEqual({ settings: readSettings({}), fromWorkspace: [] });
  });

  it('allows writes outside the workspace only when the user, not a workspace, set allowWritesOutsideWorkspace', () => {
    expect(writesOutsideAllowed(scopeSettings({}))).toBe(false);
    expect(writesOutsideAllowed(scopeSettings({ allowWritesOutsideWorkspace: 'true' }))).toBe(false);
    expect(writesOutsideAllowed(scopeSettings({ allowWritesOutsideWorkspace: true }))).toBe(true);
    expect(writesOutsideAllowed(scopeSettings({ allowWritesOutsideWorkspace: true }, ['latexRoot']))).toBe(true);
    expect(writesOutsideAllowed(scopeSettings({ allowWritesOutsideWorkspace: true }, ['allowWritesOutsideWorkspace']))).toBe(false);
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
  });
});
