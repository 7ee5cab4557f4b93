/* Unit tests for analyzers/project/phases.c (import resolution, entry points, phase
 * naming and reachability), analyzers/project/effort.c (the effort table and the
 * verdict rules) and the report model's placement of findings by rule
 * metadata (analyzers/project/report.c). Projects are built in memory: paths,
 * imports as FileFacts would record them, and texts for the reader. */
#include "tests/unit/test.h"

#include <stdlib.h>

#include "analyzers/project/effort.h"
#include "analyzers/project/phases.h"
#include "analyzers/project/report.h"

#define NONE ((size_t)-1)

typedef struct {
  const char *path;
  const char *imports; /* comma-separated, as FileFacts records them */
  bool main;           /* has `if __name__ == "__main__":` */
  const char *text;    /* for the reader (shell scripts, packaging files) */
} TF;

typedef struct {
  const TF *tf;
  size_t n;
  PhaseFile *pf;
  FileFacts *facts;
  PhaseGraph g;
} TP;

static char *tp_read(void *data, size_t i, size_t *len) {
  const TP *t = data;
  if (i >= t->n || !t->tf[i].text) return NULL;
  *len = strlen(t->tf[i].text);
  return xstrdup(t->tf[i].text);
}

static void tp_facts(TP *t) {
  t->pf = xcalloc(t->n, sizeof *t->pf);
  t->facts = xcalloc(t->n, sizeof *t->facts);
  for (size_t i = 0; i < t->n; i++) {
    const char *im = t->tf[i].imports;
    while (im && *im) {
      size_t l = strcspn(im, ",");
      array_push(&t->facts[i].imports, xstrndup(im, l));
      im += l;
      if (*im == ',') im++;
    }
    t->facts[i].has_main_guard = t->tf[i].main;
    t->facts[i].lines = 10;
    t->pf[i] = (PhaseFile){t->tf[i].path, context_file_kind(t->tf[i].path), &t->facts[i]};
  }
}

static void tp_build(TP *t, const TF *tf, size_t n, const char *const *ov, size_t nov) {
  memset(t, 0, sizeof *t);
  t->tf = tf;
  t->n = n;
  tp_facts(t);
  phases_build(&t->g, t->pf, n, ov, nov, tp_read, t);
}

static void tp_free(TP *t) {
  phases_free(&t->g);
  for (size_t i = 0; i < t->n; i++) analyze_facts_free(&t->facts[i]);
  free(t->facts);
  free(t->pf);
}

static size_t tp_idx(const TP *t, const char *path) {
  return phases_find(&t->g, path);
}

/* The paths a phase reaches, sorted, comma-separated (caller frees). */
static char *tp_reach(const TP *t, size_t p) {
  StrBuf sb;
  sb_init(&sb);
  const char **paths = xcalloc(t->n + 1, sizeof *paths);
  size_t k = 0;
  for (size_t i = 0; i < t->n; i++)
    if (t->g.phases.items[p].reach[i]) paths[k++] = t->tf[i].path;
  for (size_t a = 1; a < k; a++)
    for (size_t b = a; b > 0 && strcmp(paths[b - 1], paths[b]) > 0; b--) {
      const char *x = paths[b];
      paths[b] = paths[b - 1];
      paths[b - 1] = x;
    }
  for (size_t i = 0; i < k; i++) {
    if (i) sb_putc(&sb, ',');
    sb_puts(&sb, paths[i]);
  }
  free(paths);
  if (!sb.data) sb_puts(&sb, "");
  return sb_steal(&sb);
}

static char *tp_phase_names(const TP *t) {
  StrBuf sb;
  sb_init(&sb);
  sb_puts(&sb, "");
  for (size_t p = 0; p < t->g.phases.len; p++) {
    if (p) sb_putc(&sb, ',');
    sb_puts(&sb, t->g.phases.items[p].name);
  }
  return sb_steal(&sb);
}

#define ASSERT_REACH(t, p, want)                                               \
  do {                                                                         \
    char *got__ = tp_reach((t), (p));                                          \
    int ok__ = strcmp(got__, (want)) == 0;                                     \
    if (!ok__) {                                                               \
      fprintf(stderr, "  reach of phase %zu:\n    got:  %s\n    want: %s\n",   \
              (size_t)(p), got__, (want));                                     \
      free(got__);                                                             \
      TEST_FAIL("reachability differs");                                       \
    }                                                                          \
    free(got__);                                                               \
  } while (0)

#define ASSERT_PHASES(t, want)                                                 \
  do {                                                                         \
    char *got__ = tp_phase_names(t);                                           \
    int ok__ = strcmp(got__, (want)) == 0;                                     \
    if (!ok__) fprintf(stderr, "  phases: got %s, want %s\n", got__, (want));  \
    free(got__);                                                               \
    if (!ok__) TEST_FAIL("phases differ");                                     \
  } while (0)

/* The fixture of tests/fixtures/phases-project, as facts. */
static const TF phases_project[] = {
    {"common.py", "random,torch", false, NULL},
    {"generate.py", "torch,common,phasekit.device,phasekit.pipeline,phasekit_ext.hooks", true, NULL},
    {"pyproject.toml", NULL, false,
     "[project]\nname = \"phases-project\"\ndependencies = [\"torch\", \"flash-attn>=2.5.0\"]\n\n"
     "[project.scripts]\nphasekit-train = \"phasekit.cli:main\"\n"},
    {"scripts/sample.sh", NULL, false, "#!/bin/sh\n# run from the root\ntorchrun --nproc_per_node 2 \\\n    generate.py --steps 50 \"$@\"\n"},
    {"src/phasekit/__init__.py", NULL, false, NULL},
    {"src/phasekit/cli.py", "torch,.train_utils", false, NULL},
    {"src/phasekit/device.py", "torch", false, NULL},
    {"src/phasekit/models/__init__.py", NULL, false, NULL},
    {"src/phasekit/models/blocks.py", "torch.nn", false, NULL},
    {"src/phasekit/models/net.py", "torch.nn,..device,.blocks", false, NULL},
    {"src/phasekit/pipeline.py", "torch,.,.sampler,.models.net", false, NULL},
    {"src/phasekit/sampler.py", "torch", false, NULL},
    {"src/phasekit/train_utils.py", "os,torch,torch.distributed,flash_attn", false, NULL},
    {"src/phasekit/unused.py", "torch", false, NULL},
    {"src/phasekit_ext/hooks.py", "torch", false, NULL},
    {"train.py", "argparse,torch,common,phasekit.device,phasekit.models.net,phasekit.train_utils", true, NULL},
};
#define N_PP (sizeof phases_project / sizeof phases_project[0])

TEST(phases_fixture_matrix) {
  TP t;
  tp_build(&t, phases_project, N_PP, NULL, 0);
  ASSERT_PHASES(&t, "Training,Inference");
  ASSERT(!t.g.implicit);
  ASSERT_EQ(t.g.phases.items[0].kind, PHASE_TRAINING);
  ASSERT_EQ(t.g.phases.items[1].kind, PHASE_INFERENCE);
  ASSERT_EQ(t.g.entries.len, 4);
  /* entries: __main__ files first (path order), then declared launchers */
  ASSERT_STR_EQ(t.g.entries.items[0].label, "generate.py");
  ASSERT_STR_EQ(t.g.entries.items[1].label, "train.py");
  ASSERT_STR_EQ(t.g.entries.items[2].label, "phasekit-train = phasekit.cli:main");
  ASSERT_STR_EQ(t.g.entries.items[3].label, "scripts/sample.sh:3: torchrun generate.py");
  ASSERT_EQ(t.g.entries.items[2].kind, ENTRY_CONSOLE);
  ASSERT_EQ(t.g.entries.items[3].kind, ENTRY_SHELL);
  ASSERT_STR_EQ(t.g.entries.items[3].launcher, "torchrun");
  ASSERT_EQ(t.g.entries.items[0].phase, 1);
  ASSERT_EQ(t.g.entries.items[1].phase, 0);
  ASSERT_EQ(t.g.entries.items[2].phase, 0);
  ASSERT_EQ(t.g.entries.items[3].phase, 1);
  ASSERT_REACH(&t, 0,
               "common.py,src/phasekit/__init__.py,src/phasekit/cli.py,src/phasekit/device.py,"
               "src/phasekit/models/__init__.py,src/phasekit/models/blocks.py,src/phasekit/models/net.py,"
               "src/phasekit/train_utils.py,train.py");
  ASSERT_REACH(&t, 1,
               "common.py,generate.py,scripts/sample.sh,src/phasekit/__init__.py,src/phasekit/device.py,"
               "src/phasekit/models/__init__.py,src/phasekit/models/blocks.py,src/phasekit/models/net.py,"
               "src/phasekit/pipeline.py,src/phasekit/sampler.py,src/phasekit_ext/hooks.py");
  /* P0 / P1 / not involved by file */
  uint64_t both = 3, train = 1, infer = 2;
  ASSERT_EQ(phases_all(&t.g), both);
  ASSERT_EQ(phases_of_file(&t.g, tp_idx(&t, "common.py")), both);
  ASSERT_EQ(phases_of_file(&t.g, tp_idx(&t, "src/phasekit/device.py")), both);
  ASSERT_EQ(phases_of_file(&t.g, tp_idx(&t, "src/phasekit/models/blocks.py")), both);
  ASSERT_EQ(phases_of_file(&t.g, tp_idx(&t, "src/phasekit/train_utils.py")), train);
  ASSERT_EQ(phases_of_file(&t.g, tp_idx(&t, "src/phasekit/cli.py")), train);
  ASSERT_EQ(phases_of_file(&t.g, tp_idx(&t, "src/phasekit/sampler.py")), infer);
  ASSERT_EQ(phases_of_file(&t.g, tp_idx(&t, "src/phasekit_ext/hooks.py")), infer);
  ASSERT_EQ(phases_of_file(&t.g, tp_idx(&t, "src/phasekit/unused.py")), 0);
  ASSERT_EQ(phases_of_file(&t.g, tp_idx(&t, "pyproject.toml")), 0);
  /* packages: by their importers */
  ASSERT_EQ(phases_of_package(&t.g, "flash-attn>=2.5.0"), train);
  ASSERT_EQ(phases_of_package(&t.g, "torch"), both);
  ASSERT_EQ(phases_of_package(&t.g, "numpy"), 0);
  ASSERT_EQ(phases_of_package(&t.g, "nvidia-cudnn-cu12"), both);
  ASSERT_EQ(phases_of_package(&t.g, "--extra-index-url https://download.example/whl/cu121"), both);
  ASSERT_EQ(t.g.notes.len, 0);
  tp_free(&t);
}

TEST(phases_resolve_imports) {
  static const TF tf[] = {
      {"common.py", NULL, false, NULL},
      {"python/mylib/__init__.py", NULL, false, NULL},
      {"python/mylib/core.py", NULL, false, NULL},
      {"scripts/helpers.py", NULL, false, NULL},
      {"scripts/run.py", NULL, true, NULL},
      {"src/nsp/hooks.py", NULL, false, NULL},
      {"src/pkg/__init__.py", NULL, false, NULL},
      {"src/pkg/a.py", NULL, false, NULL},
      {"src/pkg/sibling.py", NULL, false, NULL},
      {"src/pkg/sub/__init__.py", NULL, false, NULL},
      {"src/pkg/sub/deep.py", NULL, false, NULL},
  };
  TP t;
  tp_build(&t, tf, sizeof tf / sizeof tf[0], NULL, 0);
  size_t run = tp_idx(&t, "scripts/run.py"), deep = tp_idx(&t, "src/pkg/sub/deep.py"), a = tp_idx(&t, "src/pkg/a.py");
  /* absolute, src/ layout, longest prefix (a name inside the module) */
  ASSERT_EQ(phases_resolve(&t.g, run, "pkg.sub.deep"), deep);
  ASSERT_EQ(phases_resolve(&t.g, run, "pkg.sub.deep.function"), deep);
  ASSERT_EQ(phases_resolve(&t.g, run, "pkg.sub"), tp_idx(&t, "src/pkg/sub/__init__.py"));
  ASSERT_EQ(phases_resolve(&t.g, run, "pkg"), tp_idx(&t, "src/pkg/__init__.py"));
  /* namespace package (no __init__.py) under src/ */
  ASSERT_EQ(phases_resolve(&t.g, run, "nsp.hooks"), tp_idx(&t, "src/nsp/hooks.py"));
  ASSERT_EQ(phases_resolve(&t.g, run, "nsp"), NONE);
  /* the directory above a top-level package is a root */
  ASSERT_EQ(phases_resolve(&t.g, run, "mylib.core"), tp_idx(&t, "python/mylib/core.py"));
  /* a script's own directory (not a package) is on sys.path */
  ASSERT_EQ(phases_resolve(&t.g, run, "helpers"), tp_idx(&t, "scripts/helpers.py"));
  ASSERT_EQ(phases_resolve(&t.g, run, "common"), tp_idx(&t, "common.py"));
  /* ... a package's directory is not: no implicit relative imports */
  ASSERT_EQ(phases_resolve(&t.g, a, "sibling"), NONE);
  /* relative imports */
  ASSERT_EQ(phases_resolve(&t.g, a, ".sibling"), tp_idx(&t, "src/pkg/sibling.py"));
  ASSERT_EQ(phases_resolve(&t.g, a, "."), tp_idx(&t, "src/pkg/__init__.py"));
  ASSERT_EQ(phases_resolve(&t.g, a, ".sub.deep"), deep);
  ASSERT_EQ(phases_resolve(&t.g, deep, "..a"), a);
  ASSERT_EQ(phases_resolve(&t.g, deep, "..a.name"), a);
  ASSERT_EQ(phases_resolve(&t.g, deep, ".."), tp_idx(&t, "src/pkg/__init__.py"));
  ASSERT_EQ(phases_resolve(&t.g, deep, "...."), NONE);
  ASSERT_EQ(phases_resolve(&t.g, run, "torch.nn"), NONE);
  ASSERT_EQ(phases_resolve(&t.g, run, ""), NONE);
  tp_free(&t);
}

TEST(phases_parent_packages_and_cycles) {
  static const TF tf[] = {
      {"main.py", "pkg.sub.deep", true, NULL},
      {"pkg/__init__.py", "pkg.a", false, NULL},
      {"pkg/a.py", ".b", false, NULL},
      {"pkg/b.py", ".a", false, NULL}, /* a <-> b cycle */
      {"pkg/sub/__init__.py", NULL, false, NULL},
      {"pkg/sub/deep.py", NULL, false, NULL},
      {"pkg/sub/other.py", NULL, false, NULL},
  };
  TP t;
  tp_build(&t, tf, sizeof tf / sizeof tf[0], NULL, 0);
  ASSERT_PHASES(&t, "main");
  ASSERT_EQ(t.g.phases.items[0].kind, PHASE_CUSTOM);
  /* importing pkg.sub.deep runs pkg/__init__ and pkg/sub/__init__ first */
  ASSERT_REACH(&t, 0, "main.py,pkg/__init__.py,pkg/a.py,pkg/b.py,pkg/sub/__init__.py,pkg/sub/deep.py");
  tp_free(&t);
}

TEST(phases_shell_launchers) {
  static const TF tf[] = {
      {"demo.py", NULL, false, NULL},
      {"finetune.py", NULL, false, NULL},
      {"infer.py", NULL, false, NULL},
      {"pretrain.py", NULL, false, NULL},
      {"scripts/a.sh", NULL, false,
       "#!/bin/bash\n"
       "# python ignored.py\n"
       "export CUDA_VISIBLE_DEVICES=0\n"
       "CUDA_VISIBLE_DEVICES=0,1 python3 tools/eval_model.py --ckpt x\n"
       "torchrun --nnodes 1 --nproc_per_node=8 \\\n"
       "   train.py --cfg a.yaml\n"
       "python -m torch.distributed.launch --nproc_per_node 8 finetune.py\n"
       "accelerate launch --config_file cfg.yaml infer.py\n"
       "deepspeed --num_gpus 8 pretrain.py --deepspeed ds.json\n"
       "python -m serve.app --port 80\n"
       "nohup python demo.py > log 2>&1 &\n"
       "python missing.py\n"
       "cd tools && python helper_run.py\n"
       "echo 'python not_a_command.py'\n"},
      {"scripts/train_lora.sh", NULL, false, "python \"${ROOT}/main.py\" --lora\n"},
      {"serve/__init__.py", NULL, false, NULL},
      {"serve/app.py", NULL, false, NULL},
      {"main.py", NULL, false, NULL},
      {"tools/eval_model.py", NULL, false, NULL},
      {"tools/helper_run.py", NULL, false, NULL},
      {"train.py", NULL, false, NULL},
  };
  TP t;
  tp_build(&t, tf, sizeof tf / sizeof tf[0], NULL, 0);
  /* tools/helper_run.py is a developer tool, not a phase; tools/eval_model.py
   * says it evaluates */
  ASSERT_EQ(t.g.entries.len, 8);
  static const char *const labels[] = {
      "scripts/a.sh:4: python tools/eval_model.py", "scripts/a.sh:5: torchrun train.py",
      "scripts/a.sh:7: torchrun finetune.py",       "scripts/a.sh:8: accelerate launch infer.py",
      "scripts/a.sh:9: deepspeed pretrain.py",      "scripts/a.sh:10: python -m serve.app",
      "scripts/a.sh:11: python demo.py",            "scripts/train_lora.sh:1: python ${ROOT}/main.py",
  };
  for (size_t i = 0; i < 8; i++) ASSERT_STR_EQ(t.g.entries.items[i].label, labels[i]);
  ASSERT_EQ(t.g.entries.items[0].target, tp_idx(&t, "tools/eval_model.py"));
  ASSERT_EQ(t.g.entries.items[5].target, tp_idx(&t, "serve/app.py"));
  ASSERT_EQ(t.g.entries.items[7].target, tp_idx(&t, "main.py"));
  ASSERT_EQ(t.g.tooling.len, 1);
  ASSERT_STR_EQ(t.g.tooling.items[0].label, "scripts/a.sh:13: python helper_run.py");
  ASSERT_EQ(t.g.tooling.items[0].reason, TOOL_DEV);
  ASSERT_EQ(t.g.entries.items[3].implied.len, 1);
  ASSERT_STR_EQ(t.g.entries.items[3].implied.items[0], "accelerate");
  ASSERT_STR_EQ(t.g.entries.items[4].implied.items[0], "deepspeed");
  /* names: the script's words before the target's; main.py run by
   * train_lora.sh trains */
  ASSERT_PHASES(&t, "Training,Inference,Evaluation");
  ASSERT_EQ(t.g.phases.items[0].entries.len, 4);
  ASSERT_EQ(t.g.phases.items[1].entries.len, 3);
  ASSERT_EQ(t.g.notes.len, 1);
  ASSERT_STR_EQ(t.g.notes.items[0], "scripts/a.sh:12: python missing.py is not a file of the project");
  /* launcher-implied packages */
  ASSERT_EQ(phases_of_package(&t.g, "deepspeed"), 1);
  ASSERT_EQ(phases_of_package(&t.g, "accelerate>=0.26"), 2);
  tp_free(&t);
}

TEST(phases_python_m_package_main) {
  static const TF tf[] = {
      {"run_bench.sh", NULL, false, "python -m tool --fast\n"},
      {"tool/__init__.py", NULL, false, NULL},
      {"tool/__main__.py", ".core", false, NULL},
      {"tool/core.py", NULL, false, NULL},
  };
  TP t;
  tp_build(&t, tf, sizeof tf / sizeof tf[0], NULL, 0);
  /* __main__.py is an entry by itself (named after its package) and the
   * shell line runs it too */
  ASSERT_EQ(t.g.entries.len, 2);
  ASSERT_STR_EQ(t.g.entries.items[0].label, "tool/__main__.py");
  ASSERT_STR_EQ(t.g.entries.items[1].label, "run_bench.sh:1: python -m tool");
  ASSERT_EQ(t.g.entries.items[1].target, tp_idx(&t, "tool/__main__.py"));
  /* the package's __main__ is what the benchmark script runs: one phase */
  ASSERT_PHASES(&t, "Evaluation");
  ASSERT_EQ(t.g.entries.items[0].fold, FOLD_SUBSET);
  ASSERT_REACH(&t, 0, "run_bench.sh,tool/__init__.py,tool/__main__.py,tool/core.py");
  tp_free(&t);
}

TEST(phases_console_scripts) {
  static const TF tf[] = {
      {"pkg/__init__.py", NULL, false, NULL},
      {"pkg/bench.py", NULL, false, NULL},
      {"pkg/cli.py", NULL, false, NULL},
      {"pkg/evaluate.py", NULL, false, NULL},
      {"pkg/server.py", NULL, false, NULL},
      {"pyproject.toml", NULL, false,
       "[project]\nname = \"x\"\n\n[project.scripts]\nmy-train = \"pkg.cli:train\"\n"
       "\"my-serve\" = 'pkg.server:main'  # comment\n\n[project.optional-dependencies]\ngpu = [\"a = b:c\"]\n\n"
       "[tool.poetry.scripts]\nghost = \"nothere.mod:main\"\n"},
      {"setup.cfg", NULL, false,
       "[metadata]\nname = x\n\n[options.entry_points]\nconsole_scripts =\n    pkg-bench = pkg.bench:run\n"},
      {"setup.py", NULL, false,
       "from setuptools import setup\nsetup(name='x', entry_points={\"console_scripts\": "
       "[\"pkg-eval=pkg.evaluate:main\"]}, description='a = b')\n"},
  };
  TP t;
  tp_build(&t, tf, sizeof tf / sizeof tf[0], NULL, 0);
  ASSERT_EQ(t.g.entries.len, 4);
  ASSERT_STR_EQ(t.g.entries.items[0].label, "my-train = pkg.cli:train");
  ASSERT_STR_EQ(t.g.entries.items[1].label, "my-serve = pkg.server:main");
  ASSERT_STR_EQ(t.g.entries.items[2].label, "pkg-bench = pkg.bench:run");
  ASSERT_STR_EQ(t.g.entries.items[3].label, "pkg-eval = pkg.evaluate:main");
  for (size_t i = 0; i < 4; i++) ASSERT_EQ(t.g.entries.items[i].kind, ENTRY_CONSOLE);
  ASSERT_PHASES(&t, "Training,Inference,Evaluation");
  ASSERT_EQ(t.g.phases.items[2].entries.len, 2);
  ASSERT_REACH(&t, 0, "pkg/__init__.py,pkg/cli.py");
  ASSERT_EQ(t.g.notes.len, 1);
  ASSERT_STR_EQ(t.g.notes.items[0], "pyproject.toml: console script ghost: module nothere.mod is not part of the project");
  tp_free(&t);
}

TEST(phases_classify_names) {
  ASSERT_EQ(phases_classify("train"), PHASE_TRAINING);
  ASSERT_EQ(phases_classify("train_lora"), PHASE_TRAINING);
  ASSERT_EQ(phases_classify("Trainer"), PHASE_TRAINING);
  ASSERT_EQ(phases_classify("finetune"), PHASE_TRAINING);
  ASSERT_EQ(phases_classify("fine_tune_sd"), PHASE_TRAINING);
  ASSERT_EQ(phases_classify("pretrain_eval"), PHASE_TRAINING);
  ASSERT_EQ(phases_classify("generate"), PHASE_INFERENCE);
  ASSERT_EQ(phases_classify("generation"), PHASE_INFERENCE);
  ASSERT_EQ(phases_classify("run_inference"), PHASE_INFERENCE);
  ASSERT_EQ(phases_classify("sample_video"), PHASE_INFERENCE);
  ASSERT_EQ(phases_classify("predict"), PHASE_INFERENCE);
  ASSERT_EQ(phases_classify("serve"), PHASE_INFERENCE);
  ASSERT_EQ(phases_classify("gradio_demo"), PHASE_INFERENCE);
  ASSERT_EQ(phases_classify("eval"), PHASE_EVALUATION);
  ASSERT_EQ(phases_classify("tests/test_net"), PHASE_EVALUATION);
  ASSERT_EQ(phases_classify("benchmark"), PHASE_EVALUATION);
  ASSERT_EQ(phases_classify("main"), PHASE_CUSTOM);
  ASSERT_EQ(phases_classify("constrain"), PHASE_CUSTOM); /* words, not substrings */
  ASSERT_EQ(phases_classify("latest"), PHASE_CUSTOM);
  ASSERT_EQ(phases_classify(NULL), PHASE_CUSTOM);
  ASSERT_STR_EQ(phases_kind_name(PHASE_INFERENCE, true), "推理");
  ASSERT(phases_kind_name(PHASE_CUSTOM, false) == NULL);
}

TEST(phases_overrides) {
  static const char *const ov[] = {"Serving=generate.py", "Training=scripts/train*.sh", "broken", "Empty=nothing/*"};
  static const TF tf[] = {
      {"generate.py", "common", true, NULL},
      {"common.py", NULL, false, NULL},
      {"scripts/train_a.sh", NULL, false, "python train.py\n"},
      {"train.py", NULL, true, NULL},
      {"eval.py", NULL, true, NULL},
  };
  TP t;
  tp_build(&t, tf, sizeof tf / sizeof tf[0], ov, 4);
  /* given phases only, in the given order; eval.py's guard is ignored */
  ASSERT_PHASES(&t, "Serving,Training");
  ASSERT_EQ(t.g.phases.items[0].kind, PHASE_INFERENCE);
  ASSERT_EQ(t.g.phases.items[1].kind, PHASE_TRAINING);
  ASSERT_REACH(&t, 0, "common.py,generate.py");
  ASSERT_REACH(&t, 1, "scripts/train_a.sh,train.py");
  ASSERT_EQ(t.g.entries.items[1].kind, ENTRY_OVERRIDE);
  ASSERT_EQ(t.g.entries.items[1].target, tp_idx(&t, "train.py"));
  ASSERT_EQ(t.g.notes.len, 2);
  ASSERT_STR_EQ(t.g.notes.items[0], "phase override 'broken' is not NAME=GLOB");
  ASSERT_STR_EQ(t.g.notes.items[1], "phase Empty: 'nothing/*' matches no file");
  tp_free(&t);
}

TEST(phases_implicit_project) {
  static const TF tf[] = {
      {"lib/a.py", "lib.b", false, NULL},
      {"lib/b.py", NULL, false, NULL},
      {"requirements.txt", NULL, false, NULL},
  };
  TP t;
  tp_build(&t, tf, sizeof tf / sizeof tf[0], NULL, 0);
  ASSERT(t.g.implicit);
  ASSERT_PHASES(&t, "Project");
  ASSERT_REACH(&t, 0, "lib/a.py,lib/b.py,requirements.txt");
  ASSERT_EQ(phases_of_file(&t.g, 2), 1);
  tp_free(&t);
}

TEST(phases_native_links) {
  static const TF tf[] = {
      {"csrc/bind.cpp", NULL, false, NULL},
      {"csrc/fused.cu", NULL, false, NULL},
      {"csrc/unused.cu", NULL, false, NULL},
      {"kernels/act.cu", NULL, false, NULL},
      {"pkg/__init__.py", "._C", false, NULL},
      {"pkg/_ext.cpython-310-x86_64-linux-gnu.so", NULL, false, NULL},
      {"pkg/ops.py", "torch.utils.cpp_extension", false,
       "from torch.utils.cpp_extension import load\nact = load(name='act', sources=['kernels/act.cu'])\n"},
      {"setup.py", "setuptools", false,
       "from torch.utils.cpp_extension import CUDAExtension\n"
       "setup(ext_modules=[CUDAExtension('pkg._C', sources=['csrc/fused.cu', 'csrc/bind.cpp'])])\n"},
      {"train.py", "pkg.ops,pkg", true, NULL},
      {"infer.py", "pkg._ext", true, NULL},
  };
  TP t;
  tp_build(&t, tf, sizeof tf / sizeof tf[0], NULL, 0);
  ASSERT_PHASES(&t, "Training,Inference");
  ASSERT_REACH(&t, 0, "csrc/bind.cpp,csrc/fused.cu,kernels/act.cu,pkg/__init__.py,pkg/ops.py,train.py");
  /* importing pkg._ext runs pkg/__init__ too, which imports the built _C */
  ASSERT_REACH(&t, 1,
               "csrc/bind.cpp,csrc/fused.cu,infer.py,pkg/__init__.py,pkg/_ext.cpython-310-x86_64-linux-gnu.so");
  ASSERT_EQ(phases_of_file(&t.g, tp_idx(&t, "csrc/unused.cu")), 0);
  tp_free(&t);
}

TEST(phases_dist_module_names) {
  char buf[128];
  const char *m[4];
  ASSERT_EQ(phases_dist_modules("nvidia-ml-py>=12", buf, sizeof buf, m, 4), 1);
  ASSERT_STR_EQ(m[0], "pynvml");
  ASSERT_EQ(phases_dist_modules("cupy-cuda12x", buf, sizeof buf, m, 4), 1);
  ASSERT_STR_EQ(m[0], "cupy");
  ASSERT_EQ(phases_dist_modules("Flash_Attn[triton]==2.5", buf, sizeof buf, m, 4), 2);
  ASSERT_STR_EQ(m[0], "flash_attn");
  ASSERT_STR_EQ(m[1], "flash_attn_interface");
  ASSERT_EQ(phases_dist_modules("some-pkg.ext", buf, sizeof buf, m, 4), 1);
  ASSERT_STR_EQ(m[0], "some_pkg_ext");
}

/* ---- effort and verdict ------------------------------------------------ */

TEST(effort_table_and_rounding) {
  size_t n;
  const EffortRate *rates = effort_rates(&n);
  ASSERT_EQ(n, EFFORT__COUNT);
  for (size_t i = 0; i < n; i++) {
    ASSERT_EQ(rates[i].kind, i);
    ASSERT(rates[i].why_en && rates[i].why_zh && rates[i].unit_en && rates[i].label_zh);
  }
  ASSERT_EQ(effort_unit_cost(EFFORT_MECHANICAL, 0, false), 2);
  ASSERT_EQ(effort_unit_cost(EFFORT_CUDA_KERNEL, 250, false), 750);
  ASSERT_EQ(effort_unit_cost(EFFORT_CUDA_KERNEL, 250, true), 375);
  ASSERT_EQ(effort_unit_cost(EFFORT_CUDA_KERNEL, 1, false), 501);
  ASSERT_EQ(effort_unit_cost(EFFORT_MECHANICAL, 0, true), 1); /* half of 2 */
  ASSERT_EQ(effort_unit_cost(EFFORT_ATTENTION, 0, true), 25);
  int64_t lo, hi;
  effort_range(1000, &lo, &hi);
  ASSERT_EQ(lo, 600);
  ASSERT_EQ(hi, 1600);
  ASSERT_EQ(effort_unit_cost(EFFORT_NONE, 0, false), 0);
  ASSERT_EQ(effort_half_weeks(0), 0);
  ASSERT_EQ(effort_half_weeks(1), 1);
  ASSERT_EQ(effort_half_weeks(250), 1);
  ASSERT_EQ(effort_half_weeks(251), 2);
  ASSERT_EQ(effort_half_weeks(1300), 6);
  char b[32];
  ASSERT_STR_EQ(effort_days_str(125, b, sizeof b), "1.25");
  ASSERT_STR_EQ(effort_days_str(150, b, sizeof b), "1.5");
  ASSERT_STR_EQ(effort_days_str(300, b, sizeof b), "3");
  ASSERT_STR_EQ(effort_days_str(5, b, sizeof b), "0.05");
  ASSERT_STR_EQ(effort_weeks_str(5, b, sizeof b), "2.5");
  ASSERT_STR_EQ(effort_weeks_str(6, b, sizeof b), "3");
}

TEST(effort_distinct_units) {
#define EI(k, subj, det, w, g) {.kind = k, .subject = subj, .detail = det, .weight = w, .guarded = g}
  const EffortItem items[] = {
      EI(EFFORT_MECHANICAL, "torch.cuda.synchronize", NULL, 0, false),
      EI(EFFORT_MECHANICAL, "torch.cuda.synchronize", NULL, 0, false),  /* each occurrence counts */
      EI(EFFORT_ATTENTION, "flash_attn.flash_attn_func", NULL, 0, false), /* the import joins its call */
      EI(EFFORT_ATTENTION, "flash_attn.flash_attn_func", "layout BSND", 0, false),
      EI(EFFORT_ATTENTION, "flash_attn.flash_attn_func", "layout BSND", 0, false),
      EI(EFFORT_ATTENTION, "flash_attn.flash_attn_func", "layout TND", 0, false),
      EI(EFFORT_CUDA_KERNEL, "fused_add", NULL, 120, false),
      EI(EFFORT_CUDA_KERNEL, "fused_add", NULL, 120, false), /* the same kernel seen twice */
      EI(EFFORT_CUDA_KERNEL, "rope", NULL, 40, true),
      EI(EFFORT_DEP_REPLACE, "flash-attn", NULL, 0, true),
      EI(EFFORT_DEP_REPLACE, "flash-attn", NULL, 0, false), /* one unguarded: not guarded */
      EI(EFFORT_NONE, "sdpa", NULL, 0, false),
      /* transfer_to_npu handles it at run time: no cost, counted apart */
      {.kind = EFFORT_MECHANICAL, .subject = "torch.cuda.empty_cache", .transfer = true},
      /* per rule and file: two sites of one file are one pass */
      {.kind = EFFORT_PRECISION, .subject = "torch.float64", .rule = "ASC601", .file = 3},
      {.kind = EFFORT_PRECISION, .subject = "torch.complex128", .rule = "ASC601", .file = 3},
      {.kind = EFFORT_PRECISION, .subject = "torch.float64", .rule = "ASC601", .file = 4},
      /* a kernel family an NPU op replaces: bound to the op, whatever its size */
      {.kind = EFFORT_CUDA_KERNEL, .subject = "flash_fwd", .weight = 900, .has_op = true},
      {.kind = EFFORT_CUDA_KERNEL, .subject = "flash_fwd", .weight = 300},
  };
#undef EI
  size_t n = sizeof items / sizeof items[0];
  int64_t cost[sizeof items / sizeof items[0]];
  EffortSum s;
  effort_compute(items, n, 2, &s, cost);
  ASSERT_EQ(s.lines[EFFORT_MECHANICAL].units, 2);
  ASSERT_EQ(s.lines[EFFORT_MECHANICAL].transfer_units, 1);
  ASSERT_EQ(s.lines[EFFORT_MECHANICAL].centidays, 4);
  ASSERT_EQ(s.lines[EFFORT_ATTENTION].units, 2);
  ASSERT_EQ(s.lines[EFFORT_ATTENTION].centidays, 100);
  ASSERT_EQ(s.lines[EFFORT_CUDA_KERNEL].units, 3);
  ASSERT_EQ(s.lines[EFFORT_CUDA_KERNEL].guarded_units, 1);
  ASSERT_EQ(s.lines[EFFORT_CUDA_KERNEL].lines, 160 + 900);
  ASSERT_EQ(s.lines[EFFORT_CUDA_KERNEL].centidays, 620 + 270 + EFFORT_KERNEL_OP_CD);
  ASSERT_EQ(s.lines[EFFORT_DEP_REPLACE].units, 1);
  ASSERT_EQ(s.lines[EFFORT_DEP_REPLACE].centidays, 50);
  ASSERT_EQ(s.lines[EFFORT_PRECISION].units, 2);
  ASSERT_EQ(s.lines[EFFORT_PRECISION].centidays, 50);
  ASSERT_EQ(s.lines[EFFORT_NONE].centidays, 0);
  ASSERT_EQ(s.findings, 4 + 100 + 890 + 200 + 50 + 50);
  ASSERT_EQ(s.validation, 200);
  ASSERT_EQ(s.environment, 100);
  ASSERT_EQ(s.total, 1294 + 300);
  /* each unit's cost sits on one finding: the call, not the import */
  int64_t sum = 0;
  for (size_t i = 0; i < n; i++) sum += cost[i];
  ASSERT_EQ(sum, s.findings);
  ASSERT_EQ(cost[2], 0);
  ASSERT_EQ(cost[3], 50);
  ASSERT_EQ(cost[4], 0);
  ASSERT_EQ(cost[5], 50);
  ASSERT_EQ(cost[6] + cost[7], 620);
  ASSERT_EQ(cost[12], 0);
  ASSERT_EQ(cost[13] + cost[14], 25);
  /* nothing found, nothing to run: no cost */
  effort_compute(NULL, 0, 0, &s, NULL);
  ASSERT_EQ(s.total, 0);
}

TEST(effort_verdict_rules) {
  /* severity, kind, p0, involved, guarded, has_replacement */
  VerdictItem mech = {SEV_WARNING, EFFORT_MECHANICAL, true, true, false, true};
  VerdictItem info = {SEV_INFO, EFFORT_PRECISION, true, true, false, true};
  VerdictItem attn = {SEV_WARNING, EFFORT_ATTENTION, false, true, false, true};
  VerdictItem kernel_p0 = {SEV_ERROR, EFFORT_CUDA_KERNEL, true, true, false, true};
  VerdictItem kernel_p1 = {SEV_ERROR, EFFORT_CUDA_KERNEL, false, true, false, true};
  VerdictItem kernel_guarded = {SEV_ERROR, EFFORT_CUDA_KERNEL, true, true, true, true};
  VerdictItem kernel_unused = {SEV_ERROR, EFFORT_CUDA_KERNEL, false, false, false, true};
  VerdictItem triton = {SEV_WARNING, EFFORT_TRITON, true, true, false, true};
  VerdictItem rebuild = {SEV_ERROR, EFFORT_REBUILD, true, true, false, true};
  VerdictItem dep = {SEV_ERROR, EFFORT_DEP_UNSUPPORTED, true, true, false, true};
  VerdictItem dep_none = {SEV_ERROR, EFFORT_DEP_UNSUPPORTED, true, true, false, false};
  VerdictItem dep_none_p1 = {SEV_ERROR, EFFORT_DEP_UNSUPPORTED, false, true, false, false};
  ASSERT_EQ(effort_item_verdict(&mech), VERDICT_FEASIBLE);
  ASSERT_EQ(effort_item_verdict(&info), VERDICT_FEASIBLE);
  ASSERT_EQ(effort_item_verdict(&attn), VERDICT_ADAPT);
  ASSERT_EQ(effort_item_verdict(&kernel_p0), VERDICT_DIFFICULT);
  ASSERT_EQ(effort_item_verdict(&kernel_p1), VERDICT_ADAPT);
  ASSERT_EQ(effort_item_verdict(&kernel_guarded), VERDICT_ADAPT);
  ASSERT_EQ(effort_item_verdict(&kernel_unused), VERDICT_FEASIBLE);
  ASSERT_EQ(effort_item_verdict(&triton), VERDICT_DIFFICULT);
  ASSERT_EQ(effort_item_verdict(&rebuild), VERDICT_DIFFICULT);
  ASSERT_EQ(effort_item_verdict(&dep), VERDICT_DIFFICULT);
  ASSERT_EQ(effort_item_verdict(&dep_none), VERDICT_INFEASIBLE);
  ASSERT_EQ(effort_item_verdict(&dep_none_p1), VERDICT_ADAPT);
  VerdictItem all[] = {mech, attn, kernel_p1, dep_none_p1};
  ASSERT_EQ(effort_verdict(all, 4), VERDICT_ADAPT);
  ASSERT_EQ(effort_verdict(all, 1), VERDICT_FEASIBLE);
  ASSERT_EQ(effort_verdict(NULL, 0), VERDICT_FEASIBLE);
  ASSERT_STR_EQ(verdict_zh(VERDICT_DIFFICULT), "困难");
  ASSERT_STR_EQ(verdict_en(VERDICT_INFEASIBLE), "not feasible");
  ASSERT_STR_EQ(verdict_id(VERDICT_ADAPT), "needs-adaptation");
}

/* ---- the report model: findings placed by rule metadata ---------------- */

/* Rules of domains whose analyzers may not exist yet: the report must place
 * them by their metadata alone. */
static const KbRule rule_kernel = {"ASC491", "test-kernel", SEV_ERROR, EFFORT_CUDA_KERNEL, DEP_CLASS_KERNEL,
                                   "Hand-written kernel", "手写内核", "", "", "", "", "", "", false};
static const KbRule rule_dep = {"ASC191", "test-dep", SEV_ERROR, EFFORT_DEP_UNSUPPORTED, DEP_CLASS_VENDOR_LIB,
                                "Unsupported package", "不支持的包", "", "", "", "", "", "", false};
static const KbRule rule_dev = {"ASC291", "test-device", SEV_WARNING, EFFORT_MECHANICAL, DEP_CLASS_FRAMEWORK,
                                "Device API", "设备 API", "", "", "", "", "", "", false};
static const KbRule rule_comm = {"ASC591", "test-comm", SEV_INFO, EFFORT_DISTRIBUTED, DEP_CLASS_FRAMEWORK,
                                 "Collective", "集合通信", "", "", "", "", "", "", false};
static const KbRule rule_meta = {"ASC091", "test-meta", SEV_WARNING, EFFORT_NONE, DEP_CLASS_NONE,
                                 "Meta", "元", "", "", "", "", "", "", false};

static Finding tr_finding(const KbRule *rule, uint32_t row, const char *subject, const char *replacement,
                          const char *detail, uint32_t weight, bool guarded) {
  Finding f;
  memset(&f, 0, sizeof f);
  f.rule = rule;
  f.severity = rule->severity;
  f.start_row = row;
  f.subject = (char *)subject;
  f.message = (char *)"message";
  f.message_zh = (char *)"消息";
  f.replacement = (char *)replacement;
  f.detail = (char *)detail;
  f.weight = weight;
  f.guarded = guarded;
  return f;
}

typedef struct {
  TP t;
  FindingList *lists;
  ReportFile *files;
  Report r;
} TR;

static void tr_build(TR *x, const TF *tf, size_t n) {
  memset(x, 0, sizeof *x);
  x->t.tf = tf;
  x->t.n = n;
  tp_facts(&x->t);
  x->lists = xcalloc(n, sizeof *x->lists);
  x->files = xcalloc(n, sizeof *x->files);
  for (size_t i = 0; i < n; i++)
    x->files[i] = (ReportFile){tf[i].path, context_file_kind(tf[i].path), &x->lists[i], &x->t.facts[i]};
}

static void tr_run(TR *x, bool zh) {
  ReportOptions o = {0};
  o.root_name = "proj";
  o.zh = zh;
  o.read = tp_read;
  o.read_data = &x->t;
  report_build(&x->r, x->files, x->t.n, &o);
}

static void tr_free(TR *x) {
  report_free(&x->r);
  for (size_t i = 0; i < x->t.n; i++) {
    array_free(&x->lists[i]); /* findings borrow static strings */
    analyze_facts_free(&x->t.facts[i]);
  }
  free(x->lists);
  free(x->files);
  free(x->t.facts);
  free(x->t.pf);
}

static const TF tr_project[] = {
    {"csrc/fused.cu", NULL, false, NULL},
    {"infer.py", "shared,cupy", true, NULL},
    {"kern.py", NULL, false, "from torch.utils.cpp_extension import load\nk = load('k', ['csrc/fused.cu'])\n"},
    {"requirements.txt", NULL, false, NULL},
    {"shared.py", NULL, false, NULL},
    {"train.py", "shared,kern", true, NULL},
};
#define TR_N (sizeof tr_project / sizeof tr_project[0])

static size_t tr_file(const char *path) {
  for (size_t i = 0; i < TR_N; i++)
    if (strcmp(tr_project[i].path, path) == 0) return i;
  return 0;
}

TEST(report_places_findings_by_metadata) {
  TR x;
  tr_build(&x, tr_project, TR_N);
  Finding k = tr_finding(&rule_kernel, 3, "fused_add", "rewrite in Ascend C", NULL, 300, false);
  array_push(&x.lists[tr_file("csrc/fused.cu")], k);
  Finding d1 = tr_finding(&rule_dev, 1, "torch.cuda.synchronize", "torch.npu.synchronize", NULL, 0, false);
  Finding d2 = tr_finding(&rule_dev, 4, "torch.cuda.empty_cache", "torch.npu.empty_cache", NULL, 0, false);
  array_push(&x.lists[tr_file("shared.py")], d1);
  array_push(&x.lists[tr_file("shared.py")], d2);
  Finding c = tr_finding(&rule_comm, 2, "all_to_all", NULL, NULL, 0, false);
  array_push(&x.lists[tr_file("infer.py")], c);
  Finding m = tr_finding(&rule_meta, 0, "noqa", NULL, NULL, 0, false);
  array_push(&x.lists[tr_file("infer.py")], m);
  Finding p = tr_finding(&rule_dep, 0, "cupy-cuda12x", "torch ops", "status: unsupported", 0, false);
  array_push(&x.lists[tr_file("requirements.txt")], p);
  tr_run(&x, false);
  Report *r = &x.r;
  ASSERT_EQ(r->phases.len, 2);
  ASSERT_STR_EQ(r->phases.items[0].name, "Training");
  ASSERT_STR_EQ(r->phases.items[1].name, "Inference");
  ASSERT_EQ(r->items.len, 5); /* the meta finding is not part of a migration report */
  /* the kernel is only built and loaded by training: P1, so not difficult */
  const ReportItem *ki = NULL, *pi = NULL;
  for (size_t i = 0; i < r->items.len; i++) {
    if (r->items.items[i].f->rule == &rule_kernel) ki = &r->items.items[i];
    if (r->items.items[i].f->rule == &rule_dep) pi = &r->items.items[i];
  }
  ASSERT(ki && pi);
  ASSERT_EQ(ki->prio, PRIO_P1);
  ASSERT_EQ(ki->phases, 1);
  ASSERT_EQ(ki->line, 4);
  ASSERT_EQ(ki->domain, 4);
  /* cupy is imported by inference only: P1, so not difficult either */
  ASSERT_EQ(pi->prio, PRIO_P1);
  ASSERT_EQ(pi->phases, 2);
  ASSERT_EQ(r->verdict, VERDICT_ADAPT);
  ASSERT_EQ(r->compat.len, 1);
  ASSERT_EQ(r->compat.items[0].status, COMPAT_UNSUPPORTED);
  ASSERT_STR_EQ(r->compat.items[0].declared, "requirements.txt:1");
  /* matrix: subject rows for blockers and packages, one row for the
   * mechanical rule; P0 rows first */
  ASSERT_EQ(r->groups.len, 4);
  ASSERT_EQ(r->groups.items[0].prio, PRIO_P0);
  ASSERT_EQ(r->groups.items[r->groups.len - 1].prio, PRIO_P1);
  const ReportGroup *dev = NULL;
  for (size_t gi = 0; gi < r->groups.len; gi++)
    if (r->groups.items[gi].rule == &rule_dev) dev = &r->groups.items[gi];
  ASSERT(dev);
  ASSERT_EQ(dev->items.len, 2);
  ASSERT_STR_EQ(dev->label, "Device API");
  ASSERT_STR_EQ(dev->replacement, "torch.npu.synchronize; torch.npu.empty_cache");
  ASSERT_EQ(r->blockers.len, 2);
  /* classes and route: a kernel on a task path means operator work */
  ASSERT_EQ(r->classes[DEP_CLASS_KERNEL].involved, 1);
  ASSERT_EQ(r->classes[DEP_CLASS_FRAMEWORK].findings, 3);
  ASSERT_EQ(r->route, ROUTE_B); /* each phase has hard work: no phase can move first */
  /* effort: rows add up to the findings' total */
  int64_t rows = 0;
  for (size_t gi = 0; gi < r->groups.len; gi++) rows += r->groups.items[gi].centidays;
  ASSERT_EQ(rows, r->effort.findings);
  ASSERT_EQ(r->effort.lines[EFFORT_CUDA_KERNEL].centidays, 800);
  ASSERT_EQ(r->effort.total, 4 + 800 + 500 + 25 + 200 + 100);
  ASSERT_EQ(r->half_weeks, 7);
  tr_free(&x);
}

TEST(report_verdict_levels) {
  /* a kernel every phase needs: difficult; the same kernel guarded: not */
  static const TF tf[] = {
      {"a.py", "k", true, NULL},
      {"k.py", NULL, false, NULL},
      {"requirements.txt", NULL, false, NULL},
  };
  TR x;
  tr_build(&x, tf, 3);
  Finding k = tr_finding(&rule_kernel, 0, "triton_fn", "port", NULL, 10, false);
  array_push(&x.lists[1], k);
  tr_run(&x, false);
  ASSERT_EQ(x.r.verdict, VERDICT_DIFFICULT);
  ASSERT_EQ(x.r.route, ROUTE_B);
  ASSERT_EQ(x.r.blockers.len, 1);
  tr_free(&x);

  tr_build(&x, tf, 3);
  k.guarded = true;
  array_push(&x.lists[1], k);
  tr_run(&x, false);
  ASSERT_EQ(x.r.verdict, VERDICT_ADAPT);
  ASSERT_EQ(x.r.blockers.len, 0);
  ASSERT_EQ(x.r.n_guarded, 1);
  tr_free(&x);

  /* a package with no Ascend path, used by the only phase: not feasible */
  static const TF tf2[] = {
      {"a.py", "pycuda.autoinit", true, NULL},
      {"requirements.txt", NULL, false, NULL},
  };
  tr_build(&x, tf2, 2);
  Finding p = tr_finding(&rule_dep, 2, "pycuda==2024.1", NULL, NULL, 0, false);
  array_push(&x.lists[1], p);
  tr_run(&x, true);
  ASSERT_EQ(x.r.verdict, VERDICT_INFEASIBLE);
  ASSERT_EQ(x.r.route, ROUTE_C);
  ASSERT_EQ(x.r.compat.items[0].status, COMPAT_UNSUPPORTED);
  ASSERT_STR_EQ(x.r.phases.items[0].name, "a");
  ReportSummary s;
  report_summary(&x.r, &s);
  ASSERT_STR_EQ(s.verdict, "不可行");
  ASSERT_STR_EQ(s.verdict_id, "not-feasible");
  ASSERT_EQ(s.blockers, 1);
  tr_free(&x);

  /* a package nothing imports is not involved, whatever its status */
  tr_build(&x, tf2, 2);
  Finding q = tr_finding(&rule_dep, 0, "xformers", "SDPA", "status: unsupported", 0, false);
  array_push(&x.lists[1], q);
  tr_run(&x, false);
  ASSERT_EQ(x.r.compat.items[0].status, COMPAT_NOT_INVOLVED);
  ASSERT_EQ(x.r.compat.items[0].declared_status, COMPAT_UNSUPPORTED);
  ASSERT_EQ(x.r.verdict, VERDICT_FEASIBLE);
  ASSERT_EQ(x.r.n_none, 1);
  ASSERT_EQ(x.r.effort.findings, 0);
  ASSERT_EQ(x.r.optional.findings, 500);
  tr_free(&x);
}

/* Headings of a rendered Markdown report, one per line. */
static char *tr_headings(const char *md) {
  StrBuf sb;
  sb_init(&sb);
  sb_puts(&sb, "");
  const char *p = md;
  bool fence = false;
  while (*p) {
    size_t n = strcspn(p, "\n");
    if (n >= 3 && strncmp(p, "```", 3) == 0) fence = !fence;
    if (!fence && n && p[0] == '#') {
      sb_append(&sb, p, n);
      sb_putc(&sb, '\n');
    }
    p += n;
    if (*p) p++;
  }
  return sb_steal(&sb);
}

TEST(report_markdown_headings) {
  TR x;
  tr_build(&x, tr_project, TR_N);
  Finding d1 = tr_finding(&rule_dev, 1, "torch.cuda.synchronize", "torch.npu.synchronize", NULL, 0, false);
  array_push(&x.lists[tr_file("shared.py")], d1);
  tr_run(&x, false);
  char *md = report_markdown(&x.r, NULL);
  char *h = tr_headings(md);
  ASSERT_STR_EQ(h,
                "# proj Ascend NPU Migration Assessment\n"
                "## Executive Summary\n"
                "## Dependency Matrix (per task phase)\n"
                "### Task Phases and Entry Points\n"
                "### Minimal Migration Set per Phase\n"
                "## Detailed Findings (per domain)\n"
                "### Domain 1: Third-Party Dependencies\n"
                "### Domain 2: Device Layer\n"
                "### Domain 3: Attention Mechanism\n"
                "### Domain 4: Custom Operators\n"
                "### Domain 5: Distributed Communication\n"
                "### Domain 6: Precision Strategy\n"
                "### Compilation and Graphs\n"
                "### CUDA Dependency Classes and Recommended Route\n"
                "### Blast Radius of Blockers\n"
                "## Migration Roadmap\n"
                "## Risk Matrix\n"
                "## Acceptance Checklist\n"
                "## Effort Computation\n");
  ASSERT(strstr(md, "\n- Overall feasibility: 可行 (feasible)\n"));
  ASSERT(strstr(md, "\n| Dependency | Training | Inference | Replacement | Effort |\n"));
  ASSERT(strstr(md, "| `shared.py:2` | ASC291 | message | `torch.npu.synchronize` | P0 |"));
  free(h);
  free(md);
  tr_free(&x);

  tr_build(&x, tr_project, TR_N);
  tr_run(&x, true);
  md = report_markdown(&x.r, NULL);
  h = tr_headings(md);
  ASSERT_STR_EQ(h,
                "# proj 昇腾 NPU 迁移评估\n"
                "## 执行摘要\n"
                "## 依赖矩阵（按任务阶段）\n"
                "### 任务阶段与入口\n"
                "### 各阶段最小迁移集\n"
                "## 详细发现（按域）\n"
                "### 域 1：第三方依赖\n"
                "### 域 2：设备层\n"
                "### 域 3：注意力机制\n"
                "### 域 4：自定义算子\n"
                "### 域 5：分布式通信\n"
                "### 域 6：精度策略\n"
                "### 编译加速\n"
                "### CUDA 依赖分类与推荐路线\n"
                "### 阻塞项影响范围\n"
                "## 迁移路线图\n"
                "## 风险矩阵\n"
                "## 验收清单\n"
                "## 工作量计算\n");
  ASSERT(strstr(md, "\n| 依赖 | 训练 | 推理 | 替代方案 | 工作量 |\n"));
  free(h);
  free(md);
  tr_free(&x);
}
