/**
 * The systems venues of the second systems batch (issue 26): Middleware, CIDR, HotOS, HotCloud
 * (DBLP's CrossTeX records in `../shared/corpus-sources/dblp-systems/`), and PLDI and IMC (the same
 * generator's records in the fetched kaimast/crosstex-dbgen snapshot, read with `git show`; nothing
 * from it is copied into the project). A development tool: nothing here is bundled into the extension.
 *
 * The snapshot's other files the issue names hold nothing from 2016 on (`xtx/tpds.xtx` is an
 * `@include` line only; `xtx-todo/hpca.xtx`, `ics.xtx`, `hpdc.xtx` and `ipps.xtx` end in 2005), so
 * they are not read.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { classifyVolumes, DBLP_STREAMS, readXtx, readXtxText, type PubRecord, type XtxVenue } from './records.js';

/** The venues of this batch (their DBLP streams are in `DBLP_STREAMS`), in the order their files are filled. */
export const MORE_SYSTEMS_VENUES = ['Middleware', 'CIDR', 'HotOS', 'HotCloud', 'PLDI', 'IMC'];

/** The xtx files of `../shared/corpus-sources/dblp-systems/` this batch reads. */
const SHARED_FILES = ['middleware', 'cidr', 'hotos', 'hotcloud'];

/** The xtx files of the crosstex-dbgen snapshot this batch reads (paths in its tree). */
const SNAPSHOT_FILES = ['xtx/pldi.xtx', 'xtx/imc.xtx'];

/** The venues whose only record is in the crosstex-dbgen snapshot (not in `../shared`). */
export const SNAPSHOT_VENUES = new Set(['PLDI', 'IMC']);

/**
 * Venues whose DBLP stream files no other volume (CIDR's records have no pages; HotOS and HotCloud
 * are the workshops themselves): every record is `main`, where the page chains could not tell.
 */
const ONE_VOLUME = new Set(['CIDR', 'HotOS', 'HotCloud']);

/** Where `fetch` puts the crosstex-dbgen snapshot. */
export const DBGEN_DEFAULT = '/work/.mirror/kaimast+crosstex-dbgen/repo';

/** The crosstex-dbgen snapshot's git directory, when fetched (`given` wins; `false` gives none). */
export function dbgenGitDir(given?: string | false): string | undefined {
  if (given === false) return undefined;
  const dir = given || DBGEN_DEFAULT;
  return existsSync(dir) ? dir : undefined;
}

/**
 * The records of this batch's venues, from `fromYear` on, with their volume class. A CrossTeX record
 * has no booktitle of its own: it is the venue's long name from `conferences-cs.xtx` (or
 * `workshops-cs.xtx`) and the corpus's short name with the year, e.g. `ACM/IFIP Middleware
 * Conference (Middleware 2019)` (the file's short names, `MIDDLEWARE`, `HotOS Workshop`, are not
 * the venues' own spelling).
 *
 * @param shared - `../shared/corpus-sources`
 * @param dbgen - the crosstex-dbgen snapshot's git directory, or undefined (then PLDI and IMC are not read)
 * @param warn - told of a snapshot file that cannot be read
 */
export function readMoreVenues(
  shared: string, dbgen: string | undefined, venues: Map<string, XtxVenue>, fromYear: number, warn?: (m: string) => void,
): PubRecord[] {
  const out: PubRecord[] = [];
  const add = (recs: PubRecord[]) => {
    for (const r of recs) {
      const slug = Object.entries(DBLP_STREAMS).find(([, v]) => v === r.venue)?.[0].split('/')[1];
      const v = slug ? venues.get(slug) : undefined;
      if (r.type === 'inproceedings' && v) r.booktitle = `${v.long} (${r.venue} ${r.year})`;
      if (ONE_VOLUME.has(r.venue)) r.volume_class = 'main';
    }
    out.push(...recs);
  };
  for (const name of SHARED_FILES) add(classifyVolumes(readXtx(shared, name, venues, fromYear)));
  if (!dbgen) return out;
  for (const path of SNAPSHOT_FILES) {
    const r = spawnSync('git', ['--git-dir', dbgen, 'show', `HEAD:${path}`], { encoding: 'utf8', maxBuffer: 1 << 28 });
    if (r.status !== 0) { warn?.(`${path}: not in the crosstex-dbgen snapshot; skipped`); continue; }
    add(classifyVolumes(readXtxText(r.stdout, `crosstex-dbgen:${path}`, venues, fromYear)));
  }
  return out;
}
