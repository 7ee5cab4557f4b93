/* deps: ASC1xx dependency detectors. The mapping rows for this domain live in kb.c. */
#include "analyzers/analyze.h"

void deps_analyze(AnalyzeCtx *ctx) { (void)ctx; }
