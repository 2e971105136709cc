/* vic2_decode.h - the pure decoding functions of the VIC-II toolset (no
 * host, no machine): sprite data to pixels and ASCII art, per-line
 * colours to runs, register numbers from the forms agents write, mode
 * names. Linked into tools-vic2 and the unit tests
 * (static library tools_vic2_decode).
 *
 * Ownership: every output buffer belongs to the caller; returned strings
 * are static. Thread-safety: no state; [thread-safe].
 */
#ifndef TOOLS_VIC2_DECODE_H
#define TOOLS_VIC2_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include <mcphost/chip_io.h>

/* A sprite pixel that shows nothing (tv_sprite_pixels). */
#define TV_TRANSPARENT 0xFFu
#define TV_SPRITE_W 24
#define TV_SPRITE_H 21

/* The 24 x 21 pixels of a sprite's 63 data bytes: colour index per pixel
 * or TV_TRANSPARENT. Multicolour: pairs of pixels, 01 = mc0 ($D025),
 * 10 = color, 11 = mc1 ($D026). */
void tv_sprite_pixels(const uint8_t data[63], int multicolor, uint8_t color, uint8_t mc0,
                      uint8_t mc1, uint8_t out[TV_SPRITE_H][TV_SPRITE_W]);

/* ASCII art of a sprite: 21 lines of 24 characters and '\n'; '.' is
 * transparent, '#' the sprite colour, 'a' multicolour 0, 'b' multicolour 1.
 * Needs 21 * 25 + 1 bytes. */
void tv_sprite_ascii(const uint8_t data[63], int multicolor, char out[21 * 25 + 1]);

/* A run of raster lines with the same border and background colour. */
typedef struct tv_color_run {
    uint16_t first, last;
    uint8_t border, background;
} tv_color_run;

/* Collapses lines [first, last] into runs; returns the number of runs
 * (at most max are stored). */
size_t tv_color_runs(const uint8_t *border, const uint8_t *background, size_t first,
                     size_t last, tv_color_run *runs, size_t max);

/* A VIC-II register from a number: 0-63 as itself, or an address inside
 * io (where the machine put the chip, mh.chip.vic2/1 io_range: $D000-$D3FF
 * on a C64), where the 64 registers repeat. -1 otherwise; io NULL or size
 * 0: numbers only. */
int tv_vic_register(uint32_t value, const mh_chip_io_range *io);

/* "standard text", "multicolour text", "standard bitmap",
 * "multicolour bitmap", "extended colour text", "invalid ..." */
const char *tv_mode_name(unsigned mode);

/* "black", "white", ... for 0-15. */
const char *tv_color_name(unsigned color);



/* The Pepto palette (0xRRGGBB), for machines without "mh.video/1". */
extern const uint32_t tv_default_palette[16];
/* ---- breakpoint checks (tools_vic2_breakpoints.c) ---- */

/* Collision latch bits in mask that were not set at the previous check
 * (the latch clears when the program reads it); updates *prev. */
uint8_t tv_collision_step(uint8_t *prev, uint8_t latch, uint8_t mask);

/* One term of a composite breakpoint: a value in [min, max]. */
typedef enum tv_term_kind {
    TV_TERM_RASTER = 0,   /* raster line */
    TV_TERM_SPRITE_Y = 1, /* $D001 + 2 * index */
    TV_TERM_REGISTER = 2, /* VIC-II register index */
    TV_TERM_PC = 3        /* the CPU's program counter */
} tv_term_kind;

typedef struct tv_term {
    uint8_t kind;  /* tv_term_kind */
    uint8_t index; /* sprite 0-7 or register 0-63 */
    uint32_t min, max;
} tv_term;

/* Whether the terms hold (any 1: OR, else AND) for the given values
 * (values[i] for terms[i]). */
int tv_terms_hold(const tv_term *terms, const uint32_t *values, size_t count, int any);
/* "raster", "sprite_y", "register", "pc"; NULL for another kind. */
const char *tv_term_name(unsigned kind);

#endif
