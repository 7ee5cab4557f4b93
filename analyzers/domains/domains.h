/* domains: the detectors, one per domain of the rule codes, that the
 * per-file pipeline (analyzers/engine/analyze.c) runs in its domain table.
 *
 *   deps*.c       ASC1xx  dependency files (requirements, pyproject, setup.py/cfg, conda)
 *   device.c      ASC2xx  device selection and CUDA device APIs (after the matcher)
 *   attention.c   ASC3xx  attention kernels, hand-written attention, wrappers
 *   kernels*.c    ASC4xx  CUDA/C++ sources, Triton and extension builds, ELF (elf.c)
 *   distributed.c ASC5xx  NCCL backends, all-to-all and ring patterns
 *   precision.c   ASC6xx  float64, complex, upcasts, autocast
 *   compile.c     ASC7xx  torch.compile, CUDA graphs, JIT
 *
 * Whole-file detectors take an AnalyzeCtx; Python detectors are visitors of
 * the shared walk. Each writes only to ctx->out, which holds the findings of
 * the detectors before it in the table (see analyze.h for the order). Adding
 * a detector is one row in the table and one declaration here. */
#ifndef ASC_DOMAINS_H
#define ASC_DOMAINS_H

#include "analyzers/engine/context.h"

void deps_analyze(AnalyzeCtx *ctx);       /* ASC1xx: dependency files (and setup.py) */
void kernels_analyze(AnalyzeCtx *ctx);    /* ASC4xx: CUDA/C++ sources, ELF, Python kernel details */
extern const PyVisitor device_visitor;      /* ASC2xx */
extern const PyVisitor coverage_visitor;    /* ASC219-ASC223: operator coverage */
extern const PyVisitor attention_visitor;   /* ASC3xx */
extern const PyVisitor distributed_visitor; /* ASC5xx */
extern const PyVisitor precision_visitor;   /* ASC6xx */
extern const PyVisitor compile_visitor;     /* ASC7xx */

/* The attention pass over a whole Python file, after its units (analyze.c).
 * attention_file_begin takes every unit's calls (ctx->unit is the file) and
 * works out which functions run only under no_grad; NULL when there is
 * nothing to do. A unit with UNIT_ATTN_LINKS either gives its kept
 * conclusion while attention_file_holds (attention_file_seed: its kernel
 * sites, for wrappers elsewhere) or is walked with attention_visitor.visit.
 * attention_file_end then reports into ctx->out: it completes the walked
 * units' findings, adds the wrapper calls (ASC309) of every unit and the
 * walked units' hand-written attention (ASC304), in that order, at the end
 * of ctx->out; returns how many wrapper calls it added, *handwritten the
 * rest.
 * attention_file_keep records what a walked unit [start, end) read from
 * outside itself into l (sites, no_grad functions, the file's fold), the
 * caller fills l's findings; attention_file_free ends the pass. */
void *attention_file_begin(AnalyzeCtx *ctx);
bool attention_file_holds(void *st, const UnitLinks *l, uint32_t start, uint32_t end);
void attention_file_seed(void *st, const UnitLinks *l);
size_t attention_file_end(void *st, size_t *handwritten);
void attention_file_keep(void *st, uint32_t start, uint32_t end, UnitLinks *l);
void attention_file_free(void *st);

#endif
