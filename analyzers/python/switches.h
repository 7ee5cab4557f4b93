/* switches: a script's command-line switches that are off by default, and
 * the branches only such a switch turns on.
 *
 * `parser.add_argument("--compile", action="store_true")` (no
 * `default=True`) defines a switch the default run leaves off: the body of
 * `if args.compile:`, and the else of `if not args.debug:`, run only when
 * the user asks for them. A CUDA construct there is a decision for whoever
 * turns the switch on, not work of the default port. Switches are read
 * from the file's own text (its argument parser); a switch another file
 * defines is not known, and its branches stay as they are.
 *
 * Ownership: PySwitches owns its strings (pyswitches_free); the options
 * pyswitches_branch returns are borrowed from it. */
#ifndef ASC_SWITCHES_H
#define ASC_SWITCHES_H

#include "analyzers/engine/texthits.h"
#include "analyzers/python/resolver.h"

typedef struct {
  StrList names;   /* destinations (`compile`, `use_ema`) of the switches off by default */
  StrList options; /* each one's option as written (`--compile`, `--use-ema`) */
} PySwitches;

/* The off-by-default switches defined in py's text, by `action` (the
 * action that leaves a switch off: "store_true"), except those whose
 * option matches the kb pattern `kept` (NULL: none is kept out). `hits`
 * (texthits.h) says where `action` occurs. */
void pyswitches_scan(const PyFile *py, TextHits *hits, const char *action, const char *kept, PySwitches *out);

/* The option (`--compile`) of the switch whose branch holds bytes [start, end): the
 * nearest enclosing if/elif/else within its definition that runs only when
 * an off-by-default switch is on; NULL when there is none. */
const char *pyswitches_branch(const PyFile *py, const PySwitches *sw, uint32_t start, uint32_t end);

void pyswitches_free(PySwitches *sw);

#endif
