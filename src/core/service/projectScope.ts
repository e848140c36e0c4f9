/**
 * The {@link CitationScope} over today's models: the host's listing of the workspace's citing
 * files, the bibliography resolver (`ServiceContext.bibliographyOf`: `latexRoot`, `% !TEX root`,
 * the LaTeX project's roots, front matter, `_quarto.yml`, `index.Rmd`) and the LaTeX project's
 * graph (`ScopeHost.filesOf`, `unresolvedOf`). The one adapter between the citation-following
 * features and the workspace model: when the workspace store answers "this document's
 * bibliographies" and "who depends on this file", only this file changes.
 *
 * Each citing file is read and scanned once per stamp (an open document's version, else the
 * file's modification time and size); a snapshot resolves each file's bibliography once.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { URI } from 'vscode-uri';
import { readBibFile } from '../bibliography/bibFile.js';
import type { DocumentBibliography } from '../bibliography/resolve.js';
import { documentCitations } from '../cite/citations.js';
import { latexCiteCommands } from '../latex/commands.js';
import { maskLatex } from '../latex/scan.js';
import { fileKind, isCiting } from '../workspace/fileKind.js';
import { inWorkspaceReal, pathKey, realUri } from '../workspace/paths.js';
import type { BibReaders, CitationScope, ScopeDocument, ScopeGap, ScopeHost, ScopeSnapshot } from './citationScope.js';
import type { ServiceContext } from './serviceContext.js';

/** A macro parameter (`#1`, `##1`) in a citation's key list: the macro cites through its argument. */
const PARAMETER = /#\d/;

/**
 * Whether a LaTeX text cites through a macro's argument: a citation command whose key list holds
 * a macro parameter (`\newcommand{\see}[1]{\cite{#1}}`), outside comments and verbatim text. The
 * keys the macro is called with are cited, and `latexDocumentCitations` cannot see them.
 */
export function citesThroughMacro(text: string): boolean {
  if (!text.includes('#')) return false;
  const code = maskLatex(text);
  return latexCiteCommands(code).some((cmd) => cmd.groups.some((g) => PARAMETER.test(code.slice(g.open + 1, g.end))));
}

/** bibtopic's commands that print a section's entries whether cited or not (bibtopic.dtx: `\btPrintNotCited`, `\btPrintAll`). */
const PRINTS_UNCITED = /\\btPrint(?:NotCited|All)(?![A-Za-z@])/;

/**
 * Whether a LaTeX text prints entries it does not cite (bibtopic's `\btPrintNotCited` or
 * `\btPrintAll`, outside comments and verbatim text): every entry of its bibliography is printed.
 */
export function printsUncited(text: string): boolean {
  return text.includes('\\btPrint') && PRINTS_UNCITED.test(maskLatex(text));
}

/** The language id a citing file's name gives (`latex`, `markdown`, `quarto`); undefined for other files. */
function languageOf(uri: URI): string | undefined {
  const kind = fileKind(uri);
  return isCiting(kind) ? kind : undefined;
}

/**
 * The scope over the LaTeX project model and the bibliography resolver.
 *
 * @param ctx - the service's context: the workspace's files, the resolver, cross-reference syntaxes
 * @param host - the listing of citing files and the LaTeX project's graph
 */
export function createProjectScope(ctx: ServiceContext, host: ScopeHost): CitationScope {
  const { ws } = ctx;
  /** Each file as last read, by URI: its stamp and cross-reference syntax then, and what it gave. */
  const read = new Map<string, { stamp: string; syntax: string; doc: ScopeDocument }>();

  const readDocument = async (uri: URI, languageId: string): Promise<ScopeDocument | undefined> => {
    const stamp = await ws.stamp(uri);
    if (stamp === undefined) return undefined;
    const id = uri.toString();
    const known = read.get(id);
    const open = ws.openDocument(uri);
    // The same stamp is the same text (an open document's version, else the file's time and size): not read again.
    const text = known?.stamp === stamp && known.doc.languageId === languageId ? known.doc.text : open?.text ?? (await ws.readText(uri));
    if (text === undefined) return undefined;
    const probe = TextDocument.create(id, languageId, open?.version ?? 0, text);
    const crossrefs = await ctx.crossrefsOf(probe);
    const syntax = JSON.stringify(crossrefs ?? null);
    if (known && known.stamp === stamp && known.syntax === syntax && known.doc.text === text) return known.doc;
    const { cited, all } = documentCitations(text, languageId, crossrefs);
    const doc: ScopeDocument = { uri, languageId, text, version: open?.version, cited, all, citesThroughMacro: languageId === 'latex' && citesThroughMacro(text),
      printsUncited: languageId === 'latex' && printsUncited(text) };
    read.set(id, { stamp, syntax, doc });
    return doc;
  };

  return {
    async bibFile(uri) {
      const file = await ctx.cache.get(ws, uri, 'bib', (text) => readBibFile(uri.path, text));
      return file ? { ...file, uri } : undefined;
    },

    async snapshot(): Promise<ScopeSnapshot> {
      const { uris, complete } = await host.citingFiles();
      const docs = new Map<string, ScopeDocument>();
      const bibs = new Map<string, DocumentBibliography | undefined>();
      for (const uri of uris) {
        const languageId = languageOf(uri);
        const id = uri.toString();
        if (!languageId || docs.has(id)) continue;
        const doc = await readDocument(uri, languageId);
        if (!doc) continue;
        docs.set(id, doc);
        bibs.set(id, await ctx.bibliographyOf(TextDocument.create(id, languageId, doc.version ?? 0, doc.text)));
      }
      // Forget files no longer listed (deleted, or a folder gone).
      for (const id of [...read.keys()]) if (!docs.has(id)) read.delete(id);

      /** Real-path keys of bibliography files, asked once per snapshot. */
      const keys = new Map<string, Promise<string | undefined>>();
      const keyOf = (uri: URI): Promise<string | undefined> => {
        let k = keys.get(uri.toString());
        if (!k) keys.set(uri.toString(), k = realUri(ws, uri).then((real) => real && pathKey(ws, real)));
        return k;
      };
      /** The files of a root's links that exist in the workspace but are no `.tex` file the project knows (`\input{table.tikz}`): read as LaTeX. */
      const linked = new Map<string, ScopeDocument | undefined>();

      return {
        document: (uri) => docs.get(uri.toString()),
        bibliographyOf: (uri) => bibs.get(uri.toString()),

        projectOf(uri) {
          const self = docs.get(uri.toString());
          if (!self) return [];
          const bib = bibs.get(uri.toString());
          const roots = new Set((bib?.roots ?? (bib ? [bib.root] : [uri])).map((r) => r.toString()));
          const out = [self];
          for (const [id, doc] of docs) {
            if (doc === self) continue;
            const b = bibs.get(id);
            if ((b?.roots ?? (b ? [b.root] : [doc.uri])).some((r) => roots.has(r.toString()))) out.push(doc);
          }
          return out;
        },

        async readersOf(bib): Promise<BibReaders> {
          const want = await keyOf(bib);
          const documents: ScopeDocument[] = [];
          const gaps: ScopeGap[] = [];
          const roots = new Map<string, URI>();
          for (const [id, doc] of docs) {
            const b = bibs.get(id);
            let reads = false;
            for (const f of b?.files ?? []) {
              if (f.uri.toString() === bib.toString() || (want !== undefined && (await keyOf(f.uri)) === want)) { reads = true; break; }
            }
            if (!reads) continue;
            documents.push(doc);
            if (doc.languageId === 'latex') for (const r of b?.roots ?? []) roots.set(r.toString(), r);
          }
          // What the roots read that the project does not hold: a file of the workspace is read as LaTeX; anything else is a gap.
          for (const root of roots.values()) {
            for (const link of host.unresolvedOf(root)) {
              const id = `${link.from.toString()} ${link.path}`;
              if (!linked.has(id)) linked.set(id, await readLinked(link.candidates));
              const doc = linked.get(id);
              if (doc) { if (!documents.includes(doc)) documents.push(doc); } else gaps.push({ kind: 'unresolved-link', uri: link.from, path: link.path });
            }
          }
          for (const doc of documents) {
            if (doc.all) gaps.push({ kind: 'cites-all', uri: doc.uri });
            if (doc.citesThroughMacro) gaps.push({ kind: 'cite-macro', uri: doc.uri });
            if (doc.printsUncited) gaps.push({ kind: 'prints-uncited', uri: doc.uri });
          }
          if (!(await inWorkspaceReal(ws, bib))) gaps.push({ kind: 'outside-workspace', uri: bib });
          if (!complete) gaps.push({ kind: 'listing' });
          return { bib, documents, gaps };
        },
      };

      /** The first candidate of a link that exists in the workspace, read as LaTeX; undefined when none does. */
      async function readLinked(candidates: readonly URI[]): Promise<ScopeDocument | undefined> {
        for (const c of candidates) {
          if (!(await ws.exists(c)) || !(await inWorkspaceReal(ws, c))) continue;
          const known = docs.get(c.toString());
          if (known) return known;
          const doc = await readDocument(c, 'latex');
          if (doc) return doc;
        }
        return undefined;
      }
    },
  };
}
