/**
 * The same work: when two records (a `.bib` entry, a CSL item, a corpus or library entry)
 * describe one work, so that citing one of them cites the key the user already has. One rule and
 * one place for what it reads: DOIs, arXiv ids, titles and years. Used by the planner (`planAdditions.ts`: a work
 * the bibliography holds under another key is cited by that key), by the catalog (a library entry
 * that is a corpus entry's work, `LibraryInfo.sameWorkAs`) and by the library readers (an entry's arXiv id).
 *
 * The rule ({@link sameWork}): two records are the same work when they have
 * 1. the same DOI (compared without case, after `https://doi.org/`, `doi:` are taken off), or
 * 2. the same arXiv id (version dropped; an arXiv DOI `10.48550/arXiv.<id>` counts as the id), or
 * 3. the same normalised title ({@link normaliseTitle}) and no evidence against it: not two
 *    different years, not two different DOIs, not two different arXiv ids. A conference paper
 *    and its journal version, or two talks that share a title, have such evidence; a `.bib`
 *    entry without a year (or without any identifier) whose title matches has none, and is found.
 */
import type { BibRecord } from './schema.js';
import { arxivId, arxivOfDoi, bareDoi, bibtexArxiv, cslArxiv, cslText } from './identifiers.js';

/** Characters of a title that count: a longer title is compared on its first this-many (no real title comes close). */
const TITLE_LIMIT = 2000;

/**
 * A title reduced for comparison: lower case, TeX commands and braces dropped, punctuation folded
 * to spaces. Only the first 2,000 characters count, so an overlong title field (100,000 characters
 * through `@string` macros) costs no more than a real title.
 */
export function normaliseTitle(t: string): string {
  return t.slice(0, TITLE_LIMIT).toLowerCase().normalize('NFKD').replace(/\\[a-zA-Z]+|[{}]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** What identifies a work, for {@link sameWork}. */
export interface WorkIdentity {
  /** The DOI in lower case (DOIs are case-insensitive: the DOI Handbook, §2.4); not an arXiv DOI. */
  doi?: string;
  /** The arXiv id without version (`ARXIV_ID` of `identifiers.ts`). */
  arxiv?: string;
  /** The normalised title ({@link normaliseTitle}); empty when there is none. */
  title: string;
  /** The year of publication. */
  year?: number;
}

/** An identity from its parts: an arXiv DOI stands for its arXiv id; an out-of-range year is none. */
function identity(doi: string | undefined, arxiv: string | undefined, title: string | undefined, year: number | undefined): WorkIdentity {
  const bare = bareDoi(doi);
  const fromDoi = arxivOfDoi(bare);
  return {
    ...(bare && !fromDoi ? { doi: bare.toLowerCase() } : {}),
    ...((arxiv ?? fromDoi) ? { arxiv: arxiv ?? fromDoi } : {}),
    title: title ? normaliseTitle(title) : '',
    ...(year !== undefined && Number.isInteger(year) && year >= 1000 && year <= 2999 ? { year } : {}),
  };
}

/** The first four-digit run of a text, as a number. */
const yearIn = (text: string | undefined): number | undefined => {
  const m = text ? /\d{4}/.exec(text) : null;
  return m ? Number(m[0]) : undefined;
};

/**
 * The identity of a `.bib` entry: `doi`, the arXiv id ({@link bibtexArxiv}), `title`, and the year
 * of `year`, else of biblatex's `date`.
 *
 * @param f - the entry's fields, names in lower case, values as read (macros expanded)
 */
export function bibtexIdentity(f: Readonly<Record<string, string | undefined>>): WorkIdentity {
  return identity(f.doi, bibtexArxiv(f), f.title, yearIn(f.year ?? f.date));
}

/**
 * The identity of a CSL item: `DOI`, the arXiv id ({@link cslArxiv}), `title`, and the first year
 * of `issued` (its `date-parts`, else its `raw` or `literal` date).
 */
export function cslIdentity(item: Readonly<Record<string, unknown>>): WorkIdentity {
  return identity(cslText(item.DOI), cslArxiv(item), cslText(item.title), cslYear(item));
}

/** The year of a CSL item's `issued` date (`date-parts`' first year, else a year in `raw` or `literal`). */
export function cslYear(item: Readonly<Record<string, unknown>>): number | undefined {
  const issued = item.issued as { 'date-parts'?: unknown; raw?: unknown; literal?: unknown } | undefined;
  if (!issued || typeof issued !== 'object') return undefined;
  const parts = issued['date-parts'];
  const first = Array.isArray(parts) && Array.isArray(parts[0]) ? Number(parts[0][0]) : NaN;
  return Number.isInteger(first) ? first : yearIn(cslText(issued.raw) ?? cslText(issued.literal));
}

/**
 * The identity of a corpus or library entry (its bibliographic record): its `doi`, `arxiv`, year
 * and title (`title_en` when the corpus gives one). A library entry read without a title carries
 * its key as title: that is no title here.
 */
export function entryIdentity(e: BibRecord & { readonly library?: unknown }): WorkIdentity {
  const title = e.title_en ?? e.title;
  return identity(e.doi, arxivId(e.arxiv), e.library && title === e.key ? undefined : title, e.year);
}

/**
 * The identity of an entry of a bibliography file (a `BibEntry` of `bibliography/bibtexFile.ts`):
 * a CSL item's ({@link cslIdentity}), else a `.bib` entry's ({@link bibtexIdentity}).
 */
export function bibEntryIdentity(e: { readonly csl?: Readonly<Record<string, unknown>>; readonly fields: Readonly<Record<string, string | undefined>> }): WorkIdentity {
  return e.csl ? cslIdentity(e.csl) : bibtexIdentity(e.fields);
}

/**
 * Whether two identities name the same work (the rule of the module comment): the same DOI, or
 * the same arXiv id, or the same normalised title with no different year, DOI or arXiv id.
 * Symmetric.
 */
export function sameWork(a: WorkIdentity, b: WorkIdentity): boolean {
  if (a.doi && a.doi === b.doi) return true;
  if (a.arxiv && a.arxiv === b.arxiv) return true;
  if (!a.title || a.title !== b.title) return false;
  if ((a.doi && b.doi) || (a.arxiv && b.arxiv)) return false;
  return a.year === undefined || b.year === undefined || a.year === b.year;
}

/**
 * Records indexed by their identity, to find the one that is the same work as an identity without
 * comparing with every record: by DOI, then arXiv id, then title (strongest evidence first); among
 * equals, the first added.
 */
export class SameWorkIndex<T> {
  private readonly byDoi = new Map<string, T>();
  private readonly byArxiv = new Map<string, T>();
  private readonly byTitle = new Map<string, { id: WorkIdentity; value: T }[]>();

  /** Adds a record under its identity. */
  add(id: WorkIdentity, value: T): void {
    if (id.doi && !this.byDoi.has(id.doi)) this.byDoi.set(id.doi, value);
    if (id.arxiv && !this.byArxiv.has(id.arxiv)) this.byArxiv.set(id.arxiv, value);
    if (!id.title) return;
    const list = this.byTitle.get(id.title);
    if (list) list.push({ id, value });
    else this.byTitle.set(id.title, [{ id, value }]);
  }

  /** Whether nothing was added. */
  get empty(): boolean {
    return !this.byDoi.size && !this.byArxiv.size && !this.byTitle.size;
  }

  /** The first record that is the same work as `id` ({@link sameWork}), or undefined. */
  find(id: WorkIdentity): T | undefined {
    const byDoi = id.doi ? this.byDoi.get(id.doi) : undefined;
    if (byDoi !== undefined) return byDoi;
    const byArxiv = id.arxiv ? this.byArxiv.get(id.arxiv) : undefined;
    if (byArxiv !== undefined) return byArxiv;
    return id.title ? this.byTitle.get(id.title)?.find((r) => sameWork(id, r.id))?.value : undefined;
  }
}
