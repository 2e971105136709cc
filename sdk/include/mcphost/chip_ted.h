/* mcphost/chip_ted.h - the TED chip interface, "mh.chip.ted/1", that a
 * machine with a MOS 7360/8360 Text Editing Device registers (a Commodore
 * Plus/4 or C16: instance "ted" at $FF00), and that the TED toolset
 * (plugins/tools-ted) works against.
 *
 * The TED is video, sound, three timers, the keyboard latch, the memory
 * (ROM/RAM) switch and the clock generator of its machine in one chip.
 *
 * Offers:
 *   - mh_chip_ted_view: every register decoded into a plain struct filled
 *     by the machine: the display mode and its addresses (screen,
 *     attribute/colour, character set, bitmap), the window and scroll, the
 *     colours (register value, hue, luminance and RGB of the 121-colour
 *     palette), the hardware cursor, the three timers, the two sound
 *     voices, the beam with the raster compare and IRQ state, the CPU
 *     clock (single/double) and the ROM/RAM state;
 *   - side-effect-free register reads (peek) and register writes with the
 *     chip's effects (write), register = address & $3F ($FF00-$FF3F);
 *   - the keyboard matrix the machine scans through the $FD30 port and the
 *     $FF08 latch, with key names;
 *   - the beam position (beam), cheap enough for breakpoint checks.
 * A toolset needs nothing but this header (and mcphost/machine.h's
 * "mh.video/1" / "mh.audio/1" for the picture and the sound).
 *
 * Versioning: the vtable starts with struct_size and only grows at the end;
 * check struct_size before using a field added later (MH_CHIP_IFACE_HAS).
 * The view struct also carries struct_size (set by the caller to sizeof;
 * the machine fills what fits).
 *
 * Ownership: vtable and context belong to the machine instance and live
 * until its destroy(). Strings in a view are static. Output buffers belong
 * to the caller.
 * Threads: every function is [emu-thread]: call it from a tool handler that
 * runs on the session's thread (a tool with `requires`), or from a
 * breakpoint check callback.
 */
#ifndef MCPHOST_CHIP_TED_H
#define MCPHOST_CHIP_TED_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/chip_io.h"
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_CHIP_TED_IFACE "mh.chip.ted/1"

/* Most raster lines of any model (PAL: 312; NTSC: 262). */
#define MH_CHIP_TED_MAX_LINES 312

/* Display modes: ECM ($FF06 bit 6) << 2 | BMM ($FF06 bit 5) << 1 |
 * MCM ($FF07 bit 4), as on the VIC-II. */
typedef enum mh_chip_ted_mode {
    MH_CHIP_TED_MODE_TEXT = 0,           /* standard character mode */
    MH_CHIP_TED_MODE_MC_TEXT = 1,        /* multicolour character mode */
    MH_CHIP_TED_MODE_BITMAP = 2,         /* hires bitmap */
    MH_CHIP_TED_MODE_MC_BITMAP = 3,      /* multicolour bitmap */
    MH_CHIP_TED_MODE_ECM_TEXT = 4,       /* extended background colour text */
    MH_CHIP_TED_MODE_INVALID_TEXT = 5,   /* ECM + MCM: black */
    MH_CHIP_TED_MODE_INVALID_BITMAP = 6, /* ECM + BMM: black */
    MH_CHIP_TED_MODE_INVALID_MC_BITMAP = 7
} mh_chip_ted_mode;

/* One colour register decoded: bits 0-3 hue, bits 4-6 luminance. */
typedef struct mh_chip_ted_color {
    uint8_t value;        /* the register's colour bits (0-$7F) */
    uint8_t hue;          /* 0-15 (0: black whatever the luminance) */
    uint8_t luminance;    /* 0-7 */
    uint8_t reserved;
    uint32_t rgb;         /* 0xRRGGBB from the machine's 121-colour palette */
} mh_chip_ted_color;

/* One of the three 16-bit down counters ($FF00-$FF05). Timer 1 reloads
 * from its reload value at underflow; timers 2 and 3 run on from $FFFF. */
typedef struct mh_chip_ted_timer {
    uint16_t counter;     /* current count (as a read of the pair returns) */
    uint16_t reload;      /* timer 1: the reload value; 2, 3: the value last
                           * written (where counting restarted) */
    uint8_t running;      /* a write of the low byte stops it, of the high
                           * byte starts it */
    uint8_t reserved[3];
    uint32_t underflows;  /* since reset */
} mh_chip_ted_timer;

/* One sound voice ($FF0E-$FF12). */
typedef struct mh_chip_ted_voice {
    uint16_t frequency;   /* the 10-bit frequency register */
    uint8_t on;           /* $FF11 bit 4 (voice 1) / bit 5 (voice 2 square) */
    uint8_t noise;        /* voice 2 only: $FF11 bit 6, white noise */
    double hz;            /* output frequency of the square wave (0 when the
                           * register gives none), from the machine's clock */
} mh_chip_ted_voice;

/* The whole chip, decoded. */
typedef struct mh_chip_ted_view {
    uint32_t struct_size;      /* set by the caller: sizeof(mh_chip_ted_view) */
    const char *model;         /* "7360" (PAL) or "8360" (NTSC) */
    const char *standard;      /* "PAL" or "NTSC" */
    uint16_t cycles_per_line;  /* double-clock ticks (1.77/1.79 MHz) per raster line: 114 */
    uint16_t lines_per_frame;  /* 312 PAL, 262 NTSC */
    uint8_t regs[64];          /* what CPU reads of $FF00-$FF3F return (peek) */

    /* $FF06 / $FF07: mode, window and scroll. */
    uint8_t mode;              /* mh_chip_ted_mode */
    uint8_t ecm, bmm, mcm;
    uint8_t blank;             /* $FF06 bit 4 clear: the screen is blanked */
    uint8_t rows25;            /* $FF06 bit 3: 1: 25 rows, 0: 24 */
    uint8_t columns40;         /* $FF07 bit 3: 1: 40 columns, 0: 38 */
    uint8_t xscroll, yscroll;  /* 0-7 */
    uint8_t reverse_off;       /* $FF07 bit 7: 1: 256 characters, no
                                * hardware reverse; 0: 128 characters, bit 7
                                * of the code shows them reversed */
    uint8_t ntsc_bit;          /* $FF07 bit 6 */
    uint8_t frozen;            /* $FF07 bit 5: TED counters stopped */

    /* Memory ($FF12-$FF14): CPU addresses the TED fetches from. */
    uint16_t screen_address;   /* video matrix (character codes, 1000 bytes):
                                * the $FF14 base + $400 */
    uint16_t attribute_address;/* colour/attribute bytes: the $FF14 base */
    uint16_t charset_address;  /* character set ($FF13 bits 2-7) */
    uint16_t bitmap_address;   /* bitmap ($FF12 bits 3-5, 8 KiB steps) */
    uint8_t charset_in_rom;    /* $FF12 bit 2: fetches read ROM, not RAM */

    /* Colours: $FF15-$FF18 background 0-3, $FF19 border. */
    mh_chip_ted_color background[4];
    mh_chip_ted_color border;

    /* Hardware cursor ($FF0C/$FF0D) and flashing. */
    uint16_t cursor_position;  /* 10-bit offset into the video matrix */
    uint8_t cursor_visible;    /* the position is inside the 1000 cells */
    uint8_t flash_on;          /* the flash phase now (cursor and
                                * attribute bit 7 characters shown) */
    uint8_t flash_counter;     /* frames into the flash period */

    /* Timers. */
    mh_chip_ted_timer timers[3];

    /* Sound ($FF0E-$FF12). */
    mh_chip_ted_voice voices[2];
    uint8_t volume;            /* $FF11 bits 0-3 (values above 8 act as 8) */
    uint8_t da_mode;           /* $FF11 bit 7: the voices output a constant
                                * level (D/A) */

    /* Beam and raster interrupt. */
    uint16_t raster_line;      /* $FF1C/$FF1D: line the beam is on */
    uint16_t raster_column;    /* $FF1E: horizontal position (as read) */
    uint16_t raster_compare;   /* $FF0A bit 0 + $FF0B as written */
    uint8_t irq_flags;         /* $FF09 as read (bit 7: an enabled source is set) */
    uint8_t irq_mask;          /* $FF0A bits 1-6: raster, lightpen, timers */
    uint8_t irq;               /* 1: the chip pulls /IRQ low now */
    uint8_t bad_line;          /* a DMA (bad) line: the TED stops the CPU */
    uint64_t frame;            /* frames started since reset */

    /* Clock. */
    uint8_t single_clock_forced; /* $FF13 bit 1: the CPU always runs single */
    uint8_t double_clock_now;  /* the CPU's current cycle is a fast one */
    uint32_t cpu_hz_single;    /* single-clock CPU rate (~886 kHz PAL) */

    /* Memory switch: a write to $FF3E maps ROM at $8000-$FFFF, $FF3F RAM. */
    uint8_t rom_enabled;       /* 1: ROM is mapped (the last write was $FF3E) */
} mh_chip_ted_view;

typedef struct mh_chip_ted_iface {
    uint32_t struct_size;
    /* The machine's own chip state (for the machine's tests; its layout
     * is the machine's business: toolsets use view()). */
    void *(*state)(void *context);
    /* What a CPU read of register reg (address & $3F) returns, without the
     * read's side effects. */
    uint8_t (*peek)(void *context, uint16_t reg);
    /* A CPU write of register reg with the chip's effects ($FF3E/$FF3F
     * switch ROM/RAM). */
    void (*write)(void *context, uint16_t reg, uint8_t value);
    /* Fills *out (out->struct_size set by the caller). MH_ERR_INVALID_ARGUMENT
     * for NULL or a struct_size below the first version's. */
    mh_status (*view)(void *context, mh_chip_ted_view *out);
    /* The keyboard matrix: held[column] has bit row set for each key held
     * down, column = the $FD30 port line written low, row = the $FF08 latch
     * bit read low. */
    mh_status (*keyboard)(void *context, uint8_t held[8]);
    /* The name of the key at column/row ("A", "RETURN", "SHIFT_LEFT"; the
     * names mh.input/1 takes), or NULL when there is none. */
    const char *(*key_name)(void *context, unsigned column, unsigned row);
    /* The beam now: raster line and horizontal position. Cheap enough for
     * a breakpoint check at every instruction. */
    void (*beam)(void *context, uint16_t *line, uint16_t *column);
    /* Where the registers sit in the CPU's map ($FF00, 64 bytes). */
    void (*io_range)(void *context, mh_chip_io_range *out);
} mh_chip_ted_iface;

#ifdef __cplusplus
}
#endif
#endif
