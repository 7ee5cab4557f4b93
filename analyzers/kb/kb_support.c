/* kb_support: the operator-coverage tables (see kb.h). The rows come from
 * kb_support.def, generated from the torch_npu support lists and sorted by
 * API name (bytewise), so a lookup is a binary search to the API's block of
 * rows and a scan of that block (a few rows: versions x chip groups). The
 * target profiles (kb_meta.def) live here too: they are looked up by the
 * same version numbers. */
#include "analyzers/kb/kb.h"

#include <stdlib.h>

static const KbSupportVersion kb_support__versions[] = {
#define KB_SUPPORT_VERSIONS
#include "analyzers/kb/kb_support.def"
#undef KB_SUPPORT_VERSIONS
};

static const KbSupport kb_support__rows[] = {
#define KB_SUPPORT_ROWS
#include "analyzers/kb/kb_support.def"
#undef KB_SUPPORT_ROWS
};

static const KbProfile kb_support__profiles[] = {
#define KB_PROFILE_ROWS
#include "analyzers/kb/kb_meta.def"
#undef KB_PROFILE_ROWS
};

#define KB_SUPPORT__NV (sizeof kb_support__versions / sizeof kb_support__versions[0])
#define KB_SUPPORT__NP (sizeof kb_support__profiles / sizeof kb_support__profiles[0])
#define KB_SUPPORT__NR (sizeof kb_support__rows / sizeof kb_support__rows[0])

const KbSupportVersion *kb_support_versions(size_t *count) {
  *count = KB_SUPPORT__NV;
  return kb_support__versions;
}

/* "2.7.1.post2" -> {2, 7, 1}; false when it does not start with a number. */
static bool kb_support__parse(const char *s, long v[3]) {
  v[0] = v[1] = v[2] = 0;
  if (!s || *s < '0' || *s > '9') return false;
  for (int i = 0; i < 3 && *s >= '0' && *s <= '9'; i++) {
    char *end;
    v[i] = strtol(s, &end, 10);
    s = end;
    if (*s != '.') break;
    s++;
  }
  return true;
}

static int kb_support__cmp3(const long a[3], const long b[3]) {
  for (int i = 0; i < 3; i++)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

int kb_support_compare(const char *a, const char *b) {
  long x[3], y[3];
  kb_support__parse(a, x);
  kb_support__parse(b, y);
  return kb_support__cmp3(x, y);
}

int kb_support_version(const char *torch_npu, bool *fallback) {
  long want[3];
  *fallback = false;
  if (!kb_support__parse(torch_npu, want)) return -1;
  int best = -1;
  for (size_t i = 0; i < KB_SUPPORT__NV; i++) {
    long have[3];
    kb_support__parse(kb_support__versions[i].version, have);
    int c = kb_support__cmp3(have, want);
    if (c == 0) return (int)i;
    if (c < 0) best = (int)i;
  }
  *fallback = true;
  return best >= 0 ? best : 0;
}

static int kb_support__key_cmp(const void *key, const void *row) {
  return strcmp(key, ((const KbSupport *)row)->api);
}

const KbSupport *kb_support_lookup(const char *api, int version, unsigned chip, bool *listed) {
  if (listed) *listed = false;
  if (!api || version < 0) return NULL;
  const KbSupport *hit = bsearch(api, kb_support__rows, KB_SUPPORT__NR, sizeof *kb_support__rows, kb_support__key_cmp);
  if (!hit) return NULL;
  const KbSupport *lo = hit, *end = kb_support__rows + KB_SUPPORT__NR;
  while (lo > kb_support__rows && strcmp(lo[-1].api, api) == 0) lo--;
  const KbSupport *found = NULL;
  for (const KbSupport *r = lo; r < end && strcmp(r->api, api) == 0; r++) {
    if (version < r->v_from || version > r->v_to) continue;
    if (listed) *listed = true;
    if ((r->chips & chip) && !found) found = r;
  }
  return found;
}

bool kb_support_excludes(const char *dtypes, const char *dtype) {
  size_t n = strlen(dtype);
  for (const char *p = dtypes; p && *p;) {
    const char *semi = strchr(p, ';');
    const char *stop = semi ? semi : p + strlen(p);
    const char *colon = memchr(p, ':', (size_t)(stop - p));
    bool has = false;
    for (const char *q = colon ? colon + 1 : p; q < stop && !has;) {
      const char *comma = memchr(q, ',', (size_t)(stop - q));
      const char *e = comma ? comma : stop;
      has = (size_t)(e - q) == n && memcmp(q, dtype, n) == 0;
      q = e + 1;
    }
    if (!has) return true;
    p = semi ? semi + 1 : stop;
  }
  return false;
}

const KbProfile *kb_profiles(size_t *count) {
  *count = KB_SUPPORT__NP;
  return kb_support__profiles;
}

const KbProfile *kb_profile_default(void) {
  for (size_t i = 0; i < KB_SUPPORT__NP; i++)
    if (kb_support__profiles[i].is_default) return &kb_support__profiles[i];
  return &kb_support__profiles[KB_SUPPORT__NP - 1]; /* unreachable: the unit tests hold one default */
}

const KbProfile *kb_profile_find(const char *torch_npu) {
  long want[3];
  if (!kb_support__parse(torch_npu, want)) return NULL;
  for (size_t i = 0; i < KB_SUPPORT__NP; i++) {
    long have[3];
    kb_support__parse(kb_support__profiles[i].torch_npu, have);
    if (kb_support__cmp3(have, want) == 0) return &kb_support__profiles[i];
  }
  return NULL;
}
