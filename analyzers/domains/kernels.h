/* kernels: the custom-operator analysis (ASC4xx), shared by its parts.
 *
 *  - kernels_cuda.c walks a C/C++/CUDA tree: __global__ kernels (name,
 *    parameters, size, launch sites), CUDA runtime / library calls, c10::cuda
 *    identifiers and includes, looked up in the KB_C_* rows of kb_kernels.def;
 *  - kernels_py.c adds to the findings the table-driven Python matcher made
 *    from this domain's rows (Triton and numba.cuda kernels, autograd.Function subclasses,
 *    CUDAExtension / load calls) what only the tree shows: the kernel's
 *    size, what it does, what a Function wraps, which sources a build lists;
 *  - kernels_describe.c says what a kernel does from its name and body
 *    (KB_KERNEL_KIND_ROWS) and which op replaces it;
 *  - kernels.c is the entry point and reads prebuilt .so files (elf.h).
 *
 * Strings returned by these functions are heap-allocated; the caller frees
 * them. */
#ifndef ASC_KERNELS_H
#define ASC_KERNELS_H

#include "analyzers/engine/analyze.h"

/* One row of the kernel-kind table (kb_kernels.def, KB_KERNEL_KIND_ROWS). */
typedef struct {
  const char *kind;  /* what the kernel does, e.g. "RMS normalization" */
  const char *name;  /* globs over the lower-cased kernel name, or NULL */
  const char *body;  /* globs over the lower-cased last component of each callee, or NULL */
  const char *op;    /* the replacing op, or NULL when only a rewrite fits */
  Confidence confidence;
} KernelKind;

/* What a kernel named `name` whose body calls `callees` does: the first row
 * whose name globs match, else the first whose body globs match a callee;
 * NULL when nothing matches. *by_name tells which. Static storage. */
const KernelKind *kernels_classify(const char *name, const StrList *callees, bool *by_name);

/* The replacement text for a kernel of `lines` lines. `runner` names what
 * runs the kernel as it is on Ascend ("triton-ascend (Atlas A2/A3)" for a
 * Triton kernel), NULL when it must be rewritten. A kind from the table was
 * recognized from a keyword in the kernel's name or body, not from what it
 * computes: its op is shown as a candidate to analyse, never as the
 * replacement. Caller frees. */
char *kernels_replacement(const KernelKind *k, uint32_t lines, const char *runner);

/* "function: looks like RMS normalization (a keyword in its name, not
 * verified); candidates: ..." for the finding's detail. Caller frees. */
char *kernels_describe(const KernelKind *k, bool by_name, uint32_t lines, const char *runner);

/* Appends the callee name of every call under `node` (its text with blanks
 * removed, e.g. "tl.exp", "__shfl_xor_sync") to out, once each. Works for
 * the Python and the CUDA grammar. */
void kernels_callees(const char *text, TSNode node, StrList *out);

/* `text` with runs of blanks and line breaks collapsed to one space, cut at
 * max bytes with "...". Caller frees. */
char *kernels_squash(const char *text, size_t len, size_t max);

void kernels_cuda(AnalyzeCtx *ctx);
void kernels_python(AnalyzeCtx *ctx);

#endif
