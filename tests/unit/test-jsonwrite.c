/* Unit tests for protocol/jsonwrite.c: the same bytes as cJSON's printer. */
#include "tests/unit/test.h"

#include <cJSON.h>
#include <stdlib.h>

#include "protocol/jsonwrite.h"

/* Every byte from 1 to 255 and the escapes around text: as cJSON prints them. */
TEST(jsonwrite_strings_as_cjson_prints_them) {
  char all[256];
  for (int i = 1; i < 256; i++) all[i - 1] = (char)i;
  all[255] = '\0';
  const char *cases[] = {"", "plain", "q\"uote\\back", "tab\tnl\nret\rff\fbs\b", "\x01\x1f\x7f", "中文 ✓", all};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    StrBuf sb;
    sb_init(&sb);
    jsonw_string(&sb, cases[i]);
    cJSON *s = cJSON_CreateString(cases[i]);
    char *want = cJSON_PrintUnformatted(s);
    ASSERT_STR_EQ(sb.data, want);
    free(want);
    cJSON_Delete(s);
    sb_free(&sb);
  }
}

/* One byte that needs an escape (or one just past the edge: a space, DEL,
 * a UTF-8 lead) at every offset of a longer text, so every place in the
 * eight-byte words and after them is met: as cJSON prints it. */
TEST(jsonwrite_escape_at_every_offset) {
  static const char bytes[] = {'"', '\\', '\n', '\x01', '\x1f', ' ', '\x7f', '!', '#', '[', ']'};
  char text[42];
  for (size_t b = 0; b < sizeof bytes; b++)
    for (size_t at = 0; at < 41; at++) {
      memset(text, 'a', 41);
      text[41] = '\0';
      text[at] = bytes[b];
      if (at + 3 < 41) memcpy(text + at + 1, "\xe4\xb8\xad", 3); /* a CJK character after it */
      StrBuf sb;
      sb_init(&sb);
      jsonw_string(&sb, text);
      cJSON *s = cJSON_CreateString(text);
      char *want = cJSON_PrintUnformatted(s);
      ASSERT_STR_EQ(sb.data, want);
      free(want);
      cJSON_Delete(s);
      sb_free(&sb);
    }
}

TEST(jsonwrite_ints_and_keys) {
  StrBuf sb;
  sb_init(&sb);
  sb_putc(&sb, '{');
  jsonw_key(&sb, "a", true);
  jsonw_int(&sb, 0);
  jsonw_key(&sb, "b", false);
  jsonw_int(&sb, -42);
  jsonw_key(&sb, "c", false);
  jsonw_int(&sb, 2147483647);
  sb_putc(&sb, '}');
  ASSERT_STR_EQ(sb.data, "{\"a\":0,\"b\":-42,\"c\":2147483647}");
  cJSON *o = cJSON_Parse(sb.data);
  ASSERT(o != NULL);
  char *again = cJSON_PrintUnformatted(o);
  ASSERT_STR_EQ(again, sb.data);
  free(again);
  cJSON_Delete(o);
  sb_free(&sb);
}
