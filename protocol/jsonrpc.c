/* jsonrpc: see jsonrpc.h. */
#include "protocol/jsonrpc.h"
#include "analyzers/engine/util.h"
#include "protocol/jsonwrite.h"

#include <stdio.h>
#include <stdlib.h>

const char *rpc_error_name(int code) {
  switch (code) {
#define RPC__NAME(name, c, text) \
  case c: return text;
    RPC_ERRORS(RPC__NAME)
#undef RPC__NAME
  }
  return "Error";
}

static int rpc__fail(RpcError *err, int code, const cJSON *id, bool answer, const char *why) {
  err->code = code;
  snprintf(err->message, sizeof err->message, "%s: %s", rpc_error_name(code), why);
  err->id = id ? cJSON_Duplicate(id, 1) : NULL;
  err->answer = answer;
  return code;
}

/* An integer id: a whole number a long long holds (2^63 is the first
 * double past it; the cast of a larger one, or of NaN, is undefined). */
static bool rpc__integer(double d) { return d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == (double)(long long)d; }

static bool rpc__valid_id(const cJSON *id) {
  return cJSON_IsString(id) || (cJSON_IsNumber(id) && rpc__integer(id->valuedouble)) || cJSON_IsNull(id);
}

/* cJSON strings end at their first NUL, so a "\u0000" escape would cut a
 * document's text short. Each such escape becomes one raw 0xFF byte, which
 * no JSON text decodes to (a raw 0xFF is invalid UTF-8, and escapes decode
 * to valid UTF-8): the document keeps its length and positions (one byte,
 * one UTF-16 unit), and the server knows where the NULs are (RPC_NUL_BYTE).
 * Returns a copy (and its length) or NULL when the body has none. */
static char *rpc__mask_nul_escapes(const char *body, size_t len, size_t *out_len) {
  StrBuf sb = {0};
  size_t from = 0;
  for (size_t i = 0; i + 1 < len; i++) {
    if (body[i] != '\\') continue;
    if (body[i + 1] == 'u' && i + 5 < len && memcmp(body + i + 2, "0000", 4) == 0) {
      if (!sb.data) sb_init(&sb);
      sb_append(&sb, body + from, i - from);
      sb_putc(&sb, (char)RPC_NUL_BYTE);
      from = i + 6;
      i += 5;
      continue;
    }
    i++; /* skip the escaped character */
  }
  if (!sb.data) return NULL;
  sb_append(&sb, body + from, len - from);
  *out_len = sb.len;
  return sb_steal(&sb);
}

/* Parses the JSON value and checks that only whitespace follows it. */
static cJSON *rpc__parse_json(const char *body, size_t len, RpcError *err, bool *nul_masked) {
  char *masked = rpc__mask_nul_escapes(body, len, &len);
  *nul_masked = masked != NULL;
  const char *text = masked ? masked : body;
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
  if (!root) {
    free(masked);
    rpc__fail(err, RPC_PARSE_ERROR, NULL, true, "the body is not valid JSON");
    return NULL;
  }
  for (const char *p = end; p && p < text + len; p++) {
    if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n' && *p != '\0') {
      cJSON_Delete(root);
      free(masked);
      rpc__fail(err, RPC_PARSE_ERROR, NULL, true, "trailing bytes after the JSON value");
      return NULL;
    }
  }
  free(masked);
  return root;
}

int rpc_parse(const char *body, size_t len, RpcMessage *msg, RpcError *err) {
  memset(err, 0, sizeof *err);
  bool nul_masked = false;
  cJSON *root = rpc__parse_json(body, len, err, &nul_masked);
  if (!root) return err->code;
  if (!cJSON_IsObject(root)) {
    cJSON_Delete(root);
    return rpc__fail(err, RPC_INVALID_REQUEST, NULL, true,
                     "a message must be a JSON object (batches are not part of LSP)");
  }
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(root, "id");
  const cJSON *method = cJSON_GetObjectItemCaseSensitive(root, "method");
  const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "jsonrpc");
  bool is_notification = method && !id;
  int rc = 0;
  if (id && !rpc__valid_id(id)) {
    rc = rpc__fail(err, RPC_INVALID_REQUEST, NULL, true, "id must be a string, an integer or null");
  } else if (!cJSON_IsString(ver) || strcmp(ver->valuestring, "2.0") != 0) {
    rc = rpc__fail(err, RPC_INVALID_REQUEST, id, !is_notification, "\"jsonrpc\" must be \"2.0\"");
  } else if (method && !cJSON_IsString(method)) {
    rc = rpc__fail(err, RPC_INVALID_REQUEST, id, !is_notification, "\"method\" must be a string");
  } else if (method && strlen(method->valuestring) > 256) {
    rc = rpc__fail(err, RPC_INVALID_REQUEST, id, !is_notification, "method name too long");
  }
  if (rc) {
    cJSON_Delete(root);
    return rc;
  }
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(root, "params");
  if (cJSON_IsNull(params)) params = NULL; /* some clients send "params": null for shutdown/exit */
  if (method && params && !cJSON_IsObject(params) && !cJSON_IsArray(params)) {
    rc = rpc__fail(err, RPC_INVALID_REQUEST, id, !is_notification, "\"params\" must be an object or an array");
    cJSON_Delete(root);
    return rc;
  }
  memset(msg, 0, sizeof *msg);
  msg->nul_masked = nul_masked;
  msg->root = root;
  msg->id = id;
  msg->params = params;
  if (method) {
    msg->kind = id ? RPC_REQUEST : RPC_NOTIFICATION;
    msg->method = method->valuestring;
    return 0;
  }
  if (id && (cJSON_GetObjectItemCaseSensitive(root, "result") || cJSON_GetObjectItemCaseSensitive(root, "error"))) {
    msg->kind = RPC_RESPONSE;
    return 0;
  }
  memset(msg, 0, sizeof *msg);
  rc = rpc__fail(err, RPC_INVALID_REQUEST, id, true, "neither a request, a notification nor a response");
  cJSON_Delete(root);
  return rc;
}

void rpc_message_free(RpcMessage *msg) {
  cJSON_Delete(msg->root);
  memset(msg, 0, sizeof *msg);
}

static char *rpc__print(cJSON *o) {
  char *s = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  if (!s) {
    fputs("ascend-lsp: out of memory\n", stderr);
    exit(70);
  }
  /* cJSON_free and free are the same allocator here (no hooks installed) */
  return s;
}

static cJSON *rpc__base(void) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "jsonrpc", "2.0");
  return o;
}

static void rpc__add_id(cJSON *o, const cJSON *id) {
  cJSON_AddItemToObject(o, "id", id ? cJSON_Duplicate(id, 1) : cJSON_CreateNull());
}

char *rpc_result(const cJSON *id, cJSON *result) {
  cJSON *o = rpc__base();
  rpc__add_id(o, id);
  cJSON_AddItemToObject(o, "result", result ? result : cJSON_CreateNull());
  return rpc__print(o);
}

char *rpc_error(const cJSON *id, int code, const char *message) {
  cJSON *o = rpc__base();
  rpc__add_id(o, id);
  cJSON *e = cJSON_AddObjectToObject(o, "error");
  cJSON_AddNumberToObject(e, "code", code);
  cJSON_AddStringToObject(e, "message", message ? message : rpc_error_name(code));
  return rpc__print(o);
}

char *rpc_notification(const char *method, cJSON *params) {
  cJSON *o = rpc__base();
  cJSON_AddStringToObject(o, "method", method);
  if (params) cJSON_AddItemToObject(o, "params", params);
  return rpc__print(o);
}

void rpc_notification_open(StrBuf *sb, const char *method) {
  sb_puts(sb, "{\"jsonrpc\":\"2.0\",\"method\":");
  jsonw_string(sb, method);
  sb_puts(sb, ",\"params\":");
}

void rpc_notification_close(StrBuf *sb) { sb_putc(sb, '}'); }

char *rpc_notification_text(const char *method, const char *params_json) {
  StrBuf sb;
  sb_init(&sb);
  rpc_notification_open(&sb, method);
  sb_puts(&sb, params_json);
  rpc_notification_close(&sb);
  return sb_steal(&sb);
}

char *rpc_request(const cJSON *id, const char *method, cJSON *params) {
  cJSON *o = rpc__base();
  rpc__add_id(o, id);
  cJSON_AddStringToObject(o, "method", method);
  if (params) cJSON_AddItemToObject(o, "params", params);
  return rpc__print(o);
}
