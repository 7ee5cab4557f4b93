/* Runs every registered unit test in this process, in registration order. */
#include "tests/unit/test.h"

#include <stdlib.h>

typedef struct {
  const char *name;
  TestFn fn;
} TestCase;

static TestCase runner__tests[1024];
static size_t runner__count;

void test_register(const char *name, TestFn fn) {
  if (runner__count < sizeof runner__tests / sizeof runner__tests[0])
    runner__tests[runner__count++] = (TestCase){name, fn};
}

int main(int argc, char **argv) {
  const char *filter = argc > 1 ? argv[1] : NULL;
  int passed = 0, failed = 0;
  for (size_t i = 0; i < runner__count; i++) {
    if (filter && !strstr(runner__tests[i].name, filter)) continue;
    int f = 0;
    runner__tests[i].fn(&f);
    if (f) {
      failed++;
      fprintf(stderr, "FAIL %s\n", runner__tests[i].name);
    } else {
      passed++;
    }
  }
  printf("unit: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
