/**
 * The display language of the text the core writes for people (hovers, diagnostics, the details
 * page, refusals): `@vscode/l10n`, which reads the same `l10n/bundle.l10n.<locale>.json` bundles
 * as `vscode.l10n` (`@vscode/l10n-dev` extracts both kinds of call into `l10n/bundle.l10n.json`).
 * Until {@link configureL10n} is given a bundle, every message is its English source; the CLI and
 * other editors' clients get English.
 *
 * Topic labels are the corpus's own two languages (`label`, `zh` in `corpus/topics.yaml`), not
 * translations: {@link TopicLabels} says which the views show, a value each caller passes (read
 * from the settings: `config/settings.ts`'s `topicLabelsOf`), never state of the process (the
 * labels themselves, with the levels' and kinds', are `corpus/labels.ts`).
 */
import * as l10n from '@vscode/l10n';

/**
 * Which of a topic's labels are shown: the English `label`, the Chinese `zh`, or both
 * (`English · 中文`).
 */
export type TopicLabels = 'en' | 'zh' | 'both';


/**
 * Sets the language of the core's messages for this process. `@vscode/l10n` keeps its bundle per
 * process, as `vscode.l10n` does per extension: the display language is VS Code's, fixed for the
 * life of the extension host and of the server it starts.
 *
 * @param bundle - a loaded l10n bundle (message → translation), as `vscode.l10n.bundle` has it;
 *   absent, `undefined` or empty keeps English
 */
export function configureL10n(bundle: Record<string, string> | undefined): void {
  if (bundle && Object.keys(bundle).length) l10n.config({ contents: bundle });
}
