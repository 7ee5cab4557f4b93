/* finding: see finding.h. */
#include "analyzers/engine/finding.h"
#include "analyzers/kb/kb.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  atomic_size_t refs;
  char text[];
} FindingText;

static FindingText *finding__text_of(char *t) { return (FindingText *)(void *)(t - offsetof(FindingText, text)); }

char *finding_text_new(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s);
  FindingText *ft = xmalloc(sizeof *ft + n + 1);
  atomic_init(&ft->refs, 1);
  memcpy(ft->text, s, n + 1);
  return ft->text;
}

char *finding_text_take(char *s) {
  char *t = finding_text_new(s);
  free(s);
  return t;
}

char *finding_text_ref(char *t) {
  if (t) atomic_fetch_add_explicit(&finding__text_of(t)->refs, 1, memory_order_relaxed);
  return t;
}

void finding_text_unref(char *t) {
  if (!t) return;
  FindingText *ft = finding__text_of(t);
  if (atomic_fetch_sub_explicit(&ft->refs, 1, memory_order_acq_rel) == 1) free(ft);
}

void finding_free(Finding *f) {
  free(f->subject);
  finding_text_unref(f->message);
  finding_text_unref(f->message_zh);
  free(f->replacement);
  free(f->detail);
  free(f->scope);
  free(f->gate);
  for (size_t i = 0; i < f->edits.len; i++) free(f->edits.items[i].text);
  array_free(&f->edits);
  for (size_t i = 0; i < f->related.len; i++) related_free(&f->related.items[i]);
  array_free(&f->related);
}

void finding_drop_fix(Finding *f) {
  for (size_t i = 0; i < f->edits.len; i++) free(f->edits.items[i].text);
  f->edits.len = 0;
  f->fix = FIX_NONE;
  f->fix_needs_torch_npu = false;
}

void findings_free(FindingList *l) {
  for (size_t i = 0; i < l->len; i++) finding_free(&l->items[i]);
  array_free(l);
}

static char *finding__dup(const char *s) { return s ? xstrdup(s) : NULL; }

Finding finding_copy(const Finding *f) {
  Finding c = *f;
  c.subject = finding__dup(f->subject);
  c.message = finding_text_ref(f->message);
  c.message_zh = finding_text_ref(f->message_zh);
  c.replacement = finding__dup(f->replacement);
  c.detail = finding__dup(f->detail);
  c.scope = finding__dup(f->scope);
  c.gate = finding__dup(f->gate);
  memset(&c.edits, 0, sizeof c.edits);
  for (size_t i = 0; i < f->edits.len; i++) {
    TextEdit e = f->edits.items[i];
    e.text = xstrdup(e.text);
    array_push(&c.edits, e);
  }
  memset(&c.related, 0, sizeof c.related);
  for (size_t i = 0; i < f->related.len; i++) finding_add_related_at(&c, &f->related.items[i]);
  return c;
}

void finding_add_related(Finding *f, uint32_t start, uint32_t end, const char *message) {
  Related r = {start, end, xstrdup(message), 0, 0, 0, 0, NULL, 0, 0};
  array_push(&f->related, r);
}

Related related_copy(const Related *r) {
  Related c = *r;
  c.path = r->path ? xstrdup(r->path) : NULL;
  c.message = xstrdup(r->message ? r->message : "");
  return c;
}

void related_free(Related *r) {
  free(r->path);
  free(r->message);
  r->path = r->message = NULL;
}

void finding_add_related_at(Finding *f, const Related *r) {
  Related c = related_copy(r);
  array_push(&f->related, c);
}

void finding_drop_related_if(Finding *f, bool (*drop)(void *data, const Related *r), void *data) {
  size_t keep = 0;
  for (size_t k = 0; k < f->related.len; k++) {
    if (drop(data, &f->related.items[k])) related_free(&f->related.items[k]);
    else f->related.items[keep++] = f->related.items[k];
  }
  f->related.len = keep;
}

void finding_add_edit(Finding *f, uint32_t start, uint32_t end, const char *text) {
  TextEdit e = {start, end, xstrdup(text), 0, 0, 0, 0};
  array_push(&f->edits, e);
}

static int finding__cmp(const void *a, const void *b) {
  const Finding *x = a, *y = b;
  if (x->start_byte != y->start_byte) return x->start_byte < y->start_byte ? -1 : 1;
  int c = strcmp(x->rule->code, y->rule->code);
  if (c) return c;
  return x->end_byte < y->end_byte ? -1 : x->end_byte > y->end_byte;
}

void findings_sort(FindingList *l) {
  if (l->len > 1) qsort(l->items, l->len, sizeof *l->items, finding__cmp);
}

const char *severity_name(Severity s) {
  switch (s) {
  case SEV_ERROR: return "error";
  case SEV_WARNING: return "warning";
  case SEV_INFO: return "info";
  case SEV_HINT: return "hint";
  }
  return "info";
}

const char *confidence_name(Confidence c) {
  switch (c) {
  case CONF_HIGH: return "High";
  case CONF_MEDIUM: return "Medium";
  case CONF_LOW: return "Low";
  }
  return "Low";
}

const char *effort_name(EffortKind e) {
  static const char *const names[EFFORT__COUNT] = {
      "none", "mechanical", "api-review", "attention", "triton-kernel", "cuda-kernel",
      "native-library", "dependency-replace", "dependency-unsupported", "precision",
      "distributed", "compile", "rebuild"};
  return (unsigned)e < EFFORT__COUNT ? names[e] : "none";
}

const char *dep_class_name(DepClass d) {
  switch (d) {
  case DEP_CLASS_FRAMEWORK: return "framework API";
  case DEP_CLASS_RUNTIME: return "CUDA runtime API";
  case DEP_CLASS_VENDOR_LIB: return "vendor library";
  case DEP_CLASS_KERNEL: return "hand-written kernel";
  case DEP_CLASS_NONE: break;
  }
  return "none";
}

void findings_drop(FindingList *l, const bool *drop) {
  size_t w = 0;
  for (size_t i = 0; i < l->len; i++) {
    if (drop[i]) finding_free(&l->items[i]);
    else l->items[w++] = l->items[i];
  }
  l->len = w;
}

void findings_drop_if(FindingList *l, bool (*drop)(void *data, const Finding *f), void *data) {
  bool *marks = xcalloc(l->len + 1, sizeof *marks);
  for (size_t i = 0; i < l->len; i++) marks[i] = drop(data, &l->items[i]);
  findings_drop(l, marks);
  free(marks);
}

void finding_append_note(Finding *f, const char *en, const char *zh) {
  char *m = finding_text_take(xasprintf("%s %s", f->message, en));
  finding_text_unref(f->message);
  f->message = m;
  m = finding_text_take(xasprintf("%s%s", f->message_zh, zh));
  finding_text_unref(f->message_zh);
  f->message_zh = m;
}

/* `s` with each "(line N)" moved by `rows`; NULL when it names none. */
static char *finding__shifted_lines(const char *s, int64_t rows) {
  static const char open[] = "(line ";
  if (!s || !strstr(s, open)) return NULL;
  StrBuf sb;
  sb_init(&sb);
  const char *from = s;
  for (const char *at; (at = strstr(from, open));) {
    const char *d = at + sizeof open - 1, *e = d;
    while (*e >= '0' && *e <= '9') e++;
    sb_append(&sb, from, (size_t)(d - from));
    from = d;
    if (e == d || *e != ')') continue; /* not a line number: copied as it is */
    sb_printf(&sb, "%lld", strtoll(d, NULL, 10) + (long long)rows);
    from = e;
  }
  sb_puts(&sb, from);
  return sb_steal(&sb);
}

/* Shared text `*t` with its first `old` replaced by `now`. */
static void finding__requote(char **t, const char *old, const char *now) {
  const char *at = *t ? strstr(*t, old) : NULL;
  if (!at) return;
  size_t pre = (size_t)(at - *t);
  char *m = finding_text_take(xasprintf("%.*s%s%s", (int)pre, *t, now, at + strlen(old)));
  finding_text_unref(*t);
  *t = m;
}

void finding_shift_line_refs(Finding *f, int64_t rows) {
  char *now = rows ? finding__shifted_lines(f->subject, rows) : NULL;
  if (!now) return;
  finding__requote(&f->message, f->subject, now);
  finding__requote(&f->message_zh, f->subject, now);
  free(f->subject);
  f->subject = now;
}

bool finding_mark_transfer(Finding *f, const char *by) {
  if (!f->entry || !f->entry->transfer_covered || f->transfer_covered || f->severity >= SEV_HINT) return false;
  const KbEntry *row = kb_lookup(KB_DETECTOR, by ? "transfer-covered-project" : "transfer-covered", NULL, 0);
  f->severity = SEV_HINT;
  f->transfer_covered = true;
  if (!row) return true;
  kb_append_note(f, row, by ? by : "", "");
  return true;
}
