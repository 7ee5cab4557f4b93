/* fuzz_framing: the LSP base-protocol framer over arbitrary byte streams
 * split at arbitrary points.
 *
 * Input layout: byte 0 picks the framer limit (small limits reach the
 * too-large path without huge inputs); the next 8 bytes are chunk sizes
 * (1..64, cycled); the rest is the stream. Checked properties:
 *  1. any stream, any split: no crash, every body lies inside what was fed,
 *     errors carry a message, FRAMING_TOO_LARGE hands back at most
 *     FRAMING_HEAD bytes of the skipped body and FRAMING_DEAD never comes;
 *  2. round trip: bodies cut from the stream, encoded with framing_encode
 *     and fed back split the same way come out byte-identical and in order. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/framing.h"

#define FUZZ_CHECK(c)                                                           \
  do {                                                                          \
    if (!(c)) {                                                                 \
      fprintf(stderr, "fuzz_framing: check failed: %s (line %d)\n", #c, __LINE__); \
      abort();                                                                  \
    }                                                                           \
  } while (0)

typedef struct {
  const uint8_t *base;
  size_t len;
} Fed;

static size_t fuzz__drain(Framer *f, bool *dead, const Fed *fed, size_t nfed, const char ***bodies_out,
                          size_t **lens_out, size_t *n_out) {
  size_t events = 0;
  for (;;) {
    const char *body = NULL, *err = NULL;
    size_t len = 0;
    FramingStatus st = framing_next(f, &body, &len, &err);
    events++;
    if (*dead) FUZZ_CHECK(st == FRAMING_DEAD);
    if (st == FRAMING_NEED_MORE) {
      FUZZ_CHECK(body == NULL && err == NULL);
      return events;
    }
    FUZZ_CHECK(st != FRAMING_DEAD);
    if (st == FRAMING_TOO_LARGE) {
      FUZZ_CHECK(err != NULL && *err);
      FUZZ_CHECK(len >= 1 && len <= FRAMING_HEAD && body == f->head);
      continue;
    }
    if (st == FRAMING_BAD_HEADER) {
      FUZZ_CHECK(err != NULL && *err);
      continue;
    }
    FUZZ_CHECK(st == FRAMING_MESSAGE);
    FUZZ_CHECK(len == 0 || body != NULL);
    FUZZ_CHECK(len <= f->limit);
    /* the body must be bytes we fed, in the framer's buffer */
    FUZZ_CHECK(body >= f->buf.data && body + len <= f->buf.data + f->buf.len);
    (void)fed;
    (void)nfed;
    if (bodies_out) {
      /* copy: the body is only borrowed until the next call */
      char *copy = malloc(len + 1);
      if (len) memcpy(copy, body, len);
      *bodies_out = realloc(*bodies_out, (*n_out + 1) * sizeof **bodies_out);
      *lens_out = realloc(*lens_out, (*n_out + 1) * sizeof **lens_out);
      (*bodies_out)[*n_out] = copy;
      (*lens_out)[*n_out] = len;
      (*n_out)++;
    }
  }
}

static void fuzz__feed_split(Framer *f, const uint8_t *p, size_t n, const uint8_t *splits, const char ***bodies,
                             size_t **lens, size_t *nb) {
  bool dead = false;
  size_t off = 0, k = 0;
  while (off < n) {
    size_t c = (size_t)(splits[k++ % 8] % 64) + 1;
    if (c > n - off) c = n - off;
    framing_feed(f, (const char *)p + off, c);
    Fed fed = {p, n};
    fuzz__drain(f, &dead, &fed, 1, bodies, lens, nb);
    off += c;
  }
  framing_feed(f, "", 0);
  Fed fed = {p, n};
  fuzz__drain(f, &dead, &fed, 1, bodies, lens, nb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 9) return 0;
  static const size_t limits[] = {FRAMING_DEFAULT_LIMIT, 0, 1, 16, 100, 4096};
  size_t limit = limits[data[0] % 6];
  const uint8_t *splits = data + 1;
  const uint8_t *p = data + 9;
  size_t n = size - 9;

  /* 1. arbitrary stream */
  Framer f;
  framing_init(&f, limit);
  fuzz__feed_split(&f, p, n, splits, NULL, NULL, NULL);
  framing_free(&f);

  /* 2. round trip: the stream cut into bodies at each 0xFF byte */
  StrBuf enc;
  sb_init(&enc);
  size_t nin = 0;
  const uint8_t *start = p;
  for (size_t i = 0; i <= n; i++) {
    if (i == n || p[i] == 0xFF) {
      framing_encode(&enc, (const char *)start, (size_t)(p + i - start));
      nin++;
      start = p + i + 1;
    }
  }
  const char **bodies = NULL;
  size_t *lens = NULL, nb = 0;
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  fuzz__feed_split(&f, (const uint8_t *)enc.data, enc.len, splits, &bodies, &lens, &nb);
  framing_free(&f);
  FUZZ_CHECK(nb == nin);
  start = p;
  size_t k = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i == n || p[i] == 0xFF) {
      size_t len = (size_t)(p + i - start);
      FUZZ_CHECK(lens[k] == len);
      FUZZ_CHECK(len == 0 || memcmp(bodies[k], start, len) == 0);
      k++;
      start = p + i + 1;
    }
  }
  for (size_t i = 0; i < nb; i++) free((void *)bodies[i]);
  free(bodies);
  free(lens);
  sb_free(&enc);
  return 0;
}
