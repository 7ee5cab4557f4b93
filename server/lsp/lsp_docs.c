/* lsp_docs: see lsp_docs.h. */
#include "server/lsp/lsp_docs.h"

#include "server/cli/rulesdoc.h"
#include "server/lsp/docstore.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Where docs/ lies relative to the directory of the binary: a build
 * directory or the .vsix's bin/, a build directory one level further down
 * (build/asan), an install prefix. */
static const char *const lsp_docs__dirs[] = {"/../docs", "/../../docs", "/../share/doc/ascend-lsp"};

char *lsp_docs_find(const char *exe, const char *env_url) {
  if (env_url && *env_url)
    return env_url[strlen(env_url) - 1] == '/' ? xstrdup(env_url) : xasprintf("%s/", env_url);
  char *bin = exe ? realpath(exe, NULL) : NULL;
  char *slash = bin ? strrchr(bin, '/') : NULL;
  if (!slash) {
    free(bin);
    return NULL;
  }
  *slash = '\0';
  char *base = NULL;
  for (size_t i = 0; i < sizeof lsp_docs__dirs / sizeof *lsp_docs__dirs && !base; i++) {
    char *dir = xasprintf("%s%s", bin, lsp_docs__dirs[i]);
    char *rules = xasprintf("%s/rules.md", dir);
    char *real = access(rules, R_OK) == 0 ? realpath(dir, NULL) : NULL;
    if (real) {
      char *uri = doc_path_to_uri(real);
      base = xasprintf("%s/", uri);
      free(uri);
    }
    free(real);
    free(rules);
    free(dir);
  }
  free(bin);
  return base;
}

char *lsp_docs_href(const char *base, const KbRule *r) {
  if (!base) return NULL;
  if (kb_domain(r->code) == 9) return xasprintf("%sconfiguration.md#user-rules", base);
  char *a = rulesdoc_anchor(r);
  char *u = xasprintf("%srules.md#%s", base, a);
  free(a);
  return u;
}
