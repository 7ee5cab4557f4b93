/* framing: the LSP base protocol ("Content-Length: N\r\n\r\n" + N bytes).
 *
 * A Framer accumulates bytes from any number of reads and yields complete
 * message bodies. It handles partial reads, several messages in one read and
 * extra headers (Content-Type, unknown ones), and matches header names
 * case-insensitively. A header block that is malformed (no Content-Length,
 * a negative, non-numeric or overflowing value, a line without CRLF, a header
 * block over 8 KiB) is reported once as an error and skipped; whatever
 * follows it (the body it announced badly) is skipped up to the next
 * "Content-Length", so the stream is back in sync at the next message. A
 * Content-Length over the
 * framer's limit is fatal: the body cannot be skipped safely, the framer
 * enters the dead state and every later call returns FRAMING_DEAD.
 *
 * Ownership: the Framer owns its buffer. Bodies returned by framing_next are
 * borrowed and stay valid until the next framing_feed/framing_next/
 * framing_free call. */
#ifndef ASC_FRAMING_H
#define ASC_FRAMING_H

#include <stddef.h>
#include <stdbool.h>
#include "analyzers/engine/util.h"

#define FRAMING_DEFAULT_LIMIT ((size_t)64 << 20) /* 64 MiB per message */

typedef enum {
  FRAMING_NEED_MORE = 0, /* no complete message buffered */
  FRAMING_MESSAGE = 1,   /* *body and *len hold one message body */
  FRAMING_BAD_HEADER = -1, /* a header block was malformed and skipped; *err says why */
  FRAMING_TOO_LARGE = -2,  /* Content-Length over the limit: framer is now dead */
  FRAMING_DEAD = -3,       /* an earlier fatal error; nothing more will be read */
} FramingStatus;

typedef struct {
  StrBuf buf;       /* unconsumed bytes */
  size_t start;     /* offset of the first unconsumed byte in buf */
  size_t limit;     /* max body length accepted */
  size_t body_len;  /* when in body state: expected body length */
  bool in_body;
  bool dead;
  bool resync;      /* after a bad header block: skip to the next Content-Length */
  char err[128];    /* last error text */
} Framer;

/* limit: the largest body accepted (FRAMING_DEFAULT_LIMIT suits LSP). */
void framing_init(Framer *f, size_t limit);
void framing_free(Framer *f);
/* Appends bytes (copied). Call framing_next until FRAMING_NEED_MORE after
 * each feed: header blocks are checked against their 8 KiB cap only there.
 * A dead framer drops what it is fed. */
void framing_feed(Framer *f, const char *data, size_t len);
/* Extracts the next event. On FRAMING_MESSAGE, *body and *len point into the
 * framer (borrowed, see above; the body is NOT NUL-terminated). On the error
 * results, *err (borrowed, same lifetime) says what was wrong; otherwise it
 * is NULL. Any of body, len, err may be NULL when the caller doesn't care. */
FramingStatus framing_next(Framer *f, const char **body, size_t *len, const char **err);

/* Writes "Content-Length: <len>\r\n\r\n" + body into out (appended). */
void framing_encode(StrBuf *out, const char *body, size_t len);

#endif
