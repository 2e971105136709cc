/* td_symfile.h - the syntax of symbol files (symbols_load, td_symbols.c),
 * one symbol a line (case of keywords ignored):
 *   al C:1000 .start       VICE label file ("C:" optional, '.' dropped)
 *   start = $1000          assignment; also "start EQU $1000", "start: = 4096"
 * Values: $1000, 0x1000, 4096, %1000000000000; 0-$FFFF. Names: a letter,
 * '_', '.' or '@', then letters, digits, '_', '.', '@' (at most
 * TD_MAX_SYMBOL_NAME). Blank lines and lines starting with ';', '#' or '//'
 * are nothing; a trailing "; comment" is ignored. A line with a NUL byte is
 * bad (a binary file).
 *
 * Pure parsing of text the caller owns; no state, [thread-safe]. Kept apart
 * from the tool so the fuzz target (tests/fuzz/fuzz_symbols.c) runs it. */
#ifndef TD_SYMFILE_H
#define TD_SYMFILE_H

#include <stddef.h>
#include <stdint.h>

typedef enum td_symfile_kind {
    TD_SYMFILE_BAD = -1,    /* not a symbol line; why says what was expected */
    TD_SYMFILE_NOTHING = 0, /* blank or a comment */
    TD_SYMFILE_SYMBOL = 1   /* name, name_length, value */
} td_symfile_kind;

typedef struct td_symfile_line {
    td_symfile_kind kind;
    const char *name; /* points into the text; not NUL-terminated */
    size_t name_length;
    uint32_t value;   /* 0-$FFFF */
    const char *why;  /* TD_SYMFILE_BAD: a static message */
} td_symfile_line;

/* Parses the line starting at *pos (up to '\n' or end) into *line and moves
 * *pos past it. Returns 0 when *pos is already at end (nothing parsed). */
int td_symfile_next(const char **pos, const char *end, td_symfile_line *line);

#endif
