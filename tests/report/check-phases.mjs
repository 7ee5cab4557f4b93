// Exact assertions on the JSON report of tests/fixtures/phases-project:
// phases, entry points, reachability, the P0/P1/not-involved split of every
// finding and the minimal migration sets. Usage:
//   node check-phases.mjs full FILE     (all rules: placement by file)
//   node check-phases.mjs select FILE   (--select ASC1,ASC2: exact minimal sets and blast radius)
// Prints "FAIL ..." lines and exits 1 on any difference.
import { readFileSync } from "node:fs";

const [mode, file] = process.argv.slice(2);
const r = JSON.parse(readFileSync(file, "utf8"));
let failed = 0;
const eq = (what, got, want) => {
  const g = JSON.stringify(got), w = JSON.stringify(want);
  if (g !== w) {
    console.log(`FAIL ${what}\n  got:  ${g}\n  want: ${w}`);
    failed++;
  }
};

eq("project", r.project, "phases-project");
eq("implicit", r.implicit_phase, false);
eq("phase names", r.phases.map((p) => p.name), ["Training", "Inference"]);
eq("phase kinds", r.phases.map((p) => p.kind), ["training", "inference"]);
eq("training entries", r.phases[0].entries, ["train.py", "phasekit-train = phasekit.cli:main"]);
eq("inference entries", r.phases[1].entries, ["generate.py", "scripts/sample.sh:3: torchrun generate.py"]);
const shared = ["common.py", "src/phasekit/__init__.py", "src/phasekit/device.py", "src/phasekit/models/__init__.py",
  "src/phasekit/models/blocks.py", "src/phasekit/models/net.py"];
const trainOnly = ["src/phasekit/cli.py", "src/phasekit/train_utils.py", "train.py"];
const inferOnly = ["generate.py", "scripts/sample.sh", "src/phasekit/pipeline.py", "src/phasekit/sampler.py",
  "src/phasekit_ext/hooks.py"];
eq("training reach", r.phases[0].reached, [...shared, ...trainOnly].sort());
eq("inference reach", r.phases[1].reached, [...shared, ...inferOnly].sort());

// where every finding must land, by file (and by package for pyproject.toml)
const want = {};
for (const f of shared) want[f] = ["P0", ["Training", "Inference"]];
for (const f of trainOnly) want[f] = ["P1", ["Training"]];
for (const f of inferOnly) want[f] = ["P1", ["Inference"]];
want["src/phasekit/unused.py"] = ["not-involved", []];
const pkgs = { torch: ["P0", ["Training", "Inference"]], "flash-attn": ["P1", ["Training"]], numpy: ["not-involved", []] };
const seen = { P0: 0, T: 0, I: 0, none: 0, pkg: 0 };
for (const f of r.findings) {
  let w = want[f.file];
  if (f.file === "pyproject.toml") {
    w = pkgs[f.subject];
    seen.pkg++;
  }
  if (!w) {
    console.log(`FAIL unexpected finding ${f.code} at ${f.file}:${f.line} (${f.subject})`);
    failed++;
    continue;
  }
  eq(`${f.code} ${f.file}:${f.line}`, [f.priority, f.phases], w);
  if (f.priority === "P0") seen.P0++;
  else if (f.priority === "not-involved") seen.none++;
  else if (f.phases[0] === "Training") seen.T++;
  else seen.I++;
}
// the fixture must exercise every case, or this test proves nothing
for (const k of Object.keys(seen)) if (!seen[k]) { console.log(`FAIL no finding of kind ${k}`); failed++; }
eq("scope.p0", r.summary.scope.p0, r.findings.filter((f) => f.priority === "P0").length);
eq("scope.p1", r.summary.scope.p1, r.findings.filter((f) => f.priority === "P1").length);

// minimal sets: exactly the rows and files of findings the phase needs
r.phases.forEach((p) => {
  const rows = r.matrix.filter((g) => g.phases.includes(p.name)).map((g) => g.index);
  eq(`${p.name} minimal rows`, p.minimal_set.groups, rows);
  const files = [...new Set(r.findings.filter((f) => f.phases.includes(p.name)).map((f) => f.file))].sort();
  eq(`${p.name} minimal files`, p.minimal_set.files, files);
});
// every matrix row's priority follows from its phases
for (const g of r.matrix) {
  const pr = g.phases.length === 0 ? "not-involved" : g.phases.length === r.phases.length ? "P0" : "P1";
  eq(`row ${g.index} priority`, g.priority, pr);
}

if (mode === "select") {
  eq("training minimal files", r.phases[0].minimal_set.files, ["common.py", "pyproject.toml", "src/phasekit/cli.py",
    "src/phasekit/device.py", "src/phasekit/models/blocks.py", "src/phasekit/train_utils.py", "train.py"]);
  eq("inference minimal files", r.phases[1].minimal_set.files, ["common.py", "pyproject.toml", "src/phasekit/device.py",
    "src/phasekit/models/blocks.py", "src/phasekit/pipeline.py", "src/phasekit/sampler.py", "src/phasekit_ext/hooks.py"]);
  eq("verdict", r.summary.verdict, "需适配");
  eq("blockers", r.summary.blockers.map((b) => `${b.dependency} ${b.file}:${b.line}`),
    ["torch.cuda.memory_usage src/phasekit/device.py:14"]);
  const b = r.blast_radius.find((x) => r.matrix[x.group].dependency === "torch.cuda.memory_usage");
  eq("blast wrapper", b && b.wrappers.map((w) => `${w.symbol} ${w.file}:${w.line}`),
    ["report_usage src/phasekit/device.py:13"]);
  eq("blast callers", b && b.wrappers[0].callers.map((c) => `${c.file}:${c.line} ${c.function} ${c.phases.join("+")}`),
    ["generate.py:5 null Inference", "generate.py:16 main Inference", "train.py:7 null Training", "train.py:22 main Training"]);
  eq("compatibility", r.compatibility.map((c) => `${c.package} ${c.status} ${c.priority}`),
    ["torch compatible P0", "flash-attn needs-replacement P1", "numpy not-involved not-involved"]);
}
process.exit(failed ? 1 : 0);
