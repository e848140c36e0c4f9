/**
 * The one planning pipeline for a document's bibliography, shared by the citation service (its
 * citation, "add to bibliography" and sync plans) and the CLI's `sync`: the document's
 * bibliography resolved (`resolveBibliography`), what to cite and what to add decided
 * (`planCitationSync`: a work already there under another key is cited by that key), and the
 * change to the files chosen (`planBibliographyUpdate`: append, create, declare, or refuse). The
 * byte-level insertion is `planBibAddition`'s, which each caller runs on the exact text it writes.
 */
import { planBibliographyUpdate, planCitationSync, resolveBibliography, type BibDocument, type BibUpdate, type DocumentBibliography, type ResolveOptions } from '../bibliography/resolve.js';
import type { BibSyncPlan } from '../bibliography/planAdditions.js';
import type { WorkspaceFiles } from '../workspace/files.js';
import { bibitemKeys } from '../bibliography/thebibliography.js';
import type { Entry } from '../corpus/schema.js';

/** What {@link planDocumentBibliography} decided. */
export interface DocumentBibliographyPlan {
  /** The document's bibliography; undefined when it declares none. */
  bib: DocumentBibliography | undefined;
  /** What to cite and to add; each reused work names its file by URI (`path`). */
  sync: BibSyncPlan;
  /** The change to the bibliography's files. */
  update: BibUpdate;
}

/**
 * Plans adding `entries` to a document's bibliography (see the module comment).
 *
 * @param ws - the files (the server's workspace, or the CLI's working directory)
 * @param doc - the citing document
 * @param entries - the entries cited, as citing copies them
 * @param opts - how the bibliography is resolved (`ResolveOptions`), and `allowOutside`: the user
 *   allows writes whose real path leaves the workspace
 */
export async function planDocumentBibliography(ws: WorkspaceFiles, doc: BibDocument, entries: readonly Entry[], opts: ResolveOptions & { allowOutside?: boolean } = {}): Promise<DocumentBibliographyPlan> {
  const { allowOutside, ...resolve } = opts;
  const bib = await resolveBibliography(ws, doc, resolve);
  // A key a \bibitem of the document's thebibliography defines is there already: nothing to add for it.
  const bibitems = bibitemKeys(bib?.thebibliography);
  const toAdd = bibitems.size ? entries.filter((e) => !bibitems.has(e.key)) : entries;
  // Reused works name their file by URI: a source's `path` is the name it was declared by (an
  // absolute path, or relative to whichever root file declared it first, as cached).
  const sync = planCitationSync(bib && { ...bib, files: bib.files.map((s) => ({ ...s, path: s.uri.toString() })) }, toAdd);
  const update = await planBibliographyUpdate(ws, bib, sync, { allowOutside });
  return { bib, sync, update };
}
