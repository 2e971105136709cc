/* vic2.sprite_frames: whole PAL frames of sprites over a text screen,
 * every pixel of the sprites' lines and the collision registers checked
 * against a small per-pixel model of Bauer's rules (3.8: sprite pixels,
 * X/Y expansion, multicolour pairs; 3.8.2: priority among sprites and
 * against the foreground, sprite-sprite and sprite-background collisions;
 * 3.9: the side border over everything). The scenes are seeded random
 * layouts of all 8 sprites crossing each other (hi-res and multicolour,
 * X-expanded or not, in front of or behind the characters, into the right
 * border), and the line's ends: X 0, the X $1F0 wrap under the left
 * border and the invisible X $1F8-$1FF on PAL.
 *
 * The model leaves out what it does not know: the shift register reload of
 * a sprite's own s-accesses (docs/vic2.md "Sprite reload", X $162 + 16n
 * onwards) and mid-line register changes, so the scenes keep every sprite
 * left of X $133 and write registers only between frames. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mh_test.h"
#include "vic2.h"

typedef struct scene {
    uint8_t mem[0x4000];
    uint8_t color[1024];
    uint8_t fb[M6569_FB_WIDTH * M6569_FB_MAX_HEIGHT];
    m6569 vic;
} scene;

static uint8_t scene_fetch(void *user, uint16_t addr)
{
    return ((scene *)user)->mem[addr & 0x3FFF];
}

static uint32_t rng_next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

#define BORDER 14u
#define BACKGROUND 6u
#define FIRST_LINE 51u /* the 25-row window: lines $33-$FA */
#define LAST_LINE 250u

/* A random byte with about one bit in 2^sparse set. */
static uint8_t rng_bits(uint32_t *s, unsigned sparse)
{
    uint32_t b = rng_next(s);
    for (unsigned i = 0; i < sparse; i++) b &= rng_next(s);
    return (uint8_t)b;
}

/* PAL, 25 rows x 40 columns, YSCROLL 3, XSCROLL 0, screen $0400, characters
 * $1000 (random), random screen and colour RAM; sprite n's data at $3000 +
 * 64n (random). sparse > 0 thins the character and sprite data out, so
 * collisions come from single pixels (in any of a cycle's 8). */
static scene *scene_new(uint32_t *seed, unsigned sparse)
{
    scene *s = calloc(1, sizeof *s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    m6569_desc desc = {0};
    desc.model = M6569_MODEL_6569;
    desc.fetch = scene_fetch;
    desc.user = s;
    desc.color_ram = s->color;
    desc.framebuffer = s->fb;
    CU_ASSERT_EQUAL_FATAL(m6569_init(&s->vic, &desc), MH_OK);
    for (int i = 0; i < 1000; i++) {
        s->mem[0x0400 + i] = (uint8_t)(rng_next(seed) & 31u);
        s->color[i] = (uint8_t)(rng_next(seed) & 15u);
    }
    for (int i = 0; i < 32 * 8; i++) s->mem[0x1000 + i] = rng_bits(seed, sparse);
    for (int n = 0; n < 8; n++) {
        s->mem[0x07F8 + n] = (uint8_t)(0xC0 + n);
        for (int b = 0; b < 63; b++) s->mem[0x3000 + 64 * n + b] = rng_bits(seed, sparse);
    }
    m6569_write(&s->vic, 0x11, 0x1B);
    m6569_write(&s->vic, 0x16, 0xC8);
    m6569_write(&s->vic, 0x18, 0x14);
    m6569_write(&s->vic, 0x20, BORDER);
    m6569_write(&s->vic, 0x21, BACKGROUND);
    return s;
}

static unsigned reg(const scene *s, unsigned r)
{
    return m6569_peek(&s->vic, (uint16_t)r);
}

/* The text screen's pixel at framebuffer x of raster line (inside the
 * window lines): colour, *fg = foreground. Outside columns 32-351 the
 * border. */
static unsigned text_pixel(const scene *s, int x, unsigned line, int *fg)
{
    *fg = 0;
    if (x < 32 || x >= 352) return BORDER;
    const unsigned col = (unsigned)(x - 32) / 8u, row = (line - FIRST_LINE) / 8u;
    const unsigned rc = (line - FIRST_LINE) % 8u;
    const unsigned ch = s->mem[0x0400 + row * 40u + col];
    const unsigned bits = s->mem[0x1000 + ch * 8u + rc];
    if (bits >> (7u - (unsigned)(x - 32) % 8u) & 1u) {
        *fg = 1;
        return s->color[row * 40u + col] & 15u;
    }
    return BACKGROUND;
}

/* Sprite n's value (0 transparent, 1-3) at framebuffer x of raster line,
 * from its registers as they are (the frame ran with them). */
static unsigned sprite_value(const scene *s, unsigned n, int x, unsigned line)
{
    if (!(reg(s, 0x15) >> n & 1u)) return 0;
    const unsigned X = reg(s, 2 * n) | (reg(s, 0x10) >> n & 1u) << 8;
    const unsigned Y = reg(s, 2 * n + 1);
    const unsigned xe = reg(s, 0x1D) >> n & 1u, ye = reg(s, 0x17) >> n & 1u;
    const unsigned mc = reg(s, 0x1C) >> n & 1u;
    if (line <= Y || line > Y + (21u << ye)) return 0; /* first line Y+1 */
    const int p = x - (int)(X + 8u); /* X 0 is framebuffer x 8 */
    if (p < 0 || p >= (int)(24u << xe)) return 0;
    const unsigned row = (line - Y - 1u) >> ye;
    const uint8_t *d = &s->mem[0x3000 + 64 * n + 3 * row];
    const uint32_t bits = (uint32_t)d[0] << 16 | (uint32_t)d[1] << 8 | d[2];
    const unsigned q = (unsigned)p >> xe; /* unexpanded pixel 0-23 */
    if (mc) return bits >> (22u - 2u * (q >> 1)) & 3u;
    return bits >> (23u - q) & 1u ? 2u : 0u;
}

static unsigned sprite_colour(const scene *s, unsigned n, unsigned value)
{
    if (value == 1) return reg(s, 0x25) & 15u;
    if (value == 3) return reg(s, 0x26) & 15u;
    return reg(s, 0x27 + n) & 15u;
}

/* Checks every pixel of lines first..last against the model and sums the
 * collisions the model finds there into *mm / *md. Returns the number of
 * wrong pixels (the first few printed). */
static int check_lines(const scene *s, unsigned first, unsigned last, unsigned *mm,
                       unsigned *md)
{
    int wrong = 0;
    for (unsigned line = first; line <= last; line++) {
        const int y = (int)line - 16; /* PAL framebuffer row 0 is line 16 */
        for (int x = 0; x < M6569_FB_WIDTH; x++) {
            int fg;
            unsigned want = text_pixel(s, x, line, &fg);
            unsigned here = 0, front = 8, value = 0;
            for (unsigned n = 8; n-- > 0;) {
                const unsigned v = sprite_value(s, n, x, line);
                if (!v) continue;
                here |= 1u << n;
                front = n;
                value = v;
            }
            if (here & (here - 1u)) *mm |= here;
            if (here && fg) *md |= here;
            const int border = x < 32 || x >= 352;
            if (here && !border && !((reg(s, 0x1B) >> front & 1u) && fg))
                want = sprite_colour(s, front, value);
            const unsigned got = s->fb[y * M6569_FB_WIDTH + x];
            if (got != want && wrong++ < 4)
                printf("\n  line %u x %d: pixel %u, model %u (sprites %02X)", line, x, got, want,
                       here);
        }
    }
    return wrong;
}

/* One frame with the scene's registers; then the framebuffer and $D01E /
 * $D01F against the model, and the IRQ (both collision IRQs enabled). */
static void run_and_check(scene *s, unsigned first, unsigned last, const char *what)
{
    m6569 *v = &s->vic;
    const uint32_t frame = m6569_geometry_of(M6569_MODEL_6569)->cycles_per_frame;
    m6569_write(v, 0x1A, M6569_INT_MMC | M6569_INT_MBC);
    m6569_run(v, frame); /* the sprites' DMA and display as set */
    /* the beam is at the frame's start, far from any sprite line */
    (void)m6569_read(v, 0x1E);
    (void)m6569_read(v, 0x1F);
    m6569_write(v, 0x19, 0x0F);
    m6569_run(v, frame);
    unsigned mm = 0, md = 0;
    const int wrong = check_lines(s, first, last, &mm, &md);
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(m6569_peek(v, 0x1E), mm);
    CU_ASSERT_EQUAL(m6569_peek(v, 0x1F), md);
    CU_ASSERT_EQUAL(v->irq, (mm | md) ? 1 : 0);
    CU_ASSERT_EQUAL(m6569_peek(v, 0x19) & 6u,
                    (mm ? M6569_INT_MMC : 0u) | (md ? M6569_INT_MBC : 0u));
    if (wrong || m6569_peek(v, 0x1E) != mm || m6569_peek(v, 0x1F) != md)
        printf("\n  %s: %d pixels wrong, $D01E %02X (model %02X), $D01F %02X (model %02X)\n",
               what, wrong, m6569_peek(v, 0x1E), mm, m6569_peek(v, 0x1F), md);
}

static void sprite_place(scene *s, unsigned n, unsigned x, unsigned y)
{
    m6569 *v = &s->vic;
    m6569_write(v, (uint16_t)(2 * n), (uint8_t)x);
    m6569_write(v, (uint16_t)(2 * n + 1), (uint8_t)y);
    const unsigned msb = (reg(s, 0x10) & ~(1u << n)) | (x >> 8 & 1u) << n;
    m6569_write(v, 0x10, (uint8_t)msb);
}

/* 8 sprites in a cluster (crossing each other), random modes, expansion,
 * priority and colours, X from 0 to $132 (the rightmost reach the right
 * border), Y inside the window; dense and sparse data. */
static void test_random_sprite_scenes(void)
{
    for (uint32_t k = 1; k <= 32; k++) {
        uint32_t seed = 0x9E3779B9u * k;
        scene *s = scene_new(&seed, k % 4u ? (k % 4u) + 1u : 0u);
        m6569 *v = &s->vic;
        const unsigned cx = rng_next(&seed) % 0xF0u, cy = 60u + rng_next(&seed) % 100u;
        for (unsigned n = 0; n < 8; n++)
            sprite_place(s, n, cx + rng_next(&seed) % 0x43u, cy + rng_next(&seed) % 40u);
        m6569_write(v, 0x15, (uint8_t)(0xFFu & ~(k % 5u == 0 ? rng_next(&seed) & 0x11u : 0u)));
        m6569_write(v, 0x17, (uint8_t)rng_next(&seed)); /* Y expansion */
        m6569_write(v, 0x1B, (uint8_t)rng_next(&seed)); /* behind the foreground */
        m6569_write(v, 0x1C, (uint8_t)rng_next(&seed)); /* multicolour */
        m6569_write(v, 0x1D, (uint8_t)rng_next(&seed)); /* X expansion */
        for (unsigned r = 0x25; r <= 0x2E; r++) m6569_write(v, (uint16_t)r, (uint8_t)rng_next(&seed));
        char what[40];
        snprintf(what, sizeof what, "scene %u", (unsigned)k);
        /* the model's text screen covers the window's lines only */
        CU_ASSERT_FATAL(cy >= FIRST_LINE && cy + 40u + 43u <= LAST_LINE);
        run_and_check(s, cy, cy + 40u + 43u, what);
        free(s);
    }
}

/* Single-pixel collisions at each of a cycle's 8 pixels (pixel 0 of a
 * cycle is framebuffer x = 7 mod 8): one lit sprite pixel over one lit
 * character pixel, alone (sprite-background) and with a second sprite's
 * lit pixel on it (both registers), hi-res and X-expanded multicolour. */
static void test_collisions_at_every_pixel(void)
{
    for (unsigned c = 0; c < 32; c++) {
        const unsigned j = c & 7u, two = c >> 3 & 1u, mc = c >> 4 & 1u;
        uint32_t seed = 777u + c;
        scene *s = scene_new(&seed, 0);
        m6569 *v = &s->vic;
        memset(&s->mem[0x0400], 0, 1000); /* character 0 everywhere, blank */
        memset(&s->mem[0x1000], 0, 16);
        memset(&s->mem[0x3000], 0, 128);
        /* the sprites' first line is 121 (character row 8, line 6 of it) */
        const unsigned X = 100u + j, line = 121u;
        const unsigned x = X + 8u; /* = 7 + j mod 8 */
        const unsigned col = (x - 32u) / 8u, row = (line - FIRST_LINE) / 8u;
        s->mem[0x0400 + row * 40u + col] = 1;
        s->mem[0x1008 + (line - FIRST_LINE) % 8u] = (uint8_t)(0x80u >> (x - 32u) % 8u);
        /* sprite pixel 0 lit: %1x in multicolour (4 pixels when expanded,
         * so the sprite starts 3 pixels left to end on x) */
        const unsigned sx = mc ? X - 3u : X;
        for (unsigned n = 0; n <= two; n++) {
            s->mem[0x3000 + 64 * n] = 0x80;
            sprite_place(s, n, sx, line - 1u);
        }
        m6569_write(v, 0x15, two ? 0x03 : 0x01);
        m6569_write(v, 0x1C, mc ? 0x03 : 0x00);
        m6569_write(v, 0x1D, mc ? 0x03 : 0x00);
        char what[48];
        snprintf(what, sizeof what, "pixel %u, %s, %s", j, two ? "two sprites" : "one sprite",
                 mc ? "multicolour" : "hi-res");
        run_and_check(s, line - 1u, line + 1u, what);
        CU_ASSERT_EQUAL(m6569_peek(v, 0x1F), two ? 0x03 : 0x01);
        CU_ASSERT_EQUAL(m6569_peek(v, 0x1E), two ? 0x03 : 0x00);
        free(s);
    }
}

/* The ends of the line: a sprite at X 0 (framebuffer x 8, under the left
 * border) and one at X $1F0 (8 pixels left of X 0, the line's last X
 * positions) cross under the border: the border covers them, their
 * collision counts; sprites at X $1F8-$1FF are never shown on PAL (the X
 * counter ends at $1F7), so two of them there do not collide. */
static void test_sprites_at_line_ends(void)
{
    uint32_t seed = 12345;
    scene *s = scene_new(&seed, 0);
    m6569 *v = &s->vic;
    for (unsigned n = 0; n < 4; n++)
        for (unsigned b = 0; b < 63; b++) s->mem[0x3000 + 64 * n + b] = 0xFF;
    sprite_place(s, 0, 0, 100);
    sprite_place(s, 1, 0x1F0, 100);
    sprite_place(s, 2, 0x1F8, 140);
    sprite_place(s, 3, 0x1FC, 140);
    m6569_write(v, 0x15, 0x0F);
    m6569_write(v, 0x1D, 0x02); /* sprite 1 reaches X 0..$27: over sprite 0 */
    m6569_write(v, 0x1A, M6569_INT_MMC);
    const uint32_t frame = m6569_geometry_of(M6569_MODEL_6569)->cycles_per_frame;
    m6569_run(v, frame);
    (void)m6569_read(v, 0x1E);
    (void)m6569_read(v, 0x1F);
    m6569_write(v, 0x19, 0x0F);
    m6569_run(v, frame);
    CU_ASSERT_EQUAL(m6569_peek(v, 0x1E), 0x03);
    CU_ASSERT_EQUAL(v->irq, 1);
    /* X $1F0 is framebuffer x 0: sprite 1 covers x 0..47, sprite 0 x 8..31,
     * both under the left border (x < 32); from x 32 on sprite 1 shows up
     * to its end, then the text */
    const unsigned line = 101;
    const int y = (int)line - 16;
    for (int x = 0; x < M6569_FB_WIDTH; x++) {
        int fg;
        unsigned want = text_pixel(s, x, line, &fg);
        if (x >= 32 && x < 48) want = reg(s, 0x28) & 15u;
        CU_ASSERT_EQUAL(s->fb[y * M6569_FB_WIDTH + x], want);
    }
    /* sprites 2 and 3 alone: nothing in $D01E */
    m6569_write(v, 0x15, 0x0C);
    (void)m6569_read(v, 0x1E);
    m6569_run(v, frame);
    (void)m6569_read(v, 0x1E);
    m6569_run(v, frame);
    CU_ASSERT_EQUAL(m6569_peek(v, 0x1E), 0x00);
    free(s);
}

/* A restored state is outside input: sprite fields no running chip
 * produces (X offsets past a cycle's 8 pixels, pixel counts past the row,
 * every sequencer shifting and starting everywhere) must only draw valid
 * colours, in the sanitizer build without undefined behaviour (a start
 * pixel past the cycle once shifted a mask by it); rewriting the X
 * registers puts the matches back where they belong. */
static void test_hostile_sprite_state(void)
{
    uint32_t seed = 4242;
    scene *s = scene_new(&seed, 0);
    m6569 *v = &s->vic;
    for (unsigned n = 0; n < 8; n++) sprite_place(s, n, 24u + 30u * n, 80u);
    m6569_write(v, 0x15, 0xFF);
    m6569_write(v, 0x1C, 0xF0);
    m6569_write(v, 0x1D, 0xAA);
    const uint32_t frame = m6569_geometry_of(M6569_MODEL_6569)->cycles_per_frame;
    m6569_run(v, frame);
    m6569 saved = *v;
    for (unsigned n = 0; n < 8; n++) {
        saved.spr_xoff[n] = (uint8_t)(0x08u + 29u * n); /* 8 .. 211 */
        saved.spr_pix[n] = (uint8_t)(n & 1u ? 0xF0u : 0x05u);
        saved.spr_sr[n] = 0xFFFFFFu >> n;
        saved.spr_hold_val[n] = (uint8_t)(n & 3u);
    }
    saved.spr_shift = 0xFF;
    saved.spr_disp = 0xFF;
    saved.spr_held = 0x5A;
    memset(saved.spr_at, 0xFF, sizeof saved.spr_at);
    m6569_restore(v, &saved);
    m6569_run(v, frame);
    int bad = 0;
    for (size_t k = 0; k < sizeof s->fb; k++) bad += s->fb[k] > 15u;
    CU_ASSERT_EQUAL(bad, 0);
    /* the X registers rewritten: every cycle's match list rebuilt from them */
    memset(v->spr_at, 0, sizeof v->spr_at);
    for (unsigned n = 0; n < 8; n++) sprite_place(s, n, 24u + 30u * n, 80u);
    m6569_run(v, 2 * frame);
    for (unsigned n = 0; n < 8; n++) CU_ASSERT(v->spr_xoff[n] < 8u);
    free(s);
}

MH_SUITE("vic2.sprite_frames", NULL, NULL, MH_TEST(test_random_sprite_scenes),
         MH_TEST(test_collisions_at_every_pixel), MH_TEST(test_sprites_at_line_ends),
         MH_TEST(test_hostile_sprite_state))
