/**
 * The words of the bibliography readers' problems (BibTeX, CSL-JSON, CSL-YAML, and the JSON and
 * YAML readers under them): a reader says what is wrong as a code with its values
 * ({@link ProblemText}: the key, the macro, the field, what was found), never as a sentence, and
 * {@link problemMessage} makes the sentence where it is shown, through `@vscode/l10n`: the language
 * server in the display language (`core/text/l10n.ts` loads the bundle the client sends), the CLI
 * in English (it loads none). One place, as `checks/findingText.ts` for the record checks and
 * `bibliography/refusal.ts` for refusals, so a problem read once (and kept in the library cache)
 * is shown in whatever language asks for it.
 *
 * The `yaml` package's and the JavaScript engine's own messages cannot be translated: they are
 * values (a plain string argument) inside a localized frame (`YAML: {0}`).
 */
import * as l10n from '@vscode/l10n';

/** The codes of the readers' problems; each has one sentence in {@link problemMessage}. */
export const PROBLEM_CODES = [
  // BibTeX (`bibtexScanner.ts`, `readBibtex.ts`), after bibtex.web's grammar.
  'bib-expected-macro-name', 'bib-expected-field-name', 'bib-expected-equals-after-macro', 'bib-expected-equals-after-field',
  'bib-expected-value', 'bib-undefined-macro', 'bib-brace-closes-nothing', 'bib-quote-not-closed', 'bib-brace-not-closed',
  'bib-stray-at', 'bib-no-open', 'bib-preamble-too-long', 'bib-expected-string-close', 'bib-string-too-long', 'bib-no-key',
  'bib-field-too-long', 'bib-field-repeated', 'bib-missing-comma', 'bib-expected-comma-or-close', 'bib-expected-comma-after-key',
  'bib-expected-close', 'bib-file-ends-inside', 'bib-at-line', 'bib-entry-read-partly', 'bib-entry-left-out', 'bib-entry-skipped',
  'bib-command-skipped', 'bib-expansion-budget', 'bib-found-end', 'bib-found-line-break',
  // CSL, both formats (`readCslJson.ts`, `readCslYaml.ts`).
  'csl-no-id', 'csl-id-list', 'csl-id-mapping', 'csl-id-boolean', 'csl-id-other', 'csl-id-empty', 'csl-id-blank', 'csl-not-item',
  'csl-contains-itself', 'csl-too-deep', 'csl-not-json', 'csl-not-array', 'csl-item-unreadable', 'csl-yaml-item-alone',
  'csl-lone-cr', 'csl-bare-list', 'csl-not-yaml-bibliography', 'csl-no-references', 'csl-references-not-list',
  // JSON syntax (`json.ts`).
  'json-comment-not-closed', 'json-string-not-closed', 'json-number-short', 'json-unicode-escape', 'json-unknown-escape',
  'json-control-character', 'json-not-token', 'json-comment', 'json-ends-before-value', 'json-ends-inside-value', 'json-text-after',
  'json-colon-expected', 'json-name-or-close-expected', 'json-name-expected', 'json-comma-or-brace-expected',
  'json-comma-or-bracket-expected', 'json-value-expected', 'json-not-value',
  // YAML (`yaml.ts`); the `yaml` package's own messages are plain strings inside `yaml`.
  'yaml', 'yaml-cannot-be-read', 'yaml-too-deep', 'yaml-cannot-parse', 'yaml-cannot-convert', 'yaml-dangling-alias',
  'yaml-duplicate-key', 'yaml-more-problem', 'yaml-more-problems', 'yaml-second-document', 'yaml-second-document-marker',
] as const;

/** One of {@link PROBLEM_CODES}. */
export type ProblemCode = typeof PROBLEM_CODES[number];

/**
 * A value in a problem's sentence: a string or number shown as it is (a key, a macro name, a
 * count, a character, an engine's message), or another problem text rendered in the same language.
 */
export type ProblemArg = string | number | ProblemText;

/** What a reader found wrong, as data: a code and the values its sentence names, in order. */
export interface ProblemText {
  code: ProblemCode;
  args?: readonly ProblemArg[];
}

/** Shorthand for a {@link ProblemText}. */
export function problem(code: ProblemCode, ...args: ProblemArg[]): ProblemText {
  return args.length ? { code, args } : { code };
}

/** The code and values of a problem that carries more (a line, a severity), as a {@link ProblemText} alone. */
export function textOf(t: ProblemText): ProblemText {
  return t.args ? { code: t.code, args: t.args } : { code: t.code };
}

/** Whether `v` is a {@link ProblemText} with a known code and well-formed arguments (the library cache's check). */
export function isProblemText(v: unknown, depth = 0): v is ProblemText {
  if (!v || typeof v !== 'object' || depth > 8) return false;
  const t = v as { code?: unknown; args?: unknown };
  if (typeof t.code !== 'string' || !CODES.has(t.code)) return false;
  if (t.args === undefined) return true;
  return Array.isArray(t.args) && t.args.every((a) => typeof a === 'string' || typeof a === 'number' || isProblemText(a, depth + 1));
}

const CODES = new Set<string>(PROBLEM_CODES);

/**
 * A problem's sentence in this process's display language (English without a bundle: the CLI),
 * e.g. `undefined macro jan2 (no @string defines it); it is read as empty`.
 *
 * @param t - the problem's code and values; a string or number is shown as it is (an engine's own message, a count)
 */
export function problemMessage(t: ProblemArg): string {
  if (typeof t !== 'object') return String(t);
  const a = (t.args ?? []).map(problemMessage);
  const [x = '', y = '', z = ''] = a;
  switch (t.code) {
    case 'bib-expected-macro-name': return l10n.t('expected a macro name after "{0}", found {1}', x, y);
    case 'bib-expected-field-name': return l10n.t('expected a field name or "{0}", found {1}', x, y);
    case 'bib-expected-equals-after-macro': return l10n.t('expected "=" after the macro name {0}, found {1}', x, y);
    case 'bib-expected-equals-after-field': return l10n.t('expected "=" after the field name {0}, found {1}', x, y);
    case 'bib-expected-value': return l10n.t('expected a value ("{…}", \'"…"\', a number or a macro name), found {0}', x);
    case 'bib-undefined-macro': return l10n.t('undefined macro {0} (no @string defines it); it is read as empty', x);
    case 'bib-brace-closes-nothing': return l10n.t('a "}" closes nothing in a quoted value');
    case 'bib-quote-not-closed': return l10n.t('not closed: a \'"\' is still open where the next entry starts');
    case 'bib-brace-not-closed': return l10n.t('not closed: a "{" is still open where the next entry starts');
    case 'bib-stray-at': return l10n.t('"@" not followed by an entry type; ignored up to the next "@" (BibTeX reads nothing outside entries)');
    case 'bib-no-open': return l10n.t('"@{0}" is not followed by "{" or "(", so it starts no entry; ignored up to the next "@"', x);
    case 'bib-preamble-too-long': return l10n.t('@preamble expands to more than {0} characters through @string macros', x);
    case 'bib-expected-string-close': return l10n.t('expected "{0}" after the value of @string {1}, found {2}', x, y, z);
    case 'bib-string-too-long': return l10n.t('@string {0} expands to more than {1} characters; it is read as empty', x, y);
    case 'bib-no-key': return l10n.t('no citation key (expected "@type{key,")');
    case 'bib-field-too-long': return l10n.t('field {0} of entry {1} is longer than {2} characters; the field is left out', x, y, z);
    case 'bib-field-repeated': return l10n.t('field {0} of entry {1} is repeated; the first one is read (as BibTeX does)', x, y);
    case 'bib-missing-comma': return l10n.t('expected "," or "{0}" after the value of {1}, found the field {2}: the "," between them is missing', x, y, z);
    case 'bib-expected-comma-or-close': return l10n.t('expected "," or "{0}" after the value of {1}, found {2}', x, y, z);
    case 'bib-expected-comma-after-key': return l10n.t('expected "," after the key {0}, found {1}', x, y);
    case 'bib-expected-close': return l10n.t('expected "{0}", found {1}', x, y);
    case 'bib-file-ends-inside': return l10n.t('not closed: the file ends inside it (a "{" in it may lack its "}")');
    case 'bib-at-line': return l10n.t('{0} (line {1})', x, y);
    case 'bib-entry-read-partly': return l10n.t('{0}; entry {1} is read up to there, as BibTeX reads it (its key counts)', x, y);
    case 'bib-entry-left-out': return l10n.t('{0}; entry {1} is left out (BibTeX keeps it with the fields before that)', x, y);
    case 'bib-entry-skipped': return l10n.t('{0}; this @{1} entry is skipped', x, y);
    case 'bib-command-skipped': return l10n.t('{0}; @{1} is skipped', x, y);
    case 'bib-expansion-budget': return l10n.t('the fields of this file expand to more than {0} characters through @string macros; reading stopped here', x);
    case 'bib-found-end': return l10n.t('the end of the file');
    case 'bib-found-line-break': return l10n.t('a line break');
    case 'csl-no-id': return l10n.t('this CSL item has no "id"; skipped');
    case 'csl-id-list': return l10n.t('this CSL item\'s "id" is a list, not a string or a number; skipped');
    case 'csl-id-mapping': return l10n.t('this CSL item\'s "id" is a mapping, not a string or a number; skipped');
    case 'csl-id-boolean': return l10n.t('this CSL item\'s "id" is a Boolean, not a string or a number; skipped');
    case 'csl-id-other': return l10n.t('this CSL item\'s "id" is a {0}, not a string or a number; skipped', x);
    case 'csl-id-empty': return l10n.t('this CSL item\'s "id" is empty; skipped');
    case 'csl-id-blank': return l10n.t('this CSL item\'s "id" is blank (only white space); skipped');
    case 'csl-not-item': return l10n.t('not a CSL item (expected a mapping with an "id"); skipped');
    case 'csl-contains-itself': return l10n.t('this CSL item contains itself (a YAML alias inside its own anchor); skipped');
    case 'csl-too-deep': return l10n.t('this CSL item is nested more than {0} levels deep; skipped', x);
    case 'csl-not-json': return l10n.t('not JSON: {0}', x);
    case 'csl-not-array': return l10n.t('not a CSL-JSON library (expected a JSON array of CSL items)');
    case 'csl-item-unreadable': return l10n.t('this CSL item cannot be read: {0}; skipped', x);
    case 'csl-yaml-item-alone': return l10n.t('YAML: this list item cannot be read on its own; skipped');
    case 'csl-lone-cr': return l10n.t('a line ends with a lone CR (classic Mac OS line endings), which we cannot read as YAML; save the file with LF or CRLF line endings');
    case 'csl-bare-list': return l10n.t('a list of CSL items with no "references:" field: pandoc reads no references from it (put the list under "references:")');
    case 'csl-not-yaml-bibliography': return l10n.t('not a CSL-YAML bibliography (expected "references:" with a list of CSL items)');
    case 'csl-no-references': return l10n.t('not a CSL-YAML bibliography: it has no "references:" field');
    case 'csl-references-not-list': return l10n.t('"references:" must be a list of CSL items');
    case 'json-comment-not-closed': return l10n.t('a comment is not closed');
    case 'json-string-not-closed': return l10n.t('a string is not closed on its line');
    case 'json-number-short': return l10n.t('a number ends too early');
    case 'json-unicode-escape': return l10n.t('a \\u escape needs four hexadecimal digits');
    case 'json-unknown-escape': return l10n.t('an unknown escape in a string');
    case 'json-control-character': return l10n.t('a control character in a string (it must be escaped)');
    case 'json-not-token': return l10n.t('not a JSON token');
    case 'json-comment': return l10n.t('comments are not allowed in JSON');
    case 'json-ends-before-value': return l10n.t('the text ends where a value is expected');
    case 'json-ends-inside-value': return l10n.t('the text ends before the JSON value does');
    case 'json-text-after': return l10n.t('text after the end of the JSON value');
    case 'json-colon-expected': return l10n.t('a colon is expected after the property name');
    case 'json-name-or-close-expected': return l10n.t('a property name in double quotes or "}" is expected');
    case 'json-name-expected': return l10n.t('a property name in double quotes is expected');
    case 'json-comma-or-brace-expected': return l10n.t('a comma or "}" is expected');
    case 'json-comma-or-bracket-expected': return l10n.t('a comma or "]" is expected');
    case 'json-value-expected': return l10n.t('a value is expected here');
    case 'json-not-value': return l10n.t('not a JSON value');
    case 'yaml': return l10n.t('YAML: {0}', x);
    case 'yaml-cannot-be-read': return l10n.t('cannot be read');
    case 'yaml-too-deep': return l10n.t('nested more than {0} levels deep; not read', x);
    case 'yaml-cannot-parse': return l10n.t('cannot be parsed: {0}', x);
    case 'yaml-cannot-convert': return l10n.t('cannot be read: {0}', x);
    case 'yaml-dangling-alias': return l10n.t('alias *{0} refers to no anchor', x);
    case 'yaml-duplicate-key': return l10n.t('Map keys must be unique');
    case 'yaml-more-problem': return l10n.t('… and {0} more YAML problem (only the first {1} are reported)', x, y);
    case 'yaml-more-problems': return l10n.t('… and {0} more YAML problems (only the first {1} are reported)', x, y);
    case 'yaml-second-document': return l10n.t('this file holds more than one YAML document: a second one starts on line {0}', x);
    case 'yaml-second-document-marker': return l10n.t('this file holds more than one YAML document: a second one starts with the "---" on line {0}', x);
  }
}
