/* Unit tests for applying fixes (server/fixes.c), the unified diff
 * (output_diff) and the guarded atomic replacement `fix` writes with
 * (cli_common_replace_file). */
#include "tests/unit/test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/cli_common.h"
#include "server/fixes.h"
#include "server/output.h"

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
