/**
 * Literature notes: the pure parts (`src/core/notes/literatureNote.ts`: the file name made safe
 * from any key, the template's rendering, reading `citekey:` and `read:` back) with generated
 * inputs, and the server's plan (`mlsysPapers/planNote`): where the note goes, never outside the
 * workspace by real path, and the text of a new one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { URI, Utils } from 'vscode-uri';
import * as yaml from 'yaml';
import {
  DEFAULT_NOTE_TEMPLATE, keyOfNoteName, MAX_NOTE_NAME_BYTES, noteFields, noteFileName, notesFolderOf, noteFrontMatter, pandocCitationOf, renderNoteTemplate, type NoteFields,
} from '../../src/core/notes/literatureNote.js';
import { scanPandoc } from '../../src/core/markdown/pandoc.js';
import { Methods, type PlanNoteResult } from '../../src/server/protocol.js';
import { start } from './serverHarness.js';

/** Any key: printable and not, separators, dots, Windows device names, long, non-BMP. */
const keyArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('.', '/', '\\', ':', '%', ' ', '\u0000', '\u001b', '\u202e', 'a', 'é', '中', '𝒳', '~', '*', '?'), maxLength: 30 }),
  fc.constantFrom('..', '.', '', 'con', 'NUL.txt', 'com1', 'lpt9.x', '.hidden', 'trailing.', 'a/../../etc/passwd', 'C:\\x', 'a'.repeat(400), '中'.repeat(200)),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
);

const UNSAFE = /[/\\:*?"<>|\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u;

describe('the note\'s file name', () => {
  it('is one plain file name for any key: no separator, control or format character, no leading or trailing dot, no device name, at most 255 bytes', () => {
    fc.assert(fc.property(keyArb, (key) => {
      const name = noteFileName(key);
      expect(name.endsWith('.md')).toBe(true);
      const stem = name.slice(0, -3);
      expect(stem).not.toMatch(UNSAFE);
      expect(stem.startsWith('.') || stem.endsWith('.') || stem.endsWith(' ')).toBe(false);
      expect(stem).not.toMatch(/^(?:con|prn|aux|nul|com\d|lpt\d)(?:\.|$)/i);
      expect(new TextEncoder().encode(stem).length).toBeLessThanOrEqual(MAX_NOTE_NAME_BYTES);
      // Joined to a folder it stays a direct child of it.
      const folder = URI.file('/ws/notes');
      const uri = Utils.joinPath(folder, name);
      expect(Utils.dirname(uri).path).toBe(folder.path);
      expect(Utils.basename(uri)).toBe(name);
    }), { numRuns: 2000 });
  });

  it('gives the key back (two keys, two names), unless it was cut', () => {
    fc.assert(fc.property(keyArb, keyArb, (a, b) => {
      const [na, nb] = [noteFileName(a), noteFileName(b)];
      const whole = (k: string, n: string) => keyOfNoteName(n) === k;
      if (whole(a, na) && whole(b, nb) && a !== b) expect(na).not.toBe(nb);
    }), { numRuns: 2000 });
    for (const key of ['kwon2023efficient', 'Müller:2020.x', 'a/b', '%41', '.x.', 'con', '中文2024']) expect(keyOfNoteName(noteFileName(key))).toBe(key);
    expect(noteFileName('kwon2023efficient')).toBe('kwon2023efficient.md');
    expect(noteFileName('../../etc/passwd')).toBe('%2E.%2F..%2Fetc%2Fpasswd.md');
    expect(keyOfNoteName(noteFileName('x'.repeat(500)))).toBeUndefined();
    expect(noteFileName('x'.repeat(500))).not.toBe(noteFileName(`${'x'.repeat(499)}y`));
    expect(keyOfNoteName('README.md')).toBe('README');
    expect(keyOfNoteName('a%2.md')).toBeUndefined();
  });
});

const FIELDS: NoteFields = {
  key: 'kwon2023efficient', title: 'Efficient Memory Management for LLM Serving with PagedAttention', authors: ['Woosuk Kwon', 'Zhuohan Li'],
  venue: 'SOSP', year: '2023', links: ['https://arxiv.org/abs/2309.06180'], topics: ['serving.memory'], tags: ['literature-note'], date: '2024-05-01',
};

describe('the note\'s template', () => {
  it('fills the default template: front matter YAML reads back as the fields, the body cites the key', () => {
    const text = renderNoteTemplate(DEFAULT_NOTE_TEMPLATE, FIELDS);
    const fm = yaml.parse(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]!) as Record<string, unknown>;
    expect(fm).toMatchObject({ title: FIELDS.title, citekey: FIELDS.key, authors: FIELDS.authors, venue: 'SOSP', year: '2023', links: FIELDS.links, topics: FIELDS.topics, tags: FIELDS.tags, read: false });
    expect(text).toContain('\n# Efficient Memory Management for LLM Serving with PagedAttention\n');
    expect(scanPandoc(text).keys.map((k) => k.key)).toEqual(['kwon2023efficient']);
  });

  it('writes any title, author or key so that the front matter stays YAML with the same values and the body adds no markup', () => {
    const str = fc.string({ unit: 'binary', maxLength: 40 });
    fc.assert(fc.property(str, fc.array(str, { maxLength: 3 }), keyArb, (title, authors, key) => {
      const f = { ...FIELDS, key, title, authors };
      const text = renderNoteTemplate(DEFAULT_NOTE_TEMPLATE, f);
      const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
      expect(m).not.toBeNull();
      const fm = yaml.parse(m![1]!) as Record<string, unknown>;
      expect(fm.title).toBe(title);
      expect(fm.citekey).toBe(key);
      expect(fm.authors).toEqual(authors);
      const body = text.slice(m![0].length);
      expect(body).not.toMatch(/<[a-z]|\]\(/i);
    }), { numRuns: 500 });
  });

  it('writes values in the quotes a template puts around a placeholder, and keeps unknown placeholders', () => {
    const t = '---\ntitle: "{{title}}"\nshort: \'{{venue}}\'\nother: "{{nothing}}"\n---\n{{title}} by {{authors}} {{cite}}\n';
    const text = renderNoteTemplate(t, { ...FIELDS, title: 'A "quoted" *title*', venue: "It's" });
    expect(yaml.parse(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]!)).toEqual({ title: 'A "quoted" *title*', short: "It's", other: '{{nothing}}' });
    expect(text).toContain('A "quoted" \\*title\\* by Woosuk Kwon, Zhuohan Li [@kwon2023efficient]');
  });

  it('cites any key the way pandoc reads it', () => {
    expect(pandocCitationOf('kwon2023efficient')).toBe('[@kwon2023efficient]');
    expect(pandocCitationOf('a)b')).toBe('[@{a)b}]');
    for (const key of ['a)b', 'x.', '中文', '_a', 'https://doi.org/10.1/x', 'Müller:2020']) expect(scanPandoc(pandocCitationOf(key)).keys.map((k) => k.key)).toEqual([key]);
  });

  it('takes an entry\'s fields, and the key alone for a key nothing knows', () => {
    expect(noteFields('nosuch', undefined, new Date(2024, 4, 1, 12))).toEqual({ key: 'nosuch', title: 'nosuch', authors: [], venue: '', year: '', links: [], topics: [], tags: ['literature-note'], date: '2024-05-01' });
    // The local calendar day, late in the evening too (a UTC date would be the next day west of Greenwich).
    expect(noteFields('nosuch', undefined, new Date(2024, 4, 1, 23, 59)).date).toBe('2024-05-01');
  });
});

describe('reading a note\'s front matter', () => {
  it('reads citekey and read: true or false, quoted or not, with a comment', () => {
    expect(noteFrontMatter('---\ntitle: x\ncitekey: "a:b"\nread: true # done\n---\nbody read: false\n')).toEqual({ citekey: 'a:b', read: true });
    expect(noteFrontMatter('---\nread: False\ncitekey: \'it\'\'s\'\n...\n')).toEqual({ citekey: "it's", read: false });
    expect(noteFrontMatter('\uFEFF---\r\nread: TRUE\r\n---\r\n')).toEqual({ read: true });
  });
  it('reads nothing else as read: a string, yes, an indented key, text after the front matter, no front matter', () => {
    for (const t of ['---\nread: "true"\n---\n', '---\nread: yes\n---\n', '---\nx:\n  read: true\n---\n', '---\ntitle: x\n---\nread: true\n', 'read: true\n', '---\nread: true\n']) {
      expect(noteFrontMatter(t).read, t).toBeUndefined();
    }
  });
  it('never throws, whatever the text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => { noteFrontMatter(`---\n${s}\n---\n`); noteFrontMatter(s); }));
  });
});

describe('mlsysPapers/planNote', () => {
  const plan = async (files: Record<string, string>, key: string, settings: Record<string, unknown> = {}, extra = {}) => {
    const s = await start(files, { citationStyle: 'apa', ...settings }, extra);
    try {
      return await s.client.sendRequest(Methods.planNote, { key, scope: URI.file('/ws/a.md').toString() }) as PlanNoteResult;
    } finally {
      s.dispose();
    }
  };

  it('plans notes/<key>.md from the default template with the entry\'s fields', async () => {
    const r = await plan({}, 'kwon2023efficient');
    expect(r).toMatchObject({ uri: URI.file('/ws/notes/kwon2023efficient.md').toString(), exists: false });
    const text = (r as { text: string }).text;
    expect(text).toContain('title: "Efficient Memory Management for Large Language Model Serving with PagedAttention"');
    expect(text).toContain('[@kwon2023efficient]');
    expect(text).toMatch(/^read: false$/m);
  });

  it('says when the note exists; takes the folder and template settings', async () => {
    expect(await plan({ '/ws/notes/kwon2023efficient.md': '# mine\n' }, 'kwon2023efficient')).toEqual({ uri: URI.file('/ws/notes/kwon2023efficient.md').toString(), exists: true });
    const r = await plan({ '/ws/tpl.md': '# {{title}} ({{year}})\n' }, 'kwon2023efficient', { notesFolder: 'reading/papers', noteTemplate: 'tpl.md' });
    expect(r).toEqual({ uri: URI.file('/ws/reading/papers/kwon2023efficient.md').toString(), exists: false, text: '# Efficient Memory Management for Large Language Model Serving with PagedAttention (2023)\n' });
  });

  it('never plans a note outside the workspace: .. in the folder, an absolute folder, a key with separators, a folder that links elsewhere', async () => {
    for (const notesFolder of ['../elsewhere', '/tmp/notes', 'notes/../../x']) {
      expect(await plan({}, 'kwon2023efficient', { notesFolder })).toMatchObject({ error: expect.stringContaining('not inside the workspace folder') });
    }
    const r = await plan({}, '../../../etc/passwd');
    expect(URI.parse((r as { uri: string }).uri).path).toBe('/ws/notes/%2E.%2F..%2F..%2Fetc%2Fpasswd.md');
    // `notes` is a symlink to /tmp/outside: its real path is not in the workspace.
    const realPath = async (u: URI) => (u.path.startsWith('/ws/notes') ? u.with({ path: u.path.replace('/ws/notes', '/tmp/outside') }) : u);
    expect(await plan({}, 'kwon2023efficient', {}, { fileSystem: { realPath } })).toMatchObject({ error: expect.stringContaining('not inside the workspace folder') });
  });
});

describe('the notes folder a setting names (notesFolderOf, the server\'s and the client\'s one rule)', () => {
  it('joins a relative path inside the workspace folder; refuses an absolute one or one that leaves it', () => {
    const ws = URI.file('/ws');
    expect(notesFolderOf(ws, 'notes')?.path).toBe('/ws/notes');
    expect(notesFolderOf(ws, 'reading/papers/')?.path).toBe('/ws/reading/papers');
    expect(notesFolderOf(ws, 'a/../notes')?.path).toBe('/ws/notes');
    for (const bad of ['../elsewhere', '/tmp/notes', 'notes/../../x', 'C:\\notes', '\\\\server\\share', '..']) expect(notesFolderOf(ws, bad), bad).toBeUndefined();
  });
});
