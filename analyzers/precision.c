/* precision: ASC6xx precision detectors. The mapping rows for this domain live in kb.c. */
#include "analyzers/analyze.h"

void precision_analyze(AnalyzeCtx *ctx) { (void)ctx; }
