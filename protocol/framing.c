/* framing: see framing.h.
 *
 * The framer is a two-state machine. In the header state it waits until a
 * whole header block (up to its first empty line) is buffered, then checks
 * every line of it at once; so a block split over many reads is judged only
 * once and an error is reported once. In the body state it waits for
 * body_len bytes and hands them out in place, without copying. */
#include "protocol/framing.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Largest header block we wait for. Real clients send one or two short
 * headers; a longer block means the stream lost sync (or a hostile peer),
 * and waiting longer would only grow the buffer. */
#define FRAMING__MAX_HEADER ((size_t)8192)
/* The consumed prefix is moved out once it is this big and at least half of
 * the buffer: each byte is moved O(1) times on average, and the buffer holds
 * at most about twice the unconsumed bytes. */
#define FRAMING__COMPACT_MIN ((size_t)4096)
/* Capacity kept once the buffer drains: one huge message must not pin its
 * memory for the rest of the session. */
#define FRAMING__KEEP_CAP ((size_t)1 << 20)

static const char framing__content_length[] = "Content-Length";

/* ---- Framer - Private ---------------------------------------------------- */

static void framing__compact(Framer *f) {
  StrBuf *b = &f->buf;
  if (f->start == 0) return;
  if (f->start == b->len) {
    f->start = 0;
    if (b->cap > FRAMING__KEEP_CAP) {
      sb_free(b);
      sb_init(b);
    } else {
      b->len = 0;
      b->data[0] = '\0';
    }
    return;
  }
  if (f->start < FRAMING__COMPACT_MIN || f->start * 2 < b->len) return;
  /* +1 moves the NUL terminator StrBuf keeps after its bytes. */
  memmove(b->data, b->data + f->start, b->len - f->start + 1);
  b->len -= f->start;
  f->start = 0;
}

static void framing__set_err(Framer *f, const char *msg, const char *val, size_t val_len) {
  /* Quote at most 32 bytes of the offending value: enough to recognise it in
   * a log, never enough to flood it. */
  int shown = val_len > 32 ? 32 : (int)val_len;
  if (val)
    snprintf(f->err, sizeof f->err, "%s: \"%.*s\"%s", msg, shown, val, val_len > 32 ? "..." : "");
  else
    snprintf(f->err, sizeof f->err, "%s", msg);
}

/* Offset just past the first empty line ("\r\n", or a bare "\n" that the
 * parser then rejects) of the header block at f->start, or 0 when no
 * complete block is within FRAMING__MAX_HEADER bytes. (0 is never a real
 * end: an end lies past at least one '\n'.) */
static size_t framing__block_end(const Framer *f) {
  const char *base = f->buf.data;
  size_t pos = f->start;
  size_t stop = f->buf.len;
  if (stop - pos > FRAMING__MAX_HEADER) stop = pos + FRAMING__MAX_HEADER;
  while (pos < stop) {
    const char *nl = memchr(base + pos, '\n', stop - pos);
    if (!nl) return 0;
    size_t line_len = (size_t)(nl - (base + pos));
    size_t next = (size_t)(nl - base) + 1;
    if (line_len == 0 || (line_len == 1 && base[pos] == '\r')) return next;
    pos = next;
  }
  return 0;
}

static bool framing__ieq(const char *a, size_t a_len, const char *b) {
  size_t b_len = strlen(b);
  if (a_len != b_len) return false;
  for (size_t i = 0; i < a_len; i++) {
    unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
    if (x >= 'A' && x <= 'Z') x = (unsigned char)(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = (unsigned char)(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

static bool framing__is_ows(char c) { return c == ' ' || c == '\t'; }

/* Parses a Content-Length value (between the colon and the CR). Optional
 * whitespace is allowed on both sides, as HTTP allows; anything else but
 * decimal digits is an error. A value that overflows size_t is a malformed
 * header, not an over-limit one: it is not a length any peer could mean. */
static bool framing__parse_length(Framer *f, const char *v, size_t n, size_t *out) {
  const char *val = v;
  size_t val_len = n;
  size_t i = 0;
  while (i < n && framing__is_ows(v[i])) i++;
  while (n > i && framing__is_ows(v[n - 1])) n--;
  if (i == n) {
    framing__set_err(f, "empty Content-Length value", NULL, 0);
    return false;
  }
  if (v[i] == '-') {
    framing__set_err(f, "negative Content-Length", val, val_len);
    return false;
  }
  if (v[i] < '0' || v[i] > '9') {
    framing__set_err(f, "Content-Length is not a number", val, val_len);
    return false;
  }
  size_t len = 0;
  for (; i < n; i++) {
    if (v[i] < '0' || v[i] > '9') {
      framing__set_err(f, "trailing garbage after Content-Length digits", val, val_len);
      return false;
    }
    size_t d = (size_t)(v[i] - '0');
    if (len > (SIZE_MAX - d) / 10) {
      framing__set_err(f, "Content-Length overflows", val, val_len);
      return false;
    }
    len = len * 10 + d;
  }
  *out = len;
  return true;
}

/* Checks one header line (without its "\n"). Unknown headers are accepted
 * and ignored. Sets *found and *len when the line is a Content-Length. */
static bool framing__parse_line(Framer *f, const char *line, size_t n, bool *found, size_t *len) {
  if (n == 0 || line[n - 1] != '\r') {
    framing__set_err(f, "header line ends in a bare \\n instead of \\r\\n", line, n);
    return false;
  }
  n--;
  const char *colon = memchr(line, ':', n);
  if (!colon) {
    framing__set_err(f, "header line without ':'", line, n);
    return false;
  }
  size_t name_len = (size_t)(colon - line);
  if (!framing__ieq(line, name_len, framing__content_length)) return true;
  size_t value;
  if (!framing__parse_length(f, colon + 1, n - name_len - 1, &value)) return false;
  /* Two equal values are harmless; two different ones leave no way to know
   * where the body ends. */
  if (*found && value != *len) {
    framing__set_err(f, "conflicting Content-Length headers", NULL, 0);
    return false;
  }
  *found = true;
  *len = value;
  return true;
}

/* Checks every line of the header block [p, p+n), which ends with its empty
 * line, and extracts the body length. */
static bool framing__parse_block(Framer *f, const char *p, size_t n, size_t *len) {
  bool found = false;
  const char *end = p + n;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (nl + 1 == end) break; /* the empty line that ends the block */
    if (!framing__parse_line(f, p, (size_t)(nl - p), &found, len)) return false;
    p = nl + 1;
  }
  if (*p != '\r') {
    framing__set_err(f, "header block ends in a bare \\n instead of \\r\\n", NULL, 0);
    return false;
  }
  if (!found) {
    framing__set_err(f, "missing Content-Length header", NULL, 0);
    return false;
  }
  return true;
}

/* Header state. Returns FRAMING_MESSAGE when a valid header block was
 * consumed and the framer is now in the body state (the body itself may not
 * be here yet); otherwise the status to report. */
/* After a malformed header block its body (if it had one) is still in the
 * stream and would be read as headers: skip to the next "Content-Length"
 * (case-insensitive) so one bad message costs one error. Keeps a possible
 * partial name at the end of the buffer. */
static bool framing__resync(Framer *f) {
  const size_t n = sizeof framing__content_length - 1;
  const char *p = f->buf.data + f->start;
  size_t avail = f->buf.len - f->start;
  for (size_t i = 0; i + n <= avail; i++) {
    if (framing__ieq(p + i, n, framing__content_length)) {
      f->start += i;
      f->resync = false;
      return true;
    }
  }
  if (avail >= n) f->start += avail - (n - 1);
  return false;
}

static FramingStatus framing__read_headers(Framer *f) {
  if (f->resync && !framing__resync(f)) return FRAMING_NEED_MORE;
  size_t end = framing__block_end(f);
  if (end == 0) {
    size_t buffered = f->buf.len - f->start;
    if (buffered < FRAMING__MAX_HEADER) return FRAMING_NEED_MORE;
    /* No way to find where this block ends: drop what we have and hope the
     * next bytes start a new message. */
    snprintf(f->err, sizeof f->err,
             "header block longer than %zu bytes without a blank line; dropped %zu bytes",
             FRAMING__MAX_HEADER, buffered);
    f->start = f->buf.len;
    f->resync = true;
    return FRAMING_BAD_HEADER;
  }
  size_t len = 0;
  bool ok = framing__parse_block(f, f->buf.data + f->start, end - f->start, &len);
  f->start = end;
  if (!ok) {
    f->resync = true;
    return FRAMING_BAD_HEADER;
  }
  if (len > f->limit) {
    /* skipped as it arrives; its head is kept to answer it (framing__skip) */
    snprintf(f->err, sizeof f->err, "Content-Length %zu exceeds the limit of %zu bytes; skipped", len,
             f->limit);
    f->skip_left = len;
    f->head_len = 0;
    f->head_want = len < FRAMING_HEAD ? len : FRAMING_HEAD;
    f->head_told = false;
    return FRAMING_TOO_LARGE;
  }
  f->in_body = true;
  f->body_len = len;
  return FRAMING_MESSAGE;
}

/* Discards what has arrived of an over-limit body, keeping its head.
 * Returns FRAMING_TOO_LARGE once the head is in, FRAMING_NEED_MORE while
 * bytes are missing, FRAMING_MESSAGE when the body is gone. */
static FramingStatus framing__skip(Framer *f, const char **body, size_t *len, const char **err) {
  size_t avail = f->buf.len - f->start, n = avail < f->skip_left ? avail : f->skip_left;
  size_t keep = f->head_want - f->head_len < n ? f->head_want - f->head_len : n;
  memcpy(f->head + f->head_len, f->buf.data + f->start, keep);
  f->head_len += keep;
  f->start += n;
  f->skip_left -= n;
  if (!f->head_told && f->head_len == f->head_want) {
    f->head_told = true;
    *body = f->head;
    *len = f->head_len;
    *err = f->err;
    return FRAMING_TOO_LARGE;
  }
  return f->skip_left ? FRAMING_NEED_MORE : FRAMING_MESSAGE;
}

static FramingStatus framing__step(Framer *f, const char **body, size_t *len, const char **err) {
  if (f->dead) {
    *err = f->err;
    return FRAMING_DEAD;
  }
  framing__compact(f);
  if (f->skip_left || (f->head_want && !f->head_told)) {
    FramingStatus st = framing__skip(f, body, len, err);
    if (st != FRAMING_MESSAGE) return st;
    f->head_want = 0;
    framing__compact(f);
  }
  if (!f->in_body) {
    FramingStatus st = framing__read_headers(f);
    if (st == FRAMING_TOO_LARGE) return framing__step(f, body, len, err);
    if (st != FRAMING_MESSAGE) {
      if (st != FRAMING_NEED_MORE) *err = f->err;
      return st;
    }
  }
  if (f->buf.len - f->start < f->body_len) return FRAMING_NEED_MORE;
  *body = f->buf.data + f->start;
  *len = f->body_len;
  f->start += f->body_len;
  f->in_body = false;
  f->body_len = 0;
  return FRAMING_MESSAGE;
}

/* ---- Framer - Public ----------------------------------------------------- */

void framing_init(Framer *f, size_t limit) {
  memset(f, 0, sizeof *f);
  sb_init(&f->buf);
  f->limit = limit;
}

void framing_free(Framer *f) {
  sb_free(&f->buf);
  f->start = 0;
  f->in_body = false;
  f->body_len = 0;
}

void framing_feed(Framer *f, const char *data, size_t len) {
  if (f->dead || len == 0) return; /* nothing will be read: don't hold it */
  framing__compact(f);
  sb_append(&f->buf, data, len);
}

FramingStatus framing_next(Framer *f, const char **body, size_t *len, const char **err) {
  const char *b = NULL, *e = NULL;
  size_t n = 0;
  FramingStatus st = framing__step(f, &b, &n, &e);
  if (body) *body = b;
  if (len) *len = n;
  if (err) *err = e;
  return st;
}

void framing_encode(StrBuf *out, const char *body, size_t len) {
  sb_printf(out, "Content-Length: %zu\r\n\r\n", len);
  if (len) sb_append(out, body, len);
}
