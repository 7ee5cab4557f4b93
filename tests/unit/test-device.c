/* Unit tests of the torch.cuda.is_available() guard folding (the device
 * detector): in every form of guard, the safe fixes of what it guards
 * change the guard too, so that fix-all never leaves a rewritten call
 * behind a CUDA test that is False on the NPU. Exact rewritten texts. */
#include "tests/unit/test.h"

#include <stdlib.h>

#include "analyzers/engine/analyze.h"
#include "server/fixes.h"

/* The findings of src as t.py with the default options, into *l (the
 * caller frees them). */
static void dev_t__analyze(const char *src, FindingList *l) {
  AnalyzeOptions o;
  analyze_options_default(&o);
  analyze_text("t.py", src, strlen(src), NULL, &o, l, NULL);
}

/* The text after the safe fixes of src (a copy of src when none apply);
 * *n_findings gets the number of findings. Caller frees. */
static char *dev_t__fixed(const char *src, size_t *n_findings) {
  FindingList l = {0};
  dev_t__analyze(src, &l);
  *n_findings = l.len;
  size_t n;
  char *r = fixes_apply(src, strlen(src), &l, false, &n, NULL);
  findings_free(&l);
  return r ? r : xstrdup(src);
}

#define ASSERT_FIXED(src, want, findings)                                                                   \
  do {                                                                                                      \
    size_t nf_;                                                                                             \
    char *got_ = dev_t__fixed(src, &nf_);                                                                   \
    ASSERT_STR_EQ(got_, want);                                                                              \
    ASSERT_EQ(nf_, (size_t)(findings));                                                                     \
    free(got_);                                                                                             \
  } while (0)

TEST(device_guard_alias_one_line_is_one_finding) {
  ASSERT_FIXED("import torch as th\nif th.cuda.is_available(): th.cuda.empty_cache()\n",
               "import torch as th\nimport torch_npu\nif th.npu.is_available(): th.npu.empty_cache()\n", 1);
}

TEST(device_guard_from_torch_import_cuda) {
  ASSERT_FIXED("from torch import cuda\n\n\ndef free():\n    if cuda.is_available():\n        cuda.empty_cache()\n",
               "import torch_npu\nfrom torch import npu as cuda\n\n\ndef free():\n    if cuda.is_available():\n"
               "        cuda.empty_cache()\n", 1);
}

TEST(device_guard_conditional_expression_alias) {
  ASSERT_FIXED("import torch as th\ndevice = th.device(\"cuda:0\" if th.cuda.is_available() else \"cpu\")\n",
               "import torch as th\nimport torch_npu\ndevice = th.device(\"npu:0\" if th.npu.is_available() else \"cpu\")\n",
               1);
}

/* With an else branch the guard and the CUDA branch are one item (a backend
 * selection), carried by the branch's call, whose safe fix rewrites the
 * test too. */
TEST(device_guard_with_else_is_rewritten_with_its_branch) {
  ASSERT_FIXED("import torch as th\nif th.cuda.is_available():\n    th.cuda.utilization()\nelse:\n    pass\n",
               "import torch as th\nimport torch_npu\nif th.npu.is_available():\n    th.npu.utilization()\nelse:\n"
               "    pass\n", 1);
}

/* a guard around other statements and a call with a finding: one work item,
 * the call's finding, whose fix changes the guard too */
TEST(device_guard_around_other_statements) {
  ASSERT_FIXED("import os\nimport torch as th\nif th.cuda.is_available():\n    os.environ[\"X\"] = \"1\"\n"
               "    th.cuda.empty_cache()\n",
               "import os\nimport torch as th\nimport torch_npu\nif th.npu.is_available():\n    os.environ[\"X\"] = \"1\"\n"
               "    th.npu.empty_cache()\n", 1);
}

TEST(device_guard_every_guarded_call_carries_the_guard) {
  /* the calls of one guarded branch are one item, whose quick fix changes the guard too */
  const char *src = "import torch\ndef f():\n    if torch.cuda.is_available():\n        torch.cuda.set_device(0)\n"
                    "        torch.cuda.manual_seed_all(0)\n";
  FindingList l = {0};
  dev_t__analyze(src, &l);
  ASSERT_EQ(l.len, 1);
  ASSERT_EQ(l.items[0].related.len, 1);
  size_t n;
  char *r = fixes_apply(src, strlen(src), &l, false, &n, NULL);
  ASSERT_STR_EQ(r, "import torch\nimport torch_npu\ndef f():\n    if torch.npu.is_available():\n"
                   "        torch.npu.set_device(0)\n        torch.npu.manual_seed_all(0)\n");
  free(r);
  findings_free(&l);
}

/* a guarded branch that only keeps house is skipped on the NPU: hints */
TEST(device_guard_of_housekeeping_is_hint) {
  const char *src = "import torch\ndef f():\n    if torch.cuda.is_available():\n        torch.cuda.synchronize()\n"
                    "        torch.cuda.empty_cache()\n";
  FindingList l = {0};
  dev_t__analyze(src, &l);
  ASSERT_EQ(l.len, 2);
  for (size_t i = 0; i < l.len; i++) {
    ASSERT_EQ(l.items[i].severity, SEV_HINT);
    ASSERT(strstr(l.items[i].message, "[skipped on the NPU with its guard") != NULL);
  }
  findings_free(&l);
}

TEST(device_guard_and_expression) {
  ASSERT_FIXED("import torch as th\nth.cuda.is_available() and th.cuda.empty_cache()\n",
               "import torch as th\nimport torch_npu\nth.npu.is_available() and th.npu.empty_cache()\n", 1);
}

TEST(device_guard_negated_with_else) {
  ASSERT_FIXED("import torch as th\nif not th.cuda.is_available():\n    pass\nelse:\n    th.cuda.empty_cache()\n",
               "import torch as th\nimport torch_npu\nif not th.npu.is_available():\n    pass\nelse:\n"
               "    th.npu.empty_cache()\n", 2);
}

/* the rest of the function after the exit is the test's branch: one item,
 * both edits */
TEST(device_guard_early_exit) {
  ASSERT_FIXED("import torch as th\ndef f():\n    if not th.cuda.is_available():\n        return\n"
               "    th.cuda.utilization()\n",
               "import torch as th\nimport torch_npu\ndef f():\n    if not th.npu.is_available():\n        return\n"
               "    th.npu.utilization()\n", 1);
}

/* the flags keep their hint (ASC207); the guard is no finding */
TEST(device_guard_of_flags_only_is_no_finding) {
  ASSERT_FIXED("import torch\nif torch.cuda.is_available():\n    torch.backends.cuda.matmul.allow_tf32 = True\n",
               "import torch\nif torch.cuda.is_available():\n    torch.backends.cuda.matmul.allow_tf32 = True\n", 1);
}

/* A name that holds the test is the guard wherever it is tested. */
TEST(device_guard_through_a_flag_variable) {
  ASSERT_FIXED("import torch as th\nuse_cuda = th.cuda.is_available()\nif use_cuda:\n    th.cuda.empty_cache()\n"
               "device = \"cuda\" if use_cuda else \"cpu\"\n",
               "import torch as th\nimport torch_npu\nuse_cuda = th.npu.is_available()\nif use_cuda:\n"
               "    th.npu.empty_cache()\ndevice = \"npu\" if use_cuda else \"cpu\"\n", 3);
  ASSERT_FIXED("import torch\ndef run(args):\n    cuda = not args.cpu and torch.cuda.is_available()\n"
               "    if cuda:\n        torch.cuda.synchronize()\n",
               "import torch\nimport torch_npu\ndef run(args):\n    cuda = not args.cpu and torch.npu.is_available()\n"
               "    if cuda:\n        torch.npu.synchronize()\n", 2);
}

/* Code skipped unless CUDA is available runs its rewritten body on the NPU
 * only when its condition changes too. (In tests the body's findings are
 * not reported, so nothing there is rewritten: the condition stays.) */
TEST(device_guard_skip_decorators) {
  ASSERT_FIXED("import unittest\nimport torch\n\n\n@unittest.skipUnless(torch.cuda.is_available(), \"GPU\")\n"
               "def check_gpu():\n    torch.cuda.synchronize()\n",
               "import unittest\nimport torch\nimport torch_npu\n\n\n@unittest.skipUnless(torch.npu.is_available(), \"GPU\")\n"
               "def check_gpu():\n    torch.npu.synchronize()\n", 2);
  ASSERT_FIXED("import pytest\nimport torch\n\n\n@pytest.mark.skipif(not torch.cuda.is_available(), reason=\"GPU\")\n"
               "def check_gpu():\n    torch.cuda.synchronize()\n",
               "import pytest\nimport torch\nimport torch_npu\n\n\n@pytest.mark.skipif(not torch.npu.is_available(), reason=\"GPU\")\n"
               "def check_gpu():\n    torch.npu.synchronize()\n", 2);
  const char *test = "import unittest\nimport torch\n\n\nclass T(unittest.TestCase):\n"
                     "    @unittest.skipIf(not torch.cuda.is_available(), \"needs a GPU\")\n"
                     "    def test_gpu(self):\n        torch.cuda.synchronize()\n";
  ASSERT_FIXED(test, test, 1);
}

/* A project path naming another device's backend gives way to one ASC002
 * hint; an absolute path (a file outside any project) says nothing about
 * the project, whatever folder the checkout sits in. */
TEST(device_other_device_path_is_project_relative) {
  const char *src = "import torch\ntorch.cuda.synchronize()\n";
  AnalyzeOptions o;
  analyze_options_default(&o);
  FindingList l = {0};
  analyze_text("quant/backends/xpu/ops.py", src, strlen(src), NULL, &o, &l, NULL);
  ASSERT_EQ(l.len, (size_t)1);
  ASSERT_STR_EQ(l.items[0].rule->code, "ASC002");
  findings_free(&l);
  analyze_text("/home/dev/xpu-lab/ops.py", src, strlen(src), NULL, &o, &l, NULL);
  ASSERT_EQ(l.len, (size_t)1);
  ASSERT_STR_EQ(l.items[0].rule->code, "ASC201");
  findings_free(&l);
}
