/* Tests of the 6526 CIA core: timers, cascade, PB6/PB7, ICR and IRQ timing.
 *
 * A "cycle" here is what the machine does once per PHI2 cycle: tick the
 * chip, then (maybe) the CPU's access. Cycle numbers below count ticks after
 * the cycle w of a register write: "tick w+3" is the third tick after it,
 * and a read "at w+3" is the access right after that tick. */
#include "mh_test.h"

#include "cia6526.h"

#include <string.h>

static m6526 cia;
static int irq_out;

static void setup(m6526_model model)
{
    m6526_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.model = model;
    desc.tod_external = 1;
    CU_ASSERT_EQUAL_FATAL(m6526_init(&cia, &desc), MH_OK);
    irq_out = 0;
}

static void cyc(void)
{
    irq_out = m6526_tick(&cia);
}

static uint8_t cyc_rd(uint16_t reg)
{
    cyc();
    return m6526_read(&cia, reg);
}

static void cyc_wr(uint16_t reg, uint8_t value)
{
    cyc();
    m6526_write(&cia, reg, value);
}

static uint16_t rd_ta(void)
{
    cyc();
    uint8_t lo = m6526_read(&cia, M6526_REG_TALO);
    return (uint16_t)(lo | (m6526_peek(&cia, M6526_REG_TAHI) << 8));
}

/* Latch := value, counter := value (high byte into a stopped timer loads it
 * two ticks later). */
static void load_timer(int b, uint16_t value)
{
    cyc_wr(b ? M6526_REG_TBLO : M6526_REG_TALO, (uint8_t)value);
    cyc_wr(b ? M6526_REG_TBHI : M6526_REG_TAHI, (uint8_t)(value >> 8));
    cyc();
    cyc();
    CU_ASSERT_EQUAL((b ? cia.tb : cia.ta).counter, value);
}

/* Ticks (without access) until timer A has underflowed `n` more times;
 * returns the number of ticks taken, or -1 after `limit` ticks. */
static int ticks_to_underflow(m6526_timer *t, int limit)
{
    uint32_t start = t->underflows;
    for (int i = 1; i <= limit; i++) {
        cyc();
        if (t->underflows != start) return i;
    }
    return -1;
}

/* ---- init ---- */

static void test_init_args(void)
{
    m6526_desc desc;
    memset(&desc, 0, sizeof desc);
    CU_ASSERT_EQUAL(m6526_init(NULL, &desc), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(m6526_init(&cia, NULL), MH_ERR_INVALID_ARGUMENT);
    desc.model = (m6526_model)7;
    CU_ASSERT_EQUAL(m6526_init(&cia, &desc), MH_ERR_INVALID_ARGUMENT);
    desc.model = M6526_MODEL_6526;
    desc.clock_hz = 10;
    desc.tod_hz = 50;
    CU_ASSERT_EQUAL(m6526_init(&cia, &desc), MH_ERR_INVALID_ARGUMENT);
}

static void test_reset_state(void)
{
    setup(M6526_MODEL_6526);
    CU_ASSERT_EQUAL(cia.ta.latch, 0xFFFF);
    CU_ASSERT_EQUAL(cia.tb.latch, 0xFFFF);
    CU_ASSERT_EQUAL(m6526_peek(&cia, M6526_REG_CRA), 0);
    CU_ASSERT_EQUAL(m6526_peek(&cia, M6526_REG_ICR), 0);
    CU_ASSERT_EQUAL(m6526_peek(&cia, M6526_REG_DDRA), 0);
    CU_ASSERT_EQUAL(m6526_peek(&cia, M6526_REG_PRA), 0xFF); /* inputs, pulled up */
    CU_ASSERT_EQUAL(m6526_peek(&cia, M6526_REG_TODHR), 0x01);
    CU_ASSERT_EQUAL(cia.tod.stopped, 1);
    /* Dirty the chip, reset it again. */
    cyc_wr(M6526_REG_DDRA, 0xFF);
    cyc_wr(M6526_REG_CRA, 0x01);
    cyc_wr(M6526_REG_ICR, 0x81);
    m6526_reset(&cia);
    CU_ASSERT_EQUAL(cia.ddr[0], 0);
    CU_ASSERT_EQUAL(cia.ta.cr, 0);
    CU_ASSERT_EQUAL(cia.icr.mask, 0);
    CU_ASSERT_EQUAL(cia.pipe, 0);
    CU_ASSERT_EQUAL(cia.feed, 0);
}

/* ---- timer A ---- */

static void test_ta_start_and_period(void)
{
    setup(M6526_MODEL_6526);
    load_timer(0, 5);
    cyc_wr(M6526_REG_CRA, 0x01); /* cycle w */
    /* Reads at w+1.. : two cycles of delay, then 4 3 2 1, the underflow
     * reloads 5 at once (0 is never read), one idle cycle, 4 ... */
    static const uint16_t expect[] = {5, 5, 4, 3, 2, 1, 5, 5, 4, 3, 2, 1, 5, 5, 4};
    int underflow_at[3], n = 0;
    for (int i = 0; i < 15; i++) {
        uint32_t before = cia.ta.underflows;
        uint16_t v = rd_ta();
        CU_ASSERT_EQUAL(v, expect[i]);
        if (cia.ta.underflows != before && n < 3) underflow_at[n++] = i + 1;
    }
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(underflow_at[0], 7);  /* tick w+7 */
    CU_ASSERT_EQUAL(underflow_at[1], 13); /* period N+1 = 6 */
    CU_ASSERT_EQUAL(ticks_to_underflow(&cia.ta, 20), 4); /* next at w+19 */
    CU_ASSERT_EQUAL(ticks_to_underflow(&cia.ta, 20), 6);
    CU_ASSERT_EQUAL(cia.ta.cr & M6526_CR_START, M6526_CR_START);
    CU_ASSERT(cia.icr.flags & M6526_INT_TA);
}

static void test_ta_zero_counter_latch_n(void)
{
    setup(M6526_MODEL_6526);
    load_timer(0, 0);
    cyc_wr(M6526_REG_TALO, 3); /* latch 3, counter stays 0 */
    CU_ASSERT_EQUAL(cia.ta.counter, 0);
    cyc_wr(M6526_REG_CRA, 0x01);
    /* A counter at 0 underflows as soon as counting is armed (tick w+2),
     * then every latch+1 = 4 cycles. */
    CU_ASSERT_EQUAL(ticks_to_underflow(&cia.ta, 10), 2);
    CU_ASSERT_EQUAL(cia.ta.counter, 3);
    for (int i = 0; i < 5; i++) CU_ASSERT_EQUAL(ticks_to_underflow(&cia.ta, 10), 4);
}

static void test_ta_latch_zero_and_one(void)
{
    setup(M6526_MODEL_6526);
    load_timer(0, 1);
    cyc_wr(M6526_REG_CRA, 0x01);
    CU_ASSERT_EQUAL(ticks_to_underflow(&cia.ta, 10), 3);
    for (int i = 0; i < 4; i++) CU_ASSERT_EQUAL(ticks_to_underflow(&cia.ta, 10), 2);
    cyc_wr(M6526_REG_TALO, 0);
    cyc_wr(M6526_REG_TAHI, 0);
    ticks_to_underflow(&cia.ta, 10);
    ticks_to_underflow(&cia.ta, 10);
    for (int i = 0; i < 4; i++) CU_ASSERT_EQUAL(ticks_to_underflow(&cia.ta, 10), 1);
}

static void test_ta_oneshot(void)
{
    setup(M6526_MODEL_6526);
    load_timer(0, 5);
    cyc_wr(M6526_REG_CRA, 0x09); /* start, one-shot */
    CU_ASSERT_EQUAL(ticks_to_underflow(&cia.ta, 20), 7);
    /* The start bit is cleared, the counter holds the reloaded latch. */
    CU_ASSERT_EQUAL(m6526_peek(&cia, M6526_REG_CRA), 0x08);
    for (int i = 0; i < 20; i++) CU_ASSERT_EQUAL(rd_ta(), 5);
    CU_ASSERT_EQUAL(cia.ta.underflows, 1);
    CU_ASSERT_EQUAL(ticks_to_underflow(&cia.ta, 100), -1);
    /* Restarting runs it once more. */
    cyc_wr(M6526_REG_CRA, 0x09);
    CU_ASSERT_EQUAL(ticks_to_underflow(&cia.ta, 20), 7);
    CU_ASSERT_EQUAL(ticks_to_underflow(&cia.ta, 100), -1);
}

static void test_ta_force_load(void)
{
    setup(M6526_MODEL_6526);
    load_timer(0, 1000);
    cyc_wr(M6526_REG_CRA, 0x01);
    for (int i = 0; i < 10; i++) cyc();
    /* New latch while running: the counter is not touched. */
    cyc_wr(M6526_REG_TALO, 0x00);
    cyc_wr(M6526_REG_TAHI, 0x02);
    CU_ASSERT_EQUAL(cia.ta.latch, 0x0200);
    CU_ASSERT(cia.ta.counter < 1000 && cia.ta.counter > 980);
    uint16_t before = cia.ta.counter;
    cyc_wr(M6526_REG_CRA, 0x11); /* force load + start: cycle w */
    CU_ASSERT_EQUAL(m6526_peek(&cia, M6526_REG_CRA), 0x01); /* strobe reads 0 */
    CU_ASSERT_EQUAL(rd_ta(), before - 2);  /* w+1: still counting */
    CU_ASSERT_EQUAL(rd_ta(), 0x0200);      /* w+2: loaded */
    CU_ASSERT_EQUAL(rd_ta(), 0x0200);      /* w+3: the load swallowed a count */
    CU_ASSERT_EQUAL(rd_ta(), 0x01FF);      /* w+4 */
    /* Force load into a stopped timer. */
    cyc_wr(M6526_REG_CRA, 0x00);
    cyc();
    cyc();
    uint16_t frozen = cia.ta.counter;
    for (int i = 0; i < 5; i++) CU_ASSERT_EQUAL(rd_ta(), frozen);
    cyc_wr(M6526_REG_TALO, 0x34);
    cyc_wr(M6526_REG_CRA, 0x10);
    CU_ASSERT_EQUAL(rd_ta(), frozen);
    CU_ASSERT_EQUAL(rd_ta(), 0x0234);
    for (int i = 0; i < 5; i++) CU_ASSERT_EQUAL(rd_ta(), 0x0234);
}

static void test_ta_stop_pipeline(void)
{
    setup(M6526_MODEL_6526);
    load_timer(0, 1000);
    cyc_wr(M6526_REG_CRA, 0x01);
    for (int i = 0; i < 10; i++) cyc();
    uint16_t v = rd_ta();
    m6526_write(&cia, M6526_REG_CRA, 0x00); /* stop in cycle w */
    /* Two counts are still in the pipeline, then it holds. */
    CU_ASSERT_EQUAL(rd_ta(), v - 1);
    CU_ASSERT_EQUAL(rd_ta(), v - 2);
    for (int i = 0; i < 5; i++) CU_ASSERT_EQUAL(rd_ta(), v - 2);
}

static void test_ta_latch_write_during_reload(void)
{
    setup(M6526_MODEL_6526);
    load_timer(0, 5);
    cyc_wr(M6526_REG_CRA, 0x01);
    for (int i = 0; i < 6; i++) cyc();
    /* Tick w+7 underflows and reloads; a latch write in that cycle
     * reaches the counter as well. */
    cyc();
    CU_ASSERT_EQUAL(cia.ta.underflows, 1);
    m6526_write(&cia, M6526_REG_TALO, 9);
    CU_ASSERT_EQUAL(cia.ta.counter, 9);
    CU_ASSERT_EQUAL(ticks_to_underflow(&cia.ta, 20), 10);
}

static void test_ta_cnt_input(void)
{
    setup(M6526_MODEL_6526);
    load_timer(0, 2);
    cyc_wr(M6526_REG_CRA, 0x21); /* start, count CNT edges */
    for (int i = 0; i < 10; i++) CU_ASSERT_EQUAL(rd_ta(), 2);
    /* A rising edge counts 4 ticks later. */
    m6526_set_cnt(&cia, 0);
    m6526_set_cnt(&cia, 1);
    CU_ASSERT_EQUAL(rd_ta(), 2);
    CU_ASSERT_EQUAL(rd_ta(), 2);
    CU_ASSERT_EQUAL(rd_ta(), 2);
    CU_ASSERT_EQUAL(rd_ta(), 1);
    m6526_set_cnt(&cia, 0);
    m6526_set_cnt(&cia, 1);
    for (int i = 0; i < 6; i++) cyc();
    /* At 0 the counter waits for the next edge to underflow (reads 0). */
    CU_ASSERT_EQUAL(rd_ta(), 0);
    CU_ASSERT_EQUAL(cia.ta.underflows, 0);
    m6526_set_cnt(&cia, 0);
    m6526_set_cnt(&cia, 1);
    CU_ASSERT_EQUAL(ticks_to_underflow(&cia.ta, 10), 3);
    CU_ASSERT_EQUAL(cia.ta.counter, 2);
}

/* ---- timer B ---- */

static void test_tb_cascade(void)
{
    setup(M6526_MODEL_6526);
    load_timer(0, 2);
    load_timer(1, 3);
    cyc_wr(M6526_REG_CRB, 0x41); /* count TA underflows */
    cyc_wr(M6526_REG_CRA, 0x01);
    int ta_at[8], tb_at[2], tb_change[8];
    int na = 0, nb = 0, nc = 0;
    uint16_t last_b = cia.tb.counter;
    for (int t = 1; t <= 30; t++) {
        uint32_t ua = cia.ta.underflows, ub = cia.tb.underflows;
        cyc();
        if (cia.ta.underflows != ua && na < 8) ta_at[na++] = t;
        if (cia.tb.underflows != ub && nb < 2) tb_at[nb++] = t;
        if (cia.tb.counter != last_b && nc < 8) tb_change[nc++] = t;
        last_b = cia.tb.counter;
    }
    CU_ASSERT_EQUAL_FATAL(na, 8);
    CU_ASSERT_EQUAL_FATAL(nb, 2);
    /* TA: first at 4 (start 3 + 2 - 1 ... the pipeline), then every 3. */
    for (int i = 1; i < na; i++) CU_ASSERT_EQUAL(ta_at[i] - ta_at[i - 1], 3);
    /* TB counts 2 ticks after each TA underflow: 3 -> 2 -> 1 -> 0, then
     * the 4th TA underflow makes it underflow (one tick later) and reload. */
    CU_ASSERT_EQUAL(tb_change[0], ta_at[0] + 2);
    CU_ASSERT_EQUAL(tb_change[1], ta_at[1] + 2);
    CU_ASSERT_EQUAL(tb_change[2], ta_at[2] + 2);
    CU_ASSERT_EQUAL(tb_at[0], ta_at[3] + 1);
    CU_ASSERT_EQUAL(tb_at[1], ta_at[7] + 1); /* every latch+1 = 4 TA underflows */
    CU_ASSERT(cia.icr.flags & M6526_INT_TB);
    /* Timer B counting PHI2 ignores TA. */
    cyc_wr(M6526_REG_CRB, 0x00);
    load_timer(1, 7);
    cyc_wr(M6526_REG_CRB, 0x01);
    CU_ASSERT_EQUAL(ticks_to_underflow(&cia.tb, 20), 9);
    CU_ASSERT_EQUAL(ticks_to_underflow(&cia.tb, 20), 8);
}

static void test_tb_cascade_with_cnt(void)
{
    setup(M6526_MODEL_6526);
    load_timer(0, 2);
    load_timer(1, 100);
    m6526_set_cnt(&cia, 0);
    cyc_wr(M6526_REG_CRB, 0x61); /* TA underflows while CNT high */
    cyc_wr(M6526_REG_CRA, 0x01);
    for (int i = 0; i < 30; i++) cyc();
    CU_ASSERT(cia.ta.underflows >= 9);
    CU_ASSERT_EQUAL(cia.tb.counter, 100);
    m6526_set_cnt(&cia, 1);
    uint32_t ua = cia.ta.underflows;
    for (int i = 0; i < 30; i++) cyc();
    uint32_t counted = cia.ta.underflows - ua;
    CU_ASSERT(counted >= 9);
    CU_ASSERT(100 - cia.tb.counter >= (int)counted - 1 && 100 - cia.tb.counter <= (int)counted);
}

/* ---- PB6 / PB7 ---- */

static void test_pb6_toggle(void)
{
    setup(M6526_MODEL_6526);
    load_timer(0, 3);
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_PRB) & 0x40, 0x40); /* input, pulled up */
    cyc_wr(M6526_REG_DDRB, 0xFF);                         /* outputs, PRB = 0 */
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_PRB), 0x00);
    cyc_wr(M6526_REG_CRA, 0x07); /* start, PBON, toggle */
    /* The toggle flip-flop goes high when the timer starts. */
    CU_ASSERT_EQUAL(m6526_peek(&cia, M6526_REG_PRB), 0x40);
    int flips = 0;
    for (int i = 0; i < 40; i++) {
        uint32_t n = cia.ta.underflows;
        uint8_t v = cyc_rd(M6526_REG_PRB);
        if (cia.ta.underflows != n) flips++;
        CU_ASSERT_EQUAL(v & 0xBF, 0x00);
        CU_ASSERT_EQUAL((v >> 6) & 1, (flips & 1) ? 0 : 1);
    }
    CU_ASSERT_EQUAL(flips, 9); /* ticks w+5, w+9, ... w+37 */
    /* PBON forces PB6 to an output even if DDRB says input. */
    cyc_wr(M6526_REG_DDRB, 0x00);
    CU_ASSERT_EQUAL(m6526_port_ddr(&cia, M6526_PORT_B), 0x40);
    /* PBON off: PB6 is the port bit again. */
    cyc_wr(M6526_REG_CRA, 0x01);
    for (int i = 0; i < 10; i++) CU_ASSERT_EQUAL(cyc_rd(M6526_REG_PRB), 0xFF);
}

static void test_pb6_pulse(void)
{
    setup(M6526_MODEL_6526);
    load_timer(0, 4);
    cyc_wr(M6526_REG_DDRB, 0x40);
    cyc_wr(M6526_REG_PRB, 0x40); /* the port says high: overridden */
    cyc_wr(M6526_REG_CRA, 0x03); /* start, PBON, pulse */
    int high = 0;
    for (int i = 0; i < 50; i++) {
        uint32_t n = cia.ta.underflows;
        uint8_t v = cyc_rd(M6526_REG_PRB);
        int under = cia.ta.underflows != n;
        CU_ASSERT_EQUAL((v >> 6) & 1, under ? 1 : 0); /* high exactly in that cycle */
        high += under;
    }
    CU_ASSERT_EQUAL(high, 9); /* ticks w+6, w+11, ... w+46 */
    /* Latch 0: an underflow every cycle keeps the pulse output high. */
    cyc_wr(M6526_REG_TALO, 0);
    for (int i = 0; i < 10; i++) cyc();
    for (int i = 0; i < 10; i++) CU_ASSERT_EQUAL(cyc_rd(M6526_REG_PRB) & 0x40, 0x40);
    /* Stopped: back to low after the last pulse. */
    cyc_wr(M6526_REG_CRA, 0x02);
    for (int i = 0; i < 4; i++) cyc();
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_PRB) & 0x40, 0x00);
}

static void test_pb7_timer_b(void)
{
    setup(M6526_MODEL_6526);
    load_timer(1, 2);
    cyc_wr(M6526_REG_CRB, 0x07); /* start, PBON, toggle */
    int flips = 0;
    for (int i = 0; i < 30; i++) {
        uint32_t n = cia.tb.underflows;
        uint8_t v = cyc_rd(M6526_REG_PRB);
        if (cia.tb.underflows != n) flips++;
        CU_ASSERT_EQUAL(v & 0x7F, 0x7F);
        CU_ASSERT_EQUAL(v >> 7, (flips & 1) ? 0 : 1);
    }
    CU_ASSERT_EQUAL(flips, 9); /* ticks w+4, w+7, ... w+28 */
    cyc_wr(M6526_REG_CRB, 0x03); /* pulse */
    for (int i = 0; i < 30; i++) {
        uint32_t n = cia.tb.underflows;
        uint8_t v = cyc_rd(M6526_REG_PRB);
        CU_ASSERT_EQUAL(v >> 7, cia.tb.underflows != n ? 1 : 0);
    }
}

/* ---- ICR ---- */

/* Starts timer A with the TA interrupt enabled; returns the tick count to
 * the first underflow, latch + 2 (the tick itself has just run). */
static int start_ta_irq(uint16_t latch)
{
    load_timer(0, latch);
    cyc_wr(M6526_REG_ICR, 0x81);
    cyc_wr(M6526_REG_CRA, 0x01);
    return ticks_to_underflow(&cia.ta, 100);
}

static void test_icr_irq_timing_old(void)
{
    setup(M6526_MODEL_6526);
    CU_ASSERT_EQUAL(start_ta_irq(4), 6);
    /* Underflow tick: flag set, IR and the output one cycle later. */
    CU_ASSERT_EQUAL(cia.icr.flags, 0x01);
    CU_ASSERT_EQUAL(irq_out, 0);
    cyc();
    CU_ASSERT_EQUAL(cia.icr.flags, 0x81);
    CU_ASSERT_EQUAL(irq_out, 1);
    CU_ASSERT_EQUAL(m6526_irq(&cia), 1);
    for (int i = 0; i < 10; i++) {
        cyc();
        CU_ASSERT_EQUAL(irq_out, 1); /* level until ICR is read */
    }
}

static void test_icr_irq_timing_new(void)
{
    setup(M6526_MODEL_6526A);
    CU_ASSERT_EQUAL(start_ta_irq(4), 6);
    /* Same tick: flag, IR and output together. */
    CU_ASSERT_EQUAL(cia.icr.flags, 0x81);
    CU_ASSERT_EQUAL(irq_out, 1);
}

static void test_icr_masked_flag(void)
{
    setup(M6526_MODEL_6526);
    load_timer(0, 4);
    cyc_wr(M6526_REG_CRA, 0x01);
    CU_ASSERT(ticks_to_underflow(&cia.ta, 20) > 0);
    for (int i = 0; i < 3; i++) cyc();
    CU_ASSERT_EQUAL(cia.icr.flags & 0x1F, 0x01); /* flag without IR */
    CU_ASSERT_EQUAL(cia.icr.flags & 0x80, 0);
    CU_ASSERT_EQUAL(irq_out, 0);
}

static void mask_write_delay(m6526_model model, int expect)
{
    setup(model);
    load_timer(0, 100);
    cyc_wr(M6526_REG_CRA, 0x09);
    ticks_to_underflow(&cia.ta, 200);
    cyc();
    cyc();
    CU_ASSERT_EQUAL(cia.icr.flags, 0x01);
    cyc_wr(M6526_REG_ICR, 0x81); /* enable the pending flag: cycle w */
    int t = 0;
    while (t < 5 && !irq_out) {
        cyc();
        t++;
    }
    CU_ASSERT_EQUAL(t, expect);
    CU_ASSERT_EQUAL(cia.icr.flags, 0x81);
}

static void test_icr_mask_write_old_vs_new(void)
{
    mask_write_delay(M6526_MODEL_6526A, 1);
    mask_write_delay(M6526_MODEL_6526, 2);
}

static void test_icr_mask_set_clear(void)
{
    setup(M6526_MODEL_6526);
    cyc_wr(M6526_REG_ICR, 0x83);
    CU_ASSERT_EQUAL(cia.icr.mask, 0x03);
    cyc_wr(M6526_REG_ICR, 0x94);
    CU_ASSERT_EQUAL(cia.icr.mask, 0x17);
    cyc_wr(M6526_REG_ICR, 0x05); /* bit 7 clear: clear bits 0 and 2 */
    CU_ASSERT_EQUAL(cia.icr.mask, 0x12);
    cyc_wr(M6526_REG_ICR, 0x7F);
    CU_ASSERT_EQUAL(cia.icr.mask, 0x00);
    cyc_wr(M6526_REG_ICR, 0xFF);
    CU_ASSERT_EQUAL(cia.icr.mask, 0x1F);
}

static void read_clears(m6526_model model)
{
    setup(model);
    start_ta_irq(20);
    cyc();
    cyc();
    CU_ASSERT_EQUAL(irq_out, 1);
    CU_ASSERT_EQUAL(m6526_read(&cia, M6526_REG_ICR), 0x81); /* access r */
    CU_ASSERT_EQUAL(cia.icr.irq, 1); /* the line goes up at the next tick */
    cyc();
    CU_ASSERT_EQUAL(irq_out, 0);
    cyc();
    CU_ASSERT_EQUAL(cia.icr.flags, 0x00);
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_ICR), 0x00);
    for (int i = 0; i < 5; i++) {
        cyc();
        if (cia.ta.underflows > 1) break;
        CU_ASSERT_EQUAL(irq_out, 0);
    }
}

static void test_icr_read_clears(void)
{
    read_clears(M6526_MODEL_6526);
    /* Old chip: the source bits are cleared by the read itself. */
    setup(M6526_MODEL_6526);
    start_ta_irq(4);
    cyc();
    m6526_read(&cia, M6526_REG_ICR);
    CU_ASSERT_EQUAL(cia.icr.flags & 0x1F, 0);
    read_clears(M6526_MODEL_6526A);
}

static void test_icr_read_in_underflow_cycle_old(void)
{
    setup(M6526_MODEL_6526);
    CU_ASSERT_EQUAL(start_ta_irq(4), 6);
    /* Read in the cycle of the underflow: the flag is seen, IR is not, and
     * the interrupt is never raised. */
    CU_ASSERT_EQUAL(m6526_read(&cia, M6526_REG_ICR), 0x01);
    for (int i = 0; i < 4; i++) {
        cyc();
        CU_ASSERT_EQUAL(irq_out, 0);
    }
    CU_ASSERT_EQUAL(cia.icr.flags, 0x00);
    /* The next underflow interrupts normally. */
    CU_ASSERT(ticks_to_underflow(&cia.ta, 20) > 0);
    cyc();
    CU_ASSERT_EQUAL(irq_out, 1);
}

static void test_icr_read_in_underflow_cycle_new(void)
{
    setup(M6526_MODEL_6526A);
    CU_ASSERT_EQUAL(start_ta_irq(4), 6);
    CU_ASSERT_EQUAL(irq_out, 1);
    /* The new chip raised it already: the read sees IR and the output is
     * released at the next tick. */
    CU_ASSERT_EQUAL(m6526_read(&cia, M6526_REG_ICR), 0x81);
    cyc();
    CU_ASSERT_EQUAL(irq_out, 0);
}

static void test_icr_read_before_underflow_new(void)
{
    setup(M6526_MODEL_6526A);
    load_timer(0, 4);
    cyc_wr(M6526_REG_ICR, 0x81);
    cyc_wr(M6526_REG_CRA, 0x01);
    for (int i = 0; i < 5; i++) cyc();
    /* Read one cycle before the underflow tick: the 6526A then raises the
     * interrupt one cycle late, like the old chip. */
    CU_ASSERT_EQUAL(m6526_read(&cia, M6526_REG_ICR), 0x00);
    cyc();
    CU_ASSERT_EQUAL(cia.ta.underflows, 1);
    CU_ASSERT_EQUAL(irq_out, 0);
    cyc();
    CU_ASSERT_EQUAL(irq_out, 1);
}

static void test_icr_timer_b_bug_old(void)
{
    for (int model = 0; model < 2; model++) {
        setup((m6526_model)model);
        load_timer(1, 4);
        cyc_wr(M6526_REG_ICR, 0x82);
        cyc_wr(M6526_REG_CRB, 0x01);
        for (int i = 0; i < 5; i++) cyc();
        m6526_read(&cia, M6526_REG_ICR); /* the cycle before */
        cyc();
        CU_ASSERT_EQUAL(cia.tb.underflows, 1);
        cyc();
        CU_ASSERT_EQUAL(irq_out, 1);
        /* Old chip: the TB flag is lost, the interrupt still happens. */
        CU_ASSERT_EQUAL(cia.icr.flags & 0x1F, model == M6526_MODEL_6526 ? 0x00 : 0x02);
    }
}

static void test_icr_flag_pin(void)
{
    for (int model = 0; model < 2; model++) {
        setup((m6526_model)model);
        cyc_wr(M6526_REG_ICR, 0x90);
        m6526_flag(&cia);
        CU_ASSERT_EQUAL(cia.icr.flags, 0x00); /* taken at the next tick */
        cyc();
        CU_ASSERT_EQUAL(cia.icr.flags & 0x1F, 0x10);
        CU_ASSERT_EQUAL(irq_out, model == M6526_MODEL_6526A);
        cyc();
        CU_ASSERT_EQUAL(irq_out, 1);
        CU_ASSERT_EQUAL(cyc_rd(M6526_REG_ICR), 0x90);
        cyc();
        CU_ASSERT_EQUAL(irq_out, 0);
    }
}

MH_SUITE("cia6526.init", NULL, NULL, MH_TEST(test_init_args), MH_TEST(test_reset_state))
MH_SUITE("cia6526.timer_a", NULL, NULL, MH_TEST(test_ta_start_and_period),
         MH_TEST(test_ta_zero_counter_latch_n), MH_TEST(test_ta_latch_zero_and_one),
         MH_TEST(test_ta_oneshot), MH_TEST(test_ta_force_load), MH_TEST(test_ta_stop_pipeline),
         MH_TEST(test_ta_latch_write_during_reload), MH_TEST(test_ta_cnt_input))
MH_SUITE("cia6526.timer_b", NULL, NULL, MH_TEST(test_tb_cascade),
         MH_TEST(test_tb_cascade_with_cnt))
MH_SUITE("cia6526.pb67", NULL, NULL, MH_TEST(test_pb6_toggle), MH_TEST(test_pb6_pulse),
         MH_TEST(test_pb7_timer_b))
MH_SUITE("cia6526.icr", NULL, NULL, MH_TEST(test_icr_irq_timing_old),
         MH_TEST(test_icr_irq_timing_new), MH_TEST(test_icr_masked_flag),
         MH_TEST(test_icr_mask_write_old_vs_new), MH_TEST(test_icr_mask_set_clear),
         MH_TEST(test_icr_read_clears), MH_TEST(test_icr_read_in_underflow_cycle_old),
         MH_TEST(test_icr_read_in_underflow_cycle_new),
         MH_TEST(test_icr_read_before_underflow_new), MH_TEST(test_icr_timer_b_bug_old),
         MH_TEST(test_icr_flag_pin))
