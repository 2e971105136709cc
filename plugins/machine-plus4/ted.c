/* ted.c - the TED's registers, beam, timers, interrupts and DMA lines
 * (ted.h). Video lines are drawn by ted_video.c, sound by ted_sound.c.
 *
 * Registers ($FF00 + reg):
 *   00-05  timers 1-3, low/high: a low-byte write stops the timer, a
 *          high-byte write starts it; timer 1 loads its reload value,
 *          timers 2 and 3 count on from the value written. They count at
 *          the single clock (every second tick); an underflow sets the IRQ
 *          flag (bit 3, 4, 6); timer 1 reloads, 2 and 3 go on from $FFFF.
 *   06     test, ECM, BMM, display enable, 25 rows, y scroll
 *   07     reverse off (256 chars), NTSC, freeze, MCM, 40 columns, x scroll
 *   08     keyboard latch: a write latches the keyboard rows of the columns
 *          the $FD30 port selects (and the joysticks the value selects)
 *   09     IRQ flags (write 1 to clear; bit 7: an enabled source is set)
 *   0A     IRQ mask (bits 1-6), raster compare bit 8 (bit 0)
 *   0B     raster compare bits 0-7
 *   0C/0D  cursor position
 *   0E/0F/10/12  voice frequencies; 11 sound control
 *   12     bitmap base (bits 3-5), character fetch from ROM (bit 2)
 *   13     character base (bits 2-7), single clock forced (bit 1), clock
 *          status (bit 0, read)
 *   14     video matrix base (bits 3-7)
 *   15-19  background 0-3, border colours
 *   1A/1B  character position reload; 1C/1D raster line; 1E horizontal
 *          position; 1F vertical sub-address and flash counter
 *   3E/3F  ROM / RAM select (writes)
 * Unused registers $20-$3D read $FF.
 */
#include <string.h>

#include "ted.h"
#include "ted_internal.h"

void ted_init(ted *t, int ntsc, ted_fetch_fn fetch, ted_page_fn page, void *user, uint8_t *fb,
              int sound)
{
    memset(t, 0, sizeof *t);
    t->fetch = fetch;
    t->page = page;
    t->user = user;
    t->fb = fb;
    t->ntsc = ntsc ? 1 : 0;
    t->tv_lines = ntsc ? TED_LINES_NTSC : TED_LINES_PAL;
    t->lines = t->tv_lines;
    t->fb_height = ntsc ? TED_FB_HEIGHT_NTSC : TED_FB_HEIGHT_PAL;
    /* The display's first line is 4; the picture starts 40 (PAL) / 20
     * (NTSC) lines above it, at the end of the previous frame. */
    t->fb_first_line = (uint16_t)(t->tv_lines - (ntsc ? 20u : 40u) + 4u);
    t->clock_hz = ntsc ? TED_CLOCK_NTSC : TED_CLOCK_PAL;
    t->sound_on = sound ? 1 : 0;
    ted_reset(t);
}

void ted_reset(ted *t)
{
    memset(t->regs, 0, sizeof t->regs);
    t->regs[0x07] = t->ntsc ? 0x40 : 0x00;
    t->lines = t->tv_lines;
    t->clock_hz = t->ntsc ? TED_CLOCK_NTSC : TED_CLOCK_PAL;
    t->char_pos = 0;
    t->frozen = 0;
    t->held_x = 0;
    t->frame_seen = 0;
    /* ticks go on (a soft reset does not stop the clock) */
    t->frame = 0;
    t->line = 0;
    t->x = 0;
    t->drawn_px = 0;
    memset(t->timer_base, 0, sizeof t->timer_base);
    memset(t->timer_base_tick, 0, sizeof t->timer_base_tick);
    t->timer_event = UINT64_MAX;
    memset(t->reload, 0, sizeof t->reload);
    memset(t->timer_run, 0, sizeof t->timer_run);
    memset(t->underflows, 0, sizeof t->underflows);
    t->irq_flags = 0;
    t->irq = 0;
    t->bad_line = t->attr_line = 0;
    t->display_frame = 0;
    t->vc_base = 0;
    t->dma_pos = 0;
    t->attrs_pending = 0;
    t->rc = 0;
    t->row_active = 0;
    t->flash_counter = 0;
    t->keyboard_latch = 0xFF;
    t->rom_enabled = 1;
    t->snd_count[0] = t->snd_count[1] = 0;
    t->snd_out[0] = t->snd_out[1] = 0;
    t->noise_lfsr = 0xFF;
    ted_sound_restart(t);
    t->next_event = t->timer_event;
    ted_region(t);
}

void ted_restore(ted *t, const ted *saved)
{
    ted_fetch_fn fetch = t->fetch;
    ted_page_fn page = t->page;
    void *user = t->user;
    uint8_t *fb = t->fb;
    const mh_event_sink *events = t->events;
    memcpy(t, saved, sizeof *t);
    t->events = events;
    t->fetch = fetch;
    t->page = page;
    t->user = user;
    t->fb = fb;
    ted_reschedule(t);
}

/* ---- decoded registers ---- */

uint16_t ted_attribute_address(const ted *t) { return (uint16_t)((t->regs[0x14] & 0xF8u) << 8); }
uint16_t ted_screen_address(const ted *t)
{
    return (uint16_t)(ted_attribute_address(t) + 0x400u);
}
uint16_t ted_charset_address(const ted *t)
{
    /* 256-character sets sit on 1 KiB steps; a 128-character set with
     * hardware reverse uses the same base (bit 2 is ignored in bitmap). */
    return (uint16_t)((t->regs[0x13] & 0xFCu) << 8);
}
uint16_t ted_bitmap_address(const ted *t) { return (uint16_t)((t->regs[0x12] & 0x38u) << 10); }
unsigned ted_mode(const ted *t)
{
    return ((t->regs[0x06] >> 4) & 0x06u) | ((t->regs[0x07] >> 4) & 0x01u);
}
uint16_t ted_raster_compare(const ted *t)
{
    return (uint16_t)(((t->regs[0x0A] & 1u) << 8) | t->regs[0x0B]);
}
int ted_flash_on(const ted *t) { return t->flash_counter >= 16; }

static void timers_schedule(ted *t);

/* ---- interrupts ---- */

static void update_irq(ted *t)
{
    t->irq = (t->irq_flags & t->regs[0x0A] & TED_IRQ_SOURCES) != 0;
}

/* Tells the machine's event sink (only called while one is set). */
static void note_event(const ted *t, uint8_t source)
{
    if (source == TED_IRQ_RASTER)
        mh_event_emit(t->events, MH_CHIP_EV_RASTER, "ted", ted_raster_compare(t));
    static const uint8_t timer_bits[3] = {TED_IRQ_T1, TED_IRQ_T2, TED_IRQ_T3};
    for (unsigned n = 0; n < 3; n++)
        if (source == timer_bits[n]) mh_event_emit(t->events, MH_CHIP_EV_TIMER, "ted", n);
    if (source & t->regs[0x0A] & TED_IRQ_SOURCES)
        mh_event_emit(t->events, MH_CHIP_EV_IRQ, "ted", source);
}

static void raise(ted *t, uint8_t source)
{
    t->irq_flags |= source;
    update_irq(t);
    if (mh_event_listening(t->events)) note_event(t, source);
}

/* ---- register reads and writes ---- */

/* Tick 0 of a line is dot TED_DOT_AT_X0 of the TED's 456-dot horizontal
 * counter ($FF1E reads it / 2): the 40-column display starts at dot 451,
 * tick TED_X_DISPLAY here. */
uint8_t ted_raster_column(const ted *t)
{
    return (uint8_t)(((t->x * 4u + TED_DOT_AT_X0) % TED_DOTS_PER_LINE) / 2u);
}

static uint8_t raster_column(const ted *t) { return ted_raster_column(t); }

uint8_t ted_peek(const ted *t, uint8_t reg)
{
    reg &= 0x3Fu;
    switch (reg) {
    case 0x00: case 0x02: case 0x04: return (uint8_t)ted_timer_value(t, reg >> 1u);
    case 0x01: case 0x03: case 0x05: return (uint8_t)(ted_timer_value(t, reg >> 1u) >> 8);
    case 0x06: return t->regs[0x06];
    case 0x07: return t->regs[0x07];
    case 0x08: return t->keyboard_latch;
    case 0x09:
        return (uint8_t)(t->irq_flags | 0x21u | (t->irq ? 0x80u : 0u));
    case 0x0A: return (uint8_t)(t->regs[0x0A] | 0xA0u);
    case 0x0B: return t->regs[0x0B];
    case 0x0C: return (uint8_t)(t->regs[0x0C] | 0xFCu);
    case 0x0D: return t->regs[0x0D];
    case 0x0E: case 0x0F: case 0x11: return t->regs[reg];
    case 0x10: return (uint8_t)(t->regs[0x10] | 0xFCu);
    case 0x12: return (uint8_t)(t->regs[0x12] | 0xC0u);
    case 0x13:
        return (uint8_t)((t->regs[0x13] & 0xFEu) | (ted_cpu_ticks(t) == 2 ? 1u : 0u));
    case 0x14: return (uint8_t)(t->regs[0x14] | 0x07u);
    case 0x15: case 0x16: case 0x17: case 0x18: case 0x19: return (uint8_t)(t->regs[reg] | 0x80u);
    case 0x1A: return (uint8_t)((t->char_pos >> 8) | 0xFCu);
    case 0x1B: return (uint8_t)t->char_pos;
    case 0x1C: return (uint8_t)((t->line >> 8) | 0xFEu);
    case 0x1D: return (uint8_t)t->line;
    case 0x1E: return raster_column(t);
    case 0x1F: return (uint8_t)(0x80u | ((t->flash_counter & 0x0Fu) << 3) | (t->rc & 7u));
    default: return 0xFF;
    }
}

uint8_t ted_read(ted *t, uint8_t reg) { return ted_peek(t, reg); }

/* Registers whose writes change the picture: the line is drawn up to the
 * beam first. */
static int changes_picture(uint8_t reg)
{
    return reg == 0x06 || reg == 0x07 || reg == 0x0C || reg == 0x0D ||
           (reg >= 0x12 && reg <= 0x19);
}

/* A $FF1E write loads the complement of the value's bits 2-7 into the dot
 * counter's bits 3-8 and keeps its bits 0-2 (FPGATED, a re-implementation
 * of the chip that runs the Plus/4's software); the beam goes on from
 * there. Dots 456-511 (the counter runs on to 511, then 0, without the line
 * step at 384) are taken as the same distance before dot 0. */
static uint16_t written_column(const ted *t, uint8_t value)
{
    const unsigned old_dot = (t->x * 4u + TED_DOT_AT_X0) % TED_DOTS_PER_LINE;
    unsigned dot = ((~value & 0xFCu) << 1) | (old_dot & 7u);
    if (dot >= TED_DOTS_PER_LINE) dot -= 512u - TED_DOTS_PER_LINE;
    return (uint16_t)(((dot + TED_DOTS_PER_LINE - TED_DOT_AT_X0) % TED_DOTS_PER_LINE) / 4u);
}

/* $FF07: bit 5 freezes the TED (its counters stop: the beam and the
 * timers; no picture and no DMA; the CPU at single clock; FPGATED gates the
 * timers with it too; the sound goes on); bit 6 switches the line
 * count and the clock divider (TED_CRYSTAL_*). */
static void write_mode(ted *t, uint8_t value)
{
    const uint8_t changed = (uint8_t)(t->regs[0x07] ^ value);
    t->regs[0x07] = value;
    if (changed & 0x20u) {
        /* The timers stand too: counted lazily, they restart from now. */
        for (unsigned n = 0; n < 3; n++) {
            t->timer_base[n] = ted_timer_value(t, n);
            t->timer_base_tick[n] = t->ticks;
        }
        t->frozen = (value & 0x20u) != 0;
        t->held_x = t->x;
        timers_schedule(t);
    }
    if (changed & 0x40u) {
        const int ntsc_mode = (value & 0x40u) != 0;
        ted_sound_sync(t); /* the samples so far at the old rate */
        t->lines = ntsc_mode ? TED_LINES_NTSC : TED_LINES_PAL;
        t->clock_hz = (t->ntsc ? TED_CRYSTAL_NTSC : TED_CRYSTAL_PAL) / (ntsc_mode ? 8u : 10u);
        ted_sound_restart(t);
    }
}

void ted_write(ted *t, uint8_t reg, uint8_t value, uint8_t keyboard)
{
    reg &= 0x3Fu;
    if (changes_picture(reg)) ted_catch_up(t);
    if (reg >= 0x0E && reg <= 0x12) ted_sound_sync(t); /* the old settings up to now */
    switch (reg) {
    case 0x00: case 0x02: case 0x04: { /* low byte: stops the timer */
        unsigned n = reg >> 1;
        uint16_t now = ted_timer_value(t, n);
        t->timer_run[n] = 0;
        t->reload[n] = (uint16_t)((t->reload[n] & 0xFF00u) | value);
        t->timer_base[n] = (uint16_t)((now & 0xFF00u) | value);
        timers_schedule(t);
        break;
    }
    case 0x01: case 0x03: case 0x05: { /* high byte: starts it */
        unsigned n = reg >> 1;
        uint16_t now = ted_timer_value(t, n);
        t->reload[n] = (uint16_t)((t->reload[n] & 0x00FFu) | (value << 8));
        t->timer_base[n] = n == 0 ? t->reload[0] : (uint16_t)((now & 0x00FFu) | (value << 8));
        t->timer_base_tick[n] = t->ticks;
        t->timer_run[n] = 1;
        timers_schedule(t);
        break;
    }
    case 0x08: t->keyboard_latch = keyboard; break;
    case 0x09:
        t->irq_flags &= (uint8_t)~(value & TED_IRQ_SOURCES);
        update_irq(t);
        break;
    case 0x0A:
        t->regs[0x0A] = value;
        update_irq(t);
        break;
    case 0x06:
        t->regs[0x06] = value;
        /* The display is enabled while the counter is at line 0 with bit 4
         * set (FPGATED), not only at the line's start. */
        if (t->line == 0 && (value & 0x10u)) t->display_frame = 1;
        break;
    case 0x07: write_mode(t, value); break;
    case 0x1A: case 0x1B: /* the character position: from the next line's load on */
        t->regs[reg] = value;
        t->char_pos = reg == 0x1A ? (uint16_t)(((value & 3u) << 8) | (t->char_pos & 0xFFu))
                                  : (uint16_t)((t->char_pos & 0x300u) | value);
        if (t->x < TED_X_CHAR_LOAD) t->vc_base = t->char_pos; /* before this line's load */
        break;
    case 0x1C: case 0x1D: { /* the vertical counter (9 bits): runs on from there */
        uint16_t line = reg == 0x1C ? (uint16_t)(((value & 1u) << 8) | (t->line & 0xFFu))
                                    : (uint16_t)((t->line & 0x100u) | value);
        /* The raster compare is an equality: a write that lands on it fires. */
        if (line != t->line && line == ted_raster_compare(t)) raise(t, TED_IRQ_RASTER);
        t->line = line;
        break;
    }
    case 0x1E: t->x = written_column(t, value); if (t->frozen) t->held_x = t->x; break;
    case 0x1F:
        t->rc = value & 7u;
        t->flash_counter = (uint8_t)((t->flash_counter & 0x10u) | ((value >> 3) & 0x0Fu));
        break;
    case 0x3E: t->rom_enabled = 1; break;
    case 0x3F: t->rom_enabled = 0; break;
    default:
        if (reg < 0x20) t->regs[reg] = value;
        break;
    }
    if (reg == 0x06 || reg == 0x07 || reg == 0x13 || reg == 0x1C || reg == 0x1D || reg == 0x1E)
        ted_region(t);
}

/* ---- the beam ---- */

/* A timer steps every second tick from a tick after its base (the write,
 * or the underflow) and underflows (the IRQ) its value's worth of single
 * cycles after the base: a timer written with S at tick T reads S - 1 at
 * T + 1, 0 at T + 2S - 1, and raises its IRQ at T + 2S, as VICE's xplus4
 * counts it (FPGATED raises it the step after the counter reached 0). */
static uint64_t steps_since(uint64_t base, uint64_t now) { return (now - base + 1u) >> 1; }

uint16_t ted_timer_value(const ted *t, unsigned n)
{
    if (!t->timer_run[n] || t->frozen) return t->timer_base[n];
    return (uint16_t)(t->timer_base[n] - steps_since(t->timer_base_tick[n], t->ticks));
}

/* The tick of timer n's next underflow (65536 steps from 0). */
static uint64_t underflow_tick(const ted *t, unsigned n)
{
    const uint64_t steps = t->timer_base[n] ? t->timer_base[n] : 65536u;
    return t->timer_base_tick[n] + 2u * steps;
}

static void timers_schedule(ted *t)
{
    t->timer_event = UINT64_MAX;
    for (unsigned n = 0; n < 3 && !t->frozen; n++) {
        if (!t->timer_run[n]) continue;
        uint64_t at = underflow_tick(t, n);
        if (at < t->timer_event) t->timer_event = at;
    }
    t->next_event = t->timer_event;
    ted_reschedule(t);
}

/* At an underflow: the IRQ flag; timer 1 reloads, timers 2 and 3 go on
 * from 0 (then $FFFF). */
static void timer_event(ted *t)
{
    static const uint8_t sources[3] = {TED_IRQ_T1, TED_IRQ_T2, TED_IRQ_T3};
    for (unsigned n = 0; n < 3; n++) {
        if (!t->timer_run[n]) continue;
        uint64_t at = underflow_tick(t, n);
        if (at > t->ticks) continue;
        t->underflows[n]++;
        raise(t, sources[n]);
        t->timer_base[n] = n == 0 ? t->reload[0] : 0;
        t->timer_base_tick[n] = at; /* the underflow tick (a CPU cycle may be 2 ticks) */
    }
    timers_schedule(t);
}

/* At the start of every line: the frame, raster compare, DMA lines and
 * the row counter. As FPGATED has it: the row counter is 7 from line 0 and
 * steps every line once the frame's first attribute line has passed, while
 * the display runs (lines below 204); attributes fetched on an attribute
 * line show from the next line, which fetches the codes and shows them at
 * once. */
static void new_line(ted *t)
{
    t->drawn_px = 0;
    t->vc_base = t->char_pos;
    const int displaying = t->display_frame && t->line < TED_LAST_DMA_LINE;
    if (t->line == 0) {
        t->frame++;
        t->display_frame = (t->regs[0x06] & 0x10u) != 0;
        t->rc = 7;
        t->row_active = 0;
    } else if (!displaying) {
        t->row_active = 0;
    } else {
        if (t->attr_line) t->row_active = 1;
        if (t->row_active) t->rc = (uint8_t)((t->rc + 1u) & 7u);
    }
    if (t->line == ted_raster_compare(t)) raise(t, TED_IRQ_RASTER);
    t->bad_line = t->attr_line && t->display_frame && t->line < TED_LAST_DMA_LINE;
    t->attr_line = 0;
    if (t->attrs_pending) {
        memcpy(t->attrs, t->next_attrs, sizeof t->attrs);
        t->attrs_pending = 0;
    }
}

/* Where the DMA window opens (tick 4, dot 400): the attribute line's
 * decision from the y scroll as it is now, so a $FF06 write earlier in the
 * line counts (FPGATED compares continuously; its DMA starts at dot 407);
 * the line after an attribute line fetches the codes. */
static void dma_event(ted *t)
{
    const unsigned yscroll = t->regs[0x06] & 7u;
    t->attr_line = t->display_frame && t->line + 1u < TED_LAST_DMA_LINE &&
                   (t->line & 7u) == yscroll;
    if (t->attr_line) {
        ted_fetch_attributes(t);
        t->attrs_pending = 1;
    }
    if (t->bad_line) ted_fetch_codes(t);
}

/* The beam positions where a cycle's type can change, and the region's
 * cycle type, from the formulas of ted_cpu_ticks() and ted_dma(). */
void ted_region(ted *t)
{
    /* In order; equal positions are harmless (the first one > x is taken). */
    static const uint16_t bounds[] = {TED_X_FETCH_START, TED_X_DMA_START,   TED_X_DMA_END,
                                      TED_X_CHAR_POS,    TED_X_FETCH_END,   TED_X_REFRESH,
                                      TED_X_REFRESH_END, TED_X_RENDER,      TED_TICKS_PER_LINE};
    unsigned i = 0;
    while (i < sizeof bounds / sizeof bounds[0] - 1 && bounds[i] <= t->x) i++;
    t->x_event = bounds[i];
    t->dma_now = (uint8_t)ted_dma(t);
    t->cycle_ticks = (uint8_t)(t->dma_now ? 2u : ted_cpu_ticks(t));
    ted_reschedule(t);
}

/* The beam's events at x_event (the boundary just reached). Measured on
 * a 7360 (Tibor Biczo, 1998): $FF1A/$FF1B steps by 40 at $FF1E $92-$96 in
 * a row's last line (row counter 7) and is cleared at the end of the
 * frame's last line; the flash counter steps in line 205 at $FF1E $AE-$B0
 * (the render point here). As FPGATED has it, the step latches the line's
 * own counter (loaded at tick 11, 40 characters later), so a write earlier
 * in that line is overwritten. */
static int beam_event(ted *t, uint16_t at)
{
    int frame_done = 0;
    if (at == TED_X_DMA_START) dma_event(t);
    if (at == TED_X_CHAR_POS && t->display_frame && t->line < TED_LAST_DMA_LINE) {
        /* Row line 6 moves the DMA position on a row, line 7 the character
         * position (FPGATED's latches after dot 288). */
        if (t->rc == 6u) t->dma_pos = (uint16_t)((t->dma_pos + 40u) & 0x3FFu);
        if (t->rc == 7u && t->row_active) t->char_pos = (uint16_t)((t->vc_base + 40u) & 0x3FFu);
    }
    if (at == TED_X_RENDER && t->line == 205u)
        t->flash_counter = (uint8_t)((t->flash_counter + 1u) & 31u);
    if (t->x >= TED_X_RENDER && t->drawn_px < TED_FB_WIDTH) ted_render_upto(t, TED_FB_WIDTH);
    if (t->x >= TED_TICKS_PER_LINE) {
        t->x = (uint16_t)(t->x - TED_TICKS_PER_LINE);
        /* The 9-bit counter wraps after the mode's last line, or after 511
         * when a write put it beyond (a longer frame). */
        if (t->line == t->lines - 1u) {
            t->line = 0;
            t->char_pos = 0;
            t->dma_pos = 0;
        } else {
            t->line = (uint16_t)((t->line + 1u) & (TED_COUNTER_LINES - 1u));
        }
        new_line(t);
        if (t->line == (uint16_t)((t->fb_first_line + t->fb_height) % t->tv_lines)) {
            frame_done = 1;
            t->frame_seen = 1;
        }
        if (t->line == 0) {
            /* A frame a counter write made skip the usual end is reported here. */
            if (!t->frame_seen) frame_done = 1;
            t->frame_seen = 0;
        }
    }
    return frame_done;
}

int ted_event(ted *t)
{
    int frame_done = 0;
    if (t->frozen) {
        t->x = t->held_x; /* the counters stand */
    } else {
        while (t->x >= t->x_event) {
            frame_done |= beam_event(t, t->x_event);
            ted_region(t);
        }
    }
    if (t->ticks >= t->timer_event) timer_event(t);
    t->next_event = t->timer_event;
    ted_reschedule(t);
    return frame_done;
}
