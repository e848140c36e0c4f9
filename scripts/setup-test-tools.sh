#!/usr/bin/env bash
# Installs the Debian packages of the real consumers (pdflatex, bibtex, biber, pandoc, pdftotext, nvim) when missing,
# then code-server, Node 24 and chromium (scripts/setup-vscode-test.sh). Idempotent; needs root for apt.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PACKAGES=(texlive-latex-base texlive-latex-recommended texlive-bibtex-extra biber pandoc poppler-utils neovim
  # test/realdocs: the classes (IEEEtran, tufte, KOMA), packages (glossaries + tracklang, pgfplots, siunitx,
  # German babel) and fonts the real documents load: about 420 MB installed; larger font packages are stubbed
  # (test/realdocs/stubs).
  texlive-latex-extra texlive-publishers texlive-plain-generic texlive-fonts-recommended texlive-lang-german texlive-science
  texlive-pictures lmodern cm-super
  # test/realdocs: documents that load fontspec compile with lualatex, which needs luaotfload (texlive-luatex,
  # about 40 MB) and the OpenType fonts they name (fonts-texgyre, about 14 MB: biblatex-apa's test).
  texlive-luatex fonts-texgyre
  # test/realdocs, the documents themselves (MANIFEST.json): texlive-bibtex-extra and texlive-lang-german above ship
  # biblatex's and the styles' examples and lshort-german; texlive-publishers-doc (about 300 MB) theses and journal
  # samples; the r-cran-* R Markdown vignettes and bookdown projects (no R is run: about 320 MB with r-base-core,
  # which they depend on).
  texlive-publishers-doc r-cran-bookdown r-cran-knitr r-cran-rmarkdown r-cran-effectsize r-cran-phangorn r-cran-spdep r-cran-emmeans)
missing=()
for p in "${PACKAGES[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
  echo "setup-test-tools: apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq </dev/null >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null
fi
bash scripts/setup-vscode-test.sh
