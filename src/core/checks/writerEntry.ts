/**
 * An entry of the writer's bibliography (a `.bib` entry or a CSL item) read for comparison with a
 * published record: its title, names, year, container, pages and identifiers as plain text, and
 * whether it is cited as a preprint.
 *
 * Preprint forms (what Google Scholar, DBLP, Semantic Scholar, Zotero and arXiv itself export):
 * - BibTeX: `journal = {arXiv preprint arXiv:…}` (Google Scholar), `journal = {CoRR}` with
 *   `volume = {abs/…}` (DBLP), `journal = {ArXiv}` (Semantic Scholar), `@misc`/`@online`/
 *   `@unpublished`/`@article` with `eprint` and `archiveprefix`/`eprinttype` arXiv (arXiv's own
 *   BibTeX, biblatex manual §3.14.7), an arxiv.org URL or arXiv DOI (Zotero, with
 *   `publisher = {arXiv}`), `howpublished`/`note` with `arXiv:…`;
 * - CSL: `number: arXiv:…`, an arXiv `DOI` or `URL`, `container-title` or `publisher` arXiv
 *   (Zotero's and Better BibTeX's CSL export of a preprint).
 * An entry with a container that is not arXiv (a `booktitle`, a journal) is not a preprint,
 * whatever identifiers it also carries.
 */
import type { BibEntry } from '../bibliography/bibtexFile.js';
import { cslYear } from '../corpus/sameWork.js';
import { arxivId, arxivIdIn, bareDoi, bibtexArxiv, cslArxiv } from '../corpus/identifiers.js';
import { texToText } from '../bibliography/texToText.js';
import { bibtexPerson, splitNames } from '../library/entries.js';
import type { Person } from '../corpus/schema.js';

/** An entry of the writer's bibliography, as compared with a record. */
export interface WriterEntry {
  key: string;
  /** The title as plain text (TeX decoded), or undefined. */
  title?: string;
  /** The names as written (organisations as `literal`), without a closing "others". */
  authors: Person[];
  /** Whether the name list ends in `and others` (BibTeX) or an `others` name: the list is truncated. */
  others: boolean;
  /** Whether the entry has a name list at all. */
  hasAuthors: boolean;
  /** The year (of `year`, `date` or CSL `issued`). */
  year?: number;
  /** The container (journal, proceedings, CSL `container-title`) as plain text. */
  container?: string;
  /** The page range as written, TeX decoded (`611–626`). */
  pages?: string;
  /** A DOI that is not an arXiv DOI, lower case. */
  doi?: string;
  arxiv?: string;
  /** Cited as an arXiv preprint (see the module comment). */
  preprint: boolean;
  /** The container names a workshop. */
  workshop: boolean;
  /** The entry type as written (BibTeX, lower case) or the CSL type. */
  type: string;
}

/** A container that is arXiv itself (or DBLP's CoRR), not a venue. */
const ARXIV_CONTAINER = /^\s*(?:arxiv|corr)\b|\barxiv preprint\b|\barxiv e-prints\b/i;

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/** The first four-digit year in a text. */
function yearOf(v: string | undefined): number | undefined {
  const m = v ? /\b(1[89]\d\d|2[01]\d\d)\b/.exec(v) : null;
  return m ? Number(m[1]) : undefined;
}

/** A DOI that is not arXiv's own, in lower case. */
function publisherDoi(v: string | undefined): string | undefined {
  const d = bareDoi(v)?.toLowerCase();
  return d && !d.startsWith('10.48550/') ? d : undefined;
}

/**
 * Reads an entry of a bibliography file for comparison.
 *
 * @param e - a `.bib` entry (fields lower-cased, macros expanded) or a CSL item (`e.csl`)
 */
export function writerEntry(e: BibEntry): WriterEntry {
  return e.csl ? fromCsl(e.key, e.csl) : fromBibtex(e.key, e.type.toLowerCase(), e.fields);
}

function fromBibtex(key: string, type: string, f: Readonly<Record<string, string | undefined>>): WriterEntry {
  const plain = (v: string | undefined) => (v === undefined ? undefined : texToText(v, 2000) || undefined);
  const journal = plain(f.journal ?? f.journaltitle);
  const booktitle = plain(f.booktitle ?? f.eventtitle);
  // DBLP's CoRR and Semantic Scholar's ArXiv give the id as `volume = {abs/2309.06180}`.
  const volumeId = journal && ARXIV_CONTAINER.test(journal) ? arxivId(/^abs\/(.+)$/.exec(f.volume?.trim() ?? '')?.[1]) : undefined;
  const arxiv = bibtexArxiv(f) ?? volumeId;
  const venueJournal = journal && !ARXIV_CONTAINER.test(journal) ? journal : undefined;
  const venueBook = booktitle && !ARXIV_CONTAINER.test(booktitle) ? booktitle : undefined;
  const container = venueBook ?? venueJournal;
  const arxivPublisher = /^\s*arxiv\b/i.test(plain(f.publisher) ?? '') || /^\s*arxiv\b/i.test(plain(f.institution) ?? '');
  const arxivForm = !!arxiv || (journal !== undefined && ARXIV_CONTAINER.test(journal)) || arxivPublisher
    || !!arxivIdIn(f.howpublished) || /^\s*arxiv\b/i.test(plain(f.howpublished) ?? '');
  const names = f.author;
  const list = names ? splitNames(names.slice(0, 20_000)) : [];
  // `and others` (BibTeX's truncation), or `and et al.` as some write it.
  const truncation = (n: string) => /^(?:others|et\.? al\.?)$/i.test(n.trim());
  const others = list.length > 0 && truncation(list[list.length - 1]!);
  // DBLP's homonym numbers (`Paul Barham 0001`, mangled by some tools into `0001, Paul Barham`) are no part of a name.
  const authors = list.filter((n) => !truncation(n)).slice(0, 500)
    .map((n) => bibtexPerson(n.replace(/(^|\s)\d{4}(?=\s|,|$)/g, '$1').replace(/^\s*,\s*/, '')));
  return {
    key, type,
    title: plain(f.title),
    authors, others, hasAuthors: list.length > 0,
    year: yearOf(f.year ?? f.date),
    container,
    pages: plain(f.pages),
    doi: publisherDoi(f.doi),
    arxiv,
    preprint: arxivForm && !container,
    workshop: /\bworkshops?\b/i.test(container ?? ''),
  };
}

function cslPerson(n: unknown): Person | undefined {
  if (!n || typeof n !== 'object') return undefined;
  const p = n as Record<string, unknown>;
  const family = text(p.family)?.trim();
  if (family) return { given: text(p.given)?.trim() ?? '', family };
  const literal = text(p.literal)?.trim();
  return literal ? { literal } : undefined;
}

function fromCsl(key: string, item: Readonly<Record<string, unknown>>): WriterEntry {
  const containerText = text(item['container-title']) ?? text(item['event-title']) ?? text(item.event);
  const container = containerText && !ARXIV_CONTAINER.test(containerText) ? containerText : undefined;
  const arxiv = cslArxiv(item);
  const arxivForm = !!arxiv || (containerText !== undefined && ARXIV_CONTAINER.test(containerText)) || /^\s*arxiv\b/i.test(text(item.publisher) ?? '');
  const names = Array.isArray(item.author) ? item.author : [];
  const others = names.some((n) => (n as { literal?: unknown } | null)?.literal === 'others');
  const authors = names.filter((n) => (n as { literal?: unknown } | null)?.literal !== 'others').slice(0, 500).map(cslPerson).filter((p): p is Person => !!p);
  return {
    key,
    type: text(item.type) ?? '',
    title: text(item.title),
    authors, others, hasAuthors: names.length > 0,
    year: cslYear(item),
    container,
    pages: text(item.page),
    doi: publisherDoi(text(item.DOI)),
    arxiv,
    preprint: arxivForm && !container,
    workshop: /\bworkshops?\b/i.test(container ?? ''),
  };
}
