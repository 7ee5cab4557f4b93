/* The Python split into top-level statements (pysplit) and the forest of
 * one tree per statement: exact boundaries for each rule of the split, and
 * random edit scripts whose incrementally kept forest must equal a forest
 * parsed from scratch: the same members, rows and trees (every node's
 * kind and position). */
#include "tests/unit/test.h"

#include <stdlib.h>

#include "analyzers/engine/analyze.h"
#include "analyzers/engine/forest.h"
#include "analyzers/python/pysplit.h"

/* The boundaries of text, as "0 12 30" (every member's start). */
static char *split_t__starts(const char *text) {
  size_t len = strlen(text);
  StrBuf sb;
  sb_init(&sb);
  size_t p = 0;
  do {
    sb_printf(&sb, "%s%zu", p ? " " : "", p);
    p = pysplit_next(text, len, p);
  } while (p < len);
  return sb_steal(&sb);
}

#define ASSERT_SPLIT(text, want)                                                                                  \
  do {                                                                                                            \
    char *got_ = split_t__starts(text);                                                                           \
    ASSERT_STR_EQ(got_, want);                                                                                    \
    free(got_);                                                                                                   \
  } while (0)

TEST(pysplit_statements_at_column_zero) {
  ASSERT_SPLIT("import os\nimport torch\n\nx = 1\n", "0 10 24");
  /* a comment and blank lines stay with the statement before */
  ASSERT_SPLIT("x = 1\n# note\n\ny = 2\n", "0 14");
  /* indented lines, clauses and decorators continue their statement */
  ASSERT_SPLIT("if a:\n    b()\nelse:\n    c()\nd = 1\n", "0 28");
  ASSERT_SPLIT("try:\n    import x\nexcept ImportError:\n    x = None\nfinally:\n    pass\nz = 0\n", "0 69");
  ASSERT_SPLIT("@dec\n@other(1)\n# why\ndef f():\n    pass\ng = f\n", "0 39");
  ASSERT_SPLIT("elsewhere = 1\nexcepted = 2\n", "0 14");
}

TEST(pysplit_brackets_strings_and_continuations) {
  ASSERT_SPLIT("x = f(\na,\n)\ny = 2\n", "0 12");
  ASSERT_SPLIT("s = \"\"\"\nnot = a statement\n\"\"\"\nt = 1\n", "0 30");
  ASSERT_SPLIT("s = 'a(' + \"[\"\nt = 1\n", "0 15");
  ASSERT_SPLIT("x = 1 + \\\n2\ny = 3\n", "0 12");
  ASSERT_SPLIT("x = 'it''s' # (\ny = 3\n", "0 16");
  /* a one-line string left open ends with its line */
  ASSERT_SPLIT("x = 'open\ny = 3\n", "0 10");
  /* an escaped quote does not close; a backslash-newline continues the string */
  ASSERT_SPLIT("x = \"a\\\"(\"\ny = 3\n", "0 11");
  ASSERT_SPLIT("x = 'a\\\nb'\ny = 3\n", "0 11");
  /* lone CR and CRLF line breaks */
  ASSERT_SPLIT("x = 1\ry = 2\r\nz = 3\r\n", "0 6 13");
}

TEST(pysplit_unclosed_bracket_ends_at_a_definition) {
  ASSERT_SPLIT("x = f(\ny = 2\ndef g():\n    pass\nclass C:\n    pass\n", "0 13 31");
  ASSERT_SPLIT("x = [\nfrom_list = 1\nfrom a import b\n", "0 20");
}

static bool forest_t__parse(Forest *f, TSParser *p, const char *text, size_t len) {
  forest_init(f, FILE_PYTHON);
  return forest_parse(f, p, text, len);
}

/* Every node of both forests, in order: kind and position equal. */
static bool forest_t__same(const Forest *a, const Forest *b) {
  if (a->members.len != b->members.len) return false;
  for (size_t i = 0; i < a->members.len; i++) {
    const ForestMember *x = &a->members.items[i], *y = &b->members.items[i];
    if (x->start != y->start || x->end != y->end || x->row != y->row) return false;
    char *s = ts_node_string(forest_root(a, i)), *t = ts_node_string(forest_root(b, i));
    bool same = strcmp(s, t) == 0;
    free(s);
    free(t);
    TSTreeCursor c = ts_tree_cursor_new(forest_root(a, i)), d = ts_tree_cursor_new(forest_root(b, i));
    for (bool more = same; more && same;) {
      TSNode m = ts_tree_cursor_current_node(&c), n = ts_tree_cursor_current_node(&d);
      TSPoint pm = ts_node_start_point(m), pn = ts_node_start_point(n);
      same = ts_node_start_byte(m) == ts_node_start_byte(n) && ts_node_end_byte(m) == ts_node_end_byte(n) &&
             pm.row == pn.row && pm.column == pn.column;
      bool down = ts_tree_cursor_goto_first_child(&c);
      if (down != ts_tree_cursor_goto_first_child(&d)) same = false;
      if (down) continue;
      for (;;) {
        bool next = ts_tree_cursor_goto_next_sibling(&c);
        if (next != ts_tree_cursor_goto_next_sibling(&d)) same = false;
        if (next || !same) break;
        bool up = ts_tree_cursor_goto_parent(&c);
        ts_tree_cursor_goto_parent(&d);
        if (!up) {
          more = false;
          break;
        }
      }
    }
    ts_tree_cursor_delete(&c);
    ts_tree_cursor_delete(&d);
    if (!same) return false;
  }
  return true;
}

static uint64_t forest_t__rand(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static TSPoint forest_t__point(const char *t, size_t off) {
  TSPoint p = {0, 0};
  for (size_t i = 0; i < off; i++) {
    if (t[i] == '\n' || (t[i] == '\r' && t[i + 1] != '\n')) {
      p.row++;
      p.column = 0;
    } else {
      p.column++;
    }
  }
  return p;
}

/* Replaces text[at, at + del) with ins, editing the forest as a server does. */
static void forest_t__edit(Forest *f, StrBuf *text, size_t at, size_t del, const char *ins) {
  size_t n = strlen(ins);
  TSInputEdit e = {(uint32_t)at, (uint32_t)(at + del), (uint32_t)(at + n), forest_t__point(text->data, at),
                   forest_t__point(text->data, at + del), {0, 0}};
  StrBuf nt;
  sb_init(&nt);
  sb_append(&nt, text->data, at);
  sb_append(&nt, ins, n);
  sb_append(&nt, text->data + at + del, text->len - at - del);
  sb_free(text);
  *text = nt;
  e.new_end_point = forest_t__point(text->data, at + n);
  forest_edit(f, text->data, text->len, &e);
}

TEST(forest_edits_match_a_fresh_parse) {
  static const char *const src = "\"\"\"Doc.\"\"\"\nimport torch\nfrom x import (a,\n    b)\n\n"
                                 "@torch.no_grad()\ndef f(x):\n    if x:\n        return x.cuda()\n    # end\n"
                                 "# between\nclass C:\n    def g(self):\n        return [1,\n2]\n"
                                 "try:\n    import y\nexcept ImportError:\n    y = None\nz = f(1)\n";
  static const char *const pieces[] = {"\n", " ", "x", "(", ")", "'", "\"\"\"", "#", "\\", "def h():\n",
                                       "    ", "@d\n", "else:\n", "\r"};
  TSParser *p = ts_parser_new();
  for (uint64_t seed = 1; seed <= 40; seed++) {
    uint64_t rng = seed * 2654435761u + 7;
    StrBuf text;
    sb_init(&text);
    sb_puts(&text, src);
    Forest inc;
    ASSERT(forest_t__parse(&inc, p, text.data, text.len));
    for (int step = 0; step < 30; step++) {
      size_t at = (size_t)(forest_t__rand(&rng) % (text.len + 1));
      size_t del = forest_t__rand(&rng) % 3 == 0 ? (size_t)(forest_t__rand(&rng) % 6) : 0;
      if (at + del > text.len) del = text.len - at;
      const char *ins = del && forest_t__rand(&rng) % 2 ? "" : pieces[forest_t__rand(&rng) % 14];
      forest_t__edit(&inc, &text, at, del, ins);
      if (forest_t__rand(&rng) % 3 == 0) continue; /* several edits before one parse */
      ASSERT(forest_parse(&inc, p, text.data, text.len));
      Forest fresh;
      ASSERT(forest_t__parse(&fresh, p, text.data, text.len));
      if (!forest_t__same(&inc, &fresh))
        TEST_FAIL("seed %llu step %d: the edited forest differs from a fresh one for:\n%s", (unsigned long long)seed,
                  step, text.data);
      forest_free(&fresh);
    }
    forest_free(&inc);
    sb_free(&text);
  }
  ts_parser_delete(p);
}

/* For valid code each member's statement is the subtree one parse gives. */
TEST(forest_members_are_the_statements_of_one_parse) {
  static const char *const src = "import torch\n# c\n@d\ndef f():\n    pass\n# tail\nclass A(B):\n    x = 1\n"
                                 "if __name__ == \"__main__\":\n    f()\nelse:\n    pass\n";
  size_t len = strlen(src);
  TSParser *p = ts_parser_new();
  Forest f;
  ASSERT(forest_t__parse(&f, p, src, len));
  ASSERT_EQ(forest_size(&f), 4);
  ts_parser_set_language(p, analyze_language(FILE_PYTHON));
  TSTree *one = ts_parser_parse_string(p, NULL, src, (uint32_t)len);
  ForestTops it = forest_tops(&f, false);
  TSNode root = ts_tree_root_node(one);
  uint32_t i = 0;
  for (TSNode c; forest_next_top(&it, &c); i++) {
    TSNode o = ts_node_child(root, i);
    char *s = ts_node_string(c), *t = ts_node_string(o);
    ASSERT_STR_EQ(s, t);
    ASSERT_EQ(ts_node_start_byte(c), ts_node_start_byte(o));
    ASSERT_EQ(ts_node_end_point(c).row, ts_node_end_point(o).row);
    free(s);
    free(t);
  }
  ASSERT_EQ(i, ts_node_child_count(root));
  /* the node before a member's first statement is the last of the member before */
  TSNode cls = forest_node_at(&f, (uint32_t)(strstr(src, "class") - src), (uint32_t)(strstr(src, "class") - src) + 5);
  while (!ts_node_is_null(ts_node_parent(cls)) && !ts_node_is_null(ts_node_parent(ts_node_parent(cls))))
    cls = ts_node_parent(cls);
  TSNode prev = forest_prev_named_sibling(&f, cls);
  ASSERT_STR_EQ(ts_node_type(prev), "comment");
  ts_tree_delete(one);
  forest_free(&f);
  ts_parser_delete(p);
}

/* forest_paths_up against forest_up: for ranges asked in document order and
 * in random order (the ranges of nodes, as findings are, and arbitrary byte
 * ranges, empty ones and ranges across statements among them), each walk
 * starting from the one before, and asked again, the same walk:
 * the same nodes with the same field names, innermost first. */
TEST(forest_kept_paths_walk_as_forest_up) {
  static const char *const src =
      "import torch\n"
      "class Attn(torch.nn.Module):\n"
      "    def __init__(self, dim):\n"
      "        super().__init__()\n"
      "        self.qkv = torch.nn.Linear(dim, dim * 3).cuda()\n"
      "    @torch.no_grad()\n"
      "    def forward(self, x, mask=None):\n"
      "        if torch.cuda.is_available() and x.is_cuda:\n"
      "            with torch.cuda.amp.autocast(dtype=torch.float16):\n"
      "                y = flash_attn_func(x, x, x, causal=mask is None)\n"
      "        else:\n"
      "            y = torch.softmax(x @ x.transpose(-1, -2), dim=-1) @ x\n"
      "        return [y[i] for i in range(len(y)) if i % 2]\n"
      "def helper(d='cuda'):\n"
      "    return torch.device(d)\n"
      "x = Attn(4).to('cuda:0')\n";
  size_t len = strlen(src);
  TSParser *p = ts_parser_new();
  Forest f;
  ASSERT(forest_t__parse(&f, p, src, len));
  /* every node's range, then random ones */
  Array(ByteRange) asks = {0};
  for (size_t m = 0; m < forest_size(&f); m++) {
    TSTreeCursor c = ts_tree_cursor_new(forest_root(&f, m));
    for (bool more = true; more;) {
      TSNode n = ts_tree_cursor_current_node(&c);
      ByteRange r = {ts_node_start_byte(n), ts_node_end_byte(n)}, after = {r.end, r.end};
      array_push(&asks, r);
      array_push(&asks, after); /* empty, where the walk before ends a node */
      if (ts_tree_cursor_goto_first_child(&c)) continue;
      while (!(more = ts_tree_cursor_goto_next_sibling(&c)) && ts_tree_cursor_goto_parent(&c)) continue;
    }
    ts_tree_cursor_delete(&c);
  }
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (int k = 0; k < 400; k++) {
    uint32_t s = (uint32_t)(forest_t__rand(&seed) % (len + 1));
    uint32_t e = s + (uint32_t)(forest_t__rand(&seed) % 40);
    ByteRange r = {s, e > len ? (uint32_t)len : e};
    array_push(&asks, r);
  }
  /* in document order (as a unit's findings come), then shuffled, then
   * every range asked again */
  size_t n = asks.len;
  for (size_t i = 0; i < n; i++) array_push(&asks, asks.items[i]);
  for (size_t i = n; i > 1; i--) {
    size_t j = n + (size_t)(forest_t__rand(&seed) % i);
    ByteRange t = asks.items[n + i - 1];
    asks.items[n + i - 1] = asks.items[j];
    asks.items[j] = t;
  }
  for (size_t i = 0; i < n; i++) array_push(&asks, asks.items[n + (i * 7) % n]);
  ForestPaths *paths = forest_paths_new(&f);
  size_t steps = 0;
  for (size_t i = 0; i < asks.len; i++) {
    ForestUp a = forest_up(&f, asks.items[i].start, asks.items[i].end);
    ForestUp b = forest_paths_up(paths, asks.items[i].start, asks.items[i].end);
    TSNode x, y;
    const char *fx, *fy;
    for (;;) {
      bool more = forest_up_next(&a, &x, &fx);
      ASSERT_EQ(more, forest_up_next(&b, &y, &fy));
      if (!more) break;
      ASSERT(ts_node_eq(x, y));
      ASSERT_EQ(ts_node_start_byte(x), ts_node_start_byte(y));
      ASSERT_EQ(ts_node_end_byte(x), ts_node_end_byte(y));
      ASSERT_STR_EQ(fx ? fx : "-", fy ? fy : "-");
      steps++;
    }
    forest_up_end(&a);
    forest_up_end(&b);
  }
  ASSERT(steps > asks.len * 3); /* the walks were deep, not empty */
  forest_paths_free(paths);
  array_free(&asks);
  forest_free(&f);
  ts_parser_delete(p);
}
