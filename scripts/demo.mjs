// `npm run demo`: builds the extension and opens it in a real VS Code (code-server) on a fresh copy
// of demo/ (a Markdown note and a LaTeX paper), then prints the address to open. Ctrl+C stops it.
// Env: PORT (default 8080), HOST (default 127.0.0.1).
// The workspace copy lives inside this repository (.cache/demo), so VS Code would offer to open the
// repository's git folder: demo/.vscode/settings.json sets git.openRepositoryInParentFolders to never.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`demo: PORT=${process.env.PORT} is not a port number (1-65535)`);
  process.exit(1);
}
/** What to say when code-server cannot listen on HOST:PORT, naming the variables that choose them. */
const cannotListen = (err) => {
  const inUse = err.code === 'EADDRINUSE';
  const example = inUse ? `PORT=${port === 65535 ? 8081 : port + 1} npm run demo` : 'HOST=127.0.0.1 npm run demo';
  return `demo: cannot listen on ${host}:${port} (${inUse ? 'the port is in use' : err.message}). `
    + `The environment variables PORT and HOST choose the port and address, e.g.  ${example}`;
};

// Before the build, so that a taken port is reported at once (code-server would fail only after it).
await new Promise((done) => {
  const probe = createServer().once('error', (err) => {
    console.error(cannotListen(err));
    process.exit(1);
  }).listen(port, host, () => probe.close(done));
});

const step = (what, cmd, args) => {
  console.log(`demo: ${what}`);
  const r = spawnSync(cmd, args, { cwd: repo, stdio: 'inherit' });
  if (r.status !== 0) { console.error(`demo: ${what} failed`); process.exit(r.status ?? 1); }
};
step('installing code-server and chromium if missing', 'bash', ['scripts/setup-vscode-test.sh']);
step('building the extension', process.execPath, ['scripts/build.mjs']);

const base = join(repo, '.cache/demo');
rmSync(base, { recursive: true, force: true });
const workspace = join(base, 'workspace');
const extensions = join(base, 'extensions');
const userData = join(base, 'user-data');
cpSync(join(repo, 'demo'), workspace, { recursive: true });
mkdirSync(extensions, { recursive: true });
mkdirSync(join(userData, 'User'), { recursive: true });
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
symlinkSync(repo, join(extensions, `${pkg.publisher}.${pkg.name}-${pkg.version}`));
writeFileSync(join(userData, 'User/settings.json'), JSON.stringify({
  'workbench.startupEditor': 'none', 'chat.disableAIFeatures': true, 'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off', 'update.mode': 'none', 'workbench.secondarySideBar.defaultVisibility': 'hidden',
}, null, 2));

const node24 = join(repo, '.cache/node24/bin/node');
const entry = join(repo, '.cache/code-server/node_modules/code-server/out/node/entry.js');
const child = spawn(node24, [entry, '--auth', 'none', '--bind-addr', `${host}:${port}`, '--disable-telemetry',
  '--disable-update-check', '--disable-workspace-trust', '--user-data-dir', userData, '--extensions-dir', extensions, workspace], {
  stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  env: { ...process.env, CODE_SERVER_CONFIG: join(base, 'config.yaml'), XDG_DATA_HOME: join(base, 'xdg') },
});
let announced = false;
const onOutput = (buf) => {
  const text = buf.toString();
  if (!announced && /HTTP server listening/.test(text)) {
    announced = true;
    console.log(`\nMLSys Papers is running in VS Code (code-server). Open:\n\n    http://${host}:${port}/?folder=${encodeURIComponent(workspace)}\n`);
    console.log('Then click the MLSys Papers icon in the activity bar, or press Ctrl+Alt+P in notes.md or paper.tex.');
    console.log('The workspace is a fresh copy of demo/ in .cache/demo/workspace. Ctrl+C stops the server.');
  }
  if (/EADDRINUSE/.test(text)) console.error(cannotListen({ code: 'EADDRINUSE' }));
  else if (/error/i.test(text) && !announced) process.stderr.write(text);
};
child.stdout.on('data', onOutput);
child.stderr.on('data', onOutput);
const stop = () => { try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ } process.exit(0); };
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
child.on('exit', (code) => { console.error(`demo: code-server exited (${code})`); process.exit(code ?? 1); });
