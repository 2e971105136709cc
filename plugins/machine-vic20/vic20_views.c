/* vic20_views.c - the VIA and VIC decoded for mh.chip.via/1 and
 * mh.chip.vic/1 (mcphost/chip_via.h, chip_vic.h) and the text screen
 * ("mh.textscreen/1": the VIC's video matrix as screen codes). */
#include <stdio.h>
#include <string.h>

#include "mcphost/chip_via.h"
#include "mcphost/chip_vic.h"
#include "mcphost/text_screen.h"
#include "vic20.h"

void vic20_via_view(const vic20 *m, const m6522 *via, mh_chip_via_view *out)
{
    if (m->via_pending) vic20_via_catch_up((vic20 *)m); /* changes nothing a program sees */
    uint32_t size = out->struct_size;
    memset(out, 0, sizeof *out);
    out->struct_size = size;
    out->model = "6522";
    for (uint8_t r = 0; r < 16; r++) out->regs[r] = m6522_peek(via, r);
    out->ora = via->ora;
    out->orb = via->orb;
    out->ddra = via->ddra;
    out->ddrb = via->ddrb;
    out->pa_pins = m6522_port_pins(via, 0);
    out->pb_pins = m6522_port_pins(via, 1);
    out->ira = out->regs[1];
    out->irb = out->regs[0];
    out->pa_latching = via->acr & 1u;
    out->pb_latching = (via->acr >> 1) & 1u;
    out->pa_latch = via->pa_latch;
    out->pb_latch = via->pb_latch;
    out->t1.counter = via->t1_counter;
    out->t1.latch = via->t1_latch;
    out->t1.free_run = (via->acr >> 6) & 1u;
    out->t1.pb_out = (via->acr >> 7) & 1u;
    out->t1.pb_level = via->pb7;
    out->t1.armed = via->t1_armed;
    out->t1.timeouts = via->t1_timeouts;
    out->t2.counter = via->t2_counter;
    out->t2.latch = via->t2_latch_low;
    out->t2.pulse_count = (via->acr >> 5) & 1u;
    out->t2.armed = via->t2_armed;
    out->t2.timeouts = via->t2_timeouts;
    out->sr = via->sr;
    out->sr_mode = (via->acr >> 2) & 7u;
    out->sr_bits_left = via->sr_running ? (uint8_t)(8u - via->sr_count) : 0;
    out->acr = via->acr;
    out->pcr = via->pcr;
    out->ca.c1_positive = via->pcr & 1u;
    out->ca.c1_level = via->ca1_in;
    out->ca.c2_mode = (via->pcr >> 1) & 7u;
    out->ca.c2_output = (via->pcr & 0x08u) != 0;
    out->ca.c2_level = via->ca2_pin;
    out->cb.c1_positive = (via->pcr >> 4) & 1u;
    out->cb.c1_level = via->cb1_pin;
    out->cb.c2_mode = (via->pcr >> 5) & 7u;
    out->cb.c2_output = (via->pcr & 0x80u) != 0 || out->sr_mode >= 4;
    out->cb.c2_level = via->cb2_pin;
    out->ifr = out->regs[13];
    out->ier = out->regs[14];
    out->irq = via->irq;
}

void vic20_vic_view(const vic20 *m, mh_chip_vic_view *out)
{
    vic20_vic_catch_up(m);
    const m6561 *vic = &m->vic;
    const m6561_geometry *g = m->geometry;
    uint32_t size = out->struct_size;
    memset(out, 0, sizeof *out);
    out->struct_size = size;
    out->model = m6561_model_name(vic->model);
    out->standard = vic->model == M6561_MODEL_6560 ? "NTSC" : "PAL";
    out->clock_hz = g->clock_hz;
    out->cycles_per_line = g->cycles_per_line;
    out->lines_per_frame = g->lines_per_frame;
    for (uint8_t r = 0; r < 16; r++) out->regs[r] = m6561_read(vic, r);
    out->screen_vic_address = m6561_screen_vic_address(vic);
    out->screen_address = m6561_cpu_address(out->screen_vic_address);
    out->color_address = (uint16_t)(0x9400u + ((vic->regs[2] & 0x80u) << 2));
    out->charset_vic_address = m6561_char_vic_address(vic);
    out->charset_address = m6561_cpu_address(out->charset_vic_address);
    out->charset_in_rom = out->charset_address >= 0x8000 && out->charset_address < 0x9000;
    out->columns = vic->regs[2] & 0x7Fu;
    out->rows = (vic->regs[3] >> 1) & 0x3Fu;
    out->char_height = (vic->regs[3] & 1u) ? 16 : 8;
    out->interlace = vic->regs[0] >> 7;
    out->origin_x = vic->regs[0] & 0x7Fu;
    out->origin_y = vic->regs[1];
    out->raster_line = vic->line;
    out->raster_cycle = vic->cycle;
    out->frame = vic->frame;
    out->lightpen_x = vic->regs[6];
    out->lightpen_y = vic->regs[7];
    out->paddle_x = vic->regs[8];
    out->paddle_y = vic->regs[9];
    out->border_color = vic->regs[15] & 7u;
    out->background_color = vic->regs[15] >> 4;
    out->auxiliary_color = vic->regs[14] >> 4;
    out->reverse = !(vic->regs[15] & 8u);
    for (unsigned v = 0; v < 4; v++) {
        uint8_t reg = vic->regs[10 + v];
        out->voices[v].reg = reg;
        out->voices[v].on = reg >> 7;
        out->voices[v].value = reg & 0x7Fu;
        out->voices[v].frequency_hz = m6561_voice_hz(vic, v);
    }
    out->volume = vic->regs[14] & 0x0Fu;
}

/* ---- mh.textscreen/1 ---- */

static const char *const color_names[16] = {
    "black", "white", "red", "cyan", "purple", "green", "blue", "yellow",
    "orange", "light orange", "pink", "light cyan", "light purple", "light green",
    "light blue", "light yellow"};

static mh_status text_read(void *context, mh_text_screen *out, char *error, size_t error_size)
{
    const vic20 *m = context;
    if (!out || out->struct_size < sizeof *out) return MH_ERR_INVALID_ARGUMENT;
    mh_chip_vic_view v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    vic20_vic_view(m, &v);
    uint32_t cells = (uint32_t)v.columns * v.rows;
    if (!v.columns || !v.rows || cells > MH_TEXT_SCREEN_MAX_CELLS) {
        snprintf(error, error_size, "the VIC shows %u columns x %u rows: no text screen",
                 (unsigned)v.columns, (unsigned)v.rows);
        return MH_ERR_STATE;
    }
    out->columns = v.columns;
    out->rows = v.rows;
    /* The ROM's second half ($8800) is the lower case set. */
    out->charset = v.charset_in_rom && (v.charset_address & 0x0800u) ? MH_CHARSET_CBM_LOWER
                                                                     : MH_CHARSET_CBM_UPPER;
    out->custom_charset = !v.charset_in_rom;
    out->glyph_mask = 0x7Fu;
    out->reverse_bit = 0x80u;
    out->has_colors = 1;
    out->has_backgrounds = 0;
    out->address = v.screen_address;
    out->mode = v.char_height == 16 ? "text, 8x16 characters" : "text, 8x8 characters";
    out->border = v.border_color;
    out->background = v.background_color;
    out->color_count = 16;
    out->color_names = color_names;
    for (uint32_t i = 0; i < cells; i++) {
        uint16_t bus = vic20_vic_fetch((void *)m, (uint16_t)((v.screen_vic_address + i) & 0x3FFFu));
        out->codes[i] = (uint8_t)bus;
        out->colors[i] = (uint8_t)((bus >> 8) & 0x07u);
        out->backgrounds[i] = v.background_color;
    }
    return MH_OK;
}

const mh_text_screen_iface vic20_text_screen_iface = {sizeof(mh_text_screen_iface), text_read};
