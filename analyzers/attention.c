/* attention: ASC3xx attention detectors. The mapping rows for this domain live in kb.c. */
#include "analyzers/analyze.h"

void attention_analyze(AnalyzeCtx *ctx) { (void)ctx; }
