#!/usr/bin/env node
/**
 * Writes MANIFEST.json, the CI set of real documents, from the Debian packages installed on this
 * machine (scripts/setup-test-tools.sh installs them). Each document below names its Debian package,
 * its folder as installed and its files; this script adds the package's version (`dpkg-query -W`),
 * the upstream project and the licence (from /usr/share/doc/PKG/copyright, or for TeX Live's
 * bundles the `name: licence` lines of /usr/share/doc/PKG/Licenses.gz), and fails on a missing file.
 * A maintainer's tool: the test reads MANIFEST.json, never this list.
 *
 * Usage: node test/realdocs/make-manifest.mjs
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const HERE = dirname(fileURLToPath(import.meta.url));
const TL = '/usr/share/doc/texlive-doc';
const BIBLATEX_EXAMPLES_BIB = '/usr/share/texlive/texmf-dist/bibtex/bib/biblatex/biblatex/biblatex-examples.bib';
const R = '/usr/lib/R/site-library';

/** The TeX sources, bibliographies and classes of an installed folder and its subfolders, as paths relative to it (a `.gz` as its unpacked name). */
function texFiles(dir, sub = '') {
  const out = [];
  for (const e of readdirSync(join(dir, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...texFiles(dir, rel));
    else if (/\.(tex|bib|cls|sty|bst)(\.gz)?$/.test(e.name)) out.push(rel.replace(/\.gz$/, ''));
  }
  return out.sort();
}

/** [id, kind, package, upstream (TeX Live / CRAN name), folder, files (relative to the folder or absolute, or [file, path in the copy]), roots, note, engine (fontspec documents: lualatex)] */
const biblatexExample = (n, note) => [`tex-biblatex-${n}`, 'latex', 'texlive-bibtex-extra', 'biblatex', `${TL}/latex/biblatex/examples`, [`${n}.tex`, BIBLATEX_EXAMPLES_BIB], [`${n}.tex`], `biblatex's own example: ${note}; biber; biblatex-examples.bib copied beside it`];
const SPEC = [
  // ---- LaTeX, biblatex + biber
  biblatexExample('01-introduction', '\\cite, \\parencite, \\textcite'),
  biblatexExample('10-references-per-section', 'refsection per section'),
  biblatexExample('11-references-by-section', 'refsegment / sections'),
  biblatexExample('12-references-by-segment', 'refsegment'),
  biblatexExample('13-references-by-keyword', 'bibliographies by keyword'),
  biblatexExample('14-references-by-category', 'bibliographies by category, \\addtocategory'),
  biblatexExample('30-style-numeric', 'numeric style'),
  biblatexExample('50-style-authoryear', 'author-year style'),
  biblatexExample('72-style-verbose-note', '\\footcite, verbose-note'),
  ['tex-biblatex-ieee', 'latex', 'texlive-bibtex-extra', 'biblatex-ieee', `${TL}/latex/biblatex-ieee`, ['biblatex-ieee.tex', 'biblatex-ieee.bib'], ['biblatex-ieee.tex'], 'the style\'s manual, citing its example database'],
  ['tex-biblatex-lncs-test', 'latex', 'texlive-bibtex-extra', 'biblatex-lncs', `${TL}/latex/biblatex-lncs`, ['biblatex-lncs-test.tex', 'biblatex-lncs-test.bib'], ['biblatex-lncs-test.tex'], 'LNCS style test'],
  ['tex-biblatex-lni-test-en', 'latex', 'texlive-bibtex-extra', 'biblatex-lni', `${TL}/latex/biblatex-lni`, ['LNI-test-en.tex', 'LNI-examples.bib'], ['LNI-test-en.tex'], 'LNI (GI proceedings) style test, \\nocite'],
  ['tex-biblatex-mla-examples', 'latex', 'texlive-bibtex-extra', 'biblatex-mla', `${TL}/latex/biblatex-mla/doc`, ['examples.tex', 'examples.bib'], ['examples.tex'], 'MLA style examples', 'lualatex'],
  // ---- LaTeX, BibTeX (natbib and others)
  ['tex-lshort-german', 'latex', 'texlive-lang-german', 'lshort-german', `${TL}/latex/lshort-german`, ['l2kurz.tex', 'einleitung.tex', 'allgemeines.tex', 'eingabefile.tex', 'textsatz.tex', 'mathematik.tex', 'bilder.tex', 'seitenaufbau.tex', 'schriften.tex', 'spezialitaeten.tex', 'anhang.tex', 'l2ksym.tex', 'fontspecbeispiel.tex', 'l2kurz.bib'], ['l2kurz.tex'], 'a book: a root that \\input{}s ten chapters (no % !TEX root) and \\bibliography{l2kurz} at the end; BibTeX'],
  ['tex-economic-aer-natbib', 'latex', 'texlive-bibtex-extra', 'economic', `${TL}/bibtex/economic`, ['aer-natbib-ex.tex', 'ajae-ex.bib'], ['aer-natbib-ex.tex'], 'natbib with the AER style'],
  ['tex-economic-erae', 'latex', 'texlive-bibtex-extra', 'economic', `${TL}/bibtex/economic`, ['erae-ex.tex', 'erae-ex.bib'], ['erae-ex.tex'], 'natbib, ERAE style'],
  ['tex-economic-itaxpf', 'latex', 'texlive-bibtex-extra', 'economic', `${TL}/bibtex/economic`, ['itaxpf-ex.tex', 'itaxpf-ex.bib'], ['itaxpf-ex.tex'], 'natbib, ITAXPF style'],
  ['tex-apacite-example', 'latex', 'texlive-bibtex-extra', 'apacite', `${TL}/bibtex/apacite`, ['apacxmpl.tex', 'apa5ex.bib'], ['apacxmpl.tex'], 'apacite\'s example: \\cite variants, \\nocite'],
  ['tex-munich-example', 'latex', 'texlive-bibtex-extra', 'munich', `${TL}/latex/munich`, ['example_munich_Bibtex_style.tex', 'example_DB.bib'], ['example_munich_Bibtex_style.tex'], 'natbib author-year, German'],
  ['tex-templates-sommer-hausarbeit', 'latex', 'texlive-lang-german', 'templates-sommer', `${TL}/latex/templates-sommer`, ['Hausarbeit.tex', 'Hausarbeit.bib'], ['Hausarbeit.tex'], 'a German seminar paper template, KOMA'],
  ['tex-biblatex-dw-en-authortitle', 'latex', 'texlive-bibtex-extra', 'biblatex-dw', `${TL}/latex/biblatex-dw/examples`, ['en-authortitle-dw.tex', 'examples-dw.bib'], ['en-authortitle-dw.tex'], 'biblatex with \\bibliography{} (the old form)'],
  ['tex-urlbst', 'latex', 'texlive-bibtex-extra', 'urlbst', `${TL}/bibtex/urlbst`, ['urlbst.tex', 'urlbst.bib'], ['urlbst.tex'], 'urlbst\'s manual, BibTeX'],
  ['tex-bibtopic-sample', 'latex', 'texlive-bibtex-extra', 'bibtopic', `${TL}/latex/bibtopic`, ['sample.tex', 'articles.bib', 'books.bib'], ['sample.tex'], 'bibtopic: one bibliography per topic (btSect), two .bib files'],
  // ---- issue 28: biblatex's global and per-section resources, bibunits, a bibliography only a class option names
  ['tex-biblatex-apa-test', 'latex', 'texlive-bibtex-extra', 'biblatex-apa', `${TL}/latex/biblatex-apa`, [['biblatex-apa-test.tex', 'doc/biblatex-apa-test.tex'], ['biblatex-apa-test-references.bib', 'bibtex/bib/biblatex-apa-test-references.bib'], ['biblatex-apa-test-citations.bib', 'bibtex/bib/biblatex-apa-test-citations.bib']], ['doc/biblatex-apa-test.tex'], 'biblatex-apa\'s test: \\addglobalbib{../bibtex/bib/…-references.bib} and \\begin{refsection}[../bibtex/bib/…-citations.bib], almost 400 keys; the .bib files placed where its relative paths lead (as in TeX Live\'s tree); MnSymbol stubbed', 'lualatex'],
  ['tex-jurabib-bibunits', 'latex', 'texlive-bibtex-extra', 'jurabib', `${TL}/latex/jurabib`, ['jbtestbu.tex', '/usr/share/texlive/texmf-dist/bibtex/bib/jurabib/jbtesthu.bib'], ['jbtestbu.tex'], 'jurabib with bibunits: two bibunits, each \\putbib[jbtesthu]; jbtesthu.bib copied beside it'],
  // ---- LaTeX: theses split into \include'd chapters, journal and conference samples (texlive-publishers-doc)
  ['tex-umthesis', 'latex', 'texlive-publishers-doc', 'umthesis', `${TL}/latex/umthesis`, texFiles(`${TL}/latex/umthesis`), ['example.tex'], 'a UMass thesis: six \\include chapters, \\bibliography{felty}; BibTeX'],
  ['tex-sphdthesis', 'latex', 'texlive-publishers-doc', 'sphdthesis', `${TL}/latex/sphdthesis/example`, texFiles(`${TL}/latex/sphdthesis/example`), ['thesis.tex'], 'a PhD thesis with its local class and \\input chapters'],
  ['tex-mugsthesis', 'latex', 'texlive-publishers-doc', 'mugsthesis', `${TL}/latex/mugsthesis/sample`, texFiles(`${TL}/latex/mugsthesis/sample`), ['mugsthesis_sample.tex'], 'a Marquette thesis: \\include chapters, \\bibliography{refs} before an \\include appendix'],
  ['tex-ucalgmthesis', 'latex', 'texlive-publishers-doc', 'ucalgmthesis', `${TL}/latex/ucalgmthesis`, texFiles(`${TL}/latex/ucalgmthesis`), ['sample-thesis.tex'], 'a Calgary thesis whose \\bibliography sits in an \\include\'d backmatter file'],
  ['tex-acmart-sigconf', 'latex', 'texlive-publishers-doc', 'acmart', `${TL}/latex/acmart/samples`, ['sample-sigconf.tex', 'sample-base.bib'], ['sample-sigconf.tex'], 'ACM conference sample: natbib, BibTeX'],
  ['tex-acmart-sigconf-biblatex', 'latex', 'texlive-publishers-doc', 'acmart', `${TL}/latex/acmart/samples`, ['sample-sigconf-biblatex.tex', 'sample-base.bib', 'software.bib'], ['sample-sigconf-biblatex.tex'], 'ACM conference sample with biblatex, two \\addbibresource'],
  ['tex-cleanthesis', 'latex', 'texlive-publishers-doc', 'cleanthesis', `${TL}/latex/cleanthesis`, ['my-thesis.tex', 'my-thesis-setup.tex', 'bib-refs.bib', ...['abstract', 'acknowledgement', 'chapter-appendix', 'chapter-concepts', 'chapter-conclusion', 'chapter-introduction', 'chapter-related-work', 'chapter-system', 'colophon', 'declaration', 'titlepages'].map((c) => `content/${c}.tex`)], ['my-thesis.tex'], 'a thesis whose bibliography only the style\'s option names (\\usepackage[bibfile=bib-refs]{cleanthesis}, which \\addbibresource-s it): no file declares one; biblatex + biber'],
  ['tex-classicthesis', 'latex', 'texlive-publishers-doc', 'classicthesis', `${TL}/latex/classicthesis`, ['ClassicThesis.tex', 'classicthesis-config.tex', 'Bibliography.bib', 'AMiede_Publications.bib', ...['Chapter01', 'Chapter02', 'Chapter03', 'Chapter0A'].map((c) => `Chapters/${c}.tex`), ...['Abstract', 'Acknowledgments', 'Bibliography', 'Colophon', 'Contents', 'Declaration', 'Dedication', 'DirtyTitlepage', 'Publications', 'Titleback', 'Titlepage'].map((c) => `FrontBackmatter/${c}.tex`)], ['ClassicThesis.tex'], 'a thesis: \\include chapters, \\addbibresource[label=ownpubs]{AMiede_Publications.bib} and \\begin{refsection}[ownpubs] with \\nocite{*}; biblatex with the BibTeX backend (bibtex8); beramono stubbed'],
  ['tex-aastex-sample', 'latex', 'texlive-publishers-doc', 'aastex', `${TL}/latex/aastex`, ['sample631.tex', 'sample631.bib'], ['sample631.tex'], 'AAS journals sample: natbib \\citep/\\citet, BibTeX'],
  // ---- R Markdown: bookdown projects
  ['rmd-bookdown-template', 'bookdown', 'r-cran-bookdown', 'bookdown', `${R}/bookdown/rstudio/templates/project/resources/common`, ['index.Rmd', '01-intro.Rmd', '02-cross-refs.Rmd', '03-parts.Rmd', '04-citations.Rmd', '05-blocks.Rmd', '06-share.Rmd', '07-references.Rmd', 'README.md', '_bookdown.yml', '_output.yml', 'book.bib'], [], "bookdown's project template: chapters render with index.Rmd's bibliography: and `@ref(label)` cross-references"],
  ['rmd-bookdown-book', 'bookdown', 'r-cran-bookdown', 'bookdown', `${R}/bookdown/examples`, ['00-author.Rmd', '01-introduction.Rmd', '02-components.Rmd', '03-formats.Rmd', '04-customization.Rmd', '05-editing.Rmd', '06-publishing.Rmd', '07-tools.Rmd', '08-usage.Rmd', '09-faq.Rmd', '10-references.Rmd', '_bookdown.yml', '_output.yml', 'book.bib'], [], "the bookdown book's chapters as Debian ships them (without index.Rmd): YAML and citation syntax shown in code, book.bib beside them"],
  // ---- R Markdown: vignettes
  ...['sids', 'CO69', 'nb'].map((v) => [`rmd-spdep-${v.toLowerCase()}`, 'markdown', 'r-cran-spdep', 'spdep', '/usr/share/doc/r-cran-spdep/examples/vignettes', [`${v}.Rmd`, 'refs.bib'], [], `spdep vignette ${v}: [@key] citations, bibliography: refs.bib`]),
  ...['interpret', 'effectsize', 'from_test_statistics', 'anovaES', 'convert_r_d_OR', 'convert_p_OR_RR'].map((v) => [`rmd-effectsize-${v.toLowerCase().replace(/_/g, '-')}`, 'markdown', 'r-cran-effectsize', 'effectsize', `${R}/effectsize/doc`, [`${v}.Rmd`], [], `effectsize vignette ${v}: citations; its bibliography.bib is not installed (the built vignette carries the references)`]),
  ...['Trees', 'AdvancedFeatures', 'Networx', 'Morphological', 'MLbyHand', 'Ancestral', 'IntertwiningTreesAndNetworks'].map((v) => [`rmd-phangorn-${v.toLowerCase()}`, 'markdown', 'r-cran-phangorn', 'phangorn', `${R}/phangorn/doc`, [`${v}.Rmd`], [], `phangorn vignette ${v}: citations; its phangorn.bib is not installed`]),
  ['rmd-emmeans-basics', 'markdown', 'r-cran-emmeans', 'emmeans', `${R}/emmeans/doc`, ['basics.Rmd'], [], 'emmeans vignette: `<!-- @index … -->` HTML comments, no citation'],
  ['rmd-emmeans-transformations', 'markdown', 'r-cran-emmeans', 'emmeans', `${R}/emmeans/doc`, ['transformations.Rmd'], [], 'emmeans vignette: @index comments, R code with @'],
  ['rmd-rmarkdown-vignette', 'markdown', 'r-cran-rmarkdown', 'rmarkdown', `${R}/rmarkdown/doc`, ['rmarkdown.Rmd', 'lua-filters.Rmd'], [], "rmarkdown's vignettes"],
  ['rmd-rmarkdown-test-two-bibs', 'markdown', 'r-cran-rmarkdown', 'rmarkdown', '/usr/share/doc/r-cran-rmarkdown/tests/rmd', ['two-bibs.Rmd'], [], 'a test document with two bibliography files, not shipped'],
  ['rmd-knitr-intro', 'markdown', 'r-cran-knitr', 'knitr', `${R}/knitr/doc`, ['knitr-intro.Rmd'], [], "knitr's introduction vignette: an empty bibliography: and @ in code"],
];

function dpkgVersion(pkg) {
  return execFileSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8' });
}

const licenceCache = new Map();
/** The upstream project's licence: TeX Live bundles list `name: licence` in Licenses.gz; R packages' DEP-5 copyright has `License:` under `Files: *`. */
function licenceOf(pkg, upstream) {
  const key = `${pkg}/${upstream}`;
  if (licenceCache.has(key)) return licenceCache.get(key);
  let licence;
  const tl = `/usr/share/doc/${pkg}/Licenses.gz`;
  if (existsSync(tl)) {
    const m = gunzipSync(readFileSync(tl)).toString('utf8').match(new RegExp(`^${upstream.replace(/[-.]/g, '\\$&')}: (.+)$`, 'm'));
    licence = m?.[1];
  } else {
    const text = readFileSync(`/usr/share/doc/${pkg}/copyright`, 'utf8');
    const m = text.match(/^Files: \*\n(?:[ \t].*\n|[A-Z][\w-]*:.*\n)*?License: (.+)$/m);
    licence = m?.[1];
  }
  if (!licence) throw new Error(`${pkg}: no licence for ${upstream}`);
  licenceCache.set(key, licence.trim());
  return licence.trim();
}

const documents = [];
for (const [id, kind, pkg, upstream, dir, files, roots, note, engine] of SPEC) {
  const version = dpkgVersion(pkg);
  const out = [];
  for (const entry of files) {
    // A file, or [file, where it goes in the copy] (a document whose relative paths lead outside its folder).
    const [f, to] = Array.isArray(entry) ? entry : [entry, undefined];
    const base = f.startsWith('/') ? f : join(dir, f);
    const from = existsSync(base) ? base : existsSync(`${base}.gz`) ? `${base}.gz` : undefined;
    if (!from) throw new Error(`${id}: ${base} is not installed`);
    out.push({ from, to: to ?? (f.startsWith('/') ? f.split('/').pop() : f) });
  }
  const upstreamUrl = pkg.startsWith('texlive') ? `https://ctan.org/pkg/${upstream}` : `https://cran.r-project.org/package=${upstream}`;
  documents.push({ id, kind, package: pkg, version, upstream: upstreamUrl, licence: licenceOf(pkg, upstream), ...(roots.length ? { roots } : {}), ...(engine ? { engine } : {}), note, files: out });
}
const manifest = {
  about: 'Real documents for test/realdocs (issue 21), as Debian bookworm installs them (scripts/setup-test-tools.sh): copied at test time from the installed paths (a .gz is unpacked) into a temporary folder. `version` is the package version this set was checked with; written by make-manifest.mjs. See README.md.',
  documents,
};
writeFileSync(join(HERE, 'MANIFEST.json'), `${JSON.stringify(manifest, null, 1)}\n`);
const latex = documents.filter((d) => d.kind === 'latex').length;
console.log(`MANIFEST.json: ${latex} LaTeX, ${documents.length - latex} Markdown-family documents from ${new Set(documents.map((d) => d.package)).size} packages`);
