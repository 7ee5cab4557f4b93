/* resultcodec: one file's analysis results (its findings and facts) as
 * bytes and back, for the on-disk cache (diskcache).
 *
 * The encoding is private to one build of ascend-lsp: the cache key holds
 * the build's identity, so no format is ever read by another build. Rules
 * and rows are stored by code and table index and resolved again against
 * the options on decode (user rules and rows come from the configuration,
 * which is part of the key too). Decoding checks every length and index and
 * fails cleanly on anything that does not fit: a corrupt entry is a miss,
 * never trusted. */
#ifndef ASC_RESULTCODEC_H
#define ASC_RESULTCODEC_H

#include "analyzers/engine/analyze.h"

/* Appends the encoding of findings and facts to out (the caller's buffer). */
void rc_encode(const FindingList *findings, const FileFacts *facts, StrBuf *out);

/* Decodes data into findings and facts (both empty on entry; on success the
 * caller owns what was added and frees it with findings_free and
 * analyze_facts_free). Returns 0, or -EINVAL when data is not a whole,
 * consistent encoding; then nothing is added. */
int rc_decode(const char *data, size_t len, const AnalyzeOptions *opt, FindingList *findings,
              FileFacts *facts) WARN_UNUSED;
/* The same for the encoding at the front of *data (encodings appended one
 * after another): on success *data and *left move past it. */
int rc_decode_next(const char **data, size_t *left, const AnalyzeOptions *opt, FindingList *findings,
                   FileFacts *facts) WARN_UNUSED;

/* The size of an encoding's header, the file's facts that no other file's
 * results depend on (its line count, into *lines): what follows it is what
 * the project phase reads. 0 when data does not start with one. */
size_t rc_header(const char *data, size_t len, uint32_t *lines);

#endif
