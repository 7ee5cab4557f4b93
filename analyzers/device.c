/* device: ASC2xx detectors that need code rather than a mapping row. The
 * device-layer mappings themselves (torch.cuda.*, .cuda(), device strings,
 * environment variables) are rows in kb.c matched by pymatch. */
#include "analyzers/analyze.h"
#include "analyzers/pysyntax.h"
#include "analyzers/resolver.h"
#include "analyzers/pysym.h"

#include <stdlib.h>

/* Identifiers that conventionally hold a device index. */
#define DEVICE_INDEX_NAMES "local_rank|rank|gpu|gpu_id|device_id|device_index|*.local_rank|*.gpu|*.device_id|LOCAL_RANK"

static const KbEntry device__int_row = {"ASC216", KB_DETECTOR, "int-device-index", NULL, NULL,
                                        ".to(f\"npu:{i}\")", CONF_MEDIUM, KBFIX_CUSTOM, FIX_UNSAFE, NULL,
                                        NULL, true, true, 0, NULL, NULL};
static const KbEntry device__props_row = {"ASC210", KB_DETECTOR, "capability-fields", NULL, NULL,
                                          "NPU device properties have no major/minor; branch on the device type",
                                          CONF_HIGH, KBFIX_NONE, FIX_NONE, NULL, NULL, false, false, 0, NULL,
                                          NULL};

/* `.to(0)` / `.to(local_rank)`: an integer device means CUDA. */
static void device__int_to(AnalyzeCtx *ctx, TSNode call) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
  if (!pysyntax_is(fn, "attribute") || !pysyntax_is(args, "argument_list")) return;
  TSNode name = pysym_child(fn, PYFIELD_ATTRIBUTE);
  uint32_t ns = ts_node_start_byte(name), ne = ts_node_end_byte(name);
  if (ne - ns != 2 || memcmp(ctx->text + ns, "to", 2) != 0) return;
  TSNode a = pysyntax_argument(ctx->py, args, "0|device");
  if (ts_node_is_null(a)) return;
  bool is_int = pysyntax_is(a, "integer");
  char *txt = NULL;
  if (!is_int) {
    txt = pysyntax_name_text(ctx->py, a);
    if (!txt || pysyntax_is(a, "string") || !kb_pattern_match(DEVICE_INDEX_NAMES, txt)) {
      free(txt);
      return;
    }
  } else {
    txt = pyfile_node_text(ctx->py, a);
  }
  char *subj = xasprintf(".to(%s)", txt);
  char *repl = xasprintf(".to(f\"npu:{%s}\")", txt);
  TSPoint s = ts_node_start_point(a), e = ts_node_end_point(a);
  Finding *f = kb_emit(ctx->out, kb_rule("ASC216"), &device__int_row, subj, repl, ts_node_start_byte(a),
                       ts_node_end_byte(a), s.row, s.column, e.row, e.column);
  f->fix = FIX_UNSAFE;
  char *edit = xasprintf("f\"npu:{%s}\"", txt);
  finding_add_edit(f, ts_node_start_byte(a), ts_node_end_byte(a), edit);
  if (!ctx->py->imports_torch_npu) {
    char *ins = pysyntax_import_insertion(ctx->py, "import torch_npu");
    uint32_t at = pysyntax_import_point(ctx->py);
    finding_add_edit(f, at, at, ins);
    f->fix_needs_torch_npu = true;
    free(ins);
  }
  free(edit);
  free(repl);
  free(subj);
  free(txt);
}

/* `torch.cuda.get_device_properties(i).major` and `.minor` */
static void device__props_fields(AnalyzeCtx *ctx, TSNode attr) {
  TSNode obj = pysym_child(attr, PYFIELD_OBJECT);
  TSNode name = pysym_child(attr, PYFIELD_ATTRIBUTE);
  if (!pysyntax_is(obj, "call") || ts_node_is_null(name)) return;
  uint32_t ns = ts_node_start_byte(name), ne = ts_node_end_byte(name);
  bool field = (ne - ns == 5 && memcmp(ctx->text + ns, "major", 5) == 0) ||
               (ne - ns == 5 && memcmp(ctx->text + ns, "minor", 5) == 0);
  if (!field) return;
  char *q = pyfile_qualname(ctx->py, obj);
  if (q && strcmp(q, "torch.cuda.get_device_properties") == 0) {
    char *subj = xasprintf("%s(...).%.*s", q, (int)(ne - ns), ctx->text + ns);
    TSPoint s = ts_node_start_point(name), e = ts_node_end_point(name);
    kb_emit(ctx->out, kb_rule("ASC210"), &device__props_row, subj, NULL, ns, ne, s.row, s.column, e.row, e.column);
    free(subj);
  }
  free(q);
}

static void *device__begin(AnalyzeCtx *ctx) { return ctx->kind == FILE_PYTHON && ctx->py ? ctx : NULL; }

static bool device__visit(void *state, const PyVisit *v) {
  AnalyzeCtx *ctx = state;
  if (v->sym == PYSYM_CALL) device__int_to(ctx, v->node);
  else if (v->sym == PYSYM_ATTRIBUTE) device__props_fields(ctx, v->node);
  return v->sym != PYSYM_COMMENT && v->sym != PYSYM_IMPORT_STATEMENT && v->sym != PYSYM_IMPORT_FROM_STATEMENT;
}

static void device__end(void *state) { (void)state; }

const PyVisitor device_visitor = {device__begin, device__visit, device__end};
