/* lsp_command: workspace/executeCommand (`ascend.fixAll`; the report
 * command is added with the report model). */
#include "server/session_internal.h"

#include <stdlib.h>

static void lsp__fix_all(Session *s, const cJSON *id, const cJSON *args) {
  const cJSON *a0 = cJSON_IsArray(args) ? cJSON_GetArrayItem(args, 0) : NULL;
  const char *uri = cJSON_IsString(a0) ? a0->valuestring : lsp_str(a0, "uri");
  Document *d = uri ? doc_find(&s->docs, uri) : NULL;
  if (!d) {
    session_reply_error(s, id, RPC_INVALID_PARAMS, "ascend.fixAll needs the URI of an open document");
    return;
  }
  cJSON *edit = lsp_fix_all_edit(s, d);
  if (edit && s->client_apply_edit) {
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "label", "Fix all safe Ascend migration issues");
    cJSON_AddItemToObject(p, "edit", edit);
    session_request(s, "workspace/applyEdit", p);
    session_reply(s, id, cJSON_CreateTrue());
  } else {
    session_reply(s, id, edit ? edit : cJSON_CreateNull());
  }
}

void lsp_execute_command(Session *s, const cJSON *id, const cJSON *params) {
  const char *cmd = lsp_str(params, "command");
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
  if (!cmd) session_reply_error(s, id, RPC_INVALID_PARAMS, "executeCommand needs a command");
  else if (strcmp(cmd, "ascend.fixAll") == 0) lsp__fix_all(s, id, args);
  else session_reply_error(s, id, RPC_INVALID_PARAMS, "unknown command");
}

void lsp_cancel(Session *s, const cJSON *id, const cJSON *params) {
  (void)s;
  (void)id;
  (void)params;
}

void lsp_report_shutdown(Session *s) { (void)s; }
