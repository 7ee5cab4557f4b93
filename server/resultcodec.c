/* resultcodec: see resultcodec.h. Little-endian fixed-width integers;
 * strings as a u32 length (RC_NULL for NULL) and their bytes. */
#include "server/resultcodec.h"

#include <errno.h>
#include <stdlib.h>

#define RC_NULL 0xFFFFFFFFu
enum { RC_ENTRY_NONE = 0, RC_ENTRY_BUILTIN = 1, RC_ENTRY_USER = 2, RC_ENTRY_SIDE = 3 };

/* ---- encoding ---------------------------------------------------------------- */

static void rc__u32(StrBuf *out, uint32_t v) {
  unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                        (unsigned char)(v >> 24)};
  sb_append(out, (const char *)b, 4);
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
                           f->inference_only, f->fix,  f->fix_needs_torch_npu,       f->weight};
  for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) rc__u32(out, nums[i]);
  const char *strs[] = {f->subject, f->message, f->message_zh, f->replacement, f->detail};
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
    const uint32_t rn[] = {r->start, r->end, r->start_row, r->start_char, r->end_row, r->end_char};
    for (size_t k = 0; k < 6; k++) rc__u32(out, rn[k]);
    rc__str(out, r->message);
  }
}

void rc_encode(const FindingList *findings, const FileFacts *facts, StrBuf *out) {
  rc__u32(out, (uint32_t)findings->len);
  for (size_t i = 0; i < findings->len; i++) rc__finding(out, &findings->items[i]);
  rc__u32(out, facts->has_main_guard);
  rc__u32(out, facts->lines);
  rc__u32(out, facts->test_findings);
  rc__u32(out, (uint32_t)facts->imports.len);
  for (size_t i = 0; i < facts->imports.len; i++) rc__str(out, facts->imports.items[i]);
}

/* ---- decoding ---------------------------------------------------------------- */

typedef struct {
  const unsigned char *p, *end;
  bool bad; /* set by the first read past the end or of an impossible value */
} RcReader;

static uint32_t rc__get_u32(RcReader *r) {
  if (r->bad || r->end - r->p < 4) {
    r->bad = true;
    return 0;
  }
  uint32_t v = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 | (uint32_t)r->p[3] << 24;
  r->p += 4;
  return v;
}

/* A heap copy of the next string (NULL for a stored NULL). */
static char *rc__get_str(RcReader *r) {
  uint32_t n = rc__get_u32(r);
  if (r->bad || n == RC_NULL) return NULL;
  if ((size_t)(r->end - r->p) < n) {
    r->bad = true;
    return NULL;
  }
  char *s = xstrndup((const char *)r->p, n);
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
  f->rule = code ? analyze_rule(opt, code) : NULL;
  free(code);
  f->entry = rc__get_entry(r, opt);
  uint32_t nums[16];
  for (size_t i = 0; i < 16; i++) nums[i] = rc__get_u32(r);
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
  char **strs[] = {&f->subject, &f->message, &f->message_zh, &f->replacement, &f->detail};
  for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) *strs[i] = rc__get_str(r);
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
    uint32_t rn[6];
    for (size_t k = 0; k < 6; k++) rn[k] = rc__get_u32(r);
    Related rel = {rn[0], rn[1], rc__get_str(r), rn[2], rn[3], rn[4], rn[5]};
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

int rc_decode(const char *data, size_t len, const AnalyzeOptions *opt, FindingList *findings,
              FileFacts *facts) {
  RcReader r = {(const unsigned char *)data, (const unsigned char *)data + len, false};
  FindingList fl = {0};
  FileFacts ff = {0};
  uint32_t n = rc__get_u32(&r);
  /* every finding takes more than 64 bytes: a count past that is corrupt */
  if (n > len / 64) r.bad = true;
  for (uint32_t i = 0; !r.bad && i < n; i++) {
    Finding f;
    if (rc__get_finding(&r, opt, &f)) array_push(&fl, f);
  }
  ff.has_main_guard = rc__get_u32(&r);
  ff.lines = rc__get_u32(&r);
  ff.test_findings = rc__get_u32(&r);
  uint32_t n_imports = rc__get_u32(&r);
  if (n_imports > len / 4) r.bad = true;
  for (uint32_t i = 0; !r.bad && i < n_imports; i++) {
    char *s = rc__get_str(&r);
    if (s) array_push(&ff.imports, s);
    else r.bad = true;
  }
  if (r.bad || r.p != r.end) {
    findings_free(&fl);
    analyze_facts_free(&ff);
    return -EINVAL;
  }
  *findings = fl;
  *facts = ff;
  return 0;
}
