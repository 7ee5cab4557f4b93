/* position: line index and conversions between byte offsets and LSP positions.
 *
 * LSP positions are (line, character) where "character" counts UTF-16 code
 * units by default, or bytes when the client and server agreed on "utf-8".
 * Line breaks are "\n", "\r\n" and a lone "\r", as the LSP spec says.
 * Conversions are total: out-of-range input is clamped as LSP requires
 * (a character past the end of a line means the end of that line; a line
 * past the end means the end of the document), and a position that falls
 * inside a UTF-8 sequence or between the halves of a surrogate pair snaps
 * to the start of that character. Invalid UTF-8 bytes count as one UTF-16
 * unit each (as U+FFFD would).
 *
 * Ownership: a LineIndex borrows nothing; it copies the line starts. Free
 * with pos_index_free. The text passed to each conversion must be the text
 * the index was built from. */
#ifndef ASC_POSITION_H
#define ASC_POSITION_H

#include <stddef.h>
#include <stdint.h>

typedef enum { POS_UTF16 = 0, POS_UTF8 = 1 } PosEncoding;

typedef struct {
  uint32_t line;
  uint32_t character;
} LspPosition;

typedef struct {
  uint32_t *starts; /* byte offset of each line start; starts[0] == 0 */
  size_t count;     /* number of lines (>= 1) */
  size_t text_len;
} LineIndex;

void pos_index_build(LineIndex *idx, const char *text, size_t len);
void pos_index_free(LineIndex *idx);
/* The index of `text` (len bytes), which an edit made from the indexed text
 * by replacing bytes [start, old_end) with new_len bytes: the line starts the
 * edit could change are found again, the ones after it move. Equal to
 * pos_index_build of the new text. */
void pos_index_edit(LineIndex *idx, const char *text, size_t len, size_t start, size_t old_end, size_t new_len);

/* Byte offset -> LSP position. Offsets past the end clamp to the end. */
LspPosition pos_from_offset(const LineIndex *idx, const char *text, size_t offset, PosEncoding enc);
/* LSP position -> byte offset, clamped as described above. */
size_t pos_to_offset(const LineIndex *idx, const char *text, LspPosition p, PosEncoding enc);
/* (row, byte column) as tree-sitter counts -> LSP character on that row. A
 * column past the end of the row means its end; a row past the last line
 * gives the character of the end of the document. */
uint32_t pos_column_to_character(const LineIndex *idx, const char *text, uint32_t row,
                                 uint32_t byte_column, PosEncoding enc);
/* Row of a byte offset (0-based). */
uint32_t pos_row_of(const LineIndex *idx, size_t offset);

#endif
