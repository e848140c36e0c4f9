/**
 * Issue 27, loose end: blank CSL ids are each a problem. In a CSL-JSON and a CSL-YAML
 * bibliography, an item whose `id` is missing, empty, blank or neither a string nor a number is one
 * problem at its line naming the field, from the one reader of each format, whoever reads the file
 * (a document's bibliography, a library); the other items read; the bibliography file itself shows
 * each problem.
 */
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import { loadLibrary } from '../../src/core/library/loadLibrary.js';
import { serviceOver } from './memoryWorkspace.js';
import { worded } from './problemWords.js';

const JSON_TEXT = [
  '[',
  '  {"id": "a", "title": "A"},',
  '  {"title": "No id"},',
  '  {"id": "", "title": "Empty"},',
  '  {"id": "   ", "title": "Blank"},',
  '  {"id": ["x"], "title": "A list"},',
  '  {"id": true, "title": "A Boolean"},',
  '  {"id": 7, "title": "A number"}',
  ']',
  '',
].join('\n');

const YAML_TEXT = [
  'references:',
  '- id: a',
  '  title: A',
  '- title: No id',
  '- id: ""',
  '  title: Empty',
  '- id: "   "',
  '  title: Blank',
  '- id: [x]',
  '  title: A list',
  '- id: true',
  '  title: A Boolean',
  '- id: 7',
  '  title: A number',
  '',
].join('\n');

const EXPECTED = (lines: number[]) => [
  { line: lines[0], column: 1, severity: 'error', message: 'this CSL item has no "id"; skipped' },
  { line: lines[1], column: 1, severity: 'error', message: 'this CSL item\'s "id" is empty; skipped' },
  { line: lines[2], column: 1, severity: 'error', message: 'this CSL item\'s "id" is blank (only white space); skipped' },
  { line: lines[3], column: 1, severity: 'error', message: 'this CSL item\'s "id" is a list, not a string or a number; skipped' },
  { line: lines[4], column: 1, severity: 'error', message: 'this CSL item\'s "id" is a Boolean, not a string or a number; skipped' },
];

describe('blank CSL ids are each a problem naming line and field', () => {
  for (const [name, text, lines, format] of [
    ['refs.json', JSON_TEXT, [3, 4, 5, 6, 7], 'csl-json'],
    ['refs.yaml', YAML_TEXT, [4, 5, 7, 9, 11], 'csl-yaml'],
  ] as const) {
    it(`${name}: the reader gives one problem per item; the others read, as a document's bibliography and as a library`, () => {
      const file = readBibFile(name, text)!;
      expect(file.entries.map((e) => e.key)).toEqual(['a', '7']);
      expect(worded(file.problems)).toEqual(EXPECTED([...lines]));
      const lib = loadLibrary(text, format, { uri: `file:///ws/${name}`, name });
      expect(lib.entries.map((e) => e.key)).toEqual(['a', '7']);
      expect(lib.file.problems!).toEqual(file.problems);
    });

    it(`${name}: the bibliography file itself shows each problem at its line`, async () => {
      const doc = TextDocument.create(URI.file(`/ws/${name}`).toString(), format === 'csl-json' ? 'json' : 'yaml', 1, text);
      const diags = await serviceOver({ [`/ws/${name}`]: text }).diagnostics(doc);
      expect(diags.map((d) => [d.range.start.line + 1, d.message])).toEqual(EXPECTED([...lines]).map((p) => [p.line, p.message]));
    });
  }
});
