/* Unit tests for the kept word hits (analyzers/engine/texthits.c): after
 * any series of edits the hits of every word are exactly a fresh scan's. */
#include "tests/unit/test.h"

#include <stdlib.h>

#include "analyzers/engine/texthits.h"
#include "analyzers/engine/util.h"

/* Every start of needle in text, overlapping ones included, as "a,b,c". */
static char *texthits_t_scan(const char *text, const char *needle) {
  StrBuf sb;
  sb_init(&sb);
  for (const char *p = text; (p = strstr(p, needle)) != NULL; p++) sb_printf(&sb, "%s%zu", sb.len ? "," : "", (size_t)(p - text));
  return sb_steal(&sb);
}

static char *texthits_t_kept(TextHits *h, const char *text, const char *needle) {
  size_t count;
  const uint32_t *at = texthits_find(h, text, strlen(text), needle, strlen(needle), &count);
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < count; i++) sb_printf(&sb, "%s%u", i ? "," : "", at[i]);
  return sb_steal(&sb);
}

/* Replaces text[start, end) with `with`, telling h. */
static void texthits_t_edit(TextHits *h, StrBuf *text, size_t start, size_t end, const char *with) {
  StrBuf next;
  sb_init(&next);
  sb_append(&next, text->data, start);
  sb_puts(&next, with);
  sb_puts(&next, text->data + end);
  texthits_edit(h, (uint32_t)start, (uint32_t)end, (uint32_t)(start + strlen(with)));
  sb_free(text);
  *text = next;
}

TEST(texthits_edits_drop_move_and_find) {
  TextHits *h = texthits_new();
  StrBuf t;
  sb_init(&t);
  sb_puts(&t, "x = 1  # noqa\nparser.add_argument('--fast', action='store_true')\ny = 2  # noqa: ASC2\n");
  char *s = texthits_t_kept(h, t.data, "noqa");
  ASSERT_STR_EQ(s, "9,74");
  free(s);
  texthits_settle(h);
  /* written over: the first marker goes, the second moves back */
  texthits_t_edit(h, &t, 9, 11, "");
  s = texthits_t_kept(h, t.data, "noqa");
  ASSERT_STR_EQ(s, "72");
  free(s);
  texthits_settle(h);
  /* made by joining: deleting what split a word makes one */
  texthits_t_edit(h, &t, 9, 9, "no");
  texthits_t_edit(h, &t, 0, 0, "# nonoqa\n");
  s = texthits_t_kept(h, t.data, "noqa");
  ASSERT_STR_EQ(s, "4,18,83");
  free(s);
  /* a word not asked in a version is forgotten, then read afresh */
  texthits_settle(h);
  texthits_settle(h);
  s = texthits_t_kept(h, t.data, "store_true");
  char *want = texthits_t_scan(t.data, "store_true");
  ASSERT_STR_EQ(s, want);
  free(s);
  free(want);
  ASSERT(texthits_within(h, t.data, t.len, "noqa", 4, 0, 8));
  ASSERT(!texthits_within(h, t.data, t.len, "noqa", 4, 5, 21));
  ASSERT(texthits_within(h, t.data, t.len, "noqa", 4, 5, 22));
  sb_free(&t);
  texthits_free(h);
}

/* A text whose length the edits do not explain is read again, not trusted. */
TEST(texthits_foreign_text_read_again) {
  TextHits *h = texthits_new();
  char *s = texthits_t_kept(h, "aaaa", "aa");
  ASSERT_STR_EQ(s, "0,1,2");
  free(s);
  s = texthits_t_kept(h, "baaab", "aa");
  ASSERT_STR_EQ(s, "1,2");
  free(s);
  texthits_free(h);
}

static unsigned texthits_t_rand(unsigned *seed, unsigned below) {
  *seed = *seed * 1103515245u + 12345u;
  return (*seed >> 16) % below;
}

/* Random edits over a small alphabet (so words appear, split and join):
 * after each batch the kept hits of several words equal a fresh scan. */
TEST(texthits_random_edits_equal_fresh_scan) {
  static const char *const words[] = {"ab", "aba", "noqa", "b", "qaq"};
  static const char alphabet[] = "abnoq \n";
  unsigned seed = 12345;
  for (int round = 0; round < 40; round++) {
    TextHits *h = texthits_new();
    StrBuf t;
    sb_init(&t);
    for (int i = 0; i < 60; i++) sb_putc(&t, alphabet[texthits_t_rand(&seed, 7)]);
    for (int batch = 0; batch < 12; batch++) {
      int edits = 1 + (int)texthits_t_rand(&seed, 3);
      for (int e = 0; e < edits; e++) {
        size_t a = texthits_t_rand(&seed, (unsigned)t.len + 1);
        size_t b = a + texthits_t_rand(&seed, 4);
        if (b > t.len) b = t.len;
        char with[4] = {0};
        size_t k = texthits_t_rand(&seed, 4);
        for (size_t i = 0; i < k; i++) with[i] = alphabet[texthits_t_rand(&seed, 7)];
        texthits_t_edit(h, &t, a, b, with);
      }
      /* some words each version, so some are forgotten and read afresh */
      for (size_t w = 0; w < sizeof words / sizeof *words; w++) {
        if ((batch + (int)w) % 3 == 0) continue;
        char *kept = texthits_t_kept(h, t.data, words[w]), *fresh = texthits_t_scan(t.data, words[w]);
        ASSERT_STR_EQ(kept, fresh);
        free(kept);
        free(fresh);
      }
      texthits_settle(h);
    }
    sb_free(&t);
    texthits_free(h);
  }
}
