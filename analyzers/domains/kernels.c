/* kernels: ASC4xx entry point (see kernels.h) and the prebuilt-binary check:
 * a .so whose ELF dynamic section needs a CUDA library (KB_ELF_NEEDED rows)
 * must be rebuilt, which is one error per file. The file is only read,
 * never loaded or run. */
#include "analyzers/domains/kernels.h"
#include "analyzers/domains/elf.h"

#include <stdlib.h>

static const char *kernels__base(const char *path) {
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}

static void kernels__elf(AnalyzeCtx *ctx) {
  StrList needed = {0};
  ElfInfo info;
  if (elf_needed(ctx->text, ctx->len, &info, &needed) != ELF_OK) {
    strlist_free(&needed);
    return;
  }
  const KbEntry *first = NULL;
  StrBuf libs, map, all;
  sb_init(&libs);
  sb_init(&map);
  sb_init(&all);
  for (size_t i = 0; i < needed.len; i++) {
    sb_printf(&all, "%s%s", i ? ", " : "", needed.items[i]);
    const KbEntry *e = kb_lookup(KB_ELF_NEEDED, needed.items[i], ctx->opt->user_entries, ctx->opt->n_user_entries);
    if (!e) continue;
    if (!first) first = e;
    sb_printf(&libs, "%s%s", libs.len ? ", " : "", needed.items[i]);
    sb_printf(&map, "%s%s -> %s", map.len ? "; " : "", needed.items[i], e->replacement ? e->replacement : "?");
  }
  if (first && kb_rule(first->code)) {
    char *subject = xasprintf("%s (needs %s)", kernels__base(ctx->path), libs.data);
    char *repl = xasprintf("rebuild it from source for Ascend (%s)", map.data);
    Finding *f = kb_emit(ctx->out, kb_rule(first->code), first, subject, repl, 0, 0, 0, 0, 0, 0);
    f->confidence = CONF_HIGH; /* the need to rebuild is certain; the rows' library mapping is not */
    f->detail = xasprintf("ELF %d-bit %s; DT_NEEDED: %s", info.bits, info.big_endian ? "big-endian" : "little-endian",
                          all.data);
    free(repl);
    free(subject);
  }
  sb_free(&libs);
  sb_free(&map);
  sb_free(&all);
  strlist_free(&needed);
}

void kernels_analyze(AnalyzeCtx *ctx) {
  switch (ctx->kind) {
  case FILE_CUDA:
    if (ctx->forest) kernels_cuda(ctx);
    break;
  case FILE_PYTHON:
    if (ctx->py && ctx->forest) kernels_python(ctx);
    break;
  case FILE_ELF: kernels__elf(ctx); break;
  default: break;
  }
}
