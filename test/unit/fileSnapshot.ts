/**
 * What "nothing was written there" compares: every path under a folder with its contents, for the
 * tests that hold writes inside the workspace (hostileFiles.test.ts, writesOutside.property.test.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every path under `dir` (links followed) with its text, `(folder)`, or `(dangling)` for a link to nothing. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    out[name] = !st ? '(dangling)' : st.isFile() ? readFileSync(p, 'utf8') : '(folder)';
  }
  return out;
}
