/* diskcache: see diskcache.h.
 *
 * One folder per scan identity, `<identity>.cache/`, holding DC_SHARDS
 * shard files `00`, `01`, ...; a path's entry is in the shard its digest
 * picks. Shard layout (little-endian): "ASCLSPC2", the identity (16 bytes),
 * the shard's number (u32), the entry count (u32), then per entry its path
 * (u32 length + bytes), its dependency digest (16), its file's stamp (5 x
 * u64) and text digest (16), and its payload (u32 length + bytes), and last
 * the digest of everything before it (16). */
#include "server/diskcache.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef ASCEND_LSP_VERSION
#define ASCEND_LSP_VERSION "dev"
#endif

#define DC_MAGIC "ASCLSPC3"
/* Shards per cache: an edit rewrites the one its file's entry is in. */
#define DC_SHARDS 16u
#define DC_MAX_FILE ((size_t)1 << 30)

/* ---- digests ----------------------------------------------------------------- */

void dc_hash_init(DcHasher *h) {
  h->a = 0xcbf29ce484222325ull;
  h->b = 0x84222325cbf29ce4ull;
}

static uint64_t dc__rotl(uint64_t x, int r) { return x << r | x >> (64 - r); }

/* Eight bytes a step in two lanes (most of a warm run's digesting is whole
 * texts and the cache file itself); the tail a byte at a time. */
void dc_hash_bytes(DcHasher *h, const void *p, size_t n) {
  const unsigned char *s = p;
  uint64_t a = h->a, b = h->b;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    a = dc__rotl((a ^ w) * 0x9e3779b97f4a7c15ull, 29);
    b = dc__rotl((b + w) * 0xc2b2ae3d27d4eb4full, 31) ^ a;
  }
  for (; i < n; i++) {
    a = (a ^ s[i]) * 0x100000001b3ull;
    b = (b ^ s[i]) * 0x00000100000001b3ull + 0x9e3779b97f4a7c15ull;
  }
  h->a = a;
  h->b = b;
}

void dc_hash_u64(DcHasher *h, uint64_t v) {
  unsigned char b[8];
  for (int i = 0; i < 8; i++) b[i] = (unsigned char)(v >> (8 * i));
  dc_hash_bytes(h, b, 8);
}

void dc_hash_str(DcHasher *h, const char *s) {
  dc_hash_u64(h, s ? strlen(s) : UINT64_MAX);
  if (s) dc_hash_bytes(h, s, strlen(s));
}

static uint64_t dc__mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

DcKey dc_hash_final(const DcHasher *h) { return (DcKey){dc__mix(h->a ^ dc__mix(h->b)), dc__mix(h->b + h->a)}; }

static pthread_once_t dc__build_once = PTHREAD_ONCE_INIT;
static DcKey dc__build;

/* The linker's build id of the running program (its NT_GNU_BUILD_ID note,
 * a digest of the whole linked output), read from the loaded program
 * headers: no file to read. */
static int dc__note(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  DcHasher *h = data;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    if (info->dlpi_phdr[i].p_type != PT_NOTE) continue;
    const unsigned char *p = (const unsigned char *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    const unsigned char *end = p + info->dlpi_phdr[i].p_memsz;
    while (end - p >= (ptrdiff_t)sizeof(ElfW(Nhdr))) {
      ElfW(Nhdr) n;
      memcpy(&n, p, sizeof n);
      size_t name = (n.n_namesz + 3u) & ~3u, desc = (n.n_descsz + 3u) & ~3u;
      const unsigned char *d = p + sizeof n + name;
      if (name > (size_t)(end - p) || desc > (size_t)(end - d)) break;
      if (n.n_type == NT_GNU_BUILD_ID && n.n_namesz == 4 && memcmp(p + sizeof n, "GNU", 4) == 0 && n.n_descsz) {
        dc_hash_bytes(h, d, n.n_descsz);
        return 1;
      }
      p = d + desc;
    }
  }
  return 1; /* the first object is the program itself: the others are libraries */
}

static void dc__build_init(void) {
  DcHasher h;
  dc_hash_init(&h);
  dc_hash_str(&h, ASCEND_LSP_VERSION);
  DcHasher id = h;
  dl_iterate_phdr(dc__note, &id);
  if (id.a == h.a && id.b == h.b) { /* linked without a build id: the executable itself */
    char *exe = NULL;
    size_t len = 0;
    if (util_read_file("/proc/self/exe", (size_t)256 << 20, &exe, &len) == 0) dc_hash_bytes(&id, exe, len);
    free(exe);
  }
  dc__build = dc_hash_final(&id);
}

DcKey dc_build_id(void) {
  pthread_once(&dc__build_once, dc__build_init);
  return dc__build;
}

char *dc_default_dir(const char *configured) {
  const char *env = getenv("ASCEND_LSP_CACHE_DIR");
  if (env && *env) return xstrdup(env);
  if (configured && *configured) return xstrdup(configured);
  const char *xdg = getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return xasprintf("%s/ascend-lsp", xdg);
  const char *home = getenv("HOME");
  if (home && *home == '/') return xasprintf("%s/.cache/ascend-lsp", home);
  return NULL;
}

/* ---- the cache --------------------------------------------------------------- */

typedef struct {
  const char *path; /* into the loaded shard's bytes (not NUL-terminated) */
  uint32_t path_len;
  uint64_t hash;    /* dc__path_hash of path: its shard and its slot */
  DcKey deps;
  DcStamp stamp;
  DcKey text;
  const char *data;
  uint32_t len;
} DcLoaded;

typedef struct {
  char *path;
  DcKey deps;
  DcStamp stamp;
  DcKey text;
  const char *data; /* owned when `owned`, else in a loaded shard's bytes */
  size_t len;
  bool owned;
  uint32_t shard;
} DcRecord;

/* One shard file as loaded: its bytes (NULL: missing or not trusted),
 * mapped read-only from the file (the page cache's pages, no copy), and how
 * many entries it holds. */
typedef struct {
  char *bytes;
  size_t len;
  size_t entries;
} DcShard;

/* Maps the regular file at path read-only; NULL when it cannot be (missing,
 * empty, special, too large). Every writer replaces a shard by a rename,
 * never in place, so a mapped shard keeps its bytes for the whole run: the
 * rename leaves the mapping on the old file. */
static char *dc__map(const char *path, size_t *len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return NULL;
  struct stat st;
  void *p = MAP_FAILED;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size <= DC_MAX_FILE)
    p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  close(fd);
  if (p == MAP_FAILED) return NULL;
  *len = (size_t)st.st_size;
  return p;
}

struct DiskCache {
  char *dir, *folder;       /* the cache folder, and this identity's folder of shards in it */
  DcKey identity;
  DcShard shards[DC_SHARDS];
  Array(DcLoaded) loaded;
  size_t *slots, n_slots;   /* open addressing over loaded: index + 1, 0 = empty */
  pthread_mutex_t lock;     /* guards records and the counters */
  Array(DcRecord) records;
  size_t hits, stamped;
};

static uint64_t dc__path_hash(const char *p, size_t n) {
  DcHasher h;
  dc_hash_init(&h);
  dc_hash_bytes(&h, p, n);
  return dc_hash_final(&h).lo;
}

/* The shard of a path: bits of its digest the slot index does not use. */
static uint32_t dc__shard_of_hash(uint64_t h) { return (uint32_t)(h >> 59) % DC_SHARDS; }

static uint32_t dc__shard_of(const char *p, size_t n) { return dc__shard_of_hash(dc__path_hash(p, n)); }

static char *dc__shard_file(const DiskCache *dc, uint32_t shard) { return xasprintf("%s/%02x", dc->folder, shard); }

/* The slot of path (its digest h) in the open addressing over loaded. */
static size_t *dc__slot_hashed(DiskCache *dc, uint64_t h, const char *path, size_t n) {
  size_t i = (size_t)h & (dc->n_slots - 1);
  for (; dc->slots[i]; i = (i + 1) & (dc->n_slots - 1)) {
    const DcLoaded *e = &dc->loaded.items[dc->slots[i] - 1];
    if (e->path_len == n && memcmp(e->path, path, n) == 0) break;
  }
  return &dc->slots[i];
}

static size_t *dc__slot(DiskCache *dc, const char *path, size_t n) {
  return dc__slot_hashed(dc, dc__path_hash(path, n), path, n);
}

typedef struct {
  const unsigned char *p, *end;
  bool bad;
} DcReader;

static uint32_t dc__u32(DcReader *r) {
  if (r->bad || r->end - r->p < 4) return r->bad = true, 0;
  uint32_t v = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 | (uint32_t)r->p[3] << 24;
  r->p += 4;
  return v;
}

static uint64_t dc__u64(DcReader *r) {
  uint64_t lo = dc__u32(r);
  return lo | (uint64_t)dc__u32(r) << 32;
}

static DcKey dc__key(DcReader *r) {
  DcKey k;
  k.lo = dc__u64(r);
  k.hi = dc__u64(r);
  return k;
}

static const char *dc__span(DcReader *r, uint32_t *n) {
  *n = dc__u32(r);
  if (r->bad || (size_t)(r->end - r->p) < *n) return r->bad = true, NULL;
  const char *s = (const char *)r->p;
  r->p += *n;
  return s;
}

static bool dc__key_eq(DcKey a, DcKey b) { return a.lo == b.lo && a.hi == b.hi; }

static DcStamp dc__stamp(DcReader *r) {
  DcStamp s;
  s.dev = dc__u64(r);
  s.ino = dc__u64(r);
  s.size = dc__u64(r);
  s.mtime_ns = dc__u64(r);
  s.ctime_ns = dc__u64(r);
  return s;
}

static bool dc__stamp_eq(const DcStamp *a, const DcStamp *b) {
  return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns &&
         a->ctime_ns == b->ctime_ns;
}

static bool dc__stamp_zero(const DcStamp *s) { return !(s->dev | s->ino | s->size | s->mtime_ns | s->ctime_ns); }

/* Appends the entries of shard `shard`'s bytes to the loaded ones; false
 * (and nothing appended) when they do not check out: the magic, the
 * checksum, this scan's identity, the shard's own number, each entry in the
 * shard its path belongs to. */
static bool dc__parse(DiskCache *dc, uint32_t shard, const char *bytes, size_t len) {
  if (len < 8 + 16 + 4 + 4 + 16 || memcmp(bytes, DC_MAGIC, 8) != 0) return false;
  DcHasher h;
  dc_hash_init(&h);
  dc_hash_bytes(&h, bytes, len - 16);
  DcReader tail = {(const unsigned char *)bytes + len - 16, (const unsigned char *)bytes + len, false};
  if (!dc__key_eq(dc_hash_final(&h), dc__key(&tail))) return false;
  DcReader r = {(const unsigned char *)bytes + 8, (const unsigned char *)bytes + len - 16, false};
  if (!dc__key_eq(dc__key(&r), dc->identity) || dc__u32(&r) != shard) return false;
  uint32_t n = dc__u32(&r);
  if (n > len / 80) return false;
  size_t before = dc->loaded.len;
  for (uint32_t i = 0; i < n && !r.bad; i++) {
    DcLoaded e;
    e.path = dc__span(&r, &e.path_len);
    e.deps = dc__key(&r);
    e.stamp = dc__stamp(&r);
    e.text = dc__key(&r);
    e.data = dc__span(&r, &e.len);
    e.hash = r.bad ? 0 : dc__path_hash(e.path, e.path_len);
    if (!r.bad && dc__shard_of_hash(e.hash) != shard) r.bad = true;
    if (!r.bad) array_push(&dc->loaded, e);
  }
  if (r.bad || r.p != r.end) {
    dc->loaded.len = before;
    return false;
  }
  return true;
}

static void dc__index(DiskCache *dc) {
  if (!dc->loaded.len) return;
  dc->n_slots = 16;
  while (dc->n_slots < 2 * dc->loaded.len + 2) dc->n_slots *= 2;
  dc->slots = xcalloc(dc->n_slots, sizeof *dc->slots);
  for (size_t i = 0; i < dc->loaded.len; i++) {
    const DcLoaded *e = &dc->loaded.items[i];
    size_t *s = dc__slot_hashed(dc, e->hash, e->path, e->path_len);
    if (!*s) *s = i + 1;
  }
}

DiskCache *dc_load(const char *dir, DcKey identity) {
  DiskCache *dc = xcalloc(1, sizeof *dc);
  pthread_mutex_init(&dc->lock, NULL);
  dc->identity = identity;
  dc->dir = xstrdup(dir);
  dc->folder = xasprintf("%s/%016llx%016llx.cache", dir, (unsigned long long)identity.hi,
                         (unsigned long long)identity.lo);
  for (uint32_t k = 0; k < DC_SHARDS; k++) {
    DcShard *sh = &dc->shards[k];
    char *file = dc__shard_file(dc, k);
    size_t len = 0, before = dc->loaded.len;
    sh->bytes = dc__map(file, &len);
    if (sh->bytes && !dc__parse(dc, k, sh->bytes, len)) {
      munmap(sh->bytes, len);
      sh->bytes = NULL;
    }
    sh->len = sh->bytes ? len : 0;
    sh->entries = dc->loaded.len - before;
    free(file);
  }
  dc__index(dc);
  return dc;
}

bool dc_lookup(DiskCache *dc, const char *path, DcKey deps, const char **data, size_t *len) {
  if (!dc->n_slots) return false;
  size_t slot = *dc__slot(dc, path, strlen(path));
  if (!slot || !dc__key_eq(dc->loaded.items[slot - 1].deps, deps)) return false;
  *data = dc->loaded.items[slot - 1].data;
  *len = dc->loaded.items[slot - 1].len;
  return true;
}

bool dc_stamp_of(const char *path, DcStamp *out) {
  memset(out, 0, sizeof *out);
  struct stat st;
  struct timespec now;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || clock_gettime(CLOCK_REALTIME, &now) != 0) return false;
  uint64_t m = (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec;
  uint64_t c = (uint64_t)st.st_ctim.tv_sec * 1000000000u + (uint64_t)st.st_ctim.tv_nsec;
  uint64_t t = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
  /* a change within the last two seconds may be followed by another one the
   * timestamps cannot tell apart: such a file is read every time until then */
  uint64_t latest = m > c ? m : c;
  if (latest + 2000000000u > t) return false;
  *out = (DcStamp){(uint64_t)st.st_dev, (uint64_t)st.st_ino, (uint64_t)st.st_size, m, c};
  return true;
}

bool dc_known_text(DiskCache *dc, const char *path, const DcStamp *st, DcKey *text) {
  if (!dc->n_slots || dc__stamp_zero(st)) return false;
  size_t slot = *dc__slot(dc, path, strlen(path));
  if (!slot || !dc__stamp_eq(&dc->loaded.items[slot - 1].stamp, st)) return false;
  *text = dc->loaded.items[slot - 1].text;
  pthread_mutex_lock(&dc->lock);
  dc->stamped++;
  pthread_mutex_unlock(&dc->lock);
  return true;
}

void dc_note_hit(DiskCache *dc) {
  pthread_mutex_lock(&dc->lock);
  dc->hits++;
  pthread_mutex_unlock(&dc->lock);
}

/* Whether [data, data + len) lies in a loaded shard's bytes. */
static bool dc__borrowed(const DiskCache *dc, const char *data, size_t len) {
  uintptr_t at = (uintptr_t)data;
  for (uint32_t k = 0; k < DC_SHARDS; k++) {
    const DcShard *sh = &dc->shards[k];
    uintptr_t base = (uintptr_t)sh->bytes;
    if (sh->bytes && at >= base && at - base <= sh->len && len <= sh->len - (at - base)) return true;
  }
  return false;
}

void dc_record(DiskCache *dc, const char *path, DcKey deps, const char *data, size_t len) {
  dc_record_file(dc, path, deps, NULL, (DcKey){0, 0}, data, len);
}

void dc_record_file(DiskCache *dc, const char *path, DcKey deps, const DcStamp *stamp, DcKey text, const char *data,
                    size_t len) {
  if (len > UINT32_MAX) return;
  /* a payload the cache itself holds (a hit recorded again) is borrowed */
  bool loaded = dc__borrowed(dc, data, len);
  char *copy = loaded ? NULL : xmalloc(len ? len : 1);
  if (copy) memcpy(copy, data, len);
  DcRecord r = {xstrdup(path), deps, stamp ? *stamp : (DcStamp){0, 0, 0, 0, 0}, text, loaded ? data : copy, len, !loaded,
                dc__shard_of(path, strlen(path))};
  pthread_mutex_lock(&dc->lock);
  array_push(&dc->records, r);
  pthread_mutex_unlock(&dc->lock);
}

static void dc__put_u32(StrBuf *sb, uint32_t v) {
  unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                        (unsigned char)(v >> 24)};
  sb_append(sb, (const char *)b, 4);
}

static void dc__put_u64(StrBuf *sb, uint64_t v) {
  dc__put_u32(sb, (uint32_t)v);
  dc__put_u32(sb, (uint32_t)(v >> 32));
}

static void dc__put_key(StrBuf *sb, DcKey k) {
  dc__put_u64(sb, k.lo);
  dc__put_u64(sb, k.hi);
}

static int dc__record_cmp(const void *x, const void *y) {
  const DcRecord *a = x, *b = y;
  if (a->shard != b->shard) return a->shard < b->shard ? -1 : 1;
  return strcmp(a->path, b->path);
}

/* mkdir -p: each prefix of dir in turn. */
static int dc__mkdir_p(const char *dir) {
  if (!*dir) return -EINVAL;
  char *p = xstrdup(dir);
  int rc = 0;
  for (char *s = p + 1; rc == 0; s++) {
    bool last = *s == '\0';
    if (*s != '/' && !last) continue;
    *s = '\0';
    if (mkdir(p, 0755) != 0 && errno != EEXIST) rc = -errno;
    if (last) break;
    *s = '/';
  }
  free(p);
  return rc;
}

/* The folder and its markers: a CACHEDIR.TAG so backup tools skip it, and
 * a .gitignore so a cache folder inside a repository is never committed. */
static int dc__make_dir(const char *dir) {
  int rc = dc__mkdir_p(dir);
  if (rc != 0) return rc;
  static const char *const markers[][2] = {
      {"CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n# ascend-lsp analysis cache\n"},
      {".gitignore", "*\n"}};
  for (size_t i = 0; i < 2; i++) {
    char *p = xasprintf("%s/%s", dir, markers[i][0]);
    int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ssize_t w = write(fd, markers[i][1], strlen(markers[i][1]));
      (void)w;
      close(fd);
    }
    free(p);
  }
  return 0;
}

static int dc__write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -errno;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Whether records[a, b) (one shard's, sorted) are exactly that shard's
 * loaded entries (distinct paths, the same digests and payloads): a shard
 * whose files all came from the cache is not written again, not even for a
 * stamp that became trustworthy since (its file is read until the shard is
 * written for another reason). */
static bool dc__unchanged(DiskCache *dc, uint32_t shard, size_t a, size_t b) {
  if (!dc->shards[shard].bytes || b - a != dc->shards[shard].entries) return false;
  for (size_t i = a; i < b; i++) {
    const DcRecord *r = &dc->records.items[i];
    if (i > a && strcmp(dc->records.items[i - 1].path, r->path) == 0) return false;
    const char *data;
    size_t len;
    if (!dc_lookup(dc, r->path, r->deps, &data, &len) || len != r->len) return false;
    if (data != r->data && memcmp(data, r->data, len) != 0) return false; /* a hit recorded again is the same bytes */
  }
  return true;
}

/* Replaces shard `shard`'s file by records[a, b), through a temporary file
 * and a rename. */
static int dc__write_shard(const DiskCache *dc, uint32_t shard, size_t a, size_t b) {
  StrBuf sb;
  sb_init(&sb);
  size_t total = 8 + 16 + 4 + 4 + 16;
  for (size_t i = a; i < b; i++) total += 4 + strlen(dc->records.items[i].path) + 16 + 40 + 16 + 4 + dc->records.items[i].len;
  sb_reserve(&sb, total);
  sb_append(&sb, DC_MAGIC, 8);
  dc__put_key(&sb, dc->identity);
  dc__put_u32(&sb, shard);
  dc__put_u32(&sb, (uint32_t)(b - a));
  for (size_t i = a; i < b; i++) {
    const DcRecord *r = &dc->records.items[i];
    dc__put_u32(&sb, (uint32_t)strlen(r->path));
    sb_puts(&sb, r->path);
    dc__put_key(&sb, r->deps);
    const uint64_t st[] = {r->stamp.dev, r->stamp.ino, r->stamp.size, r->stamp.mtime_ns, r->stamp.ctime_ns};
    for (size_t k = 0; k < 5; k++) dc__put_u64(&sb, st[k]);
    dc__put_key(&sb, r->text);
    dc__put_u32(&sb, (uint32_t)r->len);
    sb_append(&sb, r->data, r->len);
  }
  DcHasher h;
  dc_hash_init(&h);
  dc_hash_bytes(&h, sb.data, sb.len);
  dc__put_key(&sb, dc_hash_final(&h));
  char *file = dc__shard_file(dc, shard);
  char *tmp = xasprintf("%s.%ld.tmp", file, (long)getpid());
  /* created fresh, never opened as found: a FIFO (or anything else) left at
   * this name would block or redirect the write; it is removed instead */
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0 && errno == EEXIST && unlink(tmp) == 0)
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  int rc = fd < 0 ? -errno : dc__write_all(fd, sb.data, sb.len);
  if (fd >= 0 && close(fd) != 0 && rc == 0) rc = -errno;
  if (rc == 0 && rename(tmp, file) != 0) rc = -errno;
  if (rc != 0 && fd >= 0) unlink(tmp);
  free(tmp);
  free(file);
  sb_free(&sb);
  return rc;
}

int dc_save(DiskCache *dc) {
  if (dc->records.len) qsort(dc->records.items, dc->records.len, sizeof *dc->records.items, dc__record_cmp);
  int rc = 0;
  bool made = false;
  for (size_t a = 0, shard = 0; shard < DC_SHARDS && rc == 0; shard++) {
    size_t b = a;
    while (b < dc->records.len && dc->records.items[b].shard == shard) b++;
    if (!dc__unchanged(dc, (uint32_t)shard, a, b)) {
      if (!made) rc = dc__make_dir(dc->dir);
      if (!made && rc == 0 && mkdir(dc->folder, 0755) != 0 && errno != EEXIST) rc = -errno;
      made = true;
      if (rc == 0) rc = dc__write_shard(dc, (uint32_t)shard, a, b);
    }
    a = b;
  }
  return rc;
}

void dc_stats(const DiskCache *dc, size_t *hits, size_t *recorded, size_t *stamped) {
  *hits = dc->hits;
  *stamped = dc->stamped;
  *recorded = 0;
  for (size_t i = 0; i < dc->records.len; i++) *recorded += dc->records.items[i].path[0] != '\0';
}

void dc_free(DiskCache *dc) {
  if (!dc) return;
  for (size_t i = 0; i < dc->records.len; i++) {
    free(dc->records.items[i].path);
    if (dc->records.items[i].owned) free((char *)dc->records.items[i].data);
  }
  array_free(&dc->records);
  array_free(&dc->loaded);
  free(dc->slots);
  for (uint32_t k = 0; k < DC_SHARDS; k++)
    if (dc->shards[k].bytes) munmap(dc->shards[k].bytes, dc->shards[k].len);
  free(dc->folder);
  free(dc->dir);
  pthread_mutex_destroy(&dc->lock);
  free(dc);
}
