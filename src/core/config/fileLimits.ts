/**
 * How large a file the language server and the CLI read (`mlsysPapers.maxFileSizeMB`). Every file
 * a user or a repository names is checked to be a regular file no larger than this before a byte
 * is read: a `refs.bib` that links to `/dev/zero` would otherwise grow memory without bound.
 */

/**
 * The default cap, in MB (2^20 bytes). A 100,000-entry BibTeX library with abstracts runs to about
 * 100 MB (TeX Live's largest Beebe bibliographies are 10–40 MB each), so 200 MB admits it twice
 * over while staying well below V8's largest string (about 512 M UTF-16 code units).
 */
export const DEFAULT_MAX_FILE_MB = 200;

/** The largest value the setting takes, in MB: a text this size is near V8's string limit. */
export const MAX_FILE_MB_LIMIT = 500;

/**
 * The cap in bytes for a setting's value.
 *
 * @param mb - `mlsysPapers.maxFileSizeMB` as sent (anything: a number of MB is used, clamped to
 *   1–{@link MAX_FILE_MB_LIMIT}; anything else gives the default)
 * @returns bytes
 */
export function maxFileBytes(mb: unknown): number {
  const n = typeof mb === 'number' && Number.isFinite(mb) ? Math.min(Math.max(mb, 1), MAX_FILE_MB_LIMIT) : DEFAULT_MAX_FILE_MB;
  return Math.floor(n * 1024 * 1024);
}

/** A cap in bytes as the messages name it: `200` (MB, rounded to one decimal). */
export function megabytes(bytes: number): string {
  return String(Math.round((bytes / (1024 * 1024)) * 10) / 10);
}
