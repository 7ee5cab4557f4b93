/* targets: dotted names given to the configuration keys that name code (see targets.h). */
#include "analyzers/project/targets.h"
#include "analyzers/engine/context.h"
#include "analyzers/kb/kb.h"

#include <string.h>

bool targets_config_path(const char *path) {
  return (util_ends_with(path, ".yaml") || util_ends_with(path, ".yml")) && context_file_kind(path) == FILE_UNKNOWN;
}

static bool targets__word(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The length of key `k` (kn bytes) at t[i] followed, after an optional
 * closing quote and blanks, by ':' and blanks; 0 when it is not there. */
static size_t targets__key(const char *t, size_t len, size_t i, const char *k, size_t kn) {
  if (i + kn > len || memcmp(t + i, k, kn) != 0 || (i > 0 && targets__word(t[i - 1]))) return 0;
  size_t e = i + kn;
  if (e < len && (t[e] == '"' || t[e] == '\'')) e++;
  while (e < len && (t[e] == ' ' || t[e] == '\t')) e++;
  if (e >= len || t[e] != ':') return 0;
  e++;
  while (e < len && (t[e] == ' ' || t[e] == '\t')) e++;
  return e - i;
}

/* The dotted name at t[*at] (after an optional quote): a word, then words
 * after dots; appended to sb when it has a dot and no empty part. */
static void targets__value(const char *t, size_t len, size_t at, StrBuf *sb) {
  if (at < len && (t[at] == '"' || t[at] == '\'')) at++;
  size_t s = at, dots = 0;
  while (at < len && (targets__word(t[at]) || t[at] == '.')) {
    if (t[at] == '.' && (at == s || t[at - 1] == '.')) return;
    dots += t[at] == '.';
    at++;
  }
  if (dots == 0 || t[at - 1] == '.' || (t[s] >= '0' && t[s] <= '9')) return;
  if (at < len && !(t[at] == '"' || t[at] == '\'' || t[at] == ' ' || t[at] == '\t' || t[at] == '\r' ||
                    t[at] == '\n' || t[at] == ',' || t[at] == '}' || t[at] == '#'))
    return; /* a path or an expression, not a name */
  sb_append(sb, t + s, at - s);
  sb_putc(sb, '\n');
}

char *targets_scan(const char *text, size_t len) {
  const char *keys = kb_template("config-target-keys");
  if (!keys || !text) return NULL;
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n')) {
      while (i + 1 < len && text[i + 1] != '\n') i++; /* a comment: a target commented out builds nothing */
      continue;
    }
    const char *k;
    size_t kn, n = 0;
    for (const char *p = keys; !n && util_alt_next(&p, &k, &kn);) n = targets__key(text, len, i, k, kn);
    if (n) {
      targets__value(text, len, i + n, &sb);
      i += n - 1;
    }
  }
  if (!sb.len) {
    sb_free(&sb);
    return NULL;
  }
  return sb_steal(&sb);
}
