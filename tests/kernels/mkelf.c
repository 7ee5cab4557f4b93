/* mkelf: writes a tiny ELF shared object whose dynamic section names the
 * given libraries (DT_NEEDED), for the fixture's "prebuilt extension". It
 * holds no code: only the headers, a PT_LOAD and PT_DYNAMIC program header,
 * .dynstr / .dynamic / .shstrtab and their section headers, so that the
 * output is our own bytes, byte-for-byte reproducible.
 *
 *   mkelf OUT [--32] [--be] [--soname NAME] LIB...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BASE_VADDR 0x10000u

typedef struct {
  unsigned char *p;
  size_t len;
  int bits;
  int be;
} Img;

/* Stores v in n bytes at off, in the image's byte order. */
static void put(Img *img, size_t off, uint64_t v, int n) {
  for (int i = 0; i < n; i++) {
    int shift = 8 * (img->be ? n - 1 - i : i);
    img->p[off + (size_t)i] = (unsigned char)(v >> shift);
  }
}

static size_t align8(size_t n) { return (n + 7) & ~(size_t)7; }

int main(int argc, char **argv) {
  Img img = {NULL, 0, 64, 0};
  const char *out = NULL, *soname = NULL;
  const char *libs[64];
  int nlibs = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--32") == 0) img.bits = 32;
    else if (strcmp(argv[i], "--be") == 0) img.be = 1;
    else if (strcmp(argv[i], "--soname") == 0 && i + 1 < argc) soname = argv[++i];
    else if (!out) out = argv[i];
    else if (nlibs < 64) libs[nlibs++] = argv[i];
  }
  if (!out) {
    fprintf(stderr, "usage: mkelf OUT [--32] [--be] [--soname NAME] LIB...\n");
    return 2;
  }
  int w = img.bits / 8; /* address / offset / dynamic value width */
  size_t ehsize = img.bits == 64 ? 64 : 52, phent = img.bits == 64 ? 56 : 32, dynent = (size_t)2 * w;
  size_t shent = img.bits == 64 ? 64 : 40;
  /* .dynstr: "\0" then each name */
  size_t str_off = ehsize + 2 * phent, str_size = 1;
  for (int i = 0; i < nlibs; i++) str_size += strlen(libs[i]) + 1;
  if (soname) str_size += strlen(soname) + 1;
  size_t ndyn = (size_t)nlibs + (soname ? 1 : 0) + 3;
  size_t dyn_off = align8(str_off + str_size), dyn_size = ndyn * dynent;
  static const char shstr[] = "\0.dynstr\0.dynamic\0.shstrtab"; /* names at 1, 9, 18 */
  size_t shstr_off = dyn_off + dyn_size, shstr_size = sizeof shstr;
  size_t sh_off = align8(shstr_off + shstr_size);
  img.len = sh_off + 4 * shent;
  img.p = calloc(1, img.len);
  if (!img.p) return 1;
  /* ELF header */
  memcpy(img.p, "\177ELF", 4);
  img.p[4] = img.bits == 64 ? 2 : 1;
  img.p[5] = img.be ? 2 : 1;
  img.p[6] = 1;
  int a = img.bits == 64 ? 8 : 4; /* width of e_entry/e_phoff/e_shoff */
  put(&img, 16, 3, 2);                              /* e_type ET_DYN */
  put(&img, 18, img.bits == 64 ? 62 : 3, 2);        /* e_machine x86-64 / i386 */
  put(&img, 20, 1, 4);                              /* e_version */
  put(&img, 24 + (size_t)a, ehsize, a);             /* e_phoff */
  put(&img, 24 + 2 * (size_t)a, sh_off, a);         /* e_shoff */
  size_t f = 24 + 3 * (size_t)a + 4;                /* after e_flags */
  put(&img, f, ehsize, 2);
  put(&img, f + 2, phent, 2);
  put(&img, f + 4, 2, 2);                           /* e_phnum */
  put(&img, f + 6, shent, 2);
  put(&img, f + 8, 4, 2);                           /* e_shnum */
  put(&img, f + 10, 3, 2);                          /* e_shstrndx */
  /* program headers: PT_LOAD of the whole file, PT_DYNAMIC */
  for (int k = 0; k < 2; k++) {
    size_t ph = ehsize + (size_t)k * phent;
    uint64_t off = k ? dyn_off : 0, size = k ? dyn_size : img.len;
    put(&img, ph, k ? 2 : 1, 4);
    if (img.bits == 64) {
      put(&img, ph + 4, k ? 6 : 5, 4);              /* p_flags */
      put(&img, ph + 8, off, 8);
      put(&img, ph + 16, BASE_VADDR + off, 8);
      put(&img, ph + 24, BASE_VADDR + off, 8);
      put(&img, ph + 32, size, 8);
      put(&img, ph + 40, size, 8);
      put(&img, ph + 48, k ? 8 : 0x1000, 8);
    } else {
      put(&img, ph + 4, off, 4);
      put(&img, ph + 8, BASE_VADDR + off, 4);
      put(&img, ph + 12, BASE_VADDR + off, 4);
      put(&img, ph + 16, size, 4);
      put(&img, ph + 20, size, 4);
      put(&img, ph + 24, k ? 6 : 5, 4);
      put(&img, ph + 28, k ? 4 : 0x1000, 4);
    }
  }
  /* .dynstr and .dynamic */
  size_t s = str_off + 1, d = dyn_off;
  for (int i = 0; i <= nlibs; i++) {
    const char *name = i < nlibs ? libs[i] : soname;
    if (!name) break;
    memcpy(img.p + s, name, strlen(name));
    put(&img, d, i < nlibs ? 1 : 14, w);            /* DT_NEEDED / DT_SONAME */
    put(&img, d + (size_t)w, s - str_off, w);
    d += dynent;
    s += strlen(name) + 1;
  }
  put(&img, d, 5, w);                               /* DT_STRTAB */
  put(&img, d + (size_t)w, BASE_VADDR + str_off, w);
  put(&img, d + dynent, 10, w);                     /* DT_STRSZ */
  put(&img, d + dynent + (size_t)w, str_size, w);
  /* the last entry stays zero: DT_NULL */
  memcpy(img.p + shstr_off, shstr, shstr_size);
  /* section headers: null, .dynstr (STRTAB), .dynamic (DYNAMIC, linked to 1), .shstrtab */
  static const uint32_t names[] = {0, 1, 9, 18}, types[] = {0, 3, 6, 3};
  for (int k = 1; k < 4; k++) {
    size_t sh = sh_off + (size_t)k * shent;
    uint64_t off = k == 1 ? str_off : k == 2 ? dyn_off : shstr_off;
    uint64_t size = k == 1 ? str_size : k == 2 ? dyn_size : shstr_size;
    uint64_t flags = k == 1 ? 2 : k == 2 ? 3 : 0; /* SHF_ALLOC, + SHF_WRITE */
    uint64_t addr = k < 3 ? BASE_VADDR + off : 0;
    put(&img, sh, names[k], 4);
    put(&img, sh + 4, types[k], 4);
    if (img.bits == 64) {
      put(&img, sh + 8, flags, 8);
      put(&img, sh + 16, addr, 8);
      put(&img, sh + 24, off, 8);
      put(&img, sh + 32, size, 8);
      put(&img, sh + 40, k == 2 ? 1 : 0, 4);
      put(&img, sh + 48, k == 3 ? 1 : 8, 8);
      put(&img, sh + 56, k == 2 ? dynent : 0, 8);
    } else {
      put(&img, sh + 8, flags, 4);
      put(&img, sh + 12, addr, 4);
      put(&img, sh + 16, off, 4);
      put(&img, sh + 20, size, 4);
      put(&img, sh + 24, k == 2 ? 1 : 0, 4);
      put(&img, sh + 32, k == 3 ? 1 : 4, 4);
      put(&img, sh + 36, k == 2 ? dynent : 0, 4);
    }
  }
  FILE *fp = fopen(out, "wb");
  if (!fp || fwrite(img.p, 1, img.len, fp) != img.len || fclose(fp) != 0) {
    perror(out);
    return 1;
  }
  free(img.p);
  return 0;
}
