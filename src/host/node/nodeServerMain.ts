/** `dist/server.js`: the language server's Node entry point (see `server.ts`). */
import { runNodeServer } from './nodeServerHost.js';

runNodeServer();
