/**
 * Chinese, Japanese and Korean text: the one test for it, shared by the corpus reader (a CJK
 * title needs its `title_en`) and the BibTeX writer (which writes `title_en` for pdflatex).
 */

/** Whether a string holds CJK characters, which pdflatex cannot typeset without CJK packages. */
export function hasCjk(s: string): boolean {
  return /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(s);
}
