/* kernels: ASC4xx custom-operator detectors. The mapping rows for this domain live in kb.c. */
#include "analyzers/analyze.h"

void kernels_analyze(AnalyzeCtx *ctx) { (void)ctx; }
