/* targets: the code a project's configuration files name by dotted
 * strings. Latent-diffusion style projects (ldm, sgm), hydra and Lightning
 * build their models from YAML files that name each class
 * (`target: sgm.modules.GeneralConditioner`, `_target_: pkg.mod.make`,
 * `class_path: pkg.Model`; the keys are the "config-target-keys" template)
 * and turn the string into an object with a computed import
 * (`getattr(importlib.import_module(module), cls)`). The project model reads
 * these names to know what such an import loads (model_set_config).
 *
 * Pure functions over borrowed text; targets_scan returns a heap string the
 * caller frees. */
#ifndef ASC_TARGETS_H
#define ASC_TARGETS_H

#include <stdbool.h>
#include <stddef.h>

#define TARGETS_MAX_FILE ((size_t)1 << 20) /* a configuration file larger than this is data, not read */

/* Whether `path` is a configuration file whose targets are read: .yaml or
 * .yml, not a conda environment (environment*.yml, which names packages). */
bool targets_config_path(const char *path);

/* The dotted names (at least one dot) given as values of the target keys
 * in text[0, len), in order, one per line with a final newline; NULL when
 * there is none. */
char *targets_scan(const char *text, size_t len);

#endif
