/* fuzz_elf: the ELF DT_NEEDED reader on arbitrary bytes (truncated,
 * hostile, both classes and byte orders), and analyze_text on the same
 * bytes as a .so file. Checked: no crash or sanitizer report; on error
 * nothing is appended; at most ELF_MAX_NEEDED names, each a NUL-terminated
 * string. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/engine/analyze.h"
#include "analyzers/domains/elf.h"

#define FUZZ_CHECK(c)                                                           \
  do {                                                                          \
    if (!(c)) {                                                                 \
      fprintf(stderr, "fuzz_elf: check failed: %s (line %d)\n", #c, __LINE__); \
      abort();                                                                  \
    }                                                                           \
  } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* a private copy of exactly `size` bytes: ASan sees any read past it */
  uint8_t *buf = malloc(size ? size : 1);
  memcpy(buf, data, size);
  StrList needed = {0};
  array_push(&needed, xstrdup("sentinel"));
  ElfInfo info;
  int rc = elf_needed(buf, size, &info, &needed);
  FUZZ_CHECK(rc == ELF_OK || rc == ELF_ENOTELF || rc == ELF_ETRUNC || rc == ELF_ENODYN);
  FUZZ_CHECK(elf_strerror(rc) != NULL);
  if (rc != ELF_OK) FUZZ_CHECK(needed.len == 1);
  FUZZ_CHECK(needed.len <= 1 + ELF_MAX_NEEDED);
  if (rc == ELF_OK) FUZZ_CHECK(info.bits == 32 || info.bits == 64);
  for (size_t i = 0; i < needed.len; i++) FUZZ_CHECK(strlen(needed.items[i]) < (1u << 20));
  strlist_free(&needed);

  AnalyzeOptions opt;
  analyze_options_default(&opt);
  FindingList out = {0};
  analyze_text("lib/libfused_ops.so", (const char *)buf, size, NULL, &opt, &out, NULL);
  for (size_t i = 0; i < out.len; i++) FUZZ_CHECK(out.items[i].end_byte <= size);
  findings_free(&out);
  free(buf);
  return 0;
}
