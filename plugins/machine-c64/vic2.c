/* vic2.c - the VIC-II: init/reset, the per-cycle engine, registers, light
 * pen and links. What each cycle does comes from the model's cycle table
 * (vic2_tables.c); this file holds the rules (Bauer's article, sections
 * 3.5-3.12) and the pixel path.
 *
 * Pixels are handled 8 at a time as uint64_t values, one palette index per
 * byte, byte 0 = leftmost pixel. */
#include <stddef.h>
#include <string.h>

#include "vic2.h"
#include "vic2_events.h"
#include "vic2_tables.h"

#define ONES 0x0101010101010101ull

/* ---- 8-pixel helpers -------------------------------------------------- */

/* 0xFF in byte j where bit 7-j of b is set (pixel j = bit 7-j). */
static inline uint64_t expand_bits(unsigned b)
{
    uint64_t p = (uint64_t)(b & 0xFFu) * 0x8040201008040201ull;
    return ((p >> 7) & ONES) * 0xFFu;
}

static inline uint64_t splat(unsigned colour)
{
    return (uint64_t)(colour & 15u) * ONES;
}

static inline uint64_t blend(uint64_t a, uint64_t b, uint64_t m)
{
    return (a & ~m) | (b & m);
}

static inline void store8(uint8_t *dst, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(dst, &v, 8);
}

static inline uint64_t load8(const uint8_t *src)
{
    uint64_t v;
    memcpy(&v, src, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

/* Multicolour: 4 double-wide pixels from bit pairs 7-6, 5-4, 3-2, 1-0.
 * hi/lo: 0xFF in both bytes of a pair whose high/low bit is set. */
static inline void mc_masks(unsigned g, uint64_t *hi, uint64_t *lo)
{
    uint64_t h = expand_bits(g & 0xAAu);
    uint64_t l = expand_bits(g & 0x55u);
    *hi = h | (h << 8);
    *lo = l | (l >> 8);
}

static inline uint64_t mc_pixels(uint64_t hi, uint64_t lo, unsigned c00, unsigned c01,
                                 unsigned c10, unsigned c11)
{
    return (splat(c00) & ~hi & ~lo) | (splat(c01) & ~hi & lo) | (splat(c10) & hi & ~lo) |
           (splat(c11) & hi & lo);
}

/* One character (or bitmap cell) in the current mode: 8 colours and the
 * foreground mask (Bauer 3.7.3 and 3.8.2: with MCM, "10"/"11" are
 * foreground; the invalid modes are black but keep their foreground). */
static void render_cell(const m6569 *v, unsigned g, unsigned c, uint64_t *px, uint64_t *fg)
{
    const unsigned mode = ((v->reg[0x11] >> 4) & 6u) | ((v->reg[0x16] >> 4) & 1u);
    const unsigned bg0 = v->reg[0x21];
    uint64_t m, hi, lo;
    if (mode == 0) { /* standard text, the usual mode: no jump table */
        m = expand_bits(g);
        *fg = m;
        *px = blend(splat(bg0), splat(c >> 8), m);
        return;
    }
    switch (mode) {
    case 1: /* multicolour text */
        if (c & 0x800u) {
            mc_masks(g, &hi, &lo);
            *fg = hi;
            *px = mc_pixels(hi, lo, bg0, v->reg[0x22], v->reg[0x23], (c >> 8) & 7u);
        } else {
            m = expand_bits(g);
            *fg = m;
            *px = blend(splat(bg0), splat((c >> 8) & 7u), m);
        }
        return;
    case 2: /* standard bitmap */
        m = expand_bits(g);
        *fg = m;
        *px = blend(splat(c), splat(c >> 4), m);
        return;
    case 3: /* multicolour bitmap */
        mc_masks(g, &hi, &lo);
        *fg = hi;
        *px = mc_pixels(hi, lo, bg0, c >> 4, c, c >> 8);
        return;
    case 4: /* ECM text */
        m = expand_bits(g);
        *fg = m;
        *px = blend(splat(v->reg[0x21 + ((c >> 6) & 3u)]), splat(c >> 8), m);
        return;
    case 5: /* invalid text: black, multicolour-text foreground */
        if (c & 0x800u) {
            mc_masks(g, &hi, &lo);
            *fg = hi;
        } else {
            *fg = expand_bits(g);
        }
        *px = 0;
        return;
    case 6: /* invalid bitmap 1 */
        *fg = expand_bits(g);
        *px = 0;
        return;
    default: /* invalid bitmap 2 */
        mc_masks(g, &hi, &lo);
        *fg = hi;
        *px = 0;
        return;
    }
}

/* ---- small helpers ---------------------------------------------------- */

static inline const vic2_timing *timing_of(const m6569 *v)
{
    return &m6569_timings[v->timing];
}

static inline void update_irq(m6569 *v)
{
    v->irq = (v->irq_latch & v->irq_mask & 0x0Fu) ? 1u : 0u;
}

static inline uint8_t fetch(m6569 *v, uint16_t addr)
{
    return v->links.fetch(v->links.user, addr);
}

/* Where sprite i's X coordinate falls: cycle and pixel (spr_at masks). */
static void sprite_x_update(m6569 *v, unsigned i)
{
    const vic2_timing *t = timing_of(v);
    const uint8_t bit = (uint8_t)(1u << i);
    if (v->spr_xtick[i]) v->spr_at[v->spr_xtick[i]] &= (uint8_t)~bit;
    unsigned x = v->reg[2 * i] | (((unsigned)v->reg[0x10] >> i & 1u) << 8);
    int pos = m6569_x_to_pos(t->xmap, x);
    if (pos < 0) {
        v->spr_xtick[i] = 0;
        v->spr_xoff[i] = 0;
        return;
    }
    unsigned p = (unsigned)pos + 5u;
    unsigned tick = (p >> 3) % t->cycles + 1u;
    v->spr_xtick[i] = (uint8_t)tick;
    v->spr_xoff[i] = (uint8_t)(p & 7u);
    v->spr_at[tick] |= bit;
}

static int16_t fb_row_of(const m6569 *v, unsigned line)
{
    const vic2_timing *t = timing_of(v);
    unsigned row = line >= t->fb_first_line ? line - t->fb_first_line
                                            : line + t->lines - t->fb_first_line;
    return row < t->fb_height ? (int16_t)row : (int16_t)-1;
}

/* The per-cycle path's view of fb_row and the framebuffer link. */
static void fb_line_update(m6569 *v)
{
    v->links.fb_line = (v->fb_row >= 0 && v->links.framebuffer)
                           ? v->links.framebuffer + (size_t)v->fb_row * v->links.fb_pitch
                           : NULL;
}

/* Bauer 3.9 rules 2-5: the vertical border flip flop at the last cycle and
 * at the left comparison. */
static inline void vertical_check(m6569 *v)
{
    const unsigned r11 = v->reg[0x11];
    const unsigned rsel = r11 & 0x08u;
    if (v->raster == (rsel ? 251u : 247u)) v->vert_border = 1;
    if (v->raster == (rsel ? 51u : 55u) && (r11 & 0x10u)) v->vert_border = 0;
}

/* Bauer 3.5: the bad line condition (RASTER $30-$F7, RASTER & 7 ==
 * YSCROLL, DEN seen in line $30). Its inputs change only at a line start
 * and with a $D011 write, so it is evaluated there, for the ticks after. */
static inline void bad_line_eval(m6569 *v)
{
    const unsigned r11 = v->reg[0x11];
    const unsigned raster = v->raster;
    if (raster == 0x30 && (r11 & 0x10u)) v->den_latch = 1;
    v->bl_next = (uint8_t)(v->den_latch && raster >= 0x30 && raster <= 0xF7 &&
                           (raster & 7u) == (r11 & 7u));
}

/* ---- sprite rules (Bauer 3.8.1, with VICE's cycle-16/58 split) -------- */

/* Bit n set where sprite n's Y register ($D001 + 2n) equals y: the eight
 * compared at once, as the odd bytes of reg[0..15]. */
static inline unsigned sprite_y_match(const m6569 *v, unsigned y)
{
    const uint64_t lo7 = 0x7F7F7F7F7F7F7F7Full, yy = (uint64_t)(y & 0xFFu) * ONES;
    unsigned hit = 0;
    for (unsigned h = 0; h < 2; h++) {
        const uint64_t d = load8(&v->reg[8u * h]) ^ yy; /* 0 where equal */
        const uint64_t zero = ~((((d & lo7) + lo7) | d) | lo7); /* bit 7 of each 0 byte */
        /* bytes 1, 3, 5, 7 (bits 15, 31, 47, 63) to bits 48-51 */
        const uint64_t odd = (zero >> 15) & 0x0001000100010001ull;
        hit |= (unsigned)(((odd * 0x0001000200040008ull) >> 48) & 15u) << (4u * h);
    }
    return hit;
}

static void sprite_dma_check(m6569 *v)
{
    const unsigned cand = v->reg[0x15] & (unsigned)~v->spr_dma & 0xFFu;
    if (!cand) return;
    const unsigned start = cand & sprite_y_match(v, v->raster);
    if (!start) return;
    v->spr_dma |= (uint8_t)start;
    v->spr_exp_ff |= (uint8_t)start;
    for (unsigned m = start; m; m &= m - 1u) v->mcbase[__builtin_ctz(m)] = 0;
    if (mh_event_listening(v->links.events)) /* detail: the sprites whose DMA began */
        mh_event_emit(v->links.events, MH_CHIP_EV_SPRITE_DMA, "vic2", start);
}

static void sprite_mcbase_update(m6569 *v)
{
    unsigned m = v->spr_exp_ff & v->spr_dma;
    for (unsigned i = 0; m; i++, m >>= 1) {
        if (!(m & 1u)) continue;
        const unsigned bit = 1u << i;
        if (v->spr_exp_ff15 & bit) {
            v->mcbase[i] = v->mc[i];
        } else {
            /* Sprite crunch: YE cleared by the CPU in cycle 15. */
            v->mcbase[i] = (uint8_t)((0x2Au & (v->mcbase[i] & v->mc[i])) |
                                     (0x15u & (v->mcbase[i] | v->mc[i])));
        }
        if (v->mcbase[i] == 63) v->spr_dma &= (uint8_t)~bit;
    }
}

static void sprite_display_check(m6569 *v)
{
    memcpy(v->mc, v->mcbase, sizeof v->mc);
    v->spr_disp = (uint8_t)((v->spr_disp & v->spr_dma) |
                            (v->spr_dma & v->reg[0x15] & sprite_y_match(v, v->raster)));
}

/* ---- line and frame start --------------------------------------------- */

static void lightpen_latch(m6569 *v, unsigned pos, unsigned line, unsigned early);
/* Where in line 0 the frame start re-arms the latch: 14 pixels in, in
 * cycle 2 (the 6569R3 dump of split-tests/lightpen: a pen held low across
 * the frame start latches X = $D1, Y = 0). */
#define LP_FRAME_START_POS 14u


static void line_start(m6569 *v, unsigned n)
{
    const vic2_timing *t = timing_of(v);
    if (n == 1) {
        v->line_colors[v->frame & 1u][v->raster] =
            (uint8_t)((v->reg[0x20] & 0x0Fu) | (v->reg[0x21] << 4));
        if (v->raster + 1u >= t->lines) {
            /* Line 0: RASTER (and its IRQ) change one cycle later. */
            v->frame_wrap = 1;
            v->fb_row = fb_row_of(v, 0);
            fb_line_update(v);
        } else {
            v->raster++;
            v->fb_row = fb_row_of(v, v->raster);
            fb_line_update(v);
        }
    } else if (v->frame_wrap) {
        v->frame_wrap = 0;
        v->raster = 0;
        v->frame++;
        v->vcbase = 0;
        v->vc = 0;
        v->refresh = 0xFF;
        v->den_latch = 0;
        v->lp_triggered = 0;
        if (v->lp_low) lightpen_latch(v, LP_FRAME_START_POS, 0, 0);
    }
}

/* ---- the cycle -------------------------------------------------------- */

/* coll_work: what the collision latch has to do at the next tick. */
#define COLL_PENDING 0x01u /* mm_next/md_next hold pixels 1-7 of last tick */
#define COLL_DROP_MM 0x04u /* this tick: a $D01E read's reset swallows pixel 0 */
#define COLL_DROP_MD 0x08u /* ... $D01F */
#define COLL_READ_MM 0x10u /* $D01E read in this cycle: drop at the next tick */
#define COLL_READ_MD 0x20u

/* Collisions reach $D01E/$D01F: the IRQ bit rises with the first one after
 * the register was cleared. */
static void coll_latch(m6569 *v, uint8_t mm, uint8_t md)
{
    if (mh_event_listening(v->links.events))
        vic2_report_collisions(v, mm, md, v->mm_coll, v->md_coll);
    if (mm) {
        if (!v->mm_coll) v->irq_latch |= M6569_INT_MMC;
        v->mm_coll |= mm;
    }
    if (md) {
        if (!v->md_coll) v->irq_latch |= M6569_INT_MBC;
        v->md_coll |= md;
    }
    v->mm_next = 0;
    v->md_next = 0;
    update_irq(v);
}

/* The reload of a sprite's shift register by its own s-accesses (the die
 * analysis in docs/vic2.md "Sprite reload"): in its p-access cycle the
 * reload lands at pixel SPR_RELOAD_PIXEL. A sequencer still shifting there
 * shows that pixel, holds it through pixel 1 of the next cycle and goes
 * dark: the rest of its row is lost. An X match from the pixel after the
 * reload to the end of the next cycle starts nothing (filtered before). */
#define SPR_RELOAD_PIXEL 3u
#define SPR_HOLD_TAIL 2u /* held pixels in the s-access cycle */

/* A sprite's pixels in one cycle: colour bit 1 of pixel j in bit 15-j,
 * colour bit 0 in bit 7-j (%01 multicolour 0, %10 the sprite's colour,
 * %11 multicolour 1; a hi-res pixel is %10), so each byte is a pixel mask
 * as expand_table takes it. */
static inline unsigned spr_put(unsigned px, unsigned j, unsigned val)
{
    return px | ((val >> 1 & 1u) << (15u - j)) | ((val & 1u) << (7u - j));
}

/* Sprite i at an X match in this cycle: unless its sequencer still shifts
 * over the match (shifting: spr_shift as of this cycle) and goes on with
 * its row, its shift register loads and it starts at the match's pixel,
 * which is returned (0 when it goes on). */
static inline unsigned sprite_start(m6569 *v, unsigned i, unsigned w, unsigned shifting)
{
    const unsigned js = v->spr_xoff[i];
    if ((shifting >> i & 1u) && w - v->spr_pix[i] > js) return 0;
    v->spr_sr[i] = v->spr_buf[i];
    v->spr_buf[i] = 0;
    v->spr_pix[i] = 0;
    return js;
}

/* Sprite i in the cycle of its own p-access (kind VIC2_K_PTR) or s-access
 * 1 (VIC2_K_S1), pixel by pixel (a rare cycle); returns its pixels
 * (spr_put). */
static __attribute__((noinline)) unsigned sprite_reload(m6569 *v, unsigned i, unsigned kind,
                                                        unsigned start)
{
    const uint8_t bit = (uint8_t)(1u << i);
    const unsigned xe = (v->reg[0x1D] >> i) & 1u, w = 24u << xe;
    const unsigned mc = (v->reg[0x1C] >> i) & 1u;
    unsigned j = start ? sprite_start(v, i, w, v->spr_shift) : 0u, px = 0;
    if (kind == VIC2_K_S1) {
        /* its tail: the held pixel to the end of the hold, then dark */
        if (v->spr_held & bit) {
            const unsigned hv = v->spr_hold_val[i];
            for (j = 0; hv && j < SPR_HOLD_TAIL; j++) px = spr_put(px, j, hv);
        }
        v->spr_held &= (uint8_t)~bit;
        v->spr_shift &= (uint8_t)~bit;
        return px;
    }
    /* the reload at pixel SPR_RELOAD_PIXEL */
    const uint32_t sr = v->spr_sr[i];
    unsigned pix = v->spr_pix[i];
    unsigned hv = 0, shown = 0, clip = 0;
    for (; j <= SPR_RELOAD_PIXEL && pix < w; j++, pix++) {
        unsigned val;
        if (mc) {
            val = (sr >> (22u - 2u * (pix >> (1u + xe)))) & 3u;
            /* a pair loaded on the pixel before the reload keeps only its
             * high bit, as a hi-res pixel (%01 transparent, %1x own colour) */
            if (j + 1u == SPR_RELOAD_PIXEL && !(pix & ((2u << xe) - 1u))) clip = 1;
            if (clip) val &= 2u;
        } else {
            val = (sr >> (23u - (pix >> xe))) & 1u ? 2u : 0u;
        }
        px = spr_put(px, j, val);
        hv = val;
        shown = j == SPR_RELOAD_PIXEL;
    }
    if (shown) {
        for (j = SPR_RELOAD_PIXEL + 1u; hv && j < 8; j++) px = spr_put(px, j, hv);
        v->spr_held |= bit;
        v->spr_hold_val[i] = (uint8_t)hv;
        v->spr_shift |= bit;
    } else {
        v->spr_shift &= (uint8_t)~bit;
    }
    v->spr_pix[i] = (uint8_t)w;
    return px;
}

/* Each bit of b doubled (bit k -> bits 2k+1, 2k): X expansion. */
#define DBL1(b) ((uint16_t)(((b) >> 7 & 1u) * 0xC000u | ((b) >> 6 & 1u) * 0x3000u |             \
                            ((b) >> 5 & 1u) * 0x0C00u | ((b) >> 4 & 1u) * 0x0300u |             \
                            ((b) >> 3 & 1u) * 0x00C0u | ((b) >> 2 & 1u) * 0x0030u |             \
                            ((b) >> 1 & 1u) * 0x000Cu | ((b) & 1u) * 0x0003u))
#define DBL4(b) DBL1(b), DBL1((b) + 1u), DBL1((b) + 2u), DBL1((b) + 3u)
#define DBL16(b) DBL4(b), DBL4((b) + 4u), DBL4((b) + 8u), DBL4((b) + 12u)
#define DBL64(b) DBL16(b), DBL16((b) + 16u), DBL16((b) + 32u), DBL16((b) + 48u)
static const uint16_t double_table[256] = {DBL64(0u), DBL64(64u), DBL64(128u), DBL64(192u)};

/* The 8 pixels from pixel pix of a sprite row, pixel pix at bit 7: t
 * holds the row's colour bit 1 in bits 32-55 and its colour bit 0 in bits
 * 0-23 (bit 23 of each shown first, each bit two pixels wide when xe);
 * returns colour bit 1 in bits 8-15, colour bit 0 in bits 0-7. pix lies in
 * the row (< 24 << xe), so neither half reaches into the other's byte. */
static inline unsigned sprite_cut(uint64_t t, unsigned pix, unsigned xe)
{
    if (!xe) {
        t <<= pix;
        return (unsigned)((t >> 40) & 0xFF00u) | (unsigned)((t >> 16) & 0xFFu);
    }
    t <<= pix >> 1;
    const unsigned h = double_table[(t >> 48) & 0xFFu], l = double_table[(t >> 16) & 0xFFu];
    const unsigned odd = pix & 1u;
    return ((h << odd) & 0xFF00u) | (((l << odd) >> 8) & 0xFFu);
}

/* Sprite i in a cycle without its reload, from pixel j of the cycle
 * (0, or where it started): the pixels its sequencer puts out (spr_put),
 * word-wide; *shifting gets its bit of spr_shift after the cycle. */
static inline unsigned sprite_shift(m6569 *v, unsigned i, unsigned j, unsigned xe, unsigned mc,
                                    unsigned *shifting)
{
    const unsigned w = 24u << xe;
    const uint32_t sr = v->spr_sr[i];
    unsigned pix = v->spr_pix[i], px = 0;
    if (sr) {
        /* pixels j .. j+n-1 from pixel pix of the row (j past the cycle's
         * end only from a snapshot's X offset) */
        const unsigned n = (j < 8u && pix < w) ? (w - pix < 8u - j ? w - pix : 8u - j) : 0u;
        if (n) {
            uint64_t t = (uint64_t)sr << 32; /* hi-res: colour bit 1 */
            if (mc) {
                /* multicolour: each pair's bits over both its pixels */
                const uint32_t hi = sr & 0xAAAAAAu, lo = sr & 0x555555u;
                t = (uint64_t)(hi | hi >> 1) << 32 | (lo | lo << 1);
            }
            /* past the row's end the cut is 0 */
            px = sprite_cut(t, pix, xe);
            if (j) px = (px >> j) & ((0xFFu >> j) * 0x101u);
        }
        pix += n;
    } else {
        /* an empty register counts the cycle's pixels as the per-pixel
         * sequencer did, in unsigned arithmetic: past the row's end (X
         * expansion cleared mid-row) all of them */
        const unsigned left = w - pix, room = 8u - j;
        pix += room < left ? room : left;
    }
    v->spr_pix[i] = (uint8_t)pix;
    const unsigned bit = 1u << i;
    *shifting = pix < w ? *shifting | bit : *shifting & ~bit;
    return px;
}

/* 0xFF in byte j where bit 7-j of the index is set: expand_bits() as a
 * table, for the runs' standard text and the sprites' pixel masks. */
#define EXP1(b) ((((b) >> 7 & 1ull) * 0xFFull) | (((b) >> 6 & 1ull) * 0xFF00ull) |          \
                 (((b) >> 5 & 1ull) * 0xFF0000ull) | (((b) >> 4 & 1ull) * 0xFF000000ull) |    \
                 (((b) >> 3 & 1ull) * 0xFF00000000ull) |                                    \
                 (((b) >> 2 & 1ull) * 0xFF0000000000ull) |                                  \
                 (((b) >> 1 & 1ull) * 0xFF000000000000ull) | (((b) & 1ull) * 0xFF00000000000000ull))
#define EXP4(b) EXP1(b), EXP1((b) + 1u), EXP1((b) + 2u), EXP1((b) + 3u)
#define EXP16(b) EXP4(b), EXP4((b) + 4u), EXP4((b) + 8u), EXP4((b) + 12u)
#define EXP64(b) EXP16(b), EXP16((b) + 16u), EXP16((b) + 32u), EXP16((b) + 48u)
static const uint64_t expand_table[256] = {EXP64(0u), EXP64(64u), EXP64(128u), EXP64(192u)};

#define LOW7 0x7F7F7F7F7F7F7F7Full

/* Bit 7 of each byte of m that is not 0, the rest clear. */
static inline uint64_t nonzero_bytes(uint64_t m)
{
    return (((m & LOW7) + LOW7) | m) & ~LOW7;
}

/* Bit 7-j set where byte j of m is not 0 (pixel j, as expand_table). */
static inline unsigned pixel_bits(uint64_t m)
{
    return (unsigned)(((nonzero_bytes(m) >> 7) * 0x8040201008040201ull) >> 56);
}

/* Bit i set where byte i of m is not 0 (sprite i). */
static inline unsigned sprite_bits(uint64_t m)
{
    return (unsigned)(((nonzero_bytes(m) >> 7) * 0x0102040810204080ull) >> 56);
}

/* The colours of sprite i's pixels px (spr_put), per byte (bytes without
 * a pixel: any colour). */
static inline uint64_t sprite_colours(const m6569 *v, unsigned i, unsigned px)
{
    uint64_t c = splat(v->reg[0x27 + i]);
    if (px & 0xFFu) {
        /* multicolour: %01 MM0, %11 MM1 */
        const uint64_t h = expand_table[px >> 8], l = expand_table[px & 0xFFu];
        const uint64_t mm0 = splat(v->reg[0x25]);
        c = mm0 ^ ((mm0 ^ c) & h);
        c = c ^ ((c ^ splat(v->reg[0x26])) & h & l);
    }
    return c;
}

/* The cycle's collisions (bit n: sprite n), pixel 0 in the high byte,
 * pixels 1-7 in the low one: pixel 0 latches now, pixels 1-7 at the next
 * tick; a register read in the last cycle still holds its reset over
 * pixel 0. */
static inline void coll_pixels(m6569 *v, unsigned mm, unsigned md)
{
    if (v->coll_work & COLL_DROP_MM) mm &= 0xFFu;
    if (v->coll_work & COLL_DROP_MD) md &= 0xFFu;
    if ((mm | md) & 0xFF00u) coll_latch(v, (uint8_t)(mm >> 8), (uint8_t)(md >> 8));
    if ((mm | md) & 0xFFu) {
        v->mm_next |= (uint8_t)mm;
        v->md_next |= (uint8_t)md;
        v->coll_work |= COLL_PENDING;
    }
}

/* The sprites of a cycle over the graphics (gpx, foreground gfg): their
 * sequencers, priorities and collisions; *out gets the mixed pixels when
 * any sprite pixel shows. Out of line: most cycles have no sprite, and the
 * per-cycle path stays small without it.
 * Word-wide: each sprite's 8 pixels of the cycle are two 8-bit masks cut
 * from its shift register (spr_put); the sprites are painted front to
 * back into 8-byte colour and behind-foreground words, and the collisions
 * are pixel masks. */
static __attribute__((noinline)) void sprite_pixels(m6569 *v, uint32_t f, uint8_t starting,
                                                    uint64_t gpx, uint64_t gfg, uint64_t *out)
{
    /* The sprite whose s-accesses reload its shift register around
     * this cycle (p-access: the reload at pixel 3; s-access 1: its
     * tail); an X match under the reload is lost. */
    const unsigned kind = f & VIC2_K_MASK;
    unsigned rs = 8u;
    if (kind == VIC2_K_PTR || kind == VIC2_K_S1) {
        rs = (f >> VIC2_SPR_SHIFT) & 7u;
        if ((starting >> rs & 1u) && (kind == VIC2_K_S1 || v->spr_xoff[rs] > SPR_RELOAD_PIXEL))
            starting &= (uint8_t)~(1u << rs);
    }
    unsigned shifting = v->spr_shift;
    unsigned active = shifting | starting;
    if (!(active & (active - 1u))) {
        /* one sprite (most cycles with sprites): no sprite-sprite
         * collision, nothing in front of it */
        if (!active) return;
        const unsigned i = (unsigned)__builtin_ctz(active);
        if (i != rs) {
            const unsigned xe = (v->reg[0x1D] >> i) & 1u;
            const unsigned j = starting ? sprite_start(v, i, 24u << xe, shifting) : 0u;
            const unsigned px = sprite_shift(v, i, j, xe, (v->reg[0x1C] >> i) & 1u, &shifting);
            v->spr_shift = (uint8_t)shifting;
            if (!px) return;
            const uint64_t e = expand_table[(px | px >> 8) & 0xFFu];
            uint64_t show = e;
            if (v->reg[0x1B] >> i & 1u) show &= ~expand_table[pixel_bits(gfg)];
            *out = blend(gpx, sprite_colours(v, i, px), show);
            /* its pixels over the foreground: pixel 0 is byte 0 */
            const uint64_t over = e & gfg;
            if (over)
                coll_pixels(v, 0, (over & 0xFFu ? 0x100u << i : 0u) | (over >> 8 ? 1u << i : 0u));
            return;
        }
    }
    uint64_t col = 0, behind = 0; /* the front sprite's colour, its MDP, per byte */
    uint64_t shown = 0;           /* byte i: sprite i's pixels (bit 7-j = pixel j) */
    unsigned seen = 0, dup = 0;   /* pixels with a sprite, with two or more */
    /* front to back: sprite 0 first; a sprite paints only pixels no sprite
     * in front of it has */
    while (active) {
        const unsigned i = (unsigned)__builtin_ctz(active);
        active &= active - 1u;
        unsigned px;
        if (i == rs) {
            v->spr_shift = (uint8_t)shifting;
            px = sprite_reload(v, i, kind, starting >> i & 1u);
            shifting = v->spr_shift;
        } else {
            const unsigned xe = (v->reg[0x1D] >> i) & 1u;
            const unsigned j = (starting >> i & 1u) ? sprite_start(v, i, 24u << xe, shifting) : 0u;
            px = sprite_shift(v, i, j, xe, (v->reg[0x1C] >> i) & 1u, &shifting);
        }
        if (!px) continue;
        const unsigned m = (px | px >> 8) & 0xFFu;
        shown |= (uint64_t)m << (8u * i);
        dup |= seen & m;
        const unsigned front = m & ~seen; /* the pixels it shows */
        seen |= m;
        if (!front) continue;
        const uint64_t e = expand_table[front];
        col |= sprite_colours(v, i, px) & e;
        if (v->reg[0x1B] >> i & 1u) behind |= e;
    }
    v->spr_shift = (uint8_t)shifting;
    if (!seen) return;
    const unsigned fg = pixel_bits(gfg);
    *out = blend(gpx, col, expand_table[seen] & ~(behind & expand_table[fg]));
    /* collisions: the sprites with a pixel in dup / fg */
    unsigned mm = 0, md = 0;
    if (dup)
        mm = sprite_bits(shown & ((dup & 0x80u) * ONES)) << 8 |
             sprite_bits(shown & ((dup & 0x7Fu) * ONES));
    if (seen & fg)
        md = sprite_bits(shown & ((fg & 0x80u) * ONES)) << 8 |
             sprite_bits(shown & ((fg & 0x7Fu) * ONES));
    coll_pixels(v, mm, md);
}

/* The 8 pixels of cycle n (x = 8(n-13)-1) into the row, clipped to it. */
static inline void store_cycle(uint8_t *row, unsigned n, uint64_t out)
{
    const int x = 8 * ((int)n - 13) - 1;
    if (x >= 0 && x + 8 <= M6569_FB_WIDTH) {
        store8(row + x, out);
    } else {
        uint8_t o8[8];
        store8(o8, out);
        for (int j = 0; j < 8; j++)
            if (x + j >= 0 && x + j < M6569_FB_WIDTH) row[x + j] = o8[j];
    }
}

/* The 8 pixels of cycle n: graphics sequencer, sprites, priorities,
 * collisions, border; written to the framebuffer when visible. */
static inline void pixels_now(m6569 *v, unsigned n, uint32_t f, uint8_t mb0, int chg)
{
    const uint64_t bg = splat(v->reg[0x21]);
    uint64_t gpx;
    /* The foreground mask matters only to sprites: its parts are kept and
     * it is put together only when a sprite shows (gfg below). */
    uint64_t fg_old = 0, fg_new = 0;
    unsigned fg_shift = 0; /* 0: fg_old as it is */

    /* Graphics sequencer: the character fetched in the previous cycle
     * starts at pixel 1 + XSCROLL (a new one every 8 pixels). */
    /* Past cycle 18 (the last left-border compare) the vertical border
     * flip flop stays as it is up to cycle 63, past the sequencer's last
     * cycle (57): under it the sequencer's pixels are never seen, and the
     * cycles after 57 restart it with the background. */
    if ((f & VIC2_F_GFX) && !(v->vert_border && n > 18u)) {
        uint64_t npx = bg, nfg = 0;
        if (f & VIC2_F_NEWCHAR) render_cell(v, v->g_line[n - 1u], v->c_line[n - 1u], &npx, &nfg);
        const unsigned o = 1u + (v->reg[0x16] & 7u);
        fg_old = v->seq_fg;
        if (o == 8) {
            gpx = v->seq_px;
        } else {
            const unsigned s = 8u * o;
            gpx = (v->seq_px >> (64u - s)) | (npx << s);
            fg_new = nfg;
            fg_shift = s;
        }
        v->seq_px = npx;
        v->seq_fg = nfg;
    } else {
        gpx = bg;
        v->seq_px = bg;
        v->seq_fg = 0;
    }
    if (v->vert_border) {
        gpx = bg;
        fg_old = 0;
        fg_shift = 0;
    }

    uint8_t *const row = (f & VIC2_F_RENDER) ? v->links.fb_line : NULL;
    uint8_t starting = v->spr_at[n] & v->spr_disp;
    if (!row && !(v->spr_shift | starting)) return;

    uint64_t out = gpx;
    if (v->spr_shift | starting) {
        const uint64_t gfg =
            fg_shift ? (fg_old >> (64u - fg_shift)) | (fg_new << fg_shift) : fg_old;
        sprite_pixels(v, f, starting, gpx, gfg, &out);
    }
    if (!row) return;

    /* Border: the main flip flop, switched at pixel chg of this cycle. */
    uint64_t bmask;
    if (chg < 0) {
        bmask = v->main_border ? ~0ull : 0;
    } else {
        const uint64_t low = chg ? 0xFFull : 0;
        bmask = (mb0 ? low : 0) | (v->main_border ? ~low : 0);
    }
    if (bmask) out = blend(out, splat(v->reg[0x20]), bmask);

    store_cycle(row, n, out);
}

/* ---- Deferred pixels ----------------------------------------------------
 * A cycle of the framebuffer's window (VIC2_F_RENDER) with no sprite
 * shifting or starting and no border compare only leaves its g-access data
 * in g_line/c_line: its pixels are drawn later, in a run, by px_flush(). A
 * run ends (is drawn) before anything its pixels depend on changes: a
 * register write, a border compare, a sprite's cycle, the end of the
 * window, a framebuffer switch, a reset. Drawing earlier is always exact;
 * the registers and flip flops are then still those of the run's cycles. */



/* The sequencer after pending cycle n of a run (its character, or the
 * background outside the characters and under the vertical border). */
static void px_seq_after(m6569 *v, unsigned n)
{
    const uint32_t f = v->links.cyc[n];
    uint64_t npx = splat(v->reg[0x21]), nfg = 0;
    if ((f & VIC2_F_NEWCHAR) && !v->vert_border)
        render_cell(v, v->g_line[n - 1u], v->c_line[n - 1u], &npx, &nfg);
    v->seq_px = npx;
    v->seq_fg = nfg;
}

/* Draws the pending cycles px_from .. end-1: no sprite, no border compare
 * and the registers of the whole run, so the run's colours, mode and scroll
 * are worked out once. As pixels_now() with chg = -1. */
static __attribute__((noinline)) void px_flush(m6569 *v, unsigned end)
{
    unsigned n = v->px_from;
    v->px_from = 0;
    if (n >= end) return;
    uint8_t *const row = v->links.fb_line;
    const uint64_t bg = splat(v->reg[0x21]);
    if (row && (v->main_border || v->vert_border)) {
        /* one colour: the border, or the background under an opened side
         * border */
        const int x0 = 8 * ((int)n - 13) - 1, x1 = 8 * ((int)end - 13) - 1;
        const int from = x0 < 0 ? 0 : x0, to = x1 > M6569_FB_WIDTH ? M6569_FB_WIDTH : x1;
        if (to > from)
            memset(row + from, v->main_border ? v->reg[0x20] & 15 : v->reg[0x21] & 15,
                   (size_t)(to - from));
    }
    if (!row || v->main_border || v->vert_border) {
        px_seq_after(v, end - 1u);
        return;
    }
    const uint32_t *const cyc = v->links.cyc;
    const unsigned o = 1u + (v->reg[0x16] & 7u);
    const unsigned s = 8u * o;
    const unsigned mode = ((v->reg[0x11] >> 4) & 6u) | ((v->reg[0x16] >> 4) & 1u);
    uint64_t prev = v->seq_px, prev_fg = v->seq_fg;
    while (n < end) {
        if (mode == 0 && o != 8 && (cyc[n] & VIC2_F_NEWCHAR)) {
            /* standard text, scrolled: the usual screen. The characters'
             * cycles (17-56) lie inside the row: no clipping. */
            uint8_t *dst = row + 8u * (n - 13u) - 1u;
            for (; n < end && (cyc[n] & VIC2_F_NEWCHAR); n++, dst += 8) {
                const uint64_t m = expand_table[v->g_line[n - 1u]];
                const uint64_t npx = bg ^ ((bg ^ splat(v->c_line[n - 1u] >> 8)) & m);
                store8(dst, (prev >> (64u - s)) | (npx << s));
                prev = npx;
                prev_fg = m;
            }
            continue;
        }
        const uint32_t f = cyc[n];
        uint64_t npx = bg, nfg = 0;
        if (f & VIC2_F_GFX) {
            if (f & VIC2_F_NEWCHAR) {
                const unsigned g = v->g_line[n - 1u], c = v->c_line[n - 1u];
                if (mode == 0) {
                    nfg = expand_table[g];
                    npx = bg ^ ((bg ^ splat(c >> 8)) & nfg);
                } else {
                    render_cell(v, g, c, &npx, &nfg);
                }
            }
            store_cycle(row, n, o == 8 ? prev : (prev >> (64u - s)) | (npx << s));
        } else {
            store_cycle(row, n, bg);
        }
        prev = npx;
        prev_fg = nfg;
        n++;
    }
    v->seq_px = prev;
    v->seq_fg = prev_fg;
}

/* The tick's cycles whose pixels are drawn at once (a sprite, a border
 * compare, outside the window): out of line, the tick stays small. */
static __attribute__((noinline)) void pixels_at_once(m6569 *v, unsigned n, uint32_t f,
                                                     uint8_t mb0, int chg)
{
    pixels_now(v, n, f, mb0, chg);
}

/* Draws the pending cycles up to the current one (outside the tick). */
static void px_flush_now(m6569 *v)
{
    if (v->px_from) px_flush(v, v->cycle + 1u);
}

/* The per-cycle rules of the cycle table's event cycles (VIC2_F_EVENTS:
 * about 10 of a line's cycles). Out of line: the other cycles' path stays
 * small. Returns the pixel where the main border flip flop changes in this
 * cycle (0 or 1), -1 if it does not. */
static __attribute__((noinline)) int cycle_events(m6569 *v, uint32_t f, unsigned bl)
{
    int chg = -1;
    /* the run so far was drawn with the border flip flops before this
     * cycle's compares */
    if ((f & VIC2_F_BORDER) && v->px_from) px_flush(v, v->cycle);
    if (f & VIC2_F_VC) {
        v->vc = v->vcbase;
        v->vmli = 0;
        if (bl) v->rc = 0;
        if (bl && mh_event_listening(v->links.events))
            mh_event_emit(v->links.events, MH_CHIP_EV_BADLINE, "vic2", v->raster);
    }
    if (f & VIC2_F_CRUNCH) v->spr_exp_ff15 = v->spr_exp_ff;
    if (f & VIC2_F_MCBASE) sprite_mcbase_update(v);
    if (f & VIC2_F_DMA) sprite_dma_check(v);
    if (f & VIC2_F_EXP) v->spr_exp_ff ^= (uint8_t)(v->spr_dma & v->reg[0x17]);
    if (f & VIC2_F_DISP) sprite_display_check(v);
    if (f & VIC2_F_RC) {
        if (v->rc == 7) {
            v->display = 0;
            v->vcbase = v->vc;
        }
        if (v->display || bl) {
            v->rc = (uint8_t)((v->rc + 1u) & 7u);
            v->display = 1;
        }
    }
    if (f & VIC2_F_BORDER) {
        const unsigned csel = v->reg[0x16] & 0x08u;
        if (((f & VIC2_F_BL1) && csel) || ((f & VIC2_F_BL0) && !csel)) {
            vertical_check(v);
            if (!v->vert_border) {
                v->main_border = 0;
                chg = (f & VIC2_F_BL1) ? 1 : 0;
            }
        }
        if (((f & VIC2_F_BR0) && !csel) || ((f & VIC2_F_BR1) && csel)) {
            v->main_border = 1;
            chg = (f & VIC2_F_BR1) ? 1 : 0;
        }
    }
    if (f & VIC2_F_LAST) vertical_check(v);
    return chg;
}

/* The g-access of cycle n (Bauer 3.7.2): the byte, kept with its c-data
 * for the pixels of the next cycle; *addr gets the address. */
static inline uint8_t g_access(m6569 *v, unsigned n, unsigned r11, uint16_t *addr)
{
    uint16_t cd, a;
    if (v->display) {
        cd = v->vm[v->vmli];
        if (r11 & 0x20u)
            a = (uint16_t)(((v->reg[0x18] & 0x08u) << 10) | ((unsigned)v->vc << 3) | v->rc);
        else
            a = (uint16_t)(((v->reg[0x18] & 0x0Eu) << 10) | ((cd & 0xFFu) << 3) | v->rc);
        if (r11 & 0x40u) a &= 0x39FF;
        v->vc = (uint16_t)((v->vc + 1u) & 0x3FFu);
        v->vmli = (uint8_t)((v->vmli + 1u) & 63u);
    } else {
        cd = 0;
        a = (r11 & 0x40u) ? 0x39FF : 0x3FFF;
    }
    const uint8_t data = fetch(v, a);
    v->g_line[n] = data;
    v->c_line[n] = cd;
    *addr = a;
    return data;
}

/* The phase-1 access of cycle n (table entry f): refresh, g-access,
 * sprite pointer, s-access 1 or the idle access. */
static inline __attribute__((always_inline)) uint8_t phase1_access(m6569 *v, unsigned n,
                                                                  uint32_t f, unsigned r11,
                                    uint16_t *addr)
{
    const unsigned sn = (f >> VIC2_SPR_SHIFT) & 7u;
    uint8_t data;
    /* g-accesses are most of a line's cycles: tested before the switch */
    if ((f & VIC2_K_MASK) == VIC2_K_G) return g_access(v, n, r11, addr);
    switch (f & VIC2_K_MASK) {
    case VIC2_K_REFRESH:
        *addr = (uint16_t)(0x3F00u | v->refresh);
        v->refresh--;
        return fetch(v, *addr);
    case VIC2_K_PTR:
        *addr = (uint16_t)(((v->reg[0x18] & 0xF0u) << 6) | 0x3F8u | sn);
        data = fetch(v, *addr);
        v->spr_ptr[sn] = data;
        return data;
    case VIC2_K_S1:
        if (v->spr_dma & (1u << sn)) {
            *addr = (uint16_t)(((unsigned)v->spr_ptr[sn] << 6) | v->mc[sn]);
            data = fetch(v, *addr);
            v->spr_buf[sn] |= (uint32_t)data << 8;
            v->mc[sn] = (uint8_t)((v->mc[sn] + 1u) & 63u);
            return data;
        }
        *addr = 0x3FFF; /* no DMA: idle access */
        return fetch(v, *addr);
    default:
        *addr = 0x3FFF;
        return fetch(v, *addr);
    }
}

static uint32_t tick_full(m6569 *v, unsigned n);

/* The bus after a quiet cycle's phase-1 access: BA and AEC high, no
 * phase-2 access (the short path and the catch-up of deferred cycles). */
static inline void quiet_bus(m6569 *v, uint8_t data, uint16_t addr)
{
    v->bus_phi1 = data;
    v->addr_phi1 = addr;
    v->aec = 1;
    v->addr_phi2 = 0xFFFF;
    v->ba_low_run = 0;
    v->ba = 1;
}

/* One cycle, nothing deferred before it. */
static inline __attribute__((always_inline)) uint32_t tick_once(m6569 *v)
{
    const unsigned n = v->cycle + 1u;
    const uint32_t f = v->links.cyc[n]; /* VIC2_F_FULL past the last cycle */
    /* The short path: a cycle without events in the cycle table, with
     * nothing else to do in it - not a bad line, no sprite pixels or DMA,
     * no pending acknowledge, collision or compare: what the full path
     * would do for it, no more. */
    if (!(f & (VIC2_F_EVENTS | VIC2_F_FULL)) &&
        !(v->bl_next | v->irq_ack | v->coll_work | v->cmp_dirty | v->spr_shift |
          (v->spr_at[n] & v->spr_disp) | ((f >> VIC2_BA_SHIFT) & v->spr_dma))) {
        v->cycle = (uint8_t)n;
        v->ticks++;
        v->bad_line = 0;
        if (f & VIC2_F_RENDER) {
            if (!v->px_from) v->px_from = (uint8_t)n;
        } else if (v->px_from) {
            px_flush(v, n);
        }
        uint16_t addr;
        const uint8_t data = phase1_access(v, n, f, v->reg[0x11], &addr);
        quiet_bus(v, data, addr);
        return M6569_PIN_BA | M6569_PIN_AEC | (v->irq ? M6569_PIN_IRQ : 0u);
    }
    return tick_full(v, n > v->cycles_per_line ? 1u : n);
}

/* ---- Deferred cycles ----------------------------------------------------
 * A quiet cycle is one tick_once() takes its short path for: no table
 * event, no bad line, no sprite DMA, display or shifting, no pending
 * acknowledge, collision or compare. Its work - the phase-1 fetch (g_line/
 * c_line, VC/VMLI, the refresh counter, sprite pointers, bus_phi1) and the
 * pending-pixel bookkeeping - is visible only to whoever looks at the chip
 * or changes what it fetches, and its pins are constant (BA and AEC high,
 * IRQ as it is). So after each tick quiet_update() works out where the
 * quiet stretch ahead ends, m6569_tick_deferring() only counts the cycles
 * before it, and m6569_catch_up() does them later, in order, exactly as the
 * short path would have: before the next full tick and before anything
 * that reads or changes the state they touch. */

/* The first cycle from the next one on that is not quiet (the state after
 * the last tick decides; anything that changes it sets quiet_end to 0). */
static void quiet_update(m6569 *v)
{
    const unsigned n0 = v->cycle + 1u;
    unsigned end = v->links.next_event[n0];
    /* the next cycle has events (most event cycles come in rows) or
     * something is pending: no stretch */
    if (end == n0 || (v->irq_ack | v->coll_work | v->cmp_dirty | v->spr_shift)) {
        v->links.quiet_end = 0;
        return;
    }
    if (v->bl_next) {
        /* a bad line: only its c-access cycles once the CPU is off the
         * bus (BA low for 3 cycles: AEC low in each of them) */
        const unsigned c_last = v->links.c_run_last[n0];
        if (!c_last || v->ba_low_run < 3) {
            v->links.quiet_end = 0;
            return;
        }
        if (c_last + 1u < end) end = c_last + 1u;
        v->links.quiet_pins = 0;
    } else {
        v->links.quiet_pins = M6569_PIN_BA | M6569_PIN_AEC;
    }
    /* a displayed sprite's X match (its spr_at cycle), a DMA sprite's BA */
    for (unsigned m = v->spr_disp; m; m &= m - 1u) {
        const unsigned t = v->spr_xtick[__builtin_ctz(m)];
        if (t >= n0 && t < end) end = t;
    }
    for (unsigned m = v->spr_dma; m; m &= m - 1u) {
        const unsigned t = v->links.ba_next[__builtin_ctz(m)][n0];
        if (t < end) end = t;
    }
    v->links.quiet_end = (uint8_t)end;
}

/* g-accesses of cycles n .. end in display state through the fetch map:
 * g_access() without the calls. Returns the last address. */
static uint16_t g_run_mapped(m6569 *v, unsigned n, unsigned end, unsigned r11)
{
    const uint8_t *const *const map = v->links.fetch_map;
    const unsigned mask = (r11 & 0x40u) ? 0x39FFu : 0x3FFFu;
    const unsigned count = end + 1u - n;
    const unsigned vmli = v->vmli;
    unsigned a = 0;
    if (r11 & 0x20u) {
        const unsigned base = ((v->reg[0x18] & 0x08u) << 10) | v->rc;
        unsigned vc = v->vc;
        for (unsigned k = 0; k < count; k++, vc = (vc + 1u) & 0x3FFu) {
            a = (base | (vc << 3)) & mask;
            v->g_line[n + k] = map[a >> 12][a];
            v->c_line[n + k] = v->vm[(vmli + k) & 63u];
        }
    } else {
        /* a 2K character base: one 4K block of the map */
        const unsigned base = ((v->reg[0x18] & 0x0Eu) << 10) | v->rc;
        const uint8_t *const block = map[(base & mask) >> 12];
        for (unsigned k = 0; k < count; k++) {
            const uint16_t cd = v->vm[(vmli + k) & 63u];
            a = (base | ((cd & 0xFFu) << 3)) & mask;
            v->g_line[n + k] = block[a];
            v->c_line[n + k] = cd;
        }
    }
    v->vc = (uint16_t)((v->vc + count) & 0x3FFu);
    v->vmli = (uint8_t)((vmli + count) & 63u);
    return (uint16_t)a;
}

/* A bad line's deferred c-access cycles n .. end, as tick_full() does
 * them (the CPU off the bus): pending pixels, the phase-1 access, the
 * c-access of phase 2, BA and AEC low. */
static void catch_up_bad_line(m6569 *v, unsigned n, unsigned end)
{
    const uint32_t *const cyc = v->links.cyc;
    const unsigned r11 = v->reg[0x11];
    const unsigned vm_base = (v->reg[0x18] & 0xF0u) << 6;
    const uint8_t *const *const map = v->links.fetch_map;
    uint16_t addr = v->addr_phi1, caddr = v->addr_phi2;
    uint8_t data = v->bus_phi1;
    for (; n <= end; n++) {
        const uint32_t f = cyc[n];
        if (f & VIC2_F_RENDER) {
            if (!v->px_from) v->px_from = (uint8_t)n;
        } else if (v->px_from) {
            px_flush(v, n);
        }
        if ((f & VIC2_K_MASK) == VIC2_K_G && map) {
            /* g_access() in display state (set on a bad line) */
            addr = g_run_mapped(v, n, n, r11);
            data = v->g_line[n];
        } else {
            data = phase1_access(v, n, f, r11, &addr);
        }
        caddr = (uint16_t)(vm_base | v->vc);
        const unsigned c = map ? map[caddr >> 12][caddr] : fetch(v, caddr);
        const unsigned col = v->links.color_ram ? v->links.color_ram[v->vc] & 15u : 0u;
        v->vm[v->vmli] = (uint16_t)(c | (col << 8));
        if (v->ba_low_run < 255) v->ba_low_run++;
    }
    v->bad_line = 1;
    v->display = 1;
    v->bus_phi1 = data;
    v->addr_phi1 = addr;
    v->aec = 0;
    v->addr_phi2 = caddr;
    v->ba = 0;
}

/* The deferred cycles synced+1 .. cycle, as the short path does them. */
void m6569_catch_up(m6569 *v)
{
    const unsigned end = v->cycle;
    if (v->bl_next) { /* the stretch was planned on this bad line */
        catch_up_bad_line(v, v->links.synced + 1u, end);
        v->links.synced = (uint8_t)end;
        return;
    }
    const uint32_t *const cyc = v->links.cyc;
    const unsigned r11 = v->reg[0x11];
    uint16_t addr = v->addr_phi1;
    uint8_t data = v->bus_phi1;
    for (unsigned n = v->links.synced + 1u; n <= end; n++) {
        const uint32_t f = cyc[n];
        if (f & VIC2_F_RENDER) {
            if (!v->px_from) v->px_from = (uint8_t)n;
        } else if (v->px_from) {
            px_flush(v, n);
        }
        if ((f & VIC2_K_MASK) == VIC2_K_G && v->links.fetch_map) {
            /* the run of g-accesses from here, all in the window: no
             * pixel bookkeeping past the first */
            const unsigned last = v->links.g_run_last[n] < end ? v->links.g_run_last[n] : end;
            if (v->display) {
                addr = g_run_mapped(v, n, last, r11);
                data = v->g_line[last];
            } else {
                addr = (r11 & 0x40u) ? 0x39FF : 0x3FFF;
                data = v->links.fetch_map[addr >> 12][addr];
                for (unsigned k = n; k <= last; k++) {
                    v->g_line[k] = data;
                    v->c_line[k] = 0;
                }
            }
            n = last;
            continue;
        }
        data = phase1_access(v, n, f, r11, &addr);
    }
    v->links.synced = (uint8_t)end;
    v->bad_line = 0;
    quiet_bus(v, data, addr);
}

uint32_t m6569_tick(m6569 *v)
{
    m6569_sync(v);
    const uint32_t pins = tick_once(v);
    v->links.synced = v->cycle;
    v->links.quiet_end = 0;
    return pins;
}

uint32_t m6569_tick_planned(m6569 *v)
{
    m6569_sync(v);
    const uint32_t pins = tick_once(v);
    v->links.synced = v->cycle;
    quiet_update(v);
    return pins;
}

/* Pages of the 16K the quiet cycles may fetch from: the g-accesses of the
 * mode (character base or bitmap), $39FF with ECM, refresh and idle
 * accesses at $3F00-$3FFF, the sprite pointers at the video matrix's end. */
static void fetch_pages_update(m6569 *v)
{
    const unsigned r11 = v->reg[0x11], r18 = v->reg[0x18];
    uint64_t pages;
    if (r11 & 0x20u) pages = 0xFFFFFFFFull << (((r18 & 0x08u) << 10) >> 8);
    else pages = 0xFFull << (((r18 & 0x0Eu) << 10) >> 8);
    if (r11 & 0x40u) pages |= 1ull << 0x39;
    pages |= 1ull << 0x3F;
    pages |= 1ull << ((((r18 & 0xF0u) << 6) | 0x3F8u) >> 8);
    v->links.fetch_pages = pages;
}

/* The next_event and g_run_last tables of the model's cycle table. */
static void next_event_init(m6569 *v)
{
    const unsigned last = v->cycles_per_line + 1u; /* VIC2_F_FULL */
    const uint32_t *const cyc = v->links.cyc;
    unsigned next = last, run = 0;
    v->links.next_event[last] = (uint8_t)last;
    v->links.g_run_last[last] = 0;
    for (unsigned n = last; n-- > 1;) {
        if (cyc[n] & (VIC2_F_EVENTS | VIC2_F_FULL)) next = n;
        v->links.next_event[n] = (uint8_t)next;
        const int g = (cyc[n] & (VIC2_K_MASK | VIC2_F_RENDER)) == (VIC2_K_G | VIC2_F_RENDER);
        if (!g) run = 0;
        else if (!run) run = n;
        v->links.g_run_last[n] = (uint8_t)run;
    }
    v->links.next_event[0] = v->links.next_event[1];
    v->links.g_run_last[0] = 0;
    run = 0;
    v->links.c_run_last[last] = 0;
    for (unsigned n = last; n-- > 0;) {
        if (!n || !(cyc[n] & VIC2_F_C)) run = 0;
        else if (!run) run = n;
        v->links.c_run_last[n] = (uint8_t)run;
    }
    for (unsigned i = 0; i < 8; i++) {
        unsigned ba = last;
        v->links.ba_next[i][last] = (uint8_t)last;
        for (unsigned n = last; n-- > 0;) {
            if (n && ((cyc[n] >> VIC2_BA_SHIFT) >> i & 1u)) ba = n;
            v->links.ba_next[i][n] = (uint8_t)ba;
        }
    }
}

/* After a reset or a restore: nothing deferred, nothing planned. */
static void defer_restart(m6569 *v)
{
    v->links.synced = v->cycle;
    v->links.quiet_end = 0;
    v->links.quiet_pins = M6569_PIN_BA | M6569_PIN_AEC;
    next_event_init(v);
    fetch_pages_update(v);
}

/* Every other cycle. */
static __attribute__((noinline)) uint32_t tick_full(m6569 *v, unsigned n)
{
    v->cycle = (uint8_t)n;
    v->ticks++;
    if (v->irq_ack) {
        v->irq_ack = 0;
        update_irq(v);
    }
    if (v->coll_work) {
        /* last tick's pending collisions land; a read in the last cycle
         * swallows this tick's pixel 0 (its request becomes the drop) */
        if (v->coll_work & COLL_PENDING) coll_latch(v, v->mm_next, v->md_next);
        v->coll_work = (uint8_t)((v->coll_work >> 2) & (COLL_DROP_MM | COLL_DROP_MD));
    }
    const uint32_t f = v->links.cyc[n];

    if (n <= 2) {
        line_start(v, n);
        bad_line_eval(v);
    }

    /* Raster compare: an IRQ when it goes from no match to match. Its
     * inputs change only at a line start and with a $D011/$D012 write. */
    if (n <= 2 || v->cmp_dirty) {
        v->cmp_dirty = 0;
        const uint8_t m = v->raster == v->irq_line;
        if (m && !v->raster_match) {
            v->irq_latch |= M6569_INT_RST;
            update_irq(v);
            if (mh_event_listening(v->links.events)) {
                mh_event_emit(v->links.events, MH_CHIP_EV_RASTER, "vic2", v->raster);
                if (v->irq_mask & M6569_INT_RST)
                    mh_event_emit(v->links.events, MH_CHIP_EV_IRQ, "vic2", M6569_INT_RST);
            }
        }
        v->raster_match = m;
    }

    /* Bad line condition (Bauer 3.5), as bad_line_eval() left it. */
    const unsigned r11 = v->reg[0x11];
    const unsigned bl = v->bl_next;
    v->bad_line = (uint8_t)bl;
    if (bl) v->display = 1;

    /* Events of this cycle. */
    const uint8_t mb0 = v->main_border;
    const int chg = (f & VIC2_F_EVENTS) ? cycle_events(v, f, bl) : -1;

    {
        const unsigned spr = v->spr_shift | (v->spr_at[n] & v->spr_disp);
        if (!spr && (f & (VIC2_F_RENDER | VIC2_F_BORDER)) == VIC2_F_RENDER) {
            if (!v->px_from) v->px_from = (uint8_t)n;
        } else {
            if (v->px_from) px_flush(v, n);
            /* outside the window a cycle without a sprite shows nothing */
            if (spr || (f & VIC2_F_RENDER)) pixels_at_once(v, n, f, mb0, chg);
        }
    }

    /* Phase 1 access. */
    uint16_t addr;
    uint8_t data = phase1_access(v, n, f, r11, &addr);
    const unsigned sn = (f >> VIC2_SPR_SHIFT) & 7u;
    v->bus_phi1 = data;
    v->addr_phi1 = addr;

    /* BA: bad line in 12-54, sprite DMA 3 cycles ahead of its s-accesses. */
    const unsigned ba_low = ((bl ? f & VIC2_F_BAF : 0u) |
                             (((f >> VIC2_BA_SHIFT) & 0xFFu) & v->spr_dma)) != 0u;

    /* Phase 2 access. */
    v->aec = 1;
    v->addr_phi2 = 0xFFFF;
    if ((f & VIC2_F_C) && bl) {
        uint16_t cd;
        if (v->ba_low_run >= 3) {
            addr = (uint16_t)(((v->reg[0x18] & 0xF0u) << 6) | v->vc);
            data = fetch(v, addr);
            const unsigned col = v->links.color_ram ? v->links.color_ram[v->vc] & 15u : 0u;
            cd = (uint16_t)(data | (col << 8));
            v->aec = 0;
            v->addr_phi2 = addr;
        } else {
            cd = 0xFFF; /* the CPU still has the bus: the VIC reads $FF */
        }
        v->vm[v->vmli] = cd;
    } else if ((f & VIC2_K_MASK) >= VIC2_K_PTR) { /* VIC2_K_PTR or VIC2_K_S1 */
        if (v->spr_dma & (1u << sn)) {
            addr = (uint16_t)(((unsigned)v->spr_ptr[sn] << 6) | v->mc[sn]);
            data = fetch(v, addr);
            if ((f & VIC2_K_MASK) == VIC2_K_PTR) v->spr_buf[sn] = (uint32_t)data << 16;
            else v->spr_buf[sn] |= data;
            v->mc[sn] = (uint8_t)((v->mc[sn] + 1u) & 63u);
            v->aec = 0;
            v->addr_phi2 = addr;
        }
    }
    v->ba_low_run = ba_low ? (uint8_t)(v->ba_low_run < 255 ? v->ba_low_run + 1 : 255) : 0;
    v->ba = ba_low ? 0 : 1;

    return (v->ba ? M6569_PIN_BA : 0u) | (v->aec ? M6569_PIN_AEC : 0u) |
           (v->irq ? M6569_PIN_IRQ : 0u);
}

void m6569_run(m6569 *vic, uint32_t cycles)
{
    while (cycles--) m6569_tick(vic);
    m6569_sync(vic);
    px_flush_now(vic);
}

/* ---- init, reset, links ----------------------------------------------- */

static const uint8_t model_timing[M6569_MODEL_COUNT] = {0, 0, 1, 1, 2};

mh_status m6569_init(m6569 *vic, const m6569_desc *desc)
{
    if (!vic || !desc) return MH_ERR_INVALID_ARGUMENT;
    if ((unsigned)desc->model >= M6569_MODEL_COUNT) return MH_ERR_INVALID_ARGUMENT;
    if (!desc->fetch) return MH_ERR_INVALID_ARGUMENT;
    memset(vic, 0, sizeof *vic);
    vic->model = (uint8_t)desc->model;
    vic->timing = model_timing[desc->model];
    const vic2_timing *t = timing_of(vic);
    vic->cycles_per_line = (uint8_t)t->cycles;
    vic->lines_per_frame = t->lines;
    vic->fb_height = t->fb_height;
    vic->fb_first_line = t->fb_first_line;
    vic->links.fetch = desc->fetch;
    vic->links.user = desc->user;
    vic->links.color_ram = desc->color_ram;
    vic->links.framebuffer = desc->framebuffer;
    vic->links.fb_pitch = desc->fb_pitch ? desc->fb_pitch : M6569_FB_WIDTH;
    vic->links.cyc = t->cyc;
    m6569_reset(vic);
    return MH_OK;
}

void m6569_reset(m6569 *vic)
{
    if (vic->links.cyc) m6569_sync(vic);
    px_flush_now(vic);
    m6569 keep = *vic;
    memset(vic, 0, sizeof *vic);
    vic->model = keep.model;
    vic->timing = keep.timing;
    vic->cycles_per_line = keep.cycles_per_line;
    vic->lines_per_frame = keep.lines_per_frame;
    vic->fb_height = keep.fb_height;
    vic->fb_first_line = keep.fb_first_line;
    vic->links = keep.links;

    vic->raster = 0;
    vic->cycle = 1;
    vic->fb_row = fb_row_of(vic, 0);
    fb_line_update(vic);
    vic->raster_match = 1; /* compare value 0 matched line 0 already */
    vic->refresh = 0xFF;
    vic->ba = 1;
    vic->aec = 1;
    vic->addr_phi2 = 0xFFFF;
    vic->main_border = 1;
    vic->vert_border = 1;
    vic->spr_exp_ff = 0xFF; /* no Y expansion: flip flops set */
    for (unsigned i = 0; i < 8; i++) sprite_x_update(vic, i);
    bad_line_eval(vic);
    defer_restart(vic);
}

void m6569_set_fetch(m6569 *vic, m6569_fetch_fn fetch_fn, void *user)
{
    m6569_sync(vic); /* the deferred cycles fetched through the old link */
    vic->links.fetch = fetch_fn;
    vic->links.user = user;
}

void m6569_set_fetch_map(m6569 *vic, const uint8_t *const *map)
{
    m6569_sync(vic);
    vic->links.fetch_map = map;
}

void m6569_set_color_ram(m6569 *vic, const uint8_t *color_ram)
{
    m6569_sync(vic);
    vic->links.color_ram = color_ram;
}

/* Pixels still pending go to the new framebuffer: nothing is pending at a
 * line start (where machines switch frames), and after a restore the
 * snapshot's pending cycles belong to the restored frame. */
void m6569_set_framebuffer(m6569 *vic, uint8_t *fb, uint32_t pitch)
{
    m6569_sync(vic); /* the deferred cycles' pixels are pending in this one */
    vic->links.framebuffer = fb;
    vic->links.fb_pitch = pitch ? pitch : M6569_FB_WIDTH;
    fb_line_update(vic);
}

void m6569_restore(m6569 *vic, const m6569 *saved)
{
    m6569_sync(vic); /* the deferred cycles ran before the restore */
    m6569_links links = vic->links;
    *vic = *saved;
    vic->links = links;
    vic->links.cyc = timing_of(vic)->cyc;
    /* a pending run lies in this line, before the cycle ticked last */
    if (vic->px_from > vic->cycle || vic->cycle > vic->cycles_per_line) vic->px_from = 0;
    fb_line_update(vic);
    bad_line_eval(vic);
    /* where the sprites' X matches fall: derived from the registers (the
     * quiet cycles' planning reads spr_xtick, the tick spr_at) */
    memset(vic->spr_at, 0, sizeof vic->spr_at);
    memset(vic->spr_xtick, 0, sizeof vic->spr_xtick);
    for (unsigned i = 0; i < 8; i++) sprite_x_update(vic, i);
    defer_restart(vic);
}

void m6569_save(const m6569 *vic, m6569 *out)
{
    *out = *vic;
    out->links.quiet_end = 0;
    out->links.quiet_pins = M6569_PIN_BA | M6569_PIN_AEC;
}

/* ---- registers -------------------------------------------------------- */

uint8_t m6569_peek(const m6569 *v, uint16_t addr)
{
    const unsigned r = addr & 0x3Fu;
    switch (r) {
    case 0x11: return (uint8_t)((v->reg[0x11] & 0x7Fu) | ((v->raster >> 1) & 0x80u));
    case 0x12: return (uint8_t)(v->raster & 0xFFu);
    case 0x13: return v->lpx;
    case 0x14: return v->lpy;
    case 0x16: return (uint8_t)(v->reg[0x16] | 0xC0u);
    case 0x18: return (uint8_t)(v->reg[0x18] | 0x01u);
    case 0x19: return (uint8_t)(v->irq_latch | 0x70u | (v->irq ? 0x80u : 0u));
    case 0x1A: return (uint8_t)(v->irq_mask | 0xF0u);
    case 0x1E: return v->mm_coll;
    case 0x1F: return v->md_coll;
    default:
        if (r >= 0x2F) return 0xFF;
        if (r >= 0x20) return (uint8_t)(v->reg[r] | 0xF0u);
        return v->reg[r];
    }
}

uint8_t m6569_read(m6569 *v, uint16_t addr)
{
    const unsigned r = addr & 0x3Fu;
    uint8_t value = m6569_peek(v, addr);
    if (r == 0x1E || r == 0x1F) v->links.quiet_end = 0; /* coll_work: the next tick is full */
    if (r == 0x1E) {
        v->mm_coll = 0;
        v->mm_next = 0;
        v->coll_work |= COLL_READ_MM;
    } else if (r == 0x1F) {
        v->md_coll = 0;
        v->md_next = 0;
        v->coll_work |= COLL_READ_MD;
    }
    return value;
}

void m6569_write(m6569 *v, uint16_t addr, uint8_t value)
{
    const unsigned r = addr & 0x3Fu;
    m6569_sync(v);
    px_flush_now(v); /* the pending cycles were before the write */
    v->links.quiet_end = 0; /* the next tick works out the stretch again */
    switch (r) {
    case 0x11:
        v->reg[r] = value;
        v->cmp_dirty = 1;
        v->irq_line = (uint16_t)((v->irq_line & 0xFFu) | ((unsigned)(value & 0x80u) << 1));
        bad_line_eval(v);
        fetch_pages_update(v);
        return;
    case 0x12:
        v->reg[r] = value;
        v->cmp_dirty = 1;
        v->irq_line = (uint16_t)((v->irq_line & 0x100u) | value);
        return;
    case 0x10:
        v->reg[r] = value;
        for (unsigned i = 0; i < 8; i++) sprite_x_update(v, i);
        return;
    case 0x13:
    case 0x14:
    case 0x1E:
    case 0x1F:
        return;
    case 0x17:
        v->reg[r] = value;
        v->spr_exp_ff |= (uint8_t)~value; /* rule 1: set while YE is clear */
        return;
    case 0x19:
        /* The acknowledge clears the flags now, but /IRQ is released only
         * in the next cycle: a CPU sampling its IRQ input in the cycle of
         * the write still sees it (irq-ackn-bug/irq-ack-vicii: INC/ASL
         * $D019 whose first write acks are still interrupted). */
        v->irq_latch &= (uint8_t)~(value & 0x0Fu);
        v->irq_ack = 1;
        return;
    case 0x1A:
        v->reg[r] = value;
        v->irq_mask = value & 0x0Fu;
        update_irq(v);
        return;
    default:
        if (r >= 0x2F) return;
        v->reg[r] = value;
        if (r < 0x10 && !(r & 1u)) sprite_x_update(v, r >> 1);
        if (r == 0x18) fetch_pages_update(v);
        return;
    }
}

/* ---- beam position and light pen -------------------------------------- */

uint16_t m6569_line(const m6569 *vic)
{
    return vic->frame_wrap ? 0 : vic->raster;
}

size_t m6569_line_colors(const m6569 *vic, uint8_t *border, uint8_t *background, size_t max)
{
    if (vic->frame == 0) return 0;
    const uint8_t *rec = vic->line_colors[(vic->frame - 1u) & 1u];
    const size_t lines = vic->lines_per_frame;
    for (size_t i = 0; i < lines && i < max; i++) {
        if (border) border[i] = rec[i] & 0x0Fu;
        if (background) background[i] = (uint8_t)(rec[i] >> 4);
    }
    return lines;
}

uint16_t m6569_xpos(const m6569 *vic)
{
    const vic2_timing *t = timing_of(vic);
    return (uint16_t)m6569_pos_to_x(t->xmap, 8u * (vic->cycle - 1u));
}

static void lightpen_latch(m6569 *v, unsigned pos, unsigned line, unsigned early)
{
    v->lpx = (uint8_t)((m6569_pos_to_x(timing_of(v)->xmap, pos) >> 1) - early);
    v->lpy = (uint8_t)(line & 0xFFu);
    v->lp_triggered = 1;
    v->irq_latch |= M6569_INT_LP;
    update_irq(v);
    if (mh_event_listening(v->links.events)) vic2_report_lightpen(v, line);
}

void m6569_set_lightpen(m6569 *v, int low)
{
    m6569_sync(v);
    v->links.quiet_end = 0; /* the IRQ may change */
    if (low && !v->lp_low && !v->lp_triggered) {
        const vic2_timing *t = timing_of(v);
        /* Position at the end of the current cycle (Bauer 3.11); past the
         * line's end that is the next line's start. */
        unsigned pos = 8u * v->cycle;
        unsigned line = m6569_line(v);
        if (pos >= 8u * t->cycles) {
            pos -= 8u * t->cycles;
            line = line + 1u >= t->lines ? 0u : line + 1u;
        }
        /* While RASTER shows the frame's last line the latch takes no
         * trigger; a pen still held low when the frame starts triggers
         * then (line_start). */
        /* The HMOS 8565/8562 latch X two pixels earlier: LPX one less than
         * the NMOS chips' (8565R2 dump; lp-trigger/test2new), except at
         * the frame start. */
        unsigned hmos = v->model == M6569_MODEL_8565 || v->model == M6569_MODEL_8562;
        if (v->raster + 1u < t->lines) lightpen_latch(v, pos, line, hmos);
    }
    v->lp_low = low ? 1u : 0u;
}
