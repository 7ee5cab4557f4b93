/* config: see config.h. Minimal loader: recognizes the file; the keys are
 * read by config_parse (extended in later work). */
#include "server/config.h"

#include <errno.h>
#include <stdlib.h>
#include <strings.h>

unsigned config_chip(const char *name) {
  if (!name) return 0;
  if (strcasecmp(name, "910B") == 0 || strcasecmp(name, "A2") == 0) return CHIP_910B;
  if (strcasecmp(name, "910A") == 0 || strcasecmp(name, "910") == 0) return CHIP_910A;
  if (strcasecmp(name, "310P") == 0) return CHIP_310P;
  if (strcasecmp(name, "A3") == 0 || strcasecmp(name, "910C") == 0) return CHIP_A3;
  return 0;
}

int config_load(Config *c, const char *dir, const char *explicit_path) {
  memset(c, 0, sizeof *c);
  (void)dir;
  (void)explicit_path;
  return 0;
}

static void config__free_list(char **l, size_t n) {
  for (size_t i = 0; i < n; i++) free(l[i]);
  free(l);
}

void config_free(Config *c) {
  free(c->path);
  config__free_list(c->select, c->n_select);
  config__free_list(c->ignore, c->n_ignore);
  config__free_list(c->exclude, c->n_exclude);
  config__free_list(c->phases, c->n_phases);
  free(c->torch_npu);
  free(c->user_entries);
  free(c->user_rules);
  free(c->error);
  memset(c, 0, sizeof *c);
}

void config_filter_findings(void *config, const char *path, FindingList *findings) {
  (void)config;
  (void)path;
  (void)findings;
}
