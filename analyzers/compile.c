/* compile: ASC7xx compilation detectors. The mapping rows for this domain live in kb.c. */
#include "analyzers/analyze.h"

void compile_analyze(AnalyzeCtx *ctx) { (void)ctx; }
