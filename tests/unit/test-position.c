/* Unit tests for protocol/position.c: line index and offset <-> LSP position. */
#include "tests/unit/test.h"

#include "analyzers/engine/util.h"
#include "protocol/position.h"

/* from_offset(off) must be (line, ch). */
#define ASSERT_FROM(idx, text, off, enc, line_, ch_)                           \
  do {                                                                         \
    LspPosition p__ = pos_from_offset((idx), (text), (off), (enc));            \
    if (p__.line != (uint32_t)(line_) || p__.character != (uint32_t)(ch_))     \
      TEST_FAIL("from_offset(%zu) = (%u,%u), want (%u,%u)", (size_t)(off),     \
                (unsigned)p__.line, (unsigned)p__.character,                   \
                (unsigned)(line_), (unsigned)(ch_));                           \
  } while (0)
/* to_offset((line, ch)) must be off. */
#define ASSERT_TO(idx, text, line_, ch_, enc, off)                             \
  ASSERT_EQ(pos_to_offset((idx), (text), (LspPosition){(line_), (ch_)}, (enc)), (off))

#define EMOJI "\xF0\x9F\x98\x80" /* U+1F600, 4 bytes, 2 UTF-16 units */
#define ZHONG "\xE4\xB8\xAD"     /* U+4E2D, 3 bytes, 1 UTF-16 unit */
#define WEN "\xE6\x96\x87"       /* U+6587 */
#define E_ACUTE "\xC3\xA9"       /* U+00E9, 2 bytes */

TEST(pos_ascii) {
  const char *t = "abc\ndef";
  LineIndex idx;
  pos_index_build(&idx, t, strlen(t));
  ASSERT_EQ(idx.count, 2);
  ASSERT_EQ(idx.starts[0], 0);
  ASSERT_EQ(idx.starts[1], 4);
  ASSERT_FROM(&idx, t, 0, POS_UTF16, 0, 0);
  ASSERT_FROM(&idx, t, 3, POS_UTF16, 0, 3);
  ASSERT_FROM(&idx, t, 4, POS_UTF16, 1, 0);
  ASSERT_FROM(&idx, t, 5, POS_UTF16, 1, 1);
  ASSERT_FROM(&idx, t, 7, POS_UTF16, 1, 3);
  ASSERT_TO(&idx, t, 0, 2, POS_UTF16, 2);
  ASSERT_TO(&idx, t, 1, 1, POS_UTF16, 5);
  ASSERT_TO(&idx, t, 1, 3, POS_UTF16, 7);
  ASSERT_EQ(pos_row_of(&idx, 3), 0);
  ASSERT_EQ(pos_row_of(&idx, 4), 1);
  pos_index_free(&idx);
  ASSERT(idx.starts == NULL);
}

TEST(pos_cjk) {
  const char *t = "a" ZHONG WEN "b"; /* a@0 中@1 文@4 b@7, len 8 */
  LineIndex idx;
  pos_index_build(&idx, t, strlen(t));
  ASSERT_FROM(&idx, t, 1, POS_UTF16, 0, 1);
  ASSERT_FROM(&idx, t, 4, POS_UTF16, 0, 2);
  ASSERT_FROM(&idx, t, 7, POS_UTF16, 0, 3);
  ASSERT_FROM(&idx, t, 8, POS_UTF16, 0, 4);
  ASSERT_FROM(&idx, t, 5, POS_UTF16, 0, 2); /* inside 文: snaps to its start */
  ASSERT_FROM(&idx, t, 6, POS_UTF16, 0, 2);
  ASSERT_TO(&idx, t, 0, 2, POS_UTF16, 4);
  ASSERT_TO(&idx, t, 0, 3, POS_UTF16, 7);
  ASSERT_TO(&idx, t, 0, 4, POS_UTF16, 8);
  pos_index_free(&idx);
}

TEST(pos_emoji) {
  const char *t = "a" EMOJI "b"; /* a@0 😀@1 b@5, len 6 */
  LineIndex idx;
  pos_index_build(&idx, t, strlen(t));
  ASSERT_FROM(&idx, t, 1, POS_UTF16, 0, 1);
  ASSERT_FROM(&idx, t, 5, POS_UTF16, 0, 3);
  ASSERT_FROM(&idx, t, 6, POS_UTF16, 0, 4);
  ASSERT_FROM(&idx, t, 3, POS_UTF16, 0, 1); /* inside the emoji */
  ASSERT_TO(&idx, t, 0, 1, POS_UTF16, 1);
  ASSERT_TO(&idx, t, 0, 3, POS_UTF16, 5);
  ASSERT_TO(&idx, t, 0, 4, POS_UTF16, 6);
  pos_index_free(&idx);
}

TEST(pos_surrogate_middle_snaps_to_start) {
  const char *t = EMOJI EMOJI "x";
  LineIndex idx;
  pos_index_build(&idx, t, strlen(t));
  ASSERT_TO(&idx, t, 0, 0, POS_UTF16, 0);
  ASSERT_TO(&idx, t, 0, 1, POS_UTF16, 0);
  ASSERT_TO(&idx, t, 0, 2, POS_UTF16, 4);
  ASSERT_TO(&idx, t, 0, 3, POS_UTF16, 4);
  ASSERT_TO(&idx, t, 0, 4, POS_UTF16, 8);
  ASSERT_TO(&idx, t, 0, 5, POS_UTF16, 9);
  pos_index_free(&idx);
}

TEST(pos_crlf) {
  const char *t = "ab\r\ncd\r\n";
  LineIndex idx;
  pos_index_build(&idx, t, strlen(t));
  ASSERT_EQ(idx.count, 3);
  ASSERT_EQ(idx.starts[1], 4);
  ASSERT_EQ(idx.starts[2], 8);
  ASSERT_FROM(&idx, t, 2, POS_UTF16, 0, 2);
  ASSERT_FROM(&idx, t, 3, POS_UTF16, 0, 2); /* between \r and \n: end of line */
  ASSERT_FROM(&idx, t, 4, POS_UTF16, 1, 0);
  ASSERT_FROM(&idx, t, 8, POS_UTF16, 2, 0);
  ASSERT_TO(&idx, t, 0, 3, POS_UTF16, 2); /* \r is not part of the line */
  ASSERT_TO(&idx, t, 1, 2, POS_UTF16, 6);
  ASSERT_TO(&idx, t, 1, 9, POS_UTF16, 6);
  ASSERT_TO(&idx, t, 2, 0, POS_UTF16, 8);
  ASSERT_EQ(pos_row_of(&idx, 3), 0);
  pos_index_free(&idx);
}

TEST(pos_lone_cr) {
  const char *t = "ab\rcd\r";
  LineIndex idx;
  pos_index_build(&idx, t, strlen(t));
  ASSERT_EQ(idx.count, 3);
  ASSERT_EQ(idx.starts[1], 3);
  ASSERT_EQ(idx.starts[2], 6);
  ASSERT_FROM(&idx, t, 2, POS_UTF16, 0, 2);
  ASSERT_FROM(&idx, t, 4, POS_UTF16, 1, 1);
  ASSERT_FROM(&idx, t, 6, POS_UTF16, 2, 0);
  ASSERT_TO(&idx, t, 0, 9, POS_UTF16, 2);
  ASSERT_TO(&idx, t, 1, 1, POS_UTF16, 4);
  ASSERT_TO(&idx, t, 1, 2, POS_UTF16, 5);
  pos_index_free(&idx);
}

TEST(pos_mixed_breaks) {
  /* \n | \r\n | \r | \n then \r: two breaks, an empty line between. */
  const char *t = "a\nb\r\nc\rd\n\re";
  const uint32_t want[] = {0, 2, 5, 7, 9, 10};
  LineIndex idx;
  pos_index_build(&idx, t, strlen(t));
  ASSERT_EQ(idx.count, 6);
  for (size_t i = 0; i < 6; i++) ASSERT_EQ(idx.starts[i], want[i]);
  ASSERT_FROM(&idx, t, 9, POS_UTF16, 4, 0);
  ASSERT_TO(&idx, t, 4, 5, POS_UTF16, 9); /* empty line ended by lone \r */
  ASSERT_TO(&idx, t, 5, 1, POS_UTF16, 11);
  ASSERT_EQ(pos_row_of(&idx, 4), 1);
  ASSERT_EQ(pos_row_of(&idx, 10), 5);
  pos_index_free(&idx);
}

TEST(pos_empty_text) {
  LineIndex idx;
  pos_index_build(&idx, "", 0);
  ASSERT_EQ(idx.count, 1);
  ASSERT_EQ(idx.starts[0], 0);
  ASSERT_FROM(&idx, "", 0, POS_UTF16, 0, 0);
  ASSERT_FROM(&idx, "", 10, POS_UTF16, 0, 0);
  ASSERT_TO(&idx, "", 0, 5, POS_UTF16, 0);
  ASSERT_TO(&idx, "", 3, 0, POS_UTF16, 0);
  ASSERT_EQ(pos_row_of(&idx, 0), 0);
  ASSERT_EQ(pos_column_to_character(&idx, "", 0, 4, POS_UTF16), 0);
  pos_index_free(&idx);
  pos_index_build(&idx, NULL, 0); /* no text at all is an empty document */
  ASSERT_EQ(idx.count, 1);
  ASSERT_EQ(pos_to_offset(&idx, NULL, (LspPosition){0, 3}, POS_UTF16), 0);
  ASSERT_EQ(pos_from_offset(&idx, NULL, 0, POS_UTF8).character, 0);
  pos_index_free(&idx);
}

TEST(pos_final_newline_or_not) {
  const char *t = "abc\n";
  LineIndex idx;
  pos_index_build(&idx, t, strlen(t));
  ASSERT_EQ(idx.count, 2); /* the empty line after the final \n exists */
  ASSERT_FROM(&idx, t, 4, POS_UTF16, 1, 0);
  ASSERT_TO(&idx, t, 1, 0, POS_UTF16, 4);
  ASSERT_TO(&idx, t, 1, 7, POS_UTF16, 4);
  pos_index_free(&idx);
  t = "abc";
  pos_index_build(&idx, t, strlen(t));
  ASSERT_EQ(idx.count, 1);
  ASSERT_FROM(&idx, t, 3, POS_UTF16, 0, 3);
  ASSERT_TO(&idx, t, 0, 3, POS_UTF16, 3);
  ASSERT_TO(&idx, t, 1, 0, POS_UTF16, 3);
  pos_index_free(&idx);
}

TEST(pos_clamp_past_end_of_line) {
  const char *t = "ab\n" ZHONG "\n";
  LineIndex idx;
  pos_index_build(&idx, t, strlen(t));
  ASSERT_TO(&idx, t, 0, 3, POS_UTF16, 2);
  ASSERT_TO(&idx, t, 0, 100, POS_UTF16, 2);
  ASSERT_TO(&idx, t, 1, 2, POS_UTF16, 6);
  ASSERT_TO(&idx, t, 1, UINT32_MAX, POS_UTF16, 6);
  ASSERT_TO(&idx, t, 1, UINT32_MAX, POS_UTF8, 6);
  pos_index_free(&idx);
}

TEST(pos_clamp_past_end_of_document) {
  const char *t = "ab\ncd";
  LineIndex idx;
  pos_index_build(&idx, t, strlen(t));
  ASSERT_TO(&idx, t, 2, 0, POS_UTF16, 5);
  ASSERT_TO(&idx, t, 9, 9, POS_UTF16, 5);
  ASSERT_TO(&idx, t, UINT32_MAX, UINT32_MAX, POS_UTF8, 5);
  ASSERT_FROM(&idx, t, 99, POS_UTF16, 1, 2);
  ASSERT_FROM(&idx, t, (size_t)-1, POS_UTF16, 1, 2);
  ASSERT_EQ(pos_row_of(&idx, 99), 1);
  pos_index_free(&idx);
}

TEST(pos_utf8_encoding) {
  const char *t = E_ACUTE ZHONG EMOJI "x"; /* é@0 中@2 😀@5 x@9, len 10 */
  LineIndex idx;
  pos_index_build(&idx, t, strlen(t));
  ASSERT_FROM(&idx, t, 9, POS_UTF8, 0, 9);
  ASSERT_FROM(&idx, t, 9, POS_UTF16, 0, 4);
  ASSERT_FROM(&idx, t, 7, POS_UTF8, 0, 5); /* inside the emoji */
  ASSERT_TO(&idx, t, 0, 1, POS_UTF8, 0);   /* inside é */
  ASSERT_TO(&idx, t, 0, 3, POS_UTF8, 2);   /* inside 中 */
  ASSERT_TO(&idx, t, 0, 5, POS_UTF8, 5);
  ASSERT_TO(&idx, t, 0, 8, POS_UTF8, 5);
  ASSERT_TO(&idx, t, 0, 9, POS_UTF8, 9);
  ASSERT_TO(&idx, t, 0, 10, POS_UTF8, 10);
  ASSERT_TO(&idx, t, 0, 11, POS_UTF8, 10);
  pos_index_free(&idx);
}

TEST(pos_invalid_utf8_counts_one_unit_per_byte) {
  /* lone continuation, 0xFF, overlong NUL, encoded surrogate, truncated 中
   * cut by 'x', and a truncated emoji at the very end. */
  const char t[] = "\x80\xFF\xC0\x80\xED\xA0\x80\xE4\xB8x\xF0\x9F\x98";
  LineIndex idx;
  size_t n = sizeof t - 1; /* 13 bytes, every one invalid except 'x' */
  pos_index_build(&idx, t, n);
  ASSERT_FROM(&idx, t, n, POS_UTF16, 0, 13);
  ASSERT_FROM(&idx, t, n, POS_UTF8, 0, 13);
  ASSERT_FROM(&idx, t, 8, POS_UTF16, 0, 8);
  ASSERT_TO(&idx, t, 0, 9, POS_UTF16, 9);
  ASSERT_TO(&idx, t, 0, 12, POS_UTF16, 12);
  pos_index_free(&idx);
  /* A sequence cut by the end of the text is invalid even if the bytes
   * after the text would complete it. */
  const char cut[] = "ab" EMOJI;
  pos_index_build(&idx, cut, 5);
  ASSERT_FROM(&idx, cut, 5, POS_UTF16, 0, 5);
  ASSERT_TO(&idx, cut, 0, 4, POS_UTF16, 4);
  ASSERT_TO(&idx, cut, 0, 9, POS_UTF8, 5);
  pos_index_free(&idx);
}

TEST(pos_column_to_character) {
  const char *t = "a" EMOJI "b\n" ZHONG "x";
  LineIndex idx;
  pos_index_build(&idx, t, strlen(t));
  ASSERT_EQ(pos_column_to_character(&idx, t, 0, 5, POS_UTF16), 3);
  ASSERT_EQ(pos_column_to_character(&idx, t, 0, 5, POS_UTF8), 5);
  ASSERT_EQ(pos_column_to_character(&idx, t, 0, 3, POS_UTF16), 1); /* mid-emoji */
  ASSERT_EQ(pos_column_to_character(&idx, t, 1, 3, POS_UTF16), 1);
  ASSERT_EQ(pos_column_to_character(&idx, t, 1, 100, POS_UTF16), 2);
  ASSERT_EQ(pos_column_to_character(&idx, t, 7, 0, POS_UTF16), 2); /* end of doc */
  pos_index_free(&idx);
}

TEST(pos_row_of_many_lines) {
  StrBuf sb = {0};
  for (int i = 0; i < 1000; i++) sb_puts(&sb, i % 3 == 0 ? "x\n" : i % 3 == 1 ? "y\r" : "z\n");
  LineIndex idx;
  pos_index_build(&idx, sb.data, sb.len);
  ASSERT_EQ(idx.count, 1001);
  for (size_t k = 0; k < 1000; k++) {
    ASSERT_EQ(pos_row_of(&idx, 2 * k), k);
    ASSERT_EQ(pos_row_of(&idx, 2 * k + 1), k);
  }
  ASSERT_EQ(pos_row_of(&idx, 2000), 1000);
  ASSERT_EQ(pos_row_of(&idx, 5000), 1000);
  pos_index_free(&idx);
  sb_free(&sb);
}

/* Builds a string from pieces with known widths, then checks every byte
 * offset against the model: piece starts map to (line, units so far) and
 * back; bytes inside a piece map to the piece start (snap; inside "\r\n" is
 * the end of the line). */
TEST(pos_round_trip_every_offset) {
  static const struct {
    const char *s;
    uint32_t u16;
    int is_break;
  } pieces[] = {
      {"a", 1, 0},      {ZHONG, 1, 0}, {"\r\n", 0, 1}, {EMOJI, 2, 0},   {"\r", 0, 1},
      {"b", 1, 0},      {"\n", 0, 1},  {"\xFF", 1, 0}, {E_ACUTE, 1, 0}, {"\n", 0, 1},
      {"\r\n", 0, 1},   {"\t", 1, 0},  {EMOJI, 2, 0},  {WEN, 1, 0},     {"\xE4\xB8", 0, 0},
      {"z", 1, 0},      {EMOJI, 2, 0},
  };
  /* The truncated 中 above is two invalid bytes: model it as two pieces of
   * one unit each, whose inner offsets are boundaries too. */
  StrBuf sb = {0};
  for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) sb_puts(&sb, pieces[i].s);
  LineIndex idx;
  pos_index_build(&idx, sb.data, sb.len);
  ASSERT_EQ(idx.count, 6);
  for (int e = 0; e < 2; e++) {
    PosEncoding enc = e ? POS_UTF8 : POS_UTF16;
    uint32_t line = 0, ch = 0;
    size_t off = 0;
    for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
      size_t n = strlen(pieces[i].s);
      int invalid_run = pieces[i].u16 == 0 && !pieces[i].is_break;
      for (size_t k = 0; k < n; k++) {
        /* Inside a valid character or a break: snaps to the piece start. */
        uint32_t want_ch = invalid_run ? ch + (uint32_t)k : ch;
        size_t want_off = invalid_run ? off + k : off;
        ASSERT_FROM(&idx, sb.data, off + k, enc, line, want_ch);
        if (k == 0 || invalid_run) {
          ASSERT_TO(&idx, sb.data, line, want_ch, enc, want_off);
          ASSERT_EQ(pos_column_to_character(&idx, sb.data, line, (uint32_t)(off + k - idx.starts[line]), enc), want_ch);
        }
      }
      if (pieces[i].is_break) {
        line++;
        ch = 0;
      } else {
        ch += invalid_run ? (uint32_t)n : enc == POS_UTF8 ? (uint32_t)n : pieces[i].u16;
      }
      off += n;
    }
    ASSERT_EQ(off, sb.len);
    ASSERT_FROM(&idx, sb.data, off, enc, line, ch);
    ASSERT_TO(&idx, sb.data, line, ch, enc, off);
  }
  pos_index_free(&idx);
  sb_free(&sb);
}

/* An index moved over an edit equals one built from the new text: seeded
 * random replacements of texts made of '\n', '\r', "\r\n" and letters (a
 * '\r' whose next byte the edit changes, breaks removed and added). */
TEST(pos_index_edit_equals_build) {
  static const char alphabet[] = "ab\n\r\r\n";
  uint64_t rng = 0x9E3779B97F4A7C15ull;
  char text[64], next[128], ins[8];
  for (int round = 0; round < 2000; round++) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    size_t len = (size_t)(rng % 40);
    for (size_t i = 0; i < len; i++) text[i] = alphabet[(rng >> (i % 48)) % 6];
    LineIndex idx;
    pos_index_build(&idx, text, len);
    for (int edit = 0; edit < 8; edit++) {
      rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
      size_t s = len ? (size_t)(rng % (len + 1)) : 0, e = s + (size_t)((rng >> 8) % 4);
      if (e > len) e = len;
      size_t n = (size_t)((rng >> 16) % 4);
      for (size_t i = 0; i < n; i++) ins[i] = alphabet[(rng >> (20 + 3 * i)) % 6];
      size_t nl = s + n + (len - e);
      if (nl > sizeof text) break;
      memcpy(next, text, s);
      memcpy(next + s, ins, n);
      memcpy(next + s + n, text + e, len - e);
      memcpy(text, next, nl);
      pos_index_edit(&idx, text, nl, s, e, n);
      len = nl;
      LineIndex fresh;
      pos_index_build(&fresh, text, len);
      ASSERT_EQ(idx.count, fresh.count);
      ASSERT_EQ(idx.text_len, fresh.text_len);
      for (size_t k = 0; k < fresh.count; k++) ASSERT_EQ(idx.starts[k], fresh.starts[k]);
      pos_index_free(&fresh);
    }
    pos_index_free(&idx);
  }
}
