/**
 * One model of a bibliography file (issue 27, move 2): a library is a `BibFile`, the one a
 * document's bibliography is (`readBibFile`), plus an index over it. Loaded, restored from the
 * cache and edited in place, its file reads as `readBibFile` reads the same text; a reading taken
 * before an edit keeps reading the text it was taken of.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBibFile, type BibFile } from '../../src/core/bibliography/bibFile.js';
import { libraryFromJson, libraryToJson } from '../../src/core/library/libraryCacheFormat.js';
import { loadLibrary, sharedReading } from '../../src/core/library/loadLibrary.js';
import { updateBibtexLibrary } from '../../src/server/libraryEdit.js';

const REF = { uri: 'file:///ws/lib.bib', name: 'lib.bib' };
const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8').replace(/^\uFEFF/, '');

/** What the service and the planners read of a file: every entry's key, type, fields, offsets and line; the problems; the macros' names. */
const shape = (f: BibFile | undefined) => f && {
  format: f.format, text: f.text,
  entries: f.entries.map((e) => ({ key: e.key, type: e.type, fields: { ...e.fields }, start: e.start, end: e.end, line: e.line })),
  problems: f.problems ?? [], error: f.error, commented: f.commented ?? [],
};

describe('a library is the BibFile a document reads, plus an index', () => {
  it.each(['library/betterbibtex.bib', 'library/jabref.bib', 'bib/bom-crlf.bib', 'bib/comments-strings.bib', 'bib/dupkeys.bib', 'bib/no-final-newline.bib'])(
    '%s: loaded, and restored from the cache, its file reads as readBibFile reads it', (name) => {
      const text = fixture(name);
      const lib = loadLibrary(text, 'bibtex', REF);
      const want = shape(readBibFile('lib.bib', text));
      expect(shape(sharedReading(lib))).toEqual(want);
      // One entry for search per entry of the file, in its order.
      expect(lib.entries.map((e) => [e.key, e.library!.line])).toEqual(lib.file.entries.map((e) => [e.key, e.line]));
      const back = libraryFromJson(libraryToJson(lib), REF, undefined, text)!;
      expect(shape(sharedReading(back))).toEqual(want);
    });

  it('an entry broken after its key: the library leaves it out and is not shared (readBibFile keeps it, as BibTeX does)', () => {
    const text = '@article{good, title = {A}}\n@article{broken, title = {B} year = 2020}\n';
    const lib = loadLibrary(text, 'bibtex', REF);
    expect(readBibFile('lib.bib', text)!.entries.map((e) => e.key)).toEqual(['good', 'broken']);
    expect(lib.file.entries.map((e) => e.key)).toEqual(['good']);
    expect(lib.file.error).toBeDefined();
    expect(sharedReading(lib)).toBeUndefined();
  });

  it.each([
    ['csl-json', 'lib.json', '[{"id": "a", "type": "book", "title": "A"},\n{"id": " b ", "type": "book", "title": "B"},\n{"id": "  "}]'],
    ['csl-yaml', 'lib.yaml', '- id: a\n  type: book\n  title: A\n- id: b\n  title: B\n- title: no id\n'],
  ] as const)('a %s library is a BibFile too: read from its text, shared; restored from the cache (no offsets), not', (format, name, text) => {
    const lib = loadLibrary(text, format, REF);
    const want = readBibFile(name, text)!;
    const csl = (f: BibFile | undefined) => f && { entries: f.entries.map((e) => ({ key: e.key, line: e.line, start: e.start, keyStart: e.keyStart, fields: e.fields, csl: e.csl })), problems: f.problems, error: f.error };
    expect(csl(sharedReading(lib))).toEqual(csl(want));
    expect(lib.entries).toHaveLength(lib.file.entries.length);
    const back = libraryFromJson(libraryToJson(lib), REF, undefined, text)!;
    expect(back.file.entries.map((e) => e.key)).toEqual(want.entries.map((e) => e.key));
    expect(sharedReading(back)).toBeUndefined();
  });

  it('edited in place, the file is the edited text\'s; a reading taken before the edit still reads the old text', () => {
    const old = '@string{v = {Venue}}\n@article{a, title = {Alpha}, journal = v}\n@article{b, title = {Beta}}\n@article{c, title = {Gamma}}\n';
    const text = old.replace('{Beta}', '{Beta, longer now}');
    const lib = loadLibrary(old, 'bibtex', REF);
    const before = lib.file;
    expect(updateBibtexLibrary(lib, old, text, REF)).not.toBe(false);
    expect(lib.file).not.toBe(before);
    expect(shape(sharedReading(lib))).toEqual(shape(readBibFile('lib.bib', text)));
    // The fields of the old reading, first asked for after the edit.
    expect(shape(before)).toEqual(shape(readBibFile('lib.bib', old)));
    expect(lib.file.entries.map((e) => e.fields.journal ?? e.fields.title)).toEqual(['Venue', 'Beta, longer now', 'Gamma']);
    expect(before.entries.map((e) => e.fields.journal ?? e.fields.title)).toEqual(['Venue', 'Beta', 'Gamma']);
  });
});

describe('an entry type that is a member of every object', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('@%s is misc, loaded and restored', (type) => {
    const text = `@${type}{k, title = {T}}\n`;
    const lib = loadLibrary(text, 'bibtex', REF);
    expect(lib.entries.map((e) => [e.key, e.type, e.kind])).toEqual([['k', 'misc', 'paper']]);
    expect(libraryFromJson(libraryToJson(lib), REF, undefined, text)!.entries.map((e) => [e.type, e.kind])).toEqual([['misc', 'paper']]);
    const csl = loadLibrary(`[{"id": "k", "type": "${type}"}]`, 'csl-json', REF);
    expect(csl.entries.map((e) => e.type)).toEqual(['misc']);
  });
});
