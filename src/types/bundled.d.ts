/**
 * Files the browser build embeds (esbuild: `.csl` and `.xml` as text; `bundled:corpus` is the
 * compiled corpus, `dist/corpus.json`, aliased in `scripts/build.mjs`).
 */
declare module '*.csl' {
  const text: string;
  export default text;
}
declare module '*.xml' {
  const text: string;
  export default text;
}
declare module 'bundled:corpus' {
  const data: import('../core/model.js').CorpusData;
  export default data;
}
