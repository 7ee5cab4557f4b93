/* cli: see cli.h. `check` and `rules`; `fix` and `report` live in their own
 * files (cli_fix.c, report front end). */
#include "server/cli/cli.h"
#include "server/cli/cli_common.h"
#include "server/config.h"
#include "server/cli/output.h"
#include "server/cli/rulesdoc.h"
#include "server/workspace.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

void cli_usage(FILE *out) {
  fputs("ascend-lsp " ASCEND_LSP_VERSION " - what stands between a PyTorch/CUDA project and Ascend NPUs\n"
        "\n"
        "usage:\n"
        "  ascend-lsp [--stdio]                      language server on stdin/stdout\n"
        "  ascend-lsp check  [PATH...] [--format text|json|sarif|github] [--statistics] [--exit-zero]\n"
        "  ascend-lsp fix    [PATH...] [--diff] [--unsafe-fixes]\n"
        "  ascend-lsp report [PATH] [--format md|json|sarif|html] [-o FILE] [--lang en|zh]\n"
        "                    [--phase NAME=GLOB]...\n"
        "  ascend-lsp rules  [CODE] [--format text|md]\n"
        "  ascend-lsp --version | --help\n"
        "\n"
        "Rule selection: --select CODES (replaces the configured selection), --extend-select CODES,\n"
        "--ignore CODES; codes or prefixes, comma-separated (ASC2, ASC201).\n"
        "Common options: --chip 910B|910A|310P|A3, --mindiesd, --torch-npu VERSION, --threads N,\n"
        "--exclude GLOBS, --config FILE, --isolated (no configuration file), --no-cache,\n"
        "--cache-dir DIR (the analysis cache; default $XDG_CACHE_HOME/ascend-lsp). The configuration is\n"
        "[tool.ascend-lsp] in pyproject.toml or .ascend-lsp.toml, searched upward from PATH.\n"
        "Exit status: 0 clean, 1 findings (fix: findings left; fix --diff: changes), 2 usage or I/O error.\n",
        out);
}

void cli_split_codes(const char *s, char ***list, size_t *n) {
  while (*s) {
    size_t len = strcspn(s, ", ");
    if (len > 0) {
      *list = xrealloc(*list, (*n + 1) * sizeof **list);
      (*list)[(*n)++] = xstrndup(s, len);
    }
    s += len;
    while (*s == ',' || *s == ' ') s++;
  }
}

int cli_check(int argc, char **argv) {
  CliCommon c;
  cli_common_init(&c);
  const char *format = "text";
  bool exit_zero = false, statistics = false;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    int used = cli_common_arg(&c, argc, argv, i);
    if (used < 0) return cli_common_fail(&c);
    if (used > 0) {
      i += used - 1;
    } else if (strcmp(a, "--format") == 0 && i + 1 < argc) {
      format = argv[++i];
    } else if (strncmp(a, "--format=", 9) == 0) {
      format = a + 9;
    } else if (strcmp(a, "--exit-zero") == 0) {
      exit_zero = true;
    } else if (strcmp(a, "--statistics") == 0) {
      statistics = true;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "ascend-lsp check: unknown option '%s'\n", a);
      return cli_common_fail(&c);
    } else {
      cli_common_add_path(&c, a);
    }
  }
  OutputFormat fmt;
  if (!output_format_parse(format, &fmt)) {
    fprintf(stderr, "ascend-lsp check: unknown format '%s' (text, json, sarif, github)\n", format);
    return cli_common_fail(&c);
  }
  Workspace ws = {0};
  int rc = cli_common_scan(&c, &ws);
  if (rc == 2) {
    ws_free(&ws);
    cli_common_free(&c);
    return 2;
  }
  if (statistics && fmt == OUT_JSON) output_statistics_json(stdout, &ws);
  else if (statistics) output_statistics(stdout, &ws);
  else output_write(stdout, fmt, &ws, &c.aopt);
  size_t blocking = 0;
  for (size_t i = 0; i < ws.files.len; i++)
    for (size_t k = 0; k < ws.files.items[i].findings.len; k++)
      if (ws.files.items[i].findings.items[k].severity <= SEV_WARNING) blocking++;
  ws_free(&ws);
  cli_common_free(&c);
  if (rc != 0) return 2;
  return (blocking && !exit_zero) ? 1 : 0;
}

static int cli__rules(const Config *cfg, const char *code, bool md) {
  if (md)
    return rulesdoc_markdown_user(stdout, code, cfg->user_rules, cfg->n_user_rules, cfg->user_entries,
                                  cfg->n_user_entries);
  if (code) {
    const KbRule *r = config_rule(cfg, code);
    if (!r) {
      fprintf(stderr, "ascend-lsp rules: no rule %s (`ascend-lsp rules` lists them)\n", code);
      return 2;
    }
    char *t = rulesdoc_rule_text(r, cfg->user_entries, cfg->n_user_entries);
    fputs(t, stdout);
    free(t);
    return 0;
  }
  size_t n;
  const KbRule *rules = kb_rules(&n);
  for (size_t i = 0; i < n + cfg->n_user_rules; i++) {
    char *line = rulesdoc_rule_line(i < n ? &rules[i] : &cfg->user_rules[i - n]);
    puts(line);
    free(line);
  }
  return 0;
}

/* `rules [CODE] [--format text|md] [--config FILE] [--isolated]`: user
 * rules from the project configuration (searched from the current
 * directory) are listed and explained with the built-in ones. */
int cli_rules(int argc, char **argv) {
  const char *code = NULL, *format = "text", *config_path = NULL;
  bool isolated = false;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) format = argv[++i];
    else if (strncmp(argv[i], "--format=", 9) == 0) format = argv[i] + 9;
    else if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) config_path = argv[++i];
    else if (strncmp(argv[i], "--config=", 9) == 0) config_path = argv[i] + 9;
    else if (strcmp(argv[i], "--isolated") == 0) isolated = true;
    else if (argv[i][0] == '-') {
      fprintf(stderr, "ascend-lsp rules: unknown option '%s'\n", argv[i]);
      return 2;
    } else code = argv[i];
  }
  if (strcmp(format, "md") != 0 && strcmp(format, "text") != 0) {
    fprintf(stderr, "ascend-lsp rules: unknown format '%s' (text, md)\n", format);
    return 2;
  }
  Config cfg;
  int crc = config_load(&cfg, isolated ? NULL : ".", isolated ? NULL : config_path);
  if (crc != 0) {
    fprintf(stderr, "ascend-lsp: cannot read config %s: %s\n", config_path, strerror(-crc));
    return 2;
  }
  int rc = cli__rules(&cfg, code, strcmp(format, "md") == 0);
  config_free(&cfg);
  return rc;
}
