/* vic6561.c - the MOS 6561/6560 VIC, cycle by cycle (vic6561.h,
 * docs/vic6560.md). */
#include "vic6561.h"

#include <string.h>

/* PAL: 4.433619 MHz / 4; NTSC: 14.31818 MHz / 14. The visible area is
 * about what VICE shows. */
static const m6561_geometry geometries[2] = {
    {1108405u, 71, 312, 28, 232, 284, 7, 14.75e6 / (4.0 * 1108405.0) / 2.0},   /* 1.66 */
    {1022727u, 65, 261, 28, 200, 233, 4, 12.2727e6 / (4.0 * 1022727.0) / 2.0}, /* 1.50 */
};

/* The display starts this many cycles after the horizontal origin. */
#define HORIZONTAL_DELAY 2u

/* VICE's default VIC-20 palette (the "mike" PAL colours). */
static const uint32_t palette[16] = {
    0x000000, 0xFFFFFF, 0xB61F21, 0x4DF0FF, 0xB43FFF, 0x44E237, 0x1A34FF, 0xDCD71B,
    0xCA5400, 0xE9B072, 0xE79293, 0x9AF7FD, 0xE09FFF, 0x8FE493, 0x8290FF, 0xE5DE85};

/* Cycles per half period for one step of the voice's 7-bit counter:
 * bass, alto, soprano toggle their square wave, noise steps its LFSR. */
static const uint32_t voice_divider[4] = {128, 64, 32, 16};

const m6561_geometry *m6561_geometry_of(m6561_model model) { return &geometries[model == M6561_MODEL_6560]; }

const char *m6561_model_name(m6561_model model) { return model == M6561_MODEL_6560 ? "6560" : "6561"; }

const uint32_t *m6561_palette(void) { return palette; }

void m6561_init(m6561 *vic, const m6561_desc *desc)
{
    memset(vic, 0, sizeof *vic);
    vic->model = desc->model;
    memcpy(vic->blocks, desc->blocks, sizeof vic->blocks);
    vic->color = desc->color;
    vic->fb = desc->framebuffer;
    vic->frame_done = desc->frame_done;
    vic->user = desc->user;
    vic->sound_off = desc->sound_off ? 1 : 0;
    m6561_reset(vic);
}

static uint32_t next_sample_in(m6561 *vic, const m6561_geometry *g);

void m6561_reset(m6561 *vic)
{
    memset(vic->regs, 0, sizeof vic->regs);
    vic->regs[8] = vic->regs[9] = 0xFF; /* no paddles */
    vic->line = 0;
    vic->cycle = 0;
    vic->frame = 0;
    vic->ticks = 0;
    vic->pending = 0;
    vic->row_active = vic->row_done = 0;
    vic->row = vic->row_line = 0;
    vic->matrix_base = 0;
    memset(vic->voice, 0, sizeof vic->voice);
    vic->noise_lfsr = 1;
    vic->sample_frac = 0;
    vic->since_sample = 0;
    vic->sample_in = next_sample_in(vic, m6561_geometry_of(vic->model));
    vic->ring_head = vic->ring_count = 0;
}

static uint8_t *line_row(const m6561 *vic, const m6561_geometry *g, uint16_t line);

void m6561_restore(m6561 *vic, const m6561 *saved)
{
    const uint8_t *blocks[16];
    memcpy(blocks, vic->blocks, sizeof blocks);
    const uint8_t *color = vic->color;
    uint8_t *fb = vic->fb;
    void (*frame_done)(void *) = vic->frame_done;
    void *user = vic->user;
    uint8_t sound_off = vic->sound_off;
    *vic = *saved;
    vic->sound_off = sound_off;
    if (sound_off) vic->ring_head = vic->ring_count = 0; /* no sound here */
    memcpy(vic->blocks, blocks, sizeof blocks);
    vic->color = color;
    vic->fb = fb;
    vic->frame_done = frame_done;
    vic->user = user;
    /* the line being drawn goes on being drawn (NULL here left the rest
     * of the line undrawn, so a restored machine drew another frame than
     * the one it was saved from) */
    const m6561_geometry *g = m6561_geometry_of(vic->model);
    uint16_t line = vic->line; /* at cycle 0 the row is still the line before's */
    if (vic->cycle == 0) line = (uint16_t)(line ? line - 1u : g->lines_per_frame - 1u);
    vic->line_px = line_row(vic, g, line);
}

void m6561_set_framebuffer(m6561 *vic, uint8_t *fb)
{
    if (vic->line_px && vic->fb)
        vic->line_px = fb + (vic->line_px - vic->fb); /* the line being drawn moves along */
    vic->fb = fb;
}

uint16_t m6561_screen_vic_address(const m6561 *vic)
{
    return (uint16_t)(((vic->regs[5] & 0xF0u) << 6) | ((vic->regs[2] & 0x80u) << 2));
}

uint16_t m6561_char_vic_address(const m6561 *vic) { return (uint16_t)((vic->regs[5] & 0x0Fu) << 10); }

static unsigned columns(const m6561 *vic) { return vic->regs[2] & 0x7Fu; }
static unsigned rows(const m6561 *vic) { return (vic->regs[3] >> 1) & 0x3Fu; }
static unsigned char_height(const m6561 *vic) { return (vic->regs[3] & 1u) ? 16u : 8u; }

uint8_t m6561_read(const m6561 *vic, uint8_t reg)
{
    reg &= 0x0Fu;
    switch (reg) {
    case 3: return (uint8_t)((vic->regs[3] & 0x7Fu) | ((vic->line & 1u) << 7));
    case 4: return (uint8_t)(vic->line >> 1);
    default: return vic->regs[reg];
    }
}

void m6561_write(m6561 *vic, uint8_t reg, uint8_t value)
{
    reg &= 0x0Fu;
    if (reg == 4 || reg == 6 || reg == 7 || reg == 8 || reg == 9) return; /* read-only */
    vic->regs[reg] = value;
}

/* The beam where the light pen input fell: X in units of 2 pixels (the
 * 4 pixels of a cycle are 2 units), Y in units of 2 lines, as the
 * origin registers count. */
void m6561_set_lightpen(m6561 *vic)
{
    vic->regs[6] = (uint8_t)(vic->cycle * 2u);
    vic->regs[7] = (uint8_t)(vic->line >> 1);
}

/* ---- sound ---- */

static uint32_t voice_period(uint8_t reg)
{
    uint32_t steps = (127u - (reg & 0x7Fu)) & 0x7Fu;
    return steps ? steps : 128u;
}

double m6561_voice_hz(const m6561 *vic, unsigned v)
{
    if (v > 3) return 0.0;
    uint8_t reg = vic->regs[10 + v];
    if (!(reg & 0x80u)) return 0.0;
    double clock = m6561_geometry_of(vic->model)->clock_hz;
    return clock / (2.0 * voice_divider[v] * voice_period(reg));
}

static void advance_voices(m6561 *vic, uint32_t cycles)
{
    for (unsigned v = 0; v < 4; v++) {
        uint8_t reg = vic->regs[10 + v];
        if (!(reg & 0x80u)) continue;
        m6561_voice *voice = &vic->voice[v];
        uint32_t half = voice_divider[v] * voice_period(reg);
        voice->counter += cycles;
        while (voice->counter >= half) {
            voice->counter -= half;
            if (v < 3) {
                voice->level ^= 1u;
            } else {
                /* A 16-bit Galois LFSR; its low bit is the noise output. */
                uint32_t lsb = vic->noise_lfsr & 1u;
                vic->noise_lfsr >>= 1;
                if (lsb) vic->noise_lfsr ^= 0xB400u;
                voice->level = (uint8_t)(vic->noise_lfsr & 1u);
            }
        }
    }
}

/* Cycles until the next 44.1 kHz sample: the clock is not a multiple of
 * the rate, so a remainder (sample_frac, in units of 1/rate cycles) carries. */
static uint32_t next_sample_in(m6561 *vic, const m6561_geometry *g)
{
    uint32_t total = vic->sample_frac + g->clock_hz;
    uint32_t cycles = total / M6561_AUDIO_RATE;
    vic->sample_frac = total % M6561_AUDIO_RATE;
    return cycles;
}

static void make_sample(m6561 *vic, uint32_t cycles)
{
    advance_voices(vic, cycles);
    int32_t sum = 0;
    for (unsigned v = 0; v < 4; v++)
        if (vic->regs[10 + v] & 0x80u) sum += vic->voice[v].level ? 1 : -1;
    int32_t sample = sum * (int32_t)(vic->regs[14] & 0x0Fu) * 500;
    uint32_t at = (vic->ring_head + vic->ring_count) % M6561_AUDIO_RING;
    vic->ring[at] = (int16_t)sample;
    if (vic->ring_count < M6561_AUDIO_RING) vic->ring_count++;
    else vic->ring_head = (vic->ring_head + 1u) % M6561_AUDIO_RING;
}

size_t m6561_audio_read(m6561 *vic, int16_t *out, size_t max)
{
    size_t n = 0;
    while (n < max && vic->ring_count) {
        out[n++] = vic->ring[vic->ring_head];
        vic->ring_head = (vic->ring_head + 1u) % M6561_AUDIO_RING;
        vic->ring_count--;
    }
    return n;
}

/* ---- video ---- */

/* Four pixels of the character whose matrix fetch returned bus; half 0 or
 * 1 picks the left or right four of its eight. */
/* Four pixels of the character in the output stage (its data and colour
 * nybble); half 0 or 1 picks the left or right four of its eight. */
static void draw_char(const m6561 *vic, uint8_t *px, unsigned half)
{
    uint8_t color = vic->out_color, data = vic->out_data;
    uint8_t background = vic->regs[15] >> 4;
    if (half) data = (uint8_t)(data << 4);
    if (color & 8u) {
        const uint8_t pick[4] = {background, (uint8_t)(vic->regs[15] & 7u), (uint8_t)(color & 7u),
                                 (uint8_t)(vic->regs[14] >> 4)};
        px[0] = px[1] = pick[data >> 6];
        px[2] = px[3] = pick[(data >> 4) & 3u];
        return;
    }
    uint8_t fg = color & 7u, bg = background;
    if (!(vic->regs[15] & 8u)) { /* reverse mode */
        uint8_t t = fg;
        fg = bg;
        bg = t;
    }
    px[0] = (data & 0x80u) ? fg : bg;
    px[1] = (data & 0x40u) ? fg : bg;
    px[2] = (data & 0x20u) ? fg : bg;
    px[3] = (data & 0x10u) ? fg : bg;
}

/* One cycle of the text window. Fetches: from the horizontal origin, per
 * column the video matrix byte (with its colour nybble) in the first cycle
 * and the character generator byte in the second; the column's 8 pixels
 * come out in the two cycles after that (HORIZONTAL_DELAY). The pixels of
 * a cycle are drawn before its fetch. */
static void display_cycle(m6561 *vic, uint8_t *px)
{
    unsigned origin = vic->regs[0] & 0x7Fu;
    unsigned span = columns(vic) * 2u;
    unsigned fetch = (unsigned)vic->cycle - origin;
    unsigned out = fetch - HORIZONTAL_DELAY;
    if (px) {
        if (vic->row_active && out < span) draw_char(vic, px, out & 1u);
        else memset(px, vic->regs[15] & 7u, 4); /* the border (one 32-bit store) */
    }
    if (!vic->row_active || fetch >= span) return;
    if (!(fetch & 1u)) {
        uint16_t matrix =
            (uint16_t)(m6561_screen_vic_address(vic) + vic->matrix_base + (fetch >> 1));
        uint16_t bus = m6561_fetch(vic, matrix);
        vic->cell_code = (uint8_t)bus;
        vic->cell_color = (uint8_t)(bus >> 8);
        vic->last_data = (uint8_t)bus;
    } else {
        uint16_t address = (uint16_t)(m6561_char_vic_address(vic) +
                                      vic->cell_code * char_height(vic) + vic->row_line);
        uint8_t data = (uint8_t)m6561_fetch(vic, address);
        vic->last_data = data;
        vic->out_data = data;
        vic->out_color = vic->cell_color;
    }
}

static void end_of_line(m6561 *vic)
{
    if (vic->row_active) {
        if (++vic->row_line >= char_height(vic)) {
            vic->row_line = 0;
            vic->row++;
            vic->matrix_base = (uint16_t)(vic->matrix_base + columns(vic));
            if (vic->row >= rows(vic)) {
                vic->row_active = 0;
                vic->row_done = 1;
            }
        }
    }
}

/* The framebuffer row of a line, NULL when the line is not shown. */
static uint8_t *line_row(const m6561 *vic, const m6561_geometry *g, uint16_t line)
{
    return vic->fb && line >= g->first_line && line < g->first_line + g->height
               ? vic->fb + (size_t)(line - g->first_line) * M6561_FB_WIDTH
               : NULL;
}

/* The start of a line: the text rows begin at the vertical origin; the
 * framebuffer row of this line, if it is shown. */
static void start_line(m6561 *vic, const m6561_geometry *g)
{
    if (!vic->row_active && !vic->row_done && rows(vic) &&
        vic->line == (uint16_t)(vic->regs[1] * 2u)) {
        vic->row_active = 1;
        vic->row = vic->row_line = 0;
        vic->matrix_base = 0;
    }
    vic->line_px = line_row(vic, g, vic->line);
}

/* The sound over k cycles: a sample at each 44.1 kHz point inside them
 * (the registers are constant: a write syncs the chip first). */
static void sound_span(m6561 *vic, const m6561_geometry *g, uint32_t k)
{
    while (k >= vic->sample_in) {
        k -= vic->sample_in;
        vic->since_sample += vic->sample_in;
        make_sample(vic, vic->since_sample);
        vic->since_sample = 0;
        vic->sample_in = next_sample_in(vic, g);
    }
    vic->sample_in -= k;
    vic->since_sample += k;
}

/* Pixels [from, to) of this line's visible part (cycle units), border. */
static void fill_border(m6561 *vic, const m6561_geometry *g, unsigned from, unsigned to)
{
    if (from < g->first_cycle) from = g->first_cycle;
    if (to > g->first_cycle + g->width / 4u) to = g->first_cycle + g->width / 4u;
    if (from < to)
        memset(vic->line_px + (from - g->first_cycle) * 4u, vic->regs[15] & 7u, (to - from) * 4u);
}

/* A whole text line at once, when its fetches and pixels all fall inside
 * the line: the same fetches, pixels and latches as cycle by cycle (nothing
 * can change mid-span: a register or memory write syncs the chip first).
 * Returns 0 (nothing done) otherwise. */
static int text_line(m6561 *vic, const m6561_geometry *g)
{
    unsigned origin = vic->regs[0] & 0x7Fu, cols = columns(vic);
    if (!cols || origin + 2u * cols + HORIZONTAL_DELAY > g->cycles_per_line) return 0;
    unsigned height = char_height(vic);
    uint16_t matrix = (uint16_t)(m6561_screen_vic_address(vic) + vic->matrix_base);
    uint16_t chars = (uint16_t)(m6561_char_vic_address(vic) + vic->row_line);
    unsigned first = g->first_cycle, last = g->first_cycle + g->width / 4u;
    if (vic->line_px) fill_border(vic, g, 0, origin + HORIZONTAL_DELAY);
    for (unsigned k = 0; k < cols; k++) {
        uint16_t bus = m6561_fetch(vic, (uint16_t)(matrix + k));
        vic->cell_code = (uint8_t)bus;
        vic->cell_color = (uint8_t)(bus >> 8);
        uint8_t data = (uint8_t)m6561_fetch(vic, (uint16_t)(chars + vic->cell_code * height));
        vic->last_data = data;
        vic->out_data = data;
        vic->out_color = vic->cell_color;
        if (!vic->line_px) continue;
        unsigned c = origin + HORIZONTAL_DELAY + 2u * k;
        for (unsigned half = 0; half < 2; half++, c++)
            if (c >= first && c < last) draw_char(vic, vic->line_px + (c - first) * 4u, half);
    }
    if (vic->line_px) fill_border(vic, g, origin + HORIZONTAL_DELAY + 2u * cols, last);
    return 1;
}

/* The picture over cycles [c0, c1) of this line: border-only lines are one
 * fill, whole text lines one pass; else cycle by cycle. */
static void display_span(m6561 *vic, const m6561_geometry *g, unsigned c0, unsigned c1)
{
    if (!vic->row_active) {
        if (vic->line_px) fill_border(vic, g, c0, c1);
        return;
    }
    if (c0 == 0 && c1 == g->cycles_per_line && text_line(vic, g)) return;
    for (unsigned c = c0; c < c1; c++) {
        vic->cycle = (uint16_t)c;
        uint8_t *px = NULL;
        unsigned x = c - g->first_cycle;
        if (vic->line_px && x < g->width / 4u) px = vic->line_px + x * 4u;
        display_cycle(vic, px);
    }
}

unsigned m6561_sync(m6561 *vic)
{
    const m6561_geometry *g = &geometries[vic->model == M6561_MODEL_6560];
    unsigned frames = 0;
    uint32_t n = vic->pending;
    vic->pending = 0;
    while (n) {
        if (vic->cycle == 0) start_line(vic, g);
        unsigned c0 = vic->cycle;
        uint32_t k = g->cycles_per_line - c0;
        if (k > n) k = n;
        display_span(vic, g, c0, c0 + k);
        if (!vic->sound_off) sound_span(vic, g, k);
        vic->ticks += k;
        n -= k;
        vic->cycle = (uint16_t)(c0 + k);
        if (vic->cycle < g->cycles_per_line) break;
        vic->cycle = 0;
        end_of_line(vic);
        if (++vic->line < g->lines_per_frame) continue;
        vic->line = 0;
        vic->row_done = 0;
        vic->row_active = 0;
        vic->frame++;
        frames++;
        if (vic->frame_done) vic->frame_done(vic->user);
    }
    return frames;
}
