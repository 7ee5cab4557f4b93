/* elf: DT_NEEDED from 32/64-bit, little/big-endian images built in memory;
 * truncated, hostile and mutated images must give an error or fewer names,
 * never a read outside the buffer (run under ASan). */
#include "tests/unit/test.h"
#include "analyzers/engine/analyze.h"
#include "analyzers/domains/elf.h"

#include <stdlib.h>

enum { IMG_NO_PHDRS = 1, IMG_NO_SHDRS = 2, IMG_NO_DYNAMIC = 4 };

typedef struct {
  unsigned char p[2048];
  size_t len;
  int bits;
  int be;
  size_t phoff, shoff, str_off, dyn_off; /* where the builder put things */
} Img;

static void img_put(Img *m, size_t off, uint64_t v, int n) {
  for (int i = 0; i < n; i++) m->p[off + (size_t)i] = (unsigned char)(v >> (8 * (m->be ? n - 1 - i : i)));
}

/* A shared object naming `libs` in DT_NEEDED: a PT_LOAD at vaddr 0x10000,
 * PT_DYNAMIC, .dynstr / .dynamic section headers (see tests/kernels/mkelf.c). */
static void img_build(Img *m, int bits, int be, const char *const *libs, int n, unsigned flags) {
  memset(m, 0, sizeof *m);
  m->bits = bits;
  m->be = be;
  int w = bits / 8;
  size_t eh = bits == 64 ? 64 : 52, phent = bits == 64 ? 56 : 32, shent = bits == 64 ? 64 : 40, dynent = 2 * (size_t)w;
  size_t nph = (flags & IMG_NO_DYNAMIC) ? 1 : 2;
  m->phoff = eh;
  m->str_off = eh + nph * phent;
  size_t str_size = 1;
  for (int i = 0; i < n; i++) {
    memcpy(m->p + m->str_off + str_size, libs[i], strlen(libs[i]));
    str_size += strlen(libs[i]) + 1;
  }
  m->dyn_off = (m->str_off + str_size + 7) & ~(size_t)7;
  size_t ndyn = (size_t)n + 3, dyn_size = ndyn * dynent;
  m->shoff = (m->dyn_off + dyn_size + 7) & ~(size_t)7;
  m->len = m->shoff + 3 * shent;
  memcpy(m->p, "\177ELF", 4);
  m->p[4] = bits == 64 ? 2 : 1;
  m->p[5] = be ? 2 : 1;
  m->p[6] = 1;
  size_t a = bits == 64 ? 8 : 4, f = 24 + 3 * a + 4;
  img_put(m, 16, 3, 2);
  img_put(m, 24 + a, (flags & IMG_NO_PHDRS) ? 0 : m->phoff, (int)a);
  img_put(m, 24 + 2 * a, (flags & IMG_NO_SHDRS) ? 0 : m->shoff, (int)a);
  img_put(m, f, eh, 2);
  img_put(m, f + 2, phent, 2);
  img_put(m, f + 4, (flags & IMG_NO_PHDRS) ? 0 : nph, 2);
  img_put(m, f + 6, shent, 2);
  img_put(m, f + 8, (flags & (IMG_NO_SHDRS | IMG_NO_DYNAMIC)) ? 0 : 3, 2);
  for (size_t k = 0; k < nph; k++) {
    size_t ph = m->phoff + k * phent;
    uint64_t off = k ? m->dyn_off : 0, size = k ? dyn_size : m->len;
    img_put(m, ph, k ? 2 : 1, 4);
    img_put(m, ph + (bits == 64 ? 8 : 4), off, w);
    img_put(m, ph + (bits == 64 ? 16 : 8), 0x10000 + off, w);
    img_put(m, ph + (bits == 64 ? 32 : 16), size, w);
  }
  size_t d = m->dyn_off;
  for (int i = 0, s = 1; i < n; s += (int)strlen(libs[i]) + 1, i++, d += dynent) {
    img_put(m, d, 1, w);
    img_put(m, d + (size_t)w, (uint64_t)s, w);
  }
  img_put(m, d, 5, w);
  img_put(m, d + (size_t)w, 0x10000 + m->str_off, w);
  img_put(m, d + dynent, 10, w);
  img_put(m, d + dynent + (size_t)w, str_size, w);
  for (int k = 1; k < 3; k++) {
    size_t sh = m->shoff + (size_t)k * shent;
    img_put(m, sh + 4, k == 1 ? 3 : 6, 4);
    img_put(m, sh + (bits == 64 ? 24 : 16), k == 1 ? m->str_off : m->dyn_off, w);
    img_put(m, sh + (bits == 64 ? 32 : 20), k == 1 ? str_size : dyn_size, w);
    img_put(m, sh + (bits == 64 ? 40 : 24), k == 2 ? 1 : 0, 4);
  }
}

static const char *const img_libs[] = {"libcudart.so.12", "libnccl.so.2", "libc.so.6"};

/* Whether `got` equals the first got->len names of img_libs. */
static bool img_prefix_ok(const StrList *got) {
  if (got->len > 3) return false;
  for (size_t i = 0; i < got->len; i++)
    if (strcmp(got->items[i], img_libs[i]) != 0) return false;
  return true;
}

static int img_variant(int bits, int be, unsigned flags, StrList *out, ElfInfo *info) {
  Img m;
  img_build(&m, bits, be, img_libs, 3, flags);
  return elf_needed(m.p, m.len, info, out);
}

static void check_variant(int *test__failed, int bits, int be, unsigned flags) {
  StrList got = {0};
  ElfInfo info = {0, false};
  int rc = img_variant(bits, be, flags, &got, &info);
  bool ok = rc == ELF_OK && got.len == 3 && img_prefix_ok(&got) && info.bits == bits && info.big_endian == (be != 0);
  strlist_free(&got);
  if (!ok) TEST_FAIL("%d-bit %s flags %u: rc %d", bits, be ? "BE" : "LE", flags, rc);
}

TEST(elf_64_le) { check_variant(test__failed, 64, 0, 0); }
TEST(elf_64_be) { check_variant(test__failed, 64, 1, 0); }
TEST(elf_32_le) { check_variant(test__failed, 32, 0, 0); }
TEST(elf_32_be) { check_variant(test__failed, 32, 1, 0); }
TEST(elf_program_headers_only) {
  check_variant(test__failed, 64, 0, IMG_NO_SHDRS);
  check_variant(test__failed, 32, 1, IMG_NO_SHDRS);
}
TEST(elf_section_headers_only) {
  check_variant(test__failed, 64, 1, IMG_NO_PHDRS);
  check_variant(test__failed, 32, 0, IMG_NO_PHDRS);
}

TEST(elf_no_dynamic_section) {
  StrList got = {0};
  ASSERT_EQ(img_variant(64, 0, IMG_NO_DYNAMIC, &got, NULL), ELF_ENODYN);
  ASSERT_EQ(got.len, 0);
}

TEST(elf_not_elf) {
  StrList got = {0};
  ASSERT_EQ(elf_needed("GROUP ( /lib/libc.so.6 )\n", 25, NULL, &got), ELF_ENOTELF);
  ASSERT_EQ(elf_needed("\177ELF", 4, NULL, &got), ELF_ENOTELF);
  ASSERT_EQ(elf_needed("", 0, NULL, &got), ELF_ENOTELF);
  Img m;
  img_build(&m, 64, 0, img_libs, 3, 0);
  m.p[4] = 3; /* unknown class */
  ASSERT_EQ(elf_needed(m.p, m.len, NULL, &got), ELF_ENOTELF);
  m.p[4] = 2;
  m.p[5] = 0; /* unknown byte order */
  ASSERT_EQ(elf_needed(m.p, m.len, NULL, &got), ELF_ENOTELF);
  ASSERT_EQ(got.len, 0);
  ASSERT_STR_EQ(elf_strerror(ELF_ENODYN), "no dynamic section");
}

/* Every prefix of a valid image: an error or a prefix of the names. Each
 * prefix is copied to an exact-size heap block so ASan sees any overread. */
TEST(elf_truncated) {
  for (int v = 0; v < 4; v++) {
    Img m;
    img_build(&m, v & 1 ? 32 : 64, v & 2, img_libs, 3, 0);
    for (size_t len = 0; len <= m.len; len++) {
      unsigned char *copy = xmalloc(len ? len : 1);
      memcpy(copy, m.p, len);
      StrList got = {0};
      int rc = elf_needed(copy, len, NULL, &got);
      bool ok = img_prefix_ok(&got) && (rc != ELF_OK || len >= m.dyn_off);
      strlist_free(&got);
      free(copy);
      if (!ok) TEST_FAIL("variant %d, length %zu: rc %d", v, len, rc);
    }
  }
}

static int hostile(Img *m, StrList *got) {
  unsigned char *copy = xmalloc(m->len);
  memcpy(copy, m->p, m->len);
  int rc = elf_needed(copy, m->len, NULL, got);
  free(copy);
  return rc;
}

TEST(elf_hostile_offsets) {
  Img m;
  StrList got = {0};
  /* e_phoff near 2^64: the sum must not wrap; the sections still work */
  img_build(&m, 64, 0, img_libs, 3, 0);
  img_put(&m, 32, UINT64_MAX - 8, 8);
  ASSERT_EQ(hostile(&m, &got), ELF_OK);
  ASSERT_EQ(got.len, 3);
  strlist_free(&got);
  /* ... and with the section table gone as well: no dynamic section */
  img_put(&m, 40, UINT64_MAX, 8);
  ASSERT_EQ(hostile(&m, &got), ELF_ENODYN);
  /* PT_DYNAMIC p_offset + p_filesz wrapping around */
  img_build(&m, 64, 0, img_libs, 3, IMG_NO_SHDRS);
  img_put(&m, m.phoff + 56 + 8, UINT64_MAX - 4, 8);
  img_put(&m, m.phoff + 56 + 32, 16, 8);
  ASSERT_EQ(hostile(&m, &got), ELF_ENODYN);
  /* DT_STRTAB outside every PT_LOAD */
  img_build(&m, 32, 1, img_libs, 3, IMG_NO_SHDRS);
  img_put(&m, m.dyn_off + 3 * 8 + 4, 0xfffffff0u, 4);
  ASSERT_EQ(hostile(&m, &got), ELF_ENODYN);
  /* a PT_LOAD whose offset + delta overflows */
  img_build(&m, 64, 0, img_libs, 3, IMG_NO_SHDRS);
  img_put(&m, m.phoff + 8, UINT64_MAX - 2, 8);
  ASSERT_EQ(hostile(&m, &got), ELF_ENODYN);
  /* DT_NEEDED offsets past DT_STRSZ are skipped; a lying DT_STRSZ is clamped */
  img_build(&m, 64, 0, img_libs, 3, IMG_NO_SHDRS);
  img_put(&m, m.dyn_off + 8, 100000, 8);
  img_put(&m, m.dyn_off + 4 * 16 + 8, UINT64_MAX, 8);
  ASSERT_EQ(hostile(&m, &got), ELF_OK);
  ASSERT_EQ(got.len, 2);
  ASSERT_STR_EQ(got.items[0], "libnccl.so.2");
  strlist_free(&got);
  /* phentsize smaller than a program header, phnum at its maximum */
  img_build(&m, 64, 0, img_libs, 3, IMG_NO_SHDRS);
  img_put(&m, 54, 8, 2);
  ASSERT_EQ(hostile(&m, &got), ELF_ENODYN);
  img_put(&m, 54, 56, 2);
  img_put(&m, 56, 0xffff, 2);
  ASSERT_EQ(hostile(&m, &got), ELF_ENODYN);
  /* sh_link out of range */
  img_build(&m, 64, 1, img_libs, 3, IMG_NO_PHDRS);
  img_put(&m, m.shoff + 2 * 64 + 40, 77, 4);
  ASSERT_EQ(hostile(&m, &got), ELF_ENODYN);
  ASSERT_EQ(got.len, 0);
}

TEST(elf_unterminated_name) {
  /* DT_STRSZ stops one byte short of the last name's NUL: that name is dropped */
  Img m;
  img_build(&m, 64, 0, img_libs, 3, IMG_NO_SHDRS);
  size_t str_size = 1 + strlen(img_libs[0]) + 1 + strlen(img_libs[1]) + 1 + strlen(img_libs[2]) + 1;
  img_put(&m, m.dyn_off + 4 * 16 + 8, str_size - 1, 8);
  StrList got = {0};
  ASSERT_EQ(hostile(&m, &got), ELF_OK);
  ASSERT_EQ(got.len, 2);
  ASSERT_STR_EQ(got.items[1], "libnccl.so.2");
  strlist_free(&got);
}

/* Deterministic byte mutations of valid images. */
TEST(elf_mutations) {
  uint32_t seed = 12345;
  for (int iter = 0; iter < 20000; iter++) {
    Img m;
    img_build(&m, iter & 1 ? 32 : 64, iter & 2, img_libs, 3, (unsigned)(iter >> 2) & 3);
    for (int k = 0; k < 1 + iter % 6; k++) {
      seed = seed * 1103515245u + 12345u;
      size_t at = (seed >> 8) % m.len;
      seed = seed * 1103515245u + 12345u;
      m.p[at] = (unsigned char)(seed >> 16);
    }
    StrList got = {0};
    (void)hostile(&m, &got);
    ASSERT(got.len <= ELF_MAX_NEEDED);
    strlist_free(&got);
  }
}

TEST(elf_analyzer_flags_cuda_binaries) {
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  Img m;
  img_build(&m, 64, 0, img_libs, 3, 0);
  FindingList out = {0};
  analyze_text("prebuilt/libops.so", (const char *)m.p, m.len, NULL, &opt, &out, NULL);
  ASSERT_EQ(out.len, 1);
  ASSERT_STR_EQ(out.items[0].rule->code, "ASC420");
  ASSERT_EQ(out.items[0].severity, SEV_ERROR);
  ASSERT_STR_EQ(out.items[0].subject, "libops.so (needs libcudart.so.12, libnccl.so.2)");
  ASSERT_STR_EQ(out.items[0].detail, "ELF 64-bit little-endian; DT_NEEDED: libcudart.so.12, libnccl.so.2, libc.so.6");
  findings_free(&out);
  const char *const plain[] = {"libm.so.6", "libc.so.6"};
  img_build(&m, 32, 1, plain, 2, 0);
  analyze_text("libplain.so.1", (const char *)m.p, m.len, NULL, &opt, &out, NULL);
  ASSERT_EQ(out.len, 0);
  findings_free(&out);
}
