/**
 * Go to definition in CSL-JSON and CSL-YAML bibliographies, through the citation service: it lands
 * on the item's `id` value, as it lands on the key in `@type{key,` for BibTeX. The bibliography is
 * read by the library readers (`readBibFile`), which place every item and its `id`.
 */
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Range } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import type { CitationService } from '../../src/core/service/service.js';
import { serviceOver } from './memoryWorkspace.js';
import { worded } from './problemWords.js';

const service = (files: Record<string, string>) => serviceOver(files, { clientUi: () => true });

/** Where go to definition on `[@key]` in a Markdown paper whose bibliography is `bib` lands. */
async function definitionOf(bib: string, text: string, key: string) {
  const paper = `---\nbibliography: ${bib}\n---\nAs shown [@${key}].\n`;
  const doc = TextDocument.create(URI.file('/ws/paper.md').toString(), 'markdown', 1, paper);
  return service({ '/ws/paper.md': paper, [`/ws/${bib}`]: text }).definition(doc, doc.positionAt(paper.indexOf(`@${key}`) + 2));
}

/** The empty range at the `n`-th occurrence of `needle` in `text`, plus `shift` characters. */
function at(text: string, needle: string, shift = 0, n = 0): Range {
  let i = -1;
  for (let k = 0; k <= n; k++) i = text.indexOf(needle, i + 1);
  if (i < 0) throw new Error(`${needle} not in the text`);
  const pos = TextDocument.create('x:', 'plaintext', 1, text).positionAt(i + shift);
  return Range.create(pos, pos);
}

const uri = (name: string) => URI.file(`/ws/${name}`).toString();

describe('go to definition in a CSL bibliography', () => {
  it('CSL-JSON: the id value of the item, not a title or a nested "id" that reads the same', async () => {
    const json = [
      '[',
      '  {"title": "id", "note": {"id": "smith2021"}, "type": "book", "id": "decoy"},',
      '  {',
      '    "type": "article-journal",',
      '    "title": "Paging Tricks",',
      '    "id" : "smith2021"',
      '  }',
      ']',
    ].join('\r\n');
    expect(await definitionOf('refs.json', json, 'smith2021')).toEqual({ uri: uri('refs.json'), range: at(json, '"smith2021"\r\n', 1) });
    expect(await definitionOf('refs.json', json, 'decoy')).toEqual({ uri: uri('refs.json'), range: at(json, 'decoy') });
  });

  it('CSL-JSON: a minified file, a BOM, a numeric id, and the items around one that does not read', async () => {
    const json = '\uFEFF[{"id":"a","title":"A"},{"title":"no id"},{"id":7},{"title":"B","id":"b"}]';
    expect(await definitionOf('refs.json', json, 'b')).toEqual({ uri: uri('refs.json'), range: at(json.slice(1), '"b"', 1) });
    expect(await definitionOf('refs.json', json, 'a')).toEqual({ uri: uri('refs.json'), range: at(json.slice(1), '"a"', 1) });
    expect(await definitionOf('refs.json', json, '7')).toEqual({ uri: uri('refs.json'), range: at(json.slice(1), '7}') });
  });

  it('CSL-YAML: the id value in Pandoc\'s references list, quoted or not, first key or not', async () => {
    const yaml = [
      '---',
      'references:',
      '- type: book',
      '  id: jones2020',
      '  title: Books',
      '- id: "smith2021"',
      '  title: "id: smith2021"',
      '...',
    ].join('\n');
    expect(await definitionOf('refs.yaml', yaml, 'jones2020')).toEqual({ uri: uri('refs.yaml'), range: Range.create(3, 6, 3, 6) });
    expect(await definitionOf('refs.yaml', yaml, 'smith2021')).toEqual({ uri: uri('refs.yaml'), range: Range.create(5, 7, 5, 7) });
  });

  it('CSL-YAML read as one document (an anchor), and ids written after other fields', async () => {
    const anchored = 'references:\n- id: a\n  author: &me\n    - family: Roe\n- id: b\n  author: *me\n';
    expect(await definitionOf('refs.yml', anchored, 'b')).toEqual({ uri: uri('refs.yml'), range: Range.create(4, 6, 4, 6) });
    const plain = '# mine\nreferences:\n- title: x\n  id: \'c\'\n';
    expect(await definitionOf('refs.yml', plain, 'c')).toEqual({ uri: uri('refs.yml'), range: Range.create(3, 7, 3, 7) });
  });

  it('prefers the item whose id matches exactly (pandoc\'s ids are case-sensitive)', async () => {
    const json = '[{"id": "Key"},\n {"id": "key"}]';
    expect(await definitionOf('refs.json', json, 'key')).toEqual({ uri: uri('refs.json'), range: Range.create(1, 9, 1, 9) });
    expect(await definitionOf('refs.json', json, 'KEY')).toEqual({ uri: uri('refs.json'), range: Range.create(0, 9, 0, 9) });
  });

  it('a key the bibliography lacks goes where it went: the corpus entry, or nowhere', async () => {
    const json = '[{"id": "a"}]';
    expect(await definitionOf('refs.json', json, 'kwon2023efficient')).toEqual({ uri: 'mlsys-papers:/kwon2023efficient.bib', range: Range.create(0, 0, 0, 0) });
    expect(await definitionOf('refs.json', json, 'nosuch')).toBeUndefined();
  });
});

describe('readBibFile reads CSL with the library readers', () => {
  it('gives each item its line, offset and key offset, and a broken item is a problem at its line while the others read', () => {
    const text = '[\n  {"id": "a"},\n  {"title": "no id"},\n  {"id": "b"}\n]\n';
    const json = readBibFile('refs.json', text)!;
    expect(json.entries.map((e) => [e.key, e.line, e.start, e.keyStart])).toEqual([
      ['a', 2, text.indexOf('{"id": "a"'), text.indexOf('a"')],
      ['b', 4, text.indexOf('{"id": "b"'), text.indexOf('b"')],
    ]);
    expect(worded(json.error)).toEqual({ line: 3, column: 1, message: 'this CSL item has no "id"; skipped' });
    // A file that does not read cleanly is never written to.
    expect(json.problems).toHaveLength(1);
    const yaml = readBibFile('refs.yaml', 'references:\n- id: a\n- id: b: c\n- id: c\n')!;
    expect(yaml.entries.map((e) => [e.key, e.line])).toEqual([['a', 2], ['c', 4]]);
    expect(yaml.error?.line).toBe(3);
  });

  it('gives a CSL item the fields cards and completion show', () => {
    const [e] = readBibFile('refs.yaml', 'references:\n- id: a\n  title: T\n  author:\n  - {family: Doe, given: Jane}\n  - {literal: ACME}\n  issued: {date-parts: [[2021, 3]]}\n  container-title: J\n  DOI: 10.1145/x\n')!.entries;
    expect(e!.fields).toEqual({ title: 'T', author: 'Doe, Jane and ACME', year: '2021', journal: 'J', doi: '10.1145/x' });
    expect(e!.csl?.id).toBe('a');
  });
});
