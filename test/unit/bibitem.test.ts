/**
 * `thebibliography` and `.bbl` files as bibliographies: the `\bibitem` reader (`latex/bibitems.ts`),
 * the project's view of a root's `\bibitem`s across its files and the `.bbl` files it inputs
 * (`latex/project.ts`, `bibliography/thebibliography.ts`), and what the service and the CLI make of them:
 * no "unknown key" for a key a `\bibitem` defines, a message naming the thebibliography for one
 * no `\bibitem` defines, go to definition, completion, hover, and no `.bib` planned beside it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { refusalText } from '../../src/core/bibliography/refusal.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { MarkupContent, Position } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { resolveBibliography } from '../../src/core/bibliography/resolve.js';
import { latexBibitems } from '../../src/core/latex/bibitems.js';
import { LatexProject } from '../../src/core/latex/project.js';
import { createSearchIndex } from '../../src/core/search/corpus/corpusIndex.js';
import { createCitationService } from '../../src/core/service/service.js';
import { corpusView, type CorpusView } from '../../src/core/service/types.js';
import { scopeSettings } from '../../src/core/config/settings.js';
import { syncBibliography } from '../../src/host/node/addCitedEntries.js';
import { realCorpus } from './helpers.js';
import { MemoryWorkspace } from './memoryWorkspace.js';

const FIXTURES = join(__dirname, 'fixtures/bibitem');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const keys = (text: string) => latexBibitems(text).items.map((i) => i.key);

describe('the \\bibitem reader', () => {
  it('reads keys with and without labels; a label may hold braces, and a ] inside braces (natbib\'s form)', () => {
    const t = latexBibitems(fixture('natbib.bbl'));
    expect(t.environments).toBe(1);
    expect(t.items.map((i) => [i.key, i.label])).toEqual([
      ['jones2019a', '{Jones [and] Brown(2019{\\natexlab{a}}]}'],
      ['smith2020', '{Smith et~al.(2020)}'],
      ['plain2018', undefined],
      ['spaced', 'Spaced'],
    ]);
    // The text up to the next \bibitem (or the environment's end), comments left out.
    expect(t.items[1]!.text).toBe('Smith, A., Lee, B. \\newblock Paging tricks. \\newblock In \\emph{OSDI}, 2020.');
    expect(t.items[3]!.text).toBe('Spaced, S. 2017.');
  });

  it('places each key: offset, 0-based line and UTF-16 character, across \\n, \\r\\n and lone \\r line ends', () => {
    const text = 'é\r\n\\bibitem{a}\r\\bibitem[x]{ b }\n';
    const items = latexBibitems(text).items;
    expect(items.map((i) => [i.key, i.line, i.character, text.slice(i.offset, i.offset + i.key.length)])).toEqual([['a', 1, 9, 'a'], ['b', 2, 13, 'b']]);
  });

  it('reads nothing in comments, verbatim text or \\iffalse/\\if0 blocks, nor \\\\bibitem or \\bibitems', () => {
    expect(keys(fixture('hidden.tex'))).toEqual(['visible', 'afterfi']);
  });

  it('as TeX reads the arguments: blanks and one line end (a comment line too) before them; a blank line ends them', () => {
    expect(keys('\\bibitem\n  [l]\n  {k1}')).toEqual(['k1']);
    expect(keys('\\bibitem\n% a comment line\n{k2}')).toEqual(['k2']);
    expect(keys('\\bibitem\n\n{k3}')).toEqual([]);
    expect(keys('\\bibitem[a\n\nb]{k4}')).toEqual([]);
    expect(keys('\\bibitem[a\n% c\nb]{k5}')).toEqual(['k5']);
  });

  it('reads no key that is not plain text, and no argument left open (TeX stops with an error there)', () => {
    expect(keys('\\bibitem{\\mykey} \\bibitem{} \\bibitem{a{b}c} \\bibitem k \\bibitem[open{k6} \\bibitem{k7}')).toEqual(['k7']);
    expect(keys('\\bibitem[}]{k8} \\bibitem[\\]]{k9}')).toEqual(['k9']);
  });

  it('counts an environment without items', () => {
    expect(latexBibitems('\\begin{thebibliography}{9}\n\\end{thebibliography}')).toEqual({ items: [], environments: 1 });
  });
});

describe('a root\'s \\bibitems across its files and the .bbl files it inputs', () => {
  const u = (p: string) => URI.file(p);
  const project = (files: Record<string, string>) => {
    const p = new LatexProject();
    for (const [path, text] of Object.entries(files)) p.set(u(path), text);
    return p;
  };

  it('the root, its \\input files, and the .bbl files its links name (TeX tries x.bbl.tex, a project file, then x.bbl)', () => {
    const p = project({
      '/p/main.tex': '\\documentclass{article}\\begin{document}\\input{sec/a}\\input{main.bbl}\\input main2.bbl \\end{document}',
      '/p/sec/a.tex': '\\begin{thebibliography}{1}\\bibitem{ina}\\end{thebibliography}',
    });
    const t = p.thebibliographyOf(u('/p/main.tex'))!;
    expect(t.files.map((f) => [f.uri.path, f.thebibliography.items.map((i) => i.key)])).toEqual([['/p/main.tex', []], ['/p/sec/a.tex', ['ina']]]);
    // main.bbl.tex, which TeX tries first, would be a file of the project: it is not.
    expect(t.bbl.map((c) => c.map((x) => x.path))).toEqual([['/p/main.bbl'], ['/p/main2.bbl']]);
    // \input{main} is main.tex, then main: never main.bbl (kpathsea's order for TeX's input files).
    expect(project({ '/p/main.tex': '\\documentclass{article}\\input{main}' }).thebibliographyOf(u('/p/main.tex'))!.bbl).toEqual([]);
  });

  it('a change of the keys a file defines is a new revision; an edit that only moves them is not', () => {
    const p = project({ '/p/main.tex': '\\documentclass{article}\\bibitem{a}' });
    const r = p.revision;
    p.set(u('/p/main.tex'), '\\documentclass{article}\n\n\\bibitem{a}');
    expect(p.revision).toBe(r);
    p.set(u('/p/main.tex'), '\\documentclass{article}\n\n\\bibitem{b}');
    expect(p.revision).toBe(r + 1);
  });
});

let view: CorpusView;
beforeAll(() => {
  const corpus = realCorpus();
  view = corpusView(corpus, createSearchIndex(corpus));
});

/** A service over files under /ws, with their LaTeX project (every .tex file) unless `noProject`. */
function setup(files: Record<string, string>, noProject = false) {
  const ws = new MemoryWorkspace(files);
  const project = new LatexProject();
  for (const [path, text] of Object.entries(files)) if (path.endsWith('.tex')) project.set(URI.file(path), text);
  const service = createCitationService({
    workspace: ws, corpus: () => view, config: () => scopeSettings({}), logger: { info() {}, warn() {}, error() {} },
    ...(noProject ? {} : { project }),
  });
  return { ws, service, project };
}
const doc = (path: string, text: string) => TextDocument.create(URI.file(path).toString(), 'latex', 1, text);
const at = (d: TextDocument, needle: string): Position => d.positionAt(d.getText().indexOf(needle) + 1);
const messages = async (service: ReturnType<typeof setup>['service'], d: TextDocument) => (await service.diagnostics(d)).map((x) => `${x.range.start.line}:${x.code ?? '-'}: ${x.message}`);

const PAPER = '\\documentclass{article}\n\\begin{document}\nSee \\citep{smith2020} and \\cite{nosuch1999, kwon2023efficient}.\n'
  + '\\begin{thebibliography}{9}\n\\bibitem[{Smith et~al.(2020)}]{smith2020}\nSmith, A. \\newblock Paging tricks. \\newblock 2020.\n\\end{thebibliography}\n\\end{document}\n';

describe('the service on a document whose bibliography is a thebibliography', () => {
  it('diagnostics: a \\bibitem key is defined; an undefined one is flagged naming the thebibliography, a corpus key too (a code of its own, no fix)', async () => {
    const d = doc('/ws/main.tex', PAPER);
    for (const noProject of [false, true]) {
      const { service } = setup({ '/ws/main.tex': PAPER }, noProject);
      expect(await messages(service, d)).toEqual([
        '2:unknown-key: Unknown citation key "nosuch1999": no \\bibitem of the thebibliography in main.tex defines it, and the MLSys Papers corpus does not know it.',
        '2:not-in-thebibliography: "kwon2023efficient" is in the MLSys Papers corpus, but no \\bibitem of the thebibliography in main.tex defines it.',
      ]);
    }
  });

  it('a section file of a root with a thebibliography, and a root that \\inputs its .bbl (named with its extension)', async () => {
    const files = {
      '/ws/main.tex': '\\documentclass{article}\n\\begin{document}\n\\input{sections/intro}\n\\input{main.bbl}\n\\end{document}\n',
      '/ws/sections/intro.tex': 'See \\cite{smith2020}, \\cite{jones2019a} and \\cite{inroot}.\n',
      '/ws/main.bbl': fixture('natbib.bbl'),
    };
    const { service, ws } = setup(files);
    expect(await messages(service, doc('/ws/sections/intro.tex', files['/ws/sections/intro.tex']))).toEqual([
      '0:unknown-key: Unknown citation key "inroot": no \\bibitem of the thebibliography in main.bbl defines it, and the MLSys Papers corpus does not know it.',
    ]);
    // TeX tries main.bbl.tex first: the project, which holds every .tex file, does not have it; the disk is not asked.
    expect(ws.reads.map((r) => URI.parse(r).path).filter((p) => p.endsWith('.bbl') || p.endsWith('.bbl.tex'))).toEqual(['/ws/main.bbl']);
  });

  it('\\input{main} does not read main.bbl (TeX tries main.tex, then main): its keys stay unknown', async () => {
    const files = { '/ws/main.tex': '\\documentclass{article}\n\\cite{smith2020}\n\\input{main}\n', '/ws/main.bbl': fixture('natbib.bbl') };
    const { service } = setup(files);
    expect(await messages(service, doc('/ws/main.tex', files['/ws/main.tex']))).toEqual([
      '1:unknown-key: Unknown citation key "smith2020": the document declares no bibliography and the MLSys Papers corpus does not know it.',
    ]);
  });

  it('an arXiv submission: \\bibliography{refs} without refs.bib reads the root\'s own .bbl (LaTeX\'s \\bibliography inputs \\jobname.bbl)', async () => {
    const text = '\\documentclass{article}\n\\begin{document}\n\\cite{smith2020,nosuch1999,yu2022orca}\n\\bibliography{refs}\n\\end{document}\n';
    const { service } = setup({ '/ws/main.tex': text, '/ws/main.bbl': fixture('natbib.bbl') });
    const d = doc('/ws/main.tex', text);
    expect(await messages(service, d)).toEqual([
      '2:unknown-key: Unknown citation key "nosuch1999": no \\bibitem of the thebibliography in main.bbl defines it, and the MLSys Papers corpus does not know it.',
      '2:not-in-thebibliography: "yu2022orca" is in the MLSys Papers corpus, but no \\bibitem of the thebibliography in main.bbl defines it.',
    ]);
    // Creating refs.bib with one entry would have BibTeX overwrite main.bbl with that entry alone.
    expect((await service.planBibliography(d, ['yu2022orca'])).bibliography).toMatchObject({ kind: 'refuse', uri: URI.file('/ws/main.bbl').toString() });
    // With refs.bib there, it is the bibliography: the .bbl BibTeX will write again from it counts for nothing.
    const withBib = setup({ '/ws/main.tex': text, '/ws/main.bbl': fixture('natbib.bbl'), '/ws/refs.bib': '@misc{nosuch1999, title={N}}\n' }).service;
    expect(await messages(withBib, d)).toEqual([
      '2:unknown-key: Unknown citation key "smith2020": not in refs.bib, nor in the MLSys Papers corpus.',
      '2:not-in-bibliography: "yu2022orca" is in the MLSys Papers corpus but not in refs.bib.',
    ]);
  });

  it('a .bib file and a thebibliography: a key defined in either is not flagged; the message names both', async () => {
    const text = '\\documentclass{article}\n\\cite{a1,b1,c1}\n\\bibliography{refs}\n\\bibitem{b1}\n';
    const { service } = setup({ '/ws/main.tex': text, '/ws/refs.bib': '@misc{a1, title={A}}\n' });
    expect(await messages(service, doc('/ws/main.tex', text))).toEqual([
      '1:unknown-key: Unknown citation key "c1": not in refs.bib, main.tex, nor in the MLSys Papers corpus.',
    ]);
  });

  it('go to definition goes to the \\bibitem (in the .bbl file it lives in); hover shows its text; completion offers its keys', async () => {
    const files = { '/ws/main.tex': '\\documentclass{article}\n\\cite{jones2019a}\n\\input{main.bbl}\n', '/ws/main.bbl': fixture('natbib.bbl') };
    const { service } = setup(files);
    const d = doc('/ws/main.tex', files['/ws/main.tex']);
    expect(await service.definition(d, at(d, 'jones'))).toEqual({ uri: URI.file('/ws/main.bbl').toString(), range: { start: { line: 6, character: 50 }, end: { line: 6, character: 50 } } });
    const hover = (await service.hover(d, at(d, 'jones')))!.contents as MarkupContent;
    expect(hover.value).toContain('Jones, C\\. and Brown, D\\. Scheduling & you\\. SOSP, 2019\\.');
    expect(hover.value).toContain('✓ in main\\.bbl');
    expect(hover.value).not.toContain('\\emph');

    const typing = doc('/ws/main.tex', '\\documentclass{article}\n\\cite{pag}\n\\input{main.bbl}\n');
    const list = await service.complete(typing, { line: 1, character: 9 });
    const own = list!.items.filter((i) => i.label === 'smith2020');
    expect(own.map((i) => [i.label, i.detail])).toEqual([['smith2020', 'Smith et al.(2020)']]);
    expect(list!.items[0]!.label).toBe('smith2020');
    const all = await service.complete(doc('/ws/main.tex', '\\documentclass{article}\n\\cite{}\n\\input{main.bbl}\n'), { line: 1, character: 6 });
    expect(all!.items.slice(0, 4).map((i) => [i.label, i.detail])).toEqual([
      ['jones2019a', 'Jones [and] Brown(2019a]'], ['smith2020', 'Smith et al.(2020)'], ['plain2018', 'Plain, P. Numbered references. 2018.'], ['spaced', 'Spaced'],
    ]);
  });

  it('citing a corpus entry plans no .bib beside the thebibliography: the bibliography is refused, saying why', async () => {
    const { service } = setup({ '/ws/main.tex': PAPER });
    const d = doc('/ws/main.tex', PAPER);
    const plan = await service.planCitation(d, at(d, 'See'), ['yu2022orca']);
    expect(plan.bibliography).toEqual({
      kind: 'refuse', uri: URI.file('/ws/main.tex').toString(), reason: 'thebibliography', keys: ['yu2022orca'],
    });
    expect(refusalText({ reason: 'thebibliography', keys: ['yu2022orca'] }))
      .toBe('holds the document\'s thebibliography, which MLSys Papers does not write; it was not changed; add a \\bibitem for yu2022orca there by hand');
    // A corpus key a \bibitem defines is there already: nothing to add.
    const text = PAPER.replace('\\bibitem[{Smith et~al.(2020)}]{smith2020}', '\\bibitem{kwon2023efficient}');
    const other = setup({ '/ws/main.tex': text }).service;
    expect((await other.planBibliography(doc('/ws/main.tex', text), ['kwon2023efficient'])).bibliography).toEqual({ kind: 'none' });
  });

  it('a document without any bibliography is still offered a declaration', async () => {
    const text = '\\documentclass{article}\n\\begin{document}\n\\cite{x}\n\\end{document}\n';
    const bib = await resolveBibliography(new MemoryWorkspace(), { uri: URI.file('/ws/main.tex'), languageId: 'latex', text });
    expect(bib!.thebibliography).toBeUndefined();
  });
});

describe('the CLI on a paper whose references are a .bbl it inputs', () => {
  it('sync --dry-run calls no \\bibitem key unknown, and has nothing to add for corpus keys the .bbl defines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mlsys-bibitem-'));
    try {
      const text = '\\documentclass{article}\n\\begin{document}\n\\cite{smith2020,kwon2023efficient,nosuch1999}\n\\input{main.bbl}\n\\end{document}\n';
      writeFileSync(join(dir, 'main.tex'), text);
      writeFileSync(join(dir, 'main.bbl'), fixture('natbib.bbl').replace('\\end{thebibliography}', '\\bibitem{kwon2023efficient} Kwon et al.\n\\end{thebibliography}'));
      const r = await syncBibliography('main.tex', realCorpus(), { cwd: dir, dryRun: true, text });
      expect(r).toEqual({ code: 0, out: ['main.tex: the bibliography has every corpus entry it cites'], err: ['not in the bibliography nor the corpus, left as they are: nosuch1999'] });
      // As arXiv has it: \bibliography{refs}, no refs.bib, main.bbl beside main.tex. Nothing to create.
      const arxiv = text.replace('\\input{main.bbl}', '\\bibliography{refs}');
      const a = await syncBibliography('main.tex', realCorpus(), { cwd: dir, dryRun: true, text: arxiv });
      expect(a).toEqual(r);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
