/* Unit tests for server/resultcodec.c: a file's results survive the trip
 * through the disk cache's encoding exactly (encoding the decoded results
 * gives the same bytes), and no truncation or corruption of an encoding
 * decodes. */
#include "tests/unit/test.h"

#include <stdlib.h>

#include "analyzers/engine/reach_facts.h"
#include "analyzers/python/pyfacts.h"
#include "server/resultcodec.h"

static const char PY_TEXT[] =
    "import os\n"
    "import torch\n"
    "from .ops import fused_norm as _norm\n"
    "try:\n"
    "    from flash_attn import flash_attn_func\n"
    "except ImportError:\n"
    "    flash_attn_func = None\n"
    "__all__ = [\"Block\", \"helper\"]\n"
    "\n"
    "\n"
    "def helper(x):  # a comment\n"
    "    return x.cuda()\n"
    "\n"
    "\n"
    "class Block(torch.nn.Module):\n"
    "    def __init__(self, dim, use_fast=False):\n"
    "        super().__init__()\n"
    "        self.norm = _norm(dim)\n"
    "        self.is_fast = use_fast\n"
    "\n"
    "    def forward(self, q, k, v):\n"
    "        torch.cuda.synchronize()\n"
    "        if self.is_fast and q.is_cuda:\n"
    "            from .fast import kernel\n"
    "            return kernel(q, k, v)\n"
    "        return flash_attn_func(q, k, v) if flash_attn_func else self.norm(q)\n"
    "\n"
    "\n"
    "def build(dim, use_fast=False):\n"
    "    return Block(dim, use_fast=use_fast)\n"
    "\n"
    "\n"
    "if __name__ == \"__main__\":\n"
    "    print(helper(torch.zeros(2, device=\"cuda:0\")), \"\\u00e9t\\u00e9\")\n";

static const char CU_TEXT[] =
    "#include <cuda_runtime.h>\n"
    "#include <torch/extension.h>\n"
    "#define USE_OLD 0\n"
    "__global__ void scale_kernel(float *x, int n) { x[threadIdx.x] *= 2.0f; }\n"
    "#if USE_OLD\n"
    "__global__ void old_kernel(float *x) { x[0] = 0; }\n"
    "#endif\n"
    "static void unused(float *x) { old_kernel<<<1, 1>>>(x); }\n"
    "void scale(torch::Tensor t) {\n"
    "  TORCH_CHECK(t.is_cuda());\n"
    "  scale_kernel<<<1, 32, 0, at::cuda::getCurrentCUDAStream()>>>(t.data_ptr<float>(), 32);\n"
    "}\n"
    "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def(\"scale\", &scale); }\n";

/* The encoding of path's analysis, with its reach facts and (as the project
 * model leaves them) a chain with the definition it is in. */
static void rct_encode(const char *path, const char *text, StrBuf *out, AnalyzeOptions *o) {
  FindingList l = {0};
  FileFacts facts = {0};
  analyze_text(path, text, strlen(text), NULL, o, &l, &facts);
  facts.reach = reach_facts_scan(context_file_kind(path), text, strlen(text));
  if (l.len) {
    Finding chain = finding_copy(&l.items[0]);
    chain.scope = xstrdup("Block.forward");
    array_push(&facts.chains, chain);
  }
  rc_encode(&l, &facts, out);
  findings_free(&l);
  analyze_facts_free(&facts);
}

static void rct_round_trip(int *test__failed, const char *path, const char *text) {
  AnalyzeOptions o;
  analyze_options_default(&o);
  StrBuf a, b;
  sb_init(&a);
  sb_init(&b);
  rct_encode(path, text, &a, &o);
  FindingList l = {0};
  FileFacts facts = {0};
  int rc = rc_decode(a.data, a.len, &o, &l, &facts);
  if (rc == 0) rc_encode(&l, &facts, &b);
  bool same = rc == 0 && a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
  bool found = l.len > 0 && facts.reach && facts.reach->words.len > 0 && facts.chains.len == 1 &&
               facts.chains.items[0].scope && strcmp(facts.chains.items[0].scope, "Block.forward") == 0;
  /* the switches: a parameter stored in an attribute, its gate, a gated import, one passed on */
  size_t switches = 0;
  const PyFacts *pf = facts.py;
  for (size_t i = 0; pf && i < pf->defs.len; i++) {
    for (size_t k = 0; k < pf->defs.items[i].params.len; k++)
      switches += pf->defs.items[i].params.items[k].attr && strcmp(pf->defs.items[i].params.items[k].attr, "is_fast") == 0;
  }
  for (size_t i = 0; pf && i < pf->gates.len; i++) switches += pf->gates.items[i].self && strcmp(pf->gates.items[i].name, "is_fast") == 0;
  for (size_t i = 0; pf && i < pf->forwards.len; i++) switches += strcmp(pf->forwards.items[i].pairs, "use_fast=use_fast ") == 0;
  if (strstr(path, ".py")) found = found && switches == 3 && pf->gated.len == 2 && strcmp(pf->gated.items[0].module, ".fast") == 0;
  findings_free(&l);
  analyze_facts_free(&facts);
  sb_free(&a);
  sb_free(&b);
  ASSERT_EQ(rc, 0);
  ASSERT(found);
  ASSERT(same);
}

TEST(resultcodec_python_round_trip) { rct_round_trip(test__failed, "pkg/block.py", PY_TEXT); }

TEST(resultcodec_cxx_round_trip) { rct_round_trip(test__failed, "csrc/scale.cu", CU_TEXT); }

/* Every proper prefix, and every single-byte change, either fails to
 * decode or decodes to something that encodes again (never a crash or a
 * leak: the suite runs under ASan). */
TEST(resultcodec_truncated_or_corrupt) {
  AnalyzeOptions o;
  analyze_options_default(&o);
  StrBuf a;
  sb_init(&a);
  rct_encode("pkg/block.py", PY_TEXT, &a, &o);
  size_t accepted = 0;
  for (size_t n = 0; n < a.len; n++) {
    FindingList l = {0};
    FileFacts facts = {0};
    if (rc_decode(a.data, n, &o, &l, &facts) == 0) accepted++;
    findings_free(&l);
    analyze_facts_free(&facts);
  }
  for (size_t i = 0; i < a.len; i += 7) {
    char *c = xmalloc(a.len);
    memcpy(c, a.data, a.len);
    c[i] ^= 0x5A;
    FindingList l = {0};
    FileFacts facts = {0};
    if (rc_decode(c, a.len, &o, &l, &facts) == 0) {
      StrBuf b;
      sb_init(&b);
      rc_encode(&l, &facts, &b);
      sb_free(&b);
    }
    findings_free(&l);
    analyze_facts_free(&facts);
    free(c);
  }
  sb_free(&a);
  ASSERT_EQ(accepted, 0);
}
