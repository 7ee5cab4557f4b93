/* Unit tests for applying fixes (server/fixes.c), the unified diff
 * (output_diff) and the guarded atomic replacement `fix` writes with
 * (cli_common_replace_file). */
#include "tests/unit/test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/cli/cli_common.h"
#include "server/fixes.h"
#include "server/cli/output.h"

/* A finding with one or two edits and a given fix safety. */
static Finding *test_fixes__add(FindingList *l, FixSafety safety, uint32_t s, uint32_t e, const char *text) {
  Finding *f = kb_emit(l, kb_rule("ASC201"), NULL, "x", NULL, s, e, 0, s, 0, e);
  f->fix = safety;
  if (safety != FIX_NONE) finding_add_edit(f, s, e, text);
  return f;
}

TEST(fixes_apply_merges_and_skips) {
  const char *t = "import torch\ntorch.cuda.a()\ntorch.cuda.b()\n";
  FindingList l = {0};
  Finding *f = test_fixes__add(&l, FIX_SAFE, 13, 23, "torch.npu");
  finding_add_edit(f, 13, 13, "import torch_npu\n");
  f = test_fixes__add(&l, FIX_SAFE, 28, 38, "torch.npu");
  finding_add_edit(f, 13, 13, "import torch_npu\n"); /* the same insertion: applied once */
  test_fixes__add(&l, FIX_SAFE, 15, 20, "XX");       /* overlaps the first: skipped */
  test_fixes__add(&l, FIX_UNSAFE, 0, 6, "IMPORT");   /* unsafe: left out */
  test_fixes__add(&l, FIX_NONE, 0, 0, NULL);         /* no fix */
  size_t n = 0;
  FixStats st;
  char *out = fixes_apply(t, strlen(t), &l, false, &n, &st);
  ASSERT(out != NULL);
  ASSERT_STR_EQ(out, "import torch\nimport torch_npu\ntorch.npu.a()\ntorch.npu.b()\n");
  ASSERT_EQ(n, strlen(out));
  ASSERT_EQ(st.applied, 2);
  ASSERT_EQ(st.skipped, 1);
  ASSERT_EQ(st.unsafe, 1);
  ASSERT_EQ(st.unfixable, 1);
  free(out);
  out = fixes_apply(t, strlen(t), &l, true, &n, &st);
  ASSERT(out != NULL && strncmp(out, "IMPORT torch\n", 13) == 0);
  ASSERT_EQ(st.unsafe, 0);
  free(out);
  findings_free(&l);
}

TEST(fixes_apply_nothing) {
  FindingList l = {0};
  test_fixes__add(&l, FIX_NONE, 0, 0, NULL);
  size_t n = 7;
  ASSERT(fixes_apply("abc", 3, &l, true, &n, NULL) == NULL);
  findings_free(&l);
}

/* ---- unified diff ---------------------------------------------------------------- */

/* output_diff into a string. Caller frees. */
static char *test_fixes__diff(const char *a, const char *b, size_t *hunks) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  *hunks = output_diff(f, "./src/x.py", a, strlen(a), b, strlen(b));
  fclose(f);
  return buf;
}

TEST(diff_context_and_header) {
  const char *a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
  const char *b = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n12\nthirteen\n";
  size_t h;
  char *d = test_fixes__diff(a, b, &h);
  ASSERT_EQ(h, 2);
  ASSERT_STR_EQ(d, "--- a/src/x.py\n+++ b/src/x.py\n"
                   "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
                   "@@ -10,3 +10,4 @@\n 10\n 11\n 12\n+thirteen\n");
  free(d);
}

TEST(diff_merges_close_hunks) {
  const char *a = "a\nb\nc\nd\ne\nf\ng\nh\n";
  const char *b = "A\nb\nc\nd\ne\nf\ng\nH\n";
  size_t h;
  char *d = test_fixes__diff(a, b, &h);
  ASSERT_EQ(h, 1);
  ASSERT(strstr(d, "@@ -1,8 +1,8 @@\n-a\n+A\n b\n") != NULL);
  free(d);
}

TEST(diff_crlf_and_no_final_newline) {
  size_t h;
  char *d = test_fixes__diff("x = 1\r\ny = cuda\r\n", "x = 1\r\ny = npu\r\n", &h);
  ASSERT_EQ(h, 1);
  ASSERT_STR_EQ(d, "--- a/src/x.py\n+++ b/src/x.py\n@@ -1,2 +1,2 @@\n x = 1\r\n-y = cuda\r\n+y = npu\r\n");
  free(d);
  d = test_fixes__diff("import a\nf(cuda)", "import a\nimport b\nf(npu)", &h);
  ASSERT_STR_EQ(d, "--- a/src/x.py\n+++ b/src/x.py\n@@ -1,2 +1,3 @@\n import a\n-f(cuda)\n"
                   "\\ No newline at end of file\n+import b\n+f(npu)\n\\ No newline at end of file\n");
  free(d);
}

TEST(diff_lone_cr_and_empty) {
  size_t h;
  char *d = test_fixes__diff("a\rb\r", "a\rc\r", &h);
  ASSERT_STR_EQ(d, "--- a/src/x.py\n+++ b/src/x.py\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
  free(d);
  d = test_fixes__diff("same\n", "same\n", &h);
  ASSERT_EQ(h, 0);
  ASSERT_STR_EQ(d, "");
  free(d);
  d = test_fixes__diff("", "new\n", &h);
  ASSERT_STR_EQ(d, "--- a/src/x.py\n+++ b/src/x.py\n@@ -0,0 +1 @@\n+new\n");
  free(d);
}

/* ---- atomic replacement ------------------------------------------------------------ */

typedef struct {
  char dir[64];
  char path[96];
} TestFile;

static int test_fixes__make(TestFile *t, const char *content, mode_t mode) {
  strcpy(t->dir, "/tmp/asc-fix-XXXXXX");
  if (!mkdtemp(t->dir)) return -1;
  snprintf(t->path, sizeof t->path, "%s/f.py", t->dir);
  int fd = open(t->path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return -1;
  ssize_t w = write(fd, content, strlen(content));
  close(fd);
  chmod(t->path, mode);
  return w == (ssize_t)strlen(content) ? 0 : -1;
}

static size_t test_fixes__entries(const char *dir) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
  FILE *p = popen(cmd, "r");
  size_t n = 0;
  if (p) {
    if (fscanf(p, "%zu", &n) != 1) n = 0;
    pclose(p);
  }
  return n;
}

static void test_fixes__clean(TestFile *t) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->dir);
  if (system(cmd) != 0) fprintf(stderr, "  could not remove %s\n", t->dir);
}

TEST(replace_file_keeps_mode) {
  TestFile t;
  ASSERT_EQ(test_fixes__make(&t, "torch.cuda.x()\r\n", 0751), 0);
  struct stat st;
  char *text = NULL;
  size_t len = 0;
  ASSERT_EQ(stat(t.path, &st), 0);
  ASSERT_EQ(util_read_file(t.path, 1 << 20, &text, &len), 0);
  int rc = cli_common_replace_file(t.path, &st, ws_hash(text, len), "torch.npu.x()\r\n", 15);
  free(text);
  struct stat after;
  int src = stat(t.path, &after);
  char *now = NULL;
  int rrc = util_read_file(t.path, 1 << 20, &now, &len);
  size_t entries = test_fixes__entries(t.dir);
  test_fixes__clean(&t);
  ASSERT_EQ(rc, 0);
  ASSERT_EQ(src, 0);
  ASSERT_EQ(after.st_mode & 07777, 0751);
  ASSERT_EQ(rrc, 0);
  ASSERT_STR_EQ(now, "torch.npu.x()\r\n");
  ASSERT_EQ(entries, 1); /* no temporary file left */
  free(now);
}

TEST(replace_file_refuses_a_changed_file) {
  TestFile t;
  ASSERT_EQ(test_fixes__make(&t, "torch.cuda.x()\n", 0644), 0);
  struct stat st;
  char *text = NULL;
  size_t len = 0;
  ASSERT_EQ(stat(t.path, &st), 0);
  ASSERT_EQ(util_read_file(t.path, 1 << 20, &text, &len), 0);
  uint64_t h = ws_hash(text, len);
  free(text);
  /* someone saves the file between our read and our write (same size) */
  FILE *f = fopen(t.path, "wb");
  if (f) {
    fputs("torch.cuda.y()\n", f);
    fclose(f);
  }
  int rc = cli_common_replace_file(t.path, &st, h, "torch.npu.x()\n", 14);
  char *now = NULL;
  int rrc = util_read_file(t.path, 1 << 20, &now, &len);
  size_t entries = test_fixes__entries(t.dir);
  test_fixes__clean(&t);
  ASSERT_EQ(rc, -ESTALE);
  ASSERT_EQ(rrc, 0);
  ASSERT_STR_EQ(now, "torch.cuda.y()\n");
  ASSERT_EQ(entries, 1);
  free(now);
}

/* ---- the diff applies: random texts, a small patch applier ------------------------- */

/* Next line of s (with its '\n', if any) at *at; false at the end. */
static bool test_fixes__line(const char *s, size_t *at, const char **l, size_t *n) {
  if (!s[*at]) return false;
  const char *nl = strchr(s + *at, '\n');
  *l = s + *at;
  *n = nl ? (size_t)(nl - (s + *at)) + 1 : strlen(s + *at);
  *at += *n;
  return true;
}

/* Applies a unified diff of LF texts to a; returns the result (caller
 * frees) or NULL when a context or removed line does not match. */
static char *test_fixes__patch(const char *a, const char *diff) {
  StrBuf out;
  sb_init(&out);
  size_t da = 0, sa = 0, line = 1; /* line: 1-based line of a at sa */
  const char *l, *sl = NULL;
  size_t n, sn = 0;
  bool ok = true, prev_src = false;
  while (ok && test_fixes__line(diff, &da, &l, &n)) {
    if (n >= 3 && (strncmp(l, "---", 3) == 0 || strncmp(l, "+++", 3) == 0)) continue;
    if (l[0] == '@') {
      unsigned long start = strtoul(l + 4, NULL, 10);
      if (start == 0) start = 1; /* empty old range names the line before */
      const char *comma = memchr(l, ',', n), *plus = memchr(l, '+', n);
      if (comma && comma < plus && strtoul(comma + 1, NULL, 10) == 0) start++;
      while (line < start && test_fixes__line(a, &sa, &sl, &sn)) sb_append(&out, sl, sn), line++;
      continue;
    }
    if (l[0] == '\\') { /* the line before has no newline */
      if (prev_src) continue; /* checked against a already */
      if (out.len && out.data[out.len - 1] == '\n') out.data[--out.len] = '\0';
      continue;
    }
    prev_src = l[0] == '-';
    if (l[0] == '+') {
      sb_append(&out, l + 1, n - 1);
      continue;
    }
    ok = test_fixes__line(a, &sa, &sl, &sn);
    line++;
    size_t want = n - 1;
    bool next_no_nl = strncmp(diff + da, "\\ No newline", 12) == 0;
    if (next_no_nl) want--;
    ok = ok && sn == want && memcmp(sl, l + 1, want) == 0;
    if (ok && l[0] == ' ') sb_append(&out, sl, sn);
    if (l[0] == ' ') prev_src = next_no_nl; /* a context line without newline: keep it as is */
  }
  while (ok && test_fixes__line(a, &sa, &sl, &sn)) sb_append(&out, sl, sn);
  if (!ok) {
    sb_free(&out);
    return NULL;
  }
  return sb_steal(&out);
}

static uint32_t test_fixes__rand(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

static char *test_fixes__text(uint32_t *seed, size_t lines, bool final_nl) {
  static const char *const words[] = {"a", "b", "c", "torch.cuda.x()", "", "import torch"};
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < lines; i++) sb_printf(&sb, "%s\n", words[test_fixes__rand(seed) % 6]);
  if (!final_nl && sb.len) sb.data[--sb.len] = '\0';
  return sb_steal(&sb);
}

/* b: a with random lines replaced, inserted and dropped. */
static char *test_fixes__mutate(uint32_t *seed, const char *a, bool final_nl) {
  StrBuf sb;
  sb_init(&sb);
  size_t at = 0;
  const char *l;
  size_t n;
  while (test_fixes__line(a, &at, &l, &n)) {
    uint32_t r = test_fixes__rand(seed) % 10;
    if (r == 0) continue;                                  /* drop */
    if (r == 1) sb_puts(&sb, "torch.npu.x()\n");           /* insert */
    if (r == 2) sb_puts(&sb, "import torch_npu\n");        /* replace */
    else sb_append(&sb, l, n);
    if (n && l[n - 1] != '\n') sb_putc(&sb, '\n');
  }
  if (test_fixes__rand(seed) % 4 == 0) sb_puts(&sb, "tail\n");
  if (!final_nl && sb.len) sb.data[--sb.len] = '\0';
  return sb_steal(&sb);
}

TEST(diff_random_texts_apply) {
  uint32_t seed = 2463534242u;
  for (int i = 0; i < 400; i++) {
    char *a = test_fixes__text(&seed, test_fixes__rand(&seed) % 40, test_fixes__rand(&seed) % 3 != 0);
    char *b = test_fixes__mutate(&seed, a, test_fixes__rand(&seed) % 3 != 0);
    size_t h;
    char *d = test_fixes__diff(a, b, &h);
    char *got = test_fixes__patch(a, d);
    bool same = got && strcmp(got, b) == 0;
    bool hunks_ok = (h == 0) == (strcmp(a, b) == 0);
    if (!same || !hunks_ok) {
      fprintf(stderr, "  case %d\n--- a\n%s\n--- b\n%s\n--- diff\n%s\n--- got\n%s\n", i, a, b, d, got ? got : "(no match)");
      free(a), free(b), free(d), free(got);
      TEST_FAIL("diff does not reproduce b");
    }
    free(a), free(b), free(d), free(got);
  }
}
