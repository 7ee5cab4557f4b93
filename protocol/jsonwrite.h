/* jsonwrite: JSON text written straight into a StrBuf.
 *
 * The server's most frequent message, publishDiagnostics after each edit,
 * would otherwise build a cJSON tree of every diagnostic and print it: at
 * a hundred diagnostics that is most of a keystroke's cost. These writers
 * give the bytes cJSON_PrintUnformatted gives for the same values (strings
 * escaped the same way, integers in decimal), so a message is the same
 * whichever way it was made.
 *
 * Ownership: nothing is kept; the StrBuf is the caller's. */
#ifndef ASC_JSONWRITE_H
#define ASC_JSONWRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "analyzers/engine/util.h"

/* A JSON string: `"`, `\`, \b \f \n \r \t and other bytes below 0x20
 * escaped (\u00xx), every other byte as it is. */
void jsonw_string(StrBuf *sb, const char *s);
/* `"key":`, after a comma unless `first`. */
void jsonw_key(StrBuf *sb, const char *key, bool first);
void jsonw_int(StrBuf *sb, int64_t v);

#endif
