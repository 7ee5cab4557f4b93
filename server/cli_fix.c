/* cli_fix: `ascend-lsp fix`. */
#include "server/cli.h"

int cli_fix(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("ascend-lsp fix: not available in this build\n", stderr);
  return 2;
}
