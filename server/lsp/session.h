/* session: the language server. One Session object holds all mutable
 * server state (documents, settings, the event loop handles). */
#ifndef ASC_SESSION_H
#define ASC_SESSION_H

/* Serves LSP on stdin/stdout until `exit`. Returns the process exit code:
 * 0 after shutdown+exit, 1 on exit without shutdown or on stdin EOF
 * before shutdown. */
#include <stdbool.h>

/* sync: analyze and publish right after each message instead of once per
 * loop turn, so that output order is deterministic (for transcript tests). */
int session_run_stdio(bool sync);

#endif
