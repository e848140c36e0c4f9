/**
 * The rewrite of an entry (`planEntryRewrite`) is read back like every other edit of a
 * bibliography file (`fileEdit.ts`'s `readsBackAs`): the result must read as the same entries with
 * only the change asked for. Before, a rewrite was read back for its keys, new errors and the
 * presence of the record's fields only, so a record field written beside the writer's own field of
 * the same name (the record's `note = {In Chinese}` of a CJK title, before the writer's `note`)
 * passed: BibTeX reads the first of a repeated field, so the writer's note was no longer read.
 */
import { describe, expect, it } from 'vitest';
import { readBibFile } from '../../src/core/bibliography/bibFile.js';
import { applySplices } from '../../src/core/bibliography/fileEdit.js';
import { planEntryRewrite } from '../../src/core/bibliography/planRewrite.js';
import { entry, onlySplice } from './helpers.js';

const record = entry({ key: 'liu2023', type: 'article', title: '大模型推理系统', title_en: 'Large Model Inference Systems', journal: 'Journal of Software', year: 2023 });
const mine = (note: string) => `@misc{mine,\n  title = {Inference},\n  ${note}year = {2022}\n}\n\n@misc{other,\n  title = {Other}\n}\n`;

describe('a rewrite reads back as the same entries with only the change asked for', () => {
  it('refuses a record rewrite that would hide the writer\'s own field behind the record\'s', () => {
    const text = mine('note = {read twice},\n  ');
    const file = readBibFile('refs.bib', text)!;
    expect(planEntryRewrite(file, file.entries[0]!, { kind: 'record', record })).toEqual({ refusal: 'read-back' });
  });

  it('plans the same rewrite when the writer has no field of that name, and it reads as planned', () => {
    const text = mine('');
    const file = readBibFile('refs.bib', text)!;
    const back = readBibFile('refs.bib', applySplices(text, [onlySplice(planEntryRewrite(file, file.entries[0]!, { kind: 'record', record }))]))!;
    expect(back.entries.map((e) => [e.key, e.type, e.fields.note, e.fields.journal])).toEqual([['mine', 'article', 'In Chinese', 'Journal of Software'], ['other', 'misc', undefined, undefined]]);
  });
});
