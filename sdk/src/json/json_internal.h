/* json_internal.h - what the mh_json library's files share: the value
 * layout, the arena, UTF-8 decoding and message snippets. Not installed.
 *
 * Every non-static name here is prefixed (mh_json_i_, mh_arena_, mh_utf8_)
 * because plugins link this library statically next to their own code.
 */
#ifndef MH_JSON_INTERNAL_H
#define MH_JSON_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/json.h"

/* ---- Values ------------------------------------------------------------ */

enum {
    MH_JSON_F_TRUE = 1u << 0,     /* bool: true */
    MH_JSON_F_INTEGRAL = 1u << 1, /* number: a whole number */
    MH_JSON_F_FITS = 1u << 2,     /* number: |value| fits u.num.magnitude */
    MH_JSON_F_NEGATIVE = 1u << 3  /* number: written with '-' */
};

typedef struct mh_json_member mh_json_member;

struct mh_json {
    uint8_t type;  /* mh_json_type */
    uint8_t flags; /* MH_JSON_F_* */
    union {
        struct { const char *bytes; size_t length; } str;
        struct { double value; uint64_t magnitude; } num;
        struct { const mh_json *items; size_t count; } arr;
        struct { const mh_json_member *members; size_t count; } obj;
    } u;
};

struct mh_json_member {
    const char *key;
    size_t key_length;
    mh_json value;
};

/* ---- Arena: many small allocations, one release ------------------------ */

typedef struct mh_arena_block mh_arena_block;

typedef struct mh_arena {
    mh_arena_block *head; /* the block being filled, then older ones */
    size_t next_size;     /* size of the next ordinary block */
} mh_arena;

/* Zero-initialised arena is ready. alloc returns NULL when out of memory
 * (or size is absurd); align must be a power of two up to
 * alignof(max_align_t). */
void *mh_arena_alloc(mh_arena *arena, size_t size, size_t align);
void mh_arena_release(mh_arena *arena);

/* ---- Numbers (number.c) -------------------------------------------------- */

/* The pieces of a number token already checked against the JSON grammar:
 * [int_begin, int_end) integer digits, [frac_begin, frac_end) fraction
 * digits (empty when none), exponent saturated to +-999999999. */
typedef struct mh_json_number_parts {
    const char *text; /* the whole token */
    size_t text_length;
    const char *int_begin, *int_end;
    const char *frac_begin, *frac_end;
    long exponent;
    int negative;
} mh_json_number_parts;

/* Fills out->u.num and out->flags. Returns MH_OK, MH_ERR_LIMIT when the
 * value is too large for a double, MH_ERR_NO_MEMORY. */
mh_status mh_json_i_number(const mh_json_number_parts *parts, mh_json *out);

/* Writes the shortest "%.Ng" (N = 15..17) of a finite double that reads back
 * as the same value, with '.' as decimal point whatever the locale. buf
 * must hold 32 bytes. Returns the length. */
size_t mh_json_i_format_double(char *buf, double value);

/* Records a failure in a writer (write.c), as its own misuse checks do. */
void mh_json_i_writer_fail(mh_json_writer *writer, mh_status status, const char *why);

/* ---- UTF-8 (utf8.c) ------------------------------------------------------ */

typedef enum mh_utf8_error {
    MH_UTF8_OK = 0,
    MH_UTF8_BAD_BYTE,   /* a continuation byte or 0xF5..0xFF as lead byte */
    MH_UTF8_OVERLONG,   /* C0, C1, E0 80..9F, F0 80..8F */
    MH_UTF8_SURROGATE,  /* ED A0..BF: U+D800..U+DFFF */
    MH_UTF8_TOO_LARGE,  /* F4 90..BF: above U+10FFFF */
    MH_UTF8_INCOMPLETE  /* a continuation byte is missing */
} mh_utf8_error;

/* Length (1..4) of the valid UTF-8 sequence at s (n >= 1 bytes available)
 * and its code point in *cp, or 0 with the reason in *why. */
size_t mh_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp, mh_utf8_error *why);

/* Encodes cp (<= 0x10FFFF) into out (4 bytes); returns the length. */
size_t mh_utf8_encode(uint32_t cp, char *out);

/* Writes a short quoted copy of text for messages: "abc" with '"', '\\' and
 * control characters escaped and the middle cut at max_chars characters
 * ("...abc" style ellipsis at the end). Always NUL-terminates (size >= 1). */
void mh_json_i_snippet(char *out, size_t size, const char *text, size_t length, size_t max_chars);

#endif
