/* config: per-project settings from `[tool.ascend-lsp]` in pyproject.toml or
 * from .ascend-lsp.toml (same keys at the top level, or under
 * [tool.ascend-lsp]): select, ignore, extend-select, per-file-ignores,
 * exclude, target (chip, torch-npu, cann, mindiesd), phases and user rules
 * ([[tool.ascend-lsp.rules]], codes ASC900-ASC999). docs/configuration.md is
 * the reference.
 *
 * The CLI and the language server derive their AnalyzeOptions from a Config
 * the same way (config_apply), so a project is analyzed identically by
 * both; the CLI then lets its flags override the file.
 *
 * Problems in the file (syntax, unknown keys, bad values) never stop the
 * analysis: the offending key is skipped and the problem is recorded in
 * Config.error, one per line, as "LINE: message" (1-based line in
 * Config.path) or a plain "message".
 *
 * Ownership: a Config owns everything it holds, including the strings of
 * its user rules, in one arena (Config.arena); free with config_free, which
 * releases it whole. Pointers config_apply puts into AnalyzeOptions are borrowed
 * from the Config until config_free. Reading a Config from several threads
 * is safe; nothing here keeps global state. */
#ifndef ASC_CONFIG_H
#define ASC_CONFIG_H

#include "analyzers/engine/analyze.h"
#include "analyzers/engine/arena.h"

/* One `per-file-ignores` entry: a glob and the codes (or prefixes) it
 * silences. */
typedef struct {
  char *glob;   /* relative to Config.root, or a bare file name */
  char **codes; size_t n_codes;
} ConfigFileIgnore;

typedef struct {
  char *path;   /* file the config came from, or NULL when none was found */
  char *root;   /* absolute directory of that file: globs are relative to it */
  char *base;   /* absolute directory relative paths given to config_filter_findings
                   are relative to (the directory given to config_load, see config_set_base) */
  char **select; size_t n_select;               /* as written; empty = every rule */
  char **extend_select; size_t n_extend_select;
  char **ignore; size_t n_ignore;
  ConfigFileIgnore *per_file_ignores; size_t n_per_file_ignores;
  char **exclude; size_t n_exclude;
  unsigned chip; bool chip_set;                 /* target.chip as CHIP_* */
  char *torch_npu;                              /* target.torch-npu, or NULL */
  char *cann;                                   /* target.cann, or NULL (for the report) */
  bool mindiesd; bool mindiesd_set;             /* target.mindiesd */
  char **phases; size_t n_phases;               /* "NAME=GLOB" */
  char *cache_dir;                              /* cache-dir, absolute (relative to root), or NULL */
  KbEntry *user_entries; size_t n_user_entries; /* one per [[rules]] table */
  KbRule *user_rules; size_t n_user_rules;      /* one per distinct user code */
  Arena arena;                                  /* holds every string and array above */
  const char **opt_select; size_t n_opt_select; /* select + extend-select, for config_apply */
  bool report_unused_noqa;                      /* ASC001 named in select/extend-select */
  char *error;  /* problems to report (see above), or NULL */
} Config;

/* Finds the config for a directory, walking up to the filesystem root (in
 * each directory .ascend-lsp.toml wins over pyproject.toml; a pyproject.toml
 * without [tool.ascend-lsp] is passed over), or loads `explicit_path`.
 * Always initializes c (an empty Config when nothing is found). Returns 0,
 * also when no file exists or the file has errors (see Config.error), or
 * -errno when explicit_path cannot be read. */
int config_load(Config *c, const char *dir, const char *explicit_path) WARN_UNUSED;
/* Parses TOML text as if read from `path` (pyproject: keys live under
 * [tool.ascend-lsp]). Initializes c; returns whether the text had a section
 * of ours. For tests and for editors' unsaved buffers. */
bool config_parse(Config *c, const char *text, size_t len, const char *path, bool pyproject);
void config_free(Config *c);

/* Fills the options a config sets: select (+ extend-select), ignore, target
 * (chip, torch-npu, mindiesd), user rules, report_unused_noqa. Other fields
 * keep their value: call analyze_options_default first. Borrowed pointers. */
void config_apply(const Config *c, AnalyzeOptions *o);

/* Sets the directory relative paths given to config_filter_findings are
 * relative to (copied; made absolute). */
void config_set_base(Config *c, const char *dir);

/* Applies per-file-ignores to one file's findings; removes (and frees) the
 * findings of ignored codes. `path` is absolute or relative to Config.base.
 * Matches the WsFilterFn signature with data = Config*. Thread-safe. */
void config_filter_findings(void *config, const char *path, FindingList *findings);
/* Whether per-file-ignores silence `code` in `path` (as above). */
bool config_file_ignores(const Config *c, const char *path, const char *code);

/* The exclude globs rewritten for a scan of `scan_dir`: they are written
 * relative to Config.root, the workspace matches them relative to the
 * scanned directory (or against a file or directory name). Returns a heap
 * array the caller frees (not its strings, which live until config_free). */
const char **config_excludes_for(Config *c, const char *scan_dir, size_t *n);

/* A rule by code: the built-in table, then the config's user rules (c may
 * be NULL). Borrowed. */
const KbRule *config_rule(const Config *c, const char *code);

/* Whether a select list names ASC001 explicitly ("ASC0", "ASC00" or
 * "ASC001"; "ASC" alone, i.e. everything, does not). */
bool config_names_unused_noqa(const char *const *list, size_t n);
/* Whether s is a code or code prefix ("ASC", "ASC2", "ASC201"). */
bool config_code_valid(const char *s);

/* Parses a chip name ("910B", "310P", ...) into CHIP_*; 0 when unknown. */
unsigned config_chip(const char *name);

#endif
