/* deps: PEP 508 and requirements.txt line parsing (markers, extras, URLs,
 * -e, -r/-c includes, index URLs), then the dependency findings, statuses
 * and fix edits of each file format through analyze_text. */
#include "tests/unit/test.h"
#include "analyzers/domains/deps.h"
#include "analyzers/engine/analyze.h"

#include <stdlib.h>

/* Text of a span (static buffer: one use per expression). */
static const char *span(const char *t, DepsSpan s) {
  static char buf[4][256];
  static int k;
  char *b = buf[k++ & 3];
  size_t n = s.end > s.start ? s.end - s.start : 0;
  if (n > 255) n = 255;
  memcpy(b, t + s.start, n);
  b[n] = '\0';
  return b;
}

static bool req(const char *t, DepsReq *r) { return deps_req_parse(t, 0, (uint32_t)strlen(t), r); }

static void line(const char *t, DepsLine *l) { deps_line_parse(t, 0, (uint32_t)strlen(t), false, l); }

TEST(deps_normalize_names) {
  char out[DEPS_NAME_MAX];
  ASSERT(deps_normalize("Flash_Attn", 10, out));
  ASSERT_STR_EQ(out, "flash-attn");
  ASSERT(deps_normalize("nvidia.ml__py", 13, out));
  ASSERT_STR_EQ(out, "nvidia-ml-py");
  ASSERT(!deps_normalize("", 0, out));
  ASSERT(!deps_normalize("--", 2, out));
}

TEST(deps_req_marker_and_spec) {
  const char *t = "flash-attn>=2.5.8 ; platform_machine == 'x86_64'";
  DepsReq r;
  ASSERT(req(t, &r));
  ASSERT_STR_EQ(r.name_norm, "flash-attn");
  ASSERT_STR_EQ(span(t, r.spec), ">=2.5.8");
  ASSERT_STR_EQ(span(t, r.marker), "platform_machine == 'x86_64'");
  ASSERT_STR_EQ(span(t, r.whole), "flash-attn>=2.5.8");
  ASSERT_EQ(r.pin.end, r.pin.start);
}

TEST(deps_req_extras) {
  const char *t = "Transformers[torch, sentencepiece] >=4.37,<5";
  DepsReq r;
  ASSERT(req(t, &r));
  ASSERT_STR_EQ(r.name_norm, "transformers");
  ASSERT_STR_EQ(span(t, r.extras), "torch, sentencepiece");
  ASSERT_STR_EQ(span(t, r.spec), ">=4.37,<5");
  ASSERT_EQ(r.pin.end, r.pin.start); /* two clauses: not a pin */
}

TEST(deps_req_pin_and_local_label) {
  const char *t = "torch==2.1.0+cu121";
  DepsReq r;
  ASSERT(req(t, &r));
  ASSERT_STR_EQ(span(t, r.pin), "2.1.0+cu121");
  ASSERT_STR_EQ(span(t, r.local), "cu121");
  const char *p = "torch (===2.1.0)";
  ASSERT(req(p, &r));
  ASSERT_STR_EQ(span(p, r.spec), "===2.1.0");
  ASSERT_STR_EQ(span(p, r.pin), "2.1.0");
  ASSERT_EQ(r.local.end, r.local.start);
}

TEST(deps_req_urls) {
  const char *t = "mamba-ssm @ https://example.org/v2/mamba_ssm-2.2.2+cu122torch2.3-cp310-cp310-linux_x86_64.whl ; "
                  "sys_platform == 'linux'";
  DepsReq r;
  ASSERT(req(t, &r));
  ASSERT_STR_EQ(r.name_norm, "mamba-ssm");
  ASSERT_STR_EQ(span(t, r.url), "https://example.org/v2/mamba_ssm-2.2.2+cu122torch2.3-cp310-cp310-linux_x86_64.whl");
  ASSERT_STR_EQ(span(t, r.local), "cu122torch2.3");
  ASSERT_STR_EQ(span(t, r.marker), "sys_platform == 'linux'");
  /* a bare wheel URL: name and version from the file name */
  const char *w = "https://x.org/flash_attn-2.5.8+cu122torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl";
  ASSERT(req(w, &r));
  ASSERT_STR_EQ(r.name_norm, "flash-attn");
  ASSERT_STR_EQ(span(w, r.pin), "2.5.8+cu122torch2.3cxx11abiFALSE");
  ASSERT_STR_EQ(span(w, r.local), "cu122torch2.3cxx11abiFALSE");
  /* VCS URLs: #egg= wins, else the repository name */
  ASSERT(req("git+https://github.com/NVIDIA/apex.git#egg=apex", &r));
  ASSERT_STR_EQ(r.name_norm, "apex");
  ASSERT(req("git+https://github.com/openai/triton.git@main#subdirectory=python", &r));
  ASSERT_STR_EQ(r.name_norm, "triton");
  ASSERT(req("https://files.example.org/xformers-0.0.23.tar.gz", &r));
  ASSERT_STR_EQ(r.name_norm, "xformers");
  /* local paths */
  ASSERT(req("./third_party/apex", &r));
  ASSERT_STR_EQ(r.name_norm, "apex");
  ASSERT(!req(".", &r));
  ASSERT(!req("", &r));
  ASSERT(!req("   ", &r));
}

TEST(deps_lines_options) {
  DepsLine l;
  const char *t = "-r requirements-cuda.txt";
  line(t, &l);
  ASSERT_EQ(l.kind, DEPS_LINE_INCLUDE);
  ASSERT_STR_EQ(span(t, l.arg), "requirements-cuda.txt");
  t = "--requirement=base.txt  # shared";
  line(t, &l);
  ASSERT_EQ(l.kind, DEPS_LINE_INCLUDE);
  ASSERT_STR_EQ(span(t, l.arg), "base.txt");
  t = "-rbase.txt";
  line(t, &l);
  ASSERT_EQ(l.kind, DEPS_LINE_INCLUDE);
  ASSERT_STR_EQ(span(t, l.option), "-r");
  ASSERT_STR_EQ(span(t, l.arg), "base.txt");
  t = "-c constraints.txt";
  line(t, &l);
  ASSERT_EQ(l.kind, DEPS_LINE_CONSTRAINT);
  t = "--extra-index-url https://download.pytorch.org/whl/cu121";
  line(t, &l);
  ASSERT_EQ(l.kind, DEPS_LINE_INDEX);
  ASSERT_STR_EQ(span(t, l.arg), "https://download.pytorch.org/whl/cu121");
  t = "-i https://pypi.org/simple";
  line(t, &l);
  ASSERT_EQ(l.kind, DEPS_LINE_INDEX);
  t = "-f https://data.pyg.org/whl/torch-2.1.0+cu121.html";
  line(t, &l);
  ASSERT_EQ(l.kind, DEPS_LINE_FIND_LINKS);
  line("--pre", &l);
  ASSERT_EQ(l.kind, DEPS_LINE_OPTION);
  line("-", &l);
  ASSERT_EQ(l.kind, DEPS_LINE_OPTION);
}

TEST(deps_lines_editable) {
  DepsLine l;
  line("-e git+https://github.com/NVIDIA/apex.git#egg=apex", &l);
  ASSERT_EQ(l.kind, DEPS_LINE_EDITABLE);
  ASSERT(l.has_req);
  ASSERT_STR_EQ(l.req.name_norm, "apex");
  line("--editable .", &l);
  ASSERT_EQ(l.kind, DEPS_LINE_EDITABLE);
  ASSERT(!l.has_req);
}

TEST(deps_lines_requirements) {
  DepsLine l;
  const char *t = "  triton==2.1.0  # pinned for the kernels";
  line(t, &l);
  ASSERT_EQ(l.kind, DEPS_LINE_REQ);
  ASSERT(l.has_req);
  ASSERT_STR_EQ(span(t, l.req.spec), "==2.1.0");
  ASSERT_STR_EQ(span(t, l.content), "triton==2.1.0  # pinned for the kernels");
  t = "deepspeed==0.14.0 --hash=sha256:abc";
  line(t, &l);
  ASSERT_STR_EQ(span(t, l.req.spec), "==0.14.0");
  line("# only a comment", &l);
  ASSERT_EQ(l.kind, DEPS_LINE_BLANK);
  line("", &l);
  ASSERT_EQ(l.kind, DEPS_LINE_BLANK);
  t = "numpy>=1.24 \\";
  line(t, &l);
  ASSERT(l.continues);
  ASSERT_STR_EQ(span(t, l.req.spec), ">=1.24");
  deps_line_parse("    --hash=sha256:def", 0, 21, true, &l);
  ASSERT_EQ(l.kind, DEPS_LINE_BLANK);
}

TEST(deps_status_and_pairs) {
  ASSERT_STR_EQ(deps_status("ASC101"), "needs replacement");
  ASSERT_STR_EQ(deps_status("ASC102"), "unsupported");
  ASSERT_STR_EQ(deps_status("ASC103"), "compatible");
  ASSERT_STR_EQ(deps_status("ASC104"), "not involved");
  ASSERT_STR_EQ(deps_status("ASC105"), "needs replacement");
  ASSERT(deps_status("ASC401") == NULL);
  const DepsTorchNpu *p = deps_torch_npu("2.7.1", 5);
  ASSERT(p != NULL);
  ASSERT_STR_EQ(p->torch_npu, "2.7.1.post2");
  ASSERT(deps_torch_npu("2.0.1", 5) == NULL);
  /* another patch release of a listed line: the line's release */
  p = deps_torch_npu_line("2.1.2", 5);
  ASSERT(p != NULL);
  ASSERT_STR_EQ(p->torch, "2.1.0");
  ASSERT(deps_torch_npu_line("2.1.0", 5) == NULL); /* a pairing of its own */
  ASSERT(deps_torch_npu_line("2.0.1", 5) == NULL); /* a line not listed: guessed */
}

/* ---- findings through analyze_text ------------------------------------------------ */

static FindingList run(const char *path, const char *text) {
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  FindingList out = {0};
  analyze_text(path, text, strlen(text), NULL, &opt, &out, NULL);
  return out;
}

/* The finding of `code` on 0-based row `row`, or NULL. */
static const Finding *at(const FindingList *l, uint32_t row, const char *code) {
  for (size_t i = 0; i < l->len; i++)
    if (l->items[i].start_row == row && strcmp(l->items[i].rule->code, code) == 0) return &l->items[i];
  return NULL;
}

/* `text` with the finding's edits applied (they do not overlap), in order of position. */
static char *apply(const char *text, const Finding *f) {
  StrBuf sb;
  sb_init(&sb);
  uint32_t pos = 0, n = (uint32_t)strlen(text);
  bool used[16] = {false};
  for (;;) {
    size_t next = SIZE_MAX;
    for (size_t i = 0; i < f->edits.len && i < 16; i++)
      if (!used[i] && f->edits.items[i].start >= pos && (next == SIZE_MAX || f->edits.items[i].start < f->edits.items[next].start))
        next = i;
    uint32_t upto = next != SIZE_MAX ? f->edits.items[next].start : n;
    sb_append(&sb, text + pos, upto - pos);
    if (next == SIZE_MAX) break;
    used[next] = true;
    sb_puts(&sb, f->edits.items[next].text);
    pos = f->edits.items[next].end;
  }
  return sb_steal(&sb);
}

TEST(deps_requirements_file) {
  const char *t = "--extra-index-url https://download.pytorch.org/whl/cu121\n"
                  "-r requirements-cuda.txt\n"
                  "-r base.txt\n"
                  "torch==2.7.1+cu121\n"
                  "flash-attn>=2.5 ; platform_machine == 'x86_64'\n"
                  "triton==2.1.0\n"
                  "numpy\n"
                  "cupy-cuda12x\n"
                  "my-gpu-helper\n";
  FindingList l = run("requirements.txt", t);
  const Finding *f = at(&l, 0, "ASC106");
  ASSERT(f && f->fix == FIX_UNSAFE);
  ASSERT_STR_EQ(f->edits.items[0].text, "https://download.pytorch.org/whl/cpu");
  f = at(&l, 1, "ASC107");
  ASSERT(f && strstr(f->message, "analyzed on its own"));
  f = at(&l, 2, "ASC107");
  ASSERT(f && strstr(f->message, "not analyzed"));
  f = at(&l, 3, "ASC105");
  ASSERT(f);
  ASSERT_EQ(f->fix, FIX_SAFE); /* 2.7.1 has a known torch-npu pairing */
  ASSERT(strncmp(f->detail, "status: needs replacement", 25) == 0);
  char *fixed = apply(t, f);
  ASSERT(strstr(fixed, "\ntorch==2.7.1\ntorch-npu==2.7.1.post2\nflash-attn") != NULL);
  free(fixed);
  f = at(&l, 4, "ASC101");
  ASSERT(f && strstr(f->detail, "marker: platform_machine == 'x86_64'"));
  ASSERT_STR_EQ(f->edits.items[0].text,
                "# removed for Ascend: flash-attn has no NPU build; use torch_npu.npu_fusion_attention");
  f = at(&l, 5, "ASC101");
  ASSERT(f && f->fix == FIX_SAFE);
  ASSERT_STR_EQ(f->edits.items[0].text, "triton-ascend");
  f = at(&l, 6, "ASC104");
  ASSERT(f && f->severity == SEV_HINT && strcmp(f->detail, "status: not involved") == 0);
  f = at(&l, 7, "ASC102");
  ASSERT(f && f->severity == SEV_ERROR && strcmp(f->detail, "status: unsupported") == 0);
  f = at(&l, 8, "ASC101"); /* unknown, but the name says GPU */
  ASSERT(f && f->confidence == CONF_LOW);
  findings_free(&l);
}

/* The first-line `code` finding of requirements text `t` has an unsafe fix
 * that turns t into `want`, and its message or detail says `said`. */
static void deps_t__unsafe_fix(int *test__failed, const char *t, const char *code, const char *said, const char *want) {
  FindingList l = run("requirements.txt", t);
  const Finding *f = at(&l, 0, code);
  ASSERT(f && f->fix == FIX_UNSAFE);
  ASSERT(strstr(f->message, said) || (f->detail && strstr(f->detail, said)));
  char *fixed = apply(t, f);
  findings_free(&l);
  ASSERT_STR_EQ(fixed, want);
  free(fixed);
}

TEST(deps_torch_companion_guess) {
  /* no known pairing: the same version string, to be reviewed */
  deps_t__unsafe_fix(test__failed, "torch==2.0.1\ntorchvision\n", "ASC103", "same version string as torch",
                     "torch==2.0.1\ntorch-npu==2.0.1  # same version as torch: verify against the torch_npu releases\n"
                     "torchvision\n");
  if (*test__failed) return;
  /* a patch release torch_npu is not built for: the line's release, pinned in the same fix */
  deps_t__unsafe_fix(test__failed, "torch==2.1.2\ntorchvision\n", "ASC103", "add torch-npu==2.1.0 and pin torch==2.1.0",
                     "torch==2.1.0\ntorch-npu==2.1.0\ntorchvision\n");
  if (*test__failed) return;
  /* the same for a CUDA build of it (ASC105): the version and its label go */
  deps_t__unsafe_fix(test__failed, "torch==2.1.2+cu121\n", "ASC105", "torch==2.1.0 (CPU build) plus torch-npu==2.1.0",
                     "torch==2.1.0\ntorch-npu==2.1.0\n");
  if (*test__failed) return;
  FindingList l;
  const Finding *f;
  /* torch-npu already listed: nothing to add */
  l = run("requirements.txt", "torch==2.1.0\ntorch-npu==2.1.0.post8\n");
  f = at(&l, 0, "ASC103");
  ASSERT(f && f->fix == FIX_NONE && f->edits.len == 0);
  findings_free(&l);
}

TEST(deps_pyproject_sections) {
  const char *t = "[build-system]\n"
                  "requires = [\"setuptools\", \"torch==2.1.0+cu121\"]\n"
                  "[project]\n"
                  "dependencies = [\n"
                  "  \"torch>=2.1\",\n"
                  "  \"xformers\",\n"
                  "]\n"
                  "optional-dependencies.gpu = [\"vllm\", \"numpy\"]\n"
                  "[tool.poetry.dependencies]\n"
                  "python = \"^3.10\"\n"
                  "torch = { version = \"2.7.1+cu121\", source = \"cu\" }\n"
                  "[[tool.poetry.source]]\n"
                  "name = \"cu\"\n"
                  "url = \"https://download.pytorch.org/whl/cu121\"\n";
  FindingList l = run("pyproject.toml", t);
  const Finding *f = at(&l, 1, "ASC105");
  ASSERT(f && strstr(f->detail, "declared in build-system.requires"));
  ASSERT_EQ(f->edits.len, 1); /* only the label is stripped: nothing is added to build requirements */
  f = at(&l, 4, "ASC103");
  ASSERT(f);
  char *fixed = apply(t, f);
  ASSERT(strstr(fixed, "  \"torch>=2.1\",\n  \"torch-npu>=2.1\",\n  \"xformers\",\n") != NULL);
  free(fixed);
  f = at(&l, 5, "ASC101");
  ASSERT(f);
  fixed = apply(t, f);
  ASSERT(strstr(fixed, "  # removed for Ascend: xformers has no NPU build; use ") != NULL);
  free(fixed);
  f = at(&l, 7, "ASC101");
  ASSERT(f && strstr(f->detail, "project.optional-dependencies.gpu"));
  ASSERT_STR_EQ(f->edits.items[0].text, "vllm-ascend");
  ASSERT(at(&l, 9, "ASC104") == NULL); /* poetry's python is not a package */
  f = at(&l, 10, "ASC105");
  ASSERT(f);
  fixed = apply(t, f);
  ASSERT(strstr(fixed, "torch = { version = \"2.7.1\", source = \"cu\" }\ntorch-npu = \"2.7.1.post2\"\n") != NULL);
  free(fixed);
  ASSERT(at(&l, 13, "ASC106") != NULL);
  findings_free(&l);
}

TEST(deps_setup_py_variables) {
  const char *t = "from setuptools import setup\n"
                  "reqs = [\"numpy\"]\n"
                  "reqs += [\"flash-attn\"]\n"
                  "reqs.append(\"triton\")\n"
                  "extras = {\"gpu\": [\"xformers\"]}\n"
                  "extras[\"nv\"] = [\"pynvml\", \"cupy-cuda12x\"]\n"
                  "setup(install_requires=reqs + [\"torch==2.7.1\"], extras_require=extras, setup_requires=reqs)\n";
  FindingList l = run("pkg/setup.py", t);
  ASSERT(at(&l, 1, "ASC104") != NULL);
  ASSERT(at(&l, 2, "ASC101") != NULL);
  const Finding *f = at(&l, 3, "ASC101");
  ASSERT(f && strstr(f->detail, "declared in install_requires"));
  f = at(&l, 4, "ASC101");
  ASSERT(f && strstr(f->detail, "declared in extras_require.gpu"));
  f = at(&l, 5, "ASC102");
  ASSERT(f && strstr(f->detail, "extras_require.nv"));
  char *fixed = apply(t, f); /* shares its line: dropped with its comma */
  ASSERT(strstr(fixed, "extras[\"nv\"] = [\"pynvml\"]\n") != NULL);
  free(fixed);
  f = at(&l, 6, "ASC103");
  ASSERT(f);
  fixed = apply(t, f);
  ASSERT(strstr(fixed, "[\"torch==2.7.1\", \"torch-npu==2.7.1.post2\"]") != NULL);
  free(fixed);
  /* reqs is referenced twice: each requirement is reported once */
  size_t n = 0;
  for (size_t i = 0; i < l.len; i++) n += l.items[i].start_row == 2;
  ASSERT_EQ(n, 1);
  findings_free(&l);
  /* other Python files are not dependency files */
  l = run("pkg/build.py", "install_requires = [\"flash-attn\"]\n");
  ASSERT(at(&l, 0, "ASC101") == NULL);
  findings_free(&l);
}

TEST(deps_setup_cfg_and_conda) {
  const char *cfg = "[options]\n"
                    "install_requires =\n"
                    "    torch>=2.1\n"
                    "    flash-attn\n"
                    "[options.extras_require]\n"
                    "gpu = xformers\n";
  FindingList l = run("setup.cfg", cfg);
  const Finding *f = at(&l, 2, "ASC103");
  ASSERT(f);
  char *fixed = apply(cfg, f); /* no inline comment: configparser would keep it in the value */
  ASSERT(strstr(fixed, "    torch>=2.1\n    torch-npu>=2.1\n") != NULL);
  free(fixed);
  ASSERT(at(&l, 3, "ASC101") != NULL);
  f = at(&l, 5, "ASC101");
  ASSERT(f && f->fix == FIX_NONE); /* a value on the key line cannot be commented out */
  findings_free(&l);
  const char *yml = "name: x\n"
                    "channels:\n"
                    "  - nvidia\n"
                    "dependencies:\n"
                    "  - python=3.10\n"
                    "  - pytorch=2.1.0=py3.10_cuda12.1_cudnn8_0\n"
                    "  - cudatoolkit=11.8\n"
                    "  - pip:\n"
                    "    - torch==2.7.1\n";
  l = run("environment.yml", yml);
  ASSERT(at(&l, 2, "ASC106") == NULL); /* the nvidia channel goes with the CUDA package it serves */
  ASSERT(at(&l, 4, "ASC104") == NULL); /* the interpreter is not audited */
  f = at(&l, 5, "ASC105");
  ASSERT(f && strstr(f->detail, "GPU build py3.10_cuda12.1_cudnn8_0"));
  fixed = apply(yml, f);
  ASSERT(strstr(fixed, "  - pytorch=2.1.0\n") != NULL);
  free(fixed);
  f = at(&l, 6, "ASC101");
  ASSERT(f);
  ASSERT_EQ(f->related.len, 1);
  ASSERT_EQ(f->related.items[0].start_row, 2);
  fixed = apply(yml, f);
  ASSERT(strstr(fixed, "  # removed for Ascend: cudatoolkit is the CUDA toolkit; use the CANN toolkit\n") != NULL);
  free(fixed);
  f = at(&l, 8, "ASC103");
  ASSERT(f);
  fixed = apply(yml, f);
  ASSERT(strstr(fixed, "    - torch==2.7.1\n    - torch-npu==2.7.1.post2\n") != NULL);
  free(fixed);
  findings_free(&l);
}

TEST(deps_hostile_inputs) {
  /* half-typed and malformed lines never crash and never report garbage names */
  static const char *const texts[] = {
      "-", "--", "-r", "-e", "@", "[", "torch[", "torch[x", "torch @", "torch ;", "==1.0", "\\", "a\\\nb",
      "torch==", "x @ https://", "https://", "git+", "#egg=", "-e #egg=", "torch==1+", "\xff\xfe", ";;;",
  };
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    FindingList l = run("requirements.txt", texts[i]);
    for (size_t k = 0; k < l.len; k++) ASSERT(l.items[k].subject && l.items[k].subject[0]);
    findings_free(&l);
    l = run("pyproject.toml", texts[i]);
    findings_free(&l);
    l = run("environment.yml", texts[i]);
    findings_free(&l);
    l = run("setup.cfg", texts[i]);
    findings_free(&l);
  }
}
