/* texthits: where words occur in a file's whole text, kept between the
 * versions a server analyzes.
 *
 * Why: a few questions are asked of the whole text on every version (the
 * argparse action a switch is stored with, the onnxruntime provider's name,
 * a folding name, suppression markers). Read from the text each time they
 * cost a scan of every byte per keystroke. Kept, an edit only drops the
 * hits it wrote over, moves those after it, and marks its bytes to be read
 * again: the next question reads the edited bytes (and a word's length
 * around them) only.
 *
 * Every word asked gets all its occurrences, overlapping ones included, in
 * byte order. The hits of a word are exactly those a scan of the current
 * text gives, provided every edit since the last question went through
 * texthits_edit; a text of another length than the edits make is read
 * afresh.
 *
 * Ownership: a TextHits owns its words and hits (texthits_free). The array
 * texthits_find returns is borrowed: valid until the next texthits_edit or
 * texthits_settle, or the next question of the same word (asking others
 * leaves it alone). */
#ifndef ASC_TEXTHITS_H
#define ASC_TEXTHITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct TextHits TextHits;

TextHits *texthits_new(void);
void texthits_free(TextHits *h);

/* Bytes [start, old_end) of the text became [start, new_end). */
void texthits_edit(TextHits *h, uint32_t start, uint32_t old_end, uint32_t new_end);

/* The start of every occurrence of needle (n > 0 bytes) in text[0, len),
 * ascending; *count of them. */
const uint32_t *texthits_find(TextHits *h, const char *text, size_t len, const char *needle, size_t n, size_t *count);

/* Whether needle (n bytes) occurs wholly inside [from, to). */
bool texthits_within(TextHits *h, const char *text, size_t len, const char *needle, size_t n, size_t from, size_t to);

/* Ends a version: words not asked since the last settle are forgotten
 * (a server asks the same few again on every version). */
void texthits_settle(TextHits *h);

#endif
