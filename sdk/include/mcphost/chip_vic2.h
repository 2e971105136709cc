/* mcphost/chip_vic2.h - the VIC-II chip interface, "mh.chip.vic2/1", that a
 * machine with a MOS 6567/6569/856x video chip registers (instance "vic2"),
 * and that the VIC-II toolset (plugins/tools-vic2) works against.
 *
 * Offers:
 *   - mh_chip_vic2_view: every register decoded into a plain struct filled
 *     by the machine (mode, bank, screen/charset/bitmap addresses, scroll,
 *     raster compare and IRQ state, colours, collisions, the beam, and the
 *     eight sprites with their pointers and data addresses);
 *   - side-effect-free register reads (peek) and register writes with the
 *     chip's effects (write), register = address & $3F;
 *   - what the VIC-II sees in its 16 KiB bank (vic_read: RAM, and the
 *     character ROM where the machine maps it) and the colour RAM;
 *   - the border ($D020) and background ($D021) colour of every raster
 *     line of the last complete frame (line_colors), for raster effects;
 *   - the beam position (beam), cheap enough for breakpoint checks.
 * A toolset needs nothing but this header (and mcphost/machine.h's
 * "mh.video/1" for the picture itself).
 *
 * Versioning: the vtable starts with struct_size and only grows at the end;
 * check struct_size before using a field added later. The view structs
 * also carry struct_size (set by the caller to sizeof; the machine fills
 * what fits).
 *
 * Ownership: vtable and context belong to the machine instance and live
 * until its destroy(). Strings in a view are static. Output buffers belong
 * to the caller.
 * Threads: every function is [emu-thread]: call it from a tool handler that
 * runs on the session's thread (a tool with `requires`), or from a
 * breakpoint check callback.
 */
#ifndef MCPHOST_CHIP_VIC2_H
#define MCPHOST_CHIP_VIC2_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/chip_io.h"
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_CHIP_VIC2_IFACE "mh.chip.vic2/1"

/* Most raster lines of any model (PAL: 312). */
#define MH_CHIP_VIC2_MAX_LINES 312

/* Display modes: ECM << 2 | BMM << 1 | MCM. */
typedef enum mh_chip_vic2_mode {
    MH_CHIP_VIC2_MODE_TEXT = 0,           /* standard character mode */
    MH_CHIP_VIC2_MODE_MC_TEXT = 1,        /* multicolour character mode */
    MH_CHIP_VIC2_MODE_BITMAP = 2,         /* standard (hires) bitmap */
    MH_CHIP_VIC2_MODE_MC_BITMAP = 3,      /* multicolour bitmap */
    MH_CHIP_VIC2_MODE_ECM_TEXT = 4,       /* extended background colour text */
    MH_CHIP_VIC2_MODE_INVALID_TEXT = 5,   /* ECM + MCM: black */
    MH_CHIP_VIC2_MODE_INVALID_BITMAP = 6, /* ECM + BMM: black */
    MH_CHIP_VIC2_MODE_INVALID_MC_BITMAP = 7
} mh_chip_vic2_mode;

/* One sprite, decoded. */
typedef struct mh_chip_vic2_sprite {
    uint16_t x;                /* 9-bit X ($D000+2n and bit n of $D010) */
    uint8_t y;                 /* $D001+2n */
    uint8_t enabled;           /* $D015 bit n */
    uint8_t expand_x;          /* $D01D */
    uint8_t expand_y;          /* $D017 */
    uint8_t multicolor;        /* $D01C */
    uint8_t behind_background; /* $D01B: foreground graphics cover it */
    uint8_t color;             /* $D027+n, 0-15 */
    uint8_t pointer;           /* the sprite pointer byte (screen + $3F8 + n) */
    uint16_t data_vic_address; /* pointer * 64, inside the VIC bank */
    uint16_t data_address;     /* CPU address of its 63 bytes (bank base + the above) */
    uint8_t collided_sprite;   /* bit n of $D01E (as latched, not cleared) */
    uint8_t collided_background; /* bit n of $D01F */
    uint8_t dma;               /* the chip is fetching its data on this line */
    uint8_t displayed;         /* it is being displayed on this line */
} mh_chip_vic2_sprite;

/* The whole chip, decoded. */
typedef struct mh_chip_vic2_view {
    uint32_t struct_size;      /* set by the caller: sizeof(mh_chip_vic2_view) */
    const char *model;         /* "6569", "8565", "6567R8", "8562", "6567R56A" */
    const char *standard;      /* "PAL" or "NTSC" */
    uint16_t cycles_per_line;
    uint16_t lines_per_frame;
    uint8_t regs[64];          /* what CPU reads of $D000-$D03F return (peek) */

    /* $D011 / $D016: mode and scroll. */
    uint8_t mode;              /* mh_chip_vic2_mode */
    uint8_t ecm, bmm, mcm;
    uint8_t den;               /* display enable */
    uint8_t rsel;              /* 1: 25 rows, 0: 24 */
    uint8_t csel;              /* 1: 40 columns, 0: 38 */
    uint8_t xscroll, yscroll;  /* 0-7 */
    uint8_t res;               /* $D016 bit 5 (no effect on a 6569) */

    /* Memory: $D018 and the bank (from the machine, e.g. CIA2 PA on a C64). */
    uint8_t bank;              /* 0-3 */
    uint16_t bank_base;        /* CPU address of the bank: bank * $4000 */
    uint16_t screen_address;   /* CPU address of the video matrix (1000 bytes) */
    uint16_t charset_address;  /* CPU address of the character set (2 KiB) */
    uint16_t bitmap_address;   /* CPU address of the bitmap (8000 bytes) */
    uint16_t sprite_pointers;  /* screen_address + $3F8 */
    uint8_t charset_in_rom;    /* the VIC sees the character ROM there */
    uint8_t bitmap_in_rom;     /* its second half ($1000-$1F3F) is that ROM */

    /* Beam and raster interrupt. */
    uint16_t raster_line;      /* line the beam is on */
    uint16_t raster_cycle;     /* cycle within the line, 1-based */
    uint16_t raster_compare;   /* the IRQ line ($D011 bit 7 + $D012 as written) */
    uint8_t irq_flags;         /* $D019 as read (bit 7: an enabled source is set) */
    uint8_t irq_mask;          /* $D01A bits 0-3 */
    uint8_t irq;               /* 1: the chip pulls /IRQ low now */
    uint8_t bad_line;          /* a bad line condition in this cycle */
    uint8_t display_state;     /* 1: display state, 0: idle state */
    uint8_t vertical_border;   /* the vertical border flip flop is set */
    uint64_t frame;            /* frames started since reset */

    /* Colours (0-15) and latches. */
    uint8_t border_color;      /* $D020 */
    uint8_t background[4];     /* $D021-$D024 */
    uint8_t sprite_multicolor[2]; /* $D025, $D026 */
    uint8_t sprite_sprite_collisions;     /* $D01E (peeked, not cleared) */
    uint8_t sprite_background_collisions; /* $D01F */
    uint8_t lightpen_x, lightpen_y;       /* $D013, $D014 */

    mh_chip_vic2_sprite sprites[8];
} mh_chip_vic2_view;

typedef struct mh_chip_vic2_iface {
    uint32_t struct_size;
    /* The machine's own chip state (for the machine's tests; its layout
     * is the machine's business: toolsets use view()). */
    void *(*state)(void *context);
    /* What a CPU read of register reg (address & $3F) returns, without the
     * read's side effects. */
    uint8_t (*peek)(void *context, uint16_t reg);
    /* A CPU write of register reg with the chip's effects. */
    void (*write)(void *context, uint16_t reg, uint8_t value);
    /* Fills *out (out->struct_size set by the caller). MH_ERR_INVALID_ARGUMENT
     * for NULL or a struct_size below the first version's. */
    mh_status (*view)(void *context, mh_chip_vic2_view *out);
    /* What the VIC-II reads at 14-bit addresses vic_address.. of its current
     * bank (wrapping at $3FFF), without side effects. */
    void (*vic_read)(void *context, uint16_t vic_address, uint8_t *out, size_t length);
    /* Colour RAM nybbles from offset (0-1023; wraps), values 0-15. */
    void (*color_read)(void *context, uint16_t offset, uint8_t *out, size_t length);
    /* Border and background colour of each raster line of the last complete
     * frame, as they were in the last cycle of that line; fills up to max
     * entries of both arrays (line 0 first) and returns how many lines the
     * frame has (0: no complete frame yet). */
    size_t (*line_colors)(void *context, uint8_t *border, uint8_t *background, size_t max);
    /* The beam now: raster line and cycle within it (1-based). Cheap enough
     * for a breakpoint check at every instruction. */
    void (*beam)(void *context, uint16_t *line, uint16_t *cycle);
    /* Appended in ABI 1.3 (check MH_CHIP_IFACE_HAS first): where the
     * registers sit in the CPU's map. */
    void (*io_range)(void *context, mh_chip_io_range *out);
} mh_chip_vic2_iface;

#ifdef __cplusplus
}
#endif
#endif
