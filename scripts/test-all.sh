#!/usr/bin/env bash
# `npm test`: the whole test suite, on a fresh machine too. Installs what the real-VS-Code and
# real-consumer tests need (Debian packages, Node 24, code-server) when missing, then runs:
# type check, lint (layers, import cycles, regular expressions, silent catches), build and package (validates the corpus; the .vsix), unit tests, the serial performance tests, real consumers (pdflatex+bibtex, biber,
# pandoc), the browser tests in code-server, and the Mocha suite in code-server's extension host.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

status=0
run() {
  local name=$1; shift
  echo "::: $name"
  if ! "$@"; then echo "::: $name FAILED"; status=1; fi
}

[[ -d node_modules ]] || run "npm ci" npm ci --no-audit --no-fund
run "install test tools" bash scripts/setup-test-tools.sh
run "type check" npm run typecheck
run "lint" npm run lint
# The build (validates the corpus) runs as the package's vscode:prepublish; the browser tests and
# the extension-host suite install that .vsix, as users do.
run "build and package" env VSIX_OUT=dist-test/mlsys-papers.vsix node scripts/package.mjs
export MLSYS_VSIX=dist-test/mlsys-papers.vsix
run "unit tests" npx vitest run
# Time ratios and wall-clock bounds, one file at a time, with nothing else of ours running.
run "performance (serial)" npx vitest run -c vitest.perf.config.mts
run "real consumers" bash test/consumers/run.sh
# Real papers, theses, books and vignettes (from Debian packages that setup-test-tools.sh installs) against pdflatex/BibTeX/biber and pandoc.
run "real documents" npx vitest run -c vitest.realdocs.config.mts
run "browser tests in code-server" npx vitest run -c vitest.e2e.config.mts
run "extension-host suite in code-server" node test/integration/run-code-server.mjs
# package.json's engines.vscode (^1.90.0) is what the tests show working: the same suite on VS Code 1.90.
run "extension-host suite on the minimum VS Code (1.90)" bash scripts/test-min-vscode.sh
((status == 0)) && echo "::: all test steps passed" || echo "::: some test steps FAILED"
exit $status
