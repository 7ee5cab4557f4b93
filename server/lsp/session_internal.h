/* session_internal: the Session object shared by the server's files
 * (session.c: loop, transport, dispatch and lifecycle; lsp_sync.c: document
 * sync and diagnostics; lsp_actions.c: code actions and hover; lsp_command.c:
 * executeCommand and the workspace report). Not a public API. */
#ifndef ASC_SESSION_INTERNAL_H
#define ASC_SESSION_INTERNAL_H

#include <cJSON.h>
#include <stdatomic.h>
#include <uv.h>

#include "analyzers/engine/analyze.h"
#include "protocol/framing.h"
#include "protocol/jsonrpc.h"
#include "protocol/position.h"
#include "server/config.h"
#include "server/lsp/docstore.h"
#include "server/workspace.h"

typedef enum { SESSION_STARTING, SESSION_RUNNING, SESSION_SHUT_DOWN } SessionState;

typedef struct ReportJob ReportJob;
typedef struct ModelJob ModelJob;
typedef struct LinkJob LinkJob;
struct Model;

/* Client settings (didChangeConfiguration, initializationOptions). */
typedef struct {
  StrList select, ignore;
  char *chip, *torch_npu;
  int mindiesd;           /* -1 unset */
} SessionSettings;

/* What the options in force point into besides the Config: a copy of the
 * settings they were built from, and the merged select/ignore arrays. Built
 * whole by session_reload_options with a new Config and AnalyzeOptions and
 * swapped in with them while no report thread reads them, so settings that
 * arrive meanwhile never free strings in use. */
typedef struct {
  SessionSettings from;
  const char **select, **ignore; /* behind opt.select / opt.ignore when settings override */
} SessionApplied;

typedef struct Session {
  uv_loop_t *loop;
  /* transport */
  uv_stream_t *in;        /* pipe or tty on stdin; NULL when stdin is a file */
  uv_file in_file;        /* stdin as a file (uv_fs_read) */
  uv_fs_t in_req;
  char *in_buf;
  int64_t in_offset;
  bool out_is_stream;
  uv_stream_t *out;
  uv_check_t flush;       /* after each loop turn: analyze dirty documents, publish */
  uv_timer_t debounce;
  Framer framer;
  size_t bytes_in_flight;
  /* protocol state */
  SessionState state;
  bool exit_requested;
  bool stopped;
  bool sync;
  bool msg_nul_masked;    /* the message being handled held U+0000 in a string */
  int exit_code;
  PosEncoding enc;
  bool client_show_document, client_work_done, client_dynamic_watch, client_apply_edit;
  bool client_hover_plaintext; /* the client's hover prefers plain text to Markdown */
  char *docs_base;        /* base URL of the rule links (lsp_docs), or NULL */
  bool docs_looked_up;    /* docs_base was looked for */
  char **rule_hrefs;      /* per row of the rule table (kb_rules): its link once made, or NULL */
  int64_t next_request_id;
  /* analysis */
  DocStore docs;
  char *root;             /* workspace folder path, or NULL */
  Config config;          /* from the project's pyproject.toml / .ascend-lsp.toml */
  AnalyzeOptions opt;     /* config, then the client settings on top */
  SessionApplied applied; /* what opt points into besides config */
  struct WsCache *cache;  /* per-file results kept across workspace reports */
  SessionSettings settings; /* as the client last sent them; the only owner */
  char *support_notice;   /* the torch_npu version notice last logged, or NULL */
  bool lang_zh;
  unsigned debounce_ms;
  ReportJob *report;      /* running report, or NULL */
  bool reload_pending;    /* options changed while a report was running */
  struct Model *model;    /* the project model, NULL until built (lsp_model.c) */
  struct FoldOutcome *folds; /* what the folds across files did in the last build, replayed on
                              every analysis of an open document (fold_outcome.h); NULL until built */
  ModelJob *model_job;    /* its background build, or NULL */
  LinkJob *model_link;    /* a relink on the thread pool, which owns the model meanwhile (s->model NULL), or NULL */
  StrList model_pending;  /* URIs of documents analyzed while the model was being linked */
  Array(cJSON *) model_events; /* file events that arrived meanwhile (owned), applied when it is back */
  bool model_refreshing;  /* dependents of a change are being analyzed again */
} Session;

/* session.c */
void session_send(Session *s, char *body); /* takes ownership of body */
void session_reply(Session *s, const cJSON *id, cJSON *result);
void session_reply_error(Session *s, const cJSON *id, int code, const char *message);
void session_notify(Session *s, const char *method, cJSON *params);
/* Sends a server->client request; returns its id (caller frees) so that
 * the response can be recognized (see lsp_response). */
char *session_request(Session *s, const char *method, cJSON *params);
void session_log(Session *s, int type, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Rebuilds config and opt from the project configuration and the client
 * settings; while a report runs (its thread reads them) the reload is
 * deferred to the report's end. */
void session_reload_options(Session *s);
/* lsp_sync.c: free the settings (and the options' copy of them). */
void session_settings_free(SessionSettings *set);
void session_applied_free(SessionApplied *a);
void session_schedule(Session *s);

/* Handlers: requests get the id and must answer exactly once (possibly
 * later); notifications get id == NULL. */
typedef void (*SessionHandler)(Session *s, const cJSON *id, const cJSON *params);

/* lsp_sync.c */
void lsp_did_open(Session *s, const cJSON *id, const cJSON *params);
void lsp_did_change(Session *s, const cJSON *id, const cJSON *params);
void lsp_did_close(Session *s, const cJSON *id, const cJSON *params);
void lsp_did_save(Session *s, const cJSON *id, const cJSON *params);
void lsp_did_change_configuration(Session *s, const cJSON *id, const cJSON *params);
void lsp_did_change_watched_files(Session *s, const cJSON *id, const cJSON *params);
void lsp_flush(Session *s);
void lsp_analyze(Session *s, Document *d);
void lsp_reanalyze_all(Session *s);
Document *lsp_document(Session *s, const cJSON *params, bool analyze); /* textDocument.uri */
cJSON *lsp_range(Session *s, const Document *d, uint32_t start, uint32_t end);
cJSON *lsp_diagnostic(Session *s, const Document *d, const Finding *f);
/* The documentation link of rule r (lsp_docs_href under the base found
 * once per session), or NULL when there are no docs. Caller frees. */
char *lsp_rule_href(Session *s, const KbRule *r);
/* The same, borrowed: a table rule's link is made once per session (every
 * publish writes one per diagnostic); for another rule (a user rule) it is
 * made into *own, which the caller frees. NULL when there is no link. */
const char *lsp_rule_href_kept(Session *s, const KbRule *r, char **own);

/* lsp_actions.c */
void lsp_code_action(Session *s, const cJSON *id, const cJSON *params);
void lsp_hover(Session *s, const cJSON *id, const cJSON *params);
cJSON *lsp_fix_all_edit(Session *s, Document *d); /* WorkspaceEdit or NULL */

/* lsp_command.c */
void lsp_execute_command(Session *s, const cJSON *id, const cJSON *params);
void lsp_cancel(Session *s, const cJSON *id, const cJSON *params);
void lsp_report_shutdown(Session *s);
/* A response to one of our requests arrived (ok: no error member). */
void lsp_response(Session *s, const char *id, bool ok);

/* lsp_model.c */
void lsp_model_start(Session *s);           /* after initialized: build in the background */
bool lsp_model_response(Session *s, const char *id, bool ok); /* true: it was ours */
void lsp_model_cancel(Session *s, const cJSON *id, const cJSON *params); /* window/workDoneProgress/cancel */
void lsp_model_shutdown(Session *s);
void lsp_model_free(Session *s);
/* After d was analyzed: its module replaced, the model's findings added
 * to d->findings. Returns whether the model changed and the dependents are
 * to be refreshed now (--sync); without --sync a change is linked on the
 * thread pool and d waits for it (lsp_model_waiting). */
bool lsp_model_after_analyze(Session *s, Document *d);
/* Whether d's diagnostics wait for a relink: publish them when it lands. */
bool lsp_model_waiting(Session *s, const Document *d);
void lsp_model_refresh_dependents(Session *s, const Document *changed);
/* Watched-file events for files that are not open; true when the model changed. */
bool lsp_model_watched(Session *s, const cJSON *params);
/* workspace/didCreateFiles, didRenameFiles, didDeleteFiles (params.files):
 * the modules of files (and folders) that are not open. */
void lsp_model_did_create_files(Session *s, const cJSON *id, const cJSON *params);
void lsp_model_did_rename_files(Session *s, const cJSON *id, const cJSON *params);
void lsp_model_did_delete_files(Session *s, const cJSON *id, const cJSON *params);
char *lsp_model_chain(Session *s, const Document *d, uint32_t at); /* caller frees; NULL: none */

/* JSON helpers */
const char *lsp_str(const cJSON *o, const char *key);
bool lsp_int(const cJSON *o, const char *key, int64_t *out);
bool lsp_position(const cJSON *o, LspPosition *p);

#endif
