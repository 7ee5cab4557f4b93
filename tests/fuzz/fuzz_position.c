/* fuzz_position: UTF-8 <-> UTF-16 (and UTF-8 byte) position conversions
 * on arbitrary text: invalid UTF-8, lone surrogates encoded in UTF-8, NUL,
 * CRLF and lone-CR line breaks, positions far past the end.
 *
 * Input layout: 16 bytes of positions (four (line, character) pairs of
 * 16-bit values, the high bit of each character widening it to near
 * UINT32_MAX), then the text. Checked, in both encodings:
 *  - every conversion stays inside the text, lines inside the index;
 *  - pos_to_offset lands on a character boundary: converting the result
 *    back and forth again gives the same offset (idempotence);
 *  - pos_from_offset and pos_column_to_character agree for every offset;
 *  - a character past the end of a line clamps to the end of that line
 *    (never into the line break), a line past the end to the text end;
 *  - for valid UTF-8, the UTF-16 column of every offset equals the number
 *    of UTF-16 units of the line's prefix. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/engine/util.h"
#include "protocol/position.h"

#define FUZZ_CHECK(c)                                                                \
  do {                                                                               \
    if (!(c)) {                                                                      \
      fprintf(stderr, "fuzz_position: check failed: %s (line %d)\n", #c, __LINE__);  \
      abort();                                                                       \
    }                                                                                \
  } while (0)

/* Byte offset of the end of `row` (before its break), computed naively. */
static size_t fuzz__line_end(const char *t, size_t len, const LineIndex *idx, uint32_t row) {
  size_t p = idx->starts[row];
  while (p < len && t[p] != '\n' && t[p] != '\r') p++;
  return p;
}

static uint32_t fuzz__utf16_units(const char *t, size_t from, size_t to) {
  uint32_t u = 0;
  for (size_t i = from; i < to; i++) {
    unsigned char c = (unsigned char)t[i];
    if ((c & 0xC0) == 0x80) continue;
    u += c >= 0xF0 ? 2 : 1;
  }
  return u;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 16) return 0;
  size_t len = size - 16;
  char *text = malloc(len ? len : 1);
  memcpy(text, data + 16, len);
  LineIndex idx;
  pos_index_build(&idx, text, len);
  FUZZ_CHECK(idx.count >= 1 && idx.starts[0] == 0 && idx.text_len == len);
  for (size_t i = 1; i < idx.count; i++) FUZZ_CHECK(idx.starts[i] > idx.starts[i - 1] && idx.starts[i] <= len);

  bool valid = util_utf8_valid(text, len);
  for (int e = 0; e < 2; e++) {
    PosEncoding enc = e ? POS_UTF8 : POS_UTF16;
    /* positions from the input */
    for (int k = 0; k < 4; k++) {
      uint32_t line = (uint32_t)data[4 * k] << 8 | data[4 * k + 1];
      uint32_t ch = (uint32_t)(data[4 * k + 2] & 0x7F) << 8 | data[4 * k + 3];
      if (data[4 * k + 2] & 0x80) ch = UINT32_MAX - ch;
      if (line == 0xFFFF) line = UINT32_MAX;
      LspPosition p = {line, ch};
      size_t off = pos_to_offset(&idx, text, p, enc);
      FUZZ_CHECK(off <= len);
      if (line >= idx.count) {
        FUZZ_CHECK(off == len);
      } else {
        FUZZ_CHECK(off >= idx.starts[line] && off <= fuzz__line_end(text, len, &idx, line));
        if (ch >= UINT32_MAX - 0x7FFF) FUZZ_CHECK(off == fuzz__line_end(text, len, &idx, line));
      }
      LspPosition q = pos_from_offset(&idx, text, off, enc);
      FUZZ_CHECK(q.line < idx.count);
      if (line < idx.count) FUZZ_CHECK(q.line == line && q.character <= ch);
      size_t off2 = pos_to_offset(&idx, text, q, enc);
      FUZZ_CHECK(off2 == off);
    }
    /* every offset (bounded for speed) */
    size_t step = len > 4096 ? len / 4096 : 1;
    for (size_t off = 0; off <= len + 2; off += step) {
      LspPosition q = pos_from_offset(&idx, text, off, enc);
      FUZZ_CHECK(q.line < idx.count);
      size_t clamped = off > len ? len : off;
      uint32_t row = pos_row_of(&idx, clamped);
      FUZZ_CHECK(row == q.line);
      uint32_t col = pos_column_to_character(&idx, text, row, (uint32_t)(clamped - idx.starts[row]), enc);
      FUZZ_CHECK(col == q.character);
      size_t back = pos_to_offset(&idx, text, q, enc);
      FUZZ_CHECK(back <= clamped || clamped > fuzz__line_end(text, len, &idx, row));
      LspPosition q2 = pos_from_offset(&idx, text, back, enc);
      FUZZ_CHECK(q2.line == q.line && q2.character == q.character);
      if (valid && enc == POS_UTF16) {
        size_t lim = clamped;
        size_t le = fuzz__line_end(text, len, &idx, row);
        if (lim > le) lim = le;
        /* snap into a character: count only characters that end by lim */
        size_t s = lim;
        while (s > idx.starts[row] && s < len && ((unsigned char)text[s] & 0xC0) == 0x80) s--;
        FUZZ_CHECK(q.character == fuzz__utf16_units(text, idx.starts[row], s));
      }
    }
    /* past-the-end rows */
    FUZZ_CHECK(pos_column_to_character(&idx, text, (uint32_t)idx.count + 5, 0, enc) ==
               pos_from_offset(&idx, text, len, enc).character);
  }
  pos_index_free(&idx);
  free(text);
  return 0;
}
