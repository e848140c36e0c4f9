/**
 * The record checks' findings in words: diagnostics' messages and quick fixes' titles, through
 * `@vscode/l10n` (`core/text/l10n.ts` loads the bundle the editor sends; the CLI loads none, so it
 * prints English). One place, so the editor, other editors and the CLI say the same thing.
 */
import * as l10n from '@vscode/l10n';
import type { Entry } from '../corpus/schema.js';
import type { RecordField } from '../bibliography/planRewrite.js';
import type { FieldMismatch, RecordFinding } from './checkRecords.js';

/** `SOSP '23`, or `Proc. VLDB Endow. 2023` for a journal. */
export function venueLabel(e: Entry): string {
  const venue = e.venue ?? '';
  if (e.type === 'article') return `${e.journal ?? venue} ${e.year ?? ''}`.trim();
  return e.year ? `${venue} '${String(e.year).slice(-2)}` : venue;
}

/** `pp. 611–626`, `vol. 16, pp. 3848–3860`, or '' when the record has no (verified) pages. */
function pagesPart(e: Entry): string {
  const pages = e.pages && !e.unverified?.includes('pages') ? e.pages.replace(/--?/g, '–') : '';
  if (!pages) return '';
  return e.volume ? l10n.t('vol. {0}, pp. {1}', e.volume, pages) : l10n.t('pp. {0}', pages);
}

/** A field's name as a writer knows it. */
export function fieldName(field: RecordField): string {
  switch (field) {
    case 'title': return l10n.t('title');
    case 'authors': return l10n.t('authors');
    case 'year': return l10n.t('year');
    case 'venue': return l10n.t('venue');
    case 'pages': return l10n.t('pages');
  }
}

/** At most this many names of a list are written in a message (the JSON of the CLI has them all). */
const NAMES_SHOWN = 8;

/** A `; `-separated list of names, cut to {@link NAMES_SHOWN} with how many there are: `A; B; …; H; … (67 in all)`. */
function names(list: string): string {
  const all = list.split('; ');
  return all.length <= NAMES_SHOWN ? list : l10n.t('{0}; … ({1} in all)', all.slice(0, NAMES_SHOWN).join('; '), all.length);
}

/** One mismatch in words: `year: 2022, verified 2023`. */
export function mismatchText(m: FieldMismatch): string {
  switch (m.reason) {
    case 'authors-truncated': return l10n.t('authors: cut short to "and others"; the record lists all of them: {0}', names(m.expected));
    case 'authors-missing': return l10n.t('authors: {0} missing', names(m.expected));
    case 'authors-extra': return l10n.t('authors: {0} not in the record ({1})', names(m.found), names(m.expected));
    case 'authors-misspelled': return l10n.t('authors: {0}, verified {1}', names(m.found), names(m.expected));
    case 'differs': return l10n.t('{0}: {1}, verified {2}', fieldName(m.field), m.found, m.expected);
  }
}

/**
 * The message of a finding's diagnostic, e.g. "arXiv:2309.06180 appeared at SOSP '23 (pp.
 * 611–626): cite the version of record (dblp:conf/sosp/KwonLZ0ZY0ZS23)".
 */
export function findingMessage(f: RecordFinding): string {
  if (f.kind === 'version-of-record') {
    const what = f.arxiv ? `arXiv:${f.arxiv}` : l10n.t('This preprint');
    const pages = pagesPart(f.record);
    const where = venueLabel(f.record);
    const said = f.record.type === 'article'
      ? (pages ? l10n.t('{0} appeared in {1} ({2}): cite the version of record', what, where, pages) : l10n.t('{0} appeared in {1}: cite the version of record', what, where))
      : (pages ? l10n.t('{0} appeared at {1} ({2}): cite the version of record', what, where, pages) : l10n.t('{0} appeared at {1}: cite the version of record', what, where));
    return `${said} (${f.record.key}; ${f.source})`;
  }
  return l10n.t('Differs from the verified record of {0} ({1}): {2}', f.record.key, f.source, f.fields.map(mismatchText).join('; '));
}

/** The title of the quick fix that rewrites one entry to its version of record. */
export function rewriteTitle(f: RecordFinding): string {
  return l10n.t('Rewrite {0} as the version of record ({1})', f.key, venueLabel(f.record));
}

/** The title of the quick fix that sets one field (`field`) or every listed field (undefined) to the record's value. */
export function fieldFixTitle(f: RecordFinding, field?: FieldMismatch): string {
  return field
    ? l10n.t('Set {0} of {1} to the verified value ({2})', fieldName(field.field), f.key, f.source)
    : l10n.t('Set every listed field of {0} to the verified record ({1})', f.key, f.source);
}

/** "Published as …" on a hover over a citation of a preprint entry. */
export function publishedAsText(record: Entry): string {
  return l10n.t('Published as: {0}, {1} ({2})', record.title, venueLabel(record), record.key);
}
