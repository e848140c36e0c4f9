/**
 * Generated Pandoc Markdown documents with known citations: paragraphs whose citations are
 * recorded in order, mixed with every construct in which pandoc reads no citation (fenced and
 * indented code, inline code, raw blocks, HTML comments, math, e-mail addresses), each holding
 * citation syntax that must not be read.
 */
import fc from 'fast-check';

/** A generated document and the keys pandoc reads in it, in order. */
export interface GeneratedMarkdown {
  text: string;
  keys: string[];
}

const regchar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzAZ0189_é');
const punct = fc.constantFrom(...':.#$%&-+?<>~/');

/** A simple citation key as pandoc defines it: regular characters with single punctuation inside. */
export const pandocKeyArb: fc.Arbitrary<string> = fc
  .tuple(regchar, fc.array(fc.tuple(fc.option(punct, { freq: 4 }), regchar), { maxLength: 8 }))
  .map(([first, rest]) => first + rest.map(([p, c]) => (p ?? '') + c).join(''));

const wordArb = fc.stringMatching(/^[a-z]{1,8}$/);

/** One piece of a paragraph: a word, or a citation in one of pandoc's forms (with the keys it cites). */
const inlineArb: fc.Arbitrary<{ text: string; keys: string[] }> = fc.oneof(
  { weight: 4, arbitrary: wordArb.map((w) => ({ text: w, keys: [] })) },
  { weight: 2, arbitrary: pandocKeyArb.map((k) => ({ text: `@${k}`, keys: [k] })) },
  { weight: 1, arbitrary: pandocKeyArb.map((k) => ({ text: `[-@${k}]`, keys: [k] })) },
  { weight: 1, arbitrary: pandocKeyArb.map((k) => ({ text: `@{${k}}`, keys: [k] })) },
  { weight: 1, arbitrary: fc.tuple(pandocKeyArb, pandocKeyArb).map(([a, b]) => ({ text: `[@${a},@${b}]`, keys: [a, b] })) },
  { weight: 1, arbitrary: fc.tuple(wordArb, pandocKeyArb, pandocKeyArb).map(([w, a, b]) => ({ text: `[${w} @${a}, p. 3; @${b}]`, keys: [a, b] })) },
  // Never read: inline code, math, an e-mail address, an HTML comment, an escaped `@`.
  { weight: 1, arbitrary: pandocKeyArb.map((k) => ({ text: `\`@${k}\``, keys: [] })) },
  // A `$` in the key would end the math early.
  { weight: 1, arbitrary: pandocKeyArb.map((k) => ({ text: `$@${k.replace(/\$/g, '.')}$`, keys: [] })) },
  { weight: 1, arbitrary: wordArb.map((w) => ({ text: `${w}@example.org`, keys: [] })) },
  { weight: 1, arbitrary: pandocKeyArb.map((k) => ({ text: `<!-- @${k} -->`, keys: [] })) },
  // Escaped, the key is plain text, where a `$` would open math.
  { weight: 1, arbitrary: pandocKeyArb.map((k) => ({ text: `\\@${k.replace(/\$/g, '.')}`, keys: [] })) },
);

const paragraphArb: fc.Arbitrary<{ lines: string[]; keys: string[] }> = fc
  .array(fc.array(inlineArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 })
  .map((lines) => ({ lines: lines.map((l) => l.map((p) => p.text).join(' ')), keys: lines.flatMap((l) => l.flatMap((p) => p.keys)) }));

/** Lines of code-like content, full of citation syntax. */
const codeLinesArb = fc.array(
  fc.tuple(wordArb, pandocKeyArb, pandocKeyArb).map(([w, a, b]) => `${w} @${a} [@${b}] [@${a},@${b}]`),
  { minLength: 1, maxLength: 3 },
);

/** A block pandoc reads no citation in. */
const hiddenBlockArb: fc.Arbitrary<string[]> = fc.oneof(
  fc.tuple(fc.constantFrom('```', '````', '~~~'), fc.constantFrom('', 'python', '{=latex}', '{.r}'), codeLinesArb)
    .map(([fence, info, body]) => [fence + info, ...body, fence]),
  codeLinesArb.map((body) => body.map((l) => `    ${l}`)),
  codeLinesArb.map((body) => body.map((l) => `\t${l}`)),
  fc.tuple(codeLinesArb, codeLinesArb).map(([a, b]) => ['<!--', ...a, '', ...b, '-->']),
  codeLinesArb.map((body) => ['$$', ...body, '$$']),
);

/** A document: paragraphs and hidden blocks separated by blank lines, with LF or CRLF line ends. */
export const markdownDocArb: fc.Arbitrary<GeneratedMarkdown> = fc
  .tuple(
    fc.array(fc.oneof(paragraphArb.map((p) => ({ ...p, hidden: false })), hiddenBlockArb.map((lines) => ({ lines, keys: [] as string[], hidden: true }))), { minLength: 1, maxLength: 8 }),
    fc.constantFrom('\n', '\r\n'),
  )
  .map(([blocks, eol]) => ({
    // An indented block right after a paragraph would be the paragraph's lazy continuation: a
    // blank line separates every block.
    text: blocks.map((b) => b.lines.join(eol)).join(eol + eol) + eol,
    keys: blocks.flatMap((b) => b.keys),
  }));
