/* ted.h - the MOS 7360/8360 TED (Text Editing Device) of the Plus/4 and
 * C16: video, three timers, two sound voices, the keyboard latch, the
 * ROM/RAM switch and the CPU clock in one chip (docs/ted.md).
 *
 * Clock: the chip runs in ticks of the double clock (1.773 MHz PAL,
 * 1.790 MHz NTSC); a raster line is TED_TICKS_PER_LINE ticks, 4 pixels a
 * tick. ted_tick() runs one tick. The machine asks ted_cpu_ticks() before
 * every CPU cycle how many ticks that cycle takes: 2 (single clock) while
 * the TED fetches display data, refreshes DRAM, stops the CPU for DMA or
 * $FF13 bit 1 forces it, else 1 (double clock).
 *
 * Video is drawn a line at a time at the end of the line's display part,
 * from the registers as they are then; a write to a register that changes
 * the picture first draws the line up to the beam, so colour and mode
 * changes take effect mid-line (to 4 pixels). The framebuffer holds
 * palette indices (luminance << 4 | hue, ted_palette()).
 *
 * Ownership: the machine owns the struct (no allocation); the fetch
 * callback and framebuffer are borrowed. The struct holds no pointers
 * except `fetch`, `page`, `user` and `fb`, which ted_restore() keeps.
 * Threads: [emu-thread]. No global mutable state.
 */
#ifndef MH_PLUS4_TED_H
#define MH_PLUS4_TED_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/machine_events.h"

#define TED_TICKS_PER_LINE 114u
#define TED_LINES_PAL 312u
#define TED_LINES_NTSC 262u
#define TED_CLOCK_PAL 1773447u  /* 17.734475 MHz / 10 */
#define TED_CLOCK_NTSC 1789772u /* 14.318181 MHz / 8 */
/* $FF07 bit 6 picks the divider on a running machine: the crystal / 10 in
 * PAL mode, / 8 in NTSC mode, so a PAL machine in NTSC mode ticks at
 * 2216809 Hz and an NTSC machine in PAL mode at 1431818 Hz. */
#define TED_CRYSTAL_PAL 17734475u
#define TED_CRYSTAL_NTSC 14318181u
#define TED_COUNTER_LINES 512u /* the vertical counter has 9 bits */

/* Framebuffer: 384 pixels (32 of border each side of the 320), PAL 288
 * lines, NTSC 240 (VICE's visible area). */
#define TED_FB_WIDTH 384u
#define TED_FB_HEIGHT_PAL 288u
#define TED_FB_HEIGHT_NTSC 240u
#define TED_FB_MAX_HEIGHT 288u

/* Horizontal layout of a line in ticks; tick 0 is where the vertical
 * counter steps (dot 387 of the 456-dot counter, $FF1E $C1). From the
 * TED's event table (Commodore's 264 series technical notes, as Tibor
 * Biczo posted it in 1998; the FPGATED re-implementation's windows) and
 * VICE's xplus4: on display lines the CPU runs single clock from dot 400
 * (the external fetch window) through the DRAM refresh to dot 336, ticks
 * 4-101; the refresh alone (5 single cycles, every line) is ticks 92-101;
 * a DMA line stops the CPU (RDY) for 43 single cycles from tick 4; the
 * rest of the line (ticks 102-113 and 0-3) is double clock. These give
 * the cycles per line Marko Makela measured (109 blank, 65 display, 22
 * DMA at double clock; 57 and 14 at single). */
#define TED_X_DISPLAY 16u    /* first tick of the 320-pixel display (dot 451) */
#define TED_X_BORDER_L 8u    /* first visible tick (left border) */
#define TED_X_RENDER 104u    /* the line is drawn here (after the right border) */
#define TED_X_FETCH_START 4u /* display lines run single clock from here ... */
#define TED_X_DMA_START 4u   /* DMA lines stop the CPU from here (86 ticks, 43 single cycles) ... */
#define TED_X_DMA_END 90u    /* ... to here */
#define TED_X_FETCH_END 92u  /* ... to here, where the refresh goes on single clock ... */
#define TED_X_REFRESH 92u    /* 5 DRAM refresh cycles (10 ticks), every line ... */
#define TED_X_REFRESH_END 102u /* ... to here */
#define TED_X_CHAR_LOAD 11u  /* the line takes its character position from $FF1A/$FF1B (dot 432) */
#define TED_X_CHAR_POS 92u   /* a row's last line latches that + 40 into $FF1A/$FF1B ($FF1E $94) */
#define TED_LAST_DMA_LINE 204u /* display fetches happen on lines below this */
#define TED_DOTS_PER_LINE 456u
#define TED_DOT_AT_X0 387u   /* $FF1E * 2 at tick 0: the display (tick 16) starts at dot 451 */

#define TED_AUDIO_RATE 44100u
#define TED_AUDIO_RING 16384u /* samples (power of two) */

/* IRQ sources ($FF09/$FF0A bits). */
#define TED_IRQ_RASTER 0x02u
#define TED_IRQ_LIGHTPEN 0x04u
#define TED_IRQ_T1 0x08u
#define TED_IRQ_T2 0x10u
#define TED_IRQ_T3 0x40u
#define TED_IRQ_SOURCES 0x5Eu

/* Reads a byte the TED fetches: rom 1 fetches from the ROM banked at that
 * address ($FF12 bit 2 for character data), else RAM. */
typedef uint8_t (*ted_fetch_fn)(void *user, uint16_t address, int rom);
/* The 256 bytes of the page holding address, as the TED fetches them (the
 * same choice of ROM or RAM); valid until the banking changes. */
typedef const uint8_t *(*ted_page_fn)(void *user, uint16_t address, int rom);

typedef struct ted {
    /* Links (kept by ted_restore). */
    ted_fetch_fn fetch;
    ted_page_fn page;
    void *user;
    uint8_t *fb;
    const mh_event_sink *events; /* chip events (machine_events.h); NULL: none */

    /* Model: ntsc, tv_lines, fb_* follow the crystal (the video standard
     * the screen shows); lines and clock_hz follow $FF07 bit 6. */
    uint8_t ntsc;
    uint16_t tv_lines;      /* lines of the crystal's standard */
    uint16_t lines;         /* per frame in the mode $FF07 bit 6 selects */
    uint16_t fb_first_line; /* raster line of framebuffer row 0 */
    uint16_t fb_height;
    uint32_t clock_hz;      /* ticks per second now */

    uint8_t regs[64];       /* as written */
    uint64_t ticks;         /* since reset */
    uint64_t frame;         /* frames started since reset */
    uint16_t line, x;       /* beam: raster line, tick in the line */
    uint16_t drawn_px;      /* pixels of this line already drawn (0-384) */
    /* The per-cycle path's cache (ted_region): until the beam reaches
     * x_event, a CPU cycle takes cycle_ticks ticks and dma_now says whether
     * the TED stops the CPU; next_event is the tick of the next timer
     * underflow or sound sample. */
    uint16_t x_event;
    uint8_t cycle_ticks;
    uint8_t dma_now;
    uint64_t next_event;
    /* The tick at which ted_event() must run: the earlier of the beam
     * reaching x_event and next_event (ted_reschedule), so the per-cycle
     * path compares once. */
    uint64_t event_tick;

    /* Timers, counted lazily: a running timer held timer_base at tick
     * timer_base_tick and has stepped every second tick since, the first
     * a tick after it (ted.c: steps_since); the
     * next underflow of any running timer is at tick timer_event. */
    uint16_t timer_base[3];
    uint64_t timer_base_tick[3];
    uint64_t timer_event;   /* UINT64_MAX: no timer runs */
    uint16_t reload[3];
    uint8_t timer_run[3];
    uint32_t underflows[3];
    uint8_t irq_flags;      /* bits 1-6 latched */
    uint8_t irq;            /* the output: an enabled source is set */

    /* Video state. */
    uint8_t bad_line;       /* this line fetches character codes */
    uint8_t attr_line;      /* this line fetches attributes */
    uint8_t display_frame;  /* display was enabled at line 0 (fetches on) */
    uint16_t vc_base;       /* character position of this line (bitmap, cursor) */
    uint16_t char_pos;      /* $FF1A/$FF1B: the character position counter */
    uint8_t frozen;         /* $FF07 bit 5: the beam stands, single clock */
    uint16_t held_x;        /* the beam's tick while frozen */
    uint8_t frame_seen;     /* a frame was reported since the counter wrapped */
    uint8_t rc;             /* row counter 0-7 ($FF1F bits 0-2) */
    uint8_t row_active;     /* rows run: from the frame's first attribute line to line 204 */
    uint8_t codes[40], attrs[40];   /* on show: codes fetched on this line or before */
    uint8_t next_attrs[40]; /* fetched on an attribute line, shown from the next */
    uint16_t dma_pos;       /* where the DMA lines fetch (steps by 40 in row line 6) */
    uint8_t attrs_pending;  /* next_attrs take over at the next line */
    uint8_t flash_counter;  /* frames, 0-31: flash on in the second half */
    uint8_t keyboard_latch; /* $FF08 as latched */
    uint8_t rom_enabled;    /* 1 after a $FF3E write */

    /* Sound: per voice the 10-bit counter and its output level; the noise
     * shift register; the tick divider (voices step every 8 ticks). */
    uint16_t snd_count[2];
    uint8_t snd_out[2];
    uint8_t noise_lfsr;
    uint64_t snd_tick;      /* the voices are up to date to this tick */
    uint64_t sample_base;   /* tick of sample 0 of the stream */
    uint64_t sample_count;  /* samples taken since sample_base */
    uint64_t sample_event;  /* tick of the next sample; UINT64_MAX: sound off */
    int16_t ring[TED_AUDIO_RING];
    uint32_t ring_head, ring_count;
    uint8_t sound_on;       /* synthesis enabled */
} ted;

void ted_init(ted *t, int ntsc, ted_fetch_fn fetch, ted_page_fn page, void *user, uint8_t *fb,
              int sound);
/* Reset: registers cleared, beam at line 0, ROM enabled, timers stopped. */
void ted_reset(ted *t);
/* Copies a saved state, keeping this instance's links. */
void ted_restore(ted *t, const ted *saved);

/* The slow path of ted_advance(): line events, the cycle type's region,
 * timer underflows and sound samples (ted.c). */
int ted_event(ted *t);

/* Runs n (1 or 2) ticks at once (events land within the CPU cycle);
 * returns 1 when a frame ended (the framebuffer is complete). */
static inline int ted_advance(ted *t, unsigned n)
{
    t->ticks += n;
    t->x = (uint16_t)(t->x + n);
    if (t->ticks < t->event_tick) return 0;
    return ted_event(t);
}
/* Recomputes event_tick after x_event, x or next_event changed. */
static inline void ted_reschedule(ted *t)
{
    if (t->frozen) { /* every cycle: the beam is held in ted_event() */
        t->event_tick = t->ticks + 1u;
        return;
    }
    const uint64_t region_end = t->ticks + (uint64_t)(t->x_event - t->x);
    t->event_tick = region_end < t->next_event ? region_end : t->next_event;
}
static inline int ted_tick(ted *t) { return ted_advance(t, 1); }
/* How many ticks the CPU's next cycle takes (1 or 2). */
static inline unsigned ted_cpu_ticks(const ted *t)
{
    if ((t->regs[0x13] & 0x02u) || t->frozen) return 2;
    if (t->x >= TED_X_REFRESH && t->x < TED_X_REFRESH_END) return 2;
    if (t->display_frame && t->line < TED_LAST_DMA_LINE && t->x >= TED_X_FETCH_START &&
        t->x < TED_X_FETCH_END)
        return 2;
    return 1;
}
/* 1 while the TED stops the CPU for a DMA line (RDY low). */
static inline int ted_dma(const ted *t)
{
    return (t->bad_line || t->attr_line) && !t->frozen && t->x >= TED_X_DMA_START &&
           t->x < TED_X_DMA_END;
}

/* Register access, reg = address & $3F. peek has no side effects. */
uint8_t ted_peek(const ted *t, uint8_t reg);
uint8_t ted_read(ted *t, uint8_t reg);
/* keyboard: the rows (bit = 0: key down) of the columns the $FD30 port
 * selects, ANDed with the selected joysticks; used by a $FF08 write. */
void ted_write(ted *t, uint8_t reg, uint8_t value, uint8_t keyboard);

/* Decoded helpers. */
uint16_t ted_screen_address(const ted *t);    /* video matrix (codes) */
uint16_t ted_attribute_address(const ted *t); /* attributes */
uint16_t ted_charset_address(const ted *t);
uint16_t ted_bitmap_address(const ted *t);
unsigned ted_mode(const ted *t);              /* ECM << 2 | BMM << 1 | MCM */
uint16_t ted_raster_compare(const ted *t);
uint16_t ted_timer_value(const ted *t, unsigned n); /* the counter now */
uint8_t ted_raster_column(const ted *t);            /* $FF1E: the dot counter / 2 */
double ted_voice_hz(const ted *t, int voice);
uint16_t ted_voice_freq(const ted *t, int voice);
int ted_flash_on(const ted *t);

/* The 128-entry palette (0xRRGGBB by luminance << 4 | hue; hue 0 is black
 * whatever the luminance: 121 colours). */
const uint32_t *ted_palette(void);

/* Audio: makes the samples due up to now (the machine calls it between
 * run chunks), takes up to max samples (TED_AUDIO_RATE, mono). */
void ted_sound_flush(ted *t);
size_t ted_audio_read(ted *t, int16_t *out, size_t max);

#endif
