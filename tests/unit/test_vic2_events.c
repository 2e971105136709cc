/* vic2_events.*: what the VIC-II tells a listening debugger about its
 * collision and light pen latches (MH_CHIP_EV_COLLISION, _LIGHTPEN and the
 * IRQs they raise), on a bare chip with its own small memory: sprites 0
 * and 1 overlap, sprite 2 stands alone until moved onto them, sprite 3
 * covers a solid character. A chip with no listener runs the same. */
#include <stdlib.h>
#include <string.h>

#include "mh_test.h"
#include "vic2.h"

typedef struct event_log {
    uint32_t kind[64], detail[64];
    unsigned count;
} event_log;

typedef struct rig {
    uint8_t ram[0x4000]; /* VIC bank 0: screen $0400, characters $1000, sprites $3000 */
    uint8_t colours[1024];
    uint8_t pixels[M6569_FB_WIDTH * M6569_FB_MAX_HEIGHT];
    m6569 chip;
    event_log log;
    mh_event_sink sink;
} rig;

static uint8_t rig_fetch(void *user, uint16_t address)
{
    return ((rig *)user)->ram[address & 0x3FFFu];
}

static void on_event(void *user, uint32_t kind, const char *chip, uint32_t detail)
{
    event_log *log = user;
    CU_ASSERT_STRING_EQUAL(chip, "vic2");
    if (kind == MH_CHIP_EV_BADLINE || kind == MH_CHIP_EV_SPRITE_DMA || kind == MH_CHIP_EV_RASTER)
        return; /* every frame has these: the log keeps the rest */
    if (log->count < 64) {
        log->kind[log->count] = kind;
        log->detail[log->count] = detail;
    }
    log->count++;
}

static const struct {
    uint16_t x;
    uint8_t y;
} sprite_at[4] = {{100, 100}, {104, 100}, {200, 100}, {24 + 8 * 20, 51 + 8 * 12}};

/* The scene above; listening 0 leaves the sink without a callback. */
static rig *rig_new(int listening)
{
    rig *r = calloc(1, sizeof *r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    m6569_desc desc = {0};
    desc.model = M6569_MODEL_6569;
    desc.fetch = rig_fetch;
    desc.user = r;
    desc.color_ram = r->colours;
    desc.framebuffer = r->pixels;
    CU_ASSERT_EQUAL_FATAL(m6569_init(&r->chip, &desc), MH_OK);
    r->sink.fn = listening ? on_event : NULL;
    r->sink.user = &r->log;
    r->chip.links.events = &r->sink;
    memset(r->ram + 0x0400, 32, 1000);  /* blank screen */
    memset(r->ram + 0x1000 + 8, 0xFF, 8); /* character 1: solid */
    r->ram[0x0400 + 12 * 40 + 20] = 1;  /* row 12, column 20 */
    for (unsigned n = 0; n < 4; n++) {
        memset(r->ram + 0x3000 + 64 * n, 0xFF, 63);
        r->ram[0x07F8 + n] = (uint8_t)(0xC0 + n);
        m6569_write(&r->chip, 0xD000 + 2 * n, (uint8_t)sprite_at[n].x);
        m6569_write(&r->chip, 0xD001 + 2 * n, sprite_at[n].y);
    }
    m6569_write(&r->chip, 0xD011, 0x1B);
    m6569_write(&r->chip, 0xD016, 0xC8);
    m6569_write(&r->chip, 0xD018, 0x14);
    m6569_write(&r->chip, 0xD015, 0x0F);
    return r;
}

static void run_frame(rig *r)
{
    m6569_run(&r->chip, m6569_geometry_of(M6569_MODEL_6569)->cycles_per_frame);
}

/* How many logged events are (kind, detail). */
static unsigned logged(const rig *r, uint32_t kind, uint32_t detail)
{
    unsigned n = 0;
    for (unsigned i = 0; i < r->log.count && i < 64; i++)
        n += r->log.kind[i] == kind && r->log.detail[i] == detail;
    return n;
}

static void test_collisions_are_reported_once_with_their_sprites(void)
{
    rig *r = rig_new(1);
    m6569_write(&r->chip, 0xD01A, M6569_INT_MMC); /* sprite-background IRQ masked */
    run_frame(r);
    CU_ASSERT_EQUAL(logged(r, MH_CHIP_EV_COLLISION, 0x03), 1);
    CU_ASSERT_EQUAL(logged(r, MH_CHIP_EV_COLLISION, MH_CHIP_EV_COLLISION_BG | 0x08), 1);
    CU_ASSERT_EQUAL(logged(r, MH_CHIP_EV_IRQ, M6569_INT_MMC), 1);
    CU_ASSERT_EQUAL(logged(r, MH_CHIP_EV_IRQ, M6569_INT_MBC), 0); /* latched, not enabled */
    CU_ASSERT_EQUAL(r->log.count, 3);
    CU_ASSERT_EQUAL(m6569_peek(&r->chip, 0xD01E), 0x03);
    CU_ASSERT_EQUAL(m6569_peek(&r->chip, 0xD01F), 0x08);

    /* The registers keep their sprites: the same overlaps again are news
     * to nobody. */
    r->log.count = 0;
    run_frame(r);
    CU_ASSERT_EQUAL(r->log.count, 0);

    /* Sprite 2 moves onto sprite 1: $D01E gains it (an event naming the
     * sprites of that moment), but no IRQ, as the register was not clear. */
    m6569_write(&r->chip, 0xD004, (uint8_t)(sprite_at[1].x + 4));
    run_frame(r);
    CU_ASSERT_EQUAL(r->log.count, 1);
    CU_ASSERT_EQUAL(r->log.kind[0], MH_CHIP_EV_COLLISION);
    CU_ASSERT_EQUAL(r->log.detail[0] & 0xFFu, 0x07);
    CU_ASSERT_EQUAL(m6569_peek(&r->chip, 0xD01E), 0x07);

    /* Read clear, the next collision raises the IRQ again. */
    r->log.count = 0;
    (void)m6569_read(&r->chip, 0xD01E);
    run_frame(r);
    CU_ASSERT_EQUAL(logged(r, MH_CHIP_EV_COLLISION, 0x07), 1);
    CU_ASSERT_EQUAL(logged(r, MH_CHIP_EV_IRQ, M6569_INT_MMC), 1);
    free(r);
}

static void test_lightpen_is_reported_with_its_position(void)
{
    rig *r = rig_new(1);
    m6569_write(&r->chip, 0xD015, 0x00); /* no sprites: only the pen */
    m6569_write(&r->chip, 0xD01A, M6569_INT_LP);
    run_frame(r);
    r->log.count = 0;
    while (m6569_line(&r->chip) != 150) m6569_tick(&r->chip);
    m6569_set_lightpen(&r->chip, 1);
    CU_ASSERT_EQUAL_FATAL(r->log.count, 2);
    CU_ASSERT_EQUAL(r->log.kind[0], MH_CHIP_EV_LIGHTPEN);
    CU_ASSERT_EQUAL(r->log.detail[0], m6569_peek(&r->chip, 0xD013) | 150u << 8);
    CU_ASSERT_EQUAL(m6569_peek(&r->chip, 0xD014), 150);
    CU_ASSERT_EQUAL(r->log.kind[1], MH_CHIP_EV_IRQ);
    CU_ASSERT_EQUAL(r->log.detail[1], M6569_INT_LP);
    /* Held low across the frame start, the latch triggers again on line 0
     * (IRQ masked now: the latch event alone). */
    m6569_write(&r->chip, 0xD01A, 0);
    r->log.count = 0;
    run_frame(r);
    CU_ASSERT_EQUAL(r->log.count, 1);
    CU_ASSERT_EQUAL(r->log.kind[0], MH_CHIP_EV_LIGHTPEN);
    CU_ASSERT_EQUAL(r->log.detail[0] >> 8, 0);
    free(r);
}

/* Listening changes nothing the chip does: registers and pixels match a
 * chip nobody listens to, frame by frame. */
static void test_listening_changes_nothing(void)
{
    rig *heard = rig_new(1), *alone = rig_new(0);
    for (int frame = 0; frame < 3; frame++) {
        for (rig *r = heard; r; r = r == heard ? alone : NULL) {
            m6569_write(&r->chip, 0xD01A, 0x0F);
            if (frame == 1) m6569_set_lightpen(&r->chip, 1);
            run_frame(r);
            if (frame == 1) m6569_set_lightpen(&r->chip, 0);
        }
        for (uint16_t reg = 0xD000; reg < 0xD040; reg++)
            CU_ASSERT_EQUAL(m6569_peek(&heard->chip, reg), m6569_peek(&alone->chip, reg));
        CU_ASSERT_EQUAL(heard->chip.irq, alone->chip.irq);
        CU_ASSERT_EQUAL(memcmp(heard->pixels, alone->pixels, sizeof heard->pixels), 0);
    }
    CU_ASSERT_TRUE(heard->log.count > 0);
    CU_ASSERT_EQUAL(alone->log.count, 0);
    free(heard);
    free(alone);
}

MH_SUITE("vic2.events", NULL, NULL, MH_TEST(test_collisions_are_reported_once_with_their_sprites),
         MH_TEST(test_lightpen_is_reported_with_its_position),
         MH_TEST(test_listening_changes_nothing))
