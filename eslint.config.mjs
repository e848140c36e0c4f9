// The project's rules that a linter can hold (`npm run lint`, part of `npm test`):
// - the layers of ARCHITECTURE.md ("Who may import what"): packages by `no-restricted-imports`,
//   folders by import-x's `no-restricted-paths`, the core's own folders in the order `CORE_LAYERS`;
// - no import cycles in src/ (import-x's `no-cycle`, which skips type-only imports whatever its
//   options: `test/unit/architecture.test.ts` holds the cycles type imports make too);
// - the features reach the server only through the typed facade `features/client/serverApi.ts`
//   (`no-restricted-imports`: no `vscode-languageclient`, no message by name, outside `features/client/`);
// - no regular expression whose backtracking can grow super-linearly on user text
//   (eslint-plugin-regexp's `no-super-linear-backtracking` and friends);
// - no silent catch: a catch that drops its error says why (`// ignored: <reason>`), a local rule.
// Type-aware rules are left out on purpose: they need the type checker and `npm run typecheck`
// already runs it.
import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';
import importX from 'eslint-plugin-import-x';

/**
 * The layers of `src/core`, lowest first (ARCHITECTURE.md, "Who may import what"): a folder imports
 * only the folders before it. `search` is the folder's own files; `search/corpus` and
 * `search/library` are layers of their own. `test/unit/architecture.test.ts` checks every import
 * (type-only ones too) against this list, and the zones below make `npm run lint` refuse one.
 */
export const CORE_LAYERS = ['text', 'workspace', 'corpus', 'latex', 'markdown', 'cite', 'bibliography', 'search', 'search/corpus', 'search/library', 'library', 'checks', 'notes', 'config', 'service'];

/** One `no-restricted-paths` zone per core layer: it may not import the layers above it. */
const coreLayerZones = CORE_LAYERS.slice(0, -1).map((layer, i) => ({
  target: layer === 'search' ? './src/core/search/*.ts' : `./src/core/${layer}`,
  from: CORE_LAYERS.slice(i + 1).map((above) => `./src/core/${above}`),
  message: `src/core/${layer} imports only the core layers below it (${CORE_LAYERS.slice(0, i).join(', ') || 'none'}; ARCHITECTURE.md).`,
}));

/** `no-restricted-imports` patterns: each a package (or `node:` prefix) a layer must not import. */
const restrict = (groups, message) => ['error', { patterns: [{ group: groups, message }] }];

/**
 * No silent catch (the rule `catches.test.ts` held with regular expressions before): a `catch`
 * clause that does nothing with its error, and a `.catch(handler)` whose handler drops it
 * (`() => {}`, `() => undefined`), must say why dropping it loses nothing with a
 * `// ignored: <reason>` comment. A clause that uses the bound error (logs, returns, wraps it) or
 * throws passes.
 */
export const noSilentCatch = {
  meta: {
    type: 'problem',
    messages: {
      silent: 'A catch that drops its error says why (`// ignored: <reason>`), or logs or returns the cause.',
      handler: 'A .catch handler that drops the error says why (`// ignored: <reason>`), or logs the cause.',
    },
    schema: [],
  },
  create(context) {
    const source = context.sourceCode;
    const marked = (node) => source.getCommentsInside(node).concat(source.getCommentsBefore(node)).some((c) => /^\s*ignored: \S/.test(c.value));
    return {
      CatchClause(node) {
        if (marked(node.body)) return;
        const [variable] = source.getDeclaredVariables(node);
        if (variable && variable.references.length > 0) return;
        if (node.body.body.some((s) => s.type === 'ThrowStatement')) return;
        context.report({ node, messageId: 'silent' });
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier' || callee.property.name !== 'catch') return;
        const handler = node.arguments[0];
        if (!handler || (handler.type !== 'ArrowFunctionExpression' && handler.type !== 'FunctionExpression')) return;
        const body = handler.body;
        const drops = body.type === 'BlockStatement' ? body.body.length === 0
          : (body.type === 'Identifier' && body.name === 'undefined') || (body.type === 'Literal' && body.value === null)
            || (body.type === 'UnaryExpression' && body.operator === 'void');
        if (drops && !marked(node)) context.report({ node: handler, messageId: 'handler' });
      },
    };
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'dist-test/**', '.cache/**', 'node_modules/**', 'test-results/**', 'test/**', 'bench/**', 'scripts/**', '*.mjs', '*.mts'] },
  {
    files: ['src/**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 2022, sourceType: 'module' } },
    plugins: { '@typescript-eslint': tseslint.plugin, regexp, 'import-x': importX, local: { rules: { 'no-silent-catch': noSilentCatch } } },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'no-empty': ['error', { allowEmptyCatch: false }],
      'local/no-silent-catch': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'regexp/no-super-linear-backtracking': 'error',
      'import-x/no-restricted-paths': ['error', {
        zones: [
          { target: './src/core', from: './src', except: ['./core'], message: 'src/core imports nothing outside src/core (ARCHITECTURE.md).' },
          { target: './src/server', from: './src', except: ['./core', './server'], message: 'src/server imports only src/core (ARCHITECTURE.md).' },
          { target: './src/host/node', from: ['./src/features', './src/extension.ts', './src/extension.web.ts', './src/cli.ts', './src/cli'], message: 'the Node host imports no VS Code layer (ARCHITECTURE.md).' },
          { target: './src/host/browser', from: './src', except: ['./core', './server', './host/browser'], message: 'the browser host imports only src/core and src/server (ARCHITECTURE.md).' },
          { target: ['./src/features', './src/activate.ts'], from: ['./src/host', './src/cli.ts', './src/cli'], message: 'the VS Code layer reaches the server only through its protocol (ARCHITECTURE.md).' },
          { target: ['./src/features', './src/activate.ts'], from: './src/server', except: ['./protocol.ts'], message: 'the VS Code layer reaches the server only through its protocol (ARCHITECTURE.md).' },
          { target: ['./src/cli.ts', './src/cli'], from: ['./src/features', './src/activate.ts'], message: 'the CLI imports no VS Code layer (ARCHITECTURE.md).' },
          ...coreLayerZones,
        ],
      }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(['vscode', 'node:*', 'vscode-languageserver', 'vscode-languageserver/*', 'vscode-languageclient', 'vscode-languageclient/*'], 'the core runs in a Web Worker and in any editor: no vscode, no node:, no LSP transport') },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(['vscode', 'node:*', 'vscode-languageserver/*', 'vscode-languageclient', 'vscode-languageclient/*'], 'the server runs in a Node process and in a Web Worker: no vscode, no node:, no transport-specific entry') },
  },
  {
    files: ['src/host/node/**/*.ts', 'src/cli.ts', 'src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(['vscode'], 'the Node host and the CLI run outside VS Code') },
  },
  {
    files: ['src/host/browser/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(['vscode', 'node:*', 'vscode-languageserver/node'], 'the Web Worker host runs in a browser: no vscode, no node:, no Node transport') },
  },
  {
    files: ['src/features/**/*.ts', 'src/activate.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['node:*', 'vscode-languageclient/node', 'vscode-languageclient/browser'], message: 'the VS Code layer runs on desktop and in the browser: no node:, no transport (the entry points choose it)' },
        { group: ['vscode-languageclient'], message: 'a feature talks to the server through ctx.server (features/client/serverApi.ts), not the language client' },
        { regex: '/server/protocol\\.js$', importNames: ['Methods', 'ClientRequests', 'ClientNotifications', 'ServerRequests', 'ServerNotifications'], message: 'a feature sends and receives custom messages through ctx.server (features/client/serverApi.ts), not by name' },
      ] }],
    },
  },
  {
    // The client plumbing: the language client and the typed facade over it.
    files: ['src/features/client/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(['node:*', 'vscode-languageclient/node', 'vscode-languageclient/browser'], 'the VS Code layer runs on desktop and in the browser: no node:, no transport (the entry points choose it)') },
  },
  {
    files: ['src/extension.web.ts'],
    rules: { 'no-restricted-imports': restrict(['node:*', 'vscode-languageclient/node', 'vscode-languageserver/node'], 'the web entry runs in a browser: no node:, no Node transport') },
  },
);
