/* resultcodec: see resultcodec.h. Integers as LEB128 varints (most are
 * small: rows, columns, counts, lengths), strings as a varint length
 * (RC_NULL for NULL) and their bytes. Every integer and string takes at
 * least one byte: the minimum sizes the counts are checked against. */
#include "server/resultcodec.h"
#include "analyzers/python/pyfacts.h"
#include "analyzers/engine/reach_facts.h"

#include <errno.h>
#include <stdlib.h>

#define RC_NULL 0xFFFFFFFFu
/* Small signed values (owners: -2, -1, 0, ...) as small unsigned ones. */
static uint32_t rc__zig(int32_t v) { return (uint32_t)v << 1 ^ (uint32_t)(v >> 31); }
static int32_t rc__unzig(uint32_t u) { return (int32_t)(u >> 1) ^ -(int32_t)(u & 1); }
enum { RC_ENTRY_NONE = 0, RC_ENTRY_BUILTIN = 1, RC_ENTRY_USER = 2, RC_ENTRY_SIDE = 3 };

/* ---- encoding ---------------------------------------------------------------- */

static void rc__u32(StrBuf *out, uint32_t v) {
  unsigned char b[5];
  size_t n = 0;
  do {
    b[n++] = (unsigned char)((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
    v >>= 7;
  } while (v);
  sb_append(out, (const char *)b, n);
}

static void rc__str(StrBuf *out, const char *s) {
  if (!s) {
    rc__u32(out, RC_NULL);
    return;
  }
  size_t n = strlen(s);
  rc__u32(out, (uint32_t)n);
  sb_append(out, s, n);
}

static void rc__entry(StrBuf *out, const KbEntry *e) {
  size_t n, n_side;
  const KbEntry *table = kb_entries(&n), *side = kb_side_entries(&n_side);
  if (e && e >= table && e < table + n) {
    rc__u32(out, RC_ENTRY_BUILTIN);
    rc__u32(out, (uint32_t)(e - table));
  } else if (e && e >= side && e < side + n_side) {
    rc__u32(out, RC_ENTRY_SIDE);
    rc__u32(out, (uint32_t)(e - side));
  } else if (e) {
    /* not a built-in row: a user row of the options (resolved on decode) */
    rc__u32(out, RC_ENTRY_USER);
    rc__str(out, e->code);
    rc__str(out, e->pattern);
  } else {
    rc__u32(out, RC_ENTRY_NONE);
  }
}

static void rc__finding(StrBuf *out, const Finding *f) {
  rc__str(out, f->rule->code);
  rc__entry(out, f->entry);
  const uint32_t nums[] = {f->severity,  f->confidence, f->start_byte, f->end_byte,   f->start_row, f->start_col,
                           f->end_row,   f->end_col,    f->start_char, f->end_char,   f->guarded,   f->transfer_covered,
                           f->inference_only, f->fix,  f->fix_needs_torch_npu,       f->weight,
                           f->unreachable};
  for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) rc__u32(out, nums[i]);
  const char *strs[] = {f->subject, f->message, f->message_zh, f->replacement, f->detail, f->scope, f->gate};
  for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) rc__str(out, strs[i]);
  rc__u32(out, (uint32_t)f->edits.len);
  for (size_t i = 0; i < f->edits.len; i++) {
    const TextEdit *e = &f->edits.items[i];
    const uint32_t en[] = {e->start, e->end, e->start_row, e->start_char, e->end_row, e->end_char};
    for (size_t k = 0; k < 6; k++) rc__u32(out, en[k]);
    rc__str(out, e->text);
  }
  rc__u32(out, (uint32_t)f->related.len);
  for (size_t i = 0; i < f->related.len; i++) {
    const Related *r = &f->related.items[i];
    const uint32_t rn[] = {r->start, r->end, r->start_row, r->start_char, r->end_row, r->end_char, r->start_col, r->end_col};
    for (size_t k = 0; k < 8; k++) rc__u32(out, rn[k]);
    rc__str(out, r->message);
    rc__str(out, r->path); /* another file's place (the project model's): what the model named it */
  }
}

static void rc__pos(StrBuf *out, PyPos p) {
  rc__u32(out, p.byte);
  rc__u32(out, p.row);
  rc__u32(out, p.col);
  rc__u32(out, p.chr);
}

static void rc__strs(StrBuf *out, char *const *s, size_t n) {
  rc__u32(out, (uint32_t)n);
  for (size_t i = 0; i < n; i++) rc__str(out, s[i]);
}

static size_t rc__text(const char *s) { return s ? strlen(s) + 1 : 0; }

static size_t rc__texts(char *const *s, size_t n) {
  size_t t = 0;
  for (size_t i = 0; i < n; i++) t += rc__text(s[i]);
  return t;
}

/* The bytes the strings of f take with their terminators: the one block
 * the decoder puts them in. */
static size_t rc__pyfacts_text(const PyFacts *f) {
  size_t t = 0;
  for (size_t i = 0; i < f->defs.len; i++) {
    const PyDef *d = &f->defs.items[i];
    t += rc__text(d->name) + rc__texts(d->bases.items, d->bases.len);
    for (size_t k = 0; k < d->params.len; k++) t += rc__text(d->params.items[k].name) + rc__text(d->params.items[k].attr);
  }
  for (size_t i = 0; i < f->calls.len; i++)
    t += rc__text(f->calls.items[i].callee) + rc__text(f->calls.items[i].self_attr) + rc__text(f->calls.items[i].keywords) +
         rc__text(f->calls.items[i].gate);
  for (size_t i = 0; i < f->forwards.len; i++) t += rc__text(f->forwards.items[i].pairs);
  for (size_t i = 0; i < f->gates.len; i++) t += rc__text(f->gates.items[i].name);
  for (size_t i = 0; i < f->gated.len; i++) t += rc__text(f->gated.items[i].module);
  for (size_t i = 0; i < f->imports.len; i++)
    t += rc__text(f->imports.items[i].local) + rc__text(f->imports.items[i].qualname) + rc__text(f->imports.items[i].module);
  for (size_t i = 0; i < f->refs.len; i++) t += rc__text(f->refs.items[i].name);
  return t + rc__texts(f->star_imports.items, f->star_imports.len) +
         rc__texts(f->dynamic_imports.items, f->dynamic_imports.len) + rc__texts(f->all.items, f->all.len) +
         rc__texts(f->keyed.items, f->keyed.len);
}

/* The project model's facts of a Python file (pyfacts.h); a leading 0 for
 * none, else 1 and the bytes of its strings. */
static void rc__pyfacts(StrBuf *out, const PyFacts *f) {
  rc__u32(out, f ? 1 : 0);
  if (!f) return;
  rc__u32(out, (uint32_t)rc__pyfacts_text(f));
  rc__u32(out, (uint32_t)f->defs.len);
  for (size_t i = 0; i < f->defs.len; i++) {
    const PyDef *d = &f->defs.items[i];
    rc__str(out, d->name);
    const uint32_t nums[] = {d->kind, rc__zig(d->cls), d->start, d->end, d->decorated};
    for (size_t k = 0; k < 5; k++) rc__u32(out, nums[k]);
    rc__pos(out, d->at);
    rc__strs(out, d->bases.items, d->bases.len);
    rc__u32(out, (uint32_t)d->params.len);
    for (size_t k = 0; k < d->params.len; k++) {
      const PyParam *q = &d->params.items[k];
      rc__str(out, q->name);
      const uint32_t pn[] = {q->index, q->dflt_start, q->dflt_end, q->none_start, q->none_end, q->on_start, q->on_end,
                             q->off_default};
      for (size_t j = 0; j < 8; j++) rc__u32(out, pn[j]);
      rc__str(out, q->attr);
    }
  }
  rc__u32(out, (uint32_t)f->calls.len);
  for (size_t i = 0; i < f->calls.len; i++) {
    const PyCall *c = &f->calls.items[i];
    rc__str(out, c->callee);
    const uint32_t nums[] = {c->kind, rc__zig(c->owner), c->in_main, c->flags};
    for (size_t k = 0; k < 4; k++) rc__u32(out, nums[k]);
    rc__pos(out, c->start);
    rc__pos(out, c->end);
    rc__str(out, c->self_attr);
    rc__u32(out, c->n_pos);
    rc__str(out, c->keywords);
    rc__str(out, c->gate);
  }
  rc__u32(out, (uint32_t)f->gates.len);
  for (size_t i = 0; i < f->gates.len; i++) {
    rc__str(out, f->gates.items[i].name);
    rc__u32(out, (uint32_t)f->gates.items[i].attr | (uint32_t)f->gates.items[i].self << 1);
    rc__u32(out, f->gates.items[i].start);
    rc__u32(out, f->gates.items[i].end);
  }
  rc__u32(out, (uint32_t)f->forwards.len);
  for (size_t i = 0; i < f->forwards.len; i++) {
    rc__u32(out, f->forwards.items[i].start);
    rc__u32(out, f->forwards.items[i].end);
    rc__str(out, f->forwards.items[i].pairs);
  }
  rc__u32(out, (uint32_t)f->imports.len);
  for (size_t i = 0; i < f->imports.len; i++) {
    const PyFactImport *im = &f->imports.items[i];
    rc__str(out, im->local);
    rc__str(out, im->qualname);
    rc__str(out, im->module);
    rc__u32(out, (uint32_t)im->from_import | (uint32_t)im->guarded << 1 | (uint32_t)im->top << 2 |
                     (uint32_t)im->lazy << 3);
    rc__pos(out, im->start);
    rc__pos(out, im->end);
  }
  rc__u32(out, (uint32_t)f->refs.len);
  for (size_t i = 0; i < f->refs.len; i++) {
    rc__str(out, f->refs.items[i].name);
    rc__u32(out, rc__zig(f->refs.items[i].owner));
    rc__u32(out, rc__zig(f->refs.items[i].via));
    rc__u32(out, (uint32_t)f->refs.items[i].plain | (uint32_t)f->refs.items[i].attr << 1 |
                     (uint32_t)f->refs.items[i].keyed << 2);
  }
  rc__strs(out, f->star_imports.items, f->star_imports.len);
  rc__strs(out, f->dynamic_imports.items, f->dynamic_imports.len);
  rc__strs(out, f->all.items, f->all.len);
  rc__strs(out, f->keyed.items, f->keyed.len);
  rc__u32(out, (uint32_t)f->gated.len);
  for (size_t i = 0; i < f->gated.len; i++) {
    rc__str(out, f->gated.items[i].module);
    rc__u32(out, f->gated.items[i].at);
  }
  const uint32_t flags[] = {f->dynamic_unknown, f->has_all,    f->has_main,   f->main_start, f->main_end,
                            f->runs_calls,      f->names_cli,  f->names_eval, f->usage_doc,  f->training_call};
  for (size_t k = 0; k < 10; k++) rc__u32(out, flags[k]);
}

/* A file's reach facts (reach_facts.h); a leading 0 for none. */
static void rc__reach(StrBuf *out, const ReachFacts *f) {
  rc__u32(out, f ? 1 : 0);
  if (!f) return;
  rc__u32(out, (uint32_t)f->words.len);
  for (size_t i = 0; i < f->words.len; i++) rc__str(out, reach_facts_word(f, i));
  rc__u32(out, (uint32_t)f->defs.len);
  for (size_t i = 0; i < f->defs.len; i++) {
    rc__u32(out, f->defs.items[i].start);
    rc__u32(out, f->defs.items[i].end);
    rc__u32(out, f->defs.items[i].name);
    rc__u32(out, f->defs.items[i].binding);
  }
  rc__u32(out, (uint32_t)f->mentions.len);
  for (size_t i = 0; i < f->mentions.len; i++) {
    rc__u32(out, f->mentions.items[i].name);
    rc__u32(out, rc__zig(f->mentions.items[i].owner));
  }
  rc__u32(out, (uint32_t)f->regions.len);
  for (size_t i = 0; i < f->regions.len; i++) {
    rc__u32(out, f->regions.items[i].start);
    rc__u32(out, f->regions.items[i].end);
    rc__str(out, f->regions.items[i].why);
  }
  rc__u32(out, (uint32_t)f->caps.len);
  for (size_t i = 0; i < f->caps.len; i++) rc__u32(out, f->caps.items[i]);
  rc__u32(out, f->top_words);
}

void rc_encode(const FindingList *findings, const FileFacts *facts, StrBuf *out) {
  rc__u32(out, facts->lines); /* the header (rc_header) */
  rc__u32(out, (uint32_t)findings->len);
  for (size_t i = 0; i < findings->len; i++) rc__finding(out, &findings->items[i]);
  rc__u32(out, facts->has_main_guard);
  rc__u32(out, facts->runs_code);
  rc__u32(out, facts->test_findings);
  rc__u32(out, (uint32_t)facts->imports.len);
  for (size_t i = 0; i < facts->imports.len; i++) rc__str(out, facts->imports.items[i]);
  rc__pyfacts(out, facts->py);
  rc__reach(out, facts->reach);
  rc__u32(out, (uint32_t)facts->chains.len);
  for (size_t i = 0; i < facts->chains.len; i++) rc__finding(out, &facts->chains.items[i]);
}

/* ---- decoding ---------------------------------------------------------------- */

typedef struct {
  const unsigned char *p, *end;
  bool bad; /* set by the first read past the end or of an impossible value */
  char *arena, *arena_end; /* when set, where strings go (one block the facts own) */
} RcReader;

static uint32_t rc__get_u32(RcReader *r) {
  if (!r->bad && r->p != r->end && *r->p < 0x80) return *r->p++; /* most values: one byte */
  uint32_t v = 0;
  for (int shift = 0; !r->bad; shift += 7) {
    if (r->p == r->end || shift > 28) break;
    unsigned char b = *r->p++;
    if (shift == 28 && b > 0x0F) break; /* past 32 bits */
    v |= (uint32_t)(b & 0x7F) << shift;
    if (!(b & 0x80)) return v;
  }
  r->bad = true;
  return 0;
}

/* A heap copy of the next string (NULL for a stored NULL). */
static char *rc__get_str(RcReader *r) {
  uint32_t n = rc__get_u32(r);
  if (r->bad || n == RC_NULL) return NULL;
  if ((size_t)(r->end - r->p) < n) {
    r->bad = true;
    return NULL;
  }
  char *s;
  if (r->arena) {
    if ((size_t)(r->arena_end - r->arena) <= n) {
      r->bad = true;
      return NULL;
    }
    s = r->arena;
    memcpy(s, r->p, n);
    s[n] = '\0';
    r->arena += n + 1;
  } else {
    s = xstrndup((const char *)r->p, n);
  }
  r->p += n;
  return s;
}

/* The user row with this code and pattern, or NULL. */
static const KbEntry *rc__user_entry(const AnalyzeOptions *opt, const char *code, const char *pattern) {
  for (size_t i = 0; opt && code && pattern && i < opt->n_user_entries; i++) {
    const KbEntry *e = &opt->user_entries[i];
    if (e->code && e->pattern && strcmp(e->code, code) == 0 && strcmp(e->pattern, pattern) == 0) return e;
  }
  return NULL;
}

static const KbEntry *rc__get_entry(RcReader *r, const AnalyzeOptions *opt) {
  uint32_t kind = rc__get_u32(r);
  if (kind == RC_ENTRY_NONE) return NULL;
  if (kind == RC_ENTRY_BUILTIN || kind == RC_ENTRY_SIDE) {
    size_t n;
    const KbEntry *table = kind == RC_ENTRY_BUILTIN ? kb_entries(&n) : kb_side_entries(&n);
    uint32_t i = rc__get_u32(r);
    if (i < n) return &table[i];
  } else if (kind == RC_ENTRY_USER) {
    char *code = rc__get_str(r), *pattern = rc__get_str(r);
    const KbEntry *e = rc__user_entry(opt, code, pattern);
    free(code);
    free(pattern);
    if (e) return e;
  }
  r->bad = true;
  return NULL;
}

static bool rc__get_finding(RcReader *r, const AnalyzeOptions *opt, Finding *f) {
  memset(f, 0, sizeof *f);
  char *code = rc__get_str(r);
  f->rule = code ? context_rule(opt, code) : NULL;
  free(code);
  f->entry = rc__get_entry(r, opt);
  uint32_t nums[17];
  for (size_t i = 0; i < 17; i++) nums[i] = rc__get_u32(r);
  f->severity = (Severity)nums[0];
  f->confidence = (Confidence)nums[1];
  f->start_byte = nums[2];
  f->end_byte = nums[3];
  f->start_row = nums[4];
  f->start_col = nums[5];
  f->end_row = nums[6];
  f->end_col = nums[7];
  f->start_char = nums[8];
  f->end_char = nums[9];
  f->guarded = nums[10];
  f->transfer_covered = nums[11];
  f->inference_only = nums[12];
  f->fix = (FixSafety)nums[13];
  f->fix_needs_torch_npu = nums[14];
  f->weight = nums[15];
  f->unreachable = nums[16] != 0;
  char **strs[] = {&f->subject, &f->message, &f->message_zh, &f->replacement, &f->detail, &f->scope, &f->gate};
  for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) *strs[i] = rc__get_str(r);
  f->message = finding_text_take(f->message); /* the messages are shared text (finding.h) */
  f->message_zh = finding_text_take(f->message_zh);
  uint32_t n_edits = rc__get_u32(r);
  for (uint32_t i = 0; !r->bad && i < n_edits; i++) {
    TextEdit e;
    uint32_t en[6];
    for (size_t k = 0; k < 6; k++) en[k] = rc__get_u32(r);
    e = (TextEdit){en[0], en[1], rc__get_str(r), en[2], en[3], en[4], en[5]};
    array_push(&f->edits, e);
  }
  uint32_t n_related = rc__get_u32(r);
  for (uint32_t i = 0; !r->bad && i < n_related; i++) {
    uint32_t rn[8];
    for (size_t k = 0; k < 8; k++) rn[k] = rc__get_u32(r);
    Related rel = {rn[0], rn[1], rc__get_str(r), rn[2], rn[3], rn[4], rn[5], NULL, rn[6], rn[7]};
    rel.path = rc__get_str(r);
    if (!rel.message) r->bad = true;
    array_push(&f->related, rel);
  }
  bool ok = !r->bad && f->rule && f->message && f->message_zh && f->severity >= SEV_ERROR &&
            f->severity <= SEV_HINT && f->fix <= FIX_UNSAFE && f->confidence <= CONF_LOW;
  if (!ok) {
    r->bad = true;
    finding_free(f);
  }
  return ok;
}

static PyPos rc__get_pos(RcReader *r) {
  PyPos p;
  p.byte = rc__get_u32(r);
  p.row = rc__get_u32(r);
  p.col = rc__get_u32(r);
  p.chr = rc__get_u32(r);
  return p;
}

/* A count of items that each take at least `min` bytes: past what is left, corrupt. */
static uint32_t rc__get_count(RcReader *r, size_t min) {
  uint32_t n = rc__get_u32(r);
  if ((size_t)(r->end - r->p) / min < n) r->bad = true;
  return r->bad ? 0 : n;
}

/* Appends the next list of strings to arr (an Array(char *)). */
#define RC__GET_STRS(r, arr)                                        \
  do {                                                             \
    uint32_t n_ = rc__get_count((r), 1);                           \
    array_reserve((arr), n_);                                      \
    for (uint32_t i_ = 0; !(r)->bad && i_ < n_; i_++) {            \
      char *s_ = rc__get_str(r);                                   \
      if (s_) array_push((arr), s_);                               \
      else (r)->bad = true;                                        \
    }                                                              \
  } while (0)

/* Decodes rc__pyfacts; indexes (owners, classes) must fall inside the
 * definitions, kinds inside their enums. NULL for none or on error. */
static PyFacts *rc__get_pyfacts(RcReader *r) {
  if (!rc__get_u32(r) || r->bad) return NULL;
  uint32_t text = rc__get_u32(r);
  /* each string is at least a length byte in the encoding: its copy at most twice that */
  if (r->bad || text > 2 * (size_t)(r->end - r->p)) {
    r->bad = true;
    return NULL;
  }
  PyFacts *f = xcalloc(1, sizeof *f);
  f->arena = xmalloc(text ? text : 1);
  r->arena = f->arena;
  r->arena_end = f->arena + text;
  uint32_t n = rc__get_count(r, 11);
  array_reserve(&f->defs, n);
  for (uint32_t i = 0; !r->bad && i < n; i++) {
    PyDef d = {0};
    d.name = rc__get_str(r);
    uint32_t nums[5];
    for (size_t k = 0; k < 5; k++) nums[k] = rc__get_u32(r);
    d.kind = (PyDefKind)nums[0];
    d.cls = rc__unzig(nums[1]);
    d.start = nums[2];
    d.end = nums[3];
    d.decorated = nums[4] != 0;
    d.at = rc__get_pos(r);
    RC__GET_STRS(r, &d.bases);
    uint32_t np = rc__get_count(r, 8);
    for (uint32_t k = 0; !r->bad && k < np; k++) {
      PyParam q = {0};
      q.name = rc__get_str(r);
      uint32_t pn[8];
      for (size_t j = 0; j < 8; j++) pn[j] = rc__get_u32(r);
      q.index = pn[0];
      q.dflt_start = pn[1];
      q.dflt_end = pn[2];
      q.none_start = pn[3];
      q.none_end = pn[4];
      q.on_start = pn[5];
      q.on_end = pn[6];
      q.off_default = pn[7] != 0;
      q.attr = rc__get_str(r);
      if (!q.name) r->bad = true;
      array_push(&d.params, q);
    }
    if (!d.name || nums[0] > PYDEF_METHOD || d.cls < -1 || d.cls >= (int32_t)i) r->bad = true;
    array_push(&f->defs, d);
  }
  n = rc__get_count(r, 14);
  array_reserve(&f->calls, n);
  for (uint32_t i = 0; !r->bad && i < n; i++) {
    PyCall c = {0};
    c.callee = rc__get_str(r);
    uint32_t nums[4];
    for (size_t k = 0; k < 4; k++) nums[k] = rc__get_u32(r);
    c.kind = (PyCallKind)nums[0];
    c.owner = rc__unzig(nums[1]);
    c.in_main = nums[2] != 0;
    c.flags = nums[3];
    c.start = rc__get_pos(r);
    c.end = rc__get_pos(r);
    c.self_attr = rc__get_str(r);
    c.n_pos = rc__get_u32(r);
    c.keywords = rc__get_str(r);
    c.gate = rc__get_str(r);
    if (!c.callee || nums[0] > PYCALL_MEMBER || c.owner < -1 || c.owner >= (int32_t)f->defs.len) r->bad = true;
    array_push(&f->calls, c);
  }
  n = rc__get_count(r, 4);
  array_reserve(&f->gates, n);
  for (uint32_t i = 0; !r->bad && i < n; i++) {
    PyGate g = {0};
    g.name = rc__get_str(r);
    uint32_t bits = rc__get_u32(r);
    g.attr = bits & 1;
    g.self = (bits >> 1) & 1;
    g.start = rc__get_u32(r);
    g.end = rc__get_u32(r);
    if (!g.name) r->bad = true;
    array_push(&f->gates, g);
  }
  n = rc__get_count(r, 3);
  array_reserve(&f->forwards, n);
  for (uint32_t i = 0; !r->bad && i < n; i++) {
    PyForward w = {0};
    w.start = rc__get_u32(r);
    w.end = rc__get_u32(r);
    w.pairs = rc__get_str(r);
    if (!w.pairs) r->bad = true;
    array_push(&f->forwards, w);
  }
  n = rc__get_count(r, 12);
  array_reserve(&f->imports, n);
  for (uint32_t i = 0; !r->bad && i < n; i++) {
    PyFactImport im = {0};
    im.local = rc__get_str(r);
    im.qualname = rc__get_str(r);
    im.module = rc__get_str(r);
    uint32_t fl = rc__get_u32(r);
    im.from_import = fl & 1;
    im.guarded = (fl >> 1) & 1;
    im.top = (fl >> 2) & 1;
    im.lazy = (fl >> 3) & 1;
    im.start = rc__get_pos(r);
    im.end = rc__get_pos(r);
    if (!im.local || !im.qualname || !im.module) r->bad = true;
    array_push(&f->imports, im);
  }
  n = rc__get_count(r, 2);
  array_reserve(&f->refs, n);
  for (uint32_t i = 0; !r->bad && i < n; i++) {
    PyRef ref;
    ref.name = rc__get_str(r);
    ref.owner = rc__unzig(rc__get_u32(r));
    ref.via = rc__unzig(rc__get_u32(r));
    uint32_t bits = rc__get_u32(r);
    ref.plain = bits & 1;
    ref.attr = (bits >> 1) & 1;
    ref.keyed = (bits >> 2) & 1;
    int32_t via_at = ref.via <= -2 ? -2 - ref.via : ref.via;
    if (!ref.name || ref.owner < PYREF_MAIN || ref.owner >= (int32_t)f->defs.len || via_at >= (int32_t)f->imports.len)
      r->bad = true;
    array_push(&f->refs, ref);
  }
  RC__GET_STRS(r, &f->star_imports);
  RC__GET_STRS(r, &f->dynamic_imports);
  RC__GET_STRS(r, &f->all);
  RC__GET_STRS(r, &f->keyed);
  n = rc__get_count(r, 2);
  array_reserve(&f->gated, n);
  for (uint32_t i = 0; !r->bad && i < n; i++) {
    PyGatedImport g = {rc__get_str(r), 0};
    g.at = rc__get_u32(r);
    if (!g.module) r->bad = true;
    array_push(&f->gated, g);
  }
  uint32_t flags[10];
  for (size_t k = 0; k < 10; k++) flags[k] = rc__get_u32(r);
  f->dynamic_unknown = flags[0];
  f->has_all = flags[1];
  f->has_main = flags[2];
  f->main_start = flags[3];
  f->main_end = flags[4];
  f->runs_calls = flags[5] != 0;
  f->names_cli = flags[6] != 0;
  f->names_eval = flags[7] != 0;
  f->usage_doc = flags[8] != 0;
  f->training_call = flags[9] != 0;
  r->arena = r->arena_end = NULL; /* the strings after the facts are their owners' own */
  if (r->bad) {
    pyfacts_free(f);
    return NULL;
  }
  return f;
}

/* Decodes rc__reach; every name index must fall inside the words, every
 * owner inside the definitions. NULL for none or on error. */
static ReachFacts *rc__get_reach(RcReader *r) {
  if (!rc__get_u32(r) || r->bad) return NULL;
  ReachFacts *f = xcalloc(1, sizeof *f);
  uint32_t n = rc__get_count(r, 1);
  array_reserve(&f->words, n);
  for (uint32_t i = 0; !r->bad && i < n; i++) { /* each name straight into the facts' text */
    uint32_t len = rc__get_u32(r);
    if (r->bad || len == RC_NULL || (size_t)(r->end - r->p) < len || memchr(r->p, '\0', len)) {
      r->bad = true;
      break;
    }
    reach_facts_add_word(f, (const char *)r->p, len);
    r->p += len;
  }
  n = rc__get_count(r, 4);
  array_reserve(&f->defs, n);
  for (uint32_t i = 0; !r->bad && i < n; i++) {
    ReachFactDef d; /* one read per statement: an initializer list's order is unspecified */
    d.start = rc__get_u32(r);
    d.end = rc__get_u32(r);
    d.name = rc__get_u32(r);
    d.binding = rc__get_u32(r) != 0;
    if (d.name >= f->words.len || d.start > d.end) r->bad = true;
    array_push(&f->defs, d);
  }
  n = rc__get_count(r, 2);
  array_reserve(&f->mentions, n);
  for (uint32_t i = 0; !r->bad && i < n; i++) {
    ReachFactMention m;
    m.name = rc__get_u32(r);
    m.owner = rc__unzig(rc__get_u32(r));
    if (m.name >= f->words.len || m.owner < -1 || m.owner >= (int32_t)f->defs.len) r->bad = true;
    array_push(&f->mentions, m);
  }
  n = rc__get_count(r, 3);
  for (uint32_t i = 0; !r->bad && i < n; i++) {
    ReachFactRegion g;
    g.start = rc__get_u32(r);
    g.end = rc__get_u32(r);
    g.why = rc__get_str(r);
    if (!g.why || g.start > g.end) r->bad = true;
    array_push(&f->regions, g);
  }
  n = rc__get_count(r, 1);
  for (uint32_t i = 0; !r->bad && i < n; i++) {
    uint32_t c = rc__get_u32(r);
    if (c >= f->words.len) r->bad = true;
    array_push(&f->caps, c);
  }
  f->top_words = rc__get_u32(r) != 0;
  if (r->bad) {
    reach_facts_free(f);
    return NULL;
  }
  return f;
}

int rc_decode_next(const char **data, size_t *left, const AnalyzeOptions *opt, FindingList *findings,
                   FileFacts *facts) {
  size_t len = *left;
  RcReader r = {(const unsigned char *)*data, (const unsigned char *)*data + len, false, NULL, NULL};
  FindingList fl = {0};
  FileFacts ff = {0};
  ff.lines = rc__get_u32(&r);
  uint32_t n = rc__get_u32(&r);
  /* every finding takes more than 24 bytes: a count past that is corrupt */
  if (n > len / 24) r.bad = true;
  for (uint32_t i = 0; !r.bad && i < n; i++) {
    Finding f;
    if (rc__get_finding(&r, opt, &f)) array_push(&fl, f);
  }
  ff.has_main_guard = rc__get_u32(&r);
  ff.runs_code = rc__get_u32(&r);
  ff.test_findings = rc__get_u32(&r);
  uint32_t n_imports = rc__get_u32(&r);
  if (n_imports > len) r.bad = true;
  for (uint32_t i = 0; !r.bad && i < n_imports; i++) {
    char *s = rc__get_str(&r);
    if (s) array_push(&ff.imports, s);
    else r.bad = true;
  }
  ff.py = rc__get_pyfacts(&r);
  ff.reach = rc__get_reach(&r);
  uint32_t n_chains = rc__get_u32(&r);
  if (n_chains > len / 24) r.bad = true;
  for (uint32_t i = 0; !r.bad && i < n_chains; i++) {
    Finding f;
    if (rc__get_finding(&r, opt, &f)) array_push(&ff.chains, f);
  }
  if (r.bad) {
    findings_free(&fl);
    analyze_facts_free(&ff);
    return -EINVAL;
  }
  *findings = fl;
  *facts = ff;
  *left = (size_t)(r.end - r.p);
  *data = (const char *)r.p;
  return 0;
}

size_t rc_header(const char *data, size_t len, uint32_t *lines) {
  RcReader r = {(const unsigned char *)data, (const unsigned char *)data + len, false, NULL, NULL};
  *lines = rc__get_u32(&r);
  return r.bad ? 0 : (size_t)(r.p - (const unsigned char *)data);
}

int rc_decode(const char *data, size_t len, const AnalyzeOptions *opt, FindingList *findings,
              FileFacts *facts) {
  int rc = rc_decode_next(&data, &len, opt, findings, facts);
  if (rc == 0 && len != 0) { /* more than one whole encoding */
    findings_free(findings);
    analyze_facts_free(facts);
    memset(findings, 0, sizeof *findings);
    memset(facts, 0, sizeof *facts);
    rc = -EINVAL;
  }
  return rc;
}
