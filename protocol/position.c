/* position: see position.h.
 *
 * Only line starts are indexed; columns are measured by walking the line
 * each time. Lines are short in practice, and this keeps the index one
 * uint32_t per line and every conversion exact for any byte content. */
#include "protocol/position.h"

#include <stdlib.h>

#include "analyzers/engine/util.h"

/* ---- Position - Private -------------------------------------------------- */

/* Byte offset where line `row` ends, excluding its line break. */
static size_t pos__line_end(const LineIndex *idx, const char *text, size_t row) {
  if (row + 1 >= idx->count) return idx->text_len;
  size_t end = (size_t)idx->starts[row + 1] - 1; /* last byte of the break */
  if (text[end] == '\n' && end > idx->starts[row] && text[end - 1] == '\r') end--;
  return end;
}

/* Length of the valid UTF-8 sequence at s[0..n), or 1 when s[0] starts
 * none: such a byte then counts as one character on its own, as the U+FFFD
 * an editor shows for it would. Overlongs, surrogates and values over
 * U+10FFFF are invalid (the ranges of RFC 3629 section 4). */
static size_t pos__char_len(const unsigned char *s, size_t n) {
  unsigned char c = s[0], lo = 0x80, hi = 0xBF;
  size_t len;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 1;
  }
  if (n < len || s[1] < lo || s[1] > hi) return 1;
  for (size_t i = 2; i < len; i++)
    if (s[i] < 0x80 || s[i] > 0xBF) return 1;
  return len;
}

/* Units one character of `len` bytes takes: UTF-16 needs a surrogate pair
 * exactly for the 4-byte sequences (code points over U+FFFF). */
static uint32_t pos__units(size_t len, PosEncoding enc) {
  if (enc == POS_UTF8) return (uint32_t)len;
  return len == 4 ? 2 : 1;
}

/* Units of the characters in text[from, to) that end at or before `to`: a
 * `to` inside a character snaps back to its start. `end` (>= to) bounds the
 * decoding so a sequence cut by the end of the line counts byte by byte. */
static uint32_t pos__measure(const char *text, size_t from, size_t to, size_t end,
                             PosEncoding enc) {
  uint32_t units = 0;
  size_t p = from;
  while (p < to) {
    if ((unsigned char)text[p] < 0x80) { /* ASCII: one unit in every encoding, the common case */
      units++;
      p++;
      continue;
    }
    size_t n = pos__char_len((const unsigned char *)text + p, end - p);
    if (p + n > to) break;
    units += pos__units(n, enc);
    p += n;
  }
  return units;
}

/* Offset of the character `character` units after `from`, stopping at
 * `end`. A count that lands inside a character (the low half of a surrogate
 * pair, the middle of a UTF-8 sequence) snaps back to its start. */
static size_t pos__advance(const char *text, size_t from, size_t end, uint32_t character,
                           PosEncoding enc) {
  uint32_t units = 0;
  size_t p = from;
  while (p < end) {
    size_t n = pos__char_len((const unsigned char *)text + p, end - p);
    uint32_t u = pos__units(n, enc);
    if (u > character - units) break; /* units <= character: no overflow */
    units += u;
    p += n;
  }
  return p;
}

/* ---- Position - Public --------------------------------------------------- */

void pos_index_build(LineIndex *idx, const char *text, size_t len) {
  /* Offsets are uint32_t; texts are capped far below by framing. */
  if (len > UINT32_MAX) len = UINT32_MAX;
  idx->starts = util_line_starts(text, len, &idx->count);
  idx->text_len = len;
}

void pos_index_edit(LineIndex *idx, const char *text, size_t len, size_t start, size_t old_end, size_t new_len) {
  if (len > UINT32_MAX || idx->text_len + new_len > UINT32_MAX || start > old_end || old_end > idx->text_len) {
    pos_index_free(idx);
    pos_index_build(idx, text, len);
    return;
  }
  /* a start s is made by the byte s - 1: the bytes in [start - 1, old_end)
   * made the starts in [start, old_end] (the byte before the edit: a '\r'
   * whose next byte changed), and [start - 1, start + new_len) of the new
   * text make theirs */
  size_t lo = 1, hi;
  while (lo < idx->count && idx->starts[lo] < start) lo++;
  for (hi = lo; hi < idx->count && idx->starts[hi] <= old_end; hi++) {}
  size_t from = start ? start - 1 : 0, to = start + new_len < len ? start + new_len : len, fresh = 0;
  for (size_t i = from; i < to; i++) fresh += util_line_break(text, len, i);
  size_t tail = idx->count - hi, count = lo + fresh + tail;
  uint32_t *st = idx->starts;
  if (fresh > hi - lo) st = xrealloc(st, count * sizeof *st);
  memmove(st + lo + fresh, st + hi, tail * sizeof *st);
  int64_t delta = (int64_t)new_len - (int64_t)(old_end - start);
  for (size_t k = lo + fresh; k < count; k++) st[k] = (uint32_t)(st[k] + delta);
  size_t at = lo;
  for (size_t i = from; i < to; i++)
    if (util_line_break(text, len, i)) st[at++] = (uint32_t)(i + 1);
  idx->starts = st;
  idx->count = count;
  idx->text_len = len;
}

void pos_index_free(LineIndex *idx) {
  free(idx->starts);
  idx->starts = NULL;
  idx->count = 0;
  idx->text_len = 0;
}

uint32_t pos_row_of(const LineIndex *idx, size_t offset) {
  if (offset > idx->text_len) offset = idx->text_len; /* text_len fits in 32 bits (pos_index_build) */
  return util_row_of(idx->starts, idx->count, (uint32_t)offset);
}

LspPosition pos_from_offset(const LineIndex *idx, const char *text, size_t offset,
                            PosEncoding enc) {
  if (offset > idx->text_len) offset = idx->text_len;
  uint32_t row = pos_row_of(idx, offset);
  size_t start = idx->starts[row];
  size_t end = pos__line_end(idx, text, row);
  if (offset > end) offset = end; /* inside the line break: end of line */
  return (LspPosition){row, pos__measure(text, start, offset, end, enc)};
}

size_t pos_to_offset(const LineIndex *idx, const char *text, LspPosition p, PosEncoding enc) {
  if (p.line >= idx->count) return idx->text_len;
  size_t start = idx->starts[p.line];
  size_t end = pos__line_end(idx, text, p.line);
  return pos__advance(text, start, end, p.character, enc);
}

uint32_t pos_column_to_character(const LineIndex *idx, const char *text, uint32_t row,
                                 uint32_t byte_column, PosEncoding enc) {
  if (row >= idx->count) return pos_from_offset(idx, text, idx->text_len, enc).character;
  size_t start = idx->starts[row];
  size_t end = pos__line_end(idx, text, row);
  size_t offset = byte_column > end - start ? end : start + byte_column;
  return pos__measure(text, start, offset, end, enc);
}
