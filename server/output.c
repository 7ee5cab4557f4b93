/* output: see output.h. */
#include "server/output.h"
#include "server/cli.h"

#include <stdlib.h>

bool output_format_parse(const char *s, OutputFormat *out) {
  static const struct {
    const char *name;
    OutputFormat fmt;
  } names[] = {{"text", OUT_TEXT}, {"concise", OUT_TEXT}, {"json", OUT_JSON}, {"sarif", OUT_SARIF},
               {"github", OUT_GITHUB}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(s, names[i].name) == 0) {
      *out = names[i].fmt;
      return true;
    }
  return false;
}

static void output__text(FILE *out, const Workspace *ws) {
  size_t counts[5] = {0}, files = 0;
  for (size_t i = 0; i < ws->files.len; i++) {
    const WsFile *wf = &ws->files.items[i];
    if (wf->findings.len) files++;
    for (size_t k = 0; k < wf->findings.len; k++) {
      const Finding *f = &wf->findings.items[k];
      counts[f->severity]++;
      fprintf(out, "%s:%u:%u: %s: %s %s", wf->path, f->start_row + 1, f->start_char + 1, severity_name(f->severity),
              f->rule->code, f->message);
      if (f->replacement && !strstr(f->message, f->replacement)) fprintf(out, " [%s]", f->replacement);
      fputc('\n', out);
    }
  }
  size_t total = counts[1] + counts[2] + counts[3] + counts[4];
  if (total == 0) {
    fprintf(out, "No findings in %zu files.\n", ws->files.len);
    return;
  }
  fprintf(out, "Found %zu findings in %zu of %zu files (%zu errors, %zu warnings, %zu info, %zu hints).\n", total,
          files, ws->files.len, counts[SEV_ERROR], counts[SEV_WARNING], counts[SEV_INFO], counts[SEV_HINT]);
}

cJSON *output_finding_json(const Finding *f, const char *file) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "code", f->rule->code);
  cJSON_AddStringToObject(o, "severity", severity_name(f->severity));
  cJSON_AddStringToObject(o, "file", file);
  cJSON_AddNumberToObject(o, "line", f->start_row + 1);
  cJSON_AddNumberToObject(o, "column", f->start_char + 1);
  cJSON_AddNumberToObject(o, "end_line", f->end_row + 1);
  cJSON_AddNumberToObject(o, "end_column", f->end_char + 1);
  cJSON_AddStringToObject(o, "message", f->message);
  cJSON_AddStringToObject(o, "message_zh", f->message_zh);
  if (f->replacement) cJSON_AddStringToObject(o, "replacement", f->replacement);
  else cJSON_AddNullToObject(o, "replacement");
  cJSON_AddStringToObject(o, "confidence", confidence_name(f->confidence));
  cJSON_AddBoolToObject(o, "guarded", f->guarded);
  cJSON_AddBoolToObject(o, "transfer_covered", f->transfer_covered);
  cJSON_AddStringToObject(o, "subject", f->subject);
  if (f->detail) cJSON_AddStringToObject(o, "detail", f->detail);
  if (f->fix == FIX_NONE || f->edits.len == 0) {
    cJSON_AddNullToObject(o, "fix");
  } else {
    cJSON *fix = cJSON_AddObjectToObject(o, "fix");
    cJSON_AddStringToObject(fix, "applicability", f->fix == FIX_SAFE ? "safe" : "unsafe");
    cJSON *edits = cJSON_AddArrayToObject(fix, "edits");
    for (size_t i = 0; i < f->edits.len; i++) {
      const TextEdit *e = &f->edits.items[i];
      cJSON *je = cJSON_CreateObject();
      cJSON_AddNumberToObject(je, "line", e->start_row + 1);
      cJSON_AddNumberToObject(je, "column", e->start_char + 1);
      cJSON_AddNumberToObject(je, "end_line", e->end_row + 1);
      cJSON_AddNumberToObject(je, "end_column", e->end_char + 1);
      cJSON_AddStringToObject(je, "content", e->text);
      cJSON_AddItemToArray(edits, je);
    }
  }
  return o;
}

static void output__json(FILE *out, const Workspace *ws) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "version", ASCEND_LSP_VERSION);
  cJSON *arr = cJSON_AddArrayToObject(root, "findings");
  size_t counts[5] = {0}, fixable = 0;
  cJSON *by_code = cJSON_CreateObject();
  for (size_t i = 0; i < ws->files.len; i++) {
    const WsFile *wf = &ws->files.items[i];
    for (size_t k = 0; k < wf->findings.len; k++) {
      const Finding *f = &wf->findings.items[k];
      cJSON_AddItemToArray(arr, output_finding_json(f, wf->path));
      counts[f->severity]++;
      if (f->fix != FIX_NONE && f->edits.len) fixable++;
      cJSON *c = cJSON_GetObjectItemCaseSensitive(by_code, f->rule->code);
      if (c) cJSON_SetNumberValue(c, c->valuedouble + 1);
      else cJSON_AddNumberToObject(by_code, f->rule->code, 1);
    }
  }
  cJSON *sum = cJSON_AddObjectToObject(root, "summary");
  cJSON_AddNumberToObject(sum, "files", (double)ws->files.len);
  cJSON_AddNumberToObject(sum, "findings", (double)(counts[1] + counts[2] + counts[3] + counts[4]));
  cJSON_AddNumberToObject(sum, "errors", (double)counts[SEV_ERROR]);
  cJSON_AddNumberToObject(sum, "warnings", (double)counts[SEV_WARNING]);
  cJSON_AddNumberToObject(sum, "info", (double)counts[SEV_INFO]);
  cJSON_AddNumberToObject(sum, "hints", (double)counts[SEV_HINT]);
  cJSON_AddNumberToObject(sum, "fixable", (double)fixable);
  cJSON_AddItemToObject(sum, "by_code", by_code);
  cJSON *skipped = cJSON_AddArrayToObject(root, "skipped");
  for (size_t i = 0; i < ws->notes.len; i++) cJSON_AddItemToArray(skipped, cJSON_CreateString(ws->notes.items[i]));
  char *s = cJSON_Print(root);
  fputs(s, out);
  fputc('\n', out);
  cJSON_free(s);
  cJSON_Delete(root);
}

/* GitHub Actions workflow commands: values escape %, CR, LF; properties also , and :. */
static void output__gh_escape(FILE *out, const char *s, bool property) {
  for (; *s; s++) {
    switch (*s) {
    case '%': fputs("%25", out); break;
    case '\r': fputs("%0D", out); break;
    case '\n': fputs("%0A", out); break;
    case ':': fputs(property ? "%3A" : ":", out); break;
    case ',': fputs(property ? "%2C" : ",", out); break;
    default: fputc(*s, out);
    }
  }
}

static void output__github(FILE *out, const Workspace *ws) {
  for (size_t i = 0; i < ws->files.len; i++) {
    const WsFile *wf = &ws->files.items[i];
    for (size_t k = 0; k < wf->findings.len; k++) {
      const Finding *f = &wf->findings.items[k];
      const char *level = f->severity == SEV_ERROR ? "error" : f->severity == SEV_WARNING ? "warning" : "notice";
      fprintf(out, "::%s title=", level);
      output__gh_escape(out, f->rule->code, true);
      fputs(",file=", out);
      output__gh_escape(out, wf->path, true);
      fprintf(out, ",line=%u,col=%u,endLine=%u,endColumn=%u::", f->start_row + 1, f->start_char + 1,
              f->end_row + 1, f->end_char + 1);
      char *msg = xasprintf("%s %s", f->rule->code, f->message);
      output__gh_escape(out, msg, false);
      free(msg);
      fputc('\n', out);
    }
  }
}

void output_statistics(FILE *out, const Workspace *ws) {
  size_t n;
  const KbRule *rules = kb_rules(&n);
  for (size_t r = 0; r < n; r++) {
    size_t count = 0, fixable = 0;
    for (size_t i = 0; i < ws->files.len; i++)
      for (size_t k = 0; k < ws->files.items[i].findings.len; k++) {
        const Finding *f = &ws->files.items[i].findings.items[k];
        if (f->rule != &rules[r]) continue;
        count++;
        if (f->fix == FIX_SAFE && f->edits.len) fixable++;
      }
    if (count)
      fprintf(out, "%6zu  %s  %-32s %s\n", count, rules[r].code, rules[r].name, fixable == count ? "[*]" : fixable ? "[-]" : "");
  }
}

void output_write(FILE *out, OutputFormat fmt, const Workspace *ws, const AnalyzeOptions *opt) {
  switch (fmt) {
  case OUT_TEXT: output__text(out, ws); break;
  case OUT_JSON: output__json(out, ws); break;
  case OUT_GITHUB: output__github(out, ws); break;
  case OUT_SARIF: {
    cJSON *log = output_sarif(ws, opt);
    char *s = cJSON_Print(log);
    fputs(s, out);
    fputc('\n', out);
    cJSON_free(s);
    cJSON_Delete(log);
    break;
  }
  }
}
