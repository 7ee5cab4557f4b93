/* cli_report: `ascend-lsp report`. */
#include "server/cli.h"

int cli_report(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("ascend-lsp report: not available in this build\n", stderr);
  return 2;
}
