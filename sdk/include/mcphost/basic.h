/* mcphost/basic.h - Commodore BASIC program text: tokenising text into a
 * program as BASIC keeps it in memory, and listing a program in memory back
 * as text (static library mh_text, link target mcphost::text).
 *
 * Dialects: BASIC 2.0 (C64, VIC-20: tokens $80-$CB) and BASIC 3.5 (Plus/4,
 * C16: 2.0's and $CC-$FD).
 *
 * The text is what the `petcat` tool and most cross-development tools
 * read and write (ASCII):
 *   - a line is a line number (0-63999) and the statements; spaces before
 *     and right after the number are dropped, others are kept;
 *   - lower-case letters are the keyboard's unshifted letters: keywords are
 *     found among them ("print" is the PRINT token), other letters become
 *     PETSCII $41-$5A; upper-case letters are the shifted ones ($C1-$DA),
 *     which are never keywords;
 *   - nothing is tokenised inside "strings", after REM, or in DATA up to the
 *     next ':' (as the KERNAL's cruncher does);
 *   - control and graphics characters are written in braces: {clr} {home}
 *     {up} {down} {left} {rght} {rvs on} {rvs off} {del} {inst}, the colours
 *     {blk} {wht} {red} {cyn} {pur} {grn} {blu} {yel} {orng} {brn} {lred}
 *     {gry1} {gry2} {lgrn} {lblu} {gry3}, {f1}-{f8}, {SHIFT-x} for a
 *     shifted letter, @ + - *, {CBM-x} for + - @ *, and {$hh} for any byte.
 * Listing writes the same text, so a listed program tokenises back to the
 * same bytes; bytes without a name are listed as {$hh}.
 *
 * Ownership: the caller owns every buffer. Threads: [thread-safe] (no
 * state).
 */
#ifndef MCPHOST_BASIC_H
#define MCPHOST_BASIC_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mh_basic_dialect {
    MH_BASIC_V2 = 0,  /* Commodore BASIC 2.0: C64, VIC-20 */
    MH_BASIC_V35 = 1  /* Commodore BASIC 3.5: Plus/4, C16 */
} mh_basic_dialect;

/* The most bytes one tokenised line may hold (BASIC's input buffer). */
#define MH_BASIC_LINE_MAX 250u

/* Tokenises text (lines separated by "\n" or "\r\n") into out as the
 * program sits in memory from address start: per line the link to the
 * next line, the line number, the tokens and a 0; then two 0 bytes. Line
 * numbers must rise. MH_OK with *length set; otherwise error names the
 * line and what is wrong (MH_ERR_INVALID_ARGUMENT), or that out is too
 * small (MH_ERR_NO_MEMORY, "the program needs N bytes"). */
mh_status mh_basic_tokenize(mh_basic_dialect dialect, const char *text, uint16_t start,
                            uint8_t *out, size_t out_size, size_t *length, char *error,
                            size_t error_size);

/* One listed line. */
typedef struct mh_basic_line {
    uint16_t address; /* where the line starts (its link) */
    uint16_t link;    /* the address of the next line */
    uint16_t number;  /* the line number */
    const char *text; /* "10 print \"hi\"": valid during the callback */
} mh_basic_line;

/* Called per line; return nonzero to stop listing. */
typedef int (*mh_basic_line_fn)(void *user, const mh_basic_line *line);

/* How a listing ended. */
typedef struct mh_basic_listing {
    uint32_t lines;    /* lines listed */
    uint16_t end;      /* the address after the end marker (VARTAB of a
                        * well-formed program) */
    int broken;        /* 1: the link chain is broken (problem says where) */
    char problem[160]; /* "" or e.g. "line 20 at $0812 links back to $0801" */
} mh_basic_listing;

/* Lists the program in memory (64 KiB, as the CPU sees RAM) from start,
 * following the links until the 0 link. A link that does not move
 * forward, points past memory, or skips the line's end, and a line that
 * does not end within MH_BASIC_LINE_MAX bytes, end the listing as broken
 * instead of being followed. MH_OK (a broken chain too: see *result) or
 * MH_ERR_INVALID_ARGUMENT for bad arguments. */
mh_status mh_basic_list(mh_basic_dialect dialect, const uint8_t memory[65536], uint16_t start,
                        mh_basic_line_fn fn, void *user, mh_basic_listing *result);

#ifdef __cplusplus
}
#endif
#endif
