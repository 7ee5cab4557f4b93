/* jsonwrite: see jsonwrite.h. */
#include "protocol/jsonwrite.h"

#include <string.h>

/* Whether none of the 8 bytes of w needs an escape: none is below 0x20,
 * a quote or a backslash (the "has a byte less than n" and "has a zero
 * byte" word tests: exact, and bytes of 0x80 and above never count). */
static bool jsonw__plain8(uint64_t w) {
  const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
  uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
  uint64_t special = ((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((b - ones) & ~b);
  return !(special & high);
}

void jsonw_string(StrBuf *sb, const char *s) {
  static const char hex[] = "0123456789abcdef";
  size_t n = strlen(s), run = 0; /* s[run, i) is plain, not yet written */
  sb_reserve(sb, n + 2);
  sb_putc(sb, '"');
  for (size_t i = 0; i < n;) {
    if (i + 8 <= n) { /* messages are long and plain: eight bytes at a time */
      uint64_t w;
      memcpy(&w, s + i, 8);
      if (jsonw__plain8(w)) {
        i += 8;
        continue;
      }
    }
    unsigned char c = (unsigned char)s[i++];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    sb_append(sb, s + run, i - 1 - run);
    run = i;
    char esc[7] = {'\\', 0};
    switch (c) {
    case '"': esc[1] = '"'; break;
    case '\\': esc[1] = '\\'; break;
    case '\b': esc[1] = 'b'; break;
    case '\f': esc[1] = 'f'; break;
    case '\n': esc[1] = 'n'; break;
    case '\r': esc[1] = 'r'; break;
    case '\t': esc[1] = 't'; break;
    default:
      memcpy(esc + 1, "u00", 3);
      esc[4] = hex[c >> 4];
      esc[5] = hex[c & 15];
      break;
    }
    sb_puts(sb, esc);
  }
  sb_append(sb, s + run, n - run);
  sb_putc(sb, '"');
}

void jsonw_key(StrBuf *sb, const char *key, bool first) {
  if (!first) sb_putc(sb, ',');
  jsonw_string(sb, key);
  sb_putc(sb, ':');
}

void jsonw_int(StrBuf *sb, int64_t v) {
  char buf[24], *e = buf + sizeof buf, *p = e;
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  do *--p = (char)('0' + u % 10);
  while (u /= 10);
  if (v < 0) *--p = '-';
  sb_append(sb, p, (size_t)(e - p));
}
