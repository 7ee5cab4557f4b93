#!/bin/sh
# The `ascend-lsp report` suite: golden Markdown (en, zh) of the phases
# fixture, the seed's heading order on every fixture, JSON validated against
# docs/report-schema.json (ajv, pinned in package-lock.json), exact phase /
# P0 / P1 / minimal-set assertions, phase overrides (flag and config),
# output to a file, HTML and SARIF, the language server's report against
# the CLI's, and usage errors.
# Prints "report: N passed, N failed" last; exits non-zero on a failure.
# UPDATE=1 rewrites the golden files.
set -u
BIN=${BIN:-build/ascend-lsp}
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
HERE=tests/report
FIX=tests/fixtures/phases-project
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() {
  fail=$((fail + 1))
  echo "FAIL report/$1"
  [ -f "$tmp/why" ] && head -40 "$tmp/why"
  rm -f "$tmp/why"
}
# check NAME COMMAND...: the command's exit status decides
check() {
  name=$1
  shift
  if "$@" >"$tmp/why" 2>&1; then ok; else bad "$name"; fi
  rm -f "$tmp/why"
}

# golden NAME FIXTURE GOLDEN SELECT: the Markdown report of FIXTURE (rules
# SELECT), en and zh, against golden/GOLDEN.<lang>.md (UPDATE=1 rewrites).
golden() {
  for lang in en zh; do
    out="$tmp/$3.$lang.md"
    "$BIN" report "$2" --select "$4" --lang "$lang" >"$out" 2>/dev/null
    rc=$?
    gold="$HERE/golden/$3.$lang.md"
    [ "${UPDATE:-0}" = 1 ] && mkdir -p "$HERE/golden" && cp "$out" "$gold"
    if [ "$rc" = 0 ] && diff -u "$gold" "$out" >"$tmp/why" 2>&1; then ok; else bad "$1-$lang (exit $rc)"; fi
  done
}

# Headings outside code fences.
headings() { awk '/^```/{f=!f; next} !f && /^#/' "$1"; }

if [ ! -d "$HERE/node_modules/ajv" ]; then
  echo "report: node modules missing: run 'make deps' (npm ci in $HERE)"
fi

# --- golden Markdown, en and zh (rules of domains 1 and 2 only, so that the
# goldens move with the report, not with every new rule elsewhere, and the
# project model's chains, ASC8, which the blast radius reads)
golden golden "$FIX" phases-project ASC1,ASC2,ASC8

# --- task phases: tooling, folding by reach, self-tests, declared tasks (device rules only)
golden golden-tasks tests/fixtures/task-phases task-phases ASC2

# scripts without a `__main__` guard are entry points; a helper they import is not
"$BIN" report tests/fixtures/bare-scripts --format json >"$tmp/bare.json" 2>/dev/null
check bare-scripts-json node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const got = JSON.stringify({tooling: r.tooling, library: r.library,
  phases: r.phases.map((p) => [p.name, p.kind, p.entries, p.derivation])});
const want = JSON.stringify({tooling: [], library: false, phases: [
  ["Training", "training", ["train_lora.py"], ["named by its words"]],
  ["Inference", "inference", ["gradio_demo.py"], ["named by its words"]]]});
if (got !== want) { console.log(got); console.log(want); process.exit(1); }
' "$tmp/bare.json"

"$BIN" report tests/fixtures/task-phases --format json >"$tmp/tasks.json" 2>/dev/null
check task-phases-json node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const got = JSON.stringify({tooling: r.tooling, library: r.library,
  phases: r.phases.map((p) => [p.name, p.kind, p.entries, p.derivation, p.tasks, p.multi_device])});
const want = JSON.stringify({tooling: [".github/scripts/bump_version.py (CI)", "tools/generate_kernels.py (code generation)"],
  library: false, phases: [
    ["Training", "training", ["train.py", "scripts/train.sh:2: torchrun train.py"], ["named by its words", "named by its words"], [], true],
    ["Inference", "inference", ["apps/t2v_small_gradio.py", "generate.py", "vidgen/utils/prompt.py"],
     ["named by its words", "named by its words", "a module\u0027s own `__main__`, imported by apps/t2v_small_gradio.py"],
     ["t2v-small", "i2v-large"], false]]});
if (got !== want) { console.log(got); console.log(want); process.exit(1); }
' "$tmp/tasks.json"

# --- a kernel library: macro-defined kernels, a CUTLASS kernel class, a launch
# through a pointer, instantiation files folded into their family, the
# kernel-product verdict with the families as blockers (domain 4 only)
golden golden-kernel-lib tests/fixtures/kernel-lib kernel-lib ASC4

"$BIN" report tests/fixtures/kernel-lib --format json >"$tmp/kernlib.json" 2>/dev/null
check kernel-lib-json node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const fam = JSON.stringify(r.kernel_families.map((f) => [f.family, f.kernels, f.instantiation_files, f.function]));
const want = JSON.stringify([["attn_bwd", ["AttnBwdSm90"], 1, "looks like attention"],
  ["attn_fwd", ["attn_fwd_kernel", "attn_fwd_splitkv_kernel"], 3, "looks like attention"]]);
if (fam !== want) { console.log(fam); process.exit(1); }
if (!r.summary.kernel_product || r.summary.verdict_id !== "difficult" || !r.library) { console.log("not a kernel product"); process.exit(1); }
const b = JSON.stringify(r.summary.blockers.map((x) => x.code));
if (b !== JSON.stringify(["ASC401", "ASC401"])) { console.log("blockers", b); process.exit(1); }
if (JSON.stringify(r.tooling) !== JSON.stringify(["generate_kernels.py (code generation)"])) { console.log(r.tooling); process.exit(1); }
const launch = r.findings.find((f) => f.code === "ASC401" && f.subject === "attn_fwd_kernel");
if (!launch || !/launches: line 24 /.test(launch.detail)) { console.log("pointer launch not listed"); process.exit(1); }
' "$tmp/kernlib.json"

# --- the seed's headings, in order, on every fixture and both languages
cat >"$tmp/headings.en" <<'EOF'
## Executive Summary
## Dependency Matrix (per task phase)
### Task Phases and Entry Points
### Minimal Migration Set per Phase
## Detailed Findings (per domain)
### Domain 1: Third-Party Dependencies
### Domain 2: Device Layer
### Domain 3: Attention Mechanism
### Domain 4: Custom Operators
### Domain 5: Distributed Communication
### Domain 6: Precision Strategy
### Compilation and Graphs
### CUDA Dependency Classes and Recommended Route
### Blast Radius of Blockers
## Migration Roadmap
## Risk Matrix
## Acceptance Checklist
## Effort Computation
EOF
cat >"$tmp/headings.zh" <<'EOF'
## 执行摘要
## 依赖矩阵（按任务阶段）
### 任务阶段与入口
### 各阶段最小迁移集
## 详细发现（按域）
### 域 1：第三方依赖
### 域 2：设备层
### 域 3：注意力机制
### 域 4：自定义算子
### 域 5：分布式通信
### 域 6：精度策略
### 编译加速
### CUDA 依赖分类与推荐路线
### 阻塞项影响范围
## 迁移路线图
## 风险矩阵
## 验收清单
## 工作量计算
EOF
for dir in tests/fixtures/*/; do
  dir=${dir%/}
  name=$(basename "$dir")
  for lang in en zh; do
    out="$tmp/$name.$lang.md"
    if ! "$BIN" report "$dir" --lang "$lang" >"$out" 2>/dev/null; then
      bad "headings-$name-$lang (exit status)"
      continue
    fi
    # optional sections: other domains' findings and scan notes
    headings "$out" | sed 1d | grep -v -e '^### Other Findings$' -e '^### 其他发现$' \
      -e '^## Analysis Notes$' -e '^## 分析说明$' -e '^## Appendix: Replacement Patterns$' -e '^## 附录：替换模式$' >"$tmp/got"
    title=$(headings "$out" | head -n 1)
    if [ "$lang" = en ]; then tre='^# .+ Ascend NPU Migration Assessment$'; else tre='^# .+ 昇腾 NPU 迁移评估$'; fi
    if diff -u "$tmp/headings.$lang" "$tmp/got" >"$tmp/why" && echo "$title" | grep -Eq "$tre"; then
      ok
    else
      echo "title: $title" >>"$tmp/why"
      bad "headings-$name-$lang"
    fi
  done
  # the summary lines of the seed template
  en="$tmp/$name.en.md"
  if grep -Eq '^- Overall feasibility: (可行 \(feasible\)|需适配 \(needs adaptation\)|困难 \(difficult\)|不可行 \(not feasible\))$' "$en" &&
    grep -Eq '^- Estimated effort: [0-9]+(\.5)? 周 \(weeks\)' "$en" && grep -Eq '^- Blockers: ' "$en" &&
    grep -q '^| Dependency | .* | Replacement | Effort |$' "$en" && grep -q '^```mermaid$' "$en" &&
    grep -q '^| Risk | Likelihood | Impact | Mitigation |$' "$en"; then
    ok
  else
    bad "summary-lines-$name"
  fi
  zh="$tmp/$name.zh.md"
  if grep -Eq '^- 总体可行性：(可行|需适配|困难|不可行)$' "$zh" && grep -Eq '^- 预估工作量：[0-9.]+ 周' "$zh" &&
    ! grep -q -e 'Executive Summary' -e 'Overall feasibility' -e 'Dependency Matrix' "$zh"; then
    ok
  else
    bad "zh-complete-$name"
  fi
done

# --- JSON: valid against the documented schema, on every fixture
set --
for dir in tests/fixtures/*/; do
  dir=${dir%/}
  for lang in en zh; do
    f="$tmp/$(basename "$dir").$lang.json"
    "$BIN" report "$dir" --format json --lang "$lang" >"$f" 2>/dev/null
    set -- "$@" "$f"
  done
done
check json-schema node "$HERE/validate.mjs" docs/report-schema.json "$@"
# ... and the validator rejects a report that breaks the schema
sed 's/"verdict_id": "[a-z-]*"/"verdict_id": "maybe"/' "$tmp/phases-project.en.json" >"$tmp/broken.json"
if node "$HERE/validate.mjs" docs/report-schema.json "$tmp/broken.json" >/dev/null 2>&1; then bad json-schema-rejects; else ok; fi

# --- phases, P0/P1 split, minimal sets: exact
check phases-full node "$HERE/check-phases.mjs" full "$tmp/phases-project.en.json"
"$BIN" report "$FIX" --format json --select ASC1,ASC2,ASC8 >"$tmp/select.json" 2>/dev/null
check phases-select node "$HERE/check-phases.mjs" select "$tmp/select.json"

# --- overrides: --phase replaces detection, in the given order
"$BIN" report "$FIX" --format json --phase Serving=generate.py --phase 'Training=scripts/*.sh' >"$tmp/ov.json" 2>/dev/null
check phase-flag node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const got = JSON.stringify(r.phases.map((p) => [p.name, p.kind, p.entries]));
const want = JSON.stringify([["Serving", "inference", ["generate.py (Serving=generate.py)"]],
  ["Training", "training", ["scripts/sample.sh (Training=scripts/*.sh)"]]]);
if (got !== want) { console.log(got); process.exit(1); }
// both phases run generate.py: its shared modules are P0 again, hooks too
const h = r.findings.find((f) => f.file === "src/phasekit_ext/hooks.py");
if (!h || h.priority !== "P0") { console.log("hooks.py not P0"); process.exit(1); }
const t = r.findings.find((f) => f.file === "src/phasekit/train_utils.py");
if (!t || t.priority !== "not-involved") { console.log("train_utils.py not uninvolved"); process.exit(1); }
' "$tmp/ov.json"
# ... and from [tool.ascend-lsp.phases] in pyproject.toml
cp -R "$FIX" "$tmp/proj"
printf '\n[tool.ascend-lsp.phases]\nServing = ["generate.py"]\n' >>"$tmp/proj/pyproject.toml"
"$BIN" report "$tmp/proj" --format json >"$tmp/cfg.json" 2>/dev/null
check phase-config node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const got = JSON.stringify(r.phases.map((p) => p.name));
if (got !== JSON.stringify(["Serving"])) { console.log(got); process.exit(1); }
' "$tmp/cfg.json"

# --- a project without entry points is one implicit phase
mkdir -p "$tmp/lib/pkg"
printf 'import torch\n\ndef sync():\n    torch.cuda.synchronize()\n' >"$tmp/lib/pkg/util.py"
: >"$tmp/lib/pkg/__init__.py"
"$BIN" report "$tmp/lib" --format json >"$tmp/lib.json" 2>/dev/null
check implicit-phase node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
if (!r.implicit_phase || r.phases.length !== 1 || r.phases[0].name !== "Project" || r.project !== "lib") process.exit(1);
if (r.findings.length !== 1 || r.findings[0].priority !== "P0" || r.summary.verdict !== "可行") process.exit(1);
' "$tmp/lib.json"

# --- -o FILE: the same bytes as stdout, nothing on stdout, a 0644 file
"$BIN" report "$FIX" >"$tmp/stdout.md" 2>/dev/null
"$BIN" report "$FIX" -o "$tmp/out.md" >"$tmp/o-stdout" 2>/dev/null
rc=$?
mode=$(stat -c %a "$tmp/out.md" 2>/dev/null)
if [ "$rc" = 0 ] && [ ! -s "$tmp/o-stdout" ] && cmp -s "$tmp/stdout.md" "$tmp/out.md" && [ "$mode" = 644 ] &&
  [ -z "$(find "$tmp" -maxdepth 1 -name '.out.md.*')" ]; then ok; else bad "output-file (exit $rc, mode $mode)"; fi
"$BIN" report "$FIX" -o "$tmp/no/such/dir/r.md" >/dev/null 2>&1
if [ $? = 2 ] && [ ! -e "$tmp/no" ]; then ok; else bad output-file-error; fi
# repeated runs (threads) give the same report
"$BIN" report "$FIX" --threads 3 >"$tmp/again.md" 2>/dev/null
if cmp -s "$tmp/stdout.md" "$tmp/again.md"; then ok; else bad deterministic; fi

# --- HTML: one self-contained file with inline SVG charts
"$BIN" report "$FIX" --format html -o "$tmp/r.html" 2>/dev/null
if [ "$(head -c 15 "$tmp/r.html")" = "<!DOCTYPE html>" ] && [ "$(grep -c '<svg' "$tmp/r.html")" = 3 ] &&
  tail -n 1 "$tmp/r.html" | grep -q '^</html>$' && [ "$(grep -c '<script>' "$tmp/r.html")" = 1 ] &&
  ! grep -Eiq '<script [^>]|<link|<img|<iframe|src=|href="[^#]|url\(|https?:|@import|@font-face' "$tmp/r.html" &&
  grep -q '<section id="overview" class="cards">' "$tmp/r.html" && grep -q '<section id="heatmap">' "$tmp/r.html" &&
  grep -q 'Dependency Matrix (per task phase)' "$tmp/r.html" && grep -q '需适配 (needs adaptation)' "$tmp/r.html"; then
  ok
else
  bad html
fi
"$BIN" report "$FIX" --format html --lang zh >"$tmp/rz.html" 2>/dev/null
if grep -q '<html lang="zh">' "$tmp/rz.html" && grep -q '依赖矩阵（按任务阶段）' "$tmp/rz.html" &&
  ! grep -q 'Executive Summary' "$tmp/rz.html"; then ok; else bad html-zh; fi

# --- the dashboard in a real browser (Debian chromium driven by playwright-core):
# layout width, visible sections and filter row counts, compared with
# golden/browser.txt and with the JSON reports; screenshots in build/report-browser
shots="$(dirname "$BIN")/report-browser"
if [ -x /usr/bin/chromium ] && [ -d "$HERE/node_modules/playwright-core" ]; then
  set --
  for spec in phases-project:en phases-project:zh kernel-lib:en task-phases:zh; do
    fx=${spec%%:*}
    lang=${spec#*:}
    "$BIN" report "tests/fixtures/$fx" --format html --lang "$lang" -o "$tmp/b-$fx-$lang.html" 2>/dev/null
    "$BIN" report "tests/fixtures/$fx" --format json --lang "$lang" -o "$tmp/b-$fx-$lang.json" 2>/dev/null
    set -- "$@" "$fx.$lang=$tmp/b-$fx-$lang.html=$tmp/b-$fx-$lang.json"
  done
  node "$HERE/browser.mjs" "$shots" "$@" >"$tmp/browser.txt" 2>"$tmp/browser.err"
  rc=$?
  [ "${UPDATE:-0}" = 1 ] && cp "$tmp/browser.txt" "$HERE/golden/browser.txt"
  if [ "$rc" = 0 ] && diff -u "$HERE/golden/browser.txt" "$tmp/browser.txt" >"$tmp/why" 2>&1; then
    ok
  else
    cat "$tmp/browser.err" >>"$tmp/why"
    bad "browser (exit $rc)"
  fi
else
  echo "report: chromium or playwright-core missing: run 'make deps'" >"$tmp/why"
  bad browser-missing
fi

# --- SARIF 2.1.0 through the shared writer
"$BIN" report "$FIX" --format sarif >"$tmp/r.sarif" 2>/dev/null
check sarif node -e '
const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const j = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
if (s.version !== "2.1.0" || s.runs[0].results.length < j.findings.length) process.exit(1);
' "$tmp/r.sarif" "$tmp/phases-project.en.json"

# --- the editor's report is the CLI's: the folds across files and the
# project model (call sites through wrappers, unreachable code) in both
WRAP=tests/fixtures/wrapped-project
for fmt in md json; do
  "$BIN" report "$WRAP" --no-cache --format "$fmt" >"$tmp/cli.$fmt" 2>/dev/null
  if python3 "$HERE/lsp-report.py" "$BIN" "$WRAP" "$fmt" "$tmp/lsp.$fmt" >"$tmp/why" 2>&1 &&
    diff -u "$tmp/cli.$fmt" "$tmp/lsp.$fmt" >"$tmp/why" 2>&1; then ok; else bad "lsp-equals-cli-$fmt"; fi
done

# --- the blast radius follows the model's chains (wrappers of wrappers,
# classes, imports, calls in the wrapper's own file; not the demo nothing
# runs), exact; a run whose project
# outcome comes from the cache writes the same report
"$BIN" report "$WRAP" --no-cache --format json >"$tmp/wrap.json" 2>/dev/null
check blast-chains node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const got = JSON.stringify(r.blast_radius.map((b) => [r.matrix[b.group].dependency, b.wrappers.map((w) =>
  `${w.symbol} ${w.file}:${w.line} <- ` + w.callers.map((c) => `${c.file}:${c.line}${c.function ? " " + c.function : ""}`).join(", "))]));
const norm = ["FusedRMSNorm.forward wanlite/modules/norm.py:12 <- wanlite/modules/model.py:15 DiTBlock.forward",
  "FusedRMSNorm wanlite/modules/norm.py:6 <- wanlite/modules/model.py:4, wanlite/modules/model.py:11 DiTBlock.__init__",
  "DiTBlock wanlite/modules/model.py:8 <- wanlite/generate.py:6, wanlite/generate.py:15 main"];
const want = JSON.stringify([["flash_attn.flash_attn_varlen_func", [
    "flash_attention wanlite/modules/attention.py:6 <- wanlite/__init__.py:2, wanlite/modules/attention.py:15 packed_attention",
    "packed_attention wanlite/modules/attention.py:15 <- wanlite/modules/model.py:3, wanlite/modules/model.py:19 DiTBlock.attend",
    "DiTBlock.attend wanlite/modules/model.py:18 <- wanlite/modules/model.py:16 DiTBlock.forward"]],
  ["flash_attn.ops.triton.layer_norm.rms_norm_fn", norm]]);
if (got !== want) { console.log(got); console.log(want); process.exit(1); }
' "$tmp/wrap.json"
"$BIN" report "$WRAP" --cache-dir "$tmp/rcache" --format json >/dev/null 2>&1
ASCEND_LSP_CACHE_STATS=1 "$BIN" report "$WRAP" --cache-dir "$tmp/rcache" --format json >"$tmp/wrap2.json" 2>"$tmp/wrap2.err"
if grep -q "the project's outcome from the cache" "$tmp/wrap2.err" && cmp -s "$tmp/wrap.json" "$tmp/wrap2.json"; then
  ok
else
  diff -u "$tmp/wrap.json" "$tmp/wrap2.json" >"$tmp/why" 2>&1
  bad blast-from-cache
fi

# --- usage and I/O errors: exit 2, nothing on stdout
for args in "--format pdf" "--lang fr" "--phase Training" "--phase =x" "--bogus" "-o" \
  "$FIX $FIX" "$tmp/does-not-exist"; do
  # shellcheck disable=SC2086
  "$BIN" report $args >"$tmp/u.out" 2>"$tmp/u.err"
  rc=$?
  if [ "$rc" = 2 ] && [ ! -s "$tmp/u.out" ] && [ -s "$tmp/u.err" ]; then ok; else bad "usage '$args' (exit $rc)"; fi
done

echo "report: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
