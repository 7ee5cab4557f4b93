/* distributed: ASC5xx distributed detectors. The mapping rows for this domain live in kb.c. */
#include "analyzers/analyze.h"

void distributed_analyze(AnalyzeCtx *ctx) { (void)ctx; }
