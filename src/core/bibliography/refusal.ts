/**
 * Why a bibliography is not written: a reason code, decided once by the planner
 * (`resolve.ts`'s `planBibliographyUpdate`, the service's plans) and carried to every host as data,
 * never as a sentence. Each host renders it with {@link refusalText}: the extension and the
 * language server in the display language (`@vscode/l10n`, configured with the client's bundle),
 * the CLI and other editors' clients in English (no bundle configured).
 */
import * as l10n from '@vscode/l10n';
import { problemMessage, type ProblemText } from '../text/problemText.js';

/**
 * The reasons a planned write to a bibliography file is refused; nothing is written for any of them.
 *
 * - `unreadable`: the file has a syntax error (`line`, `column`, `detail` say where and what);
 * - `not-regular`: the path exists but is not a regular file (a folder, a device, a pipe, a link that leads to nothing);
 * - `not-a-file`: the path exists but cannot be read as a file (over the size cap);
 * - `not-utf8`: the file is not UTF-8 text, so rewriting it would change its other characters;
 * - `outside-workspace`: its real path lies outside the workspace folders;
 * - `no-folder`: it does not exist and its folder does not either;
 * - `unsafe`: it has a shape nothing can be added to without rewriting it;
 * - `format`: its extension names no format we write (.bib, .json, .yaml);
 * - `thebibliography`: the document's only bibliography is a `thebibliography` written in LaTeX;
 * - `library`: it is one of the user's libraries (`mlsysPapers.libraries`), which is never written;
 * - `cannot-create`: a new file could not be planned.
 */
export type RefusalReason =
  | 'unreadable' | 'not-regular' | 'not-a-file' | 'not-utf8' | 'outside-workspace' | 'no-folder' | 'unsafe'
  | 'format' | 'thebibliography' | 'library' | 'cannot-create';

/** A refusal as data: the reason, the citation keys that were to be added, and where a syntax error is. */
export interface Refusal {
  reason: RefusalReason;
  /** The citation keys the write would have added (the user adds them by hand); may be empty. */
  keys: readonly string[];
  /** 1-based line and column of the syntax error (`unreadable`). */
  line?: number;
  column?: number;
  /** What the syntax error is (`unreadable`): the reader's problem, a code with its values, worded with the refusal. */
  detail?: ProblemText;
}

/**
 * The sentence that follows a file's name in a message, for a refusal (`refs.bib` + ` is outside
 * the workspace; it was not changed; add kwon2023efficient by hand`), in the display language of
 * this process (see `core/text/l10n.ts`). Without keys, the sentence names none.
 */
export function refusalText(r: Refusal): string {
  const keys = r.keys.join(', ');
  const byHand = (why: string) => keys ? l10n.t('{0}; it was not changed; add {1} by hand', why, keys) : l10n.t('{0}; it was not changed', why);
  switch (r.reason) {
    case 'unreadable':
      return keys
        ? l10n.t('has an error at line {0}, column {1} ({2}); it was not changed; add {3} once it is fixed', r.line ?? 0, r.column ?? 0, r.detail ? problemMessage(r.detail) : '', keys)
        : l10n.t('has an error at line {0}, column {1} ({2}); it was not changed', r.line ?? 0, r.column ?? 0, r.detail ? problemMessage(r.detail) : '');
    case 'not-regular': return byHand(l10n.t('not a regular file'));
    case 'not-a-file': return byHand(l10n.t('exists but cannot be read as a file'));
    case 'not-utf8': return byHand(l10n.t('is not UTF-8 text, and rewriting it would change its other characters'));
    case 'outside-workspace': return byHand(l10n.t('is outside the workspace'));
    case 'unsafe': return byHand(l10n.t('has a shape we cannot add to without rewriting it'));
    case 'no-folder': return keys
      ? l10n.t('cannot be created: its folder does not exist; add {0} once it does', keys)
      : l10n.t('cannot be created: its folder does not exist');
    case 'format': return l10n.t('is not a bibliography format we can write (.bib, .json or .yaml)');
    case 'thebibliography': return l10n.t('holds the document\'s thebibliography, which MLSys Papers does not write; it was not changed; add a \\bibitem for {0} there by hand', keys);
    case 'library': return l10n.t('is one of your libraries (mlsysPapers.libraries), which MLSys Papers never writes to; it was not changed; add {0} to it with your reference manager', keys);
    case 'cannot-create': return l10n.t('cannot be created');
  }
}
