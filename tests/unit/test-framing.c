/* Unit tests for protocol/framing.c: the Content-Length state machine. */
#include "tests/unit/test.h"

#include <stdlib.h>

#include "protocol/framing.h"

static const char framing_test__good[] = "Content-Length: 7\r\n\r\n{\"a\":1}";

/* Feeds `bad` then a well-formed message in one read and checks the framer
 * reports exactly one BAD_HEADER whose text contains `want_err`, then the
 * good message, then nothing. Returns NULL or what went wrong. */
static const char *framing_test__bad_then_good(const char *bad, size_t bad_len,
                                               const char *want_err, size_t feed_step,
                                               char why[static 256]) {
  Framer f;
  const char *body, *err;
  size_t len;
  const char *fail = NULL;
  StrBuf in = {0};
  sb_append(&in, bad, bad_len);
  sb_puts(&in, framing_test__good);
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  int bad_seen = 0, msgs = 0;
  for (size_t i = 0; i < in.len && !fail; i += feed_step) {
    framing_feed(&f, in.data + i, in.len - i < feed_step ? in.len - i : feed_step);
    FramingStatus st;
    while ((st = framing_next(&f, &body, &len, &err)) != FRAMING_NEED_MORE) {
      if (st == FRAMING_BAD_HEADER) {
        if (bad_seen++ || msgs) fail = "BAD_HEADER repeated or out of order";
        else if (!err || !strstr(err, want_err)) {
          snprintf(why, 256, "err \"%s\" lacks \"%s\"", err ? err : "(null)", want_err);
          fail = why;
        }
      } else if (st == FRAMING_MESSAGE) {
        if (!bad_seen) fail = "message before BAD_HEADER";
        else if (len != 7 || memcmp(body, "{\"a\":1}", 7) != 0) fail = "wrong body";
        msgs++;
      } else {
        fail = "unexpected fatal status";
      }
      if (fail) break;
    }
  }
  if (!fail && (bad_seen != 1 || msgs != 1)) fail = "expected one BAD_HEADER and one message";
  framing_free(&f);
  sb_free(&in);
  return fail;
}

TEST(framing_one_message) {
  Framer f;
  const char *body, *err;
  size_t len;
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_NEED_MORE);
  framing_feed(&f, framing_test__good, strlen(framing_test__good));
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "{\"a\":1}");
  ASSERT(err == NULL);
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_NEED_MORE);
  ASSERT(body == NULL);
  ASSERT_EQ(len, 0);
  framing_free(&f);
}

TEST(framing_two_messages_in_one_feed) {
  Framer f;
  const char *body;
  size_t len;
  const char in[] = "Content-Length: 3\r\n\r\nabcContent-Length: 2\r\n\r\nxyContent-Len";
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  framing_feed(&f, in, sizeof in - 1);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "abc");
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "xy");
  /* The partial third header stays buffered and is completed later. */
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_NEED_MORE);
  framing_feed(&f, "gth: 1\r\n\r\nz", 11);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "z");
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_NEED_MORE);
  framing_free(&f);
}

TEST(framing_split_into_single_bytes) {
  Framer f;
  const char *body;
  size_t len;
  const char in[] = "Content-Length: 5\r\nContent-Type: x\r\n\r\nhelloContent-Length: 1\r\n\r\n!";
  const size_t first_end = strlen("Content-Length: 5\r\nContent-Type: x\r\n\r\nhello");
  int got = 0;
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  for (size_t i = 0; i < sizeof in - 1; i++) {
    framing_feed(&f, in + i, 1);
    FramingStatus st = framing_next(&f, &body, &len, NULL);
    if (i + 1 == first_end) {
      ASSERT_EQ(st, FRAMING_MESSAGE);
      ASSERT_MEM_EQ(body, len, "hello");
      got++;
    } else if (i + 1 == sizeof in - 1) {
      ASSERT_EQ(st, FRAMING_MESSAGE);
      ASSERT_MEM_EQ(body, len, "!");
      got++;
    } else {
      ASSERT_EQ(st, FRAMING_NEED_MORE);
    }
  }
  ASSERT_EQ(got, 2);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_NEED_MORE);
  framing_free(&f);
}

TEST(framing_extra_headers) {
  Framer f;
  const char *body;
  size_t len;
  const char in[] = "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
                    "Content-Length: 2\r\nX-Unknown: whatever: with colons\r\n\r\n{}";
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  framing_feed(&f, in, sizeof in - 1);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "{}");
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_NEED_MORE);
  framing_free(&f);
}

TEST(framing_header_name_case_and_whitespace) {
  Framer f;
  const char *body;
  size_t len;
  const char in[] = "content-length:2\r\n\r\n{}"
                    "CONTENT-LENGTH: \t 3 \t\r\n\r\nabc"
                    "cOnTeNt-LeNgTh:   1\r\n\r\nq";
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  framing_feed(&f, in, sizeof in - 1);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "{}");
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "abc");
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "q");
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_NEED_MORE);
  framing_free(&f);
}

static const struct {
  const char *header;
  const char *err;
} framing_test__malformed[] = {
    {"Content-Type: text/plain\r\n\r\n", "missing Content-Length"},
    {"\r\n", "missing Content-Length"},
    {"Content-Length: -5\r\n\r\n", "negative"},
    {"Content-Length: abc\r\n\r\n", "not a number"},
    {"Content-Length: +5\r\n\r\n", "not a number"},
    {"Content-Length: 12abc\r\n\r\n", "trailing garbage"},
    {"Content-Length: 1 2\r\n\r\n", "trailing garbage"},
    {"Content-Length:\r\n\r\n", "empty"},
    {"Content-Length: 99999999999999999999999999\r\n\r\n", "overflows"},
    {"Content-Length: 2\n\n", "bare \\n"},
    {"Content-Length: 2\n\r\n", "bare \\n"},
    {"Content-Length: 2\r\n\n", "bare \\n"},
    {"Content-Type: x\nContent-Length: 2\r\n\r\n", "bare \\n"},
    {"no colon here\r\n\r\n", "without ':'"},
    {"Content-Length: 2\r\nContent-Length: 3\r\n\r\n", "conflicting"},
};

TEST(framing_malformed_then_good_one_feed) {
  size_t n = sizeof framing_test__malformed / sizeof framing_test__malformed[0];
  for (size_t i = 0; i < n; i++) {
    const char *h = framing_test__malformed[i].header;
    char buf[256];
    const char *why =
        framing_test__bad_then_good(h, strlen(h), framing_test__malformed[i].err, 1 << 20, buf);
    if (why) TEST_FAIL("case %zu (%s): %s", i, h, why);
  }
}

TEST(framing_malformed_then_good_bytewise) {
  size_t n = sizeof framing_test__malformed / sizeof framing_test__malformed[0];
  for (size_t i = 0; i < n; i++) {
    const char *h = framing_test__malformed[i].header;
    char buf[256];
    const char *why = framing_test__bad_then_good(h, strlen(h), framing_test__malformed[i].err, 1, buf);
    if (why) TEST_FAIL("case %zu (%s): %s", i, h, why);
  }
}

TEST(framing_duplicate_equal_length_is_fine) {
  Framer f;
  const char *body;
  size_t len;
  const char in[] = "Content-Length: 2\r\ncontent-length: 02\r\n\r\n{}";
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  framing_feed(&f, in, sizeof in - 1);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "{}");
  framing_free(&f);
}

TEST(framing_oversized_header_block_is_dropped) {
  Framer f;
  const char *body, *err;
  size_t len;
  char *junk = malloc(9000);
  memset(junk, 'x', 9000);
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  /* 8191 bytes without a blank line might still become a valid block
   * (ended by one more "\n"); 8192 cannot. */
  framing_feed(&f, junk, 8191);
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_NEED_MORE);
  framing_feed(&f, junk, 1);
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_BAD_HEADER);
  ASSERT(strstr(err, "8192") && strstr(err, "dropped 8192 bytes"));
  ASSERT_EQ(f.buf.len - f.start, 0);
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_NEED_MORE);
  framing_feed(&f, framing_test__good, strlen(framing_test__good));
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "{\"a\":1}");
  /* All at once. */
  framing_feed(&f, junk, 9000);
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_BAD_HEADER);
  ASSERT(strstr(err, "dropped 9000 bytes"));
  framing_feed(&f, framing_test__good, strlen(framing_test__good));
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "{\"a\":1}");
  /* Also with well-formed lines that never end the block. */
  for (int i = 0; i < 700; i++) framing_feed(&f, "X-Pad: 1234\r\n", 13);
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_BAD_HEADER);
  framing_feed(&f, framing_test__good, strlen(framing_test__good));
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "{\"a\":1}");
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_NEED_MORE);
  framing_free(&f);
  free(junk);
}

TEST(framing_header_block_at_size_limit_is_accepted) {
  Framer f;
  const char *body;
  size_t len;
  StrBuf in = {0};
  /* 8192 bytes in all: padding line + "Content-Length: 2\r\n" + "\r\n". */
  size_t pad = 8192 - strlen("Content-Length: 2\r\n\r\n") - strlen("X: \r\n");
  sb_puts(&in, "X: ");
  for (size_t i = 0; i < pad; i++) sb_putc(&in, 'p');
  sb_puts(&in, "\r\nContent-Length: 2\r\n\r\n");
  ASSERT_EQ(in.len, 8192);
  sb_puts(&in, "{}");
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  framing_feed(&f, in.data, in.len);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "{}");
  framing_free(&f);
  sb_free(&in);
}

TEST(framing_too_large_is_skipped) {
  Framer f;
  const char *body, *err;
  size_t len;
  framing_init(&f, 10);
  framing_feed(&f, "Content-Length: 10\r\n\r\n0123456789", 32);
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "0123456789");
  /* an over-limit body arriving in pieces: reported once its head is in,
   * discarded as it comes, and the next message is read */
  framing_feed(&f, "Content-Length: 14\r\n\r\n{\"id\":", 28);
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_NEED_MORE);
  framing_feed(&f, "7,\"x\":1}", 8);
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_TOO_LARGE);
  ASSERT_MEM_EQ(body, len, "{\"id\":7,\"x\":1}");
  ASSERT_STR_EQ(err, "Content-Length 14 exceeds the limit of 10 bytes; skipped");
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_NEED_MORE);
  framing_feed(&f, "Content-Length: 2\r\n\r\n{}", 23);
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "{}");
  /* a huge one: its head only is kept, the buffer stays small */
  framing_feed(&f, "Content-Length: 100000000\r\n\r\n", 29);
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_NEED_MORE);
  static char chunk[65536];
  memset(chunk, 'x', sizeof chunk);
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_NEED_MORE);
  framing_feed(&f, chunk, sizeof chunk);
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_TOO_LARGE);
  ASSERT_EQ(len, FRAMING_HEAD);
  for (size_t sent = sizeof chunk; sent < 100000000; sent += sizeof chunk) {
    size_t n = 100000000 - sent < sizeof chunk ? 100000000 - sent : sizeof chunk;
    framing_feed(&f, chunk, n);
    if (framing_next(&f, &body, &len, &err) != FRAMING_NEED_MORE) TEST_FAIL("a skipped body gave an event");
    ASSERT(f.buf.cap <= 4 * sizeof chunk);
  }
  framing_feed(&f, framing_test__good, strlen(framing_test__good));
  ASSERT_EQ(framing_next(&f, &body, &len, &err), FRAMING_MESSAGE);
  framing_free(&f);
}

TEST(framing_zero_length_body) {
  Framer f;
  const char *body;
  size_t len = 99;
  const char in[] = "Content-Length: 0\r\n\r\nContent-Length: 1\r\n\r\nA";
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  framing_feed(&f, in, 21);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_EQ(len, 0);
  ASSERT(body != NULL);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_NEED_MORE);
  framing_feed(&f, in + 21, sizeof in - 1 - 21);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "A");
  framing_free(&f);
}

TEST(framing_never_reads_past_body) {
  Framer f;
  const char *body;
  size_t len;
  /* The body itself looks like a header block; it must come back verbatim. */
  const char in[] = "Content-Length: 21\r\n\r\nContent-Length: 1\r\n\r\nZ";
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  framing_feed(&f, in, sizeof in - 2);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "Content-Length: 1\r\n\r\n");
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_NEED_MORE);
  framing_feed(&f, "Z", 1);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_NEED_MORE);
  ASSERT_EQ(f.buf.len - f.start, 1);
  framing_free(&f);
}

TEST(framing_encode_round_trip) {
  StrBuf out = {0};
  Framer f;
  const char *body;
  size_t len;
  const char bin[] = {'a', '\0', '\r', '\n', '\r', '\n', 'b'};
  framing_encode(&out, "{}", 2);
  ASSERT_STR_EQ(out.data, "Content-Length: 2\r\n\r\n{}");
  framing_encode(&out, "", 0);
  framing_encode(&out, bin, sizeof bin);
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  framing_feed(&f, out.data, out.len);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "{}");
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_EQ(len, 0);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_EQ(len, sizeof bin);
  ASSERT(memcmp(body, bin, sizeof bin) == 0);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_NEED_MORE);
  framing_free(&f);
  sb_free(&out);
}

/* A long session must not grow the buffer, also when every read ends in the
 * middle of a message (so the buffer never drains and must be compacted). */
static void framing_test__payload(char *p, size_t n, size_t seq) {
  for (size_t i = 0; i < n; i++) p[i] = (char)('a' + (seq * 7 + i) % 26);
}

TEST(framing_buffer_stays_bounded) {
  StrBuf prev = {0}, cur = {0};
  Framer f;
  const char *body;
  size_t len;
  char payload[200], want[200];
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  /* Each read is the second half of message i-1 plus the first half of
   * message i; payloads differ, so a byte lost or left stale by compaction
   * shows up as a wrong body. */
  size_t got = 0;
  for (size_t i = 0; i <= 20000; i++) {
    framing_test__payload(payload, sizeof payload, i);
    cur.len = 0;
    framing_encode(&cur, payload, sizeof payload);
    if (i > 0) framing_feed(&f, prev.data + prev.len / 2, prev.len - prev.len / 2);
    framing_feed(&f, cur.data, cur.len / 2);
    while (framing_next(&f, &body, &len, NULL) == FRAMING_MESSAGE) {
      framing_test__payload(want, sizeof want, got);
      if (len != sizeof want || memcmp(body, want, len) != 0) TEST_FAIL("bad body %zu", got);
      got++;
    }
    StrBuf t = prev;
    prev = cur;
    cur = t;
  }
  ASSERT_EQ(got, 20000);
  ASSERT(f.buf.cap <= 16384);
  /* The leftover half message has had its 23-byte header parsed already. */
  ASSERT(f.in_body);
  ASSERT_EQ(f.buf.len - f.start, prev.len / 2 - strlen("Content-Length: 200\r\n\r\n"));
  framing_free(&f);
  sb_free(&prev);
  sb_free(&cur);
}

/* After one huge message the buffer gives its memory back. */
TEST(framing_buffer_shrinks_after_big_message) {
  StrBuf msg = {0};
  Framer f;
  const char *body;
  size_t len;
  size_t big = (size_t)2 << 20;
  char *payload = malloc(big);
  memset(payload, 'B', big);
  framing_encode(&msg, payload, big);
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  framing_feed(&f, msg.data, msg.len);
  ASSERT(f.buf.cap > big);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_EQ(len, big);
  ASSERT(memcmp(body, payload, big) == 0);
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_NEED_MORE);
  ASSERT(f.buf.cap < 4096);
  framing_feed(&f, framing_test__good, strlen(framing_test__good));
  ASSERT_EQ(framing_next(&f, &body, &len, NULL), FRAMING_MESSAGE);
  ASSERT_MEM_EQ(body, len, "{\"a\":1}");
  framing_free(&f);
  sb_free(&msg);
  free(payload);
}

/* A bad header block followed by its body: one error, then the next
 * message, however the bytes are split. */
TEST(framing_resync_after_bad_block_with_body) {
  static const char *const bad[] = {
      "Content-Type: application/json\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}",
      "Content-Length: -5\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}",
      "Content-Length: 5\n\n{\"a\":1}",
  };
  const char *good = "content-length: 2\r\n\r\n{}";
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    for (size_t chunk = 1; chunk <= 64; chunk *= 4) {
      Framer f;
      framing_init(&f, 1024);
      char stream[256];
      snprintf(stream, sizeof stream, "%s%s", bad[k], good);
      size_t n = strlen(stream), errors = 0, msgs = 0;
      for (size_t at = 0; at < n; at += chunk) {
        framing_feed(&f, stream + at, at + chunk <= n ? chunk : n - at);
        const char *body, *err;
        size_t len;
        FramingStatus st;
        while ((st = framing_next(&f, &body, &len, &err)) != FRAMING_NEED_MORE) {
          if (st == FRAMING_BAD_HEADER) errors++;
          else if (st == FRAMING_MESSAGE && len == 2 && memcmp(body, "{}", 2) == 0) msgs++;
          else break;
        }
      }
      framing_free(&f);
      ASSERT_EQ(errors, 1);
      ASSERT_EQ(msgs, 1);
    }
  }
}
