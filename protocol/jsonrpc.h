/* jsonrpc: JSON-RPC 2.0 messages as LSP uses them.
 *
 * rpc_parse validates one framed body and classifies it as a request,
 * notification or response; anything else is an error with the JSON-RPC
 * code to answer with. The error codes come from one X-macro table
 * (RPC_ERRORS), which also gives their names.
 *
 * Ownership: an RpcMessage owns its cJSON tree (root); id, method and params
 * are borrowed from it and die with rpc_message_free. The rpc_* builders
 * take ownership of the cJSON items passed in and return heap strings the
 * caller frees with free(). */
#ifndef ASC_JSONRPC_H
#define ASC_JSONRPC_H

#include <cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "analyzers/engine/util.h" /* StrBuf */

#define RPC_ERRORS(X)                                                        \
  X(RPC_PARSE_ERROR, -32700, "Parse error")                                  \
  X(RPC_INVALID_REQUEST, -32600, "Invalid request")                          \
  X(RPC_METHOD_NOT_FOUND, -32601, "Method not found")                        \
  X(RPC_INVALID_PARAMS, -32602, "Invalid params")                            \
  X(RPC_INTERNAL_ERROR, -32603, "Internal error")                            \
  X(RPC_SERVER_NOT_INITIALIZED, -32002, "Server not initialized")            \
  X(RPC_REQUEST_FAILED, -32803, "Request failed")                            \
  X(RPC_REQUEST_CANCELLED, -32800, "Request cancelled")                      \
  X(RPC_CONTENT_MODIFIED, -32801, "Content modified")

typedef enum {
#define RPC__ENUM(name, code, text) name = code,
  RPC_ERRORS(RPC__ENUM)
#undef RPC__ENUM
} RpcErrorCode;

const char *rpc_error_name(int code);

/* The byte that stands for U+0000 in strings of parsed messages (cJSON
 * strings cannot hold a NUL); see rpc_parse. */
#define RPC_NUL_BYTE 0xFF

typedef enum { RPC_REQUEST, RPC_NOTIFICATION, RPC_RESPONSE } RpcKind;

typedef struct {
  RpcKind kind;
  cJSON *root;        /* owned */
  const cJSON *id;    /* borrowed; NULL for notifications */
  const char *method; /* borrowed; NULL for responses */
  const cJSON *params;/* borrowed; may be NULL */
  bool nul_masked;    /* some string held U+0000, now RPC_NUL_BYTE */
} RpcMessage;

/* An error to answer with: code, message, and the id when one was readable
 * (a copy the caller frees with cJSON_Delete; NULL -> answer with id null;
 * for notifications no answer is due: answer is false). */
typedef struct {
  int code;
  char message[160];
  cJSON *id;
  bool answer;
} RpcError;

/* Parses body (not NUL-terminated). Returns 0 and fills msg, or a negative
 * RPC code and fills err (msg untouched). Never fails on any input bytes. */
int rpc_parse(const char *body, size_t len, RpcMessage *msg, RpcError *err);
void rpc_message_free(RpcMessage *msg);

/* Serialized messages (heap, free with free()). `id` is copied. */
char *rpc_result(const cJSON *id, cJSON *result);
char *rpc_error(const cJSON *id, int code, const char *message);
char *rpc_notification(const char *method, cJSON *params);
char *rpc_request(const cJSON *id, const char *method, cJSON *params);
/* A notification whose params are JSON text already (jsonwrite.h), not a tree. */
char *rpc_notification_text(const char *method, const char *params_json);
/* The same written in place around params the caller writes between the
 * two calls (a large message built once, not copied). */
void rpc_notification_open(StrBuf *sb, const char *method);
void rpc_notification_close(StrBuf *sb);

#endif
