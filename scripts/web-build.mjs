// esbuild options of the browser build (package.json `browser`), shared by scripts/build.mjs and
// the unit test that runs the Web Worker server in a context without Node's globals.

const web = { bundle: true, platform: 'browser', target: 'es2022', sourcemap: true, logLevel: 'warning', minify: true };

/** The extension for the web worker extension host: CommonJS, as VS Code loads it. */
export const webExtensionOptions = {
  ...web, format: 'cjs', entryPoints: ['src/extension.web.ts'], outfile: 'dist/web/extension.js', external: ['vscode'],
};

/**
 * The language server as a Web Worker script. It embeds no data: the client gives it the compiled
 * corpus and the CSL files from the package (`src/host/browser/browserServerHost.ts`).
 *
 * @param {string} [outfile]
 */
export function webServerOptions(outfile = 'dist/web/server.js') {
  return { ...web, format: 'iife', entryPoints: ['src/host/browser/browserServerMain.ts'], outfile };
}
