/** `dist/web/server.js`: the language server's Web Worker entry point (see `server.ts`). */
import { runBrowserServer } from './server.js';

runBrowserServer();
