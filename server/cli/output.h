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
/* The directory the workspace's paths are relative to: its root when the
 * files were found under a single scanned directory (their paths do not
 * repeat it), else "." (paths are as given). Borrowed from ws. */
const char *output_base(const Workspace *ws);
/* A file's path as the user can open it from the current directory (text
 * and GitHub output; JSON keeps paths relative to the scanned root, SARIF
 * relative to %SRCROOT%). Caller frees. */
char *output_display_path(const Workspace *ws, const WsFile *wf);
void output_write(FILE *out, OutputFormat fmt, const Workspace *ws, const AnalyzeOptions *opt);
/* Per-rule counts, most frequent first, as ruff prints them
 * ("3<TAB>ASC201<TAB>[*] torch-cuda-api"), then a total line. */
void output_statistics(FILE *out, const Workspace *ws);
/* The same table as a JSON array of {code, name, count, fixable,
 * unsafe_fixable}. */
void output_statistics_json(FILE *out, const Workspace *ws);

/* JSON object of one finding (SPEC schema). Caller owns (cJSON_Delete). */
cJSON *output_finding_json(const Finding *f, const char *file);
/* SARIF log for the workspace. Caller owns (cJSON_Delete). */
cJSON *output_sarif(const Workspace *ws, const AnalyzeOptions *opt);

/* Writes a unified diff of a -> b (git style: `--- a/PATH`, `+++ b/PATH`,
 * `@@` hunks with 3 lines of context; LF and CRLF endings are printed as
 * they are, so the diff applies with `git apply`). Nothing is written when
 * the texts are equal. Returns the number of hunks. */
size_t output_diff(FILE *out, const char *path, const char *a, size_t alen, const char *b, size_t blen);

#endif
