/* deps: the dependency audit (ASC1xx), shared by the per-format readers.
 *
 * Each reader (requirements*.txt, pyproject.toml, setup.py, setup.cfg,
 * environment.yml) only parses its file: it turns every declared package
 * into a DepsSite (where the requirement is and how an edit can change it)
 * and every index URL or include into a call of deps_emit_index /
 * deps_emit_include. deps_emit_sites then looks each package up in the
 * knowledge base (KB_PACKAGE rows in kb_deps.def) and emits one finding per
 * package with its status in Finding.detail and the row's fix as edits.
 *
 * The requirement parsers are pure functions over a byte range of a text;
 * every DepsSpan they return is an absolute offset pair into that text.
 * Nothing here allocates except the findings (owned by ctx->out) and the
 * DepsSites array (caller frees with array_free). */
#ifndef ASC_DEPS_H
#define ASC_DEPS_H

#include "analyzers/domains/domains.h"

typedef struct {
  uint32_t start, end; /* end exclusive; start == end: absent */
} DepsSpan;

#define DEPS_NAME_MAX 128

/* A PEP 508 requirement ("name[extras] spec ; marker", "name @ url") or a
 * bare URL / path whose name is taken from #egg=, the wheel file name or
 * the last path component. */
typedef struct {
  DepsSpan whole;   /* name through version or URL, without marker or options */
  DepsSpan name;    /* the name as written (for a bare URL: the URL) */
  DepsSpan extras;  /* inside the brackets */
  DepsSpan spec;    /* version specifier text, e.g. ">=2.1,<3" or "==2.1.0+cu121" */
  DepsSpan pin;     /* the version of a single `==` / `===` clause, e.g. "2.1.0+cu121" */
  DepsSpan local;   /* local version label after '+', e.g. "cu121" (or a conda build string) */
  DepsSpan url;     /* after '@', or the bare URL / path */
  DepsSpan marker;  /* after ';' */
  char name_norm[DEPS_NAME_MAX]; /* PEP 503 normalized; "" when no name could be found */
} DepsReq;

/* Parses text[start, end) as one requirement. Returns false (and leaves a
 * cleared *out) when no package name can be found, e.g. "-e ." or "./pkg". */
bool deps_req_parse(const char *text, uint32_t start, uint32_t end, DepsReq *out);

/* PEP 503 name normalization into out (size DEPS_NAME_MAX); false if too long or empty. */
bool deps_normalize(const char *name, size_t n, char *out);

typedef enum {
  DEPS_LINE_BLANK,      /* empty, comment only, or a continuation of the previous line */
  DEPS_LINE_REQ,        /* a requirement */
  DEPS_LINE_EDITABLE,   /* -e / --editable with a requirement or path in `arg` */
  DEPS_LINE_INCLUDE,    /* -r / --requirement FILE */
  DEPS_LINE_CONSTRAINT, /* -c / --constraint FILE */
  DEPS_LINE_INDEX,      /* -i / --index-url / --extra-index-url URL */
  DEPS_LINE_FIND_LINKS, /* -f / --find-links URL */
  DEPS_LINE_OPTION,     /* any other pip option */
} DepsLineKind;

/* One physical line of a requirements file. */
typedef struct {
  DepsLineKind kind;
  DepsSpan content; /* first non-blank byte to the end of the line (EOL excluded) */
  DepsSpan option;  /* "-r", "--extra-index-url", ... */
  DepsSpan arg;     /* the option's argument */
  DepsReq req;      /* DEPS_LINE_REQ, and DEPS_LINE_EDITABLE when it names a package */
  bool has_req;
  bool continues;   /* ends with a backslash: the next line continues it */
} DepsLine;

/* Parses text[start, end) (one line, EOL excluded). `continued`: the
 * previous line ended with a backslash. */
void deps_line_parse(const char *text, uint32_t start, uint32_t end, bool continued, DepsLine *out);

/* ---- sites and emission ------------------------------------------------------ */

typedef enum {
  DEPS_SITE_LINE,    /* a requirement alone on its line (requirements.txt, setup.cfg, conda) */
  DEPS_SITE_ELEMENT, /* a string in a list (pyproject arrays, setup.py lists) */
  DEPS_SITE_KEY,     /* `name = "spec"` / `name = {version = ...}` (Poetry) */
} DepsSiteKind;

typedef struct {
  DepsSiteKind kind;
  DepsReq req;
  DepsSpan line;     /* first non-blank byte of the requirement's line to its end */
  DepsSpan item;     /* ELEMENT: the string literal with its quotes; KEY: the whole pair */
  char prefix[24];   /* LINE: what an added line starts with (indent, "- "); else the indent */
  char quote;        /* ELEMENT: the quote character */
  bool no_add;       /* no package can be added here (build requirements, conda packages) */
  bool no_comment;   /* an inline `# ...` would become part of the value (setup.cfg) */
  char where[64];    /* the section it is declared in, e.g. "optional-dependencies.gpu" */
} DepsSite;

typedef Array(DepsSite) DepsSites;

/* Emits one finding per site (status, replacement, fixes). */
void deps_emit_sites(AnalyzeCtx *ctx, const DepsSites *sites);
/* An index or find-links URL at `url`; emits ASC106 when it serves CUDA
 * wheels. `line` is its whole line (for the comment-out fix), or {0,0}. */
void deps_emit_index(AnalyzeCtx *ctx, DepsSpan url, DepsSpan line, const char *option);
/* A `-r`/`-c` include of `path` (span of the whole option). */
void deps_emit_include(AnalyzeCtx *ctx, DepsSpan at, DepsSpan path);

/* Fills a LINE site for a requirement that starts its line's content. */
void deps_site_line(const char *text, size_t len, const DepsReq *req, DepsSpan content, const char *prefix,
                    DepsSite *out);

/* Row and column of a byte offset (row 0-based, byte column). */
void deps_point(const char *text, uint32_t at, uint32_t *row, uint32_t *col);
/* End of the line holding `at` (the byte before its EOL, or len). */
uint32_t deps_line_end(const char *text, size_t len, uint32_t at);
/* Start of the line holding `at`. */
uint32_t deps_line_start(const char *text, uint32_t at);

/* The per-format readers (one file per format). */
void deps_requirements(AnalyzeCtx *ctx);
void deps_pyproject(AnalyzeCtx *ctx);
void deps_setup_py(AnalyzeCtx *ctx);
void deps_setup_cfg(AnalyzeCtx *ctx);
void deps_conda(AnalyzeCtx *ctx);
/* Reads the lines [start, end) as a requirements file (also the pip section
 * of a conda file); `prefix` is prepended to added lines. */
void deps_requirement_lines(AnalyzeCtx *ctx, uint32_t start, uint32_t end, const char *prefix, DepsSites *sites);

/* Known torch -> torch-npu version pairs (kb_deps.def, KB_TORCH_NPU_ROWS). */
typedef struct {
  const char *torch, *torch_npu;
  Confidence confidence;
} DepsTorchNpu;

/* The first release of a package with an NPU path (kb_deps.def, KB_NPU_SINCE_ROWS). */
typedef struct {
  const char *package;  /* normalized name glob */
  const char *since;    /* first NPU-capable release */
  const char *what_en, *what_zh;
  const char *source;
  Confidence confidence;
} DepsNpuSince;

/* The NPU-since row of a normalized package name, or NULL. */
const DepsNpuSince *deps_npu_since(const char *name);

/* The torch-npu version paired with torch version `v`, or NULL. */
const DepsTorchNpu *deps_torch_npu(const char *v, size_t n);
/* For a torch version without a pairing, the pairing of its release line
 * (the same major.minor: "2.1.2" -> "2.1.0"), or NULL. */
const DepsTorchNpu *deps_torch_npu_line(const char *v, size_t n);

/* "needs replacement", "unsupported", "compatible", "not involved" for an
 * ASC1xx status code; NULL for the others. */
const char *deps_status(const char *code);

#endif
