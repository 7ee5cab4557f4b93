/* cli_common: options shared by every CLI command (paths, rule selection,
 * target profile, threads, excludes) and the scan they all start with.
 * A CliCommon owns all its strings; free with cli_common_free. */
#ifndef ASC_CLI_COMMON_H
#define ASC_CLI_COMMON_H

#include <stdint.h>
#include <sys/stat.h>
#include "analyzers/engine/analyze.h"
#include "server/config.h"
#include "server/workspace.h"

typedef struct {
  char **paths; size_t n_paths;
  char **select; size_t n_select;
  char **extend_select; size_t n_extend_select;
  char **ignore; size_t n_ignore;
  char **exclude; size_t n_exclude;
  int threads;
  const char *config_path; /* --config, borrowed from argv */
  bool isolated;           /* --isolated: no configuration file */
  bool no_cache;           /* --no-cache: neither read nor write the disk cache */
  const char *cache_dir;   /* --cache-dir, borrowed from argv */
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
/* Loads the configuration (printing its problems to stderr) and builds
 * aopt from it with config_apply; command-line flags then override it:
 * --select replaces the file's select and extend-select, --extend-select
 * adds to the selection, --ignore adds to the file's ignore, target flags
 * replace the file's target. Returns 0 or 2 (unreadable --config). */
int cli_common_options(CliCommon *c);
/* Collects the paths (with the configured excludes) into ws. Returns 0, or
 * 1 when a path was missing (the others are collected). */
int cli_common_collect(CliCommon *c, Workspace *ws);
/* Analyzes every collected file with the per-file-ignores filter, through
 * the disk cache unless it is off (--no-cache); prints the scan's notes.
 * A cache that cannot be written is said once on stderr, the results are
 * unaffected. */
void cli_common_analyze(CliCommon *c, Workspace *ws);
/* cli_common_options, cli_common_collect, then cli_common_analyze. Returns 0, 1 when a path was missing
 * (others scanned), 2 on fatal error. */
int cli_common_scan(CliCommon *c, Workspace *ws);
/* The directory relative workspace paths are relative to: the single
 * directory scanned, else "." (paths are then as given). Borrowed. */
const char *cli_common_base(const CliCommon *c);

/* Replaces the regular file at `path` (no symbolic link) with data, without
 * ever leaving it half written: a temporary file in the same directory gets
 * the data, the original's mode (and owner, when permitted), an fsync, and
 * is renamed over path; the directory is synced after. `before` and
 * `hash` (ws_hash of the bytes read) describe the file as it was read: when
 * it changed since (device, inode, size, mtime or content), nothing is
 * written and -ESTALE is returned. Returns 0 or -errno; on failure the
 * original is untouched and no temporary file is left. */
int cli_common_replace_file(const char *path, const struct stat *before, uint64_t hash, const char *data,
                            size_t len) WARN_UNUSED;

#endif
