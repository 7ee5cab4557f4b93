/* cli: the command-line front end (check, fix, report, rules). Each command
 * takes argc/argv after the subcommand name and returns the process exit
 * code: 0 success / no findings at warning or above, 1 findings, 2 usage or
 * I/O error. Output goes to stdout, notes and errors to stderr. */
#ifndef ASC_CLI_H
#define ASC_CLI_H

#include "analyzers/engine/analyze.h"

#define ASCEND_LSP_VERSION "0.1.0"

int cli_check(int argc, char **argv);
int cli_fix(int argc, char **argv);
int cli_report(int argc, char **argv);
int cli_rules(int argc, char **argv);
void cli_usage(FILE *out);

/* Splits "ASC201,ASC3" into a NULL-free list appended to *list (heap
 * strings; free each and the array). */
void cli_split_codes(const char *s, char ***list, size_t *n);

#endif
