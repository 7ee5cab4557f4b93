/* reportgen: turns an analyzed Workspace into a rendered migration report.
 * Shared by `ascend-lsp report` and the `ascend.generateReport` command.
 *
 * It builds the report model (analyzers/project/report.h) from the workspace's
 * files, reading the few texts the model needs beyond the findings (shell
 * scripts, pyproject.toml / setup.py / setup.cfg, Python sources for the
 * blast radius) through the overlay first (the editor's unsaved documents)
 * and the disk otherwise, then renders Markdown, JSON, HTML or SARIF. */
#ifndef ASC_REPORTGEN_H
#define ASC_REPORTGEN_H

#include <stdatomic.h>
#include "analyzers/project/report.h"
#include "server/workspace.h"

typedef enum { REPORTGEN_MD = 0, REPORTGEN_JSON, REPORTGEN_HTML, REPORTGEN_SARIF } ReportGenFormat;

typedef struct {
  ReportGenFormat format;
  bool zh;                       /* --lang zh */
  const char *project;           /* NULL: derived from pyproject.toml or the root's name */
  const char *const *phases; size_t n_phases; /* "NAME=GLOB" (borrowed); none: detected */
  const AnalyzeOptions *aopt;    /* target profile (chip, torch_npu, mindiesd); SARIF rules. May be NULL */
  WsOverlayFn overlay; void *overlay_data; /* unsaved documents; may be NULL */
  const atomic_int *cancel;      /* nonzero: stop, return -ECANCELED; may be NULL */
} ReportGenOptions;

/* "md"/"markdown", "json", "html", "sarif". */
bool reportgen_format_parse(const char *s, ReportGenFormat *out);
/* File extension of a format, without the dot ("md"). */
const char *reportgen_format_ext(ReportGenFormat f);

/* Renders the report of an analyzed workspace. On success returns 0 and a
 * heap buffer in *out (caller frees with free(), NUL-terminated, *len bytes)
 * and fills *sum when not NULL (its strings are static). Returns
 * -ECANCELED when cancelled (nothing allocated). */
int reportgen_render(const Workspace *ws, const ReportGenOptions *o, char **out, size_t *len,
                     ReportSummary *sum) WARN_UNUSED;

/* Writes data to path. A regular file (or a new one) is replaced through a
 * temporary file in the same directory and an atomic rename; a symbolic
 * link is followed and its target replaced, the link kept. Anything else
 * that exists (a character device, a FIFO, a terminal, /dev/stdout on a
 * pipe) is written through, never replaced; a FIFO nobody reads gives
 * -ENXIO instead of blocking, a directory -EISDIR. Returns 0 or -errno
 * (a replaced target is then untouched). */
int reportgen_write_file(const char *path, const char *data, size_t len) WARN_UNUSED;
/* The message for an error of reportgen_write_file (static). */
const char *reportgen_write_strerror(int rc);

#endif
