/* fold_outcome: fold_project's effect on each file, replayable on one file
 * (see fold_outcome.h). fold_project only drops findings (keeping the
 * order of the rest), marks them unreachable with a note, adds related
 * sites and lowers severities; the outcome is the difference between the
 * snapshot taken before it and the lists after it. */
#include "analyzers/engine/fold_outcome.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *code;
  uint32_t start, end;
  size_t msg_len, zh_len;
  bool unreachable;
  Severity severity;
  char *subject; /* owned */
  uint32_t rank;
  StrList related; /* owned: the related sites' keys (fold_outcome__site) */
} FoldSnap;

typedef enum { FOLD_DROPPED, FOLD_CHANGED } FoldChangeKind;

typedef struct {
  FoldChangeKind kind;
  char *code, *subject; /* owned */
  uint32_t rank;
  bool unreachable;     /* CHANGED: became unreachable, with this note */
  char *note_en, *note_zh;
  Severity severity;    /* CHANGED: the severity after */
  Array(Related) related; /* CHANGED: the sites added (owned) */
  StrList dropped;      /* CHANGED: the sites removed, as site keys (fold_outcome__site) */
} FoldChange;

typedef struct {
  char *path;
  Array(FoldChange) changes;
} FoldOutcomeFile;

struct FoldOutcome {
  FoldSnap **snaps; /* per file, between begin and end */
  size_t *n_snaps, n;
  Array(FoldOutcomeFile) files;
};

/* ---- ranks: a finding's place among the file's findings with its code and subject ---- */

typedef struct {
  const char *code, *subject;
  size_t index;
} FoldKey;

static int fold_outcome__key_cmp(const void *a, const void *b) {
  const FoldKey *x = a, *y = b;
  int c = strcmp(x->code, y->code);
  if (!c) c = strcmp(x->subject, y->subject);
  return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* ranks[i] of l's findings. Caller frees. */
static uint32_t *fold_outcome__ranks(const FindingList *l) {
  FoldKey *k = xcalloc(l->len + 1, sizeof *k);
  uint32_t *ranks = xcalloc(l->len + 1, sizeof *ranks);
  for (size_t i = 0; i < l->len; i++)
    k[i] = (FoldKey){l->items[i].rule->code, l->items[i].subject ? l->items[i].subject : "", i};
  qsort(k, l->len, sizeof *k, fold_outcome__key_cmp);
  for (size_t i = 1; i < l->len; i++)
    if (strcmp(k[i].code, k[i - 1].code) == 0 && strcmp(k[i].subject, k[i - 1].subject) == 0)
      ranks[k[i].index] = ranks[k[i - 1].index] + 1;
  free(k);
  return ranks;
}

/* ---- capture ---- */

/* A related site known by its file and message (positions move with edits). */
/* A site's key: its file and message, and for a site of the finding's own
 * file its offset from the finding's start (`base`), which tells apart the
 * sites of one message (four stream calls of an extension, one of them in
 * a dead function) and stays the same when edits before the finding move
 * both. */
static char *fold_outcome__site(const Related *r, uint32_t base) {
  if (r->path) return xasprintf("%s\x1f%s", r->path, r->message ? r->message : "");
  return xasprintf("\x1f%s\x1f%lld", r->message ? r->message : "", (long long)r->start - (long long)base);
}

FoldOutcome *fold_outcome_begin(const FoldFile *files, size_t n) {
  FoldOutcome *o = xcalloc(1, sizeof *o);
  o->n = n;
  o->snaps = xcalloc(n + 1, sizeof *o->snaps);
  o->n_snaps = xcalloc(n + 1, sizeof *o->n_snaps);
  for (size_t i = 0; i < n; i++) {
    const FindingList *l = files[i].findings;
    uint32_t *ranks = fold_outcome__ranks(l);
    FoldSnap *s = xcalloc(l->len + 1, sizeof *s);
    for (size_t j = 0; j < l->len; j++) {
      const Finding *f = &l->items[j];
      s[j] = (FoldSnap){f->rule->code, f->start_byte, f->end_byte, strlen(f->message), strlen(f->message_zh),
                        f->unreachable, f->severity, xstrdup(f->subject ? f->subject : ""), ranks[j], {0}};
      for (size_t k = 0; k < f->related.len; k++)
        array_push(&s[j].related, fold_outcome__site(&f->related.items[k], f->start_byte));
    }
    free(ranks);
    o->snaps[i] = s;
    o->n_snaps[i] = l->len;
  }
  return o;
}

static bool fold_outcome__same(const FoldSnap *s, const Finding *f) {
  return strcmp(s->code, f->rule->code) == 0 && s->start == f->start_byte && s->end == f->end_byte;
}

static FoldChange fold_outcome__change(FoldChangeKind kind, const FoldSnap *s) {
  FoldChange c = {0};
  c.kind = kind;
  c.code = xstrdup(s->code);
  c.subject = xstrdup(s->subject);
  c.rank = s->rank;
  c.severity = s->severity;
  return c;
}

/* The sites of `have` not matched one for one in `want` (a multiset
 * difference by site key); used[] marks the matched ones of want. */
static void fold_outcome__unmatched(char *const *have, size_t n_have, char *const *want, size_t n_want, bool *unmatched) {
  bool *used = xcalloc(n_want + 1, sizeof *used);
  for (size_t i = 0; i < n_have; i++) {
    unmatched[i] = true;
    for (size_t k = 0; k < n_want && unmatched[i]; k++)
      if (!used[k] && strcmp(have[i], want[k]) == 0) used[k] = !(unmatched[i] = false);
  }
  free(used);
}

/* The sites fold_project removed from a finding and the ones it added. */
static void fold_outcome__sites(const FoldSnap *s, const Finding *f, FoldChange *c) {
  char **after = xcalloc(f->related.len + 1, sizeof *after);
  for (size_t k = 0; k < f->related.len; k++) after[k] = fold_outcome__site(&f->related.items[k], f->start_byte);
  size_t nb = s->related.len;
  bool *gone = xcalloc(nb + 1, sizeof *gone), *added = xcalloc(f->related.len + 1, sizeof *added);
  fold_outcome__unmatched(s->related.items, nb, after, f->related.len, gone);
  fold_outcome__unmatched(after, f->related.len, s->related.items, nb, added);
  for (size_t k = 0; k < nb; k++)
    if (gone[k]) array_push(&c->dropped, xstrdup(s->related.items[k]));
  for (size_t k = 0; k < f->related.len; k++) {
    free(after[k]);
    if (!added[k]) continue;
    Related r = related_copy(&f->related.items[k]);
    array_push(&c->related, r);
  }
  free(after);
  free(gone);
  free(added);
}

static void fold_outcome__change_free(FoldChange *c) {
  free(c->code);
  free(c->subject);
  free(c->note_en);
  free(c->note_zh);
  for (size_t r = 0; r < c->related.len; r++) related_free(&c->related.items[r]);
  array_free(&c->related);
  strlist_free(&c->dropped);
}

/* What happened to a finding that fold_project kept; false if nothing. */
static bool fold_outcome__kept(const FoldSnap *s, const Finding *f, FoldChange *c) {
  bool unreachable = f->unreachable && !s->unreachable;
  *c = fold_outcome__change(FOLD_CHANGED, s);
  c->severity = f->severity;
  c->unreachable = unreachable;
  fold_outcome__sites(s, f, c);
  if (!unreachable && !c->related.len && !c->dropped.len && f->severity == s->severity) {
    fold_outcome__change_free(c);
    return false;
  }
  if (unreachable) {
    const char *en = f->message + s->msg_len;
    c->note_en = xstrdup(*en == ' ' ? en + 1 : en);
    c->note_zh = xstrdup(f->message_zh + s->zh_len);
  }
  return true;
}

static void fold_outcome__file(FoldOutcome *o, size_t i, const FoldFile *file) {
  const FindingList *l = file->findings;
  FoldOutcomeFile of = {xstrdup(file->path), {0}};
  size_t j = 0;
  for (size_t k = 0; k < o->n_snaps[i]; k++) {
    const FoldSnap *s = &o->snaps[i][k];
    FoldChange c;
    if (j < l->len && fold_outcome__same(s, &l->items[j])) {
      if (fold_outcome__kept(s, &l->items[j], &c)) array_push(&of.changes, c);
      j++;
    } else {
      c = fold_outcome__change(FOLD_DROPPED, s);
      array_push(&of.changes, c);
    }
  }
  if (of.changes.len) array_push(&o->files, of);
  else free(of.path);
}

static void fold_outcome__snaps_free(FoldOutcome *o) {
  for (size_t i = 0; i < o->n; i++) {
    for (size_t k = 0; o->snaps[i] && k < o->n_snaps[i]; k++) {
      free(o->snaps[i][k].subject);
      strlist_free(&o->snaps[i][k].related);
    }
    free(o->snaps[i]);
  }
  free(o->snaps);
  free(o->n_snaps);
  o->snaps = NULL;
  o->n_snaps = NULL;
  o->n = 0;
}

void fold_outcome_end(FoldOutcome *o, const FoldFile *files, size_t n) {
  if (!o) return;
  for (size_t i = 0; i < n && i < o->n; i++) fold_outcome__file(o, i, &files[i]);
  fold_outcome__snaps_free(o);
}

/* ---- replay ---- */

static const FoldChange *fold_outcome__find(const FoldOutcomeFile *of, const Finding *f, uint32_t rank) {
  const char *subject = f->subject ? f->subject : "";
  for (size_t k = 0; k < of->changes.len; k++) {
    const FoldChange *c = &of->changes.items[k];
    if (c->rank == rank && strcmp(c->code, f->rule->code) == 0 && strcmp(c->subject, subject) == 0) return c;
  }
  return NULL;
}

typedef struct {
  const StrList *dropped;
  bool *used;    /* each dropped site removes one site with its key */
  uint32_t base; /* the finding's start byte */
} FoldDrop;

static bool fold_outcome__dropped(void *data, const Related *q) {
  FoldDrop *d = data;
  char *key = fold_outcome__site(q, d->base);
  bool drop = false;
  for (size_t k = 0; k < d->dropped->len && !drop; k++)
    if (!d->used[k] && strcmp(d->dropped->items[k], key) == 0) d->used[k] = drop = true;
  free(key);
  return drop;
}

static void fold_outcome__replay(const FoldChange *c, Finding *f) {
  FoldDrop d = {&c->dropped, xcalloc(c->dropped.len + 1, sizeof(bool)), f->start_byte};
  finding_drop_related_if(f, fold_outcome__dropped, &d);
  free(d.used);
  for (size_t k = 0; k < c->related.len; k++) finding_add_related_at(f, &c->related.items[k]);
  f->severity = c->severity;
  if (!c->unreachable || f->unreachable) return;
  f->unreachable = true;
  finding_append_note(f, c->note_en, c->note_zh);
}

static const FoldOutcomeFile *fold_outcome__of(const FoldOutcome *o, const char *path) {
  for (size_t i = 0; o && path && i < o->files.len; i++)
    if (strcmp(o->files.items[i].path, path) == 0) return &o->files.items[i];
  return NULL;
}

bool fold_outcome_has(const FoldOutcome *o, const char *path) {
  return fold_outcome__of(o, path) != NULL;
}

bool fold_outcome_apply(const FoldOutcome *o, const char *path, FindingList *l) {
  const FoldOutcomeFile *of = fold_outcome__of(o, path);
  if (!of || l->len == 0) return false;
  uint32_t *ranks = fold_outcome__ranks(l);
  bool *drop = xcalloc(l->len + 1, sizeof *drop), changed = false;
  for (size_t j = 0; j < l->len; j++) {
    const FoldChange *c = fold_outcome__find(of, &l->items[j], ranks[j]);
    if (!c) continue;
    changed = true;
    if (c->kind == FOLD_DROPPED) drop[j] = true;
    else fold_outcome__replay(c, &l->items[j]);
  }
  if (changed) findings_drop(l, drop);
  free(drop);
  free(ranks);
  return changed;
}

void fold_outcome_free(FoldOutcome *o) {
  if (!o) return;
  fold_outcome__snaps_free(o);
  for (size_t i = 0; i < o->files.len; i++) {
    FoldOutcomeFile *of = &o->files.items[i];
    for (size_t k = 0; k < of->changes.len; k++) fold_outcome__change_free(&of->changes.items[k]);
    array_free(&of->changes);
    free(of->path);
  }
  array_free(&o->files);
  free(o);
}
