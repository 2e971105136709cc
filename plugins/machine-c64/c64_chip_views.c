/* c64_chip_views.c - the C64's decoders for the SDK chip views
 * (mcphost/chip_vic2.h, mcphost/chip_cia.h): register bits to fields,
 * $D018 + the VIC bank to CPU addresses, sprite pointers to data
 * addresses, the CIA's BCD clock to numbers. No side effects: registers
 * are read with the chips' peek functions. */
#include <string.h>

#include "c64.h"

static uint8_t bit(uint8_t value, unsigned n) { return (uint8_t)((value >> n) & 1u); }

static void decode_sprites(const m6569 *vic, const uint8_t *regs, uint16_t bank_base,
                           const uint8_t sprite_ptr[8], mh_chip_vic2_view *out)
{
    for (unsigned n = 0; n < 8; n++) {
        mh_chip_vic2_sprite *s = &out->sprites[n];
        s->x = (uint16_t)(regs[2 * n] | (bit(regs[0x10], n) << 8));
        s->y = regs[2 * n + 1];
        s->enabled = bit(regs[0x15], n);
        s->expand_y = bit(regs[0x17], n);
        s->behind_background = bit(regs[0x1B], n);
        s->multicolor = bit(regs[0x1C], n);
        s->expand_x = bit(regs[0x1D], n);
        s->color = regs[0x27 + n] & 0x0Fu;
        s->pointer = sprite_ptr[n];
        s->data_vic_address = (uint16_t)(sprite_ptr[n] * 64u);
        s->data_address = (uint16_t)(bank_base + s->data_vic_address);
        s->collided_sprite = bit(regs[0x1E], n);
        s->collided_background = bit(regs[0x1F], n);
        s->dma = bit(vic->spr_dma, n);
        s->displayed = bit(vic->spr_disp, n);
    }
}

void c64_vic2_decode(const m6569 *vic, unsigned bank, int char_rom, const uint8_t sprite_ptr[8],
                     mh_chip_vic2_view *out)
{
    uint32_t size = out->struct_size;
    memset(out, 0, sizeof *out);
    out->struct_size = size;
    const m6569_geometry *g = m6569_geometry_of((m6569_model)vic->model);
    const char *model = m6569_model_name((m6569_model)vic->model);
    out->model = model ? model : "unknown";
    out->standard = g && g->cycles_per_line == 63 ? "PAL" : "NTSC";
    out->cycles_per_line = vic->cycles_per_line;
    out->lines_per_frame = vic->lines_per_frame;
    for (uint16_t r = 0; r < 64; r++) out->regs[r] = m6569_peek(vic, r);
    const uint8_t *regs = out->regs;
    const uint8_t cr1 = vic->reg[0x11], cr2 = vic->reg[0x16], mem = vic->reg[0x18];

    out->ecm = bit(cr1, 6);
    out->bmm = bit(cr1, 5);
    out->den = bit(cr1, 4);
    out->rsel = bit(cr1, 3);
    out->yscroll = cr1 & 7u;
    out->res = bit(cr2, 5);
    out->mcm = bit(cr2, 4);
    out->csel = bit(cr2, 3);
    out->xscroll = cr2 & 7u;
    out->mode = (uint8_t)(out->ecm << 2 | out->bmm << 1 | out->mcm);

    bank &= 3u;
    const uint16_t base = (uint16_t)(bank * 0x4000u);
    const uint16_t screen = (uint16_t)((mem >> 4) * 0x400u);
    const uint16_t charset = (uint16_t)(((mem >> 1) & 7u) * 0x800u);
    const uint16_t bitmap = (uint16_t)(((mem >> 3) & 1u) * 0x2000u);
    out->bank = (uint8_t)bank;
    out->bank_base = base;
    out->screen_address = (uint16_t)(base + screen);
    out->charset_address = (uint16_t)(base + charset);
    out->bitmap_address = (uint16_t)(base + bitmap);
    out->sprite_pointers = (uint16_t)(out->screen_address + 0x3F8u);
    out->charset_in_rom = (uint8_t)(char_rom && charset >= 0x1000u && charset < 0x2000u);
    out->bitmap_in_rom = (uint8_t)(char_rom && bitmap == 0u);

    out->raster_line = m6569_line(vic);
    out->raster_cycle = vic->cycle;
    out->raster_compare = vic->irq_line;
    out->irq_flags = regs[0x19];
    out->irq_mask = vic->irq_mask & 0x0Fu;
    out->irq = vic->irq;
    out->bad_line = vic->bad_line;
    out->display_state = vic->display;
    out->vertical_border = vic->vert_border;
    out->frame = vic->frame;

    out->border_color = regs[0x20] & 0x0Fu;
    for (unsigned i = 0; i < 4; i++) out->background[i] = regs[0x21 + i] & 0x0Fu;
    out->sprite_multicolor[0] = regs[0x25] & 0x0Fu;
    out->sprite_multicolor[1] = regs[0x26] & 0x0Fu;
    out->sprite_sprite_collisions = regs[0x1E];
    out->sprite_background_collisions = regs[0x1F];
    out->lightpen_x = regs[0x13];
    out->lightpen_y = regs[0x14];
    decode_sprites(vic, regs, base, sprite_ptr, out);
}

static void decode_timer(const m6526_timer_info *in, uint8_t control, mh_chip_cia_timer *t)
{
    t->counter = in->counter;
    t->latch = in->latch;
    t->control = control;
    t->running = in->running;
    t->oneshot = in->oneshot;
    t->pb_on = in->pb_on;
    t->pb_toggle = in->pb_toggle;
    t->pb_level = in->pb_level;
    t->input = in->input;
    t->underflows = in->underflows;
}

static void decode_time(const m6526_time *in, mh_chip_cia_time *t)
{
    t->hours = in->hours;
    t->minutes = in->minutes;
    t->seconds = in->seconds;
    t->tenths = in->tenths;
    t->pm = in->pm;
}

void c64_cia_decode(const m6526 *cia, mh_chip_cia_view *out)
{
    uint32_t size = out->struct_size;
    memset(out, 0, sizeof *out);
    out->struct_size = size;
    m6526_info info;
    m6526_get_info(cia, &info);
    out->model = info.model == M6526_MODEL_6526A ? "6526A" : "6526";
    for (uint16_t r = 0; r < 16; r++) out->regs[r] = m6526_peek(cia, r);
    out->pra = info.pra;
    out->prb = info.prb;
    out->ddra = info.ddra;
    out->ddrb = info.ddrb;
    out->pa_out = info.pa_out;
    out->pb_out = info.pb_out;
    out->pa_pins = out->regs[0];
    out->pb_pins = out->regs[1];
    decode_timer(&info.ta, out->regs[0x0E], &out->timer_a);
    decode_timer(&info.tb, out->regs[0x0F], &out->timer_b);
    decode_time(&info.tod, &out->tod);
    decode_time(&info.alarm, &out->alarm);
    out->tod_running = info.tod_running;
    out->tod_latched = info.tod_latched;
    out->tod_50hz = info.tod_50hz;
    out->tod_writes_alarm = bit(cia->tb.cr, 7);
    out->icr_flags = info.icr_flags;
    out->icr_mask = info.icr_mask & 0x1Fu;
    out->irq = info.irq;
    out->sdr = info.sdr;
    out->sp_output = info.sp_output;
    out->sp_bits_left = info.sp_bits_left;
}

void c64_vic2_view(const c64 *m, mh_chip_vic2_view *out)
{
    const uint16_t pointers = (uint16_t)(((m->vic.reg[0x18] >> 4) * 0x400u + 0x3F8u) & 0x3FFFu);
    uint8_t ptr[8];
    for (unsigned i = 0; i < 8; i++) ptr[i] = c64_vic_fetch((void *)m, (uint16_t)(pointers + i));
    const int char_rom = m->vic_rd[1] == m->rom + 0xD000 - 0x1000;
    c64_vic2_decode(&m->vic, m->p.vic_bank, char_rom, ptr, out);
}
