/* vic2_tables.c - what each cycle of a line does on each VIC-II model, the
 * beam's X coordinates, model geometry and the RGB palettes.
 *
 * Sources: Bauer's VIC-II article (section 3.6.3 timing diagrams, 3.8.1
 * sprite rules, 3.9 border comparisons) for the 6569; the sprite fetch and
 * BA cycles of the 6567R8 and 6567R56A and the cycles of the sprite DMA,
 * expansion and display checks follow VICE's measured x64sc chip tables
 * (vicii-chip-model.c), which agree with Bauer on the 6569. Facts only; the
 * tables are written out here in this chip's own encoding. */
#include <stddef.h>

#include "vic2.h"
#include "vic2_tables.h"

#define PTR(n) (VIC2_K_PTR | ((uint32_t)(n) << VIC2_SPR_SHIFT))
#define S1(n) (VIC2_K_S1 | ((uint32_t)(n) << VIC2_SPR_SHIFT))
#define BA(m) ((uint32_t)(m) << VIC2_BA_SHIFT)
#define RF VIC2_K_REFRESH
#define ID VIC2_K_IDLE
#define R VIC2_F_RENDER
/* Cycles 16-54 of every model: g-access, c-access, bad-line BA. */
#define GC (VIC2_K_G | VIC2_F_C | VIC2_F_BAF | R)
#define CH (VIC2_F_GFX | VIC2_F_NEWCHAR)
#define Q (GC | CH) /* 19-54 */
#define MID                                                                                  \
    /* 17 */ GC | CH | VIC2_F_BL1, /* 18 */ GC | CH | VIC2_F_BL0, /* 19 */ Q, Q, Q, Q, Q, Q,   \
        /* 25 */ Q, Q, Q, Q, Q, Q, Q, Q, Q, Q, /* 35 */ Q, Q, Q, Q, Q, Q, Q, Q, Q, Q,          \
        /* 45 */ Q, Q, Q, Q, Q, Q, Q, Q, Q, /* 54 */ Q
/* Cycles 11-16 (refresh, VC/RC start, MCBASE) are the same on all models. */
#define REFRESH_TO_16                                                                        \
    /* 11 */ RF, /* 12 */ RF | VIC2_F_BAF, /* 13 */ RF | VIC2_F_BAF | R,                       \
        /* 14 */ RF | VIC2_F_BAF | VIC2_F_VC | R,                                            \
        /* 15 */ RF | VIC2_F_BAF | VIC2_F_C | VIC2_F_CRUNCH | R,                             \
        /* 16 */ VIC2_K_G | VIC2_F_BAF | VIC2_F_C | VIC2_F_MCBASE | R

/* 6569 / 8565: 63 cycles. Sprite n's p-access in cycle 58+2n (mod 63), its
 * s-accesses in phase 2 of that cycle and both phases of the next; BA low
 * from 3 cycles before the first s-access to the last one. */
/* Cycles 1 and 2 (line start, LS) and the entry past the last cycle (END:
 * each table has one more than cycles) are for the tick's full path. */
#define LS VIC2_F_FULL
#define END VIC2_F_FULL
static const uint32_t cycles_pal[65] = {
    0,
    /* 1 */ PTR(3) | BA(0x18) | LS, S1(3) | BA(0x38) | LS, PTR(4) | BA(0x30), S1(4) | BA(0x70),
    /* 5 */ PTR(5) | BA(0x60), S1(5) | BA(0xE0), PTR(6) | BA(0xC0), S1(6) | BA(0xC0),
    /* 9 */ PTR(7) | BA(0x80), S1(7) | BA(0x80),
    REFRESH_TO_16,
    MID,
    /* 55 */ VIC2_K_G | BA(0x01) | VIC2_F_DMA | R | CH,
    /* 56 */ ID | BA(0x01) | VIC2_F_DMA | VIC2_F_EXP | VIC2_F_BR0 | R | CH,
    /* 57 */ ID | BA(0x03) | VIC2_F_BR1 | R | VIC2_F_GFX,
    /* 58 */ PTR(0) | BA(0x03) | VIC2_F_DISP | VIC2_F_RC | R,
    /* 59 */ S1(0) | BA(0x07) | R,
    /* 60 */ PTR(1) | BA(0x06) | R,
    /* 61 */ S1(1) | BA(0x0E) | R,
    /* 62 */ PTR(2) | BA(0x0C),
    /* 63 */ S1(2) | BA(0x1C) | VIC2_F_LAST,
    END,
};

/* 6567R8 / 8562: 65 cycles; sprite 0's p-access in cycle 59, sprites 3-7
 * one cycle earlier than on PAL, an idle access in cycle 10. */
static const uint32_t cycles_ntsc[67] = {
    0,
    /* 1 */ S1(3) | BA(0x38) | LS, PTR(4) | BA(0x30) | LS, S1(4) | BA(0x70), PTR(5) | BA(0x60),
    /* 5 */ S1(5) | BA(0xE0), PTR(6) | BA(0xC0), S1(6) | BA(0xC0), PTR(7) | BA(0x80),
    /* 9 */ S1(7) | BA(0x80), /* 10 */ ID,
    REFRESH_TO_16,
    MID,
    /* 55 */ VIC2_K_G | R | CH,
    /* 56 */ ID | BA(0x01) | VIC2_F_DMA | VIC2_F_EXP | VIC2_F_BR0 | R | CH,
    /* 57 */ ID | BA(0x01) | VIC2_F_DMA | VIC2_F_BR1 | R | VIC2_F_GFX,
    /* 58 */ ID | BA(0x03) | VIC2_F_RC | R,
    /* 59 */ PTR(0) | BA(0x03) | VIC2_F_DISP | R,
    /* 60 */ S1(0) | BA(0x07) | R,
    /* 61 */ PTR(1) | BA(0x06) | R,
    /* 62 */ S1(1) | BA(0x0E),
    /* 63 */ PTR(2) | BA(0x0C),
    /* 64 */ S1(2) | BA(0x1C),
    /* 65 */ PTR(3) | BA(0x18) | VIC2_F_LAST,
    END,
};

/* 6567R56A: 64 cycles; sprites 3-7 as on PAL, sprite 0's p-access in 59. */
static const uint32_t cycles_ntsc_old[66] = {
    0,
    /* 1 */ PTR(3) | BA(0x18) | LS, S1(3) | BA(0x38) | LS, PTR(4) | BA(0x30), S1(4) | BA(0x70),
    /* 5 */ PTR(5) | BA(0x60), S1(5) | BA(0xE0), PTR(6) | BA(0xC0), S1(6) | BA(0xC0),
    /* 9 */ PTR(7) | BA(0x80), S1(7) | BA(0x80),
    REFRESH_TO_16,
    MID,
    /* 55 */ VIC2_K_G | R | CH,
    /* 56 */ ID | BA(0x01) | VIC2_F_DMA | VIC2_F_EXP | VIC2_F_BR0 | R | CH,
    /* 57 */ ID | BA(0x01) | VIC2_F_DMA | VIC2_F_BR1 | R | VIC2_F_GFX,
    /* 58 */ ID | BA(0x03) | VIC2_F_DISP | VIC2_F_RC | R,
    /* 59 */ PTR(0) | BA(0x03) | R,
    /* 60 */ S1(0) | BA(0x07) | R,
    /* 61 */ PTR(1) | BA(0x06) | R,
    /* 62 */ S1(1) | BA(0x0E),
    /* 63 */ PTR(2) | BA(0x0C),
    /* 64 */ S1(2) | BA(0x1C) | VIC2_F_LAST,
    END,
};

/* Framebuffer: PAL rows are lines 16-287 (VICE's normal border size);
 * NTSC rows are the visible lines 41..last and then 0-12 (Bauer's vblank
 * is lines 13-40), 235 rows on the 6567R8 and 234 on the 6567R56A. */
const vic2_timing m6569_timings[3] = {
    {cycles_pal, 63, 312, 16, 272, VIC2_XMAP_PAL},
    {cycles_ntsc, 65, 263, 41, 235, VIC2_XMAP_NTSC},
    {cycles_ntsc_old, 64, 262, 41, 234, VIC2_XMAP_NTSC_OLD},
};

/* X coordinates (sprite coordinate system). Cycle 1 phase 1 starts at $194
 * (PAL) or $19C (NTSC); X $000 starts in phase 2 of cycle 13 on all models,
 * so from there X = P - 100. PAL skips $1F8-$1FF; the 6567R8 repeats
 * $184-$187 twice (8 extra pixels in phase 2 of cycle 62 and phase 1 of 63). */
int m6569_x_to_pos(unsigned xmap, unsigned x)
{
    x &= 0x1FF;
    switch (xmap) {
    case VIC2_XMAP_PAL:
        if (x >= 0x194) return x <= 0x1F7 ? (int)(x - 0x194) : -1;
        return (int)x + 100;
    case VIC2_XMAP_NTSC:
        if (x >= 0x19C) return (int)(x - 0x19C);
        if (x <= 0x187) return (int)x + 100;
        return (int)x + 108;
    default:
        if (x >= 0x19C) return (int)(x - 0x19C);
        return (int)x + 100;
    }
}

unsigned m6569_pos_to_x(unsigned xmap, unsigned pos)
{
    switch (xmap) {
    case VIC2_XMAP_PAL:
        return pos < 100 ? 0x194 + pos : pos - 100;
    case VIC2_XMAP_NTSC:
        if (pos < 100) return 0x19C + pos;
        if (pos < 492) return pos - 100;
        if (pos < 500) return 0x184 + (pos & 3);
        return pos - 108;
    default:
        return pos < 100 ? 0x19C + pos : pos - 100;
    }
}

static const m6569_geometry geometries[M6569_MODEL_COUNT] = {
    {63, 312, 63 * 312, M6569_FB_WIDTH, 272, 16, 32, 35, 13},
    {63, 312, 63 * 312, M6569_FB_WIDTH, 272, 16, 32, 35, 13},
    {65, 263, 65 * 263, M6569_FB_WIDTH, 235, 41, 32, 10, 13},
    {65, 263, 65 * 263, M6569_FB_WIDTH, 235, 41, 32, 10, 13},
    {64, 262, 64 * 262, M6569_FB_WIDTH, 234, 41, 32, 10, 13},
};

static const char *const model_names[M6569_MODEL_COUNT] = {
    "6569", "8565", "6567R8", "8562", "6567R56A",
};

const m6569_geometry *m6569_geometry_of(m6569_model model)
{
    if ((unsigned)model >= M6569_MODEL_COUNT) return NULL;
    return &geometries[model];
}

const char *m6569_model_name(m6569_model model)
{
    if ((unsigned)model >= M6569_MODEL_COUNT) return NULL;
    return model_names[model];
}

/* Pepto's 2001 PAL palette (www.pepto.de/projects/colorvic/2001, VICE's
 * "pepto-pal") and his 2017 colodore.com palette. */
static const uint32_t palette_pepto[16] = {
    0x000000, 0xFFFFFF, 0x68372B, 0x70A4B2, 0x6F3D86, 0x588D43, 0x352879, 0xB8C76F,
    0x6F4F25, 0x433900, 0x9A6759, 0x444444, 0x6C6C6C, 0x9AD284, 0x6C5EB5, 0x959595,
};

static const uint32_t palette_colodore[16] = {
    0x000000, 0xFFFFFF, 0x813338, 0x75CEC8, 0x8E3C97, 0x56AC4D, 0x2E2C9B, 0xEDF171,
    0x8E5029, 0x553800, 0xC46C71, 0x4A4A4A, 0x7B7B7B, 0xA9FF9F, 0x706DEB, 0xB2B2B2,
};

const uint32_t *m6569_palette(m6569_palette_id id)
{
    return id == M6569_PALETTE_COLODORE ? palette_colodore : palette_pepto;
}
