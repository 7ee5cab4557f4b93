/* cli_report: `ascend-lsp report [PATH] [--format md|json|sarif|html]
 * [-o FILE] [--lang en|zh] [--phase NAME=GLOB]... [--project NAME]` plus
 * the common options. Scans PATH with the shared workspace scan, renders
 * through reportgen (the code the language server's generateReport uses)
 * and writes stdout or FILE (temporary file + rename). Exit 0, or 2 on a
 * usage or I/O error; findings do not change the exit status, the report
 * is the product. */
#include "server/cli/cli.h"
#include "server/cli/cli_common.h"
#include "server/reportgen.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

static void cli_report__usage(void) {
  fputs("usage: ascend-lsp report [PATH] [--format md|json|sarif|html] [-o FILE] [--lang en|zh]\n"
        "                         [--phase NAME=GLOB]... [--project NAME]\n",
        stderr);
}

int cli_report(int argc, char **argv) {
  CliCommon c;
  cli_common_init(&c);
  const char *format = "md", *output = NULL, *lang = "en", *project = NULL;
  StrList phases = {0};
  int rc = 2;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    int used = cli_common_arg(&c, argc, argv, i);
    if (used < 0) goto fail;
    if (used > 0) {
      i += used - 1;
      continue;
    }
    /* "--opt VALUE" and "--opt=VALUE" */
    static const char *const valued[] = {"--format", "-o", "--output", "--lang", "--phase", "--project"};
    const char *opt = NULL, *val = NULL;
    for (size_t k = 0; k < sizeof valued / sizeof valued[0] && !opt; k++) {
      size_t n = strlen(valued[k]);
      if (strcmp(a, valued[k]) == 0) {
        if (i + 1 >= argc) {
          fprintf(stderr, "ascend-lsp report: %s needs a value\n", a);
          cli_report__usage();
          goto fail;
        }
        opt = valued[k];
        val = argv[++i];
      } else if (strncmp(a, valued[k], n) == 0 && a[n] == '=') {
        opt = valued[k];
        val = a + n + 1;
      }
    }
    if (opt && strcmp(opt, "--format") == 0) format = val;
    else if (opt && (strcmp(opt, "-o") == 0 || strcmp(opt, "--output") == 0)) output = val;
    else if (opt && strcmp(opt, "--lang") == 0) lang = val;
    else if (opt && strcmp(opt, "--project") == 0) project = val;
    else if (opt && strcmp(opt, "--phase") == 0) {
      const char *eq = strchr(val, '=');
      if (!eq || eq == val || !eq[1]) {
        fprintf(stderr, "ascend-lsp report: --phase takes NAME=GLOB, got '%s'\n", val);
        goto fail;
      }
      array_push(&phases, xstrdup(val));
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "ascend-lsp report: unknown option '%s'\n", a);
      cli_report__usage();
      goto fail;
    } else {
      if (c.n_paths) {
        fprintf(stderr, "ascend-lsp report: one PATH only (got '%s' after '%s')\n", a, c.paths[0]);
        goto fail;
      }
      cli_common_add_path(&c, a);
    }
  }
  ReportGenOptions ro = {0};
  if (!reportgen_format_parse(format, &ro.format)) {
    fprintf(stderr, "ascend-lsp report: unknown format '%s' (md, json, sarif, html)\n", format);
    goto fail;
  }
  if (strcmp(lang, "en") != 0 && strcmp(lang, "zh") != 0) {
    fprintf(stderr, "ascend-lsp report: unknown language '%s' (en, zh)\n", lang);
    goto fail;
  }
  ro.zh = strcmp(lang, "zh") == 0;
  ro.project = project;

  bool tty = isatty(STDERR_FILENO);
  if (tty) fprintf(stderr, "ascend-lsp report: scanning %s ...", c.n_paths ? c.paths[0] : ".");
  Workspace ws = {0};
  int src = cli_common_scan(&c, &ws);
  if (tty) fprintf(stderr, " %zu files analyzed\n", ws.files.len);
  if (src != 0) {
    ws_free(&ws);
    goto fail;
  }
  /* command-line phases replace the configuration's */
  if (phases.len) {
    ro.phases = (const char *const *)phases.items;
    ro.n_phases = phases.len;
  } else {
    ro.phases = (const char *const *)c.config.phases;
    ro.n_phases = c.config.n_phases;
  }
  ro.aopt = &c.aopt;
  char *text = NULL;
  size_t len = 0;
  ReportSummary sum;
  int grc = reportgen_render(&ws, &ro, &text, &len, &sum);
  ws_free(&ws);
  if (grc != 0) {
    fprintf(stderr, "ascend-lsp report: %s\n", strerror(-grc));
    goto fail;
  }
  if (output && strcmp(output, "-") != 0) {
    int wrc = reportgen_write_file(output, text, len);
    if (wrc != 0) {
      fprintf(stderr, "ascend-lsp report: cannot write %s: %s\n", output, reportgen_write_strerror(wrc));
      free(text);
      goto fail;
    }
    if (tty)
      fprintf(stderr, "ascend-lsp report: wrote %s: %s (%s), %.1f weeks\n", output, sum.verdict, sum.verdict_en, sum.weeks);
  } else if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
    fprintf(stderr, "ascend-lsp report: cannot write the report: %s\n", strerror(errno));
    free(text);
    goto fail;
  }
  free(text);
  rc = 0;
fail:
  strlist_free(&phases);
  cli_common_free(&c);
  return rc;
}
