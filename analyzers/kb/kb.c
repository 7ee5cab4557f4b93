/* kb: the knowledge base tables (see kb.h). Facts and their sources are in
 * the project's KNOWLEDGE notes; each row's confidence follows them:
 * High = official source or docs, Medium = docs and code disagree or an
 * official sample, Low = community material or inference. */
#include "analyzers/kb/kb.h"

#include <pthread.h>
#include <stdlib.h>


/* ---------------------------------------------------------------------------
 * The tables, assembled from one data file per domain (analyzers/kb/kb_*.def).
 * Each file holds its rule rows under KB_RULE_ROWS and its mapping rows under
 * KB_ENTRY_ROWS; rows that must come after every other row (catch-all globs)
 * sit under KB_FALLBACK_ROWS. */
#define KB_DOMAIN_FILES "analyzers/kb/kb_files.h"

static const KbRule kb__rules[] = {
#define KB_RULE_ROWS
#include KB_DOMAIN_FILES
#undef KB_RULE_ROWS
};

static const KbEntry kb__entries[] = {
#define KB_ENTRY_ROWS
#include KB_DOMAIN_FILES
#undef KB_ENTRY_ROWS
#define KB_FALLBACK_ROWS
#include KB_DOMAIN_FILES
#undef KB_FALLBACK_ROWS
};

/* Rows kept out of kb_lookup: matched by their own readers (deps.c). */
static const KbEntry kb__side_entries[] = {
#define NO_FIX KBFIX_NONE, FIX_NONE, NULL, NULL
#define KB_DEPS_DETECTOR_ROWS
#include "analyzers/kb/kb_deps.def"
#undef KB_DEPS_DETECTOR_ROWS
#undef NO_FIX
};

const KbEntry *kb_side_entries(size_t *count) {
  *count = sizeof kb__side_entries / sizeof kb__side_entries[0];
  return kb__side_entries;
}

const KbRule *kb_rules(size_t *count) {
  *count = sizeof kb__rules / sizeof kb__rules[0];
  return kb__rules;
}

const KbEntry *kb_entries(size_t *count) {
  *count = sizeof kb__entries / sizeof kb__entries[0];
  return kb__entries;
}

const KbRule *kb_rule(const char *code) {
  size_t n;
  const KbRule *r = kb_rules(&n);
  for (size_t i = 0; i < n; i++)
    if (strcmp(r[i].code, code) == 0) return &r[i];
  return NULL;
}

const KbEntry *kb_lookup_passed(const char *qualname, const char *callee, const KbEntry *user, size_t n_user) {
  for (size_t i = 0; i < n_user; i++)
    if (user[i].match == KB_PASSED_TO && user[i].arg && kb_pattern_match(user[i].pattern, qualname) &&
        kb_pattern_match(user[i].arg, callee))
      return &user[i];
  size_t n;
  const KbEntry *e = kb_entries(&n);
  for (size_t i = 0; i < n; i++) /* a handful of rows: a scan */
    if (e[i].match == KB_PASSED_TO && e[i].arg && kb_pattern_match(e[i].pattern, qualname) &&
        kb_pattern_match(e[i].arg, callee))
      return &e[i];
  return NULL;
}

bool kb_entry_is_library(const KbEntry *e) {
  return e && e->fix_kind == KBFIX_NONE && e->pattern && strchr(e->pattern, '*') &&
         strncmp(e->pattern, "torch.", 6) != 0;
}

int kb_domain(const char *code) {
  if (!code || strncmp(code, "ASC", 3) != 0 || code[3] < '0' || code[3] > '9') return 0;
  return code[3] - '0';
}

static const struct {
  const char *en, *zh;
} kb__texts[] = {
#define KB_TEXT(id, en, zh) {en, zh},
#include "analyzers/kb/kb_report.def"
#undef KB_TEXT
};

const char *kb_text(KbText id, bool zh) {
  if ((unsigned)id >= KBT__COUNT) return "";
  return zh ? kb__texts[id].zh : kb__texts[id].en;
}

const char *kb_domain_name(int domain, bool zh) {
  static const char *const en[] = {"Meta", "Third-Party Dependencies", "Device Layer", "Attention Mechanism",
                                   "Custom Operators", "Distributed Communication", "Precision Strategy",
                                   "Compilation and Graphs", "Project Model"};
  static const char *const cn[] = {"元规则", "第三方依赖", "设备层", "注意力机制", "自定义算子", "分布式通信",
                                   "精度策略", "编译与图模式", "项目模型"};
  if (domain < 0 || domain > 8) return zh ? "其他" : "Other";
  return zh ? cn[domain] : en[domain];
}

/* Exact-name index over the alternatives of every non-glob pattern, built
 * once (thread-safe through pthread_once); globs are scanned in table order. */
typedef struct {
  const char *name; /* points into kb__names */
  size_t len;
  unsigned match;
  size_t entry;
} KbIndexItem;

static KbIndexItem *kb__index;
static size_t kb__index_len;
static size_t *kb__globs;
static size_t kb__globs_len;
/* Per glob row (kb__globs order): its literal starts (kb_starts_add). A
 * name that starts with none of them cannot match the row, so most lookups,
 * which match nothing, skip each row after a few byte comparisons. Built
 * once. */
static KbStart *kb__prefixes;
static size_t *kb__prefix_from; /* kb__globs_len + 1 offsets into kb__prefixes */
static pthread_once_t kb__once = PTHREAD_ONCE_INIT;

static int kb__index_cmp(const void *a, const void *b) {
  const KbIndexItem *x = a, *y = b;
  if (x->match != y->match) return x->match < y->match ? -1 : 1;
  size_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(x->name, y->name, n);
  if (c) return c;
  if (x->len != y->len) return x->len < y->len ? -1 : 1;
  return x->entry < y->entry ? -1 : x->entry > y->entry;
}

static void kb__index_build(void) {
  size_t n;
  const KbEntry *e = kb_entries(&n);
  Array(KbIndexItem) idx = {0};
  Array(size_t) globs = {0};
  for (size_t i = 0; i < n; i++) {
    bool has_glob = false;
    for (const char *p = e[i].pattern; p && *p;) {
      const char *bar = strchr(p, '|');
      size_t len = bar ? (size_t)(bar - p) : strlen(p);
      if (memchr(p, '*', len) || memchr(p, '?', len)) {
        has_glob = true;
      } else {
        KbIndexItem it = {p, len, (unsigned)e[i].match, i};
        array_push(&idx, it);
      }
      p = bar ? bar + 1 : p + len;
    }
    if (has_glob) array_push(&globs, i);
  }
  qsort(idx.items, idx.len, sizeof *idx.items, kb__index_cmp);
  kb__index = idx.items;
  kb__index_len = idx.len;
  kb__globs = globs.items;
  kb__globs_len = globs.len;
  KbStarts pre = {0};
  kb__prefix_from = xmalloc((globs.len + 1) * sizeof *kb__prefix_from);
  for (size_t g = 0; g < globs.len; g++) {
    kb__prefix_from[g] = pre.len;
    kb_starts_add(e[globs.items[g]].pattern, &pre);
  }
  kb__prefix_from[globs.len] = pre.len;
  kb__prefixes = pre.items;
}

void kb_starts_add(const char *pattern, KbStarts *out) {
  const char *w;
  size_t n;
  for (const char *alts = pattern; util_alt_next(&alts, &w, &n);) {
    size_t lit = 0;
    while (lit < n && w[lit] != '*' && w[lit] != '?') lit++;
    if (*w != '!') array_push(out, ((KbStart){w, lit}));
  }
}

bool kb_starts_admit(const KbStart *starts, size_t n, const char *s) {
  for (size_t i = 0; i < n; i++)
    if (starts[i].len == 0 || (s[0] == starts[i].at[0] && strncmp(s, starts[i].at, starts[i].len) == 0)) return true;
  return false;
}

/* Whether glob row g can match s. */
static bool kb__may_match(size_t g, const char *s) {
  return kb_starts_admit(kb__prefixes + kb__prefix_from[g], kb__prefix_from[g + 1] - kb__prefix_from[g], s);
}

static const KbEntry *kb__exact(KbMatch m, const char *s) {
  size_t n;
  const KbEntry *e = kb_entries(&n);
  KbIndexItem key = {s, strlen(s), (unsigned)m, 0};
  size_t lo = 0, hi = kb__index_len;
  while (lo < hi) { /* lower bound: first item >= key (entry 0) */
    size_t mid = (lo + hi) / 2;
    if (kb__index_cmp(&kb__index[mid], &key) < 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo < kb__index_len && kb__index[lo].match == (unsigned)m && kb__index[lo].len == key.len &&
      memcmp(kb__index[lo].name, s, key.len) == 0)
    return &e[kb__index[lo].entry];
  return NULL;
}

const KbEntry *kb_lookup(KbMatch m, const char *s, const KbEntry *user, size_t n_user) {
  pthread_once(&kb__once, kb__index_build);
  for (size_t i = 0; i < n_user; i++)
    if (user[i].match == m && kb_pattern_match(user[i].pattern, s)) return &user[i];
  const KbEntry *hit = kb__exact(m, s);
  if (hit) return hit;
  size_t n;
  const KbEntry *e = kb_entries(&n);
  for (size_t i = 0; i < kb__globs_len; i++) {
    const KbEntry *g = &e[kb__globs[i]];
    if (g->match == m && kb__may_match(i, s) && kb_pattern_match(g->pattern, s)) return g;
  }
  return NULL;
}

bool kb_pattern_match_memo(KbMatchMemo *m, const char *pattern, const char *s) {
  if (!m) return kb_pattern_match(pattern, s);
  uintptr_t h = ((uintptr_t)pattern * 31u) ^ ((uintptr_t)s >> 3);
  size_t i = (size_t)((h * 0x9e3779b97f4a7c15ull) >> 54); /* 0..1023 */
  if (m->slots[i].pattern == pattern && m->slots[i].s == s && pattern) return m->slots[i].hit;
  bool hit = kb_pattern_match(pattern, s);
  m->slots[i].pattern = pattern;
  m->slots[i].s = s;
  m->slots[i].hit = hit;
  return hit;
}

bool kb_pattern_match(const char *pattern, const char *s) {
  bool hit = false;
  for (const char *p = pattern; p && *p;) {
    const char *bar = strchr(p, '|');
    size_t n = bar ? (size_t)(bar - p) : strlen(p);
    bool neg = *p == '!';
    /* an alternative of 256 bytes or more never matches (patterns are short names) */
    if (n - neg < 256 && (neg || !hit) && util_glob_n(p + neg, n - neg, s)) {
      if (neg) return false;
      hit = true;
    }
    p = bar ? bar + 1 : NULL;
  }
  return hit;
}

static const KbTemplate kb__templates[] = {
#define KB_TEMPLATE_ROWS
#include KB_DOMAIN_FILES
#undef KB_TEMPLATE_ROWS
};

#define KB__N_TEMPLATES (sizeof kb__templates / sizeof kb__templates[0])

/* Template indexes sorted by name, built once: analyzers look names up on
 * hot paths (every condition, every call). */
static size_t kb__template_order[KB__N_TEMPLATES];
static pthread_once_t kb__template_once = PTHREAD_ONCE_INIT;

static int kb__template_cmp(const void *a, const void *b) {
  return strcmp(kb__templates[*(const size_t *)a].name, kb__templates[*(const size_t *)b].name);
}

static void kb__template_index(void) {
  for (size_t i = 0; i < KB__N_TEMPLATES; i++) kb__template_order[i] = i;
  qsort(kb__template_order, KB__N_TEMPLATES, sizeof *kb__template_order, kb__template_cmp);
}

const char *kb_template(const char *name) {
  pthread_once(&kb__template_once, kb__template_index);
  size_t lo = 0, hi = KB__N_TEMPLATES;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(kb__templates[kb__template_order[mid]].name, name);
    if (c == 0) return kb__templates[kb__template_order[mid]].text;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

/* The var a hole at p ("{name}...") names, or NULL; *len is the hole's length. */
static const KbVar *kb__hole(const char *p, const KbVar *vars, size_t n, size_t *len) {
  const char *close = strchr(p + 1, '}');
  if (!close) return NULL;
  size_t k = (size_t)(close - p - 1);
  for (size_t i = 0; i < n; i++)
    if (strlen(vars[i].name) == k && memcmp(vars[i].name, p + 1, k) == 0) {
      *len = k + 2;
      return &vars[i];
    }
  return NULL;
}

char *kb_expand(const char *tmpl, const KbVar *vars, size_t n) {
  StrBuf sb;
  sb_init(&sb);
  for (const char *p = tmpl; *p;) {
    size_t len = 0;
    const KbVar *v = *p == '{' ? kb__hole(p, vars, n, &len) : NULL;
    if (v) {
      sb_puts(&sb, v->value ? v->value : "");
      p += len;
    } else {
      sb_putc(&sb, *p++);
    }
  }
  return sb_steal(&sb);
}

char *kb_render(const char *name, const KbVar *vars, size_t n) {
  const char *t = kb_template(name);
  return kb_expand(t ? t : "", vars, n);
}

char *kb_format(const char *tmpl, const char *subject, const char *replacement) {
  const KbVar vars[] = {{"subject", subject}, {"replacement", replacement}};
  return kb_expand(tmpl, vars, 2);
}

void kb_append_note(Finding *f, const KbEntry *row, const char *subject, const char *replacement) {
  char *en = kb_format(row->msg_en, subject, replacement), *zh = kb_format(row->msg_zh, subject, replacement);
  finding_append_note(f, en, zh);
  free(en);
  free(zh);
}

void kb_set_replacement(Finding *f, const char *replacement) {
  free(f->replacement);
  finding_text_unref(f->message);
  finding_text_unref(f->message_zh);
  f->replacement = xstrdup(replacement);
  const char *en = f->entry && f->entry->msg_en ? f->entry->msg_en : f->rule->msg_en;
  const char *zh = f->entry && f->entry->msg_zh ? f->entry->msg_zh : f->rule->msg_zh;
  f->message = finding_text_take(kb_format(en, f->subject, f->replacement));
  f->message_zh = finding_text_take(kb_format(zh, f->subject, f->replacement));
}

/* Whether a finding of (rule, entry, subject, replacement) has prev's messages. */
static bool kb__same_text(const Finding *prev, const KbRule *rule, const KbEntry *entry, const char *subject,
                          const char *replacement) {
  if (prev->rule != rule || prev->entry != entry || !prev->subject || strcmp(prev->subject, subject) != 0) return false;
  if (!prev->replacement || !replacement) return !prev->replacement && !replacement;
  return strcmp(prev->replacement, replacement) == 0;
}

Finding *kb_emit(FindingList *out, const KbRule *rule, const KbEntry *entry, const char *subject,
                 const char *replacement, uint32_t start_byte, uint32_t end_byte, uint32_t start_row,
                 uint32_t start_col, uint32_t end_row, uint32_t end_col) {
  Finding f;
  memset(&f, 0, sizeof f);
  f.rule = rule;
  f.entry = entry;
  f.severity = rule->severity;
  f.confidence = entry ? entry->confidence : CONF_HIGH;
  f.start_byte = start_byte;
  f.end_byte = end_byte;
  f.start_row = start_row;
  f.start_col = start_col;
  f.end_row = end_row;
  f.end_col = end_col;
  if (!replacement && entry) replacement = entry->replacement;
  f.subject = xstrdup(subject ? subject : "");
  f.replacement = replacement ? xstrdup(replacement) : NULL;
  const char *en = entry && entry->msg_en ? entry->msg_en : rule->msg_en;
  const char *zh = entry && entry->msg_zh ? entry->msg_zh : rule->msg_zh;
  const Finding *prev = out->len ? &out->items[out->len - 1] : NULL;
  if (prev && kb__same_text(prev, rule, entry, f.subject, f.replacement)) { /* the same construct again: one text */
    f.message = finding_text_ref(prev->message);
    f.message_zh = finding_text_ref(prev->message_zh);
  } else {
    f.message = finding_text_take(kb_format(en, f.subject, f.replacement));
    f.message_zh = finding_text_take(kb_format(zh, f.subject, f.replacement));
  }
  array_push(out, f);
  return &out->items[out->len - 1];
}

void kb_restate(Finding *f, const char *subject, const char *replacement) {
  if (subject) {
    free(f->subject);
    f->subject = xstrdup(subject);
  }
  if (replacement) {
    free(f->replacement);
    f->replacement = xstrdup(replacement);
  }
  finding_text_unref(f->message);
  finding_text_unref(f->message_zh);
  const char *en = f->entry && f->entry->msg_en ? f->entry->msg_en : f->rule->msg_en;
  const char *zh = f->entry && f->entry->msg_zh ? f->entry->msg_zh : f->rule->msg_zh;
  f->message = finding_text_take(kb_format(en, f->subject, f->replacement));
  f->message_zh = finding_text_take(kb_format(zh, f->subject, f->replacement));
}
