/* output: see output.h. */
#include "server/cli/output.h"
#include "server/cli/cli.h"
#include "server/cli/rulesdoc.h"

#include <stdlib.h>

bool output_format_parse(const char *s, OutputFormat *out) {
  static const struct {
    const char *name;
    OutputFormat fmt;
  } names[] = {{"text", OUT_TEXT}, {"concise", OUT_TEXT}, {"json", OUT_JSON}, {"sarif", OUT_SARIF},
               {"github", OUT_GITHUB}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(s, names[i].name) == 0) {
      *out = names[i].fmt;
      return true;
    }
  return false;
}

const char *output_base(const Workspace *ws) {
  return ws->root && ws->under_root && ws->files.len ? ws->root : ".";
}

char *output_display_path(const Workspace *ws, const WsFile *wf) {
  const char *base = output_base(ws);
  if (strcmp(base, ".") == 0 || wf->path[0] == '/') return xstrdup(wf->path);
  while (strncmp(base, "./", 2) == 0) base += 2;
  size_t bl = strlen(base);
  while (bl > 1 && base[bl - 1] == '/') bl--;
  return xasprintf("%.*s/%s", (int)bl, base, wf->path);
}

/* Findings whose fix `fix` applies (safe) or applies with --unsafe-fixes. */
static void output__fixable(const Workspace *ws, size_t *safe, size_t *unsafe) {
  for (size_t i = 0; i < ws->files.len; i++)
    for (size_t k = 0; k < ws->files.items[i].findings.len; k++) {
      const Finding *f = &ws->files.items[i].findings.items[k];
      if (!f->edits.len) continue;
      if (f->fix == FIX_SAFE) (*safe)++;
      else if (f->fix == FIX_UNSAFE) (*unsafe)++;
    }
}

static void output__text(FILE *out, const Workspace *ws) {
  size_t counts[5] = {0}, files = 0;
  for (size_t i = 0; i < ws->files.len; i++) {
    const WsFile *wf = &ws->files.items[i];
    if (wf->findings.len) files++;
    char *path = output_display_path(ws, wf);
    for (size_t k = 0; k < wf->findings.len; k++) {
      const Finding *f = &wf->findings.items[k];
      counts[f->severity]++;
      fprintf(out, "%s:%u:%u: %s: %s %s", path, f->start_row + 1, f->start_char + 1, severity_name(f->severity),
              f->rule->code, f->message);
      if (f->replacement && !strstr(f->message, f->replacement)) fprintf(out, " [%s]", f->replacement);
      fputc('\n', out);
    }
    free(path);
  }
  size_t total = counts[1] + counts[2] + counts[3] + counts[4];
  if (total == 0) {
    fprintf(out, "No findings in %zu files.\n", ws->files.len);
    return;
  }
  fprintf(out, "Found %zu findings in %zu of %zu files (%zu errors, %zu warnings, %zu info, %zu hints).\n", total,
          files, ws->files.len, counts[SEV_ERROR], counts[SEV_WARNING], counts[SEV_INFO], counts[SEV_HINT]);
  size_t safe = 0, unsafe = 0;
  output__fixable(ws, &safe, &unsafe);
  if (safe) fprintf(out, "[*] %zu fixable with `ascend-lsp fix`.", safe);
  if (unsafe) fprintf(out, "%s%zu more with `ascend-lsp fix --unsafe-fixes`.", safe ? " " : "", unsafe);
  if (safe || unsafe) fputc('\n', out);
}

/* line, column, end_line, end_column (1-based; columns in code points). */
static void output__span(cJSON *o, uint32_t row, uint32_t chr, uint32_t end_row, uint32_t end_chr) {
  cJSON_AddNumberToObject(o, "line", row + 1);
  cJSON_AddNumberToObject(o, "column", chr + 1);
  cJSON_AddNumberToObject(o, "end_line", end_row + 1);
  cJSON_AddNumberToObject(o, "end_column", end_chr + 1);
}

cJSON *output_finding_json(const Finding *f, const char *file) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "code", f->rule->code);
  cJSON_AddStringToObject(o, "name", f->rule->name);
  cJSON_AddStringToObject(o, "severity", severity_name(f->severity));
  cJSON_AddStringToObject(o, "file", file);
  output__span(o, f->start_row, f->start_char, f->end_row, f->end_char);
  cJSON_AddStringToObject(o, "message", f->message);
  cJSON_AddStringToObject(o, "message_zh", f->message_zh);
  if (f->replacement) cJSON_AddStringToObject(o, "replacement", f->replacement);
  else cJSON_AddNullToObject(o, "replacement");
  cJSON_AddStringToObject(o, "confidence", confidence_name(f->confidence));
  cJSON_AddBoolToObject(o, "guarded", f->guarded);
  cJSON_AddBoolToObject(o, "transfer_covered", f->transfer_covered);
  cJSON_AddStringToObject(o, "subject", f->subject);
  if (f->detail) cJSON_AddStringToObject(o, "detail", f->detail);
  if (f->unreachable) cJSON_AddBoolToObject(o, "unreachable", true);
  if (f->related.len) {
    cJSON *rel = cJSON_AddArrayToObject(o, "related");
    for (size_t i = 0; i < f->related.len; i++) {
      const Related *r = &f->related.items[i];
      cJSON *jr = cJSON_CreateObject();
      if (r->path) cJSON_AddStringToObject(jr, "file", r->path); /* another file of the project */
      output__span(jr, r->start_row, r->start_char, r->end_row, r->end_char);
      cJSON_AddStringToObject(jr, "message", r->message);
      cJSON_AddItemToArray(rel, jr);
    }
  }
  char *url = rulesdoc_url(f->rule);
  cJSON_AddStringToObject(o, "url", url);
  free(url);
  if (f->fix == FIX_NONE || f->edits.len == 0) {
    cJSON_AddNullToObject(o, "fix");
  } else {
    cJSON *fix = cJSON_AddObjectToObject(o, "fix");
    cJSON_AddStringToObject(fix, "applicability", f->fix == FIX_SAFE ? "safe" : "unsafe");
    cJSON *edits = cJSON_AddArrayToObject(fix, "edits");
    for (size_t i = 0; i < f->edits.len; i++) {
      const TextEdit *e = &f->edits.items[i];
      cJSON *je = cJSON_CreateObject();
      output__span(je, e->start_row, e->start_char, e->end_row, e->end_char);
      cJSON_AddStringToObject(je, "content", e->text);
      cJSON_AddItemToArray(edits, je);
    }
  }
  return o;
}

/* Writes a cJSON_Print text as if printed `depth` levels down: every line
 * after the first gets `depth` more tabs. */
static void output__indented(FILE *out, const char *s, int depth) {
  static const char tabs[] = "\t\t\t\t\t\t\t\t";
  for (;;) { /* a line at a time: a character at a time locks the stream per byte */
    const char *nl = strchr(s, '\n');
    size_t n = nl ? (size_t)(nl - s) + 1 : strlen(s);
    fwrite(s, 1, n, out);
    if (!nl) return;
    for (int d = depth; d > 0; d -= 8) fwrite(tabs, 1, d < 8 ? (size_t)d : 8, out);
    s = nl + 1;
  }
}

/* The JSON report, streamed: each finding is printed and freed as it is
 * made, so the output never exists as one tree or one string (the bytes are
 * those cJSON_Print gives for the whole document). */
static void output__json(FILE *out, const Workspace *ws) {
  cJSON *version = cJSON_CreateString(ASCEND_LSP_VERSION);
  char *v = cJSON_PrintUnformatted(version);
  fprintf(out, "{\n\t\"version\":\t%s,\n\t\"findings\":\t[", v);
  cJSON_free(v);
  cJSON_Delete(version);
  size_t counts[5] = {0}, fixable = 0, n = 0;
  cJSON *by_code = cJSON_CreateObject();
  for (size_t i = 0; i < ws->files.len; i++) {
    const WsFile *wf = &ws->files.items[i];
    for (size_t k = 0; k < wf->findings.len; k++) {
      const Finding *f = &wf->findings.items[k];
      cJSON *o = output_finding_json(f, wf->path);
      char *txt = cJSON_Print(o);
      if (n++) fputs(", ", out);
      output__indented(out, txt, 2);
      cJSON_free(txt);
      cJSON_Delete(o);
      counts[f->severity]++;
      if (f->fix != FIX_NONE && f->edits.len) fixable++;
      cJSON *c = cJSON_GetObjectItemCaseSensitive(by_code, f->rule->code);
      if (c) cJSON_SetNumberValue(c, c->valuedouble + 1);
      else cJSON_AddNumberToObject(by_code, f->rule->code, 1);
    }
  }
  fputs("],\n", out);
  cJSON *rest = cJSON_CreateObject();
  cJSON *sum = cJSON_AddObjectToObject(rest, "summary");
  cJSON_AddNumberToObject(sum, "files", (double)ws->files.len);
  cJSON_AddNumberToObject(sum, "findings", (double)(counts[1] + counts[2] + counts[3] + counts[4]));
  cJSON_AddNumberToObject(sum, "errors", (double)counts[SEV_ERROR]);
  cJSON_AddNumberToObject(sum, "warnings", (double)counts[SEV_WARNING]);
  cJSON_AddNumberToObject(sum, "info", (double)counts[SEV_INFO]);
  cJSON_AddNumberToObject(sum, "hints", (double)counts[SEV_HINT]);
  cJSON_AddNumberToObject(sum, "fixable", (double)fixable);
  cJSON_AddItemToObject(sum, "by_code", by_code);
  cJSON *skipped = cJSON_AddArrayToObject(rest, "skipped");
  for (size_t i = 0; i < ws->notes.len; i++) cJSON_AddItemToArray(skipped, cJSON_CreateString(ws->notes.items[i]));
  char *tail = cJSON_Print(rest); /* "{\n\t\"summary\": ... }": the document's rest after its "{\n" */
  fputs(tail + 2, out);
  fputc('\n', out);
  cJSON_free(tail);
  cJSON_Delete(rest);
}

/* GitHub Actions workflow commands: values escape %, CR, LF; properties also , and :. */
static void output__gh_escape(FILE *out, const char *s, bool property) {
  for (; *s; s++) {
    switch (*s) {
    case '%': fputs("%25", out); break;
    case '\r': fputs("%0D", out); break;
    case '\n': fputs("%0A", out); break;
    case ':': fputs(property ? "%3A" : ":", out); break;
    case ',': fputs(property ? "%2C" : ",", out); break;
    default: fputc(*s, out);
    }
  }
}

static void output__github(FILE *out, const Workspace *ws) {
  for (size_t i = 0; i < ws->files.len; i++) {
    const WsFile *wf = &ws->files.items[i];
    char *path = output_display_path(ws, wf);
    for (size_t k = 0; k < wf->findings.len; k++) {
      const Finding *f = &wf->findings.items[k];
      const char *level = f->severity == SEV_ERROR ? "error" : f->severity == SEV_WARNING ? "warning" : "notice";
      fprintf(out, "::%s title=", level);
      char *title = xasprintf("ascend-lsp (%s)", f->rule->code);
      output__gh_escape(out, title, true);
      free(title);
      fputs(",file=", out);
      output__gh_escape(out, path, true);
      fprintf(out, ",line=%u,col=%u,endLine=%u,endColumn=%u::", f->start_row + 1, f->start_char + 1,
              f->end_row + 1, f->end_char + 1);
      bool tail = f->replacement && !strstr(f->message, f->replacement);
      char *msg = xasprintf("%s %s%s%s%s", f->rule->code, f->message, tail ? " [" : "", tail ? f->replacement : "",
                            tail ? "]" : "");
      output__gh_escape(out, msg, false);
      free(msg);
      fputc('\n', out);
    }
    free(path);
  }
}

typedef struct {
  const KbRule *rule;
  size_t count, safe, unsafe;
} OutputStat;

typedef Array(OutputStat) OutputStats;

static int output__stat_cmp(const void *x, const void *y) {
  const OutputStat *a = x, *b = y;
  if (a->count != b->count) return a->count > b->count ? -1 : 1;
  return strcmp(a->rule->code, b->rule->code);
}

/* Per-rule counts, most frequent first (ties by code), like ruff. */
static void output__stats(const Workspace *ws, OutputStats *st) {
  for (size_t i = 0; i < ws->files.len; i++)
    for (size_t k = 0; k < ws->files.items[i].findings.len; k++) {
      const Finding *f = &ws->files.items[i].findings.items[k];
      OutputStat *s = NULL;
      for (size_t j = 0; j < st->len && !s; j++)
        if (st->items[j].rule == f->rule) s = &st->items[j];
      if (!s) {
        OutputStat n = {f->rule, 0, 0, 0};
        array_push(st, n);
        s = &st->items[st->len - 1];
      }
      s->count++;
      if (f->edits.len && f->fix == FIX_SAFE) s->safe++;
      else if (f->edits.len && f->fix == FIX_UNSAFE) s->unsafe++;
    }
  if (st->len > 1) qsort(st->items, st->len, sizeof *st->items, output__stat_cmp);
}

/* `check --statistics`: "COUNT<TAB>CODE<TAB>[*] name", [*] when every
 * finding of the rule has a safe fix, [-] when some do, [ ] otherwise. */
void output_statistics(FILE *out, const Workspace *ws) {
  OutputStats st = {0};
  output__stats(ws, &st);
  int width = 1;
  for (size_t i = 0; i < st.len; i++) {
    int w = snprintf(NULL, 0, "%zu", st.items[i].count);
    if (w > width) width = w;
  }
  size_t total = 0;
  for (size_t i = 0; i < st.len; i++) {
    const OutputStat *s = &st.items[i];
    const char *mark = s->safe == s->count ? "[*]" : s->safe ? "[-]" : "[ ]";
    fprintf(out, "%*zu\t%s\t%s %s\n", width, s->count, s->rule->code, mark, s->rule->name);
    total += s->count;
  }
  fprintf(out, "Found %zu findings.\n", total);
  array_free(&st);
}

/* `check --statistics --format json`: the same table as data. */
void output_statistics_json(FILE *out, const Workspace *ws) {
  OutputStats st = {0};
  output__stats(ws, &st);
  cJSON *arr = cJSON_CreateArray();
  for (size_t i = 0; i < st.len; i++) {
    const OutputStat *s = &st.items[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "code", s->rule->code);
    cJSON_AddStringToObject(o, "name", s->rule->name);
    cJSON_AddNumberToObject(o, "count", (double)s->count);
    cJSON_AddNumberToObject(o, "fixable", (double)s->safe);
    cJSON_AddNumberToObject(o, "unsafe_fixable", (double)s->unsafe);
    cJSON_AddItemToArray(arr, o);
  }
  char *txt = cJSON_Print(arr);
  fputs(txt, out);
  fputc('\n', out);
  cJSON_free(txt);
  cJSON_Delete(arr);
  array_free(&st);
}

void output_write(FILE *out, OutputFormat fmt, const Workspace *ws, const AnalyzeOptions *opt) {
  switch (fmt) {
  case OUT_TEXT: output__text(out, ws); break;
  case OUT_JSON: output__json(out, ws); break;
  case OUT_GITHUB: output__github(out, ws); break;
  case OUT_SARIF: {
    cJSON *log = output_sarif(ws, opt);
    char *s = cJSON_Print(log);
    fputs(s, out);
    fputc('\n', out);
    cJSON_free(s);
    cJSON_Delete(log);
    break;
  }
  }
}

/* ---- unified diff ------------------------------------------------------------ */

typedef struct {
  const char *s;
  size_t len;  /* with its line ending */
  size_t body; /* without it */
  uint64_t h;
} DiffLine;

typedef Array(DiffLine) DiffLines;

/* Splits text into lines ending in LF, CRLF or a lone CR (the last one may
 * have no ending). */
static void output__lines(const char *t, size_t n, DiffLines *out) {
  size_t start = 0;
  for (size_t i = 0; i < n; i++) {
    bool end = t[i] == '\n' || (t[i] == '\r' && (i + 1 >= n || t[i + 1] != '\n'));
    if (!end) continue;
    size_t body = i - start - (t[i] == '\n' && i > start && t[i - 1] == '\r' ? 1 : 0);
    DiffLine l = {t + start, i + 1 - start, body, ws_hash(t + start, i + 1 - start)};
    array_push(out, l);
    start = i + 1;
  }
  if (start < n) {
    DiffLine l = {t + start, n - start, n - start, ws_hash(t + start, n - start)};
    array_push(out, l);
  }
}

static bool output__same(const DiffLine *a, const DiffLine *b) {
  return a->h == b->h && a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

/* Past this many differences the middle is shown as one replaced block:
 * the trace Myers keeps grows with the square of the distance. */
#define OUTPUT_DIFF_MAX_D 4000

/* Myers' O((N+M)D) shortest edit script between a and b: ops gets one of
 * '=' '-' '+' per line, in order. */
static void output__myers(const DiffLine *a, size_t n, const DiffLine *b, size_t m, StrBuf *ops) {
  long max = (long)(n + m), off = max + 1;
  long *v = xcalloc((size_t)(2 * max + 3), sizeof *v);
  Array(long *) trace = {0};
  long found = -1;
  for (long d = 0; d <= max && d <= OUTPUT_DIFF_MAX_D && found < 0; d++) {
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
      long y = x - k;
      while (x < (long)n && y < (long)m && output__same(&a[x], &b[y])) x++, y++;
      v[off + k] = x;
      if (x >= (long)n && y >= (long)m) found = d;
    }
    long *snap = xmalloc((size_t)(2 * d + 1) * sizeof *snap);
    memcpy(snap, v + off - d, (size_t)(2 * d + 1) * sizeof *snap);
    array_push(&trace, snap);
  }
  StrBuf rev;
  sb_init(&rev);
  if (found < 0) {
    /* too far apart: everything out, everything in */
    for (size_t j = m; j-- > 0;) sb_putc(&rev, '+');
    for (size_t i = n; i-- > 0;) sb_putc(&rev, '-');
  } else {
    long x = (long)n, y = (long)m;
    for (long d = found; d > 0; d--) {
      const long *pv = trace.items[d - 1]; /* index k is pv[k + d - 1] */
      long k = x - y;
      bool down = k == -d || (k != d && pv[k - 1 + d - 1] < pv[k + 1 + d - 1]);
      long pk = down ? k + 1 : k - 1;
      long px = pv[pk + d - 1], py = px - pk;
      while (x > px && y > py) sb_putc(&rev, '='), x--, y--;
      if (down) sb_putc(&rev, '+'), y--;
      else sb_putc(&rev, '-'), x--;
    }
    while (x > 0 && y > 0) sb_putc(&rev, '='), x--, y--;
  }
  for (size_t i = rev.len; i-- > 0;) sb_putc(ops, rev.data[i]);
  sb_free(&rev);
  for (size_t i = 0; i < trace.len; i++) free(trace.items[i]);
  array_free(&trace);
  free(v);
}

/* One line of a hunk. A lone CR ending is shown as a newline so terminals
 * and CI logs stay readable; LF and CRLF are kept as they are, so the
 * output applies with `git apply` / `patch -p1`. */
static void output__diff_line(FILE *out, char mark, const DiffLine *l) {
  fputc(mark, out);
  fwrite(l->s, 1, l->body, out);
  if (l->len == l->body) fputs("\n\\ No newline at end of file\n", out);
  else if (l->s[l->len - 1] == '\r') fputc('\n', out);
  else fwrite(l->s + l->body, 1, l->len - l->body, out);
}

static void output__range(FILE *out, char sign, size_t start, size_t count) {
  /* git's convention: an empty range names the line before it */
  if (count == 1) fprintf(out, " %c%zu", sign, start + 1);
  else fprintf(out, " %c%zu,%zu", sign, count ? start + 1 : start, count);
}

/* Where the hunk whose first change is ops[p] ends (exclusive): CTX lines
 * after the last change that follows its predecessor within 2*CTX equal
 * lines (closer changes share one hunk, as in diff -u). */
static size_t output__hunk_end(const StrBuf *ops, size_t p, size_t ctx) {
  size_t e = p;
  for (size_t q = p; q < ops->len; q++) {
    if (ops->data[q] == '=') continue;
    if (q > e + 2 * ctx) break;
    e = q + 1;
  }
  return e + ctx < ops->len ? e + ctx : ops->len;
}

/* One hunk over ops[s, end); *ai and *bi are the lines of a and b at s. */
static void output__hunk(FILE *out, const StrBuf *ops, size_t s, size_t end, const DiffLines *la,
                         const DiffLines *lb, size_t *ai, size_t *bi) {
  size_t ac = 0, bc = 0;
  for (size_t q = s; q < end; q++) {
    ac += ops->data[q] != '+';
    bc += ops->data[q] != '-';
  }
  fputs("@@", out);
  output__range(out, '-', *ai, ac);
  output__range(out, '+', *bi, bc);
  fputs(" @@\n", out);
  for (size_t q = s; q < end; q++) {
    char op = ops->data[q];
    if (op == '=') {
      output__diff_line(out, ' ', &la->items[(*ai)++]);
      (*bi)++;
    } else if (op == '-') {
      output__diff_line(out, '-', &la->items[(*ai)++]);
    } else {
      output__diff_line(out, '+', &lb->items[(*bi)++]);
    }
  }
}

size_t output_diff(FILE *out, const char *path, const char *a, size_t alen, const char *b, size_t blen) {
  const size_t ctx = 3;
  DiffLines la = {0}, lb = {0};
  output__lines(a, alen, &la);
  output__lines(b, blen, &lb);
  StrBuf ops;
  sb_init(&ops);
  output__myers(la.items, la.len, lb.items, lb.len, &ops);
  while (*path == '/' || strncmp(path, "./", 2) == 0) path += *path == '/' ? 1 : 2;
  size_t hunks = 0, p = 0, ai = 0, bi = 0; /* ai, bi: lines of a and b before ops[p] */
  while (p < ops.len) {
    if (ops.data[p] == '=') {
      p++, ai++, bi++;
      continue;
    }
    size_t s = p >= ctx ? p - ctx : 0, end = output__hunk_end(&ops, p, ctx);
    if (s < p && ops.data[s] == '=') { /* step back over the leading context */
      ai -= p - s;
      bi -= p - s;
    }
    if (hunks++ == 0) fprintf(out, "--- a/%s\n+++ b/%s\n", path, path);
    output__hunk(out, &ops, s, end, &la, &lb, &ai, &bi);
    p = end;
  }
  sb_free(&ops);
  array_free(&la);
  array_free(&lb);
  return hunks;
}
