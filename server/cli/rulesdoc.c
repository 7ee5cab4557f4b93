/* rulesdoc: see rulesdoc.h. */
#include "server/cli/rulesdoc.h"

#include <stdlib.h>

/* Rows of the built-in table and of `user` that belong to code, in order. */
typedef Array(const KbEntry *) RulesdocRows;

static void rulesdoc__rows(const char *code, const KbEntry *user, size_t n_user, RulesdocRows *out) {
  size_t n;
  const KbEntry *e = kb_entries(&n);
  for (size_t i = 0; i < n; i++)
    if (strcmp(e[i].code, code) == 0) array_push(out, &e[i]);
  for (size_t i = 0; i < n_user; i++)
    if (strcmp(user[i].code, code) == 0) array_push(out, &user[i]);
}

const char *rulesdoc_domain_name(int domain, bool zh) {
  if (domain == 9) return zh ? "项目规则" : "Project rules";
  return kb_domain_name(domain, zh);
}

const char *rulesdoc_fix_name(const KbEntry *e) {
  if (e->fix_kind == KBFIX_NONE) return "none";
  return e->fix_safety == FIX_UNSAFE ? "unsafe" : "safe";
}

/* "a|b" alternatives read as "a / b". */
static void rulesdoc__alts(StrBuf *sb, const char *s) {
  for (const char *p = s; *p; p++) {
    if (*p == '|') sb_puts(sb, " / ");
    else sb_putc(sb, *p);
  }
}

char *rulesdoc_pattern(const KbEntry *e) {
  StrBuf sb;
  sb_init(&sb);
  switch (e->match) {
  case KB_METHOD: sb_putc(&sb, '.'); rulesdoc__alts(&sb, e->pattern); sb_puts(&sb, "()"); break;
  case KB_ATTRIBUTE: sb_putc(&sb, '.'); rulesdoc__alts(&sb, e->pattern); break;
  case KB_STRING_ARG:
    rulesdoc__alts(&sb, e->pattern);
    sb_puts(&sb, "(");
    if (e->arg) {
      sb_puts(&sb, "argument ");
      rulesdoc__alts(&sb, e->arg);
      sb_puts(&sb, " = ");
    }
    sb_putc(&sb, '"');
    rulesdoc__alts(&sb, e->value ? e->value : "*");
    sb_puts(&sb, "\")");
    break;
  case KB_NAMED_STRING:
    rulesdoc__alts(&sb, e->pattern);
    sb_puts(&sb, " = \"");
    rulesdoc__alts(&sb, e->value ? e->value : "*");
    sb_putc(&sb, '"');
    break;
  case KB_ENV: sb_puts(&sb, "env "); rulesdoc__alts(&sb, e->pattern); break;
  case KB_IMPORT: sb_puts(&sb, "import "); rulesdoc__alts(&sb, e->pattern); break;
  case KB_SUBCLASS: sb_puts(&sb, "class _("); rulesdoc__alts(&sb, e->pattern); sb_putc(&sb, ')'); break;
  case KB_DECORATOR: sb_putc(&sb, '@'); rulesdoc__alts(&sb, e->pattern); break;
  case KB_DETECTOR: sb_puts(&sb, "detector: "); rulesdoc__alts(&sb, e->pattern); break;
  case KB_PACKAGE: sb_puts(&sb, "package "); rulesdoc__alts(&sb, e->pattern); break;
  case KB_C_CALL: rulesdoc__alts(&sb, e->pattern); sb_puts(&sb, "() in C/C++"); break;
  case KB_C_INCLUDE: sb_puts(&sb, "#include <"); rulesdoc__alts(&sb, e->pattern); sb_putc(&sb, '>'); break;
  case KB_C_IDENT: rulesdoc__alts(&sb, e->pattern); sb_puts(&sb, " in C/C++"); break;
  case KB_ELF_NEEDED: sb_puts(&sb, "shared library needing "); rulesdoc__alts(&sb, e->pattern); break;
  case KB_PASSED_TO:
    rulesdoc__alts(&sb, e->arg ? e->arg : "*");
    sb_putc(&sb, '(');
    rulesdoc__alts(&sb, e->pattern);
    sb_putc(&sb, ')');
    break;
  default: rulesdoc__alts(&sb, e->pattern); break;
  }
  return sb_steal(&sb);
}

char *rulesdoc_anchor(const KbRule *r) {
  char *a = xasprintf("%s-%s", r->code, r->name);
  for (char *p = a; *p; p++) {
    if (*p >= 'A' && *p <= 'Z') *p = (char)(*p + 32);
    else if (*p == ' ') *p = '-';
  }
  return a;
}

char *rulesdoc_url(const KbRule *r) {
  if (kb_domain(r->code) == 9) return xasprintf("%s#user-rules", RULESDOC_CONFIG_URL);
  char *a = rulesdoc_anchor(r);
  char *u = xasprintf("%s#%s", RULESDOC_URL, a);
  free(a);
  return u;
}

/* "High (3), Medium (1)" over the rows; "High" for detector rules. */
static void rulesdoc__confidences(StrBuf *sb, const RulesdocRows *rows) {
  static const Confidence order[] = {CONF_HIGH, CONF_MEDIUM, CONF_LOW};
  bool any = false;
  for (size_t c = 0; c < 3; c++) {
    size_t n = 0;
    for (size_t i = 0; i < rows->len; i++) n += rows->items[i]->confidence == order[c];
    if (!n) continue;
    sb_printf(sb, "%s%s", any ? ", " : "", confidence_name(order[c]));
    if (rows->len > 1) sb_printf(sb, " (%zu)", n);
    any = true;
  }
  if (!any) sb_puts(sb, "High (found by the analyzer)");
}

/* "safe (3), none (1)": how `fix` treats the rule's findings. */
static void rulesdoc__fixes(StrBuf *sb, const RulesdocRows *rows) {
  static const char *const kinds[] = {"safe", "unsafe", "none"};
  bool any = false;
  for (size_t k = 0; k < 3; k++) {
    size_t n = 0;
    for (size_t i = 0; i < rows->len; i++) n += strcmp(rulesdoc_fix_name(rows->items[i]), kinds[k]) == 0;
    if (!n) continue;
    sb_printf(sb, "%s%s", any ? ", " : "", kinds[k]);
    if (rows->len > 1) sb_printf(sb, " (%zu)", n);
    any = true;
  }
  if (!any) sb_puts(sb, "none");
}

static const char *rulesdoc__fix_advice(const RulesdocRows *rows) {
  bool safe = false, unsafe = false;
  for (size_t i = 0; i < rows->len; i++) {
    const char *k = rulesdoc_fix_name(rows->items[i]);
    safe = safe || strcmp(k, "safe") == 0;
    unsafe = unsafe || strcmp(k, "unsafe") == 0;
  }
  if (safe && unsafe) return "`ascend-lsp fix` applies the safe fixes; the unsafe ones need `--unsafe-fixes` and a review.";
  if (safe) return "`ascend-lsp fix` applies the fix; it keeps behaviour.";
  if (unsafe) return "The fix changes behaviour: `ascend-lsp fix --unsafe-fixes` applies it; review the result.";
  return "No automatic fix: the change needs a person.";
}

/* ---- Markdown --------------------------------------------------------------- */

/* Table cells: pipes and newlines would break the row. */
static void rulesdoc__cell(StrBuf *sb, const char *s) {
  for (; *s; s++) {
    if (*s == '|') sb_puts(sb, "\\|");
    else if (*s == '\n') sb_putc(sb, ' ');
    else sb_putc(sb, *s);
  }
}

static void rulesdoc__md_rows(StrBuf *sb, const RulesdocRows *rows) {
  if (!rows->len) return;
  sb_puts(sb, "| Pattern | Ascend replacement | Confidence | Fix |\n|---|---|---|---|\n");
  for (size_t i = 0; i < rows->len; i++) {
    const KbEntry *e = rows->items[i];
    char *pat = rulesdoc_pattern(e);
    sb_puts(sb, "| `");
    rulesdoc__cell(sb, pat);
    sb_puts(sb, "` | ");
    rulesdoc__cell(sb, e->replacement ? e->replacement : "-");
    sb_printf(sb, " | %s | %s |\n", confidence_name(e->confidence), rulesdoc_fix_name(e));
    free(pat);
  }
  sb_putc(sb, '\n');
}

/* The language of the example: C++ for C-level rows, plain text for
 * dependency files, Python otherwise. */
static const char *rulesdoc__lang(const KbRule *r, const RulesdocRows *rows) {
  for (size_t i = 0; i < rows->len; i++) {
    KbMatch m = rows->items[i]->match;
    if (m == KB_C_CALL || m == KB_C_INCLUDE || m == KB_C_IDENT) return "cpp";
    if (m == KB_PACKAGE || m == KB_ELF_NEEDED) return "text";
  }
  return kb_domain(r->code) == 1 ? "text" : "python";
}

/* Why a rule is silent in tests/, test_*.py and test functions. */
#define RULESDOC_NOT_IN_TESTS "not reported (tests using it are references or scaffolding; they are skipped or stay valid on the NPU)"
#define RULESDOC_IN_TESTS "reported (it is about the test harness, which has to change)"

/* What the rule does in test and benchmark code (analyze.c): the rules of
 * the "test-harness-rules" row are reported there, every other rule of
 * domains 2-7 is not; NULL for dependency and meta rules. */
static const char *rulesdoc__test_code(const KbRule *r) {
  if (kb_domain(r->code) < 2 || kb_domain(r->code) > 8) return NULL;
  const KbEntry *row = kb_lookup(KB_DETECTOR, "test-harness-rules", NULL, 0);
  return row && kb_pattern_match(row->arg, r->code) ? RULESDOC_IN_TESTS : RULESDOC_NOT_IN_TESTS;
}

static void rulesdoc__md_body(StrBuf *sb, const KbRule *r, const RulesdocRows *rows) {
  /* two paragraphs, not an HTML break: hovers are Markdown that clients
   * (Neovim's among them) show without rendering HTML */
  sb_printf(sb, "**%s**\n\n%s\n\n", r->title_en, r->title_zh);
  sb_printf(sb, "- Domain: %d, %s\n- Severity: %s\n- Effort class: %s\n- Confidence: ", kb_domain(r->code),
            rulesdoc_domain_name(kb_domain(r->code), false), severity_name(r->severity), effort_name(r->effort));
  rulesdoc__confidences(sb, rows);
  sb_puts(sb, "\n- Fix: ");
  rulesdoc__fixes(sb, rows);
  if (rulesdoc__test_code(r)) sb_printf(sb, "\n- Test code: %s", rulesdoc__test_code(r));
  sb_printf(sb, "\n\n**Why.** %s\n\n%s\n\n", r->why_en, r->why_zh);
  rulesdoc__md_rows(sb, rows);
  sb_printf(sb, "**Fix safety.** %s\n\n", rulesdoc__fix_advice(rows));
  const char *lang = rulesdoc__lang(r, rows);
  sb_printf(sb, "Before:\n\n```%s\n%s\n```\n\nAfter:\n\n```%s\n%s\n```\n\n", lang, r->before, lang, r->after);
}

char *rulesdoc_rule_markdown(const KbRule *r, const KbEntry *user, size_t n_user) {
  StrBuf sb;
  sb_init(&sb);
  RulesdocRows rows = {0};
  rulesdoc__rows(r->code, user, n_user, &rows);
  sb_printf(&sb, "### %s %s\n\n", r->code, r->name);
  rulesdoc__md_body(&sb, r, &rows);
  array_free(&rows);
  return sb_steal(&sb);
}

static void rulesdoc__index(StrBuf *sb, const KbRule *rules, size_t n, const KbRule *user, size_t n_user) {
  sb_puts(sb, "| Code | Name | Severity | Summary |\n|---|---|---|---|\n");
  for (size_t i = 0; i < n + n_user; i++) {
    const KbRule *r = i < n ? &rules[i] : &user[i - n];
    char *a = rulesdoc_anchor(r);
    sb_printf(sb, "| [%s](#%s) | %s | %s | ", r->code, a, r->name, severity_name(r->severity));
    rulesdoc__cell(sb, r->title_en);
    sb_puts(sb, " |\n");
    free(a);
  }
  sb_putc(sb, '\n');
}

int rulesdoc_markdown_user(FILE *out, const char *code, const KbRule *user_rules, size_t n_user_rules,
                           const KbEntry *user_entries, size_t n_user_entries) {
  size_t n;
  const KbRule *rules = kb_rules(&n);
  if (code) {
    const KbRule *r = kb_rule(code);
    for (size_t i = 0; !r && i < n_user_rules; i++)
      if (strcmp(user_rules[i].code, code) == 0) r = &user_rules[i];
    if (!r) {
      fprintf(stderr, "ascend-lsp rules: no rule %s\n", code);
      return 2;
    }
    char *md = rulesdoc_rule_markdown(r, user_entries, n_user_entries);
    fputs(md, out);
    free(md);
    return 0;
  }
  StrBuf sb;
  sb_init(&sb);
  sb_puts(&sb, "# ascend-lsp rules\n\n"
               "<!-- Generated by `ascend-lsp rules --format md`; do not edit by hand. -->\n\n"
               "Every finding has a code `ASC<d><nn>` whose hundreds digit `d` is its domain. "
               "`ascend-lsp rules CODE` prints one section of this page. Severity: **error** will not run on an "
               "NPU and has no mechanical fix; **warning** will not run as written but has a mechanical "
               "replacement; **info** runs but needs review; **hint** is natively supported. A *safe* fix keeps "
               "behaviour and is applied by `ascend-lsp fix`; an *unsafe* one needs `--unsafe-fixes` and a "
               "review. Suppress a finding with `# noqa: ASC201` on its line (see "
               "[configuration](configuration.md)).\n\n");
  rulesdoc__index(&sb, rules, n, user_rules, n_user_rules);
  int domain = -1;
  for (size_t i = 0; i < n + n_user_rules; i++) {
    const KbRule *r = i < n ? &rules[i] : &user_rules[i - n];
    int d = i < n ? kb_domain(r->code) : 9;
    if (d != domain) {
      if (d == 9) sb_puts(&sb, "## Project rules (ASC9xx)\n\n");
      else sb_printf(&sb, "## Domain %d: %s\n\n", d, rulesdoc_domain_name(d, false));
      domain = d;
    }
    char *md = rulesdoc_rule_markdown(r, user_entries, n_user_entries);
    sb_puts(&sb, md);
    free(md);
  }
  /* one trailing newline, as editors save Markdown */
  while (sb.len > 1 && sb.data[sb.len - 1] == '\n' && sb.data[sb.len - 2] == '\n') sb.data[--sb.len] = '\0';
  fputs(sb.data, out);
  sb_free(&sb);
  return 0;
}

int rulesdoc_markdown(FILE *out, const char *code) {
  return rulesdoc_markdown_user(out, code, NULL, 0, NULL, 0);
}

/* ---- plain text --------------------------------------------------------------- */

char *rulesdoc_rule_line(const KbRule *r) {
  return xasprintf("%s  %-8s %-30s %s", r->code, severity_name(r->severity), r->name, r->title_en);
}

/* The plain-text explanation of r over rows, without the link. */
static void rulesdoc__text_body(StrBuf *sb, const KbRule *r, const RulesdocRows *rows) {
  sb_printf(sb, "%s (%s): %s\n  %s\n\n", r->code, r->name, r->title_en, r->title_zh);
  sb_printf(sb, "Domain:     %d, %s\nSeverity:   %s\nEffort:     %s\nConfidence: ", kb_domain(r->code),
            rulesdoc_domain_name(kb_domain(r->code), false), severity_name(r->severity), effort_name(r->effort));
  rulesdoc__confidences(sb, rows);
  sb_puts(sb, "\nFix:        ");
  rulesdoc__fixes(sb, rows);
  if (rulesdoc__test_code(r)) sb_printf(sb, "\nTest code:  %s", rulesdoc__test_code(r));
  sb_printf(sb, "\n\nWhy:\n  %s\n  %s\n\n", r->why_en, r->why_zh);
  if (rows->len) sb_puts(sb, "Patterns and replacements:\n");
  for (size_t i = 0; i < rows->len; i++) {
    const KbEntry *e = rows->items[i];
    char *pat = rulesdoc_pattern(e);
    sb_printf(sb, "  %s -> %s  (confidence %s, fix %s)\n", pat, e->replacement ? e->replacement : "-",
              confidence_name(e->confidence), rulesdoc_fix_name(e));
    free(pat);
  }
  if (rows->len) sb_putc(sb, '\n');
  sb_printf(sb, "Fix safety:\n  %s\n\n", rulesdoc__fix_advice(rows));
  sb_printf(sb, "Example:\n  before:  %s\n  after:   %s\n\n", r->before, r->after);
}

char *rulesdoc_rule_text(const KbRule *r, const KbEntry *user, size_t n_user) {
  StrBuf sb;
  sb_init(&sb);
  RulesdocRows rows = {0};
  rulesdoc__rows(r->code, user, n_user, &rows);
  rulesdoc__text_body(&sb, r, &rows);
  char *url = rulesdoc_url(r);
  sb_printf(&sb, "More: %s\n", url);
  free(url);
  array_free(&rows);
  return sb_steal(&sb);
}

/* ---- hover ------------------------------------------------------------------------ */

/* The finding's replacement line and the rows to explain: only the
 * pattern f matched (a rule like ASC201 has dozens, which the linked page
 * lists), or all of the rule's when f has no row. */
static void rulesdoc__hover_head(StrBuf *sb, const KbRule *r, const Finding *f, bool md, RulesdocRows *rows) {
  if (f && f->replacement)
    sb_printf(sb, md ? "**Ascend replacement:** `%s` (confidence %s, fix %s)\n\n" : "Ascend replacement: %s (confidence %s, fix %s)\n\n",
              f->replacement, confidence_name(f->confidence),
              f->fix == FIX_SAFE ? "safe" : f->fix == FIX_UNSAFE ? "unsafe" : "none");
  if (f && f->entry) array_push(rows, f->entry);
  else rulesdoc__rows(r->code, NULL, 0, rows);
}

char *rulesdoc_hover(const KbRule *r, const Finding *f, const char *url) {
  StrBuf sb;
  sb_init(&sb);
  RulesdocRows rows = {0};
  rulesdoc__hover_head(&sb, r, f, true, &rows);
  sb_printf(&sb, "### %s %s\n\n", r->code, r->name);
  rulesdoc__md_body(&sb, r, &rows);
  array_free(&rows);
  if (url) sb_printf(&sb, "[%s documentation](%s)\n", r->code, url);
  return sb_steal(&sb);
}

char *rulesdoc_hover_text(const KbRule *r, const Finding *f, const char *url) {
  StrBuf sb;
  sb_init(&sb);
  RulesdocRows rows = {0};
  rulesdoc__hover_head(&sb, r, f, false, &rows);
  rulesdoc__text_body(&sb, r, &rows);
  array_free(&rows);
  if (url) sb_printf(&sb, "More: %s\n", url);
  return sb_steal(&sb);
}
