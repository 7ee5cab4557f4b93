/* cli_common: see cli_common.h. */
#include "server/cli/cli_common.h"
#include "server/cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

void cli_common_init(CliCommon *c) {
  memset(c, 0, sizeof *c);
  analyze_options_default(&c->aopt);
}

static void cli_common__free_list(char **l, size_t n) {
  for (size_t i = 0; i < n; i++) free(l[i]);
  free(l);
}

void cli_common_free(CliCommon *c) {
  cli_common__free_list(c->paths, c->n_paths);
  cli_common__free_list(c->select, c->n_select);
  cli_common__free_list(c->extend_select, c->n_extend_select);
  cli_common__free_list(c->ignore, c->n_ignore);
  cli_common__free_list(c->exclude, c->n_exclude);
  free((void *)c->aopt.select);
  free((void *)c->aopt.ignore);
  config_free(&c->config);
  memset(c, 0, sizeof *c);
}

int cli_common_fail(CliCommon *c) {
  cli_common_free(c);
  return 2;
}

void cli_common_add_path(CliCommon *c, const char *p) {
  c->paths = xrealloc(c->paths, (c->n_paths + 1) * sizeof *c->paths);
  c->paths[c->n_paths++] = xstrdup(p);
}

/* "--opt VALUE" or "--opt=VALUE": returns the value and sets *used. */
static const char *cli_common__value(int argc, char **argv, int i, const char *opt, int *used) {
  size_t n = strlen(opt);
  if (strcmp(argv[i], opt) == 0) {
    if (i + 1 >= argc) {
      fprintf(stderr, "ascend-lsp: %s needs a value\n", opt);
      *used = -1;
      return NULL;
    }
    *used = 2;
    return argv[i + 1];
  }
  if (strncmp(argv[i], opt, n) == 0 && argv[i][n] == '=') {
    *used = 1;
    return argv[i] + n + 1;
  }
  return NULL;
}

int cli_common_arg(CliCommon *c, int argc, char **argv, int i) {
  int used = 0;
  const char *v;
  if ((v = cli_common__value(argc, argv, i, "--select", &used))) cli_split_codes(v, &c->select, &c->n_select);
  else if ((v = cli_common__value(argc, argv, i, "--extend-select", &used)))
    cli_split_codes(v, &c->extend_select, &c->n_extend_select);
  else if ((v = cli_common__value(argc, argv, i, "--ignore", &used))) cli_split_codes(v, &c->ignore, &c->n_ignore);
  else if ((v = cli_common__value(argc, argv, i, "--exclude", &used))) cli_split_codes(v, &c->exclude, &c->n_exclude);
  else if ((v = cli_common__value(argc, argv, i, "--config", &used))) c->config_path = v;
  else if ((v = cli_common__value(argc, argv, i, "--cache-dir", &used))) c->cache_dir = v;
  else if ((v = cli_common__value(argc, argv, i, "--torch-npu", &used))) {
    c->torch_npu = v;
    c->torch_npu_set = true;
  } else if ((v = cli_common__value(argc, argv, i, "--threads", &used))) {
    c->threads = atoi(v);
    if (c->threads < 0 || c->threads > 256) {
      fprintf(stderr, "ascend-lsp: --threads takes 0..256\n");
      return -1;
    }
  } else if ((v = cli_common__value(argc, argv, i, "--chip", &used))) {
    c->chip = config_chip(v);
    c->chip_set = true;
    if (!c->chip) {
      fprintf(stderr, "ascend-lsp: unknown chip '%s' (910B, A3, 950, 910A, 310P)\n", v);
      return -1;
    }
  } else if (strcmp(argv[i], "--isolated") == 0) {
    c->isolated = true;
    used = 1;
  } else if (strcmp(argv[i], "--no-cache") == 0) {
    c->no_cache = true;
    used = 1;
  } else if (strcmp(argv[i], "--mindiesd") == 0) {
    c->mindiesd = c->mindiesd_set = true;
    used = 1;
  } else if (strcmp(argv[i], "--no-mindiesd") == 0) {
    c->mindiesd = false;
    c->mindiesd_set = true;
    used = 1;
  }
  return used;
}

/* Codes from --select/--ignore/--extend-select must be codes or prefixes;
 * a typo would otherwise silently select nothing. */
static int cli_common__check_codes(char **l, size_t n, const char *opt) {
  for (size_t i = 0; i < n; i++)
    if (!config_code_valid(l[i])) {
      fprintf(stderr, "ascend-lsp: %s: '%s' is not a rule code or prefix (like ASC201 or ASC2)\n", opt, l[i]);
      return -1;
    }
  return 0;
}

/* The directory a project config is searched from: the first path, or its
 * parent when it is a file. */
static char *cli_common__config_dir(const CliCommon *c) {
  const char *p = c->n_paths ? c->paths[0] : ".";
  struct stat st;
  if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) return xstrdup(p);
  const char *slash = strrchr(p, '/');
  return slash ? xstrndup(p, (size_t)(slash - p)) : xstrdup(".");
}

const char *cli_common_base(const CliCommon *c) {
  struct stat st;
  if (c->n_paths == 1 && stat(c->paths[0], &st) == 0 && S_ISDIR(st.st_mode)) return c->paths[0];
  if (c->n_paths == 0) return ".";
  return ".";
}

static const char **cli_common__merge(const char *const *a, size_t na, char **b, size_t nb, size_t *n) {
  const char **out = xcalloc(na + nb + 1, sizeof *out);
  for (size_t i = 0; i < na; i++) out[i] = a[i];
  for (size_t i = 0; i < nb; i++) out[na + i] = b[i];
  *n = na + nb;
  return out;
}

/* Prints the config's problems, one per line, as path:line: message. */
static void cli_common__config_errors(const Config *cfg) {
  if (!cfg->error) return;
  const char *p = cfg->error;
  while (*p) {
    size_t n = strcspn(p, "\n");
    bool lined = *p >= '0' && *p <= '9';
    fprintf(stderr, "ascend-lsp: %s%s%.*s\n", cfg->path ? cfg->path : "config", lined ? ":" : ": ", (int)n, p);
    p += n;
    if (*p) p++;
  }
}

int cli_common_options(CliCommon *c) {
  if (cli_common__check_codes(c->select, c->n_select, "--select") ||
      cli_common__check_codes(c->extend_select, c->n_extend_select, "--extend-select") ||
      cli_common__check_codes(c->ignore, c->n_ignore, "--ignore"))
    return 2;
  char *dir = cli_common__config_dir(c);
  int crc = config_load(&c->config, c->isolated ? NULL : dir, c->isolated ? NULL : c->config_path);
  free(dir);
  if (crc != 0) {
    fprintf(stderr, "ascend-lsp: cannot read config %s: %s\n", c->config_path ? c->config_path : "", util_strerror(crc));
    return 2;
  }
  config_set_base(&c->config, cli_common_base(c));
  cli_common__config_errors(&c->config);
  AnalyzeOptions *o = &c->aopt;
  analyze_options_default(o);
  config_apply(&c->config, o);
  if (c->chip_set) o->chip = c->chip;
  if (c->torch_npu_set) o->torch_npu = c->torch_npu;
  if (c->mindiesd_set) o->mindiesd = c->mindiesd;
  char *notice = config_support_notice(o->torch_npu);
  if (notice) fprintf(stderr, "ascend-lsp: %s\n", notice);
  free(notice);
  /* --select starts the selection afresh; an empty selection is every
   * rule, which --extend-select cannot widen */
  const char *const *sel = o->select;
  size_t nsel = o->n_select;
  if (c->n_select) {
    sel = (const char *const *)c->select;
    nsel = c->n_select;
  }
  o->select = cli_common__merge(sel, nsel, nsel ? c->extend_select : NULL, nsel ? c->n_extend_select : 0,
                                &o->n_select);
  o->ignore = cli_common__merge(o->ignore, o->n_ignore, c->ignore, c->n_ignore, &o->n_ignore);
  o->report_unused_noqa = (o->report_unused_noqa && !c->n_select) ||
                          config_names_unused_noqa((const char *const *)c->select, c->n_select) ||
                          config_names_unused_noqa((const char *const *)c->extend_select, c->n_extend_select);
  return 0;
}

int cli_common_collect(CliCommon *c, Workspace *ws) {
  size_t ncfg;
  const char **cfg_ex = config_excludes_for(&c->config, cli_common_base(c), &ncfg);
  size_t nex;
  const char **ex = cli_common__merge(cfg_ex, ncfg, c->exclude, c->n_exclude, &nex);
  WsOptions wopt = {ex, nex, 0};
  int rc = ws_collect(ws, (const char *const *)c->paths, c->n_paths, &wopt);
  free(ex);
  free(cfg_ex);
  return rc == 0 ? 0 : 1;
}

/* The project model needs a project: a directory among the paths. Files
 * named alone are analyzed alone, as before (their callers and callees in
 * other files are not scanned). */
static bool cli_common__any_directory(const CliCommon *c) {
  for (size_t i = 0; i < c->n_paths; i++) {
    struct stat st;
    if (stat(c->paths[i], &st) == 0 && S_ISDIR(st.st_mode)) return true;
  }
  return false;
}

/* The disk cache of this scan, or NULL when it is off. --cache-dir wins
 * over ASCEND_LSP_CACHE_DIR, which wins over the configuration's cache-dir. */
static DiskCache *cli_common__disk(const CliCommon *c) {
  const char *off = getenv("ASCEND_LSP_NO_CACHE");
  if (c->no_cache || (off && *off && strcmp(off, "0") != 0)) return NULL;
  char *dir = c->cache_dir ? xstrdup(c->cache_dir) : dc_default_dir(c->config.cache_dir);
  if (!dir) return NULL;
  DiskCache *dc = dc_load(dir, ws_scan_identity(&c->aopt, (const char *const *)c->paths, c->n_paths));
  free(dir);
  return dc;
}

void cli_common_analyze(CliCommon *c, Workspace *ws) {
  DiskCache *disk = cli_common__disk(c);
  WsRun run = {.threads = c->threads, .disk = disk, .ignores = config_file_ignore_codes, .ignores_data = &c->config};
  int got = cli_common__any_directory(c) ? ws_analyze_project(ws, &c->aopt, &run, config_filter_findings, &c->config)
                                        : ws_analyze(ws, &c->aopt, &run);
  const char *stats = getenv("ASCEND_LSP_CACHE_STATS");
  if (disk && stats && *stats && strcmp(stats, "0") != 0) {
    size_t hits, recorded, stamped;
    dc_stats(disk, &hits, &recorded, &stamped);
    fprintf(stderr, "cache: %zu of %zu files from the cache\n", hits, recorded);
    if (stamped) fprintf(stderr, "cache: %zu files unchanged by their stamps, not read\n", stamped);
    if (got == 1) fprintf(stderr, "cache: the project's outcome from the cache\n");
  }
  int rc = disk ? dc_save(disk) : 0;
  if (rc != 0) fprintf(stderr, "note: the analysis cache was not written (%s); use --no-cache to turn it off\n",
                       strerror(-rc));
  dc_free(disk);
  for (size_t i = 0; i < ws->notes.len; i++) fprintf(stderr, "note: %s\n", ws->notes.items[i]);
}

int cli_common_scan(CliCommon *c, Workspace *ws) {
  if (cli_common_options(c) != 0) return 2;
  int rc = cli_common_collect(c, ws);
  cli_common_analyze(c, ws);
  return rc;
}

/* ---- atomic replacement ------------------------------------------------------ */

static bool cli_common__same_stat(const struct stat *a, const struct stat *b) {
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
         a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
         S_ISREG(b->st_mode);
}

/* Whether path still holds what was read: same inode, size, mtime, bytes. */
static int cli_common__unchanged(const char *path, const struct stat *before, uint64_t hash) {
  struct stat now;
  if (lstat(path, &now) != 0) return -errno;
  if (!cli_common__same_stat(before, &now)) return -ESTALE;
  char *text = NULL;
  size_t len = 0;
  int rc = util_read_file(path, (size_t)now.st_size + 1, &text, &len);
  if (rc != 0) return rc;
  rc = ws_hash(text, len) == hash && len == (size_t)before->st_size ? 0 : -ESTALE;
  free(text);
  return rc;
}

static int cli_common__write_all(int fd, const char *data, size_t len) {
  while (len > 0) {
    ssize_t w = write(fd, data, len);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return -errno;
    data += w;
    len -= (size_t)w;
  }
  return 0;
}

/* Makes the rename itself durable. Best effort: some file systems refuse
 * fsync on a directory. */
static void cli_common__sync_dir(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)fsync(fd);
  close(fd);
}

int cli_common_replace_file(const char *path, const struct stat *before, uint64_t hash, const char *data,
                            size_t len) {
  int rc = cli_common__unchanged(path, before, hash);
  if (rc != 0) return rc;
  const char *slash = strrchr(path, '/');
  char *dir = slash ? xstrndup(path, (size_t)(slash - path + (slash == path))) : xstrdup(".");
  char *tmp = xasprintf("%s/.%s.ascend-lsp-XXXXXX", dir, slash ? slash + 1 : path);
  int fd = mkostemp(tmp, O_CLOEXEC);
  if (fd < 0) {
    rc = -errno;
    goto fail;
  }
  rc = cli_common__write_all(fd, data, len);
  /* chown first: it may clear set-id bits that fchmod then restores */
  if (rc == 0 && fchown(fd, before->st_uid, before->st_gid) != 0) {
    /* not permitted for others' files: the new file stays ours */
  }
  if (rc == 0 && fchmod(fd, before->st_mode & 07777) != 0) rc = -errno;
  if (rc == 0 && fsync(fd) != 0) rc = -errno;
  if (close(fd) != 0 && rc == 0) rc = -errno;
  if (rc == 0) rc = cli_common__unchanged(path, before, hash); /* last look before the switch */
  if (rc == 0 && rename(tmp, path) != 0) rc = -errno;
  if (rc != 0) {
    unlink(tmp);
    goto fail;
  }
  cli_common__sync_dir(dir);
fail:
  free(tmp);
  free(dir);
  return rc;
}
