/* reportgen: see reportgen.h. */
#include "server/reportgen.h"
#include "server/cli/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

bool reportgen_format_parse(const char *s, ReportGenFormat *out) {
  if (!s) return false;
  if (strcmp(s, "md") == 0 || strcmp(s, "markdown") == 0) *out = REPORTGEN_MD;
  else if (strcmp(s, "json") == 0) *out = REPORTGEN_JSON;
  else if (strcmp(s, "html") == 0) *out = REPORTGEN_HTML;
  else if (strcmp(s, "sarif") == 0) *out = REPORTGEN_SARIF;
  else return false;
  return true;
}

const char *reportgen_format_ext(ReportGenFormat f) {
  switch (f) {
  case REPORTGEN_MD: return "md";
  case REPORTGEN_JSON: return "json";
  case REPORTGEN_HTML: return "html";
  case REPORTGEN_SARIF: return "sarif";
  }
  return "md";
}

typedef struct {
  const Workspace *ws;
  const ReportGenOptions *o;
} ReportGenRead;

/* The model's reader: the editor's text of an open document, else the disk.
 * Once cancelled it reads nothing, which makes the rest of the build quick. */
static char *reportgen__read(void *data, size_t index, size_t *len) {
  const ReportGenRead *rd = data;
  if (rd->o->cancel && atomic_load(rd->o->cancel)) return NULL;
  if (index >= rd->ws->files.len) return NULL;
  const WsFile *f = &rd->ws->files.items[index];
  if (rd->o->overlay) {
    char *t = rd->o->overlay(rd->o->overlay_data, f->abs, len);
    if (t) return t;
  }
  char *text = NULL;
  if (util_read_file(f->abs, WS_DEFAULT_MAX_FILE, &text, len) != 0) return NULL;
  return text;
}

/* The root directory's own name ("." resolved; a file's directory when a
 * single file was scanned), for the project name. */
static char *reportgen__root_name(const Workspace *ws) {
  const char *root = ws->root ? ws->root : ".";
  char buf[PATH_MAX];
  const char *p = realpath(root, buf) ? buf : root;
  struct stat st;
  if (p == buf && stat(buf, &st) == 0 && !S_ISDIR(st.st_mode)) {
    char *slash = strrchr(buf, '/');
    if (slash && slash != buf) *slash = '\0';
  }
  size_t n = strlen(p);
  while (n > 1 && p[n - 1] == '/') n--;
  const char *start = p + n;
  while (start > p && start[-1] != '/') start--;
  return xstrndup(start, (size_t)(p + n - start));
}

int reportgen_render(const Workspace *ws, const ReportGenOptions *o, char **out, size_t *len, ReportSummary *sum) {
  *out = NULL;
  if (len) *len = 0;
  if (o->cancel && atomic_load(o->cancel)) return -ECANCELED;
  ReportFile *files = xcalloc(ws->files.len ? ws->files.len : 1, sizeof *files);
  for (size_t i = 0; i < ws->files.len; i++) {
    const WsFile *f = &ws->files.items[i];
    files[i] = (ReportFile){f->path, f->kind, &f->findings, &f->facts};
  }
  ReportGenRead rd = {ws, o};
  char *root_name = reportgen__root_name(ws);
  ReportOptions ro = {0};
  ro.project = o->project;
  ro.root_name = root_name;
  ro.phases = o->phases;
  ro.n_phases = o->n_phases;
  ro.zh = o->zh;
  if (o->aopt) {
    ro.chip = o->aopt->chip;
    ro.torch_npu = o->aopt->torch_npu;
    ro.mindiesd = o->aopt->mindiesd;
  }
  ro.read = reportgen__read;
  ro.read_data = &rd;
  ro.notes = (const char *const *)ws->notes.items;
  ro.n_notes = ws->notes.len;
  Report r;
  report_build(&r, files, ws->files.len, &ro);
  int rc = 0;
  if (o->cancel && atomic_load(o->cancel)) {
    rc = -ECANCELED;
  } else {
    size_t n = 0;
    switch (o->format) {
    case REPORTGEN_MD: *out = report_markdown(&r, &n); break;
    case REPORTGEN_JSON: *out = report_json(&r, &n); break;
    case REPORTGEN_HTML: *out = report_html(&r, &n); break;
    case REPORTGEN_SARIF: {
      cJSON *log = output_sarif(ws, o->aopt);
      char *s = cJSON_Print(log);
      cJSON_Delete(log);
      *out = xasprintf("%s\n", s ? s : "{}");
      cJSON_free(s);
      n = strlen(*out);
      break;
    }
    }
    if (len) *len = n;
    if (sum) report_summary(&r, sum);
  }
  report_free(&r);
  free(root_name);
  free(files);
  return rc;
}

static int reportgen__write_all(int fd, const char *data, size_t len) {
  size_t off = 0;
  while (off < len) {
    ssize_t w = write(fd, data + off, len - off);
    if (w < 0) {
      if (errno == EINTR) continue;
      return -errno;
    }
    off += (size_t)w;
  }
  return 0;
}

/* An existing file that is not regular: open it as it is (O_NONBLOCK so
 * that a FIFO without a reader fails instead of blocking) and write. */
static int reportgen__write_through(const char *path, const char *data, size_t len) {
  int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return -errno;
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0) (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK); /* a reader is there: wait for it as writes do */
  int rc = reportgen__write_all(fd, data, len);
  if (close(fd) != 0 && rc == 0) rc = -errno;
  return rc;
}

/* A regular file (or a new one): temporary file beside it, atomic rename. */
static int reportgen__replace(const char *path, const char *data, size_t len) {
  const char *slash = strrchr(path, '/');
  char *dir = slash ? xstrndup(path, (size_t)(slash - path) + (slash == path)) : xstrdup(".");
  char *tmp = xasprintf("%s/.%s.XXXXXX", dir, slash ? slash + 1 : path);
  free(dir);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    int e = errno;
    free(tmp);
    return -e;
  }
  int rc = reportgen__write_all(fd, data, len);
  /* mkstemp creates 0600; a report is an ordinary file: keep the mode of
   * the file it replaces, else 0644 (umask() would race other threads) */
  struct stat st;
  mode_t mode = stat(path, &st) == 0 ? (st.st_mode & 07777) : 0644;
  if (rc == 0 && fchmod(fd, mode) != 0) rc = -errno;
  if (close(fd) != 0 && rc == 0) rc = -errno;
  if (rc == 0 && rename(tmp, path) != 0) rc = -errno;
  if (rc != 0) unlink(tmp);
  free(tmp);
  return rc;
}

int reportgen_write_file(const char *path, const char *data, size_t len) {
  struct stat st, lst;
  if (stat(path, &st) != 0) {
    if (errno != ENOENT) return -errno;
    /* nothing there, or a link to nothing: create it where the link points */
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
      int fd = open(path, O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC, 0644);
      if (fd < 0) return -errno;
      close(fd);
      return reportgen_write_file(path, data, len); /* now an existing regular file behind a link */
    }
    return reportgen__replace(path, data, len);
  }
  if (S_ISDIR(st.st_mode)) return -EISDIR;
  if (!S_ISREG(st.st_mode)) return reportgen__write_through(path, data, len);
  if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
    char real[PATH_MAX];
    if (!realpath(path, real)) return -errno;
    return reportgen__replace(real, data, len);
  }
  return reportgen__replace(path, data, len);
}

const char *reportgen_write_strerror(int rc) {
  return rc == -ENXIO ? "a FIFO that no process is reading" : strerror(-rc);
}
