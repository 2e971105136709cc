/* tools_cia.decode - the CIA decoders against hand-made register sets:
 * the C64's view decoder (c64_cia_decode: ports, timers with latch and
 * control, TOD and alarm from BCD, ICR, serial port) and the toolset's
 * helpers (register numbers and addresses per instance, names, TOD text). */
#include <string.h>

#include "c64_chips.h"
#include "cia6526.h"
#include "cia_decode.h"
#include "mh_test.h"

static uint8_t pins_pulled(void *user, int port)
{
    (void)user;
    return port == M6526_PORT_A ? 0xFF : 0xEF; /* PB4 pulled low outside */
}

static void make_cia(m6526 *cia, m6526_model model)
{
    m6526_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.model = model;
    desc.read_port = pins_pulled;
    CU_ASSERT_EQUAL_FATAL(m6526_init(cia, &desc), MH_OK);
}

static void decode(const m6526 *cia, mh_chip_cia_view *v)
{
    memset(v, 0x55, sizeof *v);
    v->struct_size = sizeof *v;
    c64_cia_decode(cia, v);
}

static void test_ports(void)
{
    m6526 cia;
    make_cia(&cia, M6526_MODEL_6526);
    m6526_write(&cia, M6526_REG_DDRA, 0xFF);
    m6526_write(&cia, M6526_REG_PRA, 0x7F);
    m6526_write(&cia, M6526_REG_DDRB, 0x0F);
    m6526_write(&cia, M6526_REG_PRB, 0x05);
    mh_chip_cia_view v;
    decode(&cia, &v);
    CU_ASSERT_EQUAL(v.struct_size, sizeof v);
    CU_ASSERT_STRING_EQUAL(v.model, "6526");
    CU_ASSERT_EQUAL(v.pra, 0x7F);
    CU_ASSERT_EQUAL(v.ddra, 0xFF);
    CU_ASSERT_EQUAL(v.pa_out, 0x7F);
    CU_ASSERT_EQUAL(v.pa_pins, 0x7F);
    CU_ASSERT_EQUAL(v.prb, 0x05);
    CU_ASSERT_EQUAL(v.ddrb, 0x0F);
    CU_ASSERT_EQUAL(v.pb_out, 0xF5);  /* inputs pulled up */
    CU_ASSERT_EQUAL(v.pb_pins, 0xE5); /* PB4 held low outside */
    CU_ASSERT_EQUAL(v.regs[M6526_REG_PRB], 0xE5);
    CU_ASSERT_EQUAL(v.regs[M6526_REG_DDRB], 0x0F);
}

static void test_timers(void)
{
    m6526 cia;
    make_cia(&cia, M6526_MODEL_6526A);
    /* Timer A: latch $4025, continuous, PB6 toggle; timer B counts TA
     * underflows, one-shot, stopped. */
    m6526_write(&cia, M6526_REG_TALO, 0x25);
    m6526_write(&cia, M6526_REG_TAHI, 0x40);
    m6526_write(&cia, M6526_REG_CRA, 0x17); /* start, PBON, toggle, force load */
    m6526_write(&cia, M6526_REG_TBLO, 0x10);
    m6526_write(&cia, M6526_REG_TBHI, 0x00);
    m6526_write(&cia, M6526_REG_CRB, 0x48); /* TA input, one-shot */
    for (int i = 0; i < 10; i++) m6526_tick(&cia);
    mh_chip_cia_view v;
    decode(&cia, &v);
    CU_ASSERT_STRING_EQUAL(v.model, "6526A");
    CU_ASSERT_EQUAL(v.timer_a.latch, 0x4025);
    CU_ASSERT_TRUE(v.timer_a.counter < 0x4025 && v.timer_a.counter > 0x4010);
    CU_ASSERT_EQUAL(v.timer_a.running, 1);
    CU_ASSERT_EQUAL(v.timer_a.oneshot, 0);
    CU_ASSERT_EQUAL(v.timer_a.pb_on, 1);
    CU_ASSERT_EQUAL(v.timer_a.pb_toggle, 1);
    CU_ASSERT_EQUAL(v.timer_a.input, MH_CHIP_CIA_INPUT_PHI2);
    CU_ASSERT_EQUAL(v.timer_a.control & 0x10, 0); /* the load strobe is not stored */
    CU_ASSERT_EQUAL(v.timer_a.control & 0x07, 0x07);
    CU_ASSERT_EQUAL(v.timer_b.latch, 0x0010);
    CU_ASSERT_EQUAL(v.timer_b.running, 0);
    CU_ASSERT_EQUAL(v.timer_b.oneshot, 1);
    CU_ASSERT_EQUAL(v.timer_b.input, MH_CHIP_CIA_INPUT_TA);
    CU_ASSERT_EQUAL(v.regs[M6526_REG_TALO], v.timer_a.counter & 0xFF);
    CU_ASSERT_EQUAL(v.regs[M6526_REG_TAHI], v.timer_a.counter >> 8);
    /* The counter moves between two decodes of a ticking chip. */
    uint16_t before = v.timer_a.counter;
    for (int i = 0; i < 100; i++) m6526_tick(&cia);
    decode(&cia, &v);
    CU_ASSERT_EQUAL(v.timer_a.counter, before - 100);
    CU_ASSERT_STRING_EQUAL(tc_input_name(v.timer_b.input), "timer_a");
    CU_ASSERT_STRING_EQUAL(tc_input_name(MH_CHIP_CIA_INPUT_TA_CNT), "timer_a_while_cnt");
}

static void test_tod_icr_serial(void)
{
    m6526 cia;
    make_cia(&cia, M6526_MODEL_6526);
    /* Time 11:59:58.7 PM, alarm 12:00:00.0 AM (written with CRB bit 7). */
    m6526_write(&cia, M6526_REG_TODHR, 0x91);
    m6526_write(&cia, M6526_REG_TODMIN, 0x59);
    m6526_write(&cia, M6526_REG_TODSEC, 0x58);
    m6526_write(&cia, M6526_REG_TOD10, 0x07);
    m6526_write(&cia, M6526_REG_CRB, 0x80);
    m6526_write(&cia, M6526_REG_TODHR, 0x12);
    m6526_write(&cia, M6526_REG_TODMIN, 0x00);
    m6526_write(&cia, M6526_REG_TODSEC, 0x00);
    m6526_write(&cia, M6526_REG_TOD10, 0x00);
    m6526_write(&cia, M6526_REG_CRA, 0xC0); /* 50 Hz, serial output */
    m6526_write(&cia, M6526_REG_ICR, 0x83); /* enable TA, TB */
    m6526_write(&cia, M6526_REG_SDR, 0xA5);
    cia.icr.flags = 0x04; /* alarm flag, not enabled */
    mh_chip_cia_view v;
    decode(&cia, &v);
    CU_ASSERT_EQUAL(v.tod.hours, 11);
    CU_ASSERT_EQUAL(v.tod.minutes, 59);
    CU_ASSERT_EQUAL(v.tod.seconds, 58);
    CU_ASSERT_EQUAL(v.tod.tenths, 7);
    CU_ASSERT_EQUAL(v.tod.pm, 1);
    CU_ASSERT_EQUAL(v.alarm.hours, 12);
    CU_ASSERT_EQUAL(v.alarm.pm, 0);
    CU_ASSERT_EQUAL(v.tod_running, 1);
    CU_ASSERT_EQUAL(v.tod_writes_alarm, 1);
    CU_ASSERT_EQUAL(v.tod_50hz, 1);
    CU_ASSERT_EQUAL(v.icr_mask, 0x03);
    CU_ASSERT_EQUAL(v.icr_flags & 0x1F, 0x04);
    CU_ASSERT_EQUAL(v.irq, 0);
    CU_ASSERT_EQUAL(v.sp_output, 1);
    CU_ASSERT_EQUAL(v.sdr, 0xA5);
    CU_ASSERT_EQUAL(cia.icr.flags, 0x04); /* peeking did not acknowledge */
    char text[16];
    tc_time_text(&v.tod, text);
    CU_ASSERT_STRING_EQUAL(text, "11:59:58.7 PM");
    tc_time_text(&v.alarm, text);
    CU_ASSERT_STRING_EQUAL(text, "12:00:00.0 AM");
    /* Reading hours latches TOD in a real read; the decoder must not. */
    decode(&cia, &v);
    CU_ASSERT_EQUAL(cia.tod.latched, 0);
}

static void test_register_numbers(void)
{
    const mh_chip_io_range cia1 = {0xDC00, 0x100}, cia2 = {0xDD00, 0x100};
    CU_ASSERT_EQUAL(tc_cia_register(0, &cia1), 0);
    CU_ASSERT_EQUAL(tc_cia_register(15, &cia2), 15);
    CU_ASSERT_EQUAL(tc_cia_register(16, &cia1), -1);
    CU_ASSERT_EQUAL(tc_cia_register(0xDC0E, &cia1), 14);
    CU_ASSERT_EQUAL(tc_cia_register(0xDCFE, &cia1), 14); /* mirror */
    CU_ASSERT_EQUAL(tc_cia_register(0xDD00, &cia2), 0);
    CU_ASSERT_EQUAL(tc_cia_register(0xDD00, &cia1), -1);
    CU_ASSERT_EQUAL(tc_cia_register(0xDC00, &cia2), -1);
    CU_ASSERT_EQUAL(tc_cia_register(0xDC0D, NULL), -1); /* no range: numbers only */
    CU_ASSERT_EQUAL(tc_cia_register(13, NULL), 13);
    CU_ASSERT_EQUAL(tc_cia_register(0xDE00, &cia1), -1);
    CU_ASSERT_EQUAL(tc_cia_register(0xD020, &cia1), -1);
    CU_ASSERT_STRING_EQUAL(tc_register_name(0), "PRA");
    CU_ASSERT_STRING_EQUAL(tc_register_name(13), "ICR");
    CU_ASSERT_STRING_EQUAL(tc_register_name(15), "CRB");
    CU_ASSERT_STRING_EQUAL(tc_icr_source(2), "alarm");
    CU_ASSERT_STRING_EQUAL(tc_icr_source(9), "unknown");
}

MH_SUITE("tools_cia.decode", NULL, NULL, MH_TEST(test_ports), MH_TEST(test_timers),
         MH_TEST(test_tod_icr_serial), MH_TEST(test_register_numbers))
