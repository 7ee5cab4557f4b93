/* Unit tests for analyzers/project/model.c: projects are written in memory
 * (path, Python text), analyzed with analyze_text as the workspace would,
 * and the model's findings of each file are rendered one per line as
 * "path:line:col severity code subject" (+ " unreachable" and the related
 * locations), compared exactly. */
#include "tests/unit/test.h"

#include <stdlib.h>

#include "analyzers/project/model.h"
#include "analyzers/project/targets.h"
#include "analyzers/python/pyfacts.h"
#include "analyzers/kb/kb.h"

typedef struct {
  const char *path, *text;
} MT;

static void mt_analyze(const char *path, const char *text, FindingList *l, FileFacts *facts) {
  AnalyzeOptions o;
  analyze_options_default(&o);
  analyze_text(path, text, strlen(text), NULL, &o, l, facts);
}

static void mt_set(Model *m, const char *path, const char *text) {
  FindingList l = {0};
  FileFacts facts = {0};
  mt_analyze(path, text, &l, &facts);
  model_set_module(m, path, path, &facts, &l);
  findings_free(&l);
  analyze_facts_free(&facts);
}

static Model *mt_model(const MT *files, size_t n) {
  Model *m = model_new();
  for (size_t i = 0; i < n; i++) mt_set(m, files[i].path, files[i].text);
  return m;
}

/* The findings of one file after the model, rendered. Caller frees. */
static void mt_render_file(Model *m, const char *path, const char *text, StrBuf *sb, bool related) {
  FindingList l = {0};
  FileFacts facts = {0};
  mt_analyze(path, text, &l, &facts);
  AnalyzeOptions o;
  analyze_options_default(&o);
  model_apply(m, path, &o, &l);
  for (size_t i = 0; i < l.len; i++) {
    const Finding *f = &l.items[i];
    sb_printf(sb, "%s:%u:%u %s %s %s%s\n", path, f->start_row + 1, f->start_char + 1, severity_name(f->severity),
              f->rule->code, f->subject, f->unreachable ? " unreachable" : "");
    for (size_t k = 0; related && k < f->related.len; k++)
      sb_printf(sb, "  -> %s:%u:%u %s\n", f->related.items[k].path ? f->related.items[k].path : path,
                f->related.items[k].start_row + 1,
                f->related.items[k].start_char + 1, f->related.items[k].message);
  }
  findings_free(&l);
  analyze_facts_free(&facts);
}

/* The findings of files[0, n) after model m, rendered, are exactly `want`. */
#define MT_EXPECT(m, files, n, want)                  \
  do {                                                \
    char *got_ = mt_render((m), (files), (n), false); \
    ASSERT_STR_EQ(got_, want);                        \
    free(got_);                                       \
  } while (0)

/* Whether the first finding of file f after the model holds `words` in its message. */
static bool mt_first_says(Model *m, const MT *f, const char *words) {
  FindingList l = {0};
  FileFacts facts = {0};
  mt_analyze(f->path, f->text, &l, &facts);
  AnalyzeOptions o;
  analyze_options_default(&o);
  model_apply(m, f->path, &o, &l);
  bool says = l.len > 0 && strstr(l.items[0].message, words) != NULL;
  findings_free(&l);
  analyze_facts_free(&facts);
  return says;
}

static char *mt_render(Model *m, const MT *files, size_t n, bool related) {
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < n; i++) mt_render_file(m, files[i].path, files[i].text, &sb, related);
  return sb_steal(&sb);
}

static const MT mt_wrapped[] = {
    {"pkg/__init__.py", "from .attn import flash_attention\n"},
    {"pkg/attn.py",
     "from flash_attn import flash_attn_func\n\n\ndef flash_attention(q, k, v):\n    return flash_attn_func(q, k, v)\n\n\n"
     "def sdpa_attention(q, k, v):\n    return q\n"},
    {"pkg/model.py",
     "import pkg.attn as attn\nfrom pkg import flash_attention\n\n\nclass Block:\n    def forward(self, x):\n"
     "        return flash_attention(x, x, x)\n\n    def other(self, x):\n        try:\n            return attn.flash_attention(x, x, x)\n"
     "        except ImportError:\n            return x\n"},
    {"pkg/build.py", "from .model import Block\n\n\ndef make():\n    return Block()\n"},
};

/* A base class imported from another module: the subclass's super().__init__()
 * and its inherited methods link to it, and building the subclass reaches
 * what the base's constructor needs (the import of the base carries its
 * chain; the call of the inherited method has its own). */
TEST(model_imported_base_links) {
  static const MT files[] = {
      {"pkg/__init__.py", ""},
      {"pkg/base.py", "import torch\n\n\nclass Base:\n    def __init__(self):\n        torch.cuda.synchronize()\n\n"
                      "    def warm(self):\n        torch.cuda.utilization()\n"},
      {"pkg/sub.py", "from pkg.base import Base\n\n\nclass Sub(Base):\n    def __init__(self):\n        super().__init__()\n\n"
                     "    def run(self):\n        return self.warm()\n"},
      {"app.py", "from pkg.sub import Sub\n\n\nif __name__ == \"__main__\":\n    Sub().run()\n"},
  };
  Model *m = mt_model(files, 4);
  char *got = mt_render(m, files + 2, 2, false);
  ASSERT_STR_EQ(got, "pkg/sub.py:1:22 hint ASC803 Base → Base.__init__() → torch.cuda.synchronize (pkg/base.py:6)\n"
                     "pkg/sub.py:9:16 hint ASC801 Base.warm() → torch.cuda.utilization (pkg/base.py:9)\n"
                     "app.py:1:21 hint ASC803 Sub → Sub.__init__() → Base.__init__() → torch.cuda.synchronize (pkg/base.py:6)\n"
                     "app.py:5:5 hint ASC802 Sub → Sub.__init__() → Base.__init__() → torch.cuda.synchronize (pkg/base.py:6)\n");
  free(got);
  model_free(m);
}

TEST(model_call_sites_follow_wrappers) {
  Model *m = mt_model(mt_wrapped, 4);
  char *got = mt_render(m, mt_wrapped, 4, true);
  ASSERT_STR_EQ(got,
      "pkg/__init__.py:1:19 hint ASC803 flash_attention() → flash_attn_func (pkg/attn.py:5)\n"
      "  -> pkg/attn.py:4:5 flash_attention() holds the CUDA-only construct\n"
      "  -> pkg/attn.py:5:12 FlashAttention-2 flash_attn.flash_attn_func does not exist on Ascend; use torch_npu.npu_fusion_attention(q, k, v, q.shape[2], input_layout=\"BSND\", scale=q.shape[-1] ** -0.5, keep_prob=1.0)[0]\n"
      "pkg/attn.py:5:12 error ASC301 flash_attn.flash_attn_func\n"
      "  -> pkg/attn.py:1:6 Import of flash_attn.flash_attn_func: no Ascend build; replace what it provides (attention calls: "
      "torch_npu.npu_fusion_attention for training, npu_fused_infer_attention_score for inference; its norm, rotary, "
      "activation and loss kernels: the torch / torch_npu op for the same job), then drop the import\n"
      "pkg/model.py:2:17 hint ASC803 flash_attention() → flash_attn_func (pkg/attn.py:5)\n"
      "  -> pkg/attn.py:4:5 flash_attention() holds the CUDA-only construct\n"
      "  -> pkg/attn.py:5:12 FlashAttention-2 flash_attn.flash_attn_func does not exist on Ascend; use torch_npu.npu_fusion_attention(q, k, v, q.shape[2], input_layout=\"BSND\", scale=q.shape[-1] ** -0.5, keep_prob=1.0)[0]\n"
      "pkg/model.py:7:16 hint ASC801 flash_attention() → flash_attn_func (pkg/attn.py:5)\n"
      "  -> pkg/attn.py:4:5 flash_attention() holds the CUDA-only construct\n"
      "  -> pkg/attn.py:5:12 FlashAttention-2 flash_attn.flash_attn_func does not exist on Ascend; use torch_npu.npu_fusion_attention(q, k, v, q.shape[2], input_layout=\"BSND\", scale=q.shape[-1] ** -0.5, keep_prob=1.0)[0]\n"
      "pkg/model.py:11:20 hint ASC801 flash_attention() → flash_attn_func (pkg/attn.py:5)\n"
      "  -> pkg/attn.py:4:5 flash_attention() holds the CUDA-only construct\n"
      "  -> pkg/attn.py:5:12 FlashAttention-2 flash_attn.flash_attn_func does not exist on Ascend; use torch_npu.npu_fusion_attention(q, k, v, q.shape[2], input_layout=\"BSND\", scale=q.shape[-1] ** -0.5, keep_prob=1.0)[0]\n"
      "pkg/build.py:1:20 hint ASC803 Block → Block.forward() → flash_attention() → flash_attn_func (pkg/attn.py:5)\n"
      "  -> pkg/model.py:5:7 Block uses Block.forward()\n"
      "  -> pkg/model.py:6:9 Block.forward() calls flash_attention()\n"
      "  -> pkg/attn.py:4:5 flash_attention() holds the CUDA-only construct\n"
      "  -> pkg/attn.py:5:12 FlashAttention-2 flash_attn.flash_attn_func does not exist on Ascend; use torch_npu.npu_fusion_attention(q, k, v, q.shape[2], input_layout=\"BSND\", scale=q.shape[-1] ** -0.5, keep_prob=1.0)[0]\n"
      "pkg/build.py:5:12 hint ASC802 Block → Block.forward() → flash_attention() → flash_attn_func (pkg/attn.py:5)\n"
      "  -> pkg/model.py:5:7 Block uses Block.forward()\n"
      "  -> pkg/model.py:6:9 Block.forward() calls flash_attention()\n"
      "  -> pkg/attn.py:4:5 flash_attention() holds the CUDA-only construct\n"
      "  -> pkg/attn.py:5:12 FlashAttention-2 flash_attn.flash_attn_func does not exist on Ascend; use torch_npu.npu_fusion_attention(q, k, v, q.shape[2], input_layout=\"BSND\", scale=q.shape[-1] ** -0.5, keep_prob=1.0)[0]\n");
  free(got);
  model_free(m);
}

/* A definition that calls through an import of CUDA-only code (a CUDA
 * extension module) needs it: its callers in other files get the chain,
 * ending at the import; a guarded import is no construct. */
TEST(model_calls_through_extension_imports) {
  static const MT files[] = {
      {"ext/__init__.py", "from .ops import fused_softmax\n"},
      {"ext/ops.py",
       "import flash_attn_2_cuda as _C\n\n\ndef fused_softmax(x):\n    return _C.fwd(x)\n\n\n"
       "def softmax(x):\n    return x.softmax(-1)\n"},
      {"ext/maybe.py",
       "try:\n    import flash_attn_2_cuda as fa\nexcept ImportError:\n    fa = None\n\n\n"
       "def fwd(q):\n    if fa is None:\n        return q\n    return fa.fwd(q)\n"},
      {"model.py",
       "from ext import fused_softmax\nfrom ext.maybe import fwd\n\n\ndef run(x):\n    return fused_softmax(x) + fwd(x)\n\n\n"
       "if __name__ == \"__main__\":\n    run(1)\n"},
  };
  Model *m = mt_model(files, 4);
  char *got = mt_render(m, files + 3, 1, true);
  ASSERT_STR_EQ(got,
      "model.py:1:17 hint ASC803 fused_softmax() → flash_attn_2_cuda (ext/ops.py:1)\n"
      "  -> ext/ops.py:4:5 fused_softmax() holds the CUDA-only construct\n"
      "  -> ext/ops.py:1:8 Import of flash_attn_2_cuda: no Ascend build; replace what it provides (attention calls: torch_npu.npu_fusion_attention for training, npu_fused_infer_attention_score for inference; its norm, rotary, activation and loss kernels: the torch / torch_npu op for the same job), then drop the import\n"
      "model.py:6:12 hint ASC801 fused_softmax() → flash_attn_2_cuda (ext/ops.py:1)\n"
      "  -> ext/ops.py:4:5 fused_softmax() holds the CUDA-only construct\n"
      "  -> ext/ops.py:1:8 Import of flash_attn_2_cuda: no Ascend build; replace what it provides (attention calls: torch_npu.npu_fusion_attention for training, npu_fused_infer_attention_score for inference; its norm, rotary, activation and loss kernels: the torch / torch_npu op for the same job), then drop the import\n");
  free(got);
  model_free(m);
}

/* Calls of a wrapper in its own file are not reported (the construct is in
 * sight there) but are kept for the report: model_local_chains. */
TEST(model_local_chains_of_own_wrappers) {
  static const MT files[] = {
      {"infer.py",
       "import torch\n\n\ndef stats(x):\n    torch.cuda.synchronize()\n    return x\n\n\ndef main():\n    return stats(1)\n\n\n"
       "def _never():\n    return stats(2)\n\n\nif __name__ == \"__main__\":\n    main()\n"},
  };
  Model *m = mt_model(files, 1);
  MT_EXPECT(m, files, 1, "infer.py:5:5 warning ASC201 torch.cuda.synchronize\n");
  FindingList own = {0}, chains = {0};
  FileFacts facts = {0};
  mt_analyze(files[0].path, files[0].text, &own, &facts);
  AnalyzeOptions o;
  analyze_options_default(&o);
  model_local_chains(m, "infer.py", &o, &own, &chains);
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < chains.len; i++) {
    const Finding *f = &chains.items[i];
    sb_printf(&sb, "%u %s %s %s |", f->start_row + 1, f->rule->code, f->scope ? f->scope : "-", f->subject);
    for (size_t k = 0; k < f->related.len; k++) sb_printf(&sb, " %u", f->related.items[k].start_row + 1);
    sb_putc(&sb, '\n');
  }
  /* main() calls stats(); _never() is dead, and the __main__ call of main() reaches it too */
  ASSERT_STR_EQ(sb.data ? sb.data : "",
                "10 ASC801 main stats() → torch.cuda.synchronize (infer.py:5) | 4 5\n"
                "18 ASC801 - main() → stats() → torch.cuda.synchronize (infer.py:5) | 9 4 5\n");
  sb_free(&sb);
  findings_free(&own);
  findings_free(&chains);
  analyze_facts_free(&facts);
  model_free(m);
}

TEST(model_reachability_reasons) {
  static const MT files[] = {
      {"lib/__init__.py", ""},
      {"lib/util.py",
       "import torch\n\n\ndef _dead():\n    torch.cuda.synchronize()\n\n\ndef live():\n    return _helper()\n\n\n"
       "def _helper():\n    return torch.cuda.device_count()\n\n\nif __name__ == \"__main__\":\n    torch.cuda.utilization()\n"},
      {"lib/use.py", "from . import util\n"},
      {"demo.py", "import torch\nfrom lib.gone import thing\ntorch.cuda.synchronize()\n"},
      {"run.py", "import torch\n\n\ndef main():\n    torch.cuda.synchronize()\n\n\ndef unused():\n    torch.cuda.utilization()\n\n\n"
                 "if __name__ == \"__main__\":\n    main()\n"},
  };
  Model *m = mt_model(files, 5);
  /* packaged (a project table in pyproject.toml): lib's public names are a library's API */
  static const char pyproject[] = "[project]\nname = \"lib\"\n";
  model_set_launcher(m, "pyproject.toml", "pyproject.toml", pyproject, sizeof pyproject - 1);
  MT_EXPECT(m, files, 5,
             "lib/util.py:5:5 hint ASC201 torch.cuda.synchronize unreachable\n"
             "lib/util.py:13:12 warning ASC201 torch.cuda.device_count\n"
             "lib/util.py:17:5 hint ASC201 torch.cuda.utilization unreachable\n"
             "demo.py:3:1 hint ASC201 torch.cuda.synchronize unreachable\n"
             "run.py:5:5 warning ASC201 torch.cuda.synchronize\n"
             "run.py:9:5 hint ASC201 torch.cuda.utilization unreachable\n");
  ModelStats st;
  model_stats(m, &st);
  ASSERT_EQ(st.modules, 5);
  ASSERT_EQ(st.broken_modules, 1);
  ASSERT_EQ(st.unreachable_defs, 2);
  /* not packaged, with a script beside it: an application, whose package
   * helps its scripts; what run.py does not reach never runs */
  model_set_launcher(m, "pyproject.toml", "pyproject.toml", NULL, 0);
  MT_EXPECT(m, files, 5,
             "lib/util.py:5:5 hint ASC201 torch.cuda.synchronize unreachable\n"
             "lib/util.py:13:12 hint ASC201 torch.cuda.device_count unreachable\n"
             "lib/util.py:17:5 hint ASC201 torch.cuda.utilization unreachable\n"
             "demo.py:3:1 hint ASC201 torch.cuda.synchronize unreachable\n"
             "run.py:5:5 warning ASC201 torch.cuda.synchronize\n"
             "run.py:9:5 hint ASC201 torch.cuda.utilization unreachable\n");
  model_free(m);
}

/* A module-level definition that a later one of its name replaces never
 * runs (its finding is an unreachable hint saying where the replacement
 * is), also under a plain wrapper (jit.script); a first definition that a
 * decorator registers, and alternatives in branches, stay. */
TEST(model_redefinitions) {
  static const MT files[] = {
      {"ops/__init__.py", "from .lse import clamp, flatten_lse, pick, scale\n"},
      {"ops/lse.py",
       "import torch\n\n\ndef flatten_lse(x):\n    torch.cuda.synchronize()\n    return x\n\n\n"
       "def flatten_lse(x):\n    return x.flatten()\n\n\n"
       "@torch.library.custom_op(\"ops::pick\", mutates_args=())\ndef pick(x):\n    torch.cuda.utilization()\n    return x\n\n\n"
       "def pick(x):\n    return x\n\n\n"
       "@torch.jit.script\ndef clamp(x):\n    torch.cuda.synchronize()\n    return x\n\n\n"
       "def clamp(x):\n    return x\n\n\n"
       "if torch.cuda.is_available():\n    def scale(x):\n        torch.cuda.synchronize()\n        return x\n"
       "else:\n    def scale(x):\n        return x\n"},
  };
  Model *m = mt_model(files, 2);
  MT_EXPECT(m, files, 2,
             "ops/lse.py:5:5 hint ASC201 torch.cuda.synchronize unreachable\n"
             "ops/lse.py:13:2 hint ASC223 torch.library.custom_op\n"
             "ops/lse.py:15:5 warning ASC201 torch.cuda.utilization\n"
             "ops/lse.py:23:2 hint ASC702 torch.jit.script unreachable\n"
             "ops/lse.py:25:5 hint ASC201 torch.cuda.synchronize unreachable\n"
             "ops/lse.py:33:4 info ASC211 torch.cuda.is_available\n"
             "ops/lse.py:35:9 warning ASC201 torch.cuda.synchronize\n");
  ASSERT(mt_first_says(m, &files[1], "[unreachable: flatten_lse is defined again at line 9, which replaces this definition]"));
  model_free(m);
}

/* A Triton kernel is run by its launcher: under a plain decorator
 * (`@triton.jit`, the "plain-decorators" row) a kernel nothing launches is
 * unreachable, one launched from reachable code is not. */
TEST(model_plain_decorators_are_no_entry_points) {
  static const MT files[] = {
      {"kern/__init__.py", "from .rope import rope\n"},
      {"kern/rope.py",
       "import torch\nimport triton\n\n\n@triton.jit\ndef _rope_kernel(x_ptr):\n    pass\n\n\n"
       "@triton.jit\ndef _old_kernel(x_ptr):\n    pass\n\n\n"
       "def rope(x):\n    _rope_kernel[(1,)](x)\n    return x\n"},
  };
  Model *m = mt_model(files, 2);
  /* the launch `_rope_kernel[(1,)](x)` is a call of the kernel: rope() needs it */
  MT_EXPECT(m, files, 2,
             "kern/__init__.py:1:19 hint ASC803 rope() → _rope_kernel() → @triton.jit _rope_kernel (kern/rope.py:5)\n"
             "kern/rope.py:5:1 warning ASC410 @triton.jit _rope_kernel\n"
             "kern/rope.py:10:1 hint ASC410 @triton.jit _old_kernel unreachable\n");
  model_free(m);
}

/* A module outside packages in a folder runs when something imports it or
 * when running it does something (a call statement, a `__main__` block);
 * one that only defines things and that nothing imports never runs. */
TEST(model_idle_loose_modules) {
  static const MT files[] = {
      {"sample.py", "from lib.ops import fused\n\nif __name__ == \"__main__\":\n    fused(1)\n"},
      {"lib/ops.py", "import torch\n\n\ndef fused(x):\n    torch.cuda.synchronize()\n    return x\n"},
      {"tools/convert.py", "import torch\n\n\ndef convert(x):\n    return x.cuda()\n"},
      {"tools/timing.py", "import torch\n\n\ndef run():\n    torch.cuda.synchronize()\n\n\nrun()\n"},
  };
  Model *m = mt_model(files, 4);
  MT_EXPECT(m, files, 4,
             "sample.py:1:21 hint ASC803 fused() → torch.cuda.synchronize (lib/ops.py:5)\n"
             "sample.py:4:5 hint ASC801 fused() → torch.cuda.synchronize (lib/ops.py:5)\n"
             "lib/ops.py:5:5 warning ASC201 torch.cuda.synchronize\n"
             "tools/convert.py:5:14 hint ASC203 .cuda() unreachable\n"
             "tools/timing.py:5:5 warning ASC201 torch.cuda.synchronize\n");
  ASSERT(mt_first_says(m, &files[2], "[unreachable: nothing that runs imports tools/convert.py, and running "
                                      "it does nothing (no `__main__` block, no call in its module code)]"));
  model_free(m);
}

/* A package inside a folder of scripts (the "script-folders" row) is a
 * helper of the scripts beside it: what they call runs, the rest does not. */
TEST(model_script_folder_packages) {
  static const MT files[] = {
      {"recipes/det/train.py",
       "from util.misc import nested\n\nif __name__ == \"__main__\":\n    nested([1])\n"},
      {"recipes/det/util/__init__.py", ""},
      {"recipes/det/util/misc.py",
       "import torch\n\n\ndef nested(xs):\n    return torch.tensor(xs).cuda()\n\n\n"
       "def init_distributed_mode(rank):\n    torch.cuda.set_device(rank)\n"},
  };
  Model *m = mt_model(files, 3);
  MT_EXPECT(m, files, 3,
             "recipes/det/train.py:1:23 hint ASC803 nested() → cuda() (recipes/det/util/misc.py:5)\n"
             "recipes/det/train.py:4:5 hint ASC801 nested() → cuda() (recipes/det/util/misc.py:5)\n"
             "recipes/det/util/misc.py:5:12 hint ASC220 torch.Tensor.cuda\n"
             "recipes/det/util/misc.py:5:29 warning ASC203 .cuda()\n"
             "recipes/det/util/misc.py:9:5 hint ASC201 torch.cuda.set_device unreachable\n");
  model_free(m);
}

/* Cycles, `import *`, dynamic imports, shadowing and recursion terminate;
 * what cannot be known stays unknown (no finding, reachable). */
TEST(model_bad_input_terminates) {
  static const MT files[] = {
      {"p/__init__.py", "from .a import *\n"},
      {"p/a.py", "import torch\nfrom .b import *\nfrom p import b as again\n\n\ndef fa():\n    return fb()\n\n\n"
                 "def ring():\n    return ring() + torch.cuda.device_count()\n"},
      {"p/b.py", "import importlib\nfrom .a import *\n\n\ndef fb():\n    return fa()\n\n\n"
                 "def load(name):\n    return importlib.import_module(name)\n"},
      {"p/c.py", "from .a import ring\n\n\ndef ring2():\n    return ring()\n\n\n"
                 "def shadow():\n    ring = len\n    return ring([])\n"},
  };
  Model *m = mt_model(files, 4);
  MT_EXPECT(m, files, 4,
             "p/a.py:11:21 warning ASC201 torch.cuda.device_count\n"
             "p/c.py:1:16 hint ASC803 ring() → torch.cuda.device_count (p/a.py:11)\n"
             "p/c.py:5:12 hint ASC801 ring() → torch.cuda.device_count (p/a.py:11)\n");
  model_free(m);
}

/* 10,000 modules in one import chain: linking stays linear enough and the
 * chain text is cut. */
TEST(model_ten_thousand_modules) {
  enum { N = 10000 };
  Model *m = model_new();
  char path[64], text[256];
  mt_set(m, "chain/__init__.py", "");
  mt_set(m, "chain/m0.py", "import torch\n\n\ndef f0():\n    torch.cuda.synchronize()\n");
  for (int i = 1; i < N; i++) {
    snprintf(path, sizeof path, "chain/m%d.py", i);
    snprintf(text, sizeof text, "from chain.m%d import f%d\n\n\ndef f%d():\n    return f%d()\n", i - 1, i - 1, i, i - 1);
    mt_set(m, path, text);
  }
  model_link(m);
  ModelStats st;
  model_stats(m, &st);
  ASSERT_EQ(st.modules, N + 1);
  ASSERT_EQ(st.needs_cuda, N);
  snprintf(path, sizeof path, "chain/m%d.py", N - 1);
  snprintf(text, sizeof text, "from chain.m%d import f%d\n\n\ndef f%d():\n    return f%d()\n", N - 2, N - 2, N - 1, N - 2);
  StrBuf sb;
  sb_init(&sb);
  mt_render_file(m, path, text, &sb, false);
  ASSERT_STR_EQ(sb.data, "chain/m9999.py:1:25 hint ASC803 f9998() → f9997() → … → f0() → torch.cuda.synchronize "
                         "(chain/m0.py:5)\n"
                         "chain/m9999.py:5:12 hint ASC801 f9998() → f9997() → … → f0() → torch.cuda.synchronize "
                         "(chain/m0.py:5)\n");
  sb_free(&sb);
  model_free(m);
}

/* ---- differential: incremental updates equal a model built from scratch ---- */

/* Texts of each file: the shape-changing ones (imports, definitions) make a
 * whole relink; the others change only bodies (calls, constructs,
 * positions, references), which relink only the edited module's calls. */
static const char *const mt_variants[][6] = {
    {"pkg/__init__.py", "from .core import work\n", "", "from .core import work\n\nVERSION = 1\n",
     "try:\n    from torch_npu.contrib import transfer_to_npu\nexcept ImportError:\n    pass\nfrom .core import work\n", NULL},
    {"pkg/core.py", "import torch\n\n\ndef work():\n    torch.cuda.synchronize()\n", "def work():\n    return 1\n",
     "import torch\n\n\ndef work():\n    return torch.zeros(1)\n",
     "import torch\n\n\n\ndef work():\n    x = torch.ones(2)\n    torch.cuda.synchronize()\n    return x\n", NULL},
    {"pkg/mid.py", "from .core import work\n\n\ndef mid():\n    return work()\n",
     "from . import core\n\n\ndef _mid():\n    return core.work()\n",
     "from .core import work\n\n\ndef mid():\n    return 2\n",
     "from .core import work\n\n\ndef mid():\n    y = 3\n    return work() + y\n",
     "from . import core\n\n\ndef _mid():\n    return 7\n"},
    {"pkg/top.py", "from .mid import mid\n\n\nclass Top:\n    def __init__(self):\n        self.x = mid()\n",
     "from .missing import nothing\nfrom .mid import mid\n",
     "from .mid import mid\n\n\nclass Top:\n    def __init__(self):\n        self.x = 0\n",
     "from .mid import mid\n\n\nclass Top:\n\n    def __init__(self):\n        self.x = mid\n        self.y = mid()\n", NULL},
    {"app.py", "from pkg.top import Top\n\n\nif __name__ == \"__main__\":\n    Top()\n",
     "import pkg.mid\n\n\ndef main():\n    pkg.mid.mid()\n", "from pkg.top import Top\n\n\nif __name__ == \"__main__\":\n    pass\n",
     "import pkg.mid\n\n\ndef main():\n    return pkg.mid._mid()\n", NULL},
    /* a subclass of an imported class: super() and inherited methods link across modules */
    {"pkg/sub.py", "from .top import Top\n\n\nclass Sub(Top):\n    def __init__(self):\n        super().__init__()\n",
     "from .top import Top\n\n\nclass Sub(Top):\n    pass\n\n\nSUB = Sub()\n",
     "from pkg.top import Top\n\n\nclass Sub(Top):\n    def again(self):\n        return self.__init__()\n",
     "from .mid import mid\n\n\nclass Sub:\n    def __init__(self):\n        self.v = mid()\n", NULL},
    {"tools/run.py", "from pkg.mid import mid\n\n\ndef _helper():\n    return mid()\n",
     "from pkg.mid import mid\n\n\ndef _helper():\n    return mid()\n\n\n_helper()\n",
     "from pkg.mid import mid\n\n\ndef _helper():\n    return 0\n\n\nprint(mid())\n",
     "import torch_npu.contrib.transfer_to_npu\nfrom pkg.mid import mid\n\n\nprint(mid())\n", NULL},
};
#define MT_NV (sizeof mt_variants / sizeof mt_variants[0])

static unsigned mt_texts(size_t f) {
  unsigned n = 0;
  while (n + 1 < 6 && mt_variants[f][n + 1]) n++;
  return n;
}

/* Random edit scripts over several files (seeded, so a failure repeats):
 * after each burst, every file's findings (related locations included) of
 * the incrementally updated model equal those of a model built from
 * scratch over the same texts. */
static char *mt_differential(uint32_t seed, int steps, unsigned absent_in) {
  char *err = NULL;
  unsigned state[MT_NV];
  Model *inc = model_new();
  memset(state, 0, sizeof state); /* 0 absent, k the k-th text */
  for (int step = 0; step < steps; step++) {
    seed = seed * 1103515245u + 12345u;
    size_t f = (seed >> 16) % MT_NV;
    unsigned to = (seed >> 8) % absent_in == 0 ? 0 : 1 + (seed >> 4) % mt_texts(f);
    state[f] = to;
    if (to == 0) model_remove_module(inc, mt_variants[f][0]);
    else mt_set(inc, mt_variants[f][0], mt_variants[f][to]);
    if (step % 3) continue; /* several edits between looks, like a burst of saves */
    MT now[MT_NV];
    size_t n = 0;
    for (size_t i = 0; i < MT_NV; i++)
      if (state[i]) now[n++] = (MT){mt_variants[i][0], mt_variants[i][state[i]]};
    Model *scratch = mt_model(now, n);
    char *a = mt_render(inc, now, n, true), *b = mt_render(scratch, now, n, true);
    ModelStats sa, sb;
    model_link(inc);
    model_link(scratch);
    model_stats(inc, &sa);
    model_stats(scratch, &sb);
    model_free(scratch);
    if (strcmp(a, b) != 0 || memcmp(&sa, &sb, sizeof sa) != 0) {
      err = xasprintf("step %d: incremental (%zu modules, %zu defs, %zu/%zu calls, %zu need CUDA, %zu unreachable, %zu broken)\n"
                      "%s\nfrom scratch (%zu modules, %zu defs, %zu/%zu calls, %zu need CUDA, %zu unreachable, %zu broken)\n%s",
                      step, sa.modules, sa.defs, sa.resolved_calls, sa.calls, sa.needs_cuda, sa.unreachable_defs,
                      sa.broken_modules, a, sb.modules, sb.defs, sb.resolved_calls, sb.calls, sb.needs_cuda,
                      sb.unreachable_defs, sb.broken_modules, b);
      free(a);
      free(b);
      break;
    }
    free(a);
    free(b);
  }
  model_free(inc);
  return err;
}

TEST(model_incremental_equals_scratch) {
  static const struct {
    uint32_t seed;
    int steps;
    unsigned absent_in;
  } runs[] = {{12345, 300, 3}, {777, 600, 12}, {4242, 600, 40}}; /* the last two: mostly body edits */
  for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
    char *err = mt_differential(runs[r].seed, runs[r].steps, runs[r].absent_in);
    if (err) TEST_FAIL("seed %u %s", runs[r].seed, err);
  }
}

TEST(model_pyfacts_defs_and_calls) {
  const char *text = "import os.path as osp\nfrom .u import helper as h\n__all__ = [\"A\"]\n\n\n@dec\nclass A(Base):\n"
                     "    def m(self):\n        def inner():\n            return h()\n        return super().m() + self.n()\n\n\n"
                     "if __name__ == \"__main__\":\n    osp.join(\"a\")\n";
  FindingList l = {0};
  FileFacts facts = {0};
  mt_analyze("pkg/x.py", text, &l, &facts);
  const PyFacts *f = facts.py;
  ASSERT(f != NULL);
  ASSERT_EQ(f->defs.len, 2);
  ASSERT_STR_EQ(f->defs.items[0].name, "A");
  ASSERT(f->defs.items[0].decorated);
  ASSERT_STR_EQ(f->defs.items[0].bases.items[0], "Base");
  ASSERT_STR_EQ(f->defs.items[1].name, "m");
  ASSERT_EQ(f->defs.items[1].cls, 0);
  ASSERT(f->has_all && f->all.len == 1);
  ASSERT(f->has_main);
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < f->calls.len; i++)
    sb_printf(&sb, "%s/%d/%d/%d;", f->calls.items[i].callee, f->calls.items[i].kind, f->calls.items[i].owner,
              f->calls.items[i].in_main);
  ASSERT_STR_EQ(sb.data, ".u.helper/0/1/0;m/3/1/0;super/1/1/0;n/2/1/0;os.path.join/0/-1/1;");
  sb_free(&sb);
  findings_free(&l);
  analyze_facts_free(&facts);
}

/* A method called through a name the function binds (`for b in ...:
 * b.place(d)`) is kept as a member call (kind 4), where a plain call of such
 * a name is dropped; the class a type test names is no mention. */
TEST(model_pyfacts_member_calls_and_type_tests) {
  const char *text = "from .blocks import Block, Buffer\n\n\ndef run(blocks, buf, d):\n    for b in blocks:\n"
                     "        b.place(d, x=1)\n    f = len\n    f(blocks)\n    if isinstance(buf, (Buffer, list)):\n"
                     "        return Block(d)\n";
  FindingList l = {0};
  FileFacts facts = {0};
  mt_analyze("pkg/x.py", text, &l, &facts);
  const PyFacts *f = facts.py;
  ASSERT(f != NULL);
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < f->calls.len; i++)
    sb_printf(&sb, "%s/%d/%u/%s;", f->calls.items[i].callee, f->calls.items[i].kind, f->calls.items[i].n_pos,
              f->calls.items[i].keywords ? f->calls.items[i].keywords : "");
  ASSERT_STR_EQ(sb.data, "b.place/4/1/x ;isinstance/1/2/;.blocks.Block/0/1/;");
  sb.len = 0;
  for (size_t i = 0; i < f->refs.len; i++)
    if (f->refs.items[i].owner == 0) sb_printf(&sb, "%s;", f->refs.items[i].name);
  ASSERT(strstr(sb.data, "Block;") && strstr(sb.data, "place;") && !strstr(sb.data, "Buffer;"));
  sb_free(&sb);
  findings_free(&l);
  analyze_facts_free(&facts);
}

/* A src/ layout with a namespace subpackage (no __init__.py in geo/): the
 * import resolves, the file is importable and its call site is found. */
TEST(model_src_layout_namespace_subpackage) {
  static const MT files[] = {
      {"src/app/__init__.py", ""},
      {"src/app/geo/rot.py", "import torch\n\n\ndef spin():\n    torch.cuda.synchronize()\n"},
      {"src/app/use.py", "from app.geo.rot import spin\nimport app.geo\n\n\ndef run():\n    return spin()\n"},
  };
  Model *m = mt_model(files, 3);
  char *got = mt_render(m, files, 3, false);
  ASSERT_STR_EQ(got, "src/app/geo/rot.py:5:5 warning ASC201 torch.cuda.synchronize\n"
                     "src/app/use.py:1:25 hint ASC803 spin() → torch.cuda.synchronize (src/app/geo/rot.py:5)\n"
                     "src/app/use.py:6:12 hint ASC801 spin() → torch.cuda.synchronize (src/app/geo/rot.py:5)\n");
  free(got);
  model_free(m);
}

/* A folder without __init__.py inside a package (ops/) is part of it:
 * its relative imports climb from the package; names inside a built
 * extension (`pkg._C.ops`) are unknown, not missing. Neither makes the
 * importing file unreachable. */
TEST(model_namespace_portion_and_extension_names) {
  static const MT files[] = {
      {"kit/__init__.py", ""},
      {"kit/utils.py", "def ceil_div(a, b):\n    return (a + b - 1) // b\n"},
      {"kit/ops/fused.py",
       "import torch\nfrom ..utils import ceil_div\nfrom kit._C.ops import gemm\n\n\ndef fused(x):\n"
       "    torch.cuda.synchronize()\n    return gemm(x, ceil_div(4, 2))\n"},
      {"kit/model.py", "from .ops.fused import fused\n\n\ndef run(x):\n    return fused(x)\n"},
  };
  Model *m = mt_model(files, 4);
  char *got = mt_render(m, files, 4, false);
  ASSERT_STR_EQ(got, "kit/ops/fused.py:7:5 warning ASC201 torch.cuda.synchronize\n"
                     "kit/model.py:1:24 hint ASC803 fused() → torch.cuda.synchronize (kit/ops/fused.py:7)\n"
                     "kit/model.py:5:12 hint ASC801 fused() → torch.cuda.synchronize (kit/ops/fused.py:7)\n");
  free(got);
  ModelStats st;
  model_stats(m, &st);
  ASSERT_EQ(st.broken_modules, 0);
  model_free(m);
}

/* What runs: a module nothing loads (imported by nobody, deeper than the
 * package's surface) is unreachable, its __main__ self-test included; a
 * function-local import loads its module, and importing `a.b.c` runs the
 * packages above it; a public function of a deeper module that nothing
 * calls is dead, one of a surface module (pkg/api.py) is the package's
 * API; a command-line module deep in the package is a script. */
TEST(model_loaded_modules_and_surface) {
  static const MT files[] = {
      {"srv/__init__.py", ""},
      {"srv/api.py", "import torch\n\n\ndef public_helper():\n    torch.cuda.synchronize()\n"},
      {"srv/router/__init__.py", "from .workers import start_workers\n"},
      {"srv/router/workers.py", "import torch\n\n\ndef start_workers():\n    torch.cuda.set_device(0)\n"},
      {"srv/router/manager.py",
       "import argparse\n\n\ndef main():\n    from .infer.rpc import serve\n    serve()\n\n\n"
       "if __name__ == \"__main__\":\n    argparse.ArgumentParser().parse_args()\n    main()\n"},
      {"srv/router/infer/__init__.py", ""},
      {"srv/router/infer/rpc.py",
       "import torch\n\n\ndef serve():\n    torch.cuda.utilization()\n\n\ndef unused():\n    torch.cuda.synchronize()\n"},
      {"srv/router/infer/old_kernel.py",
       "import torch\n\n\ndef old():\n    torch.cuda.synchronize()\n\n\nif __name__ == \"__main__\":\n    old()\n"},
  };
  Model *m = mt_model(files, 8);
  MT_EXPECT(m, files, 8,
             "srv/api.py:5:5 warning ASC201 torch.cuda.synchronize\n"
             "srv/router/__init__.py:1:22 hint ASC803 start_workers() → torch.cuda.set_device (srv/router/workers.py:5)\n"
             "srv/router/workers.py:5:5 warning ASC201 torch.cuda.set_device\n"
             "srv/router/manager.py:6:5 hint ASC801 serve() → torch.cuda.utilization (srv/router/infer/rpc.py:5)\n"
             "srv/router/infer/rpc.py:5:5 warning ASC201 torch.cuda.utilization\n"
             "srv/router/infer/rpc.py:9:5 hint ASC201 torch.cuda.synchronize unreachable\n"
             "srv/router/infer/old_kernel.py:5:5 hint ASC201 torch.cuda.synchronize unreachable\n");
  model_free(m);
}

/* A computed import (importlib.import_module(name)) or a configuration
 * loader (hydra's instantiate) could load any module: every module is
 * loaded then, and a deep module's code stays reachable. */
TEST(model_dynamic_loaders_load_everything) {
  static const MT files[] = {
      {"app/__init__.py", ""},
      {"app/build.py", "import hydra.utils as hyu\n\n\ndef build(cfg):\n    return hyu.instantiate(cfg.model)\n"},
      {"app/models/__init__.py", ""},
      {"app/models/heads/proj.py", "import torch\n\nSTREAM = torch.cuda.Stream()\n"},
  };
  Model *m = mt_model(files, 4);
  char *got = mt_render(m, files, 4, false);
  ASSERT_STR_EQ(got, "app/models/heads/proj.py:3:10 warning ASC208 torch.cuda.Stream\n");
  free(got);
  model_free(m);
}

/* With configurations naming targets in its folder, the same loader loads
 * what they name: the named class is an entry point, the other classes of
 * its module and the modules no configuration names never run; the same
 * targets again leave the model clean; removing the configuration (or its
 * folder) brings back "any module may load". */
TEST(model_configuration_targets_narrow_dynamic_loaders) {
  static const MT files[] = {
      {"app/__init__.py", ""},
      {"app/build.py", "import hydra.utils as hyu\n\n\ndef build(cfg):\n    return hyu.instantiate(cfg.model)\n"},
      {"app/models/__init__.py", ""},
      {"app/models/heads/proj.py", "import torch\n\nSTREAM = torch.cuda.Stream()\n"},
      {"app/models/nets.py",
       "import torch\n\n\nclass Used:\n    def __init__(self):\n        torch.cuda.synchronize()\n\n\n"
       "class Old:\n    def reset(self):\n        torch.cuda.utilization()\n"},
  };
  Model *m = mt_model(files, 5);
  char *targets = targets_scan("model:\n  _target_: app.models.nets.Used   # the net\n  depth: 1.5\n", 65);
  ASSERT_STR_EQ(targets, "app.models.nets.Used\n");
  model_set_config(m, "conf/model.yaml", NULL, targets);
  char *got = mt_render(m, files + 3, 2, false);
  ASSERT_STR_EQ(got, "app/models/heads/proj.py:3:10 hint ASC208 torch.cuda.Stream unreachable\n"
                     "app/models/nets.py:6:9 warning ASC201 torch.cuda.synchronize\n"
                     "app/models/nets.py:11:9 hint ASC201 torch.cuda.utilization unreachable\n");
  free(got);
  ASSERT(mt_first_says(m, &files[3], "no configuration names it (the computed import in app/build.py"));
  model_set_config(m, "conf/model.yaml", NULL, targets);
  ASSERT(!model_is_dirty(m));
  model_remove_under(m, "conf");
  got = mt_render(m, files + 3, 2, false);
  ASSERT_STR_EQ(got, "app/models/heads/proj.py:3:10 warning ASC208 torch.cuda.Stream\n"
                     "app/models/nets.py:6:9 warning ASC201 torch.cuda.synchronize\n"
                     "app/models/nets.py:11:9 warning ASC201 torch.cuda.utilization\n");
  free(got);
  free(targets);
  model_free(m);
}

/* A registry's computed import (not in a function that builds from a
 * configuration string) may still load any module of its folder, even in a
 * project whose configurations name targets. */
TEST(model_registry_loader_keeps_its_folder) {
  static const MT files[] = {
      {"app/__init__.py", ""},
      {"app/build.py", "import importlib\n\n\ndef get_obj_from_str(s):\n    m, c = s.rsplit('.', 1)\n"
                       "    return getattr(importlib.import_module(m), c)\n"},
      {"app/registry.py", "import importlib\n\n\nclass Entry:\n    def load_model_cls(self):\n"
                          "        return importlib.import_module(self.module_name)\n"},
      {"app/models/__init__.py", ""},
      {"app/models/heads/proj.py", "import torch\n\nSTREAM = torch.cuda.Stream()\n"},
  };
  Model *m = mt_model(files, 5);
  model_set_config(m, "conf/model.yaml", NULL, "app.build.get_obj_from_str\n");
  char *got = mt_render(m, files + 4, 1, false);
  ASSERT_STR_EQ(got, "app/models/heads/proj.py:3:10 warning ASC208 torch.cuda.Stream\n");
  free(got);
  model_free(m);
}

/* A library copy inside the project's own package (a known library's name
 * below its top package): its registering decorators and its __init__
 * re-exports are no uses; what the project's code calls runs. */
TEST(model_nested_library_copy) {
  static const MT files[] = {
      {"annotator/seg/__init__.py", "from annotator.seg.mmcv.runner import get_rank\n\n\n"
                                    "def detect(x):\n    return get_rank()\n"},
      {"annotator/seg/mmcv/__init__.py", ""},
      {"annotator/seg/mmcv/runner/__init__.py",
       "from .dist import get_rank, init_dist\nfrom .hooks import EmptyCacheHook\n\n__all__ = ['init_dist', 'EmptyCacheHook']\n"},
      {"annotator/seg/mmcv/runner/dist.py",
       "import torch\n\n\ndef init_dist():\n    torch.cuda.set_device(0)\n\n\ndef get_rank():\n    return torch.cuda.current_device()\n"},
      {"annotator/seg/mmcv/runner/hooks.py",
       "import torch\n\nHOOKS = {}\n\n\n@HOOKS.register_module()\nclass EmptyCacheHook:\n    def after_epoch(self):\n"
       "        torch.cuda.utilization()\n"},
      {"run.py", "from annotator.seg import detect\n\nif __name__ == '__main__':\n    detect(1)\n"},
  };
  Model *m = mt_model(files, 6);
  char *got = mt_render(m, files + 3, 2, false);
  ASSERT_STR_EQ(got, "annotator/seg/mmcv/runner/dist.py:5:5 hint ASC201 torch.cuda.set_device unreachable\n"
                     "annotator/seg/mmcv/runner/dist.py:9:12 warning ASC201 torch.cuda.current_device\n"
                     "annotator/seg/mmcv/runner/hooks.py:9:9 hint ASC201 torch.cuda.utilization unreachable\n");
  free(got);
  model_free(m);
}

/* The scanner reads the values of the target keys only: dotted names, not
 * paths, numbers or keys that merely end in "target". */
TEST(targets_scan_values) {
  static const char yaml[] = "a:\n  target: sgm.modules.GeneralConditioner\n  - \"class_path\": 'pl.Model'\n"
                             "  cond_stage_target: x.y\n  target: ./data/x.py\n  target: 1.5\n  target: torch\n"
                             "  _target_ : hydra.utils.get_class\n  target:a.b}\n#  target: old.Model\n  # target: old.Net\n";
  char *t = targets_scan(yaml, sizeof yaml - 1);
  ASSERT_STR_EQ(t, "sgm.modules.GeneralConditioner\npl.Model\nhydra.utils.get_class\na.b\n");
  free(t);
  ASSERT(targets_scan("x: 1\n", 5) == NULL);
  ASSERT(targets_config_path("configs/a.yaml") && targets_config_path("b.yml"));
  ASSERT(!targets_config_path("environment.yml") && !targets_config_path("a.json"));
}

/* `self.attn = Attention()` in __init__, then `self.attn(x)`: the call is
 * the instance's forward; an attribute assigned outside __init__ or never
 * assigned a project class resolves to nothing. */
TEST(model_self_attribute_calls) {
  static const MT files[] = {
      {"net/__init__.py", ""},
      {"net/attention.py", "from flash_attn import flash_attn_func\n\n\nclass Attention:\n    def forward(self, q):\n"
                           "        return flash_attn_func(q, q, q)\n"},
      {"net/block.py", "from .attention import Attention\n\n\nclass Block:\n    def __init__(self):\n"
                       "        self.attn = Attention()\n        self.scale = float(2)\n\n    def forward(self, x):\n"
                       "        return self.attn(x) * self.scale(x)\n\n    def later(self, x):\n"
                       "        self.late = Attention()\n        return self.late(x)\n"},
  };
  Model *m = mt_model(files, 3);
  char *out = mt_render(m, files + 2, 1, false);
  ASSERT_STR_EQ(out, "net/block.py:1:24 hint ASC803 Attention → Attention.forward() → flash_attn_func (net/attention.py:6)\n"
                     "net/block.py:6:21 hint ASC802 Attention → Attention.forward() → flash_attn_func (net/attention.py:6)\n"
                     "net/block.py:10:16 hint ASC801 Attention.forward() → flash_attn_func (net/attention.py:6)\n"
                     "net/block.py:13:21 hint ASC802 Attention → Attention.forward() → flash_attn_func (net/attention.py:6)\n");
  free(out);
  /* Block.forward itself now needs CUDA: hover at self.attn shows the chain */
  const char *block = files[2].text;
  char *chain = model_chain_at(m, "net/block.py", (uint32_t)(strstr(block, "self.attn(x)") - block));
  ASSERT_STR_EQ(chain, "Attention.forward() → flash_attn_func (net/attention.py:6)");
  free(chain);
  model_free(m);
}

/* Many definitions, each naming a few things, then module code naming more:
 * the names of module code are deduplicated in a set that definitions'
 * names outgrow (a file of 400 functions once made that set's rebuild spin). */
TEST(model_pyfacts_many_definitions) {
  StrBuf t;
  sb_init(&t);
  sb_puts(&t, "import torch\n\n\n");
  for (int i = 0; i < 400; i++) sb_printf(&t, "def f%d(x):\n    return torch.relu(x) + g%d(x) + h%d\n\n\n", i, i, i);
  for (int i = 0; i < 400; i++) sb_printf(&t, "v%d = f%d(1)\nprint(v%d, f%d)\n", i, i, i, i);
  FindingList l = {0};
  FileFacts facts = {0};
  mt_analyze("pkg/many.py", t.data, &l, &facts);
  ASSERT(facts.py != NULL);
  ASSERT_EQ(facts.py->defs.len, 400);
  /* every (owner, name) once: g<i> and h<i> by definition i, v<i> and f<i> by the module code */
  for (size_t i = 0; i < facts.py->refs.len; i++)
    for (size_t k = i + 1; k < facts.py->refs.len; k++)
      ASSERT(facts.py->refs.items[i].owner != facts.py->refs.items[k].owner ||
             strcmp(facts.py->refs.items[i].name, facts.py->refs.items[k].name) != 0);
  for (int i = 0; i < 400; i += 57) {
    char g[16], v[16], f[16];
    snprintf(g, sizeof g, "g%d", i);
    snprintf(v, sizeof v, "v%d", i);
    snprintf(f, sizeof f, "f%d", i);
    int has_g = 0, has_v = 0, has_f = 0;
    for (size_t k = 0; k < facts.py->refs.len; k++) {
      const PyRef *r = &facts.py->refs.items[k];
      has_g += r->owner == i && strcmp(r->name, g) == 0;
      has_v += r->owner == PYREF_MODULE && strcmp(r->name, v) == 0;
      has_f += r->owner == PYREF_MODULE && strcmp(r->name, f) == 0;
    }
    ASSERT_EQ(has_g, 1);
    ASSERT_EQ(has_v, 1);
    ASSERT_EQ(has_f, 1);
  }
  findings_free(&l);
  analyze_facts_free(&facts);
  free(t.data);
}
