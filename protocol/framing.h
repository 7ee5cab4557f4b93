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
 * well-formed Content-Length over the framer's limit is skipped too: its
 * body is discarded as it arrives (never buffered whole), the first
 * FRAMING_HEAD bytes kept so that the caller can answer the request it held
 * (FRAMING_TOO_LARGE, once, as soon as they are in), and the next message
 * is read normally.
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
#define FRAMING_HEAD 512 /* bytes of a skipped body kept (its "id" and "method" come first) */

typedef enum {
  FRAMING_NEED_MORE = 0, /* no complete message buffered */
  FRAMING_MESSAGE = 1,   /* *body and *len hold one message body */
  FRAMING_BAD_HEADER = -1, /* a header block was malformed and skipped; *err says why */
  FRAMING_TOO_LARGE = -2,  /* Content-Length over the limit: the body is being skipped;
                              *body / *len hold its first bytes (at most FRAMING_HEAD) */
  FRAMING_DEAD = -3,       /* not returned any more; kept for callers that test for it */
} FramingStatus;

typedef struct {
  StrBuf buf;       /* unconsumed bytes */
  size_t start;     /* offset of the first unconsumed byte in buf */
  size_t limit;     /* max body length accepted */
  size_t body_len;  /* when in body state: expected body length */
  bool in_body;
  bool dead;
  bool resync;      /* after a bad header block: skip to the next Content-Length */
  size_t skip_left; /* bytes of an over-limit body still to discard */
  char head[FRAMING_HEAD]; /* its first bytes */
  size_t head_len, head_want;
  bool head_told;   /* FRAMING_TOO_LARGE was returned for it */
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
 * is NULL. On FRAMING_TOO_LARGE *body and *len are the head of the skipped
 * body (borrowed, same lifetime). Any of body, len, err may be NULL when the caller doesn't care. */
FramingStatus framing_next(Framer *f, const char **body, size_t *len, const char **err);

/* Writes "Content-Length: <len>\r\n\r\n" + body into out (appended). */
void framing_encode(StrBuf *out, const char *body, size_t len);

#endif
