/* basic_internal.h - the tables behind mcphost/basic.h: keywords by token
 * and the brace names of PETSCII control and graphics bytes. */
#ifndef MH_BASIC_INTERNAL_H
#define MH_BASIC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/basic.h"

#define MH_BASIC_TOKEN_FIRST 0x80u
#define MH_BASIC_TOKEN_REM 0x8Fu
#define MH_BASIC_TOKEN_DATA 0x83u
#define MH_BASIC_TOKEN_PRINT 0x99u
#define MH_BASIC_PI 0xFFu /* the pi character, a constant in expressions */

/* The keyword of token (lower case, "^" for the power arrow), or NULL when
 * the dialect has no such token. */
const char *mh_basic_keyword(mh_basic_dialect dialect, uint8_t token);
/* The last token of the dialect ($CB or $FD). */
uint8_t mh_basic_last_token(mh_basic_dialect dialect);

/* The PETSCII byte of a pound, up or left arrow or pi in UTF-8 at p (its
 * length in *used), or -1; and the UTF-8 of such a byte, or NULL. */
int mh_basic_special_byte(const char *p, size_t *used);
const char *mh_basic_special_utf8(uint8_t byte);

/* The byte a brace name stands for ("clr", "SHIFT-@", in any case), or
 * -1. "$hh" is not a name (the callers parse
 * it). */
int mh_basic_code_byte(const char *name, size_t length);
/* The brace name of byte, or NULL (then it is a plain character or
 * written as {$hh}). */
const char *mh_basic_code_name(uint8_t byte);

#endif
