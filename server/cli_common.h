/* cli_common: options shared by every CLI command (paths, rule selection,
 * target profile, threads, excludes) and the scan they all start with.
 * A CliCommon owns all its strings; free with cli_common_free. */
#ifndef ASC_CLI_COMMON_H
#define ASC_CLI_COMMON_H

#include "analyzers/analyze.h"
#include "server/config.h"
#include "server/workspace.h"

typedef struct {
  char **paths; size_t n_paths;
  char **select; size_t n_select;
  char **ignore; size_t n_ignore;
  char **exclude; size_t n_exclude;
  int threads;
  const char *config_path; /* --config, borrowed from argv */
  Config config;           /* loaded from the project (pyproject.toml / .ascend-lsp.toml) */
  AnalyzeOptions aopt;     /* built by cli_common_scan */
  bool chip_set, mindiesd_set, torch_npu_set;
  unsigned chip; bool mindiesd; const char *torch_npu;
} CliCommon;

void cli_common_init(CliCommon *c);
void cli_common_free(CliCommon *c);
/* Consumes a common option at argv[i]: returns how many arguments it used
 * (0: not a common option), or -1 after printing a usage error. */
int cli_common_arg(CliCommon *c, int argc, char **argv, int i);
void cli_common_add_path(CliCommon *c, const char *p);
/* Frees c and returns the usage exit code (2). */
int cli_common_fail(CliCommon *c);
/* Loads configuration, builds aopt, collects and analyzes the paths.
 * Returns 0, 1 when a path was missing (others scanned), 2 on fatal error. */
int cli_common_scan(CliCommon *c, Workspace *ws);

#endif
