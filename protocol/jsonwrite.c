/* jsonwrite: see jsonwrite.h. */
#include "protocol/jsonwrite.h"

#include <string.h>

void jsonw_string(StrBuf *sb, const char *s) {
  static const char hex[] = "0123456789abcdef";
  sb_putc(sb, '"');
  const char *run = s;
  for (const char *p = s; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    sb_append(sb, run, (size_t)(p - run));
    run = p + 1;
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
  sb_append(sb, run, strlen(run));
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
