/**
 * What a Markdown document's build tells pandoc beyond the document itself: the bibliography files
 * it names, and whether it runs the pandoc-crossref filter. A thesis or a paper built with
 * `make` often declares its bibliography only there (`pandoc --bibliography=refs.bib`), in a
 * pandoc defaults file, or in a metadata file; and names pandoc-crossref only there, so that its
 * `@fig:plot` and `@sec:intro` are cross-references, not citations.
 *
 * Where we look, for a document in folder F of workspace folder W (each file read through the
 * workspace, at most {@link MAX_SCRIPTS} scripts a folder):
 * - the front matter's `defaults:` (a file or a list; as `--defaults`, from F);
 * - a `defaults.yaml` (or `defaults.yml`) beside the document;
 * - in F and each folder above it up to W: `Makefile`, `makefile`, `GNUmakefile`, `*.mk` and
 *   `*.sh` (`buildScripts.ts` reads their command lines), whose pandoc commands name files with
 *   `--bibliography`, `--defaults`/`-d`, `--metadata-file`, `-M bibliography=…`, a positional
 *   `.yaml`/`.yml` input (a metadata block), and the filter with `--filter`/`-F`;
 *   `metadata.yml`/`metadata.yaml` there, and `_quarto.yml`, for pandoc-crossref's settings alone.
 *
 * Pandoc's rules (its User's Guide, "Defaults files", `--defaults`, `--metadata-file`,
 * `--bibliography`): a defaults file is found from the working directory, `.yaml` may be left off
 * its name; in it `bibliography:`, `metadata:` (whose `bibliography` and `references` count),
 * `metadata-file:`/`metadata-files:`, `filters:` and `defaults:` (more defaults files) are read, a
 * path relative to the working directory (`${.}` is the defaults file's folder; other variables
 * are not known here). A metadata file's `bibliography:` is relative to the working directory, its
 * `references:` make it a CSL YAML bibliography of its own. pandoc-crossref's settings are its
 * `*Prefix`, `*Title` and other metadata fields (pandoc-crossref manual, "Customization").
 *
 * Bounded: nested defaults at most {@link MAX_DEFAULTS_DEPTH} deep, each file read once per
 * question and cached by its stamp.
 */
import { URI, Utils } from 'vscode-uri';
import type { BibCache } from './bibCache.js';
import type { WorkspaceFiles } from '../workspace/files.js';
import type { BibDeclaration } from '../latex/bibDeclarations.js';
import { readBibFile, type BibFile } from './bibFile.js';
import { FRONT_MATTER, frontMatterOf } from '../markdown/frontMatter.js';
import { factOf, type FactSource } from '../text/textFacts.js';
import { parseYaml } from '../text/yaml.js';
import { hasCrossrefFields } from '../markdown/crossref.js';
import { makefileCommands, shellScriptCommands, UNRESOLVED, type BuildCommand } from '../markdown/buildScripts.js';
import { isInside, mayReadFor } from '../workspace/paths.js';
import { fromFolder } from '../workspace/writtenPath.js';
import { isBuildScript } from '../markdown/buildFiles.js';

/** What a document's build tells pandoc: see the module comment. */
export interface PandocBuild {
  /** The bibliography files the build names, each relative to the folder pandoc runs in (`dir`). */
  bibliographies: BibDeclaration[];
  /** The build runs pandoc-crossref, or a project file holds its settings. */
  pandocCrossref: boolean;
}

/** Folders above the document that are looked in, at most. */
const MAX_FOLDERS = 8;
/** Scripts read per folder, at most. */
export const MAX_SCRIPTS = 16;
/** Nested defaults files, at most. */
const MAX_DEFAULTS_DEPTH = 8;

/** Whether a word names the pandoc-crossref filter (`pandoc-crossref`, `/usr/bin/pandoc-crossref`, `pandoc-crossref.exe`). */
const isCrossrefFilter = (word: string): boolean => /(^|[\\/])pandoc-crossref(\.exe)?$/i.test(word.trim());

/** Whether a value holds a path to take: resolved, no glob, no `~` or environment variable left. */
const usablePath = (p: string): boolean => !!p && !p.includes(UNRESOLVED) && !/[*?[\]]/.test(p) && !p.startsWith('~') && !p.includes('${');

/** What one pandoc command line names. */
interface PandocCommand {
  cwd: URI;
  bibliographies: string[];
  defaults: string[];
  metadataFiles: string[];
  crossref: boolean;
}

/** The pandoc command of a build command, if it is one: the word `pandoc` (a path ending in it, or the pandoc/* Docker images), then its options. */
function pandocCommand(c: BuildCommand): PandocCommand | undefined {
  const at = c.words.findIndex((w) => /(^|\/)pandoc(\.exe)?$/i.test(w) || /^pandoc\/[\w.-]+(:[\w.-]+)?$/.test(w));
  if (at < 0) return undefined;
  const out: PandocCommand = { cwd: c.cwd, bibliographies: [], defaults: [], metadataFiles: [], crossref: false };
  const args = c.words.slice(at + 1);
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    // --long=value, --long value, -Xvalue, -X value.
    const long = /^--([a-z-]+)(?:=(.*))?$/s.exec(a);
    const short = /^-([dFM])(.*)$/s.exec(a);
    let name: string | undefined;
    let value: string | undefined;
    if (long) { name = long[1]; value = long[2]; } else if (short) { name = { d: 'defaults', F: 'filter', M: 'metadata' }[short[1] as 'd' | 'F' | 'M']; value = short[2] || undefined; }
    const takes = ['bibliography', 'defaults', 'metadata-file', 'filter', 'metadata'];
    if (name && takes.includes(name)) {
      if (value === undefined) value = args[++k];
      if (value === undefined) break;
      if (name === 'bibliography') out.bibliographies.push(value);
      else if (name === 'defaults') out.defaults.push(value);
      else if (name === 'metadata-file') out.metadataFiles.push(value);
      else if (name === 'filter') out.crossref ||= isCrossrefFilter(value);
      else {
        // -M bibliography=refs.bib, --metadata=bibliography:refs.bib
        const m = /^bibliography[=:](.*)$/s.exec(value);
        if (m) out.bibliographies.push(m[1]!);
      }
      continue;
    }
    if (!a.startsWith('-') && /\.ya?ml$/i.test(a)) out.metadataFiles.push(a);
  }
  return out;
}

/** A defaults file as pandoc reads it (the fields that matter here), paths as written. */
interface DefaultsFile {
  bibliographies: string[];
  metadataFiles: string[];
  defaults: string[];
  crossref: boolean;
}

/** A YAML string or list of strings as a list. */
const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** Reads a defaults file's text (pandoc's User's Guide, "Defaults files"). */
function readDefaults(text: string): DefaultsFile {
  const v = parseYaml(text).value;
  const d = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const meta = d.metadata && typeof d.metadata === 'object' ? (d.metadata as Record<string, unknown>) : {};
  const filters = Array.isArray(d.filters) ? d.filters : [];
  const crossref = filters.some((f: unknown) => (typeof f === 'string' ? isCrossrefFilter(f) : !!f && typeof f === 'object' && typeof (f as { path?: unknown }).path === 'string' && isCrossrefFilter((f as { path: string }).path)))
    || hasCrossrefFields(meta);
  return {
    bibliographies: [...strings(d.bibliography), ...strings(meta.bibliography)],
    metadataFiles: [...strings(d['metadata-file']), ...strings(d['metadata-files'])],
    defaults: strings(d.defaults),
    crossref,
  };
}

/** A metadata file (or a Markdown file's metadata block) as pandoc reads it: its bibliography, whether it holds references or pandoc-crossref's settings. */
function readMetadata(text: string): { bibliographies: string[]; references: boolean; crossref: boolean } {
  const fm = /^\uFEFF?---[ \t]*\r?\n/.test(text) ? frontMatterOf(text)?.data : undefined;
  const v = fm ?? parseYaml(text).value;
  const m = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  return { bibliographies: strings(m.bibliography), references: Array.isArray(m.references), crossref: hasCrossrefFields(m) || /pandoc-crossref/.test(text) };
}


/** The folders from the document's up to its workspace folder (at most {@link MAX_FOLDERS}). */
function foldersUp(ws: WorkspaceFiles, doc: URI): URI[] {
  const top = ws.folders.find((f) => isInside(f, doc));
  const out: URI[] = [];
  for (let dir = Utils.dirname(doc); out.length < MAX_FOLDERS; dir = Utils.dirname(dir)) {
    out.push(dir);
    if (!top || dir.path === top.path || dir.path.replace(/\/$/, '') === top.path.replace(/\/$/, '') || dir.path === '/') break;
  }
  return top ? out : out.slice(0, 1);
}

/**
 * What a Markdown document's build tells pandoc (see the module comment).
 *
 * @param doc - the document: its URI and text (for its front matter)
 * @param cache - where the files read are cached by stamp
 */
export async function pandocBuildOf(ws: WorkspaceFiles, doc: { uri: URI; readonly text: string; readonly facts?: FactSource }, cache: BibCache): Promise<PandocBuild> {
  const out: PandocBuild = { bibliographies: [], pandocCrossref: false };
  // A file the repository names (a metadata or defaults file, a build script found by listing, a link
  // among them) is read only when its real path is in the workspace, as the LaTeX project's files are.
  const mayRead = (uri: URI) => mayReadFor(ws, doc.uri, uri);
  const seen = new Set<string>();
  const addBib = (dir: URI, path: string) => {
    if (!usablePath(path)) return;
    const key = fromFolder(dir, path).toString();
    if (seen.has(key)) return;
    seen.add(key);
    out.bibliographies.push({ path, via: 'pandoc', dir });
  };
  const metadataFile = async (cwd: URI, path: string) => {
    if (!usablePath(path)) return;
    const file = fromFolder(cwd, path);
    if (!(await mayRead(file))) return;
    const m = await cache.get(ws, file, 'pandoc-metadata', readMetadata);
    if (!m) return;
    for (const b of m.bibliographies) addBib(cwd, b);
    // Its references: it is a CSL YAML bibliography of its own.
    if (m.references) addBib(Utils.dirname(file), Utils.basename(file));
    out.pandocCrossref ||= m.crossref;
  };
  const visited = new Set<string>();
  const defaultsFile = async (cwd: URI, name: string, depth: number): Promise<void> => {
    if (depth > MAX_DEFAULTS_DEPTH || !usablePath(name.replace(/\$\{\.\}/g, '.'))) return;
    // "The .yaml extension may be omitted" (pandoc's User's Guide, --defaults).
    const file = fromFolder(cwd, /\.ya?ml$/i.test(name) ? name : `${name}.yaml`);
    if (visited.has(file.toString())) return;
    visited.add(file.toString());
    if (!(await mayRead(file))) return;
    const d = await cache.get(ws, file, 'pandoc-defaults', readDefaults);
    if (!d) return;
    const here = Utils.dirname(file);
    const local = (p: string) => (p.startsWith('${.}') ? { dir: here, path: p.slice(4).replace(/^[\\/]/, '') || '.' } : { dir: cwd, path: p });
    for (const b of d.bibliographies) { const l = local(b); addBib(l.dir, l.path); }
    for (const m of d.metadataFiles) { const l = local(m); await metadataFile(l.dir, l.path); }
    for (const n of d.defaults) { const l = local(n); await defaultsFile(l.dir, l.path, depth + 1); }
    out.pandocCrossref ||= d.crossref;
  };
  const folder = Utils.dirname(doc.uri);
  // The front matter's defaults:, and a defaults file beside the document.
  for (const name of strings(frontMatterOf(factOf(doc, FRONT_MATTER).value)?.data?.defaults)) await defaultsFile(folder, name, 0);
  for (const name of ['defaults.yaml', 'defaults.yml']) await defaultsFile(folder, name, 0);
  for (const dir of foldersUp(ws, doc.uri)) {
    const listed = await ws.listFolder(dir);
    const names = listed ?? [];
    const scripts = names.filter(isBuildScript).sort().slice(0, MAX_SCRIPTS);
    for (const name of scripts) {
      const uri = Utils.joinPath(dir, name);
      if (!(await mayRead(uri))) continue;
      const commands = await cache.get(ws, uri, 'build-commands', (text) => (/\.sh$/i.test(name) ? shellScriptCommands(text, dir) : makefileCommands(text, dir)));
      for (const c of commands ?? []) {
        const p = pandocCommand(c);
        if (!p) continue;
        out.pandocCrossref ||= p.crossref;
        for (const b of p.bibliographies) addBib(p.cwd, b);
        for (const d of p.defaults) await defaultsFile(p.cwd, d, 0);
        for (const m of p.metadataFiles) await metadataFile(p.cwd, m);
      }
    }
    // pandoc-crossref's settings in the project's metadata files and Quarto project, named by the build or not.
    for (const name of ['metadata.yml', 'metadata.yaml', '_quarto.yml', '_quarto.yaml']) {
      if (out.pandocCrossref) break;
      if (listed && !listed.includes(name)) continue;
      const file = Utils.joinPath(dir, name);
      if (!(await mayRead(file))) continue;
      const m = await cache.get(ws, file, 'pandoc-metadata', readMetadata);
      out.pandocCrossref ||= !!m?.crossref;
    }
  }
  return out;
}

/**
 * The references a Markdown document carries in its front matter (`references:`, a list of CSL
 * items: pandoc's User's Guide, "Specifying bibliographic data"; Quarto reads them too), read as a
 * CSL YAML bibliography whose offsets and lines are the document's own (for go to definition).
 * Pandoc uses them beside the `bibliography:` files.
 *
 * @returns the document as a bibliography file, `inline`; undefined when its front matter has no `references:` list
 */
export function inlineReferences(uri: URI, text: string): (BibFile & { uri: URI; inline: true }) | undefined {
  const fm = frontMatterOf(text);
  if (!fm || !Array.isArray(fm.data?.references)) return undefined;
  // The front matter alone, at its own offsets: what comes before it blanked, line breaks kept.
  const aligned = text.slice(0, fm.start).replace(/[^\r\n]/g, ' ') + text.slice(fm.start, fm.end);
  const file = readBibFile(`${Utils.basename(uri)}.yaml`, aligned);
  return file && { ...file, uri, inline: true };
}
