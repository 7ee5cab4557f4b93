/* suppress: see suppress.h. */
#include "analyzers/engine/suppress.h"

#include "analyzers/engine/texthits.h"

#include <ctype.h>
#include <stdlib.h>

static const char *suppress__find(const char *s, size_t len, const char *needle) {
  return memmem(s, len, needle, strlen(needle));
}

/* Codes after a marker: ": A, B" or "[A,B]". Stops at the first non-code. */
static char *suppress__codes(const char *p, const char *end) {
  StrBuf sb;
  sb_init(&sb);
  while (p < end && (*p == ' ' || *p == ':' || *p == '[')) p++;
  while (p < end) {
    const char *s = p;
    while (p < end && (isalnum((unsigned char)*p))) p++;
    if (p > s) {
      if (sb.len) sb_putc(&sb, ',');
      sb_append(&sb, s, (size_t)(p - s));
    }
    while (p < end && (*p == ',' || *p == ' ')) p++;
    if (p == s) break;
  }
  return sb_steal(&sb);
}

int suppress_parse(const char *c, size_t len, char **codes) {
  *codes = NULL;
  const char *m;
  if ((m = suppress__find(c, len, "ascend-lsp: noqa"))) {
    *codes = suppress__codes(m + 16, c + len);
    return 2;
  }
  if ((m = suppress__find(c, len, "ascend-lsp: ignore"))) {
    *codes = suppress__codes(m + 18, c + len);
    return 1;
  }
  if ((m = suppress__find(c, len, "noqa"))) {
    const char *after = m + 4;
    *codes = (after < c + len && *after == ':') ? suppress__codes(after, c + len) : xstrdup("");
    return 1;
  }
  return 0;
}

static bool suppress__covers(const char *codes, const char *code) {
  if (!codes || !*codes) return true;
  const char *p = codes;
  while (*p) {
    size_t n = strcspn(p, ",");
    if (n > 0 && strncmp(code, p, n) == 0) return true;
    p += n;
    if (*p == ',') p++;
  }
  return false;
}

typedef struct {
  uint32_t row;
  char *codes;
  uint32_t start, end; /* comment bytes, for ASC001 */
  bool used;
} Suppression;

typedef Array(Suppression) SuppressionList;

/* Comment text of a line in a non-Python file: after '#' or '//'. */
static bool suppress__line_comment(const char *line, size_t n, const char **c, size_t *clen) {
  for (size_t i = 0; i < n; i++) {
    if (line[i] == '#' || (line[i] == '/' && i + 1 < n && line[i + 1] == '/')) {
      *c = line + i;
      *clen = n - i;
      return true;
    }
  }
  return false;
}

/* The suppression on one row, if it has one. */
static void suppress__row(const char *text, size_t len, const uint32_t *starts, size_t n_lines, const PyFile *py,
                          size_t row, SuppressionList *sups, StrList *file_codes) {
  /* a Python row without a real comment holds no suppression */
  if (py && !(row < py->n_rows && py->comments[row])) return;
  size_t ls = starts[row], le = len; /* the last row ends the text */
  if (row + 1 < n_lines) { /* the break: '\n', a lone '\r', or the "\r\n" pair */
    le = starts[row + 1] - 1;
    if (le > ls && text[le] == '\n' && text[le - 1] == '\r') le--;
  }
  const char *c = NULL;
  size_t clen = 0;
  bool have;
  if (py) {
    c = py->comments[row];
    clen = strlen(c);
    have = true;
  } else {
    have = suppress__line_comment(text + ls, le - ls, &c, &clen);
  }
  if (!have) return;
  char *codes;
  int kind = suppress_parse(c, clen, &codes);
  if (kind == 2) {
    array_push(file_codes, codes);
  } else if (kind == 1) {
    const char *at = py ? memmem(text + ls, le - ls, c, clen) : c;
    uint32_t s = at ? (uint32_t)(at - text) : (uint32_t)ls;
    Suppression sp = {(uint32_t)row, codes, s, s + (uint32_t)clen, false};
    array_push(sups, sp);
  }
}

/* A Python file's rows that can hold a marker: every marker holds "noqa"
 * or "ascend-lsp: ignore", so the rows of their hits, ascending (the
 * text's words are kept between versions: no row is read unless it has
 * one). */
typedef Array(size_t) SuppressRows;

static void suppress__marked_rows(const char *text, size_t len, const uint32_t *starts, size_t n_lines,
                                  TextHits *hits, SuppressRows *rows) {
  static const char *const marks[] = {"noqa", "ascend-lsp: ignore"};
  size_t n[2];
  const uint32_t *at[2];
  for (size_t m = 0; m < 2; m++) at[m] = texthits_find(hits, text, len, marks[m], strlen(marks[m]), &n[m]);
  for (size_t i = 0, j = 0; i < n[0] || j < n[1];) {
    uint32_t next = j >= n[1] || (i < n[0] && at[0][i] < at[1][j]) ? at[0][i++] : at[1][j++];
    size_t row = util_row_of(starts, n_lines, next);
    if (!rows->len || rows->items[rows->len - 1] != row) array_push(rows, row);
  }
}

static void suppress__collect(const char *text, size_t len, const uint32_t *starts, size_t n_lines, const PyFile *py,
                              TextHits *hits, SuppressionList *sups, StrList *file_codes) {
  if (!py || !hits) {
    for (size_t row = 0; row < n_lines; row++) suppress__row(text, len, starts, n_lines, py, row, sups, file_codes);
    return;
  }
  SuppressRows rows = {0};
  suppress__marked_rows(text, len, starts, n_lines, hits, &rows);
  for (size_t i = 0; i < rows.len; i++) suppress__row(text, len, starts, n_lines, py, rows.items[i], sups, file_codes);
  array_free(&rows);
}

static bool suppress__only_marker(const char *c, size_t n) {
  size_t i = 1; /* past '#' (or the first '/') */
  if (n > 1 && c[0] == '/' && c[1] == '/') i = 2;
  while (i < n && (c[i] == ' ' || c[i] == '\t')) i++;
  return (n - i >= 4 && memcmp(c + i, "noqa", 4) == 0) || (n - i >= 11 && memcmp(c + i, "ascend-lsp:", 11) == 0);
}

size_t suppress_apply(const char *text, size_t len, const uint32_t *starts, size_t n_lines, const PyFile *py,
                      TextHits *hits, const AnalyzeOptions *opt, FindingList *l) {
  SuppressionList sups = {0};
  StrList file_codes = {0};
  suppress__collect(text, len, starts, n_lines, py, hits, &sups, &file_codes);
  size_t w = 0;
  for (size_t i = 0; i < l->len; i++) {
    Finding *f = &l->items[i];
    bool drop = false;
    for (size_t k = 0; k < file_codes.len && !drop; k++) drop = suppress__covers(file_codes.items[k], f->rule->code);
    for (size_t k = 0; k < sups.len && !drop; k++) {
      if (sups.items[k].row == f->start_row && suppress__covers(sups.items[k].codes, f->rule->code)) {
        sups.items[k].used = true;
        drop = true;
      }
    }
    if (drop) finding_free(f);
    else l->items[w++] = *f;
  }
  l->len = w;
  const KbRule *unused = kb_rule("ASC001");
  for (size_t k = 0; k < sups.len; k++) {
    Suppression *s = &sups.items[k];
    if (opt->report_unused_noqa && !s->used && unused && context_code_selected(opt, "ASC001")) {
      /* only suppressions that name our codes (or none) are ours to judge */
      if (!*s->codes || util_starts_with(s->codes, "ASC")) {
        char *subj = xasprintf("%s", *s->codes ? s->codes : "noqa");
        uint32_t col = s->start;
        while (col > 0 && text[col - 1] != '\n' && text[col - 1] != '\r') col--;
        Finding *f = kb_emit(l, unused, NULL, subj, NULL, s->start, s->end, s->row, s->start - col, s->row,
                             s->end - col);
        /* A comment that is only the suppression goes, with the blanks before
         * it; one that says more is left for a person to edit. */
        if (suppress__only_marker(text + s->start, s->end - s->start)) {
          uint32_t from = s->start;
          while (from > col && (text[from - 1] == ' ' || text[from - 1] == '\t')) from--;
          f->fix = FIX_SAFE;
          finding_add_edit(f, from, s->end, "");
        }
        free(subj);
      }
    }
    free(s->codes);
  }
  array_free(&sups);
  strlist_free(&file_codes);
  return w;
}
