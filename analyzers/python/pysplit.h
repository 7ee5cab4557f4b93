/* pysplit: where a Python text splits into top-level statements, from the
 * bytes alone (no parse), so that each statement can be parsed on its own
 * (forest.h) and an edit re-parses only the statement it is in.
 *
 * A boundary is the start of a line that begins a top-level statement:
 * outside brackets, strings and backslash continuations, its first byte is
 * not white space or '#', it is not an `else`, `elif`, `except` or `finally`
 * clause of the statement before, and the code line before it is not a
 * decorator. A line at column 0 that starts with `def`, `class`, `import`
 * or `from` closes any bracket left open (as a reader would read it), so
 * one missing `)` does not make the rest of the file one statement.
 * The split is a function of the text only: the same text always splits
 * the same way, however it was edited. Lone CRs end lines, as for the
 * parser (analyze_parse). Pure functions; nothing is allocated. */
#ifndef ASC_PYSPLIT_H
#define ASC_PYSPLIT_H

#include <stddef.h>
#include <stdint.h>

/* The next boundary after `at` (itself a boundary, or 0), or len. */
size_t pysplit_next(const char *text, size_t len, size_t at);

/* Line breaks in text[from, to): '\n', "\r\n" and a lone '\r' count once. */
uint32_t pysplit_rows(const char *text, size_t len, size_t from, size_t to);

#endif
