/* Unit tests for the file readers (analyzers/engine/util.c): anything but a
 * regular file is refused at once, never read, never waited on. */
#include "tests/unit/test.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzers/engine/context.h"
#include "analyzers/engine/util.h"

TEST(util_read_refuses_fifo_without_blocking) {
  char dir[] = "/tmp/asc-util-XXXXXX";
  ASSERT(mkdtemp(dir));
  char *fifo = xasprintf("%s/swapped.py", dir);
  ASSERT_EQ(mkfifo(fifo, 0600), 0); /* as if a file were swapped for a FIFO after the walk */
  char *text = (char *)1;
  size_t len = 7;
  ASSERT_EQ(util_read_file(fifo, 1 << 20, &text, &len), UTIL_ENOTREG);
  ASSERT(text == NULL && len == 0);
  ASSERT_EQ(util_read_head(fifo, 1 << 20, &text, &len), UTIL_ENOTREG);
  ASSERT_EQ(util_read_file("/dev/zero", 1 << 20, &text, &len), UTIL_ENOTREG);
  ASSERT_EQ(util_read_file(dir, 1 << 20, &text, &len), -EISDIR);
  ASSERT_STR_EQ(util_strerror(UTIL_ENOTREG), "not a regular file (a FIFO, device or socket)");
  ASSERT_STR_EQ(util_strerror(-ENOENT), "No such file or directory");
  unlink(fifo);
  rmdir(dir);
  free(fifo);
}

/* Test code by path: test folders and files, benchmarks, a library's test helpers. */
TEST(context_test_paths) {
  static const char *const tests[] = {"tests/test_model.py", "pkg/test/x.py", "conftest.py", "model_test.py",
                                      "benchmarks/attn.py", "bench_attn.py", "src/diffusers/utils/testing_utils.py",
                                      "scripts/diffusion_bench.py", "tools/attn_benchmark.py",
                                      "docs/examples/pulsar_basic.py", "doc/conf.py", "flashinfer/testing/utils.py",
                                      "block_sparse_tests/fwd/test_perf.py", "kernel_test/run.py"};
  static const char *const code[] = {"pkg/attention.py", "latest/model.py", "contest.py", "src/utils/testing.py",
                                     "pkg/testing_utils_extra.py", "pkg/workbench.py", "pkg/docstrings.py",
                                     "src/doc_utils/x.py", "pkg/testing_tools/x.py",
                                     "pkg/attests/x.py", "pkg/contest/x.py"};
  for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) ASSERT(context_is_test_path(tests[i]));
  for (size_t i = 0; i < sizeof code / sizeof code[0]; i++) ASSERT(!context_is_test_path(code[i]));
}

/* The validator's eight-byte ASCII steps agree with the byte-wise decoder
 * wherever a bad or multi-byte sequence falls: at every offset of a
 * 24-byte ASCII run, straddling the word boundaries, and at the end. */
TEST(util_utf8_valid_at_every_offset) {
  static const char *const bad[] = {"\x80", "\xC3", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xC0\xAF", "\xE2\x82"};
  static const char *const good[] = {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\x7F"};
  char buf[64];
  for (size_t at = 0; at <= 24; at++) {
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
      size_t n = strlen(bad[b]);
      memset(buf, 'a', sizeof buf);
      memcpy(buf + at, bad[b], n);
      ASSERT(!util_utf8_valid(buf, 24 + n));
      ASSERT(!util_utf8_valid(buf, at + n)); /* the bad sequence last */
    }
    for (size_t g = 0; g < sizeof good / sizeof good[0]; g++) {
      size_t n = strlen(good[g]);
      memset(buf, 'a', sizeof buf);
      memcpy(buf + at, good[g], n);
      ASSERT(util_utf8_valid(buf, 24 + n));
      ASSERT(util_utf8_valid(buf, at + n));
      if (n > 1) ASSERT(!util_utf8_valid(buf, at + n - 1)); /* cut short by the length */
    }
  }
  ASSERT(util_utf8_valid("", 0));
}
