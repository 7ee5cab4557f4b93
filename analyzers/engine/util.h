/* util: allocation, growable arrays and string buffers shared by every layer.
 *
 * xmalloc/xcalloc/xrealloc/xstrdup never return NULL: on exhaustion they print
 * one line to stderr and exit(70). Callers free with free(). Array(T) and
 * StrBuf own their heap storage; release it with array_free / sb_free. */
#ifndef ASC_UTIL_H
#define ASC_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#define WARN_UNUSED __attribute__((warn_unused_result))

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* Copies n bytes of s and NUL-terminates. Caller frees. */
char *xstrndup(const char *s, size_t n);
/* printf into a fresh heap string. Caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Array(T): {items, len, cap}. Capacity doubles from 8. */
#define Array(T) struct { T *items; size_t len, cap; }
#define array_reserve(a, n)                                                   \
  do {                                                                        \
    if ((a)->len + (n) > (a)->cap) {                                          \
      size_t cap__ = (a)->cap ? (a)->cap : 8;                                 \
      while (cap__ < (a)->len + (n)) cap__ *= 2;                              \
      (a)->items = xrealloc((a)->items, cap__ * sizeof(*(a)->items));         \
      (a)->cap = cap__;                                                       \
    }                                                                         \
  } while (0)
#define array_push(a, v)                                                      \
  do {                                                                        \
    array_reserve((a), 1);                                                    \
    (a)->items[(a)->len++] = (v);                                             \
  } while (0)
#define array_free(a)                                                         \
  do {                                                                        \
    free((a)->items);                                                         \
    (a)->items = NULL;                                                        \
    (a)->len = (a)->cap = 0;                                                  \
  } while (0)

/* Moves the storage of array b (any element type of the same layout) into
 * a, whose own storage is freed; b is left empty. The elements are not
 * freed: free what a held first. */
#define array_take(a, b)                                                      \
  do {                                                                        \
    free((a)->items);                                                         \
    (a)->items = (b)->items;                                                  \
    (a)->len = (b)->len;                                                      \
    (a)->cap = (b)->cap;                                                      \
    (b)->items = NULL;                                                        \
    (b)->len = (b)->cap = 0;                                                  \
  } while (0)

/* Whether text[i] ends a line: "\n", or a "\r" not followed by "\n" (the
 * "\r\n" pair ends at its "\n"), as LSP counts lines. */
static inline bool util_line_break(const char *text, size_t len, size_t i) {
  return text[i] == '\n' || (text[i] == '\r' && !(i + 1 < len && text[i + 1] == '\n'));
}

/* The byte offset of every line start of text[0, len) (the first is 0), in
 * a fresh array of *n entries. Caller frees. */
uint32_t *util_line_starts(const char *text, size_t len, size_t *n);

/* The row of byte `at` among a text's n line starts (ascending, the first
 * 0): the last start at or before it. */
uint32_t util_row_of(const uint32_t *starts, size_t n, uint32_t at);

/* Bytes [start, end) of a text. */
typedef struct {
  uint32_t start, end;
} ByteRange;

/* A list of heap strings (each freed by the list's owner). */
typedef Array(char *) StrList;
void strlist_free(StrList *l);

/* StrBuf: a NUL-terminated growable byte string. `data` is always valid
 * after the first append (or sb_init). sb_steal hands the bytes to the
 * caller (free with free()) and leaves the buffer empty. */
typedef struct {
  char *data;
  size_t len, cap;
} StrBuf;

void sb_init(StrBuf *sb);
/* Empties sb and keeps its storage (one buffer reused for many strings). */
static inline void sb_clear(StrBuf *sb) {
  sb->len = 0;
  sb->data[0] = '\0';
}
void sb_free(StrBuf *sb);
void sb_append(StrBuf *sb, const char *s, size_t n);
void sb_reserve(StrBuf *sb, size_t n); /* room for n more bytes (and the NUL) */
void sb_puts(StrBuf *sb, const char *s);
void sb_putc(StrBuf *sb, char c);
void sb_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *sb_steal(StrBuf *sb);
/* A field of a hash-table key: s (NULL: empty), or v in decimal, then the
 * separator 0x1F. Keys built per finding on every analysis skip printf. */
void sb_key(StrBuf *sb, const char *s);
void sb_key_u64(StrBuf *sb, uint64_t v);

/* Returned by the readers below for a path that is not a regular file (a
 * FIFO, device or socket: reading one could block or never end). */
#define UTIL_ENOTREG (-4096)

/* Reads a whole file. Returns 0 and a heap buffer (caller frees, NUL-
 * terminated, *len excludes the NUL) or a negative errno. Files larger than
 * max_bytes give -EFBIG without reading them; anything but a regular file
 * gives UTIL_ENOTREG (-EISDIR for a directory) without blocking: the path is
 * opened with O_NONBLOCK and the opened descriptor checked, so a file
 * swapped for a FIFO after a directory walk is refused too. */
int util_read_file(const char *path, size_t max_bytes, char **out, size_t *len) WARN_UNUSED;

/* Reads at most max_bytes from the start of a regular file (for formats
 * whose interesting part is near the start, such as ELF headers). Returns 0
 * and a heap buffer (caller frees, NUL-terminated) or a negative errno, as
 * util_read_file. */
int util_read_head(const char *path, size_t max_bytes, char **out, size_t *len) WARN_UNUSED;

/* For a long-lived process that analyzes the same files again and again
 * (the server on every keystroke): freed memory stays in the heap instead
 * of going back to the system, so the next analysis does not fault it in
 * again. Call once, before the first allocation that matters. */
void util_keep_freed_memory(void);

/* The message for a negative errno or UTIL_ENOTREG (static). */
const char *util_strerror(int rc);

/* Shell-style glob on plain strings: '*' any run, '?' one byte. */
/* FNV-1a of p[0, n), continuing from h: start from UTIL_FNV_SEED. A byte at
 * a time: for short keys and stable digests (not for adversarial input). */
#define UTIL_FNV_SEED 1469598103934665603ull
uint64_t util_fnv(uint64_t h, const void *p, size_t n);
/* p[0, n) mixed into h eight bytes a step, the tail as one zero-padded
 * word: for in-memory tables and digests over long keys (never stored). */
uint64_t util_mix_words(uint64_t h, const void *p, size_t n);

bool util_glob(const char *pattern, const char *s);
/* The same over the first n bytes of pattern (a '|' alternative in place). */
bool util_glob_n(const char *pattern, size_t n, const char *s);
bool util_starts_with(const char *s, const char *prefix);
/* The words of a path, one per call: folder names and file-name parts
 * split at `/`, `\\`, `_`, `-` and `.`. *p walks the path (start it at the
 * path); returns false at its end, else sets *w and *n (not empty). */
bool util_path_word(const char **p, const char **w, size_t *n);
bool util_ends_with(const char *s, const char *suffix);
/* The '|'-separated alternatives of a table value, one per call: *p walks
 * the value (start it at the value; NULL: none); returns false at its end,
 * else sets *w and *n (an empty alternative too). */
bool util_alt_next(const char **p, const char **w, size_t *n);
/* Whether text[0, len) contains one of the '|'-separated literal
 * `alternatives` (NULL: none; no glob: '[' and '*' are themselves). */
bool util_has_any(const char *text, size_t len, const char *alternatives);
/* Valid UTF-8 (no overlongs, no surrogates, max U+10FFFF)? */
bool util_utf8_valid(const char *s, size_t n);
/* Length of the valid UTF-8 sequence at s (1-4), or 0 when invalid. */
size_t util_utf8_seq(const char *s, size_t n);
/* Copy of s with every invalid byte replaced by U+FFFD. Caller frees. */
char *util_utf8_sanitize(const char *s, size_t n, size_t *out_len);

#endif
