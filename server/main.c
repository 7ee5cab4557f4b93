/* ascend-lsp: language server by default, CLI with a subcommand. */
#include <stdio.h>
#include <string.h>

#include "server/cli/cli.h"
#include "server/lsp/session.h"

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--stdio") == 0 || strcmp(argv[1], "serve") == 0 ||
      strcmp(argv[1], "server") == 0 || strcmp(argv[1], "--sync") == 0) {
    bool sync = false;
    for (int i = 1; i < argc; i++) {
      if (strcmp(argv[i], "--sync") == 0) sync = true;
      else if (strcmp(argv[i], "--stdio") != 0 && strcmp(argv[i], "serve") != 0 && strcmp(argv[i], "server") != 0) {
        fprintf(stderr, "ascend-lsp: unknown server option '%s'\n", argv[i]);
        return 2;
      }
    }
    return session_run_stdio(sync);
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "check") == 0) return cli_check(argc - 2, argv + 2);
  if (strcmp(cmd, "fix") == 0) return cli_fix(argc - 2, argv + 2);
  if (strcmp(cmd, "report") == 0) return cli_report(argc - 2, argv + 2);
  if (strcmp(cmd, "rules") == 0) return cli_rules(argc - 2, argv + 2);
  if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
    printf("ascend-lsp %s\n", ASCEND_LSP_VERSION);
    return 0;
  }
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    cli_usage(stdout);
    return 0;
  }
  fprintf(stderr, "ascend-lsp: unknown command '%s'\n\n", cmd);
  cli_usage(stderr);
  return 2;
}
