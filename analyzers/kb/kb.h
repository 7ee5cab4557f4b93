/* kb: the knowledge base. Every CUDA -> Ascend fact the analyzers use lives in
 * two static tables in kb.c:
 *
 *  - KbRule, one row per rule code (ASC<d><nn>): severity, title, why, an
 *    example before/after, the effort and dependency class of its findings,
 *    and the default message templates in English and Chinese;
 *  - KbEntry, the mapping table: one row per CUDA pattern, naming its rule
 *    code, how it is matched, the Ascend replacement, its confidence and the
 *    fix. Adding a row adds a rule; analyzers interpret match kinds, they do
 *    not list APIs.
 *
 * Message templates may contain {subject} (the matched construct) and
 * {replacement}. All strings are static (or owned by the config for user
 * rules); nothing returned here is freed by callers. */
#ifndef ASC_KB_H
#define ASC_KB_H

#include "analyzers/engine/finding.h"

typedef enum {
  KB_QUALNAME,    /* Python reference resolving to `pattern` (glob; '|' separates alternatives) */
  KB_METHOD,      /* Python call `<expr>.pattern(...)` on a receiver that is not an imported module */
  KB_ATTRIBUTE,   /* Python attribute read `<expr>.pattern` (not called) on a non-module receiver */
  KB_STRING_ARG,  /* string argument: `pattern` = callee qualname glob, ".method", or "*";
                     `arg` = "0" (positional index), "device" (keyword), or "0|backend";
                     `value` = glob over the string's content (f-string holes read as "{}") */
  KB_NAMED_STRING,/* string compared with (==, !=, in), assigned to, or defaulting a name whose
                     dotted tail matches `pattern` (e.g. "device.type|*device"); `value` as above */
  KB_ENV,         /* environment variable name glob, read or written through os.environ/getenv */
  KB_IMPORT,      /* import of module `pattern` or a submodule of it */
  KB_SUBCLASS,    /* class whose base class resolves to `pattern` */
  KB_DECORATOR,   /* function decorated by `pattern` (call or bare) */
  KB_DETECTOR,    /* found by analyzer code; `pattern` names the detector */
  KB_PACKAGE,     /* dependency (domain 1): normalized distribution name glob */
  KB_C_CALL,      /* C/C++/CUDA call of a function named `pattern` (glob) */
  KB_C_INCLUDE,   /* #include of a header glob */
  KB_C_IDENT,     /* C++ (qualified) identifier glob, e.g. "c10::cuda::*" */
  KB_ELF_NEEDED,  /* ELF DT_NEEDED library glob */
  KB_PASSED_TO,   /* Python reference resolving to `pattern` passed as an argument of a call of `arg`
                     (callee qualname glob): there it replaces the KB_QUALNAME row
                     (torch.cuda.HalfTensor given to torch.set_default_tensor_type) */
} KbMatch;

typedef enum {
  KBFIX_NONE,
  KBFIX_RENAME_QUAL,  /* qualified prefix fix_from -> fix_to (torch.cuda -> torch.npu) at the
                         reference, or in its import statement when the prefix is aliased */
  KBFIX_RENAME_NAME,  /* replace the matched identifier/attribute name with fix_to */
  KBFIX_STRING_SUB,   /* inside the matched string, replace fix_from with fix_to */
  KBFIX_CUSTOM,       /* edits computed by the analyzer that produced the finding */
} KbFixKind;

/* Target chips, for rows that only apply to some hardware. */
enum {
  CHIP_910B = 1u << 0,
  CHIP_910A = 1u << 1,
  CHIP_310P = 1u << 2,
  CHIP_A3 = 1u << 3,
  CHIP_950 = 1u << 4, /* Ascend 950DT / 950PR */
};

struct KbRule {
  const char *code;     /* "ASC201" */
  const char *name;     /* kebab-case, e.g. "torch-cuda-api" */
  Severity severity;
  EffortKind effort;
  DepClass dep_class;
  const char *title_en, *title_zh; /* one line */
  const char *why_en, *why_zh;     /* a paragraph */
  const char *before, *after;      /* example code */
  const char *msg_en, *msg_zh;     /* default message templates */
  bool not_in_tests;    /* test code using it is a reference or scaffolding: not reported there */
};

struct KbEntry {
  const char *code;
  KbMatch match;
  const char *pattern;
  const char *arg;
  const char *value;
  const char *replacement; /* Ascend replacement, shown in messages ({replacement}) */
  Confidence confidence;
  KbFixKind fix_kind;
  FixSafety fix_safety;
  const char *fix_from, *fix_to;
  bool needs_torch_npu;    /* the replacement needs `import torch_npu` */
  bool transfer_covered;   /* transfer_to_npu makes the original work at run time */
  unsigned chips;          /* CHIP_* mask where the row applies; 0 = every chip */
  const char *msg_en, *msg_zh; /* NULL: the rule's templates */
};

/* The report's own prose (analyzers/kb/kb_report.def), by id. */
typedef enum {
#define KB_TEXT(id, en, zh) KBT_##id,
#include "analyzers/kb/kb_report.def"
#undef KB_TEXT
  KBT__COUNT
} KbText;
/* English or Chinese text of a row. Static. */
const char *kb_text(KbText id, bool zh);

/* The static tables. */
const KbRule *kb_rules(size_t *count);
const KbEntry *kb_entries(size_t *count);
/* Rows that kb_lookup never returns, for the readers that match them
 * themselves (dependency version labels and index URLs). */
const KbEntry *kb_side_entries(size_t *count);
/* Rule by code, or NULL. */
const KbRule *kb_rule(const char *code);
/* Domain digit of a code ("ASC201" -> 2), 0 when malformed. */
int kb_domain(const char *code);
const char *kb_domain_name(int domain, bool zh);

/* Best row of kind m for the name s: user rows first (they extend the
 * table), then an exact pattern alternative, then the first glob row in
 * table order. NULL when nothing matches. Thread-safe. */
const KbEntry *kb_lookup(KbMatch m, const char *s, const KbEntry *user, size_t n_user);

/* The KB_PASSED_TO row for reference `qualname` passed to a call of
 * `callee` (user rows first), or NULL. */
const KbEntry *kb_lookup_passed(const char *qualname, const char *callee, const KbEntry *user, size_t n_user);

/* Replaces a finding's subject and/or replacement (NULL keeps it; both are
 * copied) and formats its messages again from its row or rule. */
void kb_restate(Finding *f, const char *subject, const char *replacement);

/* Whether a row is about a third-party library as a whole: a glob over a
 * package other than torch, with no fix (`xformers.*`, `tensorrt.*`). Such
 * a row says the same thing of every name it covers, once per file
 * (pymatch.c, engine/conclude.c); torch.* globs name distinct items. */
bool kb_entry_is_library(const KbEntry *e);

/* Glob match where '|' separates alternatives ("a.*|b"); an alternative
 * starting with '!' excludes what it matches ("*norm*|!*normaliz*"). */
bool kb_pattern_match(const char *pattern, const char *s);

/* The literal start of each positive alternative of a glob list, up to its
 * first '*' or '?': a name that begins with none of them cannot match
 * (globs match literals from the start), so a caller asking one list about
 * many names skips most of them after a byte comparison. An alternative
 * that starts with a wildcard has an empty start, which admits every name.
 * The starts borrow the pattern's bytes. */
typedef struct {
  const char *at;
  size_t len;
} KbStart;
typedef Array(KbStart) KbStarts;

/* Appends the starts of pattern's positive alternatives to *out. */
void kb_starts_add(const char *pattern, KbStarts *out);
/* Whether s begins with one of starts[0, n). */
bool kb_starts_admit(const KbStart *starts, size_t n, const char *s);

/* kb_pattern_match's answers for one pass that asks the same few rows about
 * the same few rule codes again and again (the refinement: a dozen rows per
 * finding). Keyed by the two pointers, so both strings must stay unchanged
 * for the memo's life: a row's pattern and a rule's code do. Zero it to
 * start; it owns nothing. A NULL memo asks kb_pattern_match. */
typedef struct {
  struct {
    const char *pattern, *s;
    bool hit;
  } slots[1024]; /* a dozen rows by a few dozen codes: few pairs share a slot */
} KbMatchMemo;
bool kb_pattern_match_memo(KbMatchMemo *m, const char *pattern, const char *s);

/* Fills a message template. Caller frees. */
char *kb_format(const char *tmpl, const char *subject, const char *replacement);

/* Appends a row's note to both messages of f, its templates filled with
 * subject and replacement (the detector rows' "[...]" notes). */
void kb_append_note(Finding *f, const KbEntry *row, const char *subject, const char *replacement);
/* Gives f another replacement (copied) and its messages again from its
 * row's (or rule's) templates, so both languages say it. */
void kb_set_replacement(Finding *f, const char *replacement);

/* Named texts: templates of the code an analyzer generates (the NPU
 * attention calls and their argument forms) and of prose it assembles, and
 * name lists a detector reads ('|' alternatives for kb_pattern_match).
 * Rows sit under KB_TEMPLATE_ROWS in the domain files, so changing what is
 * generated is a data change; the analyzer only decides which template
 * applies and fills its holes. A hole is written {name}. */
typedef struct {
  const char *name; /* "attn-train" */
  const char *text;
} KbTemplate;

/* One hole's value for kb_expand. value NULL expands to "". Both borrowed. */
typedef struct {
  const char *name;
  const char *value;
} KbVar;

/* The static text of a template, or NULL when no row has that name. */
const char *kb_template(const char *name);
/* Fills the {name} holes of tmpl from vars in one pass (values are not
 * expanded again); a hole no var names is kept as written. Caller frees. */
char *kb_expand(const char *tmpl, const KbVar *vars, size_t n);
/* kb_expand of the named template; an unknown name expands to "". Caller
 * frees. */
char *kb_render(const char *name, const KbVar *vars, size_t n);

/* Creates the finding for `entry` (or, when entry is NULL, for `rule`) over
 * the given range and appends it to out; returns it for further edits.
 * The message is formatted from the entry's or rule's templates. */
Finding *kb_emit(FindingList *out, const KbRule *rule, const KbEntry *entry,
                 const char *subject, const char *replacement,
                 uint32_t start_byte, uint32_t end_byte,
                 uint32_t start_row, uint32_t start_col, uint32_t end_row, uint32_t end_col);

/* ---------------------------------------------------------------------------
 * Operator coverage: the torch_npu native-API support lists (kb_support.c,
 * data generated into kb_support.def by tests/kbgen/gen_support.py). A list
 * exists per torch_npu version; each row is one fact about one API over a
 * range of those versions on a set of chips. */
typedef enum { KBS_SUPPORTED, KBS_UNSUPPORTED } KbSupportStatus;

typedef struct {
  const char *version;  /* "2.7.1" */
  const char *ref, *commit, *date, *path; /* where the pages were read (Ascend/pytorch) */
  unsigned chips;       /* CHIP_* the list covers */
  unsigned apis;        /* APIs it lists */
} KbSupportVersion;

typedef struct {
  const char *api;      /* "torch.linalg.norm", "torch.Tensor.add_" */
  unsigned char v_from, v_to; /* indexes into kb_support_versions, inclusive */
  unsigned chips;       /* CHIP_* where this fact holds */
  KbSupportStatus status;
  bool cpu_fallback;    /* "may fall back to the CPU" */
  unsigned char max_dims; /* "at most N dimensions", 0 = no limit stated */
  bool other;           /* the note says more than dtypes, dimensions and fallback */
  const char *dtypes;   /* "input:bf16,fp16,fp32;other:fp32" ("*": the input), "" = none */
  const char *note_en, *note_zh; /* the restriction in words ("" = none) */
} KbSupport;

/* The listed versions, oldest first. Static. */
const KbSupportVersion *kb_support_versions(size_t *count);

/* Index of the list for a torch_npu version ("2.7.1.post2" reads as 2.7.1):
 * the version itself, else the nearest lower listed one, else the oldest.
 * *fallback is set when it is not the version itself. -1 for a version
 * that does not read as numbers (NULL, ""). */
int kb_support_version(const char *torch_npu, bool *fallback);

/* Compares two versions by their leading numbers ("2.7.1.post2" = 2.7.1): <0, 0, >0. */
int kb_support_compare(const char *a, const char *b);

/* The fact for api in list `version` on `chip`; NULL when the list does not
 * name the API for that chip. *listed (may be NULL) says whether the list
 * names the API at all. Binary search over the sorted rows; thread-safe. */
const KbSupport *kb_support_lookup(const char *api, int version, unsigned chip, bool *listed);

/* Whether a dtype restriction ("input:bf16,fp16;*:fp32") leaves out `dtype`
 * (bf16, fp16, fp32, fp64, complex64, ...) for some parameter. */
bool kb_support_excludes(const char *dtypes, const char *dtype);

/* ---------------------------------------------------------------------------
 * Target profiles (kb_meta.def, KB_PROFILE_ROWS; kb_support.c): the torch_npu
 * releases a project can target, each with the CANN release it pairs with and
 * where that pairing is documented. One row is the default profile: the
 * newest release whose support list the tables hold. All static. */
typedef struct {
  const char *torch_npu; /* "2.12.0": the version --torch-npu and the support lists name */
  const char *package;   /* the build a report names for it ("2.7.1.post2") */
  const char *torchnpu;  /* the TorchNPU release of that build ("26.1.0") */
  const char *cann;      /* "9.1.0" */
  const char *released;  /* "2026-10", "" = not documented */
  const char *source;    /* where the pairing is documented */
  const char *note_en, *note_zh; /* said after the build in the report's install step ("" = none) */
  bool is_default;
} KbProfile;

/* Every profile, oldest first. */
const KbProfile *kb_profiles(size_t *count);

/* The profile marked default (never NULL: the table has exactly one). */
const KbProfile *kb_profile_default(void);

/* The profile of a torch_npu version by its leading numbers ("2.7.1.post8"
 * finds 2.7.1); NULL when there is none. */
const KbProfile *kb_profile_find(const char *torch_npu);

#endif
