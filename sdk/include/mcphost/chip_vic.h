/* mcphost/chip_vic.h - the VIC chip interface, "mh.chip.vic/1", that a
 * machine with a MOS 6560 (NTSC) / 6561 (PAL) Video Interface Chip
 * registers (a VIC-20: instance "vic", registers at $9000), and that the
 * VIC toolset (plugins/tools-vic) works against.
 *
 * Offers:
 *   - mh_chip_vic_view: every register decoded into a plain struct filled
 *     by the machine: the screen, colour and character addresses (as the
 *     CPU sees them and as the VIC's own 14-bit addresses), columns, rows,
 *     character height, screen origin, interlace, raster line, light pen,
 *     paddles, colours and the reverse mode bit, the four sound voices
 *     (register value, on/off, frequency in Hz) and the volume;
 *   - side-effect-free register reads (peek) and register writes with the
 *     chip's effects (write), register = address & $0F;
 *   - what the VIC sees at its 14-bit addresses (vic_read: RAM, character
 *     ROM, open bus) and the colour RAM nybbles (color_read);
 *   - the beam position (beam), cheap enough for breakpoint checks.
 * A toolset needs nothing but this header (and mcphost/machine.h's
 * "mh.video/1" / "mh.audio/1" for the picture and the sound).
 *
 * The VIC's address space: 14 bits, VIC address $0000-$1FFF is CPU
 * $8000-$9FFF (character ROM, I/O, colour RAM), VIC $2000-$3FFF is CPU
 * $0000-$1FFF (RAM). cpu = (vic & $2000) ? vic - $2000 : vic + $8000.
 *
 * Versioning: the vtable starts with struct_size and only grows at the end;
 * check a field appended later with MH_CHIP_IFACE_HAS (chip_io.h). The view
 * carries struct_size (set by the caller; the machine fills what fits).
 *
 * Ownership: vtable and context belong to the machine instance and live
 * until its destroy(). Strings in a view are static. Output buffers belong
 * to the caller.
 * Threads: every function is [emu-thread]: call it from a tool handler that
 * runs on the session's thread (a tool with `requires`), or from a
 * breakpoint check callback.
 */
#ifndef MCPHOST_CHIP_VIC_H
#define MCPHOST_CHIP_VIC_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/chip_io.h"
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_CHIP_VIC_IFACE "mh.chip.vic/1"

/* Most raster lines of any model (6561 PAL: 312). */
#define MH_CHIP_VIC_MAX_LINES 312

/* Voice numbers: three square wave voices and the noise voice. */
enum {
    MH_CHIP_VIC_VOICE_BASS = 0,    /* $900A */
    MH_CHIP_VIC_VOICE_ALTO = 1,    /* $900B */
    MH_CHIP_VIC_VOICE_SOPRANO = 2, /* $900C */
    MH_CHIP_VIC_VOICE_NOISE = 3    /* $900D */
};

typedef struct mh_chip_vic_voice {
    uint8_t reg;          /* the register as written */
    uint8_t on;           /* bit 7 */
    uint8_t value;        /* bits 0-6 */
    uint8_t reserved;
    double frequency_hz;  /* the output frequency for the model's clock (square
                           * voices: the tone; noise: the shift clock); 0 when off */
} mh_chip_vic_voice;

/* The whole chip, decoded. */
typedef struct mh_chip_vic_view {
    uint32_t struct_size;       /* set by the caller: sizeof(mh_chip_vic_view) */
    const char *model;          /* "6561" (PAL) or "6560" (NTSC) */
    const char *standard;       /* "PAL" or "NTSC" */
    uint32_t clock_hz;          /* CPU clock: 1108405 (PAL) / 1022727 (NTSC) */
    uint16_t cycles_per_line;   /* 71 / 65 */
    uint16_t lines_per_frame;   /* 312 / 261 (non-interlaced) */
    uint8_t regs[16];           /* what CPU reads of $9000-$900F return (peek) */

    /* Memory ($9002 bit 7, $9005). */
    uint16_t screen_address;    /* CPU address of the video matrix */
    uint16_t screen_vic_address;/* the same as the VIC's 14-bit address */
    uint16_t color_address;     /* CPU address of the colour RAM used ($9400 / $9600) */
    uint16_t charset_address;   /* CPU address of the character generator */
    uint16_t charset_vic_address;
    uint8_t charset_in_rom;     /* the character generator is (partly) the ROM */

    /* Geometry. */
    uint8_t columns;            /* $9002 bits 0-6 */
    uint8_t rows;               /* $9003 bits 1-6 */
    uint8_t char_height;        /* 8 or 16 ($9003 bit 0) */
    uint8_t interlace;          /* $9000 bit 7 */
    uint8_t origin_x;           /* $9000 bits 0-6 (units of 4 pixels) */
    uint8_t origin_y;           /* $9001 (units of 2 lines) */

    /* Beam and light pen. */
    uint16_t raster_line;       /* line the beam is on ($9003 bit 7 + $9004 << 1) */
    uint16_t raster_cycle;      /* cycle within the line, 0-based */
    uint64_t frame;             /* frames started since reset */
    uint8_t lightpen_x, lightpen_y; /* $9006, $9007 */
    uint8_t paddle_x, paddle_y;     /* $9008, $9009 */

    /* Colours (0-15; border and background 0-7 / 0-15). */
    uint8_t border_color;       /* $900F bits 0-2 */
    uint8_t background_color;   /* $900F bits 4-7 */
    uint8_t auxiliary_color;    /* $900E bits 4-7 */
    uint8_t reverse;            /* 1: inverse mode ($900F bit 3 clear) */

    /* Sound. */
    mh_chip_vic_voice voices[4];
    uint8_t volume;             /* $900E bits 0-3 */
    uint8_t reserved[3];
} mh_chip_vic_view;

typedef struct mh_chip_vic_iface {
    uint32_t struct_size;
    /* The machine's own chip state (for the machine's tests; its layout
     * is the machine's business: toolsets use view()). */
    void *(*state)(void *context);
    /* What a CPU read of register reg (address & $0F) returns, without the
     * read's side effects. */
    uint8_t (*peek)(void *context, uint16_t reg);
    /* A CPU write of register reg with the chip's effects. */
    void (*write)(void *context, uint16_t reg, uint8_t value);
    /* Fills *out (out->struct_size set by the caller). MH_ERR_INVALID_ARGUMENT
     * for NULL or a struct_size below the first version's. */
    mh_status (*view)(void *context, mh_chip_vic_view *out);
    /* What the VIC reads at 14-bit addresses vic_address.. (wrapping at
     * $3FFF): RAM, character ROM, open bus where nothing is mapped; the
     * low 8 bits of its data bus, without side effects. */
    void (*vic_read)(void *context, uint16_t vic_address, uint8_t *out, size_t length);
    /* Colour RAM nybbles from offset (0-1023; wraps), values 0-15. */
    void (*color_read)(void *context, uint16_t offset, uint8_t *out, size_t length);
    /* The beam now: raster line and cycle within it (0-based). Cheap enough
     * for a breakpoint check at every instruction. */
    void (*beam)(void *context, uint16_t *line, uint16_t *cycle);
    /* Where the registers sit in the CPU's map ($9000, 16 bytes, mirrored
     * through $90FF). */
    void (*io_range)(void *context, mh_chip_io_range *out);
} mh_chip_vic_iface;

#ifdef __cplusplus
}
#endif
#endif
