/* effort: see effort.h. */
#include "analyzers/project/effort.h"
#include "analyzers/kb/kb.h"

#include <stdio.h>
#include <stdlib.h>

/* The effort table. Rates are person-days x 100 for one engineer who knows
 * PyTorch but not Ascend yet; each `why` names what the time buys. Sources
 * for the work involved: KNOWLEDGE.md §2 (what transfer_to_npu automates),
 * §5 (attention and fused-op signatures), §9 (third-party packages), §10
 * (CUDA C APIs vs ACL/HCCL), §11 (the Wan2.2 port), and the practitioner's
 * guide in seeds/002 (framework API easiest, hand-written kernels hardest). */
static const EffortRate effort__rates[EFFORT__COUNT] = {
    {EFFORT_NONE, EFFORT_UNIT_NONE, 0, 0, "Natively supported", "原生支持", "-", "-",
     "Runs unchanged on torch_npu.", "在 torch_npu 上无需修改即可运行。"},
    {EFFORT_MECHANICAL, EFFORT_UNIT_OCCURRENCE, 2, 0, "Mechanical rewrite", "机械替换", "per occurrence", "每处",
     "A quick fix makes the change (cuda -> npu, nccl -> hccl); the time is the review. What transfer_to_npu "
     "handles at run time costs nothing (route A).",
     "由快速修复完成（cuda -> npu、nccl -> hccl），时间花在审阅上。transfer_to_npu 在运行时处理的部分不计工作量（路线 A）。"},
    {EFFORT_API_REVIEW, EFFORT_UNIT_FILE, 25, 0, "Manual API change", "手工修改 API", "per rule and file", "每条规则每个文件",
     "An API without a direct equivalent (capability gates, device selection): a few lines by hand and a check, "
     "one pass per file (the ports change the sites of one file together).",
     "无直接对应的 API（算力判断、设备选择）：手工改几行并验证，每个文件一次（迁移实例中同一文件的各处一起修改）。"},
    {EFFORT_ATTENTION, EFFORT_UNIT_PATTERN, 50, 0, "Attention rewrite", "注意力改写", "per distinct call pattern", "每种调用模式",
     "Per distinct call pattern: port to npu_fusion_attention / npu_fused_infer_attention_score or mindiesd with "
     "the layout change (BSND/BNSD/TND), mask and scale, then compare outputs (one function in the Wan2.2 port).",
     "每种调用模式：改为 npu_fusion_attention / npu_fused_infer_attention_score 或 mindiesd，处理布局"
     "（BSND/BNSD/TND）、掩码与缩放，再比对输出（Wan2.2 迁移中为一个函数）。"},
    {EFFORT_TRITON, EFFORT_UNIT_SUBJECT, 300, 0, "Triton kernel port", "Triton 内核移植", "per kernel", "每个内核",
     "Per kernel: run it on Triton-Ascend, retune block sizes, replace unsupported intrinsics, verify numerics.",
     "每个内核：在 Triton-Ascend 上运行，重新调整分块大小，替换不支持的内建函数，验证数值。"},
    {EFFORT_CUDA_KERNEL, EFFORT_UNIT_KERNEL, 500, 100, "CUDA kernel rewrite", "CUDA 内核重写", "per kernel + per 100 lines", "每个内核 + 每 100 行",
     "Per kernel family: 5 days plus 1 day per 100 lines to rewrite in Ascend C (tiling, op_host/op_kernel, "
     "OpPlugin registration) and test precision; no tool translates CUDA C. A family an NPU op replaces costs 2 days.",
     "每个内核族：5 人日，另加每 100 行 1 人日，用 Ascend C 重写（分块、op_host/op_kernel、OpPlugin 注册）并做精度测试；"
     "没有工具能自动转换 CUDA C。已有 NPU 算子可替代的内核族计 2 人日。"},
    {EFFORT_NATIVE_LIB, EFFORT_UNIT_SUBJECT, 50, 0, "CUDA runtime / library call", "CUDA 运行时 / 库调用", "per distinct API", "每个 API",
     "Per distinct API: the ACL / ACLNN / HCCL counterpart has a different signature (aclrtMalloc policy, "
     "aclrtMemcpy destMax, HcclCommInitRootInfo argument order).",
     "每个不同的 API：ACL / ACLNN / HCCL 对应接口签名不同（aclrtMalloc 策略、aclrtMemcpy destMax、"
     "HcclCommInitRootInfo 参数顺序）。"},
    {EFFORT_DEP_REPLACE, EFFORT_UNIT_SUBJECT, 50, 0, "Dependency replacement", "依赖替换", "per package", "每个包",
     "Per package: install the Ascend counterpart (triton-ascend, vllm-ascend, Ascend apex, ...), pin it to the "
     "torch_npu pairing, smoke-test.",
     "每个包：安装昇腾对应版本（triton-ascend、vllm-ascend、Ascend apex 等），按 torch_npu 配对固定版本并冒烟测试。"},
    {EFFORT_DEP_UNSUPPORTED, EFFORT_UNIT_SUBJECT, 500, 0, "Unsupported dependency", "不支持的依赖", "per package", "每个包",
     "Per package: no NPU build exists, so its functionality is replaced at every call site and re-validated.",
     "每个包：没有 NPU 版本，需在每个调用点替换其功能并重新验证。"},
    {EFFORT_PRECISION, EFFORT_UNIT_FILE, 25, 0, "Precision review", "精度审查", "per rule and file", "每条规则每个文件",
     "Per rule and file: decide the dtype on NPU (fp64 / complex128 downcast, fp32 norm protection) and compare "
     "with the CUDA baseline.",
     "每条规则每个文件：确定 NPU 上的数据类型（fp64 / complex128 降级、归一化的 fp32 保护），并与 CUDA 基线比对。"},
    {EFFORT_DISTRIBUTED, EFFORT_UNIT_SUBJECT, 25, 0, "Distributed validation", "分布式验证", "per distinct call", "每种调用",
     "Per distinct collective or backend call: validate it on HCCL in a multi-card run (dtype and world-size "
     "limits differ from NCCL).",
     "每种集合通信或后端调用：在多卡运行中基于 HCCL 验证（数据类型和规模限制与 NCCL 不同）。"},
    {EFFORT_COMPILE, EFFORT_UNIT_SUBJECT, 25, 0, "Compile / graph review", "编译 / 图模式审查", "per distinct construct", "每种用法",
     "Per distinct construct: pick an NPU backend (inductor on Triton-Ascend, npugraphs, TorchAir) or disable "
     "it, then check graph breaks.",
     "每种用法：选择 NPU 后端（基于 Triton-Ascend 的 inductor、npugraphs、TorchAir）或禁用，再检查图中断。"},
    {EFFORT_REBUILD, EFFORT_UNIT_SUBJECT, 100, 0, "Prebuilt binary rebuild", "预编译库重建", "per binary", "每个二进制",
     "Per binary: rebuild it from source against CANN, or replace it.",
     "每个二进制：基于 CANN 从源码重建，或替换。"},
};

const EffortRate *effort_rates(size_t *count) {
  *count = EFFORT__COUNT;
  return effort__rates;
}

const EffortRate *effort_rate(EffortKind k) {
  return (unsigned)k < EFFORT__COUNT ? &effort__rates[k] : &effort__rates[EFFORT_NONE];
}

int64_t effort_unit_cost(EffortKind k, uint32_t lines, bool guarded) {
  const EffortRate *r = effort_rate(k);
  int64_t c = r->centidays;
  if (r->unit == EFFORT_UNIT_NONE) return 0;
  if (r->unit == EFFORT_UNIT_KERNEL) c += ((int64_t)lines * r->centidays_per_100 + 99) / 100;
  if (guarded) c = (c * EFFORT_GUARDED_PERCENT + 99) / 100;
  return c;
}

/* ---------------------------------------------------------------------------
 * Effort - Private
 * ------------------------------------------------------------------------- */

typedef struct {
  EffortKind kind;
  const char *subject, *detail, *rule;
  size_t file;
  size_t index;
} EffortKey;

static int effort__str_cmp(const char *a, const char *b) {
  return strcmp(a ? a : "", b ? b : "");
}

/* Orders by kind, then by the unit's identity for that kind, then by input
 * position (so occurrences stay distinct). */
static int effort__key_cmp(const void *pa, const void *pb) {
  const EffortKey *a = pa, *b = pb;
  if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
  EffortUnit u = effort__rates[a->kind].unit;
  if (u == EFFORT_UNIT_FILE) {
    int c = effort__str_cmp(a->rule, b->rule);
    if (c) return c;
    if (a->file != b->file) return a->file < b->file ? -1 : 1;
  }
  if (u == EFFORT_UNIT_PATTERN || u == EFFORT_UNIT_SUBJECT || u == EFFORT_UNIT_KERNEL) {
    int c = effort__str_cmp(a->subject, b->subject);
    if (c) return c;
    if (u == EFFORT_UNIT_PATTERN) {
      c = effort__str_cmp(a->detail, b->detail);
      if (c) return c;
    }
  }
  return a->index < b->index ? -1 : a->index > b->index;
}

static bool effort__same_unit(const EffortKey *a, const EffortKey *b) {
  if (a->kind != b->kind) return false;
  EffortUnit u = effort__rates[a->kind].unit;
  switch (u) {
  case EFFORT_UNIT_NONE: return true;
  case EFFORT_UNIT_OCCURRENCE: return false;
  case EFFORT_UNIT_PATTERN: return !effort__str_cmp(a->subject, b->subject) && !effort__str_cmp(a->detail, b->detail);
  case EFFORT_UNIT_SUBJECT:
  case EFFORT_UNIT_KERNEL: return !effort__str_cmp(a->subject, b->subject);
  case EFFORT_UNIT_FILE: return !effort__str_cmp(a->rule, b->rule) && a->file == b->file;
  }
  return false;
}

void effort_compute(const EffortItem *items, size_t n, size_t n_phases, EffortSum *out, int64_t *item_cost) {
  memset(out, 0, sizeof *out);
  out->n_phases = n_phases;
  if (item_cost)
    for (size_t i = 0; i < n; i++) item_cost[i] = 0;
  EffortKey *keys = xmalloc((n ? n : 1) * sizeof *keys);
  size_t nk = 0;
  for (size_t i = 0; i < n; i++) {
    EffortKind k = (unsigned)items[i].kind < EFFORT__COUNT ? items[i].kind : EFFORT_NONE;
    if (items[i].transfer) { /* route A: transfer_to_npu does it at run time */
      out->lines[k].transfer_units++;
      continue;
    }
    const char *detail = items[i].detail && *items[i].detail ? items[i].detail : NULL;
    if (!detail && effort__rates[k].unit == EFFORT_UNIT_PATTERN)
      for (size_t j = 0; j < n && !detail; j++)
        if (items[j].kind == k && items[j].detail && *items[j].detail && !effort__str_cmp(items[j].subject, items[i].subject))
          detail = items[j].detail;
    keys[nk++] = (EffortKey){k, items[i].subject, detail, items[i].rule, items[i].file, i};
  }
  if (nk > 1) qsort(keys, nk, sizeof *keys, effort__key_cmp);
  size_t i = 0;
  while (i < nk) {
    size_t j = i + 1;
    while (j < nk && effort__same_unit(&keys[i], &keys[j])) j++;
    /* one unit: keys[i..j) */
    EffortKind k = keys[i].kind;
    bool guarded = true;
    uint32_t lines = 0;
    for (size_t m = i; m < j; m++) {
      const EffortItem *it = &items[keys[m].index];
      if (!it->guarded) guarded = false;
      if (it->weight > lines) lines = it->weight; /* the same kernel seen twice is one kernel */
    }
    bool has_op = false;
    for (size_t m = i; m < j; m++) has_op |= items[keys[m].index].has_op;
    EffortLine *l = &out->lines[k];
    if (effort__rates[k].unit != EFFORT_UNIT_NONE) {
      int64_t cost = effort_unit_cost(k, lines, guarded);
      if (has_op && effort__rates[k].unit == EFFORT_UNIT_KERNEL)
        cost = guarded ? (EFFORT_KERNEL_OP_CD * EFFORT_GUARDED_PERCENT + 99) / 100 : EFFORT_KERNEL_OP_CD;
      l->units++;
      if (guarded) l->guarded_units++;
      l->lines += lines;
      l->centidays += cost;
      if (item_cost) {
        size_t owner = keys[i].index;
        for (size_t m = i; m < j; m++) {
          const EffortItem *it = &items[keys[m].index];
          if (it->detail && *it->detail) {
            owner = keys[m].index;
            break;
          }
        }
        item_cost[owner] = cost;
      }
    } else {
      l->units += j - i;
    }
    i = j;
  }
  free(keys);
  for (size_t k = 0; k < EFFORT__COUNT; k++) out->findings += out->lines[k].centidays;
  out->validation = (int64_t)n_phases * EFFORT_PHASE_VALIDATION_CD;
  /* installing the stack and validating each phase is needed even when the
   * scan finds nothing to change */
  out->environment = n_phases > 0 ? EFFORT_ENVIRONMENT_CD : 0;
  out->total = out->findings + out->validation + out->environment;
}

void effort_range(int64_t cd, int64_t *low, int64_t *high) {
  if (cd < 0) cd = 0;
  *low = (cd * EFFORT_RANGE_LOW_PERCENT + 99) / 100;
  *high = (cd * EFFORT_RANGE_HIGH_PERCENT + 99) / 100;
}

int64_t effort_half_weeks(int64_t cd) {
  if (cd <= 0) return 0;
  /* 5 person-days a week: a half week is 250 centidays */
  return (cd + 249) / 250;
}

const char *effort_days_str(int64_t cd, char *buf, size_t size) {
  if (cd < 0) cd = 0;
  int64_t whole = cd / 100, frac = cd % 100;
  if (frac == 0) snprintf(buf, size, "%lld", (long long)whole);
  else if (frac % 10 == 0) snprintf(buf, size, "%lld.%lld", (long long)whole, (long long)(frac / 10));
  else snprintf(buf, size, "%lld.%02lld", (long long)whole, (long long)frac);
  return buf;
}

const char *effort_weeks_str(int64_t hw, char *buf, size_t size) {
  if (hw % 2 == 0) snprintf(buf, size, "%lld", (long long)(hw / 2));
  else snprintf(buf, size, "%lld.5", (long long)(hw / 2));
  return buf;
}

/* ---------------------------------------------------------------------------
 * Verdict
 * ------------------------------------------------------------------------- */

Verdict effort_item_verdict(const VerdictItem *it) {
  if (!it->involved) return VERDICT_FEASIBLE;
  bool hard_kind = it->kind == EFFORT_CUDA_KERNEL || it->kind == EFFORT_TRITON ||
                   it->kind == EFFORT_DEP_UNSUPPORTED || it->kind == EFFORT_REBUILD;
  if (it->p0 && !it->guarded) {
    if (it->kind == EFFORT_DEP_UNSUPPORTED && !it->has_replacement) return VERDICT_INFEASIBLE;
    if (hard_kind) return VERDICT_DIFFICULT;
  }
  if (it->severity <= SEV_WARNING && it->kind != EFFORT_NONE && it->kind != EFFORT_MECHANICAL) return VERDICT_ADAPT;
  return VERDICT_FEASIBLE;
}

Verdict effort_verdict(const VerdictItem *items, size_t n) {
  Verdict v = VERDICT_FEASIBLE;
  for (size_t i = 0; i < n; i++) {
    Verdict x = effort_item_verdict(&items[i]);
    if (x > v) v = x;
  }
  return v;
}

const char *verdict_zh(Verdict v) {
  return kb_text((KbText)(KBT_VERDICT_FEASIBLE + ((unsigned)v <= VERDICT_INFEASIBLE ? v : 0)), true);
}

const char *verdict_en(Verdict v) {
  return kb_text((KbText)(KBT_VERDICT_FEASIBLE + ((unsigned)v <= VERDICT_INFEASIBLE ? v : 0)), false);
}

const char *verdict_id(Verdict v) {
  static const char *const s[] = {"feasible", "needs-adaptation", "difficult", "not-feasible"};
  return (unsigned)v <= VERDICT_INFEASIBLE ? s[v] : s[0];
}
