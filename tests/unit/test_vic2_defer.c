/* vic2.defer: the VIC-II's deferred quiet cycles (m6569_tick_deferring,
 * m6569_sync, m6569_fetches; docs/vic2.md "Speed") against the same chip
 * ticked once per cycle (m6569_tick). Two chips, each with its own copy
 * of a 16 KiB VIC memory, get the same random traffic (register writes and
 * reads, memory writes aimed at what the VIC fetches, colour RAM, light
 * pen, framebuffer switches at line starts, restores, resets); the
 * deferring one is synced only where its contract says (before a memory
 * write m6569_fetches() names, at the comparisons). Every tick's pins,
 * every peek and, at random points, the whole state and both framebuffers
 * must be equal, on all five models, with and without a fetch map. One
 * case breaks the contract (memory writes without the sync) and must see a
 * difference: the comparison can fail. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mh_test.h"
#include "vic2.h"

typedef struct chip {
    uint8_t mem[0x4000];
    uint8_t color[1024];
    uint8_t fb[2][M6569_FB_WIDTH * M6569_FB_MAX_HEIGHT];
    const uint8_t *map[4];
    int fb_which;
    m6569 vic;
} chip;

static uint8_t chip_fetch(void *user, uint16_t addr)
{
    const chip *c = user;
    return c->mem[addr & 0x3FFF];
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *s = x;
    return x;
}

static unsigned rnd(uint64_t *s, unsigned n) { return (unsigned)(rng_next(s) % n); }

static chip *chip_new(m6569_model model, int with_map, uint64_t seed)
{
    chip *c = calloc(1, sizeof *c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    uint64_t s = seed;
    for (size_t i = 0; i < sizeof c->mem; i++) c->mem[i] = (uint8_t)rng_next(&s);
    for (size_t i = 0; i < sizeof c->color; i++) c->color[i] = (uint8_t)(rng_next(&s) & 15u);
    m6569_desc desc = {0};
    desc.model = model;
    desc.fetch = chip_fetch;
    desc.user = c;
    desc.color_ram = c->color;
    desc.framebuffer = c->fb[0];
    CU_ASSERT_EQUAL_FATAL(m6569_init(&c->vic, &desc), MH_OK);
    for (int i = 0; i < 4; i++) c->map[i] = c->mem;
    if (with_map) m6569_set_fetch_map(&c->vic, c->map);
    return c;
}

/* A register write both chips get: mostly a text screen with DEN set, the
 * modes, scrolls, bases and sprites changed now and then. */
static void random_register(uint64_t *s, uint16_t *reg, uint8_t *value)
{
    static const uint8_t regs[] = {0x11, 0x11, 0x16, 0x18, 0x18, 0x15, 0x15, 0x17, 0x1B, 0x1C,
                                   0x1D, 0x10, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x0E, 0x0F,
                                   0x12, 0x19, 0x1A, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26,
                                   0x27, 0x2B, 0x2E};
    const uint8_t r = regs[rnd(s, sizeof regs)];
    uint8_t v = (uint8_t)rng_next(s);
    if (r == 0x11 && rnd(s, 4)) v = (uint8_t)((v & 0x67u) | 0x10u); /* DEN, RST8 clear */
    if (r == 0x11 && rnd(s, 3)) v &= (uint8_t)~0x60u;                /* text */
    if (r == 0x15 && rnd(s, 2)) v = 0;                                /* sprites off */
    *reg = (uint16_t)(0xD000u | r);
    *value = v;
}

/* A memory address the VIC is likely to fetch from (or anywhere). */
static uint16_t random_address(uint64_t *s, const m6569 *v)
{
    const unsigned r18 = v->reg[0x18];
    switch (rnd(s, 6)) {
    case 0: return (uint16_t)(((r18 & 0x0Eu) << 10) | rnd(s, 0x800)); /* characters */
    case 1: return (uint16_t)(((r18 & 0x08u) << 10) | rnd(s, 0x2000)); /* bitmap */
    case 2: return (uint16_t)(((r18 & 0xF0u) << 6) | 0x3F8u | rnd(s, 8)); /* pointers */
    case 3: return rnd(s, 2) ? 0x3FFF : 0x39FF;                         /* idle */
    case 4: return (uint16_t)(0x3F00u | rnd(s, 256));                   /* refresh */
    default: return (uint16_t)rnd(s, 0x4000);
    }
}

/* Whole state (without the links) and both framebuffers equal; the first
 * difference on stderr. */
static int same_state(chip *a, chip *b)
{
    m6569_sync(&b->vic);
    const uint8_t *x = (const uint8_t *)&a->vic, *y = (const uint8_t *)&b->vic;
    for (size_t i = 0; i < offsetof(m6569, links); i++) {
        if (x[i] != y[i]) {
            fprintf(stderr, "\nvic2.defer: state byte %zu: %u vs %u (line %u cycle %u)\n", i,
                    x[i], y[i], a->vic.raster, a->vic.cycle);
            return 0;
        }
    }
    if (memcmp(a->fb, b->fb, sizeof a->fb) != 0 || a->fb_which != b->fb_which) {
        fprintf(stderr, "\nvic2.defer: pixels differ (line %u cycle %u)\n", a->vic.raster,
                a->vic.cycle);
        return 0;
    }
    return 1;
}

/* Runs `frames` frames of traffic; returns the first tick with a
 * difference (pins, peek, state or pixels), or -1 if there was none. A
 * contract breaker: sync_writes 0 writes memory without m6569_sync. */
static long run_pair(m6569_model model, int with_map, uint64_t seed, unsigned frames,
                     int sync_writes)
{
    chip *a = chip_new(model, 0, seed);
    chip *b = chip_new(model, with_map, seed);
    uint64_t s = seed * 2654435761u + 1u;
    const uint32_t total = m6569_geometry_of(model)->cycles_per_frame * frames;
    long bad = -1;
    /* a text screen to begin with: DEN, screen $0400, characters $1000 */
    const uint8_t init[][2] = {{0x11, 0x1B}, {0x16, 0xC8}, {0x18, 0x14}, {0x20, 14}, {0x21, 6}};
    for (size_t i = 0; i < sizeof init / sizeof init[0]; i++) {
        m6569_write(&a->vic, (uint16_t)(0xD000u | init[i][0]), init[i][1]);
        m6569_write(&b->vic, (uint16_t)(0xD000u | init[i][0]), init[i][1]);
    }
    for (uint32_t t = 0; t < total && bad < 0; t++) {
        const uint32_t pa = m6569_tick(&a->vic);
        const uint32_t pb = m6569_tick_deferring(&b->vic);
        if (pa != pb || a->vic.cycle != b->vic.cycle || a->vic.ticks != b->vic.ticks) {
            bad = (long)t;
            break;
        }
        const unsigned what = rnd(&s, 1000);
        if (what < 60) { /* memory: the CPU's writes, often where the VIC looks */
            const uint16_t addr = random_address(&s, &a->vic);
            const uint8_t value = (uint8_t)rng_next(&s);
            a->mem[addr] = value;
            if (sync_writes && m6569_fetches(&b->vic, addr)) m6569_sync(&b->vic);
            b->mem[addr] = value;
        } else if (what < 80) { /* colour RAM: a bad line's deferred c-accesses read it */
            const unsigned i = rnd(&s, 1024);
            if (sync_writes) m6569_sync(&b->vic);
            a->color[i] = b->color[i] = (uint8_t)(rng_next(&s) & 15u);
        } else if (what < 92) {
            uint16_t reg;
            uint8_t value;
            random_register(&s, &reg, &value);
            m6569_write(&a->vic, reg, value);
            m6569_write(&b->vic, reg, value);
        } else if (what < 95) {
            const uint16_t reg = (uint16_t)(0xD000u | rnd(&s, 64));
            if (m6569_read(&a->vic, reg) != m6569_read(&b->vic, reg)) bad = (long)t;
        } else if (what < 97) {
            const uint16_t reg = (uint16_t)(0xD000u | rnd(&s, 64));
            if (m6569_peek(&a->vic, reg) != m6569_peek(&b->vic, reg) ||
                m6569_line(&a->vic) != m6569_line(&b->vic) ||
                m6569_xpos(&a->vic) != m6569_xpos(&b->vic))
                bad = (long)t;
        } else if (what < 997) {
            /* no traffic in this cycle */
        } else if (what == 997) {
            const int low = (int)rnd(&s, 2);
            m6569_set_lightpen(&a->vic, low);
            m6569_set_lightpen(&b->vic, low);
        } else if (what == 998) { /* a snapshot of the per-cycle chip, restored into both */
            m6569 copy = a->vic;
            m6569_restore(&a->vic, &copy);
            m6569_restore(&b->vic, &copy);
        } else if (rnd(&s, 8) == 0) {
            m6569_reset(&a->vic);
            m6569_reset(&b->vic);
        }
        if (a->vic.cycle == 1 && rnd(&s, 4) == 0) { /* frame switch at a line start */
            a->fb_which ^= 1;
            b->fb_which ^= 1;
            m6569_set_framebuffer(&a->vic, a->fb[a->fb_which], 0);
            m6569_set_framebuffer(&b->vic, b->fb[b->fb_which], 0);
        }
        if (bad < 0 && rnd(&s, 500) == 0 && !same_state(a, b)) bad = (long)t;
    }
    if (bad < 0) {
        m6569_run(&a->vic, 0);
        m6569_run(&b->vic, 0);
        if (!same_state(a, b)) bad = (long)total;
    }
    free(a);
    free(b);
    return bad;
}

static void test_defer_matches_per_cycle(void)
{
    for (int model = 0; model < M6569_MODEL_COUNT; model++) {
        for (uint64_t seed = 1; seed <= 16; seed++) {
            const int with_map = (int)(seed & 1u);
            const long bad = run_pair((m6569_model)model, with_map, seed * 7919u + (uint64_t)model,
                                      4, 1);
            if (bad >= 0)
                fprintf(stderr, "\nvic2.defer: model %d seed %llu map %d: differs at tick %ld\n",
                        model, (unsigned long long)seed, with_map, bad);
            CU_ASSERT_EQUAL(bad, -1);
        }
    }
}

/* The comparison sees a missing sync: memory writes without m6569_sync
 * must make the deferring chip differ (it fetches the new byte too early). */
static void test_missing_sync_is_seen(void)
{
    int seen = 0;
    for (uint64_t seed = 1; seed <= 4; seed++)
        if (run_pair(M6569_MODEL_6569, (int)(seed & 1u), seed * 104729u, 2, 0) >= 0) seen++;
    CU_ASSERT_EQUAL(seen, 4);
}

/* A quiet stretch is deferred at all: after a line's full cycles the
 * deferring tick leaves work pending, and the sync does it. */
static void test_quiet_cycles_are_deferred(void)
{
    chip *c = chip_new(M6569_MODEL_6569, 1, 5);
    m6569_write(&c->vic, 0xD011, 0x1B);
    m6569_write(&c->vic, 0xD018, 0x14);
    /* to cycle 20 of line $40 (not a bad line: YSCROLL 3) */
    while (!(c->vic.raster == 0x40 && c->vic.cycle == 20)) m6569_tick_deferring(&c->vic);
    CU_ASSERT_NOT_EQUAL(c->vic.links.synced, c->vic.cycle); /* 19 and 20 deferred */
    m6569_sync(&c->vic);
    const unsigned vmli = c->vic.vmli;
    CU_ASSERT_EQUAL(vmli, 5); /* g-accesses in cycles 16-20 */
    m6569_tick_deferring(&c->vic);
    m6569_tick_deferring(&c->vic);
    CU_ASSERT_EQUAL(c->vic.cycle, 22);
    CU_ASSERT_EQUAL(c->vic.vmli, vmli); /* the two g-accesses not done yet */
    CU_ASSERT_NOT_EQUAL(c->vic.links.synced, c->vic.cycle);
    /* the character base is a fetched page, the stack page is not */
    CU_ASSERT_TRUE(m6569_fetches(&c->vic, 0x1234));
    CU_ASSERT_TRUE(m6569_fetches(&c->vic, 0x07F8));
    CU_ASSERT_TRUE(m6569_fetches(&c->vic, 0x3FFF));
    CU_ASSERT_FALSE(m6569_fetches(&c->vic, 0x0100));
    CU_ASSERT_FALSE(m6569_fetches(&c->vic, 0x0002));
    m6569_sync(&c->vic);
    CU_ASSERT_EQUAL(c->vic.vmli, (vmli + 2u) & 63u);
    CU_ASSERT_EQUAL(c->vic.links.synced, c->vic.cycle);
    free(c);
}

MH_SUITE("vic2.defer", NULL, NULL, MH_TEST(test_defer_matches_per_cycle),
         MH_TEST(test_missing_sync_is_seen), MH_TEST(test_quiet_cycles_are_deferred))
