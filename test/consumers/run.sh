#!/usr/bin/env bash
# Real consumers of our output: the whole corpus exported as BibTeX goes through pdflatex + bibtex
# (plain style, \nocite{*}) and biblatex + biber; the CSL-JSON export goes through pandoc --citeproc.
# Fails on any error or warning, and when a consumer renders fewer references than the corpus has
# entries. Last, headless Neovim uses the language server (test/consumers/neovim.sh).
# Needs: dist/cli.js (npm run build); Debian's texlive-latex-base, texlive-latex-recommended,
# texlive-bibtex-extra, biber, pandoc, poppler-utils (pdftotext) and neovim.
set -uo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
node "$REPO/dist/cli.js" export --format bibtex > all.bib
node "$REPO/dist/cli.js" export --format csl-json > all.json
n=$(grep -c '^@' all.bib)
passed=0 failed=0
ok() { echo "  ok: $*"; passed=$((passed + 1)); }
bad() { echo "  FAILED: $*"; failed=$((failed + 1)); }

echo "consumers: $n entries"
# One document that prints all 3,000+ entries outgrows pdflatex's default main memory (5,000,000
# words: "TeX capacity exceeded" in biblatex's \printbibliography); web2c reads more at run time
# from these texmf.cnf variables. A real paper prints a few dozen.
export extra_mem_bot=20000000 extra_mem_top=20000000

# 1. pdflatex + bibtex, plain style
cat > plain.tex <<'TEX'
\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage{url}
\begin{document}
\nocite{*}
\bibliographystyle{plain}
\bibliography{all}
\end{document}
TEX
pdflatex -interaction=nonstopmode -halt-on-error plain >/dev/null 2>&1
bibtex plain > bibtex.out 2>&1; bibtex_rc=$?
pdflatex -interaction=nonstopmode -halt-on-error plain >/dev/null 2>&1
pdflatex -interaction=nonstopmode -halt-on-error plain > latex.out 2>&1; latex_rc=$?
items=$(grep -c '\\bibitem' plain.bbl 2>/dev/null || echo 0)
warnings=$(grep -c '^Warning--' bibtex.out || true)
if ((bibtex_rc == 0 && latex_rc == 0 && warnings == 0)) && ! grep -q '^!' plain.log && ((items == n)); then
  ok "pdflatex + bibtex: $items references, 0 warnings"
else
  bad "pdflatex + bibtex (bibtex exit $bibtex_rc, pdflatex exit $latex_rc, $warnings warning(s), $items of $n references)"
  grep -E '^!|^Warning--|error message' plain.log bibtex.out | head -20 | sed 's/^/      /'
fi

# What the reader sees: non-ASCII names, and the capitals of system names that styles would
# lower-case without our braces (checked in the PDF's text, not only the exit codes).
EXPECTED=("Christopher Ré" "Dębiak" "Gallouédec" "Gordić" "GPipe: " "ZeRO: " "PagedAttention" "FlashAttention-2" "PyTorch FSDP" "vDNN" "DeepSpeed")
check_pdf() {
  local pdf=$1 name=$2 text missing=()
  # pdftotext writes accents as combining marks (NFD); compare in NFC.
  text=$(pdftotext "$pdf" - 2>/dev/null | node -e 'process.stdout.write(require("fs").readFileSync(0, "utf8").normalize("NFC"))' | tr '\n' ' ' | sed 's/- //g; s/  */ /g')
  for want in "${EXPECTED[@]}"; do [[ "$text" == *"$want"* ]] || missing+=("$want"); done
  if ((${#missing[@]} == 0)); then ok "$name: the PDF shows names and capitals right (${#EXPECTED[@]} checks)"
  else bad "$name: the PDF lacks: ${missing[*]}"; fi
}
check_pdf plain.pdf "pdflatex + bibtex"

# 2. pdflatex + biblatex + biber
cat > biber.tex <<'TEX'
\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage[backend=biber,maxbibnames=99]{biblatex}
\addbibresource{all.bib}
\begin{document}
\nocite{*}
\printbibliography
\end{document}
TEX
pdflatex -interaction=nonstopmode -halt-on-error biber >/dev/null 2>&1
biber biber > biber.out 2>&1; biber_rc=$?
pdflatex -interaction=nonstopmode -halt-on-error biber > latex2.out 2>&1; latex2_rc=$?
entries=$(grep -c '\\entry{' biber.bbl 2>/dev/null || echo 0)
bwarn=$(grep -c 'WARN' biber.out || true)
if ((biber_rc == 0 && latex2_rc == 0 && bwarn == 0)) && ! grep -q '^!' biber.log && ((entries == n)); then
  ok "biblatex + biber: $entries references, 0 warnings"
else
  bad "biblatex + biber (biber exit $biber_rc, pdflatex exit $latex2_rc, $bwarn warning(s), $entries of $n references)"
  grep -E 'ERROR|WARN|^!' biber.out biber.log | head -20 | sed 's/^/      /'
fi

check_pdf biber.pdf "biblatex + biber"

# 3. pandoc --citeproc with the CSL-JSON export
printf -- '---\nnocite: "@*"\n---\n\n# References\n' > refs.md
if pandoc --citeproc --bibliography=all.json -t plain refs.md -o refs.txt 2> pandoc.err; then
  # Every title must appear in the rendered bibliography (the style may change its case).
  missing=$(node -e '
    const fs = require("fs");
    const norm = (s) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
    const text = norm(fs.readFileSync("refs.txt", "utf8"));
    const miss = require("./all.json").filter((e) => !text.includes(norm(e.title).slice(0, 30)));
    for (const m of miss) console.error("      not rendered: " + m.id);
    console.log(miss.length);')
  if ((missing == 0)) && [[ ! -s pandoc.err ]]; then ok "pandoc --citeproc: all $n titles rendered"; else bad "pandoc --citeproc: $missing of $n titles missing"; cat pandoc.err | head | sed 's/^/      /'; fi
else
  bad "pandoc --citeproc failed"; head pandoc.err | sed 's/^/      /'
fi

# 4. A real LSP client: headless Neovim drives `mlsys-papers lsp --stdio` with the set-up that
# docs/other-editors.md gives (test/consumers/neovim.sh prints its own checks).
if bash "$REPO/test/consumers/neovim.sh" 2>&1 | sed 's/^/  /'; then
  ok "neovim: completion, hover, definition, diagnostics, quick fix and settings over LSP"
else
  bad "neovim: see its FAILED lines above"
fi

echo "consumers: $passed passed, $failed failed"
((failed == 0))
