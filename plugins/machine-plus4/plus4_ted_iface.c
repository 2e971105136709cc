/* plus4_ted_iface.c - "mh.chip.ted/1" (mcphost/chip_ted.h: the TED
 * decoded, peek/write, keyboard matrix, beam, io_range) and "mh.audio/1"
 * (the TED's two voices as a 44.1 kHz mono stream). */
#include <stdio.h>
#include <string.h>

#include "plus4.h"

static mh_chip_ted_color color_of(uint8_t reg)
{
    mh_chip_ted_color c;
    memset(&c, 0, sizeof c);
    c.value = reg & 0x7Fu;
    c.hue = reg & 0x0Fu;
    c.luminance = (reg >> 4) & 7u;
    c.rgb = ted_palette()[c.value];
    return c;
}

void plus4_ted_view(const plus4 *m, mh_chip_ted_view *out)
{
    const ted *t = &m->ted;
    uint32_t size = out->struct_size;
    memset(out, 0, sizeof *out);
    out->struct_size = size;
    out->model = t->ntsc ? "8360" : "7360";
    out->standard = t->ntsc ? "NTSC" : "PAL";
    out->cycles_per_line = TED_TICKS_PER_LINE;
    out->lines_per_frame = t->lines;
    for (unsigned r = 0; r < 64; r++) out->regs[r] = ted_peek(t, (uint8_t)r);
    out->mode = (uint8_t)ted_mode(t);
    out->ecm = (t->regs[0x06] >> 6) & 1u;
    out->bmm = (t->regs[0x06] >> 5) & 1u;
    out->mcm = (t->regs[0x07] >> 4) & 1u;
    out->blank = !(t->regs[0x06] & 0x10u);
    out->rows25 = (t->regs[0x06] >> 3) & 1u;
    out->columns40 = (t->regs[0x07] >> 3) & 1u;
    out->xscroll = t->regs[0x07] & 7u;
    out->yscroll = t->regs[0x06] & 7u;
    out->reverse_off = (t->regs[0x07] >> 7) & 1u;
    out->ntsc_bit = (t->regs[0x07] >> 6) & 1u;
    out->frozen = (t->regs[0x07] >> 5) & 1u;
    out->screen_address = ted_screen_address(t);
    out->attribute_address = ted_attribute_address(t);
    out->charset_address = ted_charset_address(t);
    out->bitmap_address = ted_bitmap_address(t);
    out->charset_in_rom = (t->regs[0x12] >> 2) & 1u;
    for (unsigned i = 0; i < 4; i++) out->background[i] = color_of(t->regs[0x15 + i]);
    out->border = color_of(t->regs[0x19]);
    out->cursor_position = (uint16_t)(((t->regs[0x0C] & 3u) << 8) | t->regs[0x0D]);
    out->cursor_visible = out->cursor_position < 1000u;
    out->flash_on = (uint8_t)ted_flash_on(t);
    out->flash_counter = t->flash_counter;
    for (unsigned n = 0; n < 3; n++) {
        out->timers[n].counter = ted_timer_value(t, n);
        out->timers[n].reload = t->reload[n];
        out->timers[n].running = t->timer_run[n];
        out->timers[n].underflows = t->underflows[n];
    }
    const uint8_t c = t->regs[0x11];
    for (int v = 0; v < 2; v++) {
        out->voices[v].frequency = ted_voice_freq(t, v);
        out->voices[v].hz = ted_voice_hz(t, v);
    }
    out->voices[0].on = (c >> 4) & 1u;
    out->voices[1].on = (c >> 5) & 1u;
    out->voices[1].noise = (c >> 6) & 1u;
    out->volume = c & 15u;
    out->da_mode = (c >> 7) & 1u;
    out->raster_line = t->line;
    out->raster_column = ted_raster_column(t);
    out->raster_compare = ted_raster_compare(t);
    out->irq_flags = ted_peek(t, 0x09);
    out->irq_mask = t->regs[0x0A] & TED_IRQ_SOURCES;
    out->irq = t->irq;
    out->bad_line = t->bad_line || t->attr_line;
    out->frame = t->frame;
    out->single_clock_forced = (t->regs[0x13] >> 1) & 1u;
    out->double_clock_now = ted_cpu_ticks(t) == 1;
    out->cpu_hz_single = t->clock_hz / 2u;
    out->rom_enabled = t->rom_enabled;
}

static void *chip_state(void *context) { return &((plus4 *)context)->ted; }

static uint8_t chip_peek(void *context, uint16_t reg)
{
    return ted_peek(&((const plus4 *)context)->ted, (uint8_t)(reg & 0x3Fu));
}

static void chip_write(void *context, uint16_t reg, uint8_t value)
{
    plus4_io_write(context, (uint16_t)(0xFF00u + (reg & 0x3Fu)), value);
}

static mh_status chip_view(void *context, mh_chip_ted_view *out)
{
    if (!out || out->struct_size < sizeof *out) return MH_ERR_INVALID_ARGUMENT;
    plus4_ted_view(context, out);
    return MH_OK;
}

static mh_status chip_keyboard(void *context, uint8_t held[8])
{
    memcpy(held, ((const plus4 *)context)->p.kb_col, 8);
    return MH_OK;
}

static const char *chip_key_name(void *context, unsigned column, unsigned row)
{
    (void)context;
    return plus4_matrix_key_name(column, row);
}

static void chip_beam(void *context, uint16_t *line, uint16_t *column)
{
    const plus4 *m = context;
    if (line) *line = m->ted.line;
    if (column) *column = ted_raster_column(&m->ted);
}

static void chip_io_range(void *context, mh_chip_io_range *out)
{
    (void)context;
    out->base = 0xFF00u;
    out->size = 0x40u;
}

static const mh_chip_ted_iface ted_iface = {sizeof(mh_chip_ted_iface), chip_state, chip_peek,
                                            chip_write, chip_view, chip_keyboard, chip_key_name,
                                            chip_beam, chip_io_range};

/* ---- mh.audio/1 ---- */

static uint32_t audio_rate(void *context)
{
    (void)context;
    return TED_AUDIO_RATE;
}

static int audio_enabled(void *context) { return ((const plus4 *)context)->ted.sound_on; }

static size_t audio_read(void *context, int16_t *out, size_t max)
{
    plus4 *m = context;
    if (!out) return 0;
    return ted_audio_read(&m->ted, out, max);
}

static const char *audio_source(void *context)
{
    return ((const plus4 *)context)->ted.ntsc ? "TED 8360" : "TED 7360";
}

static uint32_t audio_clock_hz(void *context) { return ((const plus4 *)context)->ted.clock_hz; }

static uint32_t audio_frame_cycles(void *context)
{
    return TED_TICKS_PER_LINE * ((const plus4 *)context)->ted.lines;
}

static const mh_audio_iface audio_iface = {sizeof(mh_audio_iface), audio_rate,  audio_enabled,
                                           audio_read,             audio_source, audio_clock_hz,
                                           audio_frame_cycles};

size_t plus4_ted_chips(plus4 *m, mh_chip *chips)
{
    const char *desc = m->config.ntsc ? "MOS 8360 TED (NTSC) at $FF00: video, timers, sound, keyboard"
                                      : "MOS 7360 TED (PAL) at $FF00: video, timers, sound, keyboard";
    chips[0] = (mh_chip){sizeof(mh_chip), MH_CHIP_TED_IFACE, "ted", desc, &ted_iface, m};
    chips[1] = (mh_chip){sizeof(mh_chip), MH_IFACE_AUDIO, "ted",
                         "TED sound: two voices (square, noise), 44.1 kHz mono", &audio_iface, m};
    return 2;
}
