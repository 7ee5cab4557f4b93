/* docstore: the open documents of a language-server session.
 *
 * Each Document keeps its text, a line index for position conversion, its
 * syntax (a Forest: one tree per top-level statement of Python; every edit
 * re-splits the statements it touched and the next analysis re-parses only
 * those), the version, the findings
 * of its last analysis and, for Python, the units of that analysis
 * (AnalyzeMemo): every edit moves them or marks them touched, the re-parse
 * marks the units of the statements it parsed again, and the next analysis
 * re-runs only those. Changes are applied in the client's position encoding
 * and clamped to the document as LSP requires; a change never fails.
 *
 * Ownership: the DocStore owns every Document; pointers returned by
 * doc_find stay valid until doc_close of that URI or doc_store_free. */
#ifndef ASC_DOCSTORE_H
#define ASC_DOCSTORE_H

#include <tree_sitter/api.h>
#include "analyzers/engine/analyze.h"
#include "protocol/position.h"

typedef struct {
  char *uri;
  char *path;        /* file system path decoded from a file: URI, else the URI */
  char *language_id;
  int64_t version;
  StrBuf text;
  LineIndex index;
  FileKind kind;
  Forest forest;     /* empty until the first analysis, or for kinds without a grammar */
  bool dirty;        /* changed since the last analysis */
  bool published;    /* diagnostics of the current version were sent */
  bool nul_marks;    /* text received with U+0000, held as RPC_NUL_BYTE */
  bool too_deep;     /* brackets nested past NESTING_MAX_DEPTH: not parsed, no findings */
  size_t opens;      /* ( [ { in the text, kept across edits: below NESTING_MAX_DEPTH no
                        nesting scan is needed (the nesting cannot be deeper) */
  /* Where the document sits in its project, set once by the server: the
   * path the analyzers see ("tests/" means the project's tests) and the NPU
   * twin beside a CUDA file. Owned; NULL: the path itself / no twin. */
  char *rel, *npu_sibling;
  bool located;
  FindingList findings;
  AnalyzeMemo *memo; /* Python: units of the last analysis; NULL until the first */
  FileFacts facts;        /* of the last analysis, for the project model (empty without one) */
  uint64_t shown_digest;  /* of the findings last shown, with the model's */
  uint64_t model_view;    /* model_view_digest when last analyzed (lsp_model.c) */
} Document;

typedef struct {
  Array(Document *) docs;
  TSParser *parser;
  bool no_facts; /* nothing reads the documents' facts (no workspace folder, so no project model):
                    doc_analyze leaves them out */
} DocStore;

void doc_store_init(DocStore *s);
void doc_store_free(DocStore *s);

/* Opens (or replaces) a document. Text is copied. */
Document *doc_open(DocStore *s, const char *uri, const char *language_id, int64_t version, const char *text,
                   size_t len);
Document *doc_find(DocStore *s, const char *uri);
/* Closes and frees; false when the URI was not open. */
bool doc_close(DocStore *s, const char *uri);

/* Replaces [start,end) (byte offsets, clamped) with text, editing the syntax. */
void doc_edit_bytes(Document *d, size_t start, size_t end, const char *text, size_t len);
/* Applies an LSP range change: positions in `enc`, clamped. */
void doc_edit_range(Document *d, LspPosition start, LspPosition end, PosEncoding enc, const char *text, size_t len);
/* Replaces the whole text (a change without a range). */
void doc_set_text(Document *d, const char *text, size_t len);

/* Re-parses (the edited statements, incrementally) and re-analyzes when
 * dirty; returns whether it did. `ignores` (borrowed for the call) are the
 * codes the project's per-file ignores silence in this document. The
 * findings are final: the analysis applied the NPU twin and the ignores. A
 * text nested too deep for the parser (nesting.h) is not parsed: no syntax, no
 * findings, too_deep set. */
bool doc_analyze(DocStore *s, Document *d, const AnalyzeOptions *opt, const char *const *ignores, size_t n_ignores);

/* "file:///a%20b/c.py" -> "/a b/c.py" (heap); NULL for other schemes. */
char *doc_uri_to_path(const char *uri);
/* "/a b/c.py" -> "file:///a%20b/c.py" (heap). */
char *doc_path_to_uri(const char *path);

#endif
