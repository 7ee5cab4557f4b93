/* output: renders a scanned Workspace's findings for `check`: text (one line
 * per finding, like compilers), JSON (the documented schema), SARIF 2.1.0,
 * GitHub workflow annotations, and per-rule statistics. Positions are
 * 1-based lines and code-point columns. */
#ifndef ASC_OUTPUT_H
#define ASC_OUTPUT_H

#include <stdio.h>
#include <cJSON.h>
#include "server/workspace.h"

typedef enum { OUT_TEXT, OUT_JSON, OUT_SARIF, OUT_GITHUB } OutputFormat;

bool output_format_parse(const char *s, OutputFormat *out);
void output_write(FILE *out, OutputFormat fmt, const Workspace *ws, const AnalyzeOptions *opt);
void output_statistics(FILE *out, const Workspace *ws);

/* JSON object of one finding (SPEC schema). Caller owns (cJSON_Delete). */
cJSON *output_finding_json(const Finding *f, const char *file);
/* SARIF log for the workspace. Caller owns (cJSON_Delete). */
cJSON *output_sarif(const Workspace *ws, const AnalyzeOptions *opt);

#endif
