/**
 * Identifiers of a work, as records write them: the bare DOI and the arXiv id, read from a corpus
 * entry, a BibTeX/biblatex entry's fields or a CSL item. A leaf: the corpus schema checks its
 * `arxiv` field with {@link ARXIV_ID}, and the same-work rule (`sameWork.ts`) compares what these
 * read.
 */

/**
 * An arXiv identifier without its version: new style `YYMM.NNNN(N)` (since April 2007) or old
 * style `archive(.SC)/YYMMNNN` (arXiv's "Understanding the arXiv identifier"). The corpus schema's
 * `arxiv` field takes the same forms.
 */
export const ARXIV_ID = /^(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?\/\d{7})$/;

/**
 * An arXiv id in running text: after `arxiv.org/abs/`, `arxiv.org/pdf/` (any host ending in
 * `arxiv.org`) or `arXiv:`, with an optional version. Each alternative starts with a literal
 * prefix and its runs stop at a character they cannot take, so a scan is linear.
 */
const ARXIV_IN_TEXT = /(?:arxiv\.org\/(?:abs|pdf)\/|\barxiv:[ \t]?)(\d{4}\.\d{4,5}|[a-z-]+(?:\.[a-z]{2})?\/\d{7})(?:v\d+)?(?!\d)/i;

/** The DOI prefix of arXiv's own DOIs (`10.48550/arXiv.2309.06180`, since 2022). */
const ARXIV_DOI = /^10\.48550\/arxiv\.(.+)$/i;

/**
 * A DOI as the bare DOI (`10.1145/3600006.3613165`), its case kept: white space, a resolver URL
 * (`https://doi.org/`, `http://dx.doi.org/`) or a `doi:` prefix taken off.
 *
 * @returns undefined when what is left is not a DOI (`10.` + 4 to 9 digits + `/` + a suffix; the
 *   DOI Handbook, §2.2)
 */
export function bareDoi(value: string | undefined): string | undefined {
  const d = value?.trim().replace(/^https?:\/\/(?:dx\.)?doi\.org\//i, '').replace(/^doi:\s*/i, '');
  return d && /^10\.\d{4,9}\/\S+$/.test(d) ? d : undefined;
}

/** An arXiv id in its written case: the archive in lower case, a subject class in upper case (`math.GT/0309136`). */
function canonicalArxiv(id: string): string {
  const slash = id.indexOf('/');
  if (slash < 0) return id;
  const [archive, cls] = id.slice(0, slash).split('.');
  return `${archive!.toLowerCase()}${cls ? `.${cls.toUpperCase()}` : ''}${id.slice(slash)}`;
}

/**
 * A bare arXiv id as written in an `eprint` field or the corpus: `arXiv:` prefix and version
 * (`v2`) dropped.
 *
 * @returns the id ({@link ARXIV_ID}), or undefined when it is not one
 */
export function arxivId(value: string | undefined): string | undefined {
  const v = value?.trim().replace(/^arxiv:\s*/i, '').replace(/v\d+$/, '');
  if (!v) return undefined;
  const id = canonicalArxiv(v);
  return ARXIV_ID.test(id) ? id : undefined;
}

/** The arXiv id of an arXiv DOI (`10.48550/arXiv.2309.06180`), else undefined. */
export function arxivOfDoi(doi: string | undefined): string | undefined {
  const m = doi ? ARXIV_DOI.exec(doi) : null;
  return m ? arxivId(m[1]) : undefined;
}

/**
 * The first arXiv id a text names: an arxiv.org abstract or PDF URL, or `arXiv:<id>` (as Google
 * Scholar writes `journal = {arXiv preprint arXiv:2309.06180}`); the version is dropped.
 */
export function arxivIdIn(text: string | undefined): string | undefined {
  const m = text ? ARXIV_IN_TEXT.exec(text) : null;
  return m ? arxivId(m[1]) : undefined;
}

/**
 * The arXiv id of a BibTeX/biblatex entry, from (in this order):
 * - `eprint`, when `archiveprefix` or `eprinttype` says arXiv, or neither is given and it reads as
 *   an arXiv id (biblatex manual §3.13.7 "Electronic Publishing Information"; arXiv's own BibTeX);
 * - an arXiv DOI in `doi`;
 * - an arxiv.org URL or `arXiv:<id>` in `url`, `journal`, `journaltitle`, `note` or `howpublished`.
 *
 * @param f - the entry's fields, names in lower case
 */
export function bibtexArxiv(f: Readonly<Record<string, string | undefined>>): string | undefined {
  const prefix = `${f.archiveprefix ?? ''} ${f.eprinttype ?? ''}`;
  const eprint = /arxiv/i.test(prefix) || !prefix.trim() ? arxivId(f.eprint) : undefined;
  return eprint ?? arxivOfDoi(bareDoi(f.doi))
    ?? arxivIdIn(f.url) ?? arxivIdIn(f.journal) ?? arxivIdIn(f.journaltitle) ?? arxivIdIn(f.note) ?? arxivIdIn(f.howpublished);
}

/** A CSL variable as text (strings and numbers), else undefined. */
export const cslText = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/**
 * The arXiv id of a CSL item (CSL 1.0.2 variables, as Zotero and Better BibTeX export a preprint):
 * `number` written `arXiv:<id>`, an arXiv `DOI`, or an arxiv.org `URL`.
 */
export function cslArxiv(item: Readonly<Record<string, unknown>>): string | undefined {
  return arxivIdIn(cslText(item.number)) ?? arxivOfDoi(bareDoi(cslText(item.DOI))) ?? arxivIdIn(cslText(item.URL));
}
