#include "analyzers/engine/forest.h"

#include <string.h>

#include "analyzers/engine/analyze.h"
#include "analyzers/engine/arena.h"
#include "analyzers/python/pysplit.h"

void forest_init(Forest *f, FileKind kind) {
  memset(f, 0, sizeof *f);
  f->kind = kind;
  f->split = kind == FILE_PYTHON;
}

static void forest__drop(ForestMember *m) {
  if (m->tree) ts_tree_delete(m->tree);
  m->tree = NULL;
}

static void forest__clear(Forest *f) {
  for (size_t i = 0; i < f->members.len; i++) forest__drop(&f->members.items[i]);
  f->members.len = 0;
}

void forest_free(Forest *f) {
  forest__clear(f);
  array_free(&f->members);
}

/* The last member starting at or before byte x (0 when none does). */
static size_t forest__find(const Forest *f, uint32_t x) {
  size_t lo = 0, hi = f->members.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (f->members.items[mid].start <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo ? lo - 1 : 0;
}

/* Every member of the text, from scratch. */
static void forest__split_all(Forest *f, const char *text, size_t len) {
  if (!f->split) {
    ForestMember m = {0, (uint32_t)len, 0, NULL, false, false, 0};
    array_push(&f->members, m);
    return;
  }
  uint32_t row = 0;
  size_t p = 0;
  do {
    size_t q = pysplit_next(text, len, p);
    ForestMember m = {(uint32_t)p, (uint32_t)q, row, NULL, false, false, 0};
    array_push(&f->members, m);
    row += pysplit_rows(text, len, p, q);
    p = q;
  } while (p < len);
}

/* Member i's included range: its bytes, from column 0 of its first row to
 * column 0 of the next member's (the last one runs to the end). */
static TSRange forest__range(const Forest *f, size_t i) {
  const ForestMember *m = &f->members.items[i];
  TSRange r = {{m->row, 0}, {UINT32_MAX, UINT32_MAX}, m->start, UINT32_MAX};
  if (i + 1 < f->members.len) {
    r.end_point = (TSPoint){f->members.items[i + 1].row, 0};
    r.end_byte = m->end;
  }
  return r;
}

/* One statement, parsed from scratch. The tree-sitter 0.20 runtime takes
 * a range that does not start at byte 0 for the rest of an earlier parse,
 * so it never reuses an old tree there, and after such a parse with an old
 * tree the next one could recover from errors differently: no old tree is
 * given, and the parser's language is set again before each statement. */
static TSTree *forest__parse_member(const Forest *f, size_t i, TSParser *p, TSLanguage *lang, const char *text,
                                    size_t len, bool cr) {
  ts_parser_set_language(p, NULL);
  ts_parser_set_language(p, lang);
  TSRange r = forest__range(f, i);
  ts_parser_set_included_ranges(p, &r, 1);
  TSTree *t = analyze_parse_as(p, NULL, text, len, cr);
  return t;
}

bool forest_parse(Forest *f, TSParser *parser, const char *text, size_t len) {
  TSLanguage *lang = analyze_language(f->kind);
  if (!lang || len > UINT32_MAX / 2) {
    forest__clear(f);
    return false;
  }
  ts_parser_set_language(parser, lang);
  if (!f->members.len) forest__split_all(f, text, len);
  bool ok = true, cr = analyze_has_lone_cr(text, len);
  for (size_t i = 0; ok && i < f->members.len; i++) {
    ForestMember *m = &f->members.items[i];
    m->fresh = false;
    if (m->tree && !m->edited) continue;
    TSTree *t = f->split ? forest__parse_member(f, i, parser, lang, text, len, cr)
                         : analyze_parse_as(parser, m->tree, text, len, cr); /* one tree: re-parsed incrementally */
    ok = t != NULL;
    forest__drop(m);
    m->tree = t;
    m->edited = false;
    m->fresh = true;
    m->hash = 0;
  }
  if (f->split) ts_parser_set_included_ranges(parser, NULL, 0);
  if (!ok) forest__clear(f);
  return ok;
}

uint64_t forest_member_hash(const ForestMember *m, const char *text) {
  if (m->hash) return m->hash;
  uint64_t h = util_fnv(UTIL_FNV_SEED, text + m->start, m->end - m->start);
  /* a statement with a syntax error can recover differently at another
   * place (forest__shift): what was read from its tree holds where it is */
  if (m->tree && ts_node_has_error(ts_tree_root_node(m->tree))) {
    uint32_t at[2] = {m->start, m->row};
    h = util_fnv(h, at, sizeof at);
  }
  return h ? h : 1;
}

void forest_hash(Forest *f, const char *text) {
  for (size_t i = 0; i < f->members.len; i++)
    if (!f->members.items[i].hash) f->members.items[i].hash = forest_member_hash(&f->members.items[i], text);
}

/* Members moved by an edit that ends at or before their start. A tree
 * with a syntax error is parsed again where it lands: tree-sitter weighs
 * error recoveries by the bytes and lines they skip, counted from the
 * start of the file, so the same statement with an error can recover
 * differently at another place (a fresh parse of the text must agree). */
static void forest__shift(Forest *f, size_t from, const TSInputEdit *e) {
  int64_t delta = (int64_t)e->new_end_byte - (int64_t)e->old_end_byte;
  int64_t drow = (int64_t)e->new_end_point.row - (int64_t)e->old_end_point.row;
  if (!delta && !drow) return;
  for (size_t i = from; i < f->members.len; i++) {
    ForestMember *m = &f->members.items[i];
    m->start = (uint32_t)(m->start + delta);
    m->end = (uint32_t)(m->end + delta);
    m->row = (uint32_t)(m->row + drow);
    if (m->tree && ts_node_has_error(ts_tree_root_node(m->tree))) forest__drop(m);
    if (m->tree) ts_tree_edit(m->tree, e);
  }
}

typedef Array(ForestMember) ForestMembers;

/* The bytes of a line that decide whether it starts a statement: the
 * longest keyword pysplit looks at ("finally") and the byte after it. */
#define FOREST__KEYWORD_ZONE 8

/* The text split again from member a's start to the first boundary at or
 * after the edit's end that is also a (moved) member's start, k; those
 * members, a..k-1, are replaced by `out`. Returns k. */
static size_t forest__resplit(const Forest *f, const char *text, size_t len, size_t a, size_t b, uint32_t new_end,
                              ForestMembers *out) {
  const ForestMember *M = f->members.items;
  size_t n = f->members.len, k = b + 1;
  size_t p = M[a].start;
  uint32_t row = M[a].row;
  for (;;) {
    size_t q = pysplit_next(text, len, p);
    ForestMember m = {(uint32_t)p, (uint32_t)q, row, NULL, false, false, 0};
    array_push(out, m);
    if (q >= len) return n;
    while (k < n && M[k].start < q) k++;
    if (q >= new_end && k < n && M[k].start == q) return k;
    row += pysplit_rows(text, len, p, q);
    p = q;
  }
}

void forest_edit(Forest *f, const char *text, size_t len, const TSInputEdit *e) {
  size_t n = f->members.len;
  if (!n) return;
  if (!f->split) {
    ForestMember *m = &f->members.items[0];
    if (m->tree) ts_tree_edit(m->tree, e);
    m->edited = true;
    m->end = (uint32_t)len;
    return;
  }
  /* Whether a line starts a statement depends on its first bytes too (a
   * clause keyword, a keyword that closes open brackets): an edit there can
   * join the member to the one before, so the split is read again from
   * that one. */
  size_t a = forest__find(f, e->start_byte > FOREST__KEYWORD_ZONE ? e->start_byte - FOREST__KEYWORD_ZONE : 0);
  size_t b = e->old_end_byte ? forest__find(f, e->old_end_byte - 1) : 0; /* >= a: old_end >= start */
  forest__shift(f, b + 1, e);
  ForestMembers out = {0};
  size_t k = forest__resplit(f, text, len, a, b, e->new_end_byte, &out);
  ForestMember *M = f->members.items;
  for (size_t i = a; i < k; i++) forest__drop(&M[i]);
  /* members[a, k) become out */
  size_t tail = n - k, len_new = a + out.len + tail;
  array_reserve(&f->members, out.len);
  M = f->members.items;
  memmove(M + a + out.len, M + k, tail * sizeof *M);
  memcpy(M + a, out.items, out.len * sizeof *M);
  f->members.len = len_new;
  array_free(&out);
}

size_t forest_size(const Forest *f) { return f->members.len; }

TSNode forest_root(const Forest *f, size_t i) {
  if (i >= f->members.len || !f->members.items[i].tree) return (TSNode){0};
  return ts_tree_root_node(f->members.items[i].tree);
}

size_t forest_member_at(const Forest *f, uint32_t at) { return forest__find(f, at); }

ForestTops forest_tops(const Forest *f, bool named) { return (ForestTops){f, 0, 0, named}; }

bool forest_next_top(ForestTops *it, TSNode *out) {
  for (; it->member < forest_size(it->f); it->member++, it->child = 0) {
    TSNode r = forest_root(it->f, it->member);
    uint32_t n = ts_node_is_null(r) ? 0 : it->named ? ts_node_named_child_count(r) : ts_node_child_count(r);
    if (it->child < n) {
      *out = it->named ? ts_node_named_child(r, it->child) : ts_node_child(r, it->child);
      it->child++;
      return true;
    }
  }
  return false;
}

TSNode forest_node_at(const Forest *f, uint32_t start, uint32_t end) {
  TSNode root = forest_root(f, forest__find(f, start));
  return ts_node_is_null(root) ? root : ts_node_descendant_for_byte_range(root, start, end);
}

/* One level down as ts_node_descendant_for_byte_range goes: into the
 * first child that reaches past `start` and to `end` and begins at or
 * before `start`. False when there is none (the cursor stays). */
static bool forest__step_down(TSTreeCursor *cur, uint32_t start, uint32_t end) {
  if (ts_tree_cursor_goto_first_child_for_byte(cur, start) < 0) return false;
  bool inside = false;
  do {
    TSNode c = ts_tree_cursor_current_node(cur);
    if (ts_node_start_byte(c) > start) break;
    uint32_t ce = ts_node_end_byte(c);
    inside = ce >= end && ce > start;
  } while (!inside && ts_tree_cursor_goto_next_sibling(cur));
  if (!inside) ts_tree_cursor_goto_parent(cur);
  return inside;
}

/* Down from the root, one level at a time (forest__step_down). */
ForestUp forest_up(const Forest *f, uint32_t start, uint32_t end) {
  ForestUp up = {0};
  TSNode root = forest_root(f, forest__find(f, start));
  if (ts_node_is_null(root)) return up;
  up.cursor = ts_tree_cursor_new(root);
  up.live = true;
  while (forest__step_down(&up.cursor, start, end)) continue;
  return up;
}

bool forest_up_next(ForestUp *up, TSNode *out, const char **field) {
  if (up->steps) {
    if (!up->n) return false;
    const ForestStep *s = &up->steps[--up->n];
    *out = s->node;
    if (field) *field = s->field;
    return true;
  }
  if (!up->live || (up->started && !ts_tree_cursor_goto_parent(&up->cursor))) return false;
  up->started = true;
  *out = ts_tree_cursor_current_node(&up->cursor);
  if (field) *field = ts_tree_cursor_current_field_name(&up->cursor);
  return true;
}

void forest_up_end(ForestUp *up) {
  if (up->live) ts_tree_cursor_delete(&up->cursor);
  up->live = false;
}

/* ---- kept paths -------------------------------------------------------------- */

typedef struct {
  uint64_t key;            /* (start << 32 | end) + 1; 0: an empty slot */
  ForestStep *steps;       /* root first; in the arena */
  size_t n;
} ForestPath;

struct ForestPaths {
  const Forest *forest;
  Arena arena;             /* the steps: stable while walks hand them out */
  ForestPath *slots;       /* open addressing, a power of two */
  size_t cap, used;
  /* The last walk recorded, root first, and a cursor at its last node: the
   * next walk starts from the deepest of its nodes that holds the next
   * range (findings come unit by unit, a function's close together). */
  Array(ForestStep) last;
  size_t member;           /* whose root last[0] is */
  TSTreeCursor cursor;
  bool live;               /* the cursor exists */
};

ForestPaths *forest_paths_new(const Forest *f) {
  ForestPaths *p = xcalloc(1, sizeof *p);
  p->forest = f;
  return p;
}

void forest_paths_free(ForestPaths *p) {
  if (!p) return;
  arena_free(&p->arena);
  free(p->slots);
  array_free(&p->last);
  if (p->live) ts_tree_cursor_delete(&p->cursor);
  free(p);
}

static ForestPath *forest__path_slot(ForestPath *slots, size_t cap, uint64_t key) {
  size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1);
  while (slots[i].key && slots[i].key != key) i = (i + 1) & (cap - 1);
  return &slots[i];
}

static void forest__paths_grow(ForestPaths *p) {
  size_t cap = p->cap ? p->cap * 2 : 64;
  ForestPath *slots = xcalloc(cap, sizeof *slots);
  for (size_t i = 0; i < p->cap; i++)
    if (p->slots[i].key) *forest__path_slot(slots, cap, p->slots[i].key) = p->slots[i];
  free(p->slots);
  p->slots = slots;
  p->cap = cap;
}

/* Whether the walk down to [start, end) passes through n, given that it
 * passes through n's parent: among siblings (disjoint, a zero-width one
 * never taken) only the child holding byte `start` can be the one
 * forest__step_down takes, and it is when it reaches `end`. */
static bool forest__on_way(TSNode n, uint32_t start, uint32_t end) {
  uint32_t ns = ts_node_start_byte(n), ne = ts_node_end_byte(n);
  return ns <= start && ne > start && ne >= end;
}

/* The walk forest_up gives, every step of it recorded: the last walk's
 * steps as far as they are this one's, then down from there. */
static void forest__path_record(ForestPaths *p, uint32_t start, uint32_t end, ForestPath *path) {
  size_t m = forest__find(p->forest, start);
  TSNode root = forest_root(p->forest, m);
  if (ts_node_is_null(root)) {
    path->n = 0;
    path->steps = NULL;
    return;
  }
  size_t keep = 1;
  if (p->live && p->member == m && p->last.len)
    while (keep < p->last.len && forest__on_way(p->last.items[keep].node, start, end)) keep++;
  else {
    p->last.len = 0;
    array_push(&p->last, ((ForestStep){root, NULL}));
    p->member = m;
  }
  p->last.len = keep;
  /* the fields above the cursor's new root are those kept */
  if (p->live) ts_tree_cursor_reset(&p->cursor, p->last.items[keep - 1].node);
  else p->cursor = ts_tree_cursor_new(p->last.items[keep - 1].node), p->live = true;
  while (forest__step_down(&p->cursor, start, end)) {
    ForestStep st = {ts_tree_cursor_current_node(&p->cursor), ts_tree_cursor_current_field_name(&p->cursor)};
    array_push(&p->last, st);
  }
  path->n = p->last.len;
  path->steps = arena_alloc(&p->arena, p->last.len * sizeof *p->last.items);
  memcpy(path->steps, p->last.items, p->last.len * sizeof *p->last.items);
}

ForestUp forest_paths_up(ForestPaths *p, uint32_t start, uint32_t end) {
  ForestUp up = {0};
  if (!p) return up;
  if ((p->used + 1) * 2 > p->cap) forest__paths_grow(p);
  uint64_t key = ((uint64_t)start << 32 | end) + 1;
  ForestPath *path = forest__path_slot(p->slots, p->cap, key);
  if (!path->key) {
    path->key = key;
    forest__path_record(p, start, end, path);
    p->used++;
  }
  up.steps = path->steps;
  up.n = path->n;
  static const ForestStep none;
  if (!up.steps) up.steps = &none; /* an empty walk, not the cursor's */
  return up;
}

TSNode forest_prev_named_sibling(const Forest *f, TSNode n) {
  if (ts_node_is_null(n)) return n;
  TSNode p = ts_node_prev_named_sibling(n);
  if (!ts_node_is_null(p)) return p;
  TSNode parent = ts_node_parent(n);
  if (ts_node_is_null(parent) || !ts_node_is_null(ts_node_parent(parent))) return p; /* not a top-level node */
  for (size_t i = forest__find(f, ts_node_start_byte(n)); i-- > 0;) {
    TSNode r = forest_root(f, i);
    uint32_t c = ts_node_is_null(r) ? 0 : ts_node_named_child_count(r);
    if (c) return ts_node_named_child(r, c - 1);
  }
  return p;
}
