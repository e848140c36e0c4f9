/**
 * Issue 28, "Real documents, set 2": one fixture per cause, each built from the construct the
 * real documents use (the repository or Debian package it comes from is named in each test), and
 * each failing before its fix. The whole documents are in test/realdocs (MANIFEST.json,
 * MANIFEST.github.json), compared with pdflatex + BibTeX/biber and pandoc.
 */
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { parseBib } from '../../src/core/bibliography/bibtexFile.js';
import { latexBibliographies } from '../../src/core/latex/bibDeclarations.js';
import { LatexProject } from '../../src/core/latex/project.js';
import { makefileCommands, shellScriptCommands } from '../../src/core/markdown/buildScripts.js';
import type { CitationService } from '../../src/core/service/service.js';
import { MemoryWorkspace, serviceOver } from './memoryWorkspace.js';
import { worded } from './problemWords.js';

const doc = (path: string, languageId: string, text: string) => TextDocument.create(URI.file(path).toString(), languageId, 1, text);
const bib = (...keys: string[]) => keys.map((k) => `@misc{${k},\n  title = {The paper ${k}},\n  author = {Doe, Jo},\n  year = {2001}\n}\n`).join('\n');
/** The messages of a document's diagnostics. */
const messages = async (s: CitationService, d: TextDocument) => (await s.diagnostics(d)).map((x) => x.message);
/** The keys a document's diagnostics flag as unknown or missing from the bibliography. */
const flagged = async (s: CitationService, d: TextDocument) => (await s.diagnostics(d)).filter((x) => x.code === 'unknown-key' || x.code === 'not-in-bibliography').map((x) => d.getText(x.range));
/** A hover's Markdown as plain text (escapes removed). */
const hoverText = (h: Awaited<ReturnType<CitationService['hover']>>) => (h?.contents as { value: string } | undefined)?.value.replace(/\\(.)/g, '$1') ?? '';
/** A service over `files` with the LaTeX project of their `.tex` files, as the language server has it once indexed. */
const latexService = (files: Record<string, string>) => {
  const project = new LatexProject();
  for (const [path, text] of Object.entries(files)) if (path.endsWith('.tex')) project.set(URI.file(path), text);
  return serviceOver(files, { project });
};

describe('cause 1: biblatex resources besides \\addbibresource{file}', () => {
  it('reads \\addglobalbib, \\addsectionbib, a refsection\'s resources and \\addbibresource[options], as biber does', () => {
    const decls = latexBibliographies([
      '\\addbibresource[location=local]{l.bib}', '\\addglobalbib{../bibtex/bib/biblatex-apa-test-references.bib}',
      '\\addsectionbib[label=sec]{s.bib}', '\\addbibresource[label=ownpubs]{AMiede_Publications.bib}',
      '\\addbibresource[location=remote]{https://example.org/r.bib}', '\\addbibresource[datatype=biblatexml]{x.bltxml}',
      '\\begin{document}', '\\begin{refsection}[../bibtex/bib/biblatex-apa-test-citations.bib]', '\\end{refsection}',
      '\\begin{refsection}[ownpubs]', '\\end{refsection}', '% \\addglobalbib{commented.bib}', '\\end{document}',
    ].join('\n'));
    expect(decls.map((d) => [d.path, d.via, d.label ?? '', d.section ?? false, d.unread ?? ''])).toEqual([
      ['l.bib', 'biblatex', '', false, ''],
      ['../bibtex/bib/biblatex-apa-test-references.bib', 'biblatex', '', false, ''],
      ['s.bib', 'biblatex', 'sec', false, ''],
      ['AMiede_Publications.bib', 'biblatex', 'ownpubs', false, ''],
      ['https://example.org/r.bib', 'biblatex', '', false, 'remote'],
      ['x.bltxml', 'biblatex', '', false, 'datatype'],
      ['../bibtex/bib/biblatex-apa-test-citations.bib', 'biblatex', '', true, ''],
      ['ownpubs', 'biblatex', '', true, ''],
    ]);
  });

  it('biblatex-apa-test (texlive-bibtex-extra): a global resource and a refsection\'s own define their keys', async () => {
    const s = serviceOver({
      '/ws/bibtex/bib/biblatex-apa-test-references.bib': bib('ref1', 'ref2'),
      '/ws/bibtex/bib/biblatex-apa-test-citations.bib': bib('cit1'),
    });
    const d = doc('/ws/doc/biblatex-apa-test.tex', 'latex', [
      '\\documentclass{article}', '\\usepackage[style=apa]{biblatex}', '\\addglobalbib{../bibtex/bib/biblatex-apa-test-references.bib}',
      '\\begin{document}', '\\begin{refsection}[../bibtex/bib/biblatex-apa-test-citations.bib]', '\\cite{cit1,ref1}', '\\end{refsection}',
      '\\begin{refsection}', '\\cite{ref2,nosuch1999}', '\\end{refsection}', '\\end{document}', '',
    ].join('\n'));
    expect(await flagged(s, d)).toEqual(['nosuch1999']);
  });

  it('ClassicThesis (texlive-publishers-doc): \\addbibresource[label=ownpubs]{…} and \\begin{refsection}[ownpubs] name one file', async () => {
    const s = serviceOver({ '/ws/Bibliography.bib': bib('a1'), '/ws/AMiede_Publications.bib': bib('own1') });
    const d = doc('/ws/ClassicThesis.tex', 'latex', '\\addbibresource{Bibliography.bib}\n\\addbibresource[label=ownpubs]{AMiede_Publications.bib}\n\\begin{document}\n\\cite{a1}\n\\begin{refsection}[ownpubs]\n\\cite{own1}\n\\end{refsection}\n\\end{document}\n');
    expect(await messages(s, d)).toEqual([]);
  });

  it('a remote resource is not read, so no key is flagged; the hover says what was not read', async () => {
    const s = serviceOver({ '/ws/local.bib': bib('here') });
    const text = '\\addbibresource{local.bib}\n\\addbibresource[location=remote]{https://example.org/lab.bib}\n\\cite{here,elsewhere}\n';
    const d = doc('/ws/main.tex', 'latex', text);
    expect(await flagged(s, d)).toEqual([]);
    const h = await s.hover(d, d.positionAt(text.indexOf('elsewhere') + 2));
    expect(hoverText(h)).toContain('not read: https://example.org/lab.bib');
  });
});

describe('cause 4: subfiles, \\subfix and bibunits (the subfiles package\'s own tests, gsalzer/subfiles tests/)', () => {
  const main = (preamble: string, body: string) => `\\documentclass{report}\n${preamble}\n\\begin{document}\n${body}\n\\end{document}\n`;

  it('chapterbib: \\bibliography{../bib1,../bib2} in chapter1/chapter1.tex works compiled alone and through main.tex', async () => {
    const files = {
      '/ws/main.tex': main('\\usepackage{chapterbib}\n\\usepackage{subfiles}', '\\subfileinclude{chapter1/chapter1}'),
      '/ws/chapter1/chapter1.tex': '\\documentclass[../main]{subfiles}\n\\begin{document}\nMy references: \\cite{A}\n\\bibliographystyle{alpha}\n\\bibliography{../bib1,../bib2}\n\\end{document}\n',
      '/ws/bib1.bib': bib('A'), '/ws/bib2.bib': bib('B'),
    };
    const s = latexService(files);
    expect(await messages(s, doc('/ws/chapter1/chapter1.tex', 'latex', files['/ws/chapter1/chapter1.tex']))).toEqual([]);
    // Through main: main.tex itself cites a key of bib2, declared only in the chapter.
    const root = doc('/ws/main.tex', 'latex', files['/ws/main.tex'].replace('\\subfileinclude', '\\cite{B}\\subfileinclude'));
    expect(await messages(s, root)).toEqual([]);
  });

  it('biblatex: \\addbibresource{\\subfix{bib2.bib}} in the main file\'s preamble', async () => {
    const files = {
      '/ws/main.tex': main('\\usepackage{biblatex}\n\\usepackage{subfiles}\n\\bibliography{bib1}\n\\addbibresource{\\subfix{bib2.bib}}', '\\subfileinclude{chapter2/chapter2}'),
      '/ws/chapter2/chapter2.tex': '\\documentclass[../main]{subfiles}\n\\begin{document}\n\\newrefsection\nMy references: \\cite{A,B}\n\\printbibliography\n\\end{document}\n',
      '/ws/bib1.bib': bib('A'), '/ws/bib2.bib': bib('B'),
    };
    const s = latexService(files);
    expect(await messages(s, doc('/ws/chapter2/chapter2.tex', 'latex', files['/ws/chapter2/chapter2.tex']))).toEqual([]);
    expect(latexBibliographies(files['/ws/main.tex']).map((d) => [d.path, d.subfix ?? false])).toEqual([['bib1.bib', false], ['bib2.bib', true]]);
  });

  it('bibunits: \\putbib[\\subfix{../bib1},\\subfix{../bib2}] in a subfile', async () => {
    const files = {
      '/ws/main.tex': main('\\usepackage{bibunits}\n\\usepackage{subfiles}', '\\subfile{chapter1/chapter1}'),
      '/ws/chapter1/chapter1.tex': '\\documentclass[../main]{subfiles}\n\\begin{document}\n\\begin{bibunit}\nMy references: \\cite{A,B,nosuch1999}\n\\putbib[\\subfix{../bib1},\\subfix{../bib2}]\n\\end{bibunit}\n\\end{document}\n',
      '/ws/bib1.bib': bib('A'), '/ws/bib2.bib': bib('B'),
    };
    const s = latexService(files);
    expect(await flagged(s, doc('/ws/chapter1/chapter1.tex', 'latex', files['/ws/chapter1/chapter1.tex']))).toEqual(['nosuch1999']);
    expect(latexBibliographies('\\defaultbibliography{refs}\n\\putbib[a,b]\n\\putbib\n').map((d) => d.path)).toEqual(['refs.bib', 'a.bib', 'b.bib']);
  });
});

describe('an entry commented out with %', () => {
  it('is no false alarm where it is cited: BibTeX reads it, biber does not, and which one builds is not known', async () => {
    const files = { '/ws/refs.bib': `%@misc{old2001,\n%  title = {Old},\n%}\n${bib('new2002')}` };
    const s = serviceOver(files);
    const d = doc('/ws/paper.tex', 'latex', '\\documentclass{article}\n\\begin{document}\n\\cite{old2001,new2002,nosuch1999}\n\\bibliography{refs}\n\\end{document}\n');
    expect(await flagged(s, d)).toEqual(['nosuch1999']);
  });
});

describe('cause 5: the front matter\'s references: as the bibliography', () => {
  const front = '---\ntitle: Title\nbibliography: references.bib\nreferences:\n  - id: unitednations1948\n    title: Universal Declaration of Human Rights\n    type: book\n---\n\n';

  it.each([['/ws/article/article.md', 'markdown'], ['/ws/article/article.qmd', 'quarto']])('maehr/academic-pandoc-template\'s article (%s): its inline item is defined, and F12 reaches its id', async (path, lang) => {
    const s = serviceOver({ '/ws/article/references.bib': bib('brown2016') });
    const text = `${front}See @unitednations1948 and @brown2016, not @nosuch1999.\n`;
    const d = doc(path, lang, text);
    expect(await flagged(s, d)).toEqual(['nosuch1999']);
    const def = await s.definition(d, d.positionAt(text.indexOf('@unitednations1948') + 3));
    expect(def).toMatchObject({ uri: d.uri, range: { start: { line: 4, character: 8 } } });
  });

  it('inline references alone: defined, and never a file to write into', async () => {
    const s = serviceOver({});
    const d = doc('/ws/a.md', 'markdown', '---\nreferences:\n- id: only\n  type: book\n---\n[@only; @kwon2023efficient]\n');
    expect(await flagged(s, d)).toEqual(['kwon2023efficient']);
    expect(await s.bibliographyFiles(d)).toEqual([]);
    const plan = await s.planBibliography(d, ['kwon2023efficient']);
    expect(plan.bibliography).toMatchObject({ kind: 'declare' });
  });
});

describe('cause 2: a bibliography only the build names', () => {
  it('a build\'s path with a doubled leading separator (//srv/…) is read as POSIX reads it, not thrown on', async () => {
    for (const makefile of ['pdf:\n\tpandoc --bibliography=//srv/refs.bib paper.md\n', 'pdf:\n\tcd //srv && pandoc paper.md\n', 'pdf:\n\tpandoc -d //srv/d paper.md\n']) {
      const s = serviceOver({ '/ws/Makefile': makefile, '/ws/refs.bib': bib('a2020') });
      const d = doc('/ws/paper.md', 'markdown', 'See @nosuch1999.\n');
      // Before: UriError ("path cannot begin with two slash characters") for every Markdown file below the Makefile.
      expect(await flagged(s, d), makefile).toEqual(['nosuch1999']);
    }
  });

  it('an undeclared .bib beside the document that links outside the workspace is not read', async () => {
    // The memory workspace reads the link's name; its real path is elsewhere.
    const files = { '/ws/refs.bib': bib('secret2020') };
    const ws = new MemoryWorkspace(files);
    ws.link('/ws/refs.bib', '/elsewhere/refs.bib');
    const s = serviceOver(files, { workspace: ws });
    expect(await flagged(s, doc('/ws/paper.md', 'markdown', 'See @secret2020.\n'))).toEqual(['secret2020']);
  });

  it('a metadata or defaults file the build names outside the workspace, or reached by a link, is not read', async () => {
    const files = {
      '/ws/Makefile': 'pdf:\n\tpandoc --metadata-file=/etc/meta.yaml -d ../d.yaml -d linked.yaml paper.md\n',
      '/etc/meta.yaml': 'bibliography: /etc/outside.bib\n', '/etc/outside.bib': bib('secret2020'),
      '/d.yaml': 'bibliography: /etc/outside.bib\n', '/ws/linked.yaml': 'bibliography: /etc/outside.bib\n',
    };
    const ws = new MemoryWorkspace(files);
    ws.link('/ws/linked.yaml', '/elsewhere/linked.yaml');
    const s = serviceOver(files, { workspace: ws });
    const d = doc('/ws/paper.md', 'markdown', 'See @secret2020.\n');
    expect(await flagged(s, d)).toEqual(['secret2020']);
  });

  it('tompollard/phd_thesis_markdown: the Makefile\'s pandoc --bibliography="$(BIBFILE)", BIBFILE=$(INPUTDIR)/references.bib', async () => {
    const makefile = 'BASEDIR=$(CURDIR)\nINPUTDIR=$(BASEDIR)/source\nBIBFILE=$(INPUTDIR)/references.bib\n\npdf:\n\tpandoc  \\\n\t\t"$(INPUTDIR)"/*.md \\\n\t\t"$(INPUTDIR)/metadata.yml" \\\n\t\t--filter=pandoc-crossref \\\n\t\t--bibliography="$(BIBFILE)" \\\n\t\t--citeproc\n';
    const s = serviceOver({ '/ws/Makefile': makefile, '/ws/source/references.bib': bib('Hawking1988'), '/ws/source/metadata.yml': '---\ntitle: T\nsecPrefix: Section\n---\n' });
    const d = doc('/ws/source/09_chapter_1.md', 'markdown', '# Intro {#sec:intro}\nSee @Hawking1988 and @sec:intro, not @nosuch1999.\n');
    expect(await flagged(s, d)).toEqual(['nosuch1999']);
    expect(await messages(s, d)).toEqual(['Unknown citation key "nosuch1999": not in source/references.bib, nor in the MLSys Papers corpus.']);
  });

  it('cagix/pandoc-thesis: OPTIONS = --bibliography $(BIBFILE), BIBFILE ?= references.bib, and target-specific --defaults', async () => {
    const makefile = 'SRC ?= thesis.md\nBIBFILE ?= references.bib\nDATA = .pandoc\nOPTIONS = --bibliography $(BIBFILE)\nsimple: OPTIONS += --defaults=$(DATA)/simple.yaml\n\n${TARGET}: $(SRC)\n\t$(PANDOC) ${OPTIONS} $(SRC) -o $@\n';
    const withPandoc = `PANDOC ?= docker run --rm --volume "$(WORKDIR):/data" --workdir /data pandoc/extra:latest-debian\n${makefile}`;
    const s = serviceOver({ '/ws/Makefile': withPandoc, '/ws/references.bib': bib('Dietz2018'), '/ws/.pandoc/simple.yaml': 'citeproc: true\nfilters:\n  - pandoc-crossref\n' });
    const d = doc('/ws/thesis.md', 'markdown', '---\ntitle: T\n---\nSee @Dietz2018 and @fig:x.\n');
    expect(await messages(s, d)).toEqual([]);
    expect(await s.citedKeys(d)).toEqual(['Dietz2018']);
  });

  it('maehr/academic-pandoc-template: (cd article && pandoc --defaults=./../defaults.yaml --defaults=pdf.yaml), defaults naming metadata files', async () => {
    const s = serviceOver({
      '/ws/Makefile': 'article-pdf:\n\t(cd article && \\\n\tpandoc --defaults=./../defaults.yaml --defaults=pdf.yaml)\n',
      '/ws/defaults.yaml': 'citeproc: true\nmetadata-files:\n  - meta/common.yaml\n',
      '/ws/article/pdf.yaml': 'input-files: [article.md]\nbibliography: ${.}/refs.bib\n',
      '/ws/article/refs.bib': bib('a2020'),
      '/ws/article/meta/common.yaml': 'bibliography: shared.bib\n',
      '/ws/article/shared.bib': bib('s2020'),
    });
    const d = doc('/ws/article/article.md', 'markdown', 'See @a2020, @s2020 and @nosuch1999.\n');
    expect(await flagged(s, d)).toEqual(['nosuch1999']);
  });

  it('defaults: in the front matter, and a defaults.yaml beside the document', async () => {
    // Paths in a defaults file are relative to the working directory (the document's folder here), not to the defaults file.
    const files = { '/ws/d/pandoc/paper.yaml': 'metadata:\n  bibliography: refs.bib\n', '/ws/d/refs.bib': bib('x1'), '/ws/e/defaults.yaml': 'bibliography: lib/refs.bib\n', '/ws/e/lib/refs.bib': bib('y1') };
    const s = serviceOver(files);
    expect(await flagged(s, doc('/ws/d/paper.md', 'markdown', '---\ndefaults: pandoc/paper\n---\n@x1 @nosuch1999\n'))).toEqual(['nosuch1999']);
    expect(await flagged(s, doc('/ws/e/paper.md', 'markdown', '@y1 @nosuch1999\n'))).toEqual(['nosuch1999']);
  });

  it('a shell script\'s pandoc command, with its variables', async () => {
    const s = serviceOver({ '/ws/build.sh': '#!/bin/sh\nBIB=refs/main.bib\ncd src && pandoc -d html --bibliography "../$BIB" paper.md -o paper.html\n', '/ws/refs/main.bib': bib('z1') });
    expect(await flagged(s, doc('/ws/src/paper.md', 'markdown', '[@z1; @nosuch1999]\n'))).toEqual(['nosuch1999']);
  });

  it('a document that declares nothing, with a .bib beside it: checked against it, and the message and the hover say so', async () => {
    const s = serviceOver({ '/ws/paper/refs.bib': bib('known1') });
    const text = '# Paper\n\nSee @known1 and @nosuch1999.\n';
    const d = doc('/ws/paper/paper.md', 'markdown', text);
    expect(await messages(s, d)).toEqual(['Unknown citation key "nosuch1999": not declared; checked against paper/refs.bib beside it; the MLSys Papers corpus does not know it either.']);
    const h = await s.hover(d, d.positionAt(text.indexOf('known1') + 1));
    expect(hoverText(h)).toContain('✓ in paper/refs.bib (not declared; checked against paper/refs.bib beside it)');
  });

  it('citing in a document that declares nothing, with an undeclared .bib that has the entry: the offer to declare a bibliography still comes', async () => {
    // The undeclared file is read for checks only: BibTeX would print no reference, so the cited entry is not "there".
    const s = serviceOver({ '/ws/references.bib': '@inproceedings{kwon2023efficient, title = {Efficient Memory Management for Large Language Model Serving with PagedAttention}, year = {2023}}\n' });
    const d = doc('/ws/no-bib/no-bib.tex', 'latex', '\\documentclass{article}\n\\begin{document}\nDraft: \\cite{kwon2023efficient}\n\\end{document}\n');
    const plan = await s.planBibliography(d, ['kwon2023efficient']);
    expect(plan.bibliography).toEqual({ kind: 'declare', root: d.uri, keys: ['kwon2023efficient'] });
  });

  it('cleanthesis (texlive-publishers-doc): \\usepackage[bibfile=bib-refs]{cleanthesis} declares it through the class; bib-refs.bib beside the root is read', async () => {
    const files = {
      '/ws/my-thesis.tex': '\\documentclass{scrbook}\n\\input{my-thesis-setup}\n\\begin{document}\n\\include{content/chapter-introduction}\n\\printbibliography\n\\end{document}\n',
      '/ws/my-thesis-setup.tex': '\\usepackage[\n  bibfile=bib-refs,%\n]{cleanthesis}\n',
      '/ws/content/chapter-introduction.tex': '\\chapter{Introduction}\nSee \\cite{WEB:GNU:GPL:2010} and \\cite{nosuch1999}.\n',
      '/ws/bib-refs.bib': bib('WEB:GNU:GPL:2010'),
    };
    const s = latexService(files);
    expect(await messages(s, doc('/ws/content/chapter-introduction.tex', 'latex', files['/ws/content/chapter-introduction.tex']))).toEqual([
      'Unknown citation key "nosuch1999": not declared; checked against bib-refs.bib beside it; the MLSys Papers corpus does not know it either.',
    ]);
  });

  it('with no .bib anywhere, every unknown key is still flagged', async () => {
    const s = serviceOver({ '/ws/notes/other.md': 'x' });
    expect(await messages(s, doc('/ws/notes/paper.md', 'markdown', 'See @nosuch1999.\n'))).toEqual([
      'Unknown citation key "nosuch1999": the document declares no bibliography and the MLSys Papers corpus does not know it.',
    ]);
  });

  it('reads make\'s and the shell\'s command lines: continuations, assignments, cd, quotes; a function is no path', () => {
    const root = URI.file('/ws');
    const make = makefileCommands('A = x\nA += y\nB ?= 1\nB ?= 2\n# c = 3\nall:\n\t@cd sub && pandoc $(A) \\\n\t  "$(B)" $(shell ls) \'$(B)\'\n', root);
    expect(make.map((c) => [c.words, c.cwd.path, c.line])).toEqual([[['pandoc', 'x', 'y', '1', '\u0000', '1'], '/ws/sub', 7]]);
    const sh = shellScriptCommands('X="a b"\n(cd d; pandoc "$X" $1)\npandoc z\n', root);
    expect(sh.map((c) => [c.words, c.cwd.path])).toEqual([[['pandoc', 'a b', '\u0000'], '/ws/d'], [['pandoc', 'z'], '/ws']]);
  });

  it('a Makefile whose variables double each other is read in bounded time', () => {
    const lines = ['V0 = xxxxxxxx'];
    for (let i = 1; i <= 40; i++) lines.push(`V${i} = $(V${i - 1})$(V${i - 1})`);
    const text = `${lines.join('\n')}\nall:\n${'\tpandoc --bibliography=$(V40)\n'.repeat(200)}`;
    const out = makefileCommands(text, URI.file('/ws'));
    expect(out).toHaveLength(200);
    expect(out.every((c) => c.words.join(' ').length <= 64 * 1024 + 40)).toBe(true);
  });
});

describe('cause 6: pandoc-crossref named by the project, not the document', () => {
  const body = '# Intro {#sec:intro}\n\nAs @sec:intro, @fig:plot, @tbl:data, @lst:code and @eq:euler show [@smith].\n';
  it.each([
    ['the Makefile\'s --filter pandoc-crossref', { '/ws/Makefile': 'pdf:\n\tpandoc -F pandoc-crossref --citeproc paper.md\n' }],
    ['a defaults file\'s filters', { '/ws/Makefile': 'pdf:\n\tpandoc -dpdf\n', '/ws/pdf.yaml': 'filters:\n  - pandoc-crossref\n  - citeproc\n' }],
    ['metadata.yml\'s prefixes', { '/ws/metadata.yml': 'figPrefix:\n  - "Figure"\n  - "Figures"\n' }],
    ['_quarto.yml\'s filters', { '/ws/_quarto.yml': 'project:\n  type: default\nfilters:\n  - pandoc-crossref\n' }],
  ])('%s: @sec:, @fig:, @tbl:, @lst:, @eq: are cross-references', async (_what, files) => {
    const s = serviceOver({ ...files, '/ws/refs.bib': bib('smith') });
    const d = doc('/ws/paper.md', 'markdown', `---\nbibliography: refs.bib\n---\n${body}`);
    expect(await s.citedKeys(d)).toEqual(['smith']);
    expect(await messages(s, d)).toEqual([]);
  });

  it('without the filter anywhere, @sec:intro is a citation (pandoc reads it as one)', async () => {
    const s = serviceOver({ '/ws/refs.bib': bib('smith') });
    const d = doc('/ws/paper.md', 'markdown', `---\nbibliography: refs.bib\n---\n${body}`);
    expect(await s.citedKeys(d)).toEqual(['sec:intro', 'fig:plot', 'tbl:data', 'lst:code', 'eq:euler', 'smith']);
  });
});

describe('cause 7: an entry missing a comma between two fields (issue 21\'s set)', () => {
  const refs = '@article{good1,\n  author={A. One},\n  title={T1},\n  year={2001}\n}\n@article{nocomma,\n  author={B. Two},\n  title={T2}\n  journal={J2},\n  year={2002}\n}\n@article{good2,\n  author={C. Three},\n  year={2003}\n}\n';

  it('is defined, as BibTeX keeps it (\\bibitem{nocomma}, "empty journal in nocomma"), with the fields before the error', () => {
    const r = parseBib(refs);
    expect(r.entries.map((e) => [e.key, Object.keys(e.fields), e.partial ?? false])).toEqual([
      ['good1', ['author', 'title', 'year'], false], ['nocomma', ['author', 'title'], true], ['good2', ['author', 'year'], false],
    ]);
    expect(worded(r.error)).toEqual({ line: 6, column: 1, message: 'expected "," or "}" after the value of title, found the field journal: the "," between them is missing (line 9); entry nocomma is read up to there, as BibTeX reads it (its key counts)' });
  });

  it('a citation of it is not flagged; the syntax error is reported on the entry, in the .bib and once in the document', async () => {
    const s = serviceOver({ '/ws/refs.bib': refs });
    const paper = doc('/ws/main.tex', 'latex', '\\bibliography{refs}\n\\cite{good1,nocomma,good2}\n');
    expect(await flagged(s, paper)).toEqual([]);
    expect(await messages(s, paper)).toEqual(['refs.bib, line 6: expected "," or "}" after the value of title, found the field journal: the "," between them is missing (line 9); entry nocomma is read up to there, as BibTeX reads it (its key counts). The keys of its other entries are checked.']);
    const file = (await s.diagnostics(doc('/ws/refs.bib', 'bibtex', refs))).map((x) => [x.range.start.line, x.message]);
    expect(file).toEqual([[5, expect.stringMatching(/^expected "," or "}" after the value of title, found the field journal: the "," between them is missing \(line 9\); entry nocomma/)]]);
  });
});
