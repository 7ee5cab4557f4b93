/* elf: reads the DT_NEEDED entries of an ELF shared object without running
 * or mapping anything (the seed's `ldd` check, done statically).
 *
 * Both classes (32/64-bit) and both byte orders are read. The input is
 * untrusted: every offset and size is checked against the buffer before use,
 * sums are computed without overflow, and loops are capped, so a truncated or
 * hostile file yields an error code or fewer names, never a crash.
 *
 * The dynamic table is found through the program headers (PT_DYNAMIC, with
 * DT_STRTAB mapped back to a file offset through the PT_LOAD segments), the
 * way the dynamic loader finds it; when that fails, through the section
 * headers (SHT_DYNAMIC and its linked string table). */
#ifndef ASC_ELF_H
#define ASC_ELF_H

#include <stddef.h>
#include "analyzers/engine/util.h"

enum {
  ELF_OK = 0,
  ELF_ENOTELF = -1, /* no ELF magic, or an unknown class / byte order */
  ELF_ETRUNC = -2,  /* the header or a table it names lies outside the buffer */
  ELF_ENODYN = -3,  /* no usable dynamic section (static binary, object file) */
};

typedef struct {
  int bits;        /* 32 or 64 */
  bool big_endian;
} ElfInfo;

/* Appends a heap copy of each DT_NEEDED name, in file order, to *needed (the
 * caller owns them: strlist_free). `data` is borrowed for the call only.
 * `info` may be NULL. Returns ELF_OK (possibly with no names) or a negative
 * ELF_E* code; on error nothing is appended. At most ELF_MAX_NEEDED names. */
int elf_needed(const void *data, size_t len, ElfInfo *info, StrList *needed) WARN_UNUSED;

#define ELF_MAX_NEEDED 512

/* Short text for an ELF_E* code ("not an ELF file", ...). Static. */
const char *elf_strerror(int code);

#endif
