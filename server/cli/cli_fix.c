/* cli_fix: `ascend-lsp fix [PATH...] [--diff] [--unsafe-fixes]`.
 *
 * Each file is analyzed, its fixes applied through fixes_apply, and the
 * result analyzed again until nothing changes (at most CLI_FIX_ROUNDS
 * rounds): a fix skipped because it overlapped another is applied in a
 * later round. Edits only touch their byte ranges, so line endings (LF,
 * CRLF, lone CR), the encoding and the final newline stay as they were; a
 * UTF-8 byte order mark is set aside before analysis and put back, so an
 * insertion at the top of the file lands after it.
 *
 * Writing goes through cli_common_replace_file (temporary file in the same
 * directory, fsync, atomic rename, mode and owner kept, refused when the
 * file changed since it was read). Files are written at their real path,
 * which must lie inside the scanned root: a symbolic link that leads out of
 * it is reported and left alone. */
#include "server/cli/cli.h"
#include "server/cli/cli_common.h"
#include "server/fixes.h"
#include "server/cli/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define CLI_FIX_ROUNDS 10
#define CLI_FIX_BOM "\xEF\xBB\xBF"

typedef struct {
  bool diff, unsafe;
  size_t fixed, files, unsafe_left, unfixable_left, skipped_left, errors;
  size_t blocking_left;
  StrList done;   /* real paths already handled (a link and its target are one file) */
} FixRun;

/* The outcome of fixing one text in memory. */
typedef struct {
  char *text;     /* the fixed text (heap), or NULL when nothing changed */
  size_t len;
  size_t applied; /* findings fixed, over every round */
  FixStats left;  /* what the last analysis left */
  size_t blocking;/* findings at warning or above left */
  bool converged;
} FixResult;

/* Analyzes and fixes text until it stops changing. The BOM, when present,
 * is not part of what the analyzers see. */
static void cli_fix__text(const CliCommon *c, const char *path, const char *rel, const char *sibling,
                          const char *text, size_t len, bool unsafe, FixResult *r) {
  memset(r, 0, sizeof *r);
  size_t bom = len >= 3 && memcmp(text, CLI_FIX_BOM, 3) == 0 ? 3 : 0;
  char *cur = xstrndup(text + bom, len - bom);
  size_t cur_len = len - bom;
  bool changed = false;
  r->converged = false;
  for (int round = 0; round < CLI_FIX_ROUNDS; round++) {
    FindingList l = {0};
    analyze_text(rel ? rel : path, cur, cur_len, NULL, &c->aopt, &l, NULL);
    if (sibling) analyze_npu_sibling(&c->aopt, sibling, &l);
    config_filter_findings((void *)&c->config, path, &l);
    size_t nl;
    FixStats st;
    char *next = fixes_apply(cur, cur_len, &l, unsafe, &nl, &st);
    r->left = st;
    r->blocking = 0;
    for (size_t i = 0; i < l.len; i++)
      if (l.items[i].severity <= SEV_WARNING) r->blocking++;
    findings_free(&l);
    if (!next || (nl == cur_len && memcmp(next, cur, nl) == 0)) {
      free(next);
      r->converged = true;
      break;
    }
    r->applied += st.applied;
    free(cur);
    cur = next;
    cur_len = nl;
    changed = true;
  }
  if (!changed) {
    free(cur);
    return;
  }
  r->text = xmalloc(cur_len + bom + 1);
  memcpy(r->text, text, bom);
  memcpy(r->text + bom, cur, cur_len);
  r->text[cur_len + bom] = '\0';
  r->len = cur_len + bom;
  free(cur);
}

/* The scan argument a collected file came from: its directory, made real. */
static char *cli_fix__root_of(const CliCommon *c, const WsFile *f) {
  static const char *const dot[] = {"."};
  char *const *paths = c->n_paths ? c->paths : (char *const *)dot;
  size_t n = c->n_paths ? c->n_paths : 1;
  char buf[PATH_MAX];
  for (size_t i = 0; i < n; i++) {
    const char *p = paths[i];
    size_t pl = strlen(p);
    if (strcmp(f->abs, p) == 0) {
      /* a file named on the command line: its directory is the root */
      const char *slash = strrchr(p, '/');
      char *dir = slash ? xstrndup(p, (size_t)(slash - p + (slash == p))) : xstrdup(".");
      char *r = realpath(dir, buf) ? xstrdup(buf) : NULL;
      free(dir);
      return r;
    }
    if (strncmp(f->abs, p, pl) == 0 && (f->abs[pl] == '/' || (pl && p[pl - 1] == '/')))
      return realpath(p, buf) ? xstrdup(buf) : NULL;
  }
  return NULL;
}

/* The real path of f when it lies inside its root, else NULL with *why set. */
static char *cli_fix__real(const CliCommon *c, const WsFile *f, const char **why) {
  char buf[PATH_MAX];
  char *root = cli_fix__root_of(c, f);
  if (!root || !realpath(f->abs, buf)) {
    *why = "cannot resolve its path";
    free(root);
    return NULL;
  }
  size_t rl = strlen(root);
  bool inside = strcmp(root, "/") == 0 || (strncmp(buf, root, rl) == 0 && buf[rl] == '/');
  free(root);
  if (!inside) {
    *why = "not fixed: a symbolic link leads outside the scanned directory";
    return NULL;
  }
  return xstrdup(buf);
}

static bool cli_fix__seen(FixRun *run, const char *real) {
  for (size_t i = 0; i < run->done.len; i++)
    if (strcmp(run->done.items[i], real) == 0) return true;
  array_push(&run->done, xstrdup(real));
  return false;
}

/* Reads a regular file without following a final symbolic link. */
static int cli_fix__read(const char *real, char **text, size_t *len, struct stat *st) {
  int fd = open(real, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -errno;
  int rc = 0;
  if (fstat(fd, st) != 0) rc = -errno;
  else if (!S_ISREG(st->st_mode)) rc = -EINVAL;
  else if ((size_t)st->st_size > WS_DEFAULT_MAX_FILE * 4) rc = -EFBIG;
  close(fd);
  if (rc != 0) return rc;
  return util_read_file(real, WS_DEFAULT_MAX_FILE * 4, text, len);
}

/* Writes (or, with --diff, shows) one fixed text and counts it. */
static void cli_fix__emit(FixRun *run, const char *shown, const char *real, const struct stat *st, const char *text,
                          size_t len, const FixResult *r) {
  if (!r->converged)
    fprintf(stderr, "%s: fixes did not settle after %d rounds; %s the last result\n", shown, CLI_FIX_ROUNDS,
            run->diff ? "showing" : "writing");
  if (run->diff) {
    output_diff(stdout, shown, text, len, r->text, r->len);
  } else {
    int rc = cli_common_replace_file(real, st, ws_hash(text, len), r->text, r->len);
    if (rc != 0) {
      run->errors++;
      fprintf(stderr, "%s: not written: %s\n", shown,
              rc == -ESTALE ? "the file changed on disk while it was being fixed" : strerror(-rc));
      return;
    }
  }
  run->fixed += r->applied;
  run->files++;
}

/* Whether the first analysis found something this run would fix. */
static bool cli_fix__has_fix(const FindingList *l, bool unsafe) {
  for (size_t i = 0; i < l->len; i++) {
    const Finding *f = &l->items[i];
    if (f->edits.len && (f->fix == FIX_SAFE || (unsafe && f->fix == FIX_UNSAFE))) return true;
  }
  return false;
}

/* A file with nothing to fix: its findings only add to what is left
 * (once per real file, as for the files that are fixed). */
static void cli_fix__count_only(FixRun *run, const WsFile *f) {
  char buf[PATH_MAX];
  if (f->note || (realpath(f->abs, buf) && cli_fix__seen(run, buf))) return;
  TextEditList edits = {0};
  FixStats st;
  fixes_collect(&f->findings, run->unsafe, &edits, &st);
  fixes_edits_free(&edits);
  run->unsafe_left += st.unsafe;
  run->unfixable_left += st.unfixable;
  for (size_t i = 0; i < f->findings.len; i++)
    if (f->findings.items[i].severity <= SEV_WARNING) run->blocking_left++;
}

static void cli_fix__file(const CliCommon *c, FixRun *run, const Workspace *ws, const WsFile *f) {
  if (!cli_fix__has_fix(&f->findings, run->unsafe)) {
    cli_fix__count_only(run, f);
    return;
  }
  char *shown = output_display_path(ws, f);
  char *text = NULL;
  size_t len = 0;
  struct stat st;
  FixResult r;
  memset(&r, 0, sizeof r);
  const char *why = NULL;
  char *real = cli_fix__real(c, f, &why);
  if (!real) {
    fprintf(stderr, "%s: %s\n", shown, why);
    if (!strstr(why, "symbolic")) run->errors++; /* a link out of the root is refused on purpose */
    goto fail;
  }
  if (cli_fix__seen(run, real)) goto fail;
  int rc = cli_fix__read(real, &text, &len, &st);
  if (rc != 0) {
    fprintf(stderr, "%s: cannot read: %s\n", shown, strerror(-rc));
    run->errors++;
    goto fail;
  }
  if (!memchr(text, '\0', len)) /* binary: nothing to do */
    cli_fix__text(c, f->path, f->rel, f->npu_sibling, text, len, run->unsafe, &r);
  run->unsafe_left += r.left.unsafe;
  run->unfixable_left += r.left.unfixable;
  run->skipped_left += r.left.skipped;
  run->blocking_left += r.blocking;
  if (r.text) cli_fix__emit(run, shown, real, &st, text, len, &r);
fail:
  free(r.text);
  free(text);
  free(real);
  free(shown);
}

static const char *cli_fix__s(size_t n) {
  return n == 1 ? "" : "s";
}

/* "Fixed 3 findings (2 files); 4 left: 1 unsafe (use --unsafe-fixes), 3 without a fix" */
static void cli_fix__summary(FILE *out, const FixRun *run) {
  size_t left = run->unsafe_left + run->unfixable_left + run->skipped_left;
  if (run->fixed)
    fprintf(out, "%s %zu finding%s (%zu file%s)", run->diff ? "Would fix" : "Fixed", run->fixed,
            cli_fix__s(run->fixed), run->files, cli_fix__s(run->files));
  else
    fputs("Nothing to fix", out);
  if (!left) {
    fputs(run->fixed ? "; none left.\n" : ".\n", out);
    return;
  }
  fprintf(out, "; %zu left:", left);
  const char *sep = " ";
  if (run->unsafe_left) {
    fprintf(out, "%s%zu unsafe (use --unsafe-fixes)", sep, run->unsafe_left);
    sep = ", ";
  }
  if (run->unfixable_left) {
    fprintf(out, "%s%zu without a fix", sep, run->unfixable_left);
    sep = ", ";
  }
  if (run->skipped_left) fprintf(out, "%s%zu overlapping other fixes", sep, run->skipped_left);
  fputc('\n', out);
}

int cli_fix(int argc, char **argv) {
  CliCommon c;
  cli_common_init(&c);
  FixRun run;
  memset(&run, 0, sizeof run);
  for (int i = 0; i < argc; i++) {
    int used = cli_common_arg(&c, argc, argv, i);
    if (used < 0) return cli_common_fail(&c);
    if (used > 0) i += used - 1;
    else if (strcmp(argv[i], "--diff") == 0) run.diff = true;
    else if (strcmp(argv[i], "--unsafe-fixes") == 0) run.unsafe = true;
    else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "ascend-lsp fix: unknown option '%s'\n", argv[i]);
      return cli_common_fail(&c);
    } else cli_common_add_path(&c, argv[i]);
  }
  if (cli_common_options(&c) != 0) return cli_common_fail(&c);
  Workspace ws = {0};
  int rc = cli_common_collect(&c, &ws);
  /* a first analysis on every core finds the files that have something
   * to fix; only those are read again and rewritten */
  cli_common_analyze(&c, &ws);
  /* files first, then links: a file reached through a link inside the
   * root is fixed once, under its own name */
  for (int links = 0; links < 2; links++)
    for (size_t i = 0; i < ws.files.len; i++) {
      struct stat lst;
      const WsFile *f = &ws.files.items[i];
      bool link = lstat(f->abs, &lst) == 0 && S_ISLNK(lst.st_mode);
      if (f->kind != FILE_ELF && link == (links == 1)) cli_fix__file(&c, &run, &ws, f);
    }
  cli_fix__summary(run.diff ? stderr : stdout, &run);
  strlist_free(&run.done);
  ws_free(&ws);
  cli_common_free(&c);
  if (rc != 0 || run.errors) return 2;
  if (run.diff) return run.files ? 1 : 0;
  return run.blocking_left ? 1 : 0;
}
