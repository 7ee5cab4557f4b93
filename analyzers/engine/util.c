/* util: see util.h. */
#include "analyzers/engine/util.h"

#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

static void util__oom(void) {
  fputs("ascend-lsp: out of memory\n", stderr);
  exit(70);
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) util__oom();
  return p;
}

void *xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) util__oom();
  return p;
}

void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) util__oom();
  return q;
}

char *xstrndup(const char *s, size_t n) {
  char *p = xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *xasprintf(const char *fmt, ...) {
  StrBuf sb;
  sb_init(&sb);
  va_list ap;
  va_start(ap, fmt);
  char small[256];
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) n = 0;
  if ((size_t)n < sizeof small) {
    sb_append(&sb, small, (size_t)n);
  } else {
    char *big = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb_append(&sb, big, (size_t)n);
    free(big);
  }
  return sb_steal(&sb);
}

void sb_init(StrBuf *sb) {
  sb->cap = 64;
  sb->len = 0;
  sb->data = xmalloc(sb->cap);
  sb->data[0] = '\0';
}

void sb_free(StrBuf *sb) {
  free(sb->data);
  sb->data = NULL;
  sb->len = sb->cap = 0;
}

void sb_reserve(StrBuf *sb, size_t n) {
  if (!sb->data) sb_init(sb);
  if (sb->len + n + 1 > sb->cap) {
    size_t cap = sb->cap;
    while (cap < sb->len + n + 1) cap *= 2;
    sb->data = xrealloc(sb->data, cap);
    sb->cap = cap;
  }
}

void sb_append(StrBuf *sb, const char *s, size_t n) {
  sb_reserve(sb, n);
  memcpy(sb->data + sb->len, s, n);
  sb->len += n;
  sb->data[sb->len] = '\0';
}

void sb_puts(StrBuf *sb, const char *s) { sb_append(sb, s, strlen(s)); }
void sb_putc(StrBuf *sb, char c) { sb_append(sb, &c, 1); }

void sb_key(StrBuf *sb, const char *s) {
  size_t n = s ? strlen(s) : 0;
  sb_reserve(sb, n + 1);
  if (n) memcpy(sb->data + sb->len, s, n);
  sb->data[sb->len + n] = '\x1f';
  sb->len += n + 1;
  sb->data[sb->len] = '\0';
}

void sb_key_u64(StrBuf *sb, uint64_t v) {
  char d[21];
  size_t n = sizeof d;
  do d[--n] = (char)('0' + v % 10); while (v /= 10);
  sb_append(sb, d + n, sizeof d - n);
  sb_putc(sb, '\x1f');
}

void sb_printf(StrBuf *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[512];
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n <= 0) return;
  if ((size_t)n < sizeof small) {
    sb_append(sb, small, (size_t)n);
    return;
  }
  char *big = xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  sb_append(sb, big, (size_t)n);
  free(big);
}

char *sb_steal(StrBuf *sb) {
  if (!sb->data) sb_init(sb);
  char *p = sb->data;
  sb->data = NULL;
  sb->len = sb->cap = 0;
  return p;
}

/* Reads fd up to max bytes into a growing buffer (cap is the first guess).
 * Closes fd. */
static int util__read_fd(int fd, size_t cap, size_t max, char **out, size_t *len) {
  size_t n = 0;
  char *buf = xmalloc(cap + 1);
  for (;;) {
    /* a full buffer is probed with one byte before it grows: the usual file
     * is the size its stat gave, and then the probe finds the end */
    bool full = n == cap;
    if (full && cap >= max) break; /* the file grew while we read: stop at the cap */
    char probe;
    ssize_t r = full ? read(fd, &probe, 1) : read(fd, buf + n, cap - n);
    if (r < 0) {
      if (errno == EINTR) continue;
      int e = -errno;
      free(buf);
      close(fd);
      return e;
    }
    if (r == 0) break;
    if (full) {
      cap = cap * 2 < max ? cap * 2 : max;
      buf = xrealloc(buf, cap + 1);
      buf[n] = probe;
    }
    n += (size_t)r;
  }
  close(fd);
  buf[n] = '\0';
  *out = buf;
  *len = n;
  return 0;
}

/* Opens path for reading without blocking on a FIFO and checks what was
 * opened: a regular file (its stat in st), or an error. */
static int util__open_regular(const char *path, struct stat *st) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return -errno;
  int rc = fstat(fd, st) != 0 ? -errno : S_ISDIR(st->st_mode) ? -EISDIR : !S_ISREG(st->st_mode) ? UTIL_ENOTREG : 0;
  if (rc) {
    close(fd);
    return rc;
  }
  return fd;
}

int util_read_file(const char *path, size_t max_bytes, char **out, size_t *len) {
  *out = NULL;
  *len = 0;
  struct stat st;
  int fd = util__open_regular(path, &st);
  if (fd < 0) return fd;
  if ((uint64_t)st.st_size > max_bytes) {
    close(fd);
    return -EFBIG;
  }
  return util__read_fd(fd, st.st_size ? (size_t)st.st_size : 64, max_bytes, out, len);
}

int util_read_head(const char *path, size_t max_bytes, char **out, size_t *len) {
  *out = NULL;
  *len = 0;
  struct stat st;
  int fd = util__open_regular(path, &st);
  if (fd < 0) return fd;
  return util__read_fd(fd, max_bytes < 65536 ? max_bytes : 65536, max_bytes, out, len);
}

const char *util_strerror(int rc) {
  return rc == UTIL_ENOTREG ? "not a regular file (a FIFO, device or socket)" : strerror(-rc);
}

bool util_glob(const char *p, const char *s) { return util_glob_n(p, strlen(p), s); }

bool util_glob_n(const char *p, size_t n, const char *s) {
  const char *end = p + n, *star = NULL, *resume = NULL;
  while (*s) {
    if (p < end && *p == '*') {
      star = p++;
      resume = s;
    } else if (p < end && (*p == '?' || *p == *s)) {
      p++;
      s++;
    } else if (star) {
      p = star + 1;
      s = ++resume;
    } else {
      return false;
    }
  }
  while (p < end && *p == '*') p++;
  return p == end;
}

bool util_starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool util_path_word(const char **p, const char **w, size_t *n) {
  while (**p) {
    size_t k = strcspn(*p, "/\\_-.");
    const char *at = *p;
    *p += k;
    if (**p) (*p)++;
    if (k) {
      *w = at;
      *n = k;
      return true;
    }
  }
  return false;
}

bool util_ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

bool util_alt_next(const char **p, const char **w, size_t *n) {
  if (!*p || !**p) return false;
  *w = *p;
  *n = strcspn(*p, "|");
  *p += *n + ((*p)[*n] == '|');
  return true;
}

bool util_has_any(const char *text, size_t len, const char *alternatives) {
  const char *w;
  size_t n;
  for (const char *p = alternatives; util_alt_next(&p, &w, &n);)
    if (n && memmem(text, len, w, n)) return true;
  return false;
}

size_t util_utf8_seq(const char *str, size_t n) {
  const unsigned char *s = (const unsigned char *)str;
  if (n == 0) return 0;
  unsigned c = s[0];
  if (c < 0x80) return 1;
  size_t need;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) { need = 1; cp = c & 0x1F; }
  else if (c >= 0xE0 && c <= 0xEF) { need = 2; cp = c & 0x0F; }
  else if (c >= 0xF0 && c <= 0xF4) { need = 3; cp = c & 0x07; }
  else return 0;
  if (n <= need) return 0;
  for (size_t k = 1; k <= need; k++) {
    if ((s[k] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[k] & 0x3F);
  }
  if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return need + 1;
}

bool util_utf8_valid(const char *str, size_t n) {
  for (size_t i = 0; i < n;) {
    /* ASCII eight bytes at a time: the server checks every message it
     * sends, and those are nearly all ASCII */
    uint64_t w;
    if (i + 8 <= n && (memcpy(&w, str + i, 8), (w & 0x8080808080808080ull) == 0)) {
      i += 8;
      continue;
    }
    size_t k = util_utf8_seq(str + i, n - i);
    if (!k) return false;
    i += k;
  }
  return true;
}

char *util_utf8_sanitize(const char *s, size_t n, size_t *out_len) {
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < n;) {
    size_t k = util_utf8_seq(s + i, n - i);
    if (k) {
      sb_append(&sb, s + i, k);
      i += k;
    } else {
      sb_append(&sb, "\xEF\xBF\xBD", 3);
      i++;
    }
  }
  if (out_len) *out_len = sb.len;
  return sb_steal(&sb);
}

void strlist_free(StrList *l) {
  for (size_t i = 0; i < l->len; i++) free(l->items[i]);
  array_free(l);
}

uint64_t util_mix_words(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, b + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  uint64_t w = 0;
  memcpy(&w, b + i, n - i);
  h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 29);
}

uint64_t util_fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

uint32_t util_row_of(const uint32_t *starts, size_t n, uint32_t at) {
  size_t lo = 0, hi = n;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (starts[mid] <= at) lo = mid;
    else hi = mid;
  }
  return (uint32_t)lo;
}

uint32_t *util_line_starts(const char *text, size_t len, size_t *n) {
  Array(uint32_t) starts = {NULL, 0, 0};
  array_push(&starts, 0);
  for (size_t i = 0; i < len; i++)
    if (util_line_break(text, len, i)) array_push(&starts, (uint32_t)(i + 1));
  *n = starts.len;
  return starts.items;
}

/* Each analysis builds and frees arrays of a few hundred kilobytes to a few
 * megabytes (a file's joined facts, its findings, the published JSON). With
 * glibc's defaults those go to fresh mmap()s or are trimmed back to the
 * system on free, so every edit pays page faults on all of them again:
 * about 120 per edit on a 10,000-line file, a quarter of its latency.
 * Keeping freed memory costs nothing in peak RSS. */
void util_keep_freed_memory(void) {
#ifdef M_MMAP_THRESHOLD
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
}
