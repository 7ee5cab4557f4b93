/* elf: see elf.h. Every read goes through elf__span, which checks an
 * (offset, size) pair against the buffer without overflowing; counts taken
 * from the file are capped before they drive a loop. */
#include "analyzers/domains/elf.h"

#include <stdint.h>
#include <stdlib.h>

#define ELF__PT_LOAD 1u
#define ELF__PT_DYNAMIC 2u
#define ELF__SHT_DYNAMIC 6u
#define ELF__DT_NULL 0u
#define ELF__DT_NEEDED 1u
#define ELF__DT_STRTAB 5u
#define ELF__DT_STRSZ 10u
#define ELF__MAX_LOADS 64
#define ELF__MAX_DYN 65536u   /* dynamic entries scanned at most */
#define ELF__MAX_NAME 4096u   /* longest library name accepted */

/* Byte offsets of the fields used, per class (the 32- and 64-bit layouts
 * differ in field widths and order). */
typedef struct {
  size_t ehdr_size, e_phoff, e_shoff, e_phentsize, e_phnum, e_shentsize, e_shnum;
  size_t phdr_size, p_offset, p_vaddr, p_filesz;
  size_t shdr_size, sh_type, sh_offset, sh_size, sh_link;
  size_t dyn_size;
  int word; /* bytes in an address / offset / dynamic value */
} ElfLayout;

static const ElfLayout elf__layout32 = {52, 28, 32, 42, 44, 46, 48, 32, 4, 8, 16, 40, 4, 16, 20, 24, 8, 4};
static const ElfLayout elf__layout64 = {64, 32, 40, 54, 56, 58, 60, 56, 8, 16, 32, 64, 4, 24, 32, 40, 16, 8};

typedef struct {
  const unsigned char *p;
  size_t len;
  bool be;
  const ElfLayout *l;
} ElfReader;

typedef struct {
  uint64_t off, size;
} ElfSpan;

typedef struct {
  uint64_t vaddr, off, filesz;
} ElfLoad;

/* Whether [off, off + size) lies inside the buffer (no overflow). */
static bool elf__span(const ElfReader *r, uint64_t off, uint64_t size) {
  return off <= r->len && size <= r->len - off;
}

/* Unsigned integer of n bytes at off in the file's byte order; the caller
 * has checked the span. */
static uint64_t elf__uint(const ElfReader *r, uint64_t off, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) {
    int k = r->be ? i : n - 1 - i;
    v = (v << 8) | r->p[off + (uint64_t)k];
  }
  return v;
}

static uint64_t elf__word(const ElfReader *r, uint64_t off) { return elf__uint(r, off, r->l->word); }

static int elf__reader(const void *data, size_t len, ElfReader *r) {
  const unsigned char *p = data;
  if (len < 16 || p[0] != 0x7f || p[1] != 'E' || p[2] != 'L' || p[3] != 'F') return ELF_ENOTELF;
  if ((p[4] != 1 && p[4] != 2) || (p[5] != 1 && p[5] != 2)) return ELF_ENOTELF;
  r->p = p;
  r->len = len;
  r->be = p[5] == 2;
  r->l = p[4] == 2 ? &elf__layout64 : &elf__layout32;
  return elf__span(r, 0, r->l->ehdr_size) ? ELF_OK : ELF_ETRUNC;
}

/* A table named by the header: `count` entries of `entsize` bytes at `off`,
 * each at least `need` bytes. Returns false when it does not fit. */
static bool elf__table(const ElfReader *r, uint64_t off, uint64_t entsize, uint64_t count, size_t need) {
  if (count == 0) return true;
  return entsize >= need && elf__span(r, off, entsize * count); /* both <= 0xffff: no overflow */
}

/* ---- program headers: PT_DYNAMIC, PT_LOAD and DT_STRTAB --------------------- */

/* File offset of virtual address `va` through the loads; false if unmapped. */
static bool elf__va_to_off(const ElfLoad *loads, size_t n, uint64_t va, uint64_t *off) {
  for (size_t i = 0; i < n; i++) {
    if (va < loads[i].vaddr || va - loads[i].vaddr >= loads[i].filesz) continue;
    uint64_t delta = va - loads[i].vaddr;
    if (loads[i].off > UINT64_MAX - delta) return false;
    *off = loads[i].off + delta;
    return true;
  }
  return false;
}

/* The dynamic table's string table, from DT_STRTAB / DT_STRSZ. */
static bool elf__dyn_strtab(const ElfReader *r, ElfSpan dyn, const ElfLoad *loads, size_t nloads, ElfSpan *str) {
  uint64_t va = 0, size = UINT64_MAX;
  bool have = false;
  uint64_t n = dyn.size / r->l->dyn_size;
  if (n > ELF__MAX_DYN) n = ELF__MAX_DYN;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t at = dyn.off + i * r->l->dyn_size;
    uint64_t tag = elf__word(r, at), val = elf__word(r, at + (uint64_t)r->l->word);
    if (tag == ELF__DT_NULL) break;
    if (tag == ELF__DT_STRTAB) {
      va = val;
      have = true;
    } else if (tag == ELF__DT_STRSZ) {
      size = val;
    }
  }
  if (!have || !elf__va_to_off(loads, nloads, va, &str->off) || str->off > r->len) return false;
  str->size = size < r->len - str->off ? size : r->len - str->off; /* clamp a lying DT_STRSZ */
  return true;
}

static bool elf__via_phdrs(const ElfReader *r, ElfSpan *dyn, ElfSpan *str) {
  const ElfLayout *l = r->l;
  uint64_t phoff = elf__word(r, l->e_phoff);
  uint64_t entsize = elf__uint(r, l->e_phentsize, 2), count = elf__uint(r, l->e_phnum, 2);
  if (count == 0 || !elf__table(r, phoff, entsize, count, l->phdr_size)) return false;
  ElfLoad loads[ELF__MAX_LOADS];
  size_t nloads = 0;
  bool have_dyn = false;
  for (uint64_t i = 0; i < count; i++) {
    uint64_t at = phoff + i * entsize;
    uint64_t type = elf__uint(r, at, 4);
    ElfLoad seg = {elf__word(r, at + l->p_vaddr), elf__word(r, at + l->p_offset), elf__word(r, at + l->p_filesz)};
    if (type == ELF__PT_LOAD && nloads < ELF__MAX_LOADS) {
      loads[nloads++] = seg;
    } else if (type == ELF__PT_DYNAMIC && !have_dyn && elf__span(r, seg.off, seg.filesz)) {
      dyn->off = seg.off;
      dyn->size = seg.filesz;
      have_dyn = true;
    }
  }
  return have_dyn && elf__dyn_strtab(r, *dyn, loads, nloads, str);
}

/* ---- section headers: SHT_DYNAMIC and its sh_link string table ---------- */

static bool elf__section(const ElfReader *r, uint64_t shoff, uint64_t entsize, uint64_t i, ElfSpan *s) {
  uint64_t at = shoff + i * entsize;
  s->off = elf__word(r, at + r->l->sh_offset);
  s->size = elf__word(r, at + r->l->sh_size);
  return elf__span(r, s->off, s->size);
}

static bool elf__via_shdrs(const ElfReader *r, ElfSpan *dyn, ElfSpan *str) {
  const ElfLayout *l = r->l;
  uint64_t shoff = elf__word(r, l->e_shoff);
  uint64_t entsize = elf__uint(r, l->e_shentsize, 2), count = elf__uint(r, l->e_shnum, 2);
  if (count == 0 || !elf__table(r, shoff, entsize, count, l->shdr_size)) return false;
  for (uint64_t i = 0; i < count; i++) {
    uint64_t at = shoff + i * entsize;
    if (elf__uint(r, at + l->sh_type, 4) != ELF__SHT_DYNAMIC) continue;
    uint64_t link = elf__uint(r, at + l->sh_link, 4);
    if (link >= count) return false;
    return elf__section(r, shoff, entsize, i, dyn) && elf__section(r, shoff, entsize, link, str);
  }
  return false;
}

/* ---- DT_NEEDED ---------------------------------------------------------------- */

static void elf__collect(const ElfReader *r, ElfSpan dyn, ElfSpan str, StrList *needed) {
  uint64_t n = dyn.size / r->l->dyn_size;
  if (n > ELF__MAX_DYN) n = ELF__MAX_DYN;
  size_t found = 0;
  for (uint64_t i = 0; i < n && found < ELF_MAX_NEEDED; i++) {
    uint64_t at = dyn.off + i * r->l->dyn_size;
    uint64_t tag = elf__word(r, at), val = elf__word(r, at + (uint64_t)r->l->word);
    if (tag == ELF__DT_NULL) break;
    if (tag != ELF__DT_NEEDED || val >= str.size) continue;
    uint64_t max = str.size - val < ELF__MAX_NAME ? str.size - val : ELF__MAX_NAME;
    const char *name = (const char *)r->p + str.off + val;
    const char *nul = memchr(name, '\0', (size_t)max);
    if (!nul || nul == name) continue; /* unterminated or empty: skip the entry */
    array_push(needed, xstrndup(name, (size_t)(nul - name)));
    found++;
  }
}

int elf_needed(const void *data, size_t len, ElfInfo *info, StrList *needed) {
  ElfReader r;
  int rc = elf__reader(data, len, &r);
  if (rc != ELF_OK) return rc;
  if (info) {
    info->bits = r.l == &elf__layout64 ? 64 : 32;
    info->big_endian = r.be;
  }
  ElfSpan dyn = {0, 0}, str = {0, 0};
  if (!elf__via_phdrs(&r, &dyn, &str) && !elf__via_shdrs(&r, &dyn, &str)) return ELF_ENODYN;
  elf__collect(&r, dyn, str, needed);
  return ELF_OK;
}

const char *elf_strerror(int code) {
  switch (code) {
  case ELF_OK: return "ok";
  case ELF_ENOTELF: return "not an ELF file";
  case ELF_ETRUNC: return "truncated ELF header";
  case ELF_ENODYN: return "no dynamic section";
  default: return "unknown ELF error";
  }
}
