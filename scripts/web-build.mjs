// esbuild options of the browser build (package.json `browser`), shared by scripts/build.mjs and
// the unit test that runs the Web Worker server in a context without Node's globals.

const web = { bundle: true, platform: 'browser', target: 'es2022', sourcemap: true, logLevel: 'warning', minify: true };

/** The extension for the web worker extension host: CommonJS, as VS Code loads it. */
export const webExtensionOptions = {
  ...web, format: 'cjs', entryPoints: ['src/extension.web.ts'], outfile: 'dist/web/extension.js', external: ['vscode'],
};

/**
 * The language server as a Web Worker script. It embeds the compiled corpus (`bundled:corpus`,
 * the JSON file at `corpusJson`) and the CSL styles and locales (as text).
 *
 * @param {string} corpusJson - path of the compiled corpus (`dist/corpus.json`), relative to the cwd or absolute
 * @param {string} [outfile]
 */
export function webServerOptions(corpusJson, outfile = 'dist/web/server.js') {
  return {
    ...web, format: 'iife', entryPoints: ['src/host/browser/serverMain.ts'], outfile,
    alias: { 'bundled:corpus': corpusJson.startsWith('/') ? corpusJson : `./${corpusJson}` },
    loader: { '.csl': 'text', '.xml': 'text' },
  };
}
