/**
 * The forms a citation is written in, as the settings name them: a leaf that the planner
 * (`insert.ts`), the formatter (`formatCitation.ts`) and the settings schema all read.
 */

/** The LaTeX citation commands Insert Citation may write (setting `mlsysPapers.latexCommand`): LaTeX's `\cite`, natbib's `\citep`/`\citet`, biblatex's `\parencite`/`\autocite`/`\textcite`. */
export const LATEX_COMMANDS = ['cite', 'citep', 'citet', 'parencite', 'autocite', 'textcite'] as const;
/** One of {@link LATEX_COMMANDS}: the command's name without its backslash. */
export type CiteCommand = (typeof LATEX_COMMANDS)[number];

/** How citations are written in Markdown (setting `mlsysPapers.markdownStyle`): a Pandoc citation `[@key]`, or a link `[Title](url)`. */
export const MARKDOWN_STYLES = ['pandoc', 'link'] as const;
/** One of {@link MARKDOWN_STYLES}. */
export type MarkdownStyle = (typeof MARKDOWN_STYLES)[number];
