/**
 * `LibraryStore.readingOf`: a `.bib` that is both a library and a document's bibliography is read
 * once, by the library store, and handed to the citation service as `parseBib` would give it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { parseBib, type ParsedBib } from '../../src/core/bibliography/bibtexFile.js';
import { LibraryStore } from '../../src/server/libraryStore.js';

const URI_OF = URI.file('/ws/lib.bib');

/** A store holding one library read from `disk`, on a counted clock (1 ms a call): its slices are the same on any machine. */
function storeOf(disk: () => string): LibraryStore {
  const log = { info: () => {}, warn: () => {}, error: () => {} };
  let clock = 0;
  const store = new LibraryStore(log, { read: async () => ({ text: disk() }), yield: async () => {}, now: () => clock++ }, () => {}, () => {});
  store.setFiles(new Map([[URI_OF.toString(), { uri: URI_OF, fromDocument: false }]]));
  return store;
}

/** Entries as the service uses them: key, type, fields. */
const shape = (p: ParsedBib | undefined) => p?.entries.map((e) => ({ key: e.key, type: e.type, fields: e.fields }));

describe('LibraryStore.readingOf', () => {
  it.each(['library/betterbibtex.bib', 'library/jabref.bib', 'bib/bom-crlf.bib', 'bib/comments-strings.bib', 'bib/dupkeys.bib', 'bib/no-final-newline.bib'])(
    'gives what parseBib gives for %s', async (name) => {
      const text = readFileSync(join(__dirname, 'fixtures', name), 'utf8');
      const store = storeOf(() => text);
      const service = text.replace(/^\uFEFF/, '');
      const parsed = await store.readingOf(URI_OF, service);
      expect(parsed).toBeDefined();
      expect(shape(parsed)).toEqual(shape(parseBib(service)));
    });
});

describe('LibraryStore.readingOf after edits', () => {
  const entry = (i: number) => `@article{key${i},\n  title = {Title ${i}},\n  author = {Doe, Jo and Roe, Al},\n  journal = jk,\n  year = ${2000 + i},\n}\n`;
  const base = `@string{jk = {Journal of Kernels}}\n\n${[0, 1, 2, 3, 4].map(entry).join('\n')}`;
  /** An edit: replace `length` characters at `at` (both fractions of the text) with `insert`. */
  const edit = fc.record({
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    length: fc.nat(12),
    insert: fc.array(fc.constantFrom('a', 'Z', '1', ' ', '\n', '{', '}', '@', ',', '=', '"', '#', '%', '@misc{new, title = {New}}\n'), { maxLength: 6 }).map((a) => a.join('')),
  });
  const apply = (text: string, e: { at: number; length: number; insert: string }) => {
    const at = Math.floor(e.at * text.length);
    return text.slice(0, at) + e.insert + text.slice(at + e.length);
  };

  it('reads a stray "@" before the edited line again with it (a counterexample of the property below)', async () => {
    // "@\ntring{jk = …}": the "@" reads its type from the next line, so an edit of that line
    // changes what the "@" starts. The store kept the error of the old reading.
    let text = base;
    const store = storeOf(() => base);
    for (const e of [{ at: 0, length: 2, insert: '@\n' }, { at: 0.0036036036036036037, length: 5, insert: '' }]) {
      text = apply(text, e);
      const parsed = await store.readingOf(URI_OF, text);
      // A file with an error gets no reading from the store (parseBib keeps keys a library leaves out).
      expect(parsed === undefined, JSON.stringify(text.slice(0, 12))).toBe(!!parseBib(text).error);
      const fresh = storeOf(() => text);
      await fresh.readingOf(URI_OF, text);
      const lines = (st: LibraryStore) => (st.diagnostics().get(URI_OF.toString()) ?? []).map((d) => [d.range.start.line, d.severity, d.message]);
      expect(lines(store)).toEqual(lines(fresh));
    }
  });

  // LF; CRLF; and a file with a byte-order mark, which the service reads without it.
  it.each([
    ['LF', base, (t: string) => t],
    ['CRLF', base.replace(/\n/g, '\r\n'), (t: string) => t],
    ['a BOM on disk', base, (t: string) => `\uFEFF${t}`],
  ])('answers after each edit (%s) as a fresh read of the edited text does, and nothing where parseBib finds an error', async (_name, start, disk) => {
    await fc.assert(fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 5 }), async (edits) => {
      let text = start;
      const store = storeOf(() => disk(start));
      for (const e of edits) {
        text = apply(text, e);
        const parsed = await store.readingOf(URI_OF, text);
        const freshStore = storeOf(() => disk(text));
        const fresh = await freshStore.readingOf(URI_OF, text);
        expect(shape(parsed)).toEqual(shape(fresh));
        // Errors where a fresh read finds some; where it finds none, the same warnings on the same
        // lines. (In a file with errors, the details may differ: the range read again ends where a
        // fresh read would have looked on, so an error may be reported in more places.)
        const problems = (st: LibraryStore) => st.diagnostics().get(URI_OF.toString()) ?? [];
        const errors = (st: LibraryStore) => problems(st).some((d) => d.severity === DiagnosticSeverity.Error);
        expect(errors(store)).toBe(errors(freshStore));
        if (!errors(freshStore)) expect(problems(store).map((d) => [d.range.start.line, d.message])).toEqual(problems(freshStore).map((d) => [d.range.start.line, d.message]));
        // The same one reader: where parseBib finds an error, no reading (the service parses the file,
        // keeping the keys of entries broken after them, which a library leaves out).
        expect(parsed === undefined).toBe(!!parseBib(text).error);
      }
    }), { numRuns: 300 });
  });

  it('reads an edit again where it changed, and an edit of @string in full', async () => {
    const store = storeOf(() => base);
    const renamed = base.replace('key3,', 'key33,');
    expect(shape(await store.readingOf(URI_OF, renamed))?.map((e) => e.key)).toEqual(['key0', 'key1', 'key2', 'key33', 'key4']);
    const macro = renamed.replace('Journal of Kernels', 'Journal of Tiles');
    expect((await store.readingOf(URI_OF, macro))?.entries.map((e) => e.fields.journal)).toEqual(Array(5).fill('Journal of Tiles'));
  });
});

describe('LibraryStore.readingOf, a CSL library edited in its editor', () => {
  it('answers the text it read, and leaves an edited text to the service: no load of the whole file per keystroke', async () => {
    const uri = URI.file('/ws/lib.json');
    const log = { info: () => {}, warn: () => {}, error: () => {} };
    const disk = '[{"id": "a", "title": "A"}]';
    let reads = 0;
    let clock = 0;
    const store = new LibraryStore(log, { read: async () => { reads++; return { text: disk }; }, yield: async () => {}, now: () => clock++ }, () => {}, () => {});
    store.setFiles(new Map([[uri.toString(), { uri, fromDocument: true }]]));
    expect((await store.readingOf(uri, disk))?.entries.map((e) => e.key)).toEqual(['a']);
    expect(await store.readingOf(uri, '[{"id": "a", "title": "A"}, {"id": "b"}]')).toBeUndefined();
    // No load started: the library is as it was, read once.
    expect([reads, store.status()[0]!.state, store.status()[0]!.entries]).toEqual([1, 'ready', 1]);
  });
});
