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
