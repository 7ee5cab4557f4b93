/* session: the language server. One Session object holds all mutable
 * server state (documents, settings, the event loop handles). */
#ifndef ASC_SESSION_H
#define ASC_SESSION_H

/* Serves LSP on stdin/stdout until `exit`. Returns the process exit code:
 * 0 after shutdown+exit, 1 on exit without shutdown or on stdin EOF. */
int session_run_stdio(void);

#endif
