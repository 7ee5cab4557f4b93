/* Unit tests of the attention, distributed, precision and compilation
 * analyzers: small sources through analyze_text, and their fixes applied
 * with fixes_apply to check the exact rewritten text. */
#include "tests/unit/test.h"

#include <stdlib.h>

#include "analyzers/engine/analyze.h"
#include "server/fixes.h"

/* Analyzes src as "t.py" with the options, keeping only codes with `prefix`. */
static void attn_t__run(const char *src, const AnalyzeOptions *opt, FindingList *out) {
  analyze_text("t.py", src, strlen(src), NULL, opt, out, NULL);
}

static size_t attn_t__count(const FindingList *l, const char *code) {
  size_t n = 0;
  for (size_t i = 0; i < l->len; i++)
    if (strcmp(l->items[i].rule->code, code) == 0) n++;
  return n;
}

static const Finding *attn_t__find(const FindingList *l, const char *code) {
  for (size_t i = 0; i < l->len; i++)
    if (strcmp(l->items[i].rule->code, code) == 0) return &l->items[i];
  return NULL;
}

/* Applies the unsafe fixes of the selected findings (caller frees). */
static char *attn_t__fixed(const char *src, const AnalyzeOptions *opt, const char *select) {
  AnalyzeOptions o = *opt;
  const char *sel[] = {select};
  o.select = sel;
  o.n_select = 1;
  FindingList l = {0};
  attn_t__run(src, &o, &l);
  size_t n;
  char *r = fixes_apply(src, strlen(src), &l, true, &n, NULL);
  findings_free(&l);
  return r;
}

TEST(attention_fa2_causal_training_fix) {
  const char *src = "import torch\n"
                    "from flash_attn import flash_attn_func\n"
                    "\n"
                    "def attend(q, k, v):\n"
                    "    return flash_attn_func(q, k, v, 0.1, causal=True)\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  char *fixed = attn_t__fixed(src, &opt, "ASC301");
  ASSERT_STR_EQ(fixed, "import torch\n"
                       "import torch_npu\n"
                       "from flash_attn import flash_attn_func\n"
                       "\n"
                       "def attend(q, k, v):\n"
                       "    return torch_npu.npu_fusion_attention(q, k, v, q.shape[2], input_layout=\"BSND\", "
                       "scale=q.shape[-1] ** -0.5, keep_prob=1.0 - 0.1, atten_mask=torch.triu(torch.ones(2048, 2048, "
                       "dtype=torch.bool, device=q.device), diagonal=1), sparse_mode=3)[0]\n");
  free(fixed);
}

TEST(attention_fa2_layout_and_no_next_tockens) {
  const char *src = "import torch\nimport flash_attn\n"
                    "def f(q, k, v, c):\n    return flash_attn.flash_attn_func(q, k, v, causal=c)\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  FindingList l = {0};
  attn_t__run(src, &opt, &l);
  const Finding *f = attn_t__find(&l, "ASC301");
  ASSERT(f != NULL);
  ASSERT_STR_EQ(f->detail, "layout BSND");
  ASSERT(f->fix == FIX_UNSAFE);
  ASSERT(strstr(f->replacement, "if c else None, sparse_mode=3 if c else 0") != NULL);
  ASSERT(strstr(f->replacement, "next_tockens") == NULL);
  /* the import goes with the call that uses the module: a site of its item */
  ASSERT_EQ(attn_t__count(&l, "ASC308"), 0);
  ASSERT_EQ(f->related.len, 1);
  ASSERT_EQ(f->related.items[0].start_row, 1);
  findings_free(&l);
}

TEST(attention_inference_uses_fused_infer) {
  const char *src = "import torch\nfrom flash_attn import flash_attn_func\n"
                    "def helper(q, k, v):\n    return flash_attn_func(q, k, v)\n"
                    "@torch.no_grad()\ndef sample(q, k, v):\n    return helper(q, k, v)\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  FindingList l = {0};
  attn_t__run(src, &opt, &l);
  const Finding *f = attn_t__find(&l, "ASC301");
  ASSERT(f != NULL);
  ASSERT(f->inference_only);
  ASSERT(strstr(f->replacement, "torch_npu.npu_fused_infer_attention_score(q, k, v, num_heads=q.shape[2]") != NULL);
  ASSERT_EQ(attn_t__count(&l, "ASC309"), 1); /* helper() wraps it */
  findings_free(&l);
}

TEST(attention_mindiesd_profile) {
  const char *src = "import torch\nfrom flash_attn import flash_attn_func\n"
                    "def run(q, k, v):\n    with torch.inference_mode():\n        return flash_attn_func(q, k, v)\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  opt.mindiesd = true;
  char *fixed = attn_t__fixed(src, &opt, "ASC301");
  ASSERT(fixed != NULL);
  ASSERT(strstr(fixed, "import mindiesd\n") != NULL);
  ASSERT(strstr(fixed, "mindiesd.attention_forward(q, k, v, head_first=False, opt_mode=\"manual\", "
                       "op_type=\"ascend_laser_attention\")") != NULL);
  free(fixed);
}

TEST(attention_guarded_fallback) {
  const char *src = "import torch\ntry:\n    import flash_attn\n    HAS_FA = True\nexcept ImportError:\n"
                    "    HAS_FA = False\n"
                    "def f(q, k, v):\n    if HAS_FA:\n        return flash_attn.flash_attn_func(q, k, v)\n"
                    "    return torch.nn.functional.scaled_dot_product_attention(q, k, v)\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  FindingList l = {0};
  attn_t__run(src, &opt, &l);
  const Finding *f = attn_t__find(&l, "ASC301");
  ASSERT(f != NULL && f->guarded);
  ASSERT(strstr(f->message, "[guarded: a fallback exists]") != NULL);
  const Finding *s = attn_t__find(&l, "ASC306");
  ASSERT(s != NULL && s->severity == SEV_HINT);
  ASSERT_STR_EQ(s->detail, "layout BNSD");
  findings_free(&l);
}

TEST(attention_handwritten_span) {
  const char *src = "import torch\n"
                    "def attn(q, k, v):\n"
                    "    s = torch.matmul(q, k.transpose(-2, -1)) / 8\n"
                    "    p = s.softmax(dim=-1)\n"
                    "    return p @ v\n"
                    "def linear(x, w):\n"
                    "    return (x @ w.t()).softmax(-1) @ w\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  FindingList l = {0};
  attn_t__run(src, &opt, &l);
  ASSERT_EQ(attn_t__count(&l, "ASC304"), 1);
  const Finding *f = attn_t__find(&l, "ASC304");
  ASSERT_EQ(f->start_row, 2);
  ASSERT_EQ(f->end_row, 4);
  ASSERT_STR_EQ(f->detail, "layout BNSD");
  findings_free(&l);
}

TEST(precision_rms_norm_fix_and_no_flood) {
  const char *src = "import torch\nimport torch.nn as nn\n"
                    "class RMSNorm(nn.Module):\n"
                    "    def forward(self, x):\n"
                    "        return self._norm(x.float()).type_as(x) * self.weight\n"
                    "    def _norm(self, x):\n"
                    "        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)\n"
                    "def load(path):\n"
                    "    batch = torch.load(path).float()\n"
                    "    print(batch.float().mean())\n"
                    "    return batch\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  FindingList l = {0};
  attn_t__run(src, &opt, &l);
  ASSERT_EQ(attn_t__count(&l, "ASC603"), 1);
  findings_free(&l);
  char *fixed = attn_t__fixed(src, &opt, "ASC603");
  ASSERT(fixed != NULL);
  ASSERT(strstr(fixed, "        return torch_npu.npu_rms_norm(x, self.weight, epsilon=self.eps)[0]\n") != NULL);
  free(fixed);
}

TEST(precision_bf16_only_on_chips_without_it) {
  const char *src = "import torch\nx = torch.zeros(2, dtype=torch.bfloat16)\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  FindingList l = {0};
  attn_t__run(src, &opt, &l);
  ASSERT_EQ(attn_t__count(&l, "ASC605"), 0);
  findings_free(&l);
  opt.chip = CHIP_310P;
  attn_t__run(src, &opt, &l);
  ASSERT_EQ(attn_t__count(&l, "ASC605"), 1);
  findings_free(&l);
}

TEST(precision_complex_rope) {
  const char *src = "import torch\n"
                    "def rope(n, d):\n"
                    "    f = torch.outer(torch.arange(n), torch.arange(d).to(torch.float64))\n"
                    "    return torch.polar(torch.ones_like(f), f)\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  char *fixed = attn_t__fixed(src, &opt, "ASC602");
  ASSERT(fixed != NULL);
  ASSERT(strstr(fixed, "torch.polar(torch.ones_like(f), f).to(torch.complex64)\n") != NULL);
  free(fixed);
  fixed = attn_t__fixed("import torch\ny = torch.arange(3, device=\"cuda\").double()\n", &opt, "ASC601");
  ASSERT_STR_EQ(fixed, "import torch\ny = torch.arange(3, device=\"cuda\").float()\n");
  free(fixed);
}

/* float64 is a finding where it can reach the device, not where it stays on
 * the host or is handed to a helper that picks the dtype per device. */
TEST(precision_float64_off_device) {
  const char *src = "import torch\n"
                    "def sigmas(n, device):\n"
                    "    s = torch.linspace(1, 0, n, dtype=torch.float64)\n" /* host, cast on the move */
                    "    return s.to(device, dtype=torch.float32)\n"
                    "def positions(n, device):\n"
                    "    pos = torch.arange(n, dtype=torch.float64)\n" /* host, moved as float64: line 6 */
                    "    return pos.to(device)\n"
                    "def rope(dim, pos):\n"
                    "    dtype = pick_dtype_for_device(torch.float64, pos.device)\n" /* the helper decides */
                    "    with torch.device(\"cpu\"):\n"
                    "        t = torch.arange(dim, device=pos.device, dtype=torch.float64)\n" /* host block */
                    "    f = torch.arange(dim, dtype=torch.float64, device=\"cpu\")\n" /* explicit host */
                    "    return torch.outer(t, f).float()\n"
                    "def logits(n):\n"
                    "    x = torch.rand(n)\n"
                    "    return x.double().softmax(-1).float()\n" /* a host tensor's .double() */
                    "def guidance(v):\n"
                    "    return v.double()\n"; /* unknown receiver: line 18 */
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  FindingList l = {0};
  attn_t__run(src, &opt, &l);
  ASSERT_EQ(attn_t__count(&l, "ASC601"), 2);
  uint32_t rows[2];
  for (size_t i = 0, k = 0; i < l.len; i++)
    if (strcmp(l.items[i].rule->code, "ASC601") == 0) rows[k++] = l.items[i].start_row;
  ASSERT_EQ(rows[0], 5);
  ASSERT_EQ(rows[1], 17);
  findings_free(&l);
}

TEST(distributed_backend_fixes) {
  const char *src = "import torch.distributed as dist\n"
                    "dist.init_process_group(\"cuda:nccl,cpu:gloo\")\n"
                    "ok = dist.get_backend() == \"nccl\"\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  AnalyzeOptions o = opt;
  const char *sel[] = {"ASC5"};
  o.select = sel;
  o.n_select = 1;
  FindingList l = {0};
  attn_t__run(src, &o, &l);
  size_t n;
  char *fixed = fixes_apply(src, strlen(src), &l, false, &n, NULL); /* safe fixes only */
  ASSERT_STR_EQ(fixed, "import torch.distributed as dist\n"
                       "dist.init_process_group(\"npu:hccl,cpu:gloo\")\n"
                       "ok = dist.get_backend() == \"hccl\"\n");
  free(fixed);
  findings_free(&l);
}

TEST(distributed_ulysses_once) {
  const char *src = "def a2a(x, g):\n    return x\n"
                    "def sp_attention(q, k, v, g):\n"
                    "    q, k, v = a2a(q, g), a2a(k, g), a2a(v, g)\n"
                    "    o = attention(q, k, v)\n"
                    "    return a2a(o, g)\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  FindingList l = {0};
  attn_t__run(src, &opt, &l);
  ASSERT_EQ(attn_t__count(&l, "ASC509"), 0); /* `a2a` is not an all-to-all name */
  findings_free(&l);
  const char *named = "def all_to_all_4d(x, g):\n    return x\n"
                      "def sp_attention(q, k, v, g):\n"
                      "    q, k, v = all_to_all_4d(q, g), all_to_all_4d(k, g), all_to_all_4d(v, g)\n"
                      "    o = attention(q, k, v)\n"
                      "    return all_to_all_4d(o, g)\n";
  attn_t__run(named, &opt, &l);
  ASSERT_EQ(attn_t__count(&l, "ASC509"), 1);
  findings_free(&l);
}

TEST(compile_names_backend_and_mode) {
  const char *src = "import torch\nm = torch.compile(model, backend=\"cudagraphs\", mode=\"max-autotune\")\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  FindingList l = {0};
  attn_t__run(src, &opt, &l);
  const Finding *f = attn_t__find(&l, "ASC701");
  ASSERT(f != NULL);
  ASSERT_STR_EQ(f->subject, "torch.compile(backend=\"cudagraphs\", mode=\"max-autotune\")");
  ASSERT_EQ(attn_t__count(&l, "ASC704"), 1);
  findings_free(&l);
}

/* Upcasts count inside a norm, not in a block named after its AdaLN, not at a
 * call to a module that upcasts by itself; a RoPE dtype picked per device by
 * a helper makes no complex128. */
TEST(precision_norm_scopes_and_helpers) {
  const char *src = "import torch\nimport torch.nn as nn\n"
                    "class AdaLNBlock(nn.Module):\n"
                    "    def __init__(self, d):\n"
                    "        self.norm_out = FP32LayerNorm(d)\n"
                    "    def forward(self, x, g, a):\n"
                    "        x = x + (g.float() * a.float()).to(x.dtype)\n"
                    "        return (self.norm_out(x.float()) * 2).type_as(x)\n"
                    "class OutputNorm(nn.Module):\n"
                    "    def forward(self, x):\n"
                    "        return self.norm_out(x.float()).type_as(x)\n"
                    "class LayerNormFP32(nn.LayerNorm):\n"
                    "    def forward(self, x):\n"
                    "        return super().forward(x.float()).to(x.dtype)\n"
                    "def rope(x):\n"
                    "    dtype = maybe_adjust_dtype_for_device(torch.float64, x.device)\n"
                    "    return torch.view_as_complex(x.to(dtype).unflatten(-1, (-1, 2)))\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  FindingList l = {0};
  attn_t__run(src, &opt, &l);
  ASSERT_EQ(attn_t__count(&l, "ASC603"), 1);
  ASSERT_EQ(attn_t__count(&l, "ASC601"), 0);
  ASSERT_EQ(attn_t__count(&l, "ASC602"), 0);
  for (size_t i = 0; i < l.len; i++)
    if (strcmp(l.items[i].rule->code, "ASC603") == 0) ASSERT_EQ(l.items[i].start_row, 13);
  findings_free(&l);
}

/* xformers on 3-D inputs (heads folded into the batch): advice, no rewrite. */
TEST(attention_xformers_folded_heads) {
  const char *src = "import xformers.ops\n"
                    "class XFormersAttnProcessor:\n"
                    "    def __call__(self, attn, hidden_states):\n"
                    "        q = attn.head_to_batch_dim(attn.to_q(hidden_states))\n"
                    "        k = attn.head_to_batch_dim(attn.to_k(hidden_states))\n"
                    "        v = attn.head_to_batch_dim(attn.to_v(hidden_states))\n"
                    "        return xformers.ops.memory_efficient_attention(q, k, v)\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  FindingList l = {0};
  attn_t__run(src, &opt, &l);
  ASSERT_EQ(attn_t__count(&l, "ASC305"), 1);
  for (size_t i = 0; i < l.len; i++) {
    if (strcmp(l.items[i].rule->code, "ASC305") != 0) continue;
    ASSERT(strstr(l.items[i].replacement, "AttnProcessor2_0") != NULL);
    ASSERT_EQ(l.items[i].fix, FIX_NONE);
  }
  findings_free(&l);
}

/* A library with no Ascend build is one item per file: its first use, with
 * the import as a site, not every attribute. */
TEST(compile_tensorrt_once_per_file) {
  const char *src = "import tensorrt as trt\n"
                    "LOGGER = trt.Logger(trt.Logger.WARNING)\n"
                    "def build(onnx):\n"
                    "    builder = trt.Builder(LOGGER)\n"
                    "    return trt.OnnxParser(builder.create_network(), LOGGER)\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  FindingList l = {0};
  attn_t__run(src, &opt, &l);
  ASSERT_EQ(attn_t__count(&l, "ASC705"), 1);
  const Finding *f = attn_t__find(&l, "ASC705");
  ASSERT_EQ(f->start_row, 1);
  ASSERT(f->related.len >= 1);
  ASSERT_EQ(f->related.items[0].start_row, 0);
  findings_free(&l);
}

/* The same variable written and read on one line is one finding, fixed whole. */
TEST(distributed_env_twice_on_a_line_is_one_finding) {
  const char *src = "import os\nenv = {\"NCCL_BLOCKING_WAIT\": os.getenv(\"NCCL_BLOCKING_WAIT\", \"1\")}\n";
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  FindingList l = {0};
  attn_t__run(src, &opt, &l);
  ASSERT_EQ(attn_t__count(&l, "ASC503"), 1);
  findings_free(&l);
  char *fixed = attn_t__fixed(src, &opt, "ASC503");
  ASSERT_STR_EQ(fixed, "import os\nenv = {\"TORCH_HCCL_BLOCKING_WAIT\": os.getenv(\"TORCH_HCCL_BLOCKING_WAIT\", \"1\")}\n");
  free(fixed);
}
