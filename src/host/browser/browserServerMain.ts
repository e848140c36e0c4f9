/** `dist/web/server.js`: the language server's Web Worker entry point (see `server.ts`). */
import { runBrowserServer } from './browserServerHost.js';

runBrowserServer();
