/* cli_common: see cli_common.h. */
#include "server/cli_common.h"
#include "server/cli.h"

#include <errno.h>
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
  else if ((v = cli_common__value(argc, argv, i, "--ignore", &used))) cli_split_codes(v, &c->ignore, &c->n_ignore);
  else if ((v = cli_common__value(argc, argv, i, "--exclude", &used))) cli_split_codes(v, &c->exclude, &c->n_exclude);
  else if ((v = cli_common__value(argc, argv, i, "--config", &used))) c->config_path = v;
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
      fprintf(stderr, "ascend-lsp: unknown chip '%s' (910B, A3, 910A, 310P)\n", v);
      return -1;
    }
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

/* The directory a project config is searched from: the first path, or its
 * parent when it is a file. */
static char *cli_common__config_dir(const CliCommon *c) {
  const char *p = c->n_paths ? c->paths[0] : ".";
  struct stat st;
  if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) return xstrdup(p);
  const char *slash = strrchr(p, '/');
  return slash ? xstrndup(p, (size_t)(slash - p)) : xstrdup(".");
}

static const char **cli_common__merge(char **a, size_t na, char **b, size_t nb, size_t *n) {
  const char **out = xcalloc(na + nb + 1, sizeof *out);
  for (size_t i = 0; i < na; i++) out[i] = a[i];
  for (size_t i = 0; i < nb; i++) out[na + i] = b[i];
  *n = na + nb;
  return out;
}

int cli_common_scan(CliCommon *c, Workspace *ws) {
  char *dir = cli_common__config_dir(c);
  int crc = config_load(&c->config, dir, c->config_path);
  free(dir);
  if (crc != 0) {
    fprintf(stderr, "ascend-lsp: cannot read config %s: %s\n", c->config_path ? c->config_path : "", strerror(-crc));
    return 2;
  }
  if (c->config.error) fprintf(stderr, "ascend-lsp: %s: %s\n", c->config.path, c->config.error);
  AnalyzeOptions *o = &c->aopt;
  analyze_options_default(o);
  if (c->config.chip_set) o->chip = c->config.chip;
  if (c->chip_set) o->chip = c->chip;
  if (c->config.torch_npu) o->torch_npu = c->config.torch_npu;
  if (c->torch_npu_set) o->torch_npu = c->torch_npu;
  if (c->config.mindiesd_set) o->mindiesd = c->config.mindiesd;
  if (c->mindiesd_set) o->mindiesd = c->mindiesd;
  /* command-line select replaces the file's; ignores add up */
  if (c->n_select) o->select = cli_common__merge(c->select, c->n_select, NULL, 0, &o->n_select);
  else o->select = cli_common__merge(c->config.select, c->config.n_select, NULL, 0, &o->n_select);
  o->ignore = cli_common__merge(c->config.ignore, c->config.n_ignore, c->ignore, c->n_ignore, &o->n_ignore);
  o->user_entries = c->config.user_entries;
  o->n_user_entries = c->config.n_user_entries;
  o->user_rules = c->config.user_rules;
  o->n_user_rules = c->config.n_user_rules;
  size_t nex;
  const char **ex = cli_common__merge(c->config.exclude, c->config.n_exclude, c->exclude, c->n_exclude, &nex);
  WsOptions wopt = {ex, nex, 0};
  int rc = ws_collect(ws, (const char *const *)c->paths, c->n_paths, &wopt);
  free(ex);
  WsRun run = {c->threads, config_filter_findings, &c->config, NULL, NULL, NULL, NULL, NULL};
  ws_analyze(ws, o, &run);
  for (size_t i = 0; i < ws->notes.len; i++) fprintf(stderr, "note: %s\n", ws->notes.items[i]);
  return rc == 0 ? 0 : 1;
}
