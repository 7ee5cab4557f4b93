/* The knowledge-base data files, in domain order (see kb.c). No include
 * guard: kb.c includes this list once per table section. */
#define NO_FIX KBFIX_NONE, FIX_NONE, NULL, NULL
#include "analyzers/kb/kb_meta.def"
#include "analyzers/kb/kb_deps.def"
#include "analyzers/kb/kb_device.def"
#include "analyzers/kb/kb_attention.def"
#include "analyzers/kb/kb_kernels.def"
#include "analyzers/kb/kb_distributed.def"
#include "analyzers/kb/kb_precision.def"
#include "analyzers/kb/kb_compile.def"
#include "analyzers/kb/kb_project.def"
#undef NO_FIX
