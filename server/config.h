/* config: per-project settings from `[tool.ascend-lsp]` in pyproject.toml or
 * from .ascend-lsp.toml, with the same keys as the CLI: select, ignore,
 * extend-select, per-file-ignores, exclude, target (chip, torch-npu, cann,
 * mindiesd), phases, and user rules. Command-line flags override the file.
 * A Config owns everything it holds; free with config_free. */
#ifndef ASC_CONFIG_H
#define ASC_CONFIG_H

#include "analyzers/analyze.h"

typedef struct {
  char *path;   /* file the config came from, or NULL */
  char **select; size_t n_select;
  char **ignore; size_t n_ignore;
  char **exclude; size_t n_exclude;
  unsigned chip; bool chip_set;
  char *torch_npu;
  bool mindiesd; bool mindiesd_set;
  char **phases; size_t n_phases; /* "NAME=GLOB" */
  KbEntry *user_entries; size_t n_user_entries;
  KbRule *user_rules; size_t n_user_rules;
  char *error;  /* a parse problem to report, or NULL */
} Config;

/* Finds the config for a directory (walking up to the filesystem root) or
 * loads `explicit_path`. Returns 0 (also when none exists) or -errno. */
int config_load(Config *c, const char *dir, const char *explicit_path) WARN_UNUSED;
void config_free(Config *c);
/* Applies per-file-ignores to one file's findings (path relative to the
 * scanned root); matches the WsFilterFn signature with data = Config*. */
void config_filter_findings(void *config, const char *path, FindingList *findings);

/* Parses a chip name ("910B", "310P", ...) into CHIP_*; 0 when unknown. */
unsigned config_chip(const char *name);

#endif
