// `npm run package`: builds the .vsix with @vscode/vsce (`vscode:prepublish` runs the build), from
// the allow-list in .vscodeignore, and fails if it is larger than 3 MB (the cap went from 1 MB to
// 3 MB with the field's literature in the corpus, issue 26).
//
// The project has no public repository yet, so vsce cannot turn the README's relative links into
// absolute ones: the package's README (dist/README.md) is ours without the screenshots section,
// whose images are not in the package (they would add about 1 MB to the .vsix). Once the project has
// a home, set `repository` in package.json and drop --allow-missing-repository.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';

/** The largest .vsix, in bytes (README.md says the same; test/unit/package.test.ts holds them together). */
const LIMIT = 3 * 1024 * 1024;
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const out = process.env.VSIX_OUT ?? `${pkg.name}-${pkg.version}.vsix`;

const readme = readFileSync('README.md', 'utf8');
const withoutScreenshots = readme.replace(/\n## Screenshots\n[\s\S]*?(?=\n## )/, '\n');
if (withoutScreenshots === readme) throw new Error('package: README.md has no "## Screenshots" section to leave out; update scripts/package.mjs');
mkdirSync('dist', { recursive: true });
writeFileSync('dist/README.md', withoutScreenshots);

execFileSync(process.execPath, [
  'node_modules/@vscode/vsce/vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links',
  '--readme-path', 'dist/README.md', '--out', out,
], { stdio: 'inherit' });

// Every file the manifest names, and every file the code opens at run time, must be in the package.
const RUNTIME = [
  'dist/server.js', 'dist/csl.js', 'dist/corpus.json', 'dist/web/server.js', 'csl/styles/apa.csl', 'csl/locales/locales-en-US.xml',
  // The manifest's strings (`%key%`) and the runtime strings' Chinese bundle (package.json `l10n`).
  'package.nls.json', 'package.nls.zh-cn.json', 'l10n/bundle.l10n.zh-cn.json',
];
const named = new Set([pkg.main, pkg.browser, pkg.icon, ...RUNTIME].map((p) => p.replace(/^\.\//, '')));
(function walk(node, key) {
  if (typeof node === 'string') {
    // `path`, `icon`; a walkthrough step's `media.image`/`media.markdown`/`media.svg`; the Markdown preview's styles.
    if (['path', 'icon', 'image', 'markdown', 'svg', 'markdown.previewStyles'].includes(key) && /\.[a-z]+$/i.test(node)) named.add(node.replace(/^\.\//, ''));
  } else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) walk(v, Array.isArray(node) ? key : k);
  }
})(pkg.contributes, '');
const listed = new Set(execFileSync(process.execPath, ['node_modules/@vscode/vsce/vsce', 'ls', '--no-dependencies'], { encoding: 'utf8' }).split('\n').map((l) => l.trim()));
const missing = [...named].filter((p) => !listed.has(p));
if (missing.length) {
  console.error(`package: the .vsix lacks files the extension needs (add them to .vscodeignore's allow-list): ${missing.join(', ')}`);
  process.exit(1);
}

const size = statSync(out).size;
console.log(`package: ${out} is ${(size / 1024).toFixed(0)} KB (limit ${LIMIT / 1024} KB)`);
if (size > LIMIT) {
  console.error('package: the .vsix is larger than 3 MB; see `npx vsce ls --no-dependencies` for what it holds');
  process.exit(1);
}
