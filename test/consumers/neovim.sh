#!/usr/bin/env bash
# A real LSP client against `mlsys-papers lsp --stdio`: headless Neovim (Debian's 0.7.2, or newer)
# runs the set-up that docs/other-editors.md gives, copied out of that file, on a LaTeX paper with
# a bibliography of its own, in a folder whose name has a space. Checked, with exact values:
# completion ranking, completion resolve, hovers (corpus and own entry, formatted reference),
# definition, diagnostics (pulled by the documented set-up), the quick fix applied by Neovim
# through workspace/applyEdit, incremental edits, settings read through workspace/configuration,
# in a .bib buffer the record check and its rewrite to the version of record, and find all
# citations and rename of a key across the project (files on disk checked).
# Needs: nvim (Debian's neovim), node, dist/cli.js (npm run build). MLSYS_PAPERS_CLI overrides the
# server script (for example an unpacked `npm pack` tarball's package/dist/cli.js);
# NEOVIM_TEST_KEEP=1 keeps the temporary folder (outputs, nvim.out, Neovim's lsp.log).
set -uo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CLI="${MLSYS_PAPERS_CLI:-$REPO/dist/cli.js}"
DOC="$REPO/docs/other-editors.md"
work="$(mktemp -d)"
trap '[[ -n "${NEOVIM_TEST_KEEP:-}" ]] && echo "kept $work" || rm -rf "$work"' EXIT
passed=0 failed=0
ok() { echo "  ok: $*"; passed=$((passed + 1)); }
bad() { echo "  FAILED: $*"; failed=$((failed + 1)); }
finish() { echo "neovim: $passed passed, $failed failed"; ((failed == 0)); exit $?; }

if ! command -v nvim >/dev/null; then bad "nvim is not installed (apt-get install neovim; scripts/setup-test-tools.sh does it)"; finish; fi
if [[ ! -f "$CLI" ]]; then bad "$CLI is missing (npm run build)"; finish; fi
echo "neovim: $(nvim --version | head -1), server $CLI"

# `mlsys-papers` on PATH, as `npm install -g .` makes it: the documented snippet runs unchanged.
mkdir -p "$work/bin"
printf '#!/bin/sh\nexec node "%s" "$@"\n' "$CLI" > "$work/bin/mlsys-papers"
chmod +x "$work/bin/mlsys-papers"

# The Neovim set-up, as the documentation has it: the block after each marker.
block() { awk -v m="<!-- $1 -->" '$0 == m { on = 1; next } on && /^```lua$/ { inside = 1; next } inside && /^```$/ { exit } inside { print }' "$DOC"; }
block neovim-0.8 > "$work/init-0.8.lua"
block neovim-0.7 > "$work/init-0.7.lua"
if nvim --headless --clean -c 'if has("nvim-0.8") | cquit 0 | else | cquit 1 | endif' >/dev/null 2>&1; then run=0.8 other=0.7; else run=0.7 other=0.8; fi
if [[ -s "$work/init-0.8.lua" && -s "$work/init-0.7.lua" ]]; then
  ok "docs/other-editors.md has both Neovim blocks ($(wc -l < "$work/init-0.8.lua") and $(wc -l < "$work/init-0.7.lua") lines); running the $run one"
else
  bad "docs/other-editors.md lacks a Neovim block (markers <!-- neovim-0.8 --> and <!-- neovim-0.7 --> before a lua fence)"; finish
fi
# The block this Neovim cannot run must at least compile, and share the tested on_attach.
fn() { awk '/^local function on_attach/ { on = 1 } on { print } on && /^end$/ { exit }' "$1"; }
if out=$(nvim --headless --clean -c "lua local f, e = loadfile('$work/init-$other.lua'); if not f then io.stderr:write(e) vim.cmd('cquit 1') end" -c 'qa!' 2>&1); then
  ok "the Neovim $other block compiles"
else
  bad "the Neovim $other block does not compile: $out"
fi
if [[ -n "$(fn "$work/init-0.8.lua")" && "$(fn "$work/init-0.8.lua")" == "$(fn "$work/init-0.7.lua")" ]]; then ok "both blocks have the same on_attach"; else bad "the two Neovim blocks' on_attach differ"; fi

# A LaTeX paper citing a corpus key missing from its bibliography, and an entry of its own.
ws="$work/my paper"
mkdir -p "$ws/.git" "$work/out"
cat > "$ws/paper.tex" <<'TEX'
\documentclass{article}
\begin{document}
Paged attention~\cite{pag} keeps the KV cache in blocks.
vLLM~\cite{kwon2023efficient} and our notes~\cite{doe2024batching}.
\input{sections/intro}
\bibliographystyle{plain}
\bibliography{refs}
\end{document}
TEX
cat > "$ws/refs.bib" <<'BIB'
@misc{doe2024batching,
  title  = {Notes on Continuous Batching},
  author = {Doe, Jane},
  year   = {2024},
}
BIB
printf 'A chapter on serving~\\cite{kwon2023efficient}.\n' > "$ws/chapter.tex"
# A section file without a magic comment: paper.tex \input's it, so refs.bib is its bibliography too.
mkdir -p "$ws/sections"
printf 'Batching~\\cite{doe2024batching} helps.\nMore~\\cite{nosuch1999,doe}.\n' > "$ws/sections/intro.tex"
# A Google Scholar export of a preprint the corpus has as published, beside an entry of its own.
printf '%% exported\n@article{kwon2023vllm,\n  title={Efficient memory management for large language model serving with pagedattention},\n  author={Kwon, Woosuk and others},\n  journal={arXiv preprint arXiv:2309.06180},\n  year={2023},\n  note={read twice}\n}\n\n@misc{mine, title={Mine}}\n' > "$ws/scholar.bib"

cat > "$work/driver.lua" <<'LUA'
-- Drives the client the user's init.lua started; writes what it saw to $MLSYS_OUT/<name>.
local ws, out = os.getenv('MLSYS_WS'), os.getenv('MLSYS_OUT')
local function save(name, value)
  local lines = type(value) == 'table' and value or vim.split(tostring(value), '\n', { plain = true })
  vim.fn.writefile(lines, out .. '/' .. name)
end
local function line_of(buf, n) return vim.api.nvim_buf_get_lines(buf, n, n + 1, false)[1] end
-- The 0-based column right after `needle` on line n (ASCII: bytes are UTF-16 units).
local function after(buf, n, needle)
  local s = assert(line_of(buf, n):find(needle, 1, true), needle .. ' not on line ' .. n)
  return s - 1 + #needle
end

local ok, err = xpcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/paper.tex'))
  local buf = vim.api.nvim_get_current_buf()
  save('filetype', vim.bo[buf].filetype)

  local client
  local function find()
    local all = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
    for _, c in pairs(all) do
      if c.name == 'mlsys-papers' and c.initialized and vim.lsp.buf_is_attached(buf, c.id) then return c end
    end
  end
  if not vim.wait(30000, function() client = find() return client ~= nil end, 50) then error('no initialized mlsys-papers client attached to paper.tex in 30 s') end
  save('client', { client.name, vim.inspect(client.config.root_dir), vim.bo[buf].omnifunc })
  local uri = vim.uri_from_bufnr(buf)
  local function request(method, params)
    local res, e = client.request_sync(method, params, 20000, buf)
    if not res then error(method .. ': ' .. tostring(e)) end
    if res.err then error(method .. ': ' .. vim.inspect(res.err)) end
    return res.result
  end
  local function at(line, character) return { textDocument = { uri = uri }, position = { line = line, character = character } } end
  local function hover_text(r) return r and r.contents and (r.contents.value or vim.inspect(r.contents)) or 'no hover' end

  -- Diagnostics, pulled by the documented on_attach (or by Neovim 0.10+ itself).
  local function diagnostics() return vim.diagnostic.get(buf) end
  vim.wait(20000, function() return #diagnostics() >= 2 end, 50)
  local function describe(ds)
    local t = {}
    for _, d in ipairs(ds) do t[#t + 1] = string.format('%d:%d-%d %s %s | %s', d.lnum, d.col, d.end_col, d.source, d.code, d.message) end
    table.sort(t)
    return t
  end
  save('diagnostics', describe(diagnostics()))

  -- Completion after `\cite{pag`, in the server's order (sortText).
  local col = after(buf, 2, '\\cite{pag')
  local list = request('textDocument/completion', at(2, col))
  local items = list.items or list
  table.sort(items, function(a, b) return (a.sortText or a.label) < (b.sortText or b.label) end)
  local first = items[1] or {}
  local e = first.textEdit or {}
  local r = e.insert or e.range or { start = {}, ['end'] = {} }
  save('completion', {
    first.label or 'none', items[2] and items[2].label or 'none', tostring(#items), tostring(list.isIncomplete),
    string.format('%s:%s-%s:%s', r.start.line, r.start.character, r['end'].line, r['end'].character),
  })
  local resolved = request('completionItem/resolve', first)
  save('resolve.md', resolved.documentation and (resolved.documentation.value or resolved.documentation) or 'no documentation')

  -- Hovers: a corpus key the bibliography lacks; the bibliography's own entry.
  local kwon = after(buf, 3, '\\cite{kwon') -- inside the key
  local h = request('textDocument/hover', at(3, kwon))
  save('hover.md', hover_text(h))
  save('hover-range', h and h.range and string.format('%d:%d-%d:%d', h.range.start.line, h.range.start.character, h.range['end'].line, h.range['end'].character) or 'none')
  local doe = after(buf, 3, '\\cite{doe')
  save('hover-own.md', hover_text(request('textDocument/hover', at(3, doe))))

  local def = request('textDocument/definition', at(3, doe))
  def = def and (def[1] or def) or {}
  save('definition', def.uri and string.format('%s %d:%d', vim.uri_to_fname(def.uri), def.range.start.line, def.range.start.character) or 'none')

  -- The quick fix, as the user runs it: code action on the line, then the server's applyEdit.
  local offered = {}
  vim.ui.select = function(choices, opts, on_choice)
    local pick
    for _, c in ipairs(choices) do
      local title = c[2] and c[2].title or tostring(c)
      offered[#offered + 1] = title
      if title:find('^Add kwon2023efficient') then pick = c end
    end
    on_choice(pick)
  end
  vim.api.nvim_win_set_cursor(0, { 4, kwon })
  vim.lsp.buf.code_action()
  local bib = vim.fn.bufnr(ws .. '/refs.bib')
  local applied = vim.wait(20000, function()
    bib = vim.fn.bufnr(ws .. '/refs.bib')
    return bib > 0 and vim.api.nvim_buf_is_loaded(bib)
      and table.concat(vim.api.nvim_buf_get_lines(bib, 0, -1, false), '\n'):find('kwon2023efficient', 1, true) ~= nil
  end, 50)
  save('code-actions', offered)
  save('applied', tostring(applied))
  if applied then vim.api.nvim_buf_call(bib, function() vim.cmd('silent write') end) end

  -- Writing the paper pulls again: the key is in refs.bib now.
  vim.cmd('silent write')
  vim.wait(20000, function() return #diagnostics() == 1 end, 50)
  save('diagnostics-after', describe(diagnostics()))

  -- An edit (incremental didChange): `pag` becomes `batch`; the bibliography's own entry ranks first.
  local s = line_of(buf, 2):find('{pag}', 1, true)
  vim.api.nvim_buf_set_text(buf, 2, s, 2, s + 3, { 'batch' })
  local list2 = request('textDocument/completion', at(2, after(buf, 2, '\\cite{batch')))
  local items2 = list2.items or list2
  table.sort(items2, function(a, b) return (a.sortText or a.label) < (b.sortText or b.label) end)
  save('completion-own', { items2[1] and items2[1].label or 'none', items2[1] and items2[1].detail or '' })

  -- Settings: Neovim answers workspace/configuration from the client's settings.
  client.config.settings = { mlsysPapers = { citationStyle = 'ieee' } }
  client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
  save('hover-ieee.md', hover_text(request('textDocument/hover', at(3, kwon))))

  -- A chapter without \documentclass: LaTeX too (tex_flavor), attached to the same server.
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/chapter.tex'))
  local ch = vim.api.nvim_get_current_buf()
  vim.wait(10000, function() return vim.lsp.buf_is_attached(ch, client.id) end, 50)
  local hc = vim.lsp.buf_is_attached(ch, client.id) and client.request_sync('textDocument/hover',
    { textDocument = { uri = vim.uri_from_bufnr(ch) }, position = { line = 0, character = after(ch, 0, '\\cite{kwon') } }, 20000, ch)
  save('chapter', { vim.bo[ch].filetype, tostring(vim.lsp.buf_is_attached(ch, client.id)),
    hc and hc.result and hc.result.contents.value:match('^%*%*[^*]+%*%*') or 'no hover' })

  -- A section file opened alone, without a magic comment: the server finds paper.tex, which
  -- \input's it, and gives it refs.bib (doe2024batching is known, and completes).
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/sections/intro.tex'))
  local sec = vim.api.nvim_get_current_buf()
  vim.wait(10000, function() return vim.lsp.buf_is_attached(sec, client.id) end, 50)
  vim.wait(20000, function() return #vim.diagnostic.get(sec) >= 2 end, 50)
  save('section-diagnostics', describe(vim.diagnostic.get(sec)))
  local sc = client.request_sync('textDocument/completion',
    { textDocument = { uri = vim.uri_from_bufnr(sec) }, position = { line = 1, character = after(sec, 1, 'nosuch1999,doe') } }, 20000, sec)
  local sitems = sc and sc.result and (sc.result.items or sc.result) or {}
  table.sort(sitems, function(a, b) return (a.sortText or a.label) < (b.sortText or b.label) end)
  save('section-completion', { sitems[1] and sitems[1].label or 'none' })

  -- A .bib with a preprint: the record check's diagnostic on its key, and the rewrite applied by Neovim.
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/scholar.bib'))
  local sb = vim.api.nvim_get_current_buf()
  vim.wait(10000, function() return vim.lsp.buf_is_attached(sb, client.id) end, 50)
  vim.wait(20000, function() return #vim.diagnostic.get(sb) >= 1 end, 50)
  save('bib-diagnostics', describe(vim.diagnostic.get(sb)))
  local picked = {}
  vim.ui.select = function(choices, opts, on_choice)
    local pick
    for _, c in ipairs(choices) do
      local title = c[2] and c[2].title or tostring(c)
      picked[#picked + 1] = title
      if title:find('^Rewrite kwon2023vllm as the version of record') then pick = c end
    end
    on_choice(pick)
  end
  vim.api.nvim_win_set_cursor(0, { 2, 12 })
  vim.lsp.buf.code_action()
  local rewritten = vim.wait(20000, function()
    return table.concat(vim.api.nvim_buf_get_lines(sb, 0, -1, false), '\n'):find('@inproceedings{kwon2023vllm,', 1, true) ~= nil
  end, 50)
  save('bib-actions', picked)
  save('bib-applied', tostring(rewritten))
  if rewritten then vim.cmd('silent write') end
  -- Find all citations and rename, from the citation of doe2024batching in paper.tex: the entry in
  -- refs.bib and the citation in sections/intro.tex change with it, applied by Neovim and written.
  vim.cmd('buffer ' .. buf)
  local doe_at = at(3, after(buf, 3, '\\cite{doe'))
  local found = request('textDocument/references', vim.tbl_extend('force', doe_at, { context = { includeDeclaration = true } }))
  local where = {}
  for _, l in ipairs(found or {}) do where[#where + 1] = string.format('%s %d:%d', vim.fn.fnamemodify(vim.uri_to_fname(l.uri), ':.'), l.range.start.line, l.range.start.character) end
  save('references', where)
  local renamed = request('textDocument/rename', vim.tbl_extend('force', doe_at, { newName = 'doe2024batch' }))
  vim.lsp.util.apply_workspace_edit(renamed, client.offset_encoding)
  vim.cmd('silent wall')
end, debug.traceback)
if not ok then save('error', err) end
vim.cmd('qa!')
LUA

cd "$ws"
export MLSYS_WS="$ws" MLSYS_OUT="$work/out" PATH="$work/bin:$PATH"
# Neovim's own files (the LSP log) go to the temporary folder.
export XDG_CONFIG_HOME="$work/xdg/config" XDG_DATA_HOME="$work/xdg/data" XDG_STATE_HOME="$work/xdg/state" XDG_CACHE_HOME="$work/xdg/cache"
timeout -k 5 60 nvim --headless --clean -u "$work/init-$run.lua" -c "luafile $work/driver.lua" > "$work/nvim.out" 2>&1
rc=$?
cd "$work"
R="$work/out"
get() { cat "$R/$1" 2>/dev/null; }
line() { sed -n "${2}p" "$R/$1" 2>/dev/null; }

if ((rc == 124)); then bad "nvim did not finish in 60 s"; elif ((rc != 0)); then bad "nvim exited with $rc"; fi
if [[ -s "$R/error" ]]; then bad "the driver stopped: $(head -c 2000 "$R/error")"; fi
if ((rc != 0)) || [[ -s "$R/error" ]]; then
  { cat "$work/nvim.out"; echo; } | head -20 | sed 's/^/      nvim: /'
  log=$(find "$work/xdg" -name 'lsp.log' 2>/dev/null | head -1); [[ -n "$log" ]] && tail -5 "$log" | cut -c1-400 | sed 's/^/      lsp.log: /'
fi

check() { # name, actual, expected
  if [[ "$2" == "$3" ]]; then ok "$1: $2"; else bad "$1: got '$2', expected '$3'"; fi
}
has() { # name, file, needle…: the file holds every needle
  local name=$1 file=$2 missing=(); shift 2
  for n in "$@"; do grep -qF -- "$n" "$R/$file" 2>/dev/null || missing+=("$n"); done
  if ((${#missing[@]} == 0)); then ok "$name"; else bad "$name: lacks ${missing[*]}"; head -c 600 "$R/$file" 2>/dev/null | sed 's/^/      /'; echo; fi
}

check "filetype of paper.tex" "$(get filetype)" "tex"
check "client" "$(line client 1)" "mlsys-papers"
check "root_dir (the folder with .git)" "$(line client 2)" "\"$ws\""
check "omnifunc set by on_attach" "$(line client 3)" "v:lua.vim.lsp.omnifunc"

# Diagnostics: 0-based line:col; pulled without any request from the driver.
check "diagnostics on open" "$(get diagnostics | tr '\n' '~')" \
  "2:22-25 MLSys Papers unknown-key | Unknown citation key \"pag\": not in refs.bib, nor in the MLSys Papers corpus.~3:11-28 MLSys Papers not-in-bibliography | \"kwon2023efficient\" is in the MLSys Papers corpus but not in refs.bib.~"

check "completion after \\cite{pag: first item" "$(line completion 1)" "kwon2023efficient"
check "completion: isIncomplete (asked again on every keystroke)" "$(line completion 4)" "true"
check "completion: the first item's insert range is the typed 'pag'" "$(line completion 5)" "2:22-2:25"
n=$(line completion 3); if [[ "$n" =~ ^[0-9]+$ ]] && ((n >= 2)); then ok "completion: $n items, second $(line completion 2)"; else bad "completion: $n items"; fi
has "completionItem/resolve: the card and the APA reference" resolve.md \
  "**Efficient Memory Management for Large Language Model Serving with PagedAttention**" "Kwon, W\\." "\`kwon2023efficient\`"

has "hover on kwon2023efficient: title, authors, APA reference, not in refs.bib" hover.md \
  "**Efficient Memory Management for Large Language Model Serving with PagedAttention**" \
  "Woosuk Kwon" "Kwon, W\\., Li, Z\\." "\\(2023\\)\\. Efficient Memory Management" "✗ not in refs\\.bib"
check "hover range (the key)" "$(get hover-range)" "3:11-3:28"
has "hover on the bibliography's own doe2024batching" hover-own.md "Notes on Continuous Batching" "Jane Doe" "✓ in refs\\.bib"
check "definition of doe2024batching" "$(get definition)" "$ws/refs.bib 0:6"

offered=$(get code-actions | tr '\n' '|')
if [[ "$offered" == *"Add kwon2023efficient to the bibliography"* ]]; then ok "code actions on the line: ${offered%|}"; else bad "code actions on the line: '${offered%|}'"; fi
check "quick fix applied through workspace/applyEdit" "$(get applied)" "true"
if grep -q '^@inproceedings{kwon2023efficient,$' "$ws/refs.bib" && grep -q '^@misc{doe2024batch\(ing\)\?,$' "$ws/refs.bib" \
  && grep -qF 'title         = {Efficient Memory Management for Large Language Model Serving with {PagedAttention}},' "$ws/refs.bib"; then
  ok "refs.bib on disk: doe2024batching kept (renamed at the end), kwon2023efficient added ($(grep -c '^@' "$ws/refs.bib") entries)"
else
  bad "refs.bib on disk after the quick fix:"; sed 's/^/      /' "$ws/refs.bib"
fi
check "diagnostics after the fix" "$(get diagnostics-after | tr '\n' '~')" \
  "2:22-25 MLSys Papers unknown-key | Unknown citation key \"pag\": not in refs.bib, nor in the MLSys Papers corpus.~"

check "completion after an edit (\\cite{batch): the bibliography's own entry first" "$(get completion-own | tr '\n' '|')" "doe2024batching|Notes on Continuous Batching|"
has "settings through workspace/configuration: IEEE reference in the hover" hover-ieee.md "\\[1\\] W\\. Kwon et al\\., “Efficient Memory Management for Large Language Model Serving with PagedAttention,”"
if grep -qF "Kwon, W\\., Li, Z\\." "$R/hover-ieee.md" 2>/dev/null; then bad "the hover still shows the APA reference after the settings changed"; fi

check "chapter.tex without \\documentclass: filetype, attached, hover" "$(get chapter | tr '\n' '|')" \
  "tex|true|**Efficient Memory Management for Large Language Model Serving with PagedAttention**|"
check "sections/intro.tex without a magic comment: its root's refs.bib, no alarm on doe2024batching" "$(get section-diagnostics | tr '\n' '~')" \
  "1:11-21 MLSys Papers unknown-key | Unknown citation key \"nosuch1999\": not in refs.bib, nor in the MLSys Papers corpus.~1:22-25 MLSys Papers unknown-key | Unknown citation key \"doe\": not in refs.bib, nor in the MLSys Papers corpus.~"
check "sections/intro.tex: \\cite{…,doe completes the root's doe2024batching" "$(get section-completion)" "doe2024batching"

# (Its unused-entry hints, chapter.tex reading scholar.bib and citing neither entry, are the unused-entries feature's.)
check "scholar.bib: the record check on the preprint's key" "$(get bib-diagnostics | grep -v ' unused-entry ' | tr '\n' '~')" \
  "1:9-21 MLSys Papers version-of-record | arXiv:2309.06180 appeared at SOSP '23 (pp. 611–626): cite the version of record (kwon2023efficient; dblp:conf/sosp/KwonLZ0ZY0ZS23)~"
check "scholar.bib: the rewrite applied through the code action's edit" "$(get bib-applied)" "true"
if head -1 "$ws/scholar.bib" | grep -qx '% exported' && grep -qx '@inproceedings{kwon2023vllm,' "$ws/scholar.bib" \
  && grep -qF 'booktitle={Proceedings of the {ACM} {SIGOPS} 29th Symposium on Operating Systems Principles},' "$ws/scholar.bib" \
  && grep -qF '  note={read twice}' "$ws/scholar.bib" && tail -1 "$ws/scholar.bib" | grep -qx '@misc{mine, title={Mine}}'; then
  ok "scholar.bib on disk: the entry rewritten with its key and note, the comment and the other entry kept"
else
  bad "scholar.bib on disk after the rewrite:"; sed 's/^/      /' "$ws/scholar.bib"
fi
check "find all citations of doe2024batching (with its entry)" "$(get references | tr '\n' '|')" "refs.bib 0:6|paper.tex 3:50|sections/intro.tex 0:15|"
if grep -q '^@misc{doe2024batch,$' "$ws/refs.bib" && grep -qF '\cite{doe2024batch}.' "$ws/paper.tex" && grep -qF 'Batching~\cite{doe2024batch} helps.' "$ws/sections/intro.tex" \
  && ! grep -qr 'doe2024batching' "$ws"; then
  ok "rename doe2024batching -> doe2024batch: refs.bib, paper.tex and sections/intro.tex on disk"
else
  bad "rename on disk:"; grep -rn 'doe2024' "$ws" | sed 's/^/      /'
fi

finish
