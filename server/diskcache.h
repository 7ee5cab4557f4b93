/* diskcache: per-file analysis results kept on disk between CLI runs, so a
 * second `check`, `fix` or `report` of an unchanged tree analyzes nothing.
 *
 * One cache per scan identity: the build of ascend-lsp (its linker
 * build id, so any rebuild that changes the program starts afresh), the analysis options and
 * the scanned paths. It maps each file's path to the digest of what its
 * analysis depends on (its text, its project path, its NPU twin, its kind)
 * and the encoded results (resultcodec). The entries are spread over a
 * fixed number of shard files in the identity's folder, by path, so that an
 * edit of one file rewrites one shard, not every entry. The shards are mapped
 * (read-only, never copied) once at the start of a scan; a shard whose entries changed is replaced at
 * the end through a temporary file and a rename, so concurrent runs never
 * see a half-written shard (the last one to finish wins). A shard that does
 * not check out (magic, identity, shard number, lengths, the checksum) is a
 * miss as a whole; it is rewritten by the next save.
 *
 * Ownership: a DiskCache owns its entries; free with dc_free. Lookups and
 * records are thread-safe (the analyzing threads call them). */
#ifndef ASC_DISKCACHE_H
#define ASC_DISKCACHE_H

#include <stddef.h>
#include <stdint.h>
#include "analyzers/engine/util.h"

/* A 128-bit digest. */
typedef struct {
  uint64_t lo, hi;
} DcKey;

/* Incremental digest over bytes (not cryptographic: the cache trusts no
 * entry it cannot verify, it only needs distinct inputs to differ). */
typedef struct {
  uint64_t a, b;
} DcHasher;
void dc_hash_init(DcHasher *h);
void dc_hash_bytes(DcHasher *h, const void *p, size_t n);
/* A string with its length, so that ("ab","c") and ("a","bc") differ; NULL
 * differs from "". */
void dc_hash_str(DcHasher *h, const char *s);
void dc_hash_u64(DcHasher *h, uint64_t v);
DcKey dc_hash_final(const DcHasher *h);

/* The digest of the running build: the linker's build id of the program
 * (a digest of everything linked into it), else of the executable's bytes
 * (/proc/self/exe), else of the version string; computed once per process. */
DcKey dc_build_id(void);

/* The cache folder to use: ASCEND_LSP_CACHE_DIR, else `configured` (may be
 * NULL), else $XDG_CACHE_HOME/ascend-lsp, else $HOME/.cache/ascend-lsp;
 * NULL when none can be formed. Caller frees. */
char *dc_default_dir(const char *configured);

/* What stat says of a file, enough to tell that it did not change since:
 * all zero when it cannot be trusted (changed too recently: another write
 * within the file system's timestamp granularity would keep the same
 * stamp). */
typedef struct {
  uint64_t dev, ino, size, mtime_ns, ctime_ns;
} DcStamp;

/* The stamp of the file at `path`; false (and a zero stamp) when stat
 * fails, it is no regular file, or it changed less than two seconds ago. */
bool dc_stamp_of(const char *path, DcStamp *out);

typedef struct DiskCache DiskCache;

/* Loads the cache of `identity` from dir (created on save). A missing,
 * unreadable, foreign or corrupt shard gives no entries. Never NULL. */
DiskCache *dc_load(const char *dir, DcKey identity);
/* The stored payload of path when its dependency digest is `deps`: true
 * and a borrowed pointer valid until dc_free, else false. */
bool dc_lookup(DiskCache *dc, const char *path, DcKey deps, const char **data, size_t *len);
/* The digest of path's text as recorded with the stamp `st` (non-zero):
 * true when the stored stamp is exactly st, so the text need not be read
 * again to be known. */
bool dc_known_text(DiskCache *dc, const char *path, const DcStamp *st, DcKey *text);

/* Counts a lookup whose payload was used (a payload that does not decode is
 * a miss for the caller). */
void dc_note_hit(DiskCache *dc);
/* Records path's payload for the saved file (copied, unless it is a
 * payload dc_lookup gave: then borrowed from the loaded file). */
void dc_record(DiskCache *dc, const char *path, DcKey deps, const char *data, size_t len);
/* The same with the file's stamp (NULL or zero: none) and the digest of its
 * text, for dc_known_text on a later run. */
void dc_record_file(DiskCache *dc, const char *path, DcKey deps, const DcStamp *stamp, DcKey text, const char *data,
                    size_t len);
/* Writes the recorded entries (nothing else: files gone from the tree drop
 * out) to the shards they belong to, creating dir; a shard whose entries
 * are the loaded ones unchanged is not written. Returns 0 or a negative
 * errno; a shard not written is untouched and no temporary file is left. */
int dc_save(DiskCache *dc) WARN_UNUSED;
/* Hits noted, entries recorded for files (a path that is not empty) and
 * texts known from their stamps (dc_known_text), since dc_load. */
void dc_stats(const DiskCache *dc, size_t *hits, size_t *recorded, size_t *stamped);
void dc_free(DiskCache *dc);

#endif
