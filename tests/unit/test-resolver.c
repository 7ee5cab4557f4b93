/* Name resolution: aliases, from-imports, function-local imports, chains. */
#include "tests/unit/test.h"
#include "analyzers/python/resolver.h"
#include "analyzers/engine/forest.h"
#include "analyzers/python/pysym.h"

#include <stdlib.h>

typedef struct {
  TSParser *parser;
  Forest forest;
  PyFile *py;
  const char *text;
} Src;

static void src_open(Src *s, const char *text) {
  s->text = text;
  s->parser = ts_parser_new();
  forest_init(&s->forest, FILE_PYTHON);
  forest_parse(&s->forest, s->parser, text, strlen(text));
  s->py = pyfile_build(&s->forest, text, strlen(text));
}

static void src_close(Src *s) {
  pyfile_free(s->py);
  forest_free(&s->forest);
  ts_parser_delete(s->parser);
}

/* Qualified name of the expression spelled `needle` at its n-th occurrence. */
static char *qual_at(Src *s, const char *needle, int nth) {
  const char *p = s->text;
  for (int i = 0; i <= nth; i++) {
    p = strstr(i ? p + 1 : p, needle);
    if (!p) return NULL;
  }
  uint32_t a = (uint32_t)(p - s->text), b = a + (uint32_t)strlen(needle);
  TSNode n = forest_root(&s->forest, forest_member_at(&s->forest, a));
  n = ts_node_named_descendant_for_byte_range(n, a, b);
  while (!ts_node_is_null(n) && (ts_node_start_byte(n) != a || ts_node_end_byte(n) != b)) n = ts_node_parent(n);
  if (ts_node_is_null(n)) return NULL;
  return pyfile_qualname(s->py, n);
}

#define ASSERT_QUAL(src, needle, nth, want)                                    \
  do {                                                                         \
    char *q__ = qual_at((src), (needle), (nth));                               \
    const char *w__ = (want);                                                  \
    bool ok__ = (!q__ && !w__) || (q__ && w__ && strcmp(q__, w__) == 0);       \
    if (!ok__) {                                                               \
      fprintf(stderr, "  %s:%d: qualname(%s) = %s, want %s\n", __FILE__,       \
              __LINE__, (needle), q__ ? q__ : "(null)", w__ ? w__ : "(null)"); \
      free(q__);                                                               \
      src_close(src);                                                          \
      *test__failed = 1;                                                       \
      return;                                                                  \
    }                                                                          \
    free(q__);                                                                 \
  } while (0)

TEST(resolver_import_alias) {
  Src s;
  src_open(&s, "import torch as th\nth.cuda.synchronize()\n");
  ASSERT_QUAL(&s, "th.cuda.synchronize", 0, "torch.cuda.synchronize");
  ASSERT_QUAL(&s, "th.cuda", 0, "torch.cuda");
  src_close(&s);
}

TEST(resolver_dotted_import_binds_root) {
  Src s;
  src_open(&s, "import torch.cuda\nimport os.path as osp\ntorch.cuda.empty_cache()\nosp.join\n");
  ASSERT_QUAL(&s, "torch.cuda.empty_cache", 0, "torch.cuda.empty_cache");
  ASSERT_QUAL(&s, "osp.join", 0, "os.path.join");
  src_close(&s);
}

TEST(resolver_from_import_as) {
  Src s;
  src_open(&s, "from torch import cuda\nfrom torch.cuda.amp import autocast as ac, GradScaler\n"
               "import torch.nn.functional as F\ncuda.synchronize()\nac()\nGradScaler()\n"
               "F.scaled_dot_product_attention(q, k, v)\n");
  ASSERT_QUAL(&s, "cuda.synchronize", 0, "torch.cuda.synchronize");
  ASSERT_QUAL(&s, "ac", 1, "torch.cuda.amp.autocast");
  ASSERT_QUAL(&s, "GradScaler", 1, "torch.cuda.amp.GradScaler");
  ASSERT_QUAL(&s, "F.scaled_dot_product_attention", 0, "torch.nn.functional.scaled_dot_product_attention");
  src_close(&s);
}

TEST(resolver_unbound_names_are_null) {
  Src s;
  src_open(&s, "import torch\nx.cuda()\nmodel.to(device)\nself.torch.cuda\n");
  ASSERT_QUAL(&s, "x.cuda", 0, NULL);
  ASSERT_QUAL(&s, "model.to", 0, NULL);
  ASSERT_QUAL(&s, "self.torch.cuda", 0, NULL);
  src_close(&s);
}

TEST(resolver_function_local_import_scope) {
  Src s;
  src_open(&s, "def f():\n    import torch as t\n    t.cuda.synchronize()\n\ndef g():\n    t.cuda.synchronize()\n");
  ASSERT_QUAL(&s, "t.cuda.synchronize", 0, "torch.cuda.synchronize");
  ASSERT_QUAL(&s, "t.cuda.synchronize", 1, NULL);
  src_close(&s);
}

TEST(resolver_local_import_shadows_module) {
  Src s;
  src_open(&s, "import numpy as np\ndef f():\n    import torch as np\n    np.cuda\nnp.cuda\n");
  ASSERT_QUAL(&s, "np.cuda", 0, "torch.cuda");
  ASSERT_QUAL(&s, "np.cuda", 1, "numpy.cuda");
  src_close(&s);
}

TEST(resolver_module_import_after_use_in_function) {
  Src s;
  src_open(&s, "def f():\n    return th.cuda.is_available()\n\nimport torch as th\n");
  ASSERT_QUAL(&s, "th.cuda.is_available", 0, "torch.cuda.is_available");
  src_close(&s);
}

TEST(resolver_relative_imports) {
  Src s;
  src_open(&s, "from . import layers\nfrom ..ops import rope as r\nlayers.Norm\nr.apply\n");
  ASSERT_QUAL(&s, "layers.Norm", 0, ".layers.Norm");
  ASSERT_QUAL(&s, "r.apply", 0, "..ops.rope.apply");
  ASSERT_EQ(s.py->imports.len, 4);
  ASSERT_STR_EQ(s.py->imports.items[0].module, ".");
  ASSERT_STR_EQ(s.py->imports.items[1].module, ".layers");
  ASSERT_STR_EQ(s.py->imports.items[2].module, "..ops");
  ASSERT_STR_EQ(s.py->imports.items[3].module, "..ops.rope");
  src_close(&s);
}

TEST(resolver_call_target) {
  Src s;
  src_open(&s, "import torch\ntorch.cuda.Stream().synchronize()\n");
  ASSERT_QUAL(&s, "torch.cuda.Stream()", 0, "torch.cuda.Stream");
  ASSERT_QUAL(&s, "torch.cuda.Stream().synchronize", 0, NULL);
  src_close(&s);
}

/* The function holding a byte and the functions holding that one: the
 * innermost first, then outwards, across siblings that end before it. */
TEST(resolver_functions_nest) {
  Src s;
  src_open(&s, "def a():\n    def b():\n        x = 1\n    def c():\n        def d():\n            y = 2\n"
               "        z = 3\n    w = 4\nclass K:\n    def m(self):\n        v = 5\nu = 6\n");
  static const char *const at[] = {"x = 1", "y = 2", "z = 3", "w = 4", "v = 5", "u = 6"};
  static const char *const want[] = {"b a", "d c a", "c a", "a", "m", ""};
  for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
    char got[32] = "";
    uint32_t byte = (uint32_t)(strstr(s.text, at[i]) - s.text);
    for (const PyFunction *f = pyfile_function_at(s.py, byte); f; f = pyfile_function_outer(s.py, f))
      snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", *got ? " " : "", f->name);
    ASSERT_STR_EQ(got, want[i]);
  }
  ASSERT_EQ(s.py->functions.items[4].outer, 0); /* m: a method, in no function */
  /* a sweep answers as single lookups do, ascending or not */
  size_t n = 0, len = strlen(s.text);
  for (uint32_t b = 0; b <= len; b++) ASSERT(pyfile_function_at_sweep(s.py, &n, b) == pyfile_function_at(s.py, b));
  for (uint32_t b = (uint32_t)len + 1; b-- > 0;) ASSERT(pyfile_function_at_sweep(s.py, &n, b) == pyfile_function_at(s.py, b));
  src_close(&s);
}

TEST(resolver_facts) {
  Src s;
  src_open(&s, "\"\"\"doc\"\"\"\nimport torch\ntry:\n    import flash_attn\nexcept ImportError:\n    flash_attn = None\n"
               "import torch_npu\nfrom torch_npu.contrib import transfer_to_npu\n"
               "@torch.no_grad()\ndef sample(x):\n    return x\n"
               "class Net:\n    def forward(self, x):  # noqa: ASC203\n        return x\n"
               "if __name__ == \"__main__\":\n    sample(1)\n");
  ASSERT(s.py->has_main_guard);
  ASSERT(s.py->imports_torch_npu);
  ASSERT(s.py->transfer_to_npu);
  ASSERT_EQ(s.py->guarded.len, 1);
  ASSERT_EQ(s.py->inference.len, 1);
  ASSERT_EQ(s.py->functions.len, 2);
  ASSERT_STR_EQ(s.py->functions.items[0].name, "sample");
  ASSERT(s.py->functions.items[0].class_name == NULL);
  ASSERT_STR_EQ(s.py->functions.items[1].name, "forward");
  ASSERT_STR_EQ(s.py->functions.items[1].class_name, "Net");
  ASSERT_STR_EQ(s.py->comments[12], "# noqa: ASC203");
  /* the import point: after the last top-level import line */
  const char *after = strstr(s.text, "@torch.no_grad");
  ASSERT_EQ(s.py->import_insert_byte, (uint32_t)(after - s.text));
  src_close(&s);
}

TEST(resolver_deep_nesting_no_recursion) {
  /* 20,000 nested parentheses: the walk must not use the C stack per level */
  size_t depth = 20000;
  char *text = malloc(depth * 2 + 32);
  strcpy(text, "import torch\nx = ");
  size_t n = strlen(text);
  memset(text + n, '(', depth);
  n += depth;
  text[n++] = '1';
  memset(text + n, ')', depth);
  n += depth;
  strcpy(text + n, "\n");
  Src s;
  src_open(&s, text);
  ASSERT_EQ(s.py->bindings.len, 1);
  src_close(&s);
  free(text);
}

TEST(resolver_npu_aware_branches) {
  Src s;
  src_open(&s, "import torch\nif torch.cuda.is_available():\n    torch.cuda.empty_cache()\n"
               "elif is_torch_npu_available():\n    torch_npu.npu.empty_cache()\n"
               "if torch.cuda.is_available():\n    torch.cuda.synchronize()\n");
  ASSERT_EQ(s.py->npu_aware.len, 1);
  ASSERT_EQ(s.py->npu_aware.items[0].start, (uint32_t)(strstr(s.text, "if torch") - s.text));
  /* torch.cuda.is_available() is no fallback for the NPU: not a guard */
  ASSERT_EQ(s.py->guarded.len, 0);
  src_close(&s);
}

TEST(resolver_skip_decorators) {
  Src s;
  src_open(&s, "import unittest\nimport pytest\n"
               "@unittest.skipIf(not is_xformers_available(), reason=\"needs xformers\")\n"
               "def test_xformers(pipe):\n    pipe.enable_xformers_memory_efficient_attention()\n"
               "@pytest.mark.skipif(torch_device != \"cuda\", reason=\"CUDA only\")\n"
               "def test_graphs():\n    pass\n"
               "@unittest.skip(\"flaky\")\ndef test_skipped():\n    pass\n"
               "@require_torch_gpu\ndef test_gpu():\n    pass\n"
               "@unittest.skipIf(not torch.cuda.is_available(), \"needs a GPU\")\ndef test_any_gpu():\n    pass\n"
               "@parameterized.expand([(1,), (2,)])\ndef test_param(n):\n    pass\n");
  /* CUDA-only and skipped tests never run on the NPU */
  ASSERT_EQ(s.py->dead.len, 4);
  ASSERT_EQ(s.py->dead.items[0].start, (uint32_t)(strstr(s.text, "def test_xformers") - s.text));
  ASSERT_EQ(s.py->dead.items[3].start, (uint32_t)(strstr(s.text, "def test_gpu") - s.text));
  /* the conditions themselves say where the tests run */
  ASSERT_EQ(s.py->skip_conds.len, 2);
  ASSERT_EQ(s.py->skip_conds.items[1].start, (uint32_t)(strstr(s.text, "torch_device") - s.text));
  /* a GPU test the NPU would skip: guarded, its condition is a finding */
  ASSERT_EQ(s.py->guarded.len, 1);
  ASSERT_EQ(s.py->guarded.items[0].start, (uint32_t)(strstr(s.text, "def test_any_gpu") - s.text));
  src_close(&s);
}

TEST(resolver_import_required_by_a_raising_handler_is_not_guarded) {
  Src s;
  src_open(&s, "try:\n    import flash_attn\nexcept ImportError as e:\n    raise ValueError('needs flash-attn') from e\n"
               "try:\n    import xformers\nexcept ImportError:\n    xformers = None\n");
  ASSERT_EQ(s.py->guarded.len, 1);
  ASSERT_EQ(s.py->guarded.items[0].start, (uint32_t)(strstr(s.text, "import xformers") - s.text));
  src_close(&s);
}

TEST(resolver_cuda_build_branches_are_dead) {
  Src s;
  src_open(&s, "import torch\nif torch_available and torch.version.cuda is not None:\n    v = torch.cuda.nccl.version()\n"
               "if torch.version.cuda is None:\n    pass\nelse:\n    w = torch.cuda.nccl.version()\n");
  ASSERT_EQ(s.py->dead.len, 2);
  ASSERT_EQ(s.py->dead.items[0].start, (uint32_t)(strstr(s.text, "v = torch") - s.text));
  ASSERT_EQ(s.py->dead.items[1].start, (uint32_t)(strstr(s.text, "else:") - s.text));
  src_close(&s);
}

TEST(resolver_attribute_error_fallback_for_old_torch_is_dead) {
  Src s;
  src_open(&s, "import torch\ntry:\n    f = torch.distributed.all_gather_into_tensor\n"
               "except AttributeError:\n    f = torch.distributed._all_gather_base\n"
               "try:\n    g = cfg.get_value()\nexcept AttributeError:\n    g = None\n");
  ASSERT_EQ(s.py->dead.len, 1);
  ASSERT_EQ(s.py->dead.items[0].start, (uint32_t)(strstr(s.text, "except AttributeError") - s.text));
  src_close(&s);
}

/* A torch-version check whose body the parser left empty (the file ends
 * after the colon) has no else part and no last statement: no dead range. */
TEST(resolver_version_check_without_body) {
  Src s;
  src_open(&s, "import torch\nif torch_version >= 2:\n");
  size_t dead = s.py->dead.len, bindings = s.py->bindings.len;
  src_close(&s);
  ASSERT_EQ(dead, 0);
  ASSERT_EQ(bindings, 1);
}

/* ---- differential: the kept walk of each statement equals a fresh build ---- */

static void rz_ranges(StrBuf *sb, const char *what, const ByteRange *r, size_t n) {
  sb_printf(sb, "%s:", what);
  for (size_t i = 0; i < n; i++) sb_printf(sb, " %u-%u", r[i].start, r[i].end);
  sb_puts(sb, "\n");
}

/* Everything pyfile_build puts in a PyFile, as text. */
static char *rz_render(const PyFile *py) {
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < py->bindings.len; i++) {
    const PyBinding *b = &py->bindings.items[i];
    sb_printf(&sb, "bind %s=%s %u-%u @%u m%u-%u n%u-%u %d%d\n", b->local, b->qualname, b->scope_start, b->scope_end,
              b->def_byte, b->module_start, b->module_end, b->name_start, b->name_end, b->from_import, b->module_scope);
  }
  rz_ranges(&sb, "guarded", py->guarded.items, py->guarded.len);
  rz_ranges(&sb, "npu_aware", py->npu_aware.items, py->npu_aware.len);
  rz_ranges(&sb, "skip_conds", py->skip_conds.items, py->skip_conds.len);
  rz_ranges(&sb, "dead", py->dead.items, py->dead.len);
  rz_ranges(&sb, "optin", py->optin.items, py->optin.len);
  rz_ranges(&sb, "inference", py->inference.items, py->inference.len);
  rz_ranges(&sb, "requires", py->requires.items, py->requires.len);
  rz_ranges(&sb, "requires_at", py->requires_at.items, py->requires_at.len);
  rz_ranges(&sb, "requires_src", py->requires_src.items, py->requires_src.len);
  rz_ranges(&sb, "main", py->main_blocks.items, py->main_blocks.len);
  for (size_t i = 0; i < py->required.len; i++)
    sb_printf(&sb, "required %s %u-%u row %u\n", py->required.items[i].name, py->required.items[i].start,
              py->required.items[i].end, py->required.items[i].use_row);
  for (size_t i = 0; i < py->functions.len; i++) {
    const PyFunction *f = &py->functions.items[i];
    sb_printf(&sb, "def %s %u-%u body %u rows %u-%u in %s\n", f->name, f->start, f->end, f->body_start, f->start_row,
              f->end_row, f->class_name ? f->class_name : "-");
  }
  for (size_t i = 0; i < py->classes.len; i++)
    sb_printf(&sb, "class %s %u-%u\n", py->classes.items[i].name, py->classes.items[i].start, py->classes.items[i].end);
  for (size_t i = 0; i < py->imports.len; i++)
    sb_printf(&sb, "import %s row %u at %u col %u\n", py->imports.items[i].module, py->imports.items[i].row,
              py->imports.items[i].start, py->imports.items[i].column);
  for (size_t i = 0; i < py->n_rows; i++)
    if (py->comments[i]) sb_printf(&sb, "comment %zu %s\n", i, py->comments[i]);
  sb_printf(&sb, "insert %u torch %d%d %u-%u main %d npu %d transfer %d\n", py->import_insert_byte, py->has_torch_import,
            py->torch_import_plain, py->torch_import_line_start, py->torch_import_line_end, py->has_main_guard,
            py->imports_torch_npu, py->transfer_to_npu);
  return sb.data ? sb.data : xstrdup("");
}

/* Statements the random edits insert, delete and retype: imports in and
 * out of guards, a flag a function requires, a main block, classes. */
static const char *const rz_lines[] = {
    "import os\n",
    "import torch\n",
    "from torch.nn import functional as F  # noqa: F401\n",
    "try:\n    from flash_attn import flash_attn_func\n    HAS_FA = True\nexcept ImportError:\n    flash_attn_func = None\n    HAS_FA = False\n",
    "try:\n    import torch_npu\n    from torch_npu.contrib import transfer_to_npu\nexcept ImportError:\n    pass\n",
    "def attn(q, k, v):\n    assert HAS_FA\n    return flash_attn_func(q, k, v)\n",
    "def fallback(q):\n    if flash_attn_func is None:\n        return q\n    return flash_attn_func(q, q, q)\n",
    "class Block(torch.nn.Module):\n    def forward(self, x):\n        with torch.no_grad():\n            return x.cuda()\n",
    "if torch.__version__ >= \"2.0\":\n    sdpa = F.scaled_dot_product_attention\nelse:\n    sdpa = None\n",
    "@unittest.skip(\"slow\")\ndef test_fast():\n    import xformers\n",
    "if __name__ == \"__main__\":\n    attn(1, 2, 3)\n",
    "x = 1  # a comment\n",
    "def fast(q):\n    if flash_attn_func is not None:\n        return flash_attn_func(q, q, q)\n    elif flash_attn_func:\n        pass\n    return q\n",
};
#define RZ_NL (sizeof rz_lines / sizeof rz_lines[0])

TEST(resolver_cached_equals_fresh) {
  TSParser *parser = ts_parser_new();
  PyFileCache *cache = pyfile_cache_new();
  uint32_t seed = 20261203;
  size_t doc[16], n = 0;
  for (int step = 0; step < 400; step++) {
    seed = seed * 1103515245u + 12345u;
    size_t op = (seed >> 16) % 4, at = n ? (seed >> 8) % n : 0;
    if ((op == 0 || n == 0) && n < 16) { /* insert a statement */
      memmove(doc + at + 1, doc + at, (n - at) * sizeof *doc);
      doc[at] = (seed >> 4) % RZ_NL;
      n++;
    } else if (op == 1 && n) { /* delete one */
      memmove(doc + at, doc + at + 1, (n - at - 1) * sizeof *doc);
      n--;
    } else if (op == 2 && n) { /* replace one */
      doc[at] = (seed >> 4) % RZ_NL;
    } /* op 3: the same text again */
    StrBuf text;
    sb_init(&text);
    for (size_t i = 0; i < n; i++) sb_puts(&text, rz_lines[doc[i]]);
    const char *t = text.data ? text.data : "";
    Forest forest;
    forest_init(&forest, FILE_PYTHON);
    forest_parse(&forest, parser, t, strlen(t));
    PyFile *kept = pyfile_build_cached(&forest, t, strlen(t), cache, 0), *fresh = pyfile_build(&forest, t, strlen(t));
    char *a = rz_render(kept), *b = rz_render(fresh);
    bool same = strcmp(a, b) == 0;
    if (!same) TEST_FAIL("step %d: kept\n%s\nfresh\n%s\ntext\n%s", step, a, b, t);
    free(a);
    free(b);
    pyfile_free(kept);
    pyfile_free(fresh);
    forest_free(&forest);
    free(text.data);
    if (!same) break;
  }
  pyfile_cache_free(cache);
  ts_parser_delete(parser);
}

/* A call in an ERROR subtree can lack its function field: the null node it
 * gives is no symbol and has no qualified name (a fuzzed edit script once
 * crashed the float64 helper check on it). */
TEST(resolver_null_node) {
  Src s;
  src_open(&s, "import torch\nx = torch.float64\n");
  ASSERT_EQ(pysym_of((TSNode){0}), PYSYM_OTHER);
  ASSERT(pyfile_qualname(s.py, (TSNode){0}) == NULL);
  src_close(&s);
}
