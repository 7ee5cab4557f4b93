/* Minimal unit-test harness: TEST(name) { ... } registers itself at load time;
 * runner.c runs every test (or those whose name contains argv[1]) and ends
 * with "N passed, N failed". ASSERT_* print file:line and fail the test. */
#ifndef ASC_TEST_H
#define ASC_TEST_H

#include <stdio.h>
#include <string.h>
#include <stdint.h>

typedef void (*TestFn)(int *failed);
void test_register(const char *name, TestFn fn);

#define TEST(name)                                                             \
  static void test_##name(int *test__failed);                                  \
  __attribute__((constructor)) static void test_reg_##name(void) {             \
    test_register(#name, test_##name);                                         \
  }                                                                            \
  static void test_##name(int *test__failed)

#define TEST_FAIL(...)                                                         \
  do {                                                                         \
    fprintf(stderr, "  %s:%d: ", __FILE__, __LINE__);                          \
    fprintf(stderr, __VA_ARGS__);                                              \
    fputc('\n', stderr);                                                       \
    *test__failed = 1;                                                         \
    return;                                                                    \
  } while (0)

#define ASSERT(c)                                                              \
  do { if (!(c)) TEST_FAIL("assertion failed: %s", #c); } while (0)
#define ASSERT_EQ(a, b)                                                        \
  do {                                                                         \
    long long a__ = (long long)(a), b__ = (long long)(b);                      \
    if (a__ != b__) TEST_FAIL("%s == %s: %lld != %lld", #a, #b, a__, b__);     \
  } while (0)
#define ASSERT_STR_EQ(a, b)                                                    \
  do {                                                                         \
    const char *a__ = (a), *b__ = (b);                                         \
    if (!a__ || !b__ || strcmp(a__, b__) != 0)                                 \
      TEST_FAIL("%s == %s:\n    got:  %s\n    want: %s", #a, #b,               \
                a__ ? a__ : "(null)", b__ ? b__ : "(null)");                   \
  } while (0)
#define ASSERT_MEM_EQ(a, alen, b)                                              \
  do {                                                                         \
    size_t bl__ = strlen(b);                                                   \
    if ((size_t)(alen) != bl__ || memcmp((a), (b), bl__) != 0)                 \
      TEST_FAIL("%s == %s: got %.*s", #a, #b, (int)(alen), (const char *)(a)); \
  } while (0)

#endif
