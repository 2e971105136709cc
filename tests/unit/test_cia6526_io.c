/* Tests of the 6526 CIA: TOD clock, serial port, ports, register mirrors,
 * peek, snapshots and the decoded debug state. */
#include "mh_test.h"

#include "cia6526.h"

#include <string.h>

static m6526 cia;
static int irq_out;

/* What the outside world does to the port pins. */
static uint8_t ext_pins[2];
static int port_out_calls;
static uint8_t port_out_last[2];

static uint8_t test_read_port(void *user, int port)
{
    (void)user;
    return ext_pins[port & 1];
}

static void test_port_out(void *user, int port, uint8_t levels)
{
    (void)user;
    port_out_calls++;
    port_out_last[port & 1] = levels;
}

static void setup_full(m6526_model model, int tod_external, uint32_t clock_hz, uint32_t tod_hz)
{
    m6526_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.model = model;
    desc.tod_external = tod_external;
    desc.clock_hz = clock_hz;
    desc.tod_hz = tod_hz;
    desc.read_port = test_read_port;
    desc.port_out = test_port_out;
    ext_pins[0] = ext_pins[1] = 0xFF;
    port_out_calls = 0;
    port_out_last[0] = port_out_last[1] = 0xFF;
    CU_ASSERT_EQUAL_FATAL(m6526_init(&cia, &desc), MH_OK);
    irq_out = 0;
}

static void setup(m6526_model model)
{
    setup_full(model, 1, 0, 0);
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

static void pulses(int n)
{
    for (int i = 0; i < n; i++) {
        m6526_tod_tick(&cia);
        cyc();
    }
}

/* Sets the clock the way programs do: hours first (stops), tenths last. */
static void set_time(uint8_t hr, uint8_t min, uint8_t sec, uint8_t tenths)
{
    cyc_wr(M6526_REG_TODHR, hr);
    cyc_wr(M6526_REG_TODMIN, min);
    cyc_wr(M6526_REG_TODSEC, sec);
    cyc_wr(M6526_REG_TOD10, tenths);
}

static void expect_time(uint8_t hr, uint8_t min, uint8_t sec, uint8_t tenths)
{
    CU_ASSERT_EQUAL(cia.tod.time[3], hr);
    CU_ASSERT_EQUAL(cia.tod.time[2], min);
    CU_ASSERT_EQUAL(cia.tod.time[1], sec);
    CU_ASSERT_EQUAL(cia.tod.time[0], tenths);
}

/* ---- TOD ---- */

static void test_tod_bcd_and_12h(void)
{
    setup(M6526_MODEL_6526);
    cyc_wr(M6526_REG_CRA, 0x80); /* 50 Hz: 5 pulses per tenth */
    set_time(0x11, 0x59, 0x59, 0x09);
    pulses(4);
    expect_time(0x11, 0x59, 0x59, 0x09);
    pulses(1);
    expect_time(0x92, 0x00, 0x00, 0x00); /* 11:59:59.9 AM -> 12:00:00.0 PM */
    pulses(5 * 9);
    expect_time(0x92, 0x00, 0x00, 0x09);
    pulses(5);
    expect_time(0x92, 0x00, 0x01, 0x00); /* BCD carry into seconds */
    set_time(0x12, 0x59, 0x59, 0x09);    /* writing 12 flips AM/PM: 12 PM */
    expect_time(0x92, 0x59, 0x59, 0x09);
    pulses(5);
    expect_time(0x81, 0x00, 0x00, 0x00); /* 12:59:59.9 PM -> 1 PM */
    set_time(0x09, 0x59, 0x59, 0x09);
    pulses(5);
    expect_time(0x10, 0x00, 0x00, 0x00); /* 09 -> 10 */
    set_time(0x91, 0x59, 0x59, 0x09);
    pulses(5);
    expect_time(0x12, 0x00, 0x00, 0x00); /* 11:59:59.9 PM -> 12 AM */
    set_time(0x12, 0x00, 0x09, 0x09);    /* 12 AM written as $12 flips... */
    CU_ASSERT_EQUAL(cia.tod.time[3], 0x12); /* ...only if the value changes */
    cyc_wr(M6526_REG_TODHR, 0x92);     /* 12 PM written: reads 12 AM */
    CU_ASSERT_EQUAL(cia.tod.time[3], 0x12);
    cyc_wr(M6526_REG_TOD10, 0);
    pulses(5);
    expect_time(0x12, 0x00, 0x09, 0x01);
    /* Unused bits are not stored. */
    set_time(0xFF, 0xFF, 0xFF, 0xFF);
    expect_time(0x9F, 0x7F, 0x7F, 0x0F);
}

static void test_tod_60hz(void)
{
    setup(M6526_MODEL_6526);
    set_time(0x01, 0x00, 0x00, 0x00); /* CRA bit 7 = 0: 60 Hz */
    pulses(5);
    expect_time(0x01, 0x00, 0x00, 0x00);
    pulses(1);
    expect_time(0x01, 0x00, 0x00, 0x01);
    pulses(6 * 9);
    expect_time(0x01, 0x00, 0x01, 0x00);
}

static void test_tod_stopped_after_reset_and_hours_write(void)
{
    setup(M6526_MODEL_6526);
    cyc_wr(M6526_REG_CRA, 0x80);
    pulses(50); /* stopped since reset */
    expect_time(0x01, 0x00, 0x00, 0x00);
    cyc_wr(M6526_REG_TOD10, 0x00);
    pulses(10);
    expect_time(0x01, 0x00, 0x00, 0x02);
    cyc_wr(M6526_REG_TODHR, 0x02); /* stops */
    CU_ASSERT_EQUAL(cia.tod.stopped, 1);
    pulses(50);
    expect_time(0x02, 0x00, 0x00, 0x02);
    cyc_wr(M6526_REG_TODMIN, 0x30); /* still stopped */
    pulses(50);
    expect_time(0x02, 0x30, 0x00, 0x02);
    cyc_wr(M6526_REG_TOD10, 0x05); /* runs again, prescaler restarted */
    pulses(4);
    expect_time(0x02, 0x30, 0x00, 0x05);
    pulses(1);
    expect_time(0x02, 0x30, 0x00, 0x06);
}

static void test_tod_latch_on_hours_read(void)
{
    setup(M6526_MODEL_6526);
    cyc_wr(M6526_REG_CRA, 0x80);
    set_time(0x03, 0x15, 0x20, 0x00);
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_TODHR), 0x03); /* latches */
    pulses(5 * 12);                                      /* 1.2 s later */
    expect_time(0x03, 0x15, 0x21, 0x02);
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_TODMIN), 0x15);
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_TODSEC), 0x20);
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_TOD10), 0x00); /* releases */
    CU_ASSERT_EQUAL(cia.tod.latched, 0);
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_TODSEC), 0x21);
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_TOD10), 0x02);
    /* Without an hours read nothing latches. */
    pulses(5);
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_TOD10), 0x03);
}

static void test_tod_alarm_irq(void)
{
    for (int model = 0; model < 2; model++) {
        setup((m6526_model)model);
        cyc_wr(M6526_REG_CRA, 0x80);
        cyc_wr(M6526_REG_CRB, 0x80); /* writes go to the alarm */
        set_time(0x01, 0x00, 0x00, 0x05);
        cyc_wr(M6526_REG_CRB, 0x00);
        CU_ASSERT_EQUAL(cia.tod.alarm[3], 0x01);
        CU_ASSERT_EQUAL(cia.tod.alarm[0], 0x05);
        CU_ASSERT_EQUAL(cia.tod.stopped, 1); /* alarm writes do not start it */
        set_time(0x01, 0x00, 0x00, 0x00);
        /* Writing the alarm hours made alarm == time for a moment (01:00:00.0):
         * that matched and set the flag, as on the chip. Clear it. */
        CU_ASSERT_EQUAL(cyc_rd(M6526_REG_ICR), M6526_INT_ALARM);
        cyc();
        cyc();
        cyc_wr(M6526_REG_ICR, 0x84);
        for (int i = 0; i < 24; i++) {
            m6526_tod_tick(&cia);
            cyc();
        }
        CU_ASSERT_EQUAL(cia.icr.flags, 0x00);
        m6526_tod_tick(&cia); /* 01:00:00.5 = alarm */
        expect_time(0x01, 0x00, 0x00, 0x05);
        cyc();
        CU_ASSERT_EQUAL(cia.icr.flags & 0x1F, M6526_INT_ALARM);
        CU_ASSERT_EQUAL(irq_out, model == M6526_MODEL_6526A);
        cyc();
        CU_ASSERT_EQUAL(irq_out, 1);
        CU_ASSERT_EQUAL(cyc_rd(M6526_REG_ICR), 0x84);
        pulses(50);
        CU_ASSERT_EQUAL(cia.icr.flags, 0x00); /* only on the exact match */
    }
}

static void test_tod_internal_clock(void)
{
    /* 1001 Hz PHI2, 50 Hz mains: pulses every 20 or 21 cycles, exactly 50
     * in 1001 cycles. */
    setup_full(M6526_MODEL_6526, 0, 1001, 50);
    m6526_write(&cia, M6526_REG_CRA, 0x80);
    m6526_write(&cia, M6526_REG_TOD10, 0x00); /* start at 1:00:00.0 */
    for (int i = 0; i < 1000; i++) cyc();
    expect_time(0x01, 0x00, 0x00, 0x09);
    cyc();
    expect_time(0x01, 0x00, 0x01, 0x00);
    for (int i = 0; i < 1001 * 59; i++) cyc();
    expect_time(0x01, 0x01, 0x00, 0x00);
    /* 60 Hz mains with CRA at 50 Hz: the clock runs 6/5 fast, as on a real
     * C64 set up wrongly. */
    setup_full(M6526_MODEL_6526, 0, 1200, 60);
    m6526_write(&cia, M6526_REG_CRA, 0x80);
    m6526_write(&cia, M6526_REG_TOD10, 0x00);
    for (int i = 0; i < 1200; i++) cyc();
    expect_time(0x01, 0x00, 0x01, 0x02);
}

/* ---- serial port ---- */

/* The last underflow before tick t (or -1). */
static int under_before(const int *under, int n, int t)
{
    int last = -1;
    for (int i = 0; i < n; i++)
        if (under[i] < t) last = under[i];
    return last;
}

static void test_serial_output(void)
{
    for (int model = 0; model < 2; model++) {
        setup((m6526_model)model);
        cyc_wr(M6526_REG_TALO, 3);
        cyc_wr(M6526_REG_TAHI, 0);
        cyc_wr(M6526_REG_ICR, 0x88);
        cyc_wr(M6526_REG_CRA, 0x41); /* SP output, start, continuous */
        for (int i = 0; i < 10; i++) cyc();
        CU_ASSERT_EQUAL(cia.ser.cnt_out, 1); /* idle: nothing to send */
        cyc_wr(M6526_REG_SDR, 0xA5);    /* cycle w */
        int t = 0, under[20], nu = 0, bits[16], fall_at[16], nb = 0, flag_at = -1, irq_at = -1;
        uint8_t cnt_prev = 1;
        while (t < 100 && irq_at < 0) {
            uint32_t u = cia.ta.underflows;
            cyc();
            t++;
            if (cia.ta.underflows != u && t > 2 && nu < 20) under[nu++] = t;
            if (cnt_prev && !cia.ser.cnt_out && nb < 16) {
                fall_at[nb] = t;
                bits[nb++] = cia.ser.sp_out;
            }
            cnt_prev = cia.ser.cnt_out;
            if (flag_at < 0 && (cia.icr.flags & M6526_INT_SP)) flag_at = t;
            if (irq_at < 0 && irq_out) irq_at = t;
        }
        CU_ASSERT_EQUAL_FATAL(nb, 8);
        static const int expect[8] = {1, 0, 1, 0, 0, 1, 0, 1}; /* $A5, MSB first */
        for (int i = 0; i < 8; i++) CU_ASSERT_EQUAL(bits[i], expect[i]);
        CU_ASSERT_FATAL(nu >= 15);
        /* CNT toggles 2 ticks after an underflow; the SP flag comes 2
         * ticks after the falling edge that puts out the 8th bit. */
        CU_ASSERT_EQUAL(fall_at[7], under_before(under, nu, fall_at[7]) + 2);
        CU_ASSERT_EQUAL(flag_at, fall_at[7] + 2);
        CU_ASSERT_EQUAL(irq_at, flag_at + (model == M6526_MODEL_6526 ? 1 : 0));
        CU_ASSERT_EQUAL(cia.ser.cnt_out, 0);
        /* The 16th underflow raises CNT and the port goes idle. */
        for (int i = 0; i < 8; i++) cyc();
        CU_ASSERT_EQUAL(cia.ser.cnt_out, 1);
        CU_ASSERT_EQUAL(cia.ser.half_bits, 0);
        CU_ASSERT_EQUAL(cia.ser.sp_out, 1); /* keeps the last bit */
        CU_ASSERT_EQUAL(cyc_rd(M6526_REG_ICR) & 0xFE, 0x88); /* TA flags too */
    }
}

static void test_serial_back_to_back(void)
{
    setup(M6526_MODEL_6526);
    cyc_wr(M6526_REG_TALO, 2);
    cyc_wr(M6526_REG_TAHI, 0);
    cyc_wr(M6526_REG_CRA, 0x41);
    cyc_wr(M6526_REG_SDR, 0x81);
    int bits[16], nb = 0, flags_at[2], nf = 0;
    uint8_t cnt_prev = cia.ser.cnt_out;
    uint32_t u0 = cia.ta.underflows;
    for (int t = 0; t < 200 && nf < 2; t++) {
        cyc();
        if (t == 4) m6526_write(&cia, M6526_REG_SDR, 0x3C); /* buffered */
        if (cnt_prev && !cia.ser.cnt_out && nb < 16) bits[nb++] = cia.ser.sp_out;
        cnt_prev = cia.ser.cnt_out;
        if (cia.icr.flags & M6526_INT_SP) {
            flags_at[nf++] = (int)(cia.ta.underflows - u0);
            m6526_read(&cia, M6526_REG_ICR);
        }
    }
    CU_ASSERT_EQUAL_FATAL(nf, 2);
    CU_ASSERT_EQUAL(nb, 16);
    static const int expect[16] = {1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 0, 0};
    for (int i = 0; i < nb && i < 16; i++) CU_ASSERT_EQUAL(bits[i], expect[i]);
    CU_ASSERT_EQUAL(flags_at[1] - flags_at[0], 16); /* no gap between bytes */
}

/* Starts a byte going out with timer A latch `latch`; returns after
 * `toggles` CNT edges (half-bits) have been put out. */
static void serial_start(m6526_model model, uint16_t latch, int toggles)
{
    setup(model);
    cyc_wr(M6526_REG_TALO, (uint8_t)latch);
    cyc_wr(M6526_REG_TAHI, (uint8_t)(latch >> 8));
    cyc_wr(M6526_REG_CRA, 0x51); /* SP output, force load, start */
    cyc_wr(M6526_REG_SDR, 0x55);
    uint8_t prev = cia.ser.cnt_out;
    for (int n = 0, t = 0; n < toggles && t < 10000; t++) {
        cyc();
        if (cia.ser.cnt_out != prev) n++;
        prev = cia.ser.cnt_out;
    }
}

/* CNT follows a timer A underflow by two ticks, and an underflow in the
 * tick the byte reaches the shift register already shifts it. */
static void test_serial_toggle_delay(void)
{
    setup(M6526_MODEL_6526);
    cyc_wr(M6526_REG_TALO, 9);
    cyc_wr(M6526_REG_TAHI, 0);
    cyc_wr(M6526_REG_CRA, 0x51);
    cyc_wr(M6526_REG_SDR, 0xFF);
    int under_at = -1, low_at = -1;
    for (int t = 1; t < 40 && low_at < 0; t++) {
        uint32_t u = cia.ta.underflows;
        cyc();
        if (cia.ta.underflows != u && under_at < 0) under_at = t;
        if (!cia.ser.cnt_out) low_at = t;
    }
    CU_ASSERT_FATAL(under_at > 0);
    CU_ASSERT_EQUAL(low_at, under_at + 2);
}

/* Turning the port around (CRA bit 6) in the middle of a byte drops the
 * byte but sets the SP flag in the third tick after the write (measured on real 6526s by the
 * cia-sdr-icr programs, VICE bug 1219); idle, it sets nothing. */
static void test_serial_turn_around(void)
{
    for (int model = 0; model < 2; model++) {
        serial_start((m6526_model)model, 19, 6); /* 3 bits out */
        CU_ASSERT_EQUAL(cia.icr.flags & M6526_INT_SP, 0);
        cyc();
        m6526_write(&cia, M6526_REG_CRA, 0x00); /* stop, SP input */
        CU_ASSERT_EQUAL(cia.ser.half_bits, 0);
        CU_ASSERT_EQUAL(cia.ser.cnt_out, 1);
        cyc();
        cyc();
        CU_ASSERT_EQUAL(cia.icr.flags & M6526_INT_SP, 0);
        cyc();
        CU_ASSERT_EQUAL(cia.icr.flags & M6526_INT_SP, M6526_INT_SP);
    }
    setup(M6526_MODEL_6526);
    cyc_wr(M6526_REG_CRA, 0x40);
    cyc_wr(M6526_REG_CRA, 0x00);
    for (int i = 0; i < 5; i++) cyc();
    CU_ASSERT_EQUAL(cia.icr.flags, 0);
}

/* Turned to input while CNT is low (or was, a tick or two before), the byte
 * is finished when the port is an output again: the SP flag follows that
 * write as above. The old 6526 counts CNT's present level too, so a turn
 * just at the falling edge owes the flag on the 6526 only. */
static void test_serial_force_finish(void)
{
    for (int model = 0; model < 2; model++) {
        /* 15 half-bits: CNT went low on the first toggle, this tick. */
        serial_start((m6526_model)model, 19, 1);
        m6526_write(&cia, M6526_REG_CRA, 0x00);
        for (int i = 0; i < 5; i++) cyc();
        CU_ASSERT_EQUAL(cia.icr.flags & M6526_INT_SP, 0); /* too early a turn */
        CU_ASSERT_EQUAL(cia.ser.force_finish, model == M6526_MODEL_6526 ? 1 : 0);
        m6526_write(&cia, M6526_REG_CRA, 0x40); /* output again */
        cyc();
        cyc();
        cyc();
        CU_ASSERT_EQUAL(cia.icr.flags & M6526_INT_SP,
                        model == M6526_MODEL_6526 ? M6526_INT_SP : 0);
        CU_ASSERT_EQUAL(cia.ser.force_finish, 0);
    }
}

static void test_serial_input(void)
{
    setup(M6526_MODEL_6526);
    cyc_wr(M6526_REG_ICR, 0x88); /* CRA bit 6 = 0: input */
    uint8_t byte = 0x3C;
    for (int i = 7; i >= 0; i--) {
        m6526_set_sp(&cia, (byte >> i) & 1);
        m6526_set_cnt(&cia, 0);
        cyc();
        m6526_set_cnt(&cia, 1); /* shifts on the rising edge */
        cyc();
        if (i) CU_ASSERT_EQUAL(cia.icr.flags, 0);
    }
    CU_ASSERT_EQUAL(cia.icr.flags & 0x1F, M6526_INT_SP);
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_SDR), 0x3C);
    CU_ASSERT_EQUAL(irq_out, 1);
}

/* ---- ports ---- */

static void test_port_ddr_and_pins(void)
{
    setup(M6526_MODEL_6526);
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_PRA), 0xFF);
    ext_pins[0] = 0x5A;
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_PRA), 0x5A); /* all inputs */
    cyc_wr(M6526_REG_DDRA, 0x0F);
    cyc_wr(M6526_REG_PRA, 0x05);
    ext_pins[0] = 0xAF;
    /* (output & ddr) | (pins & ~ddr) */
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_PRA), 0xA5);
    CU_ASSERT_EQUAL(m6526_port_output(&cia, M6526_PORT_A), 0xF5);
    CU_ASSERT_EQUAL(m6526_port_ddr(&cia, M6526_PORT_A), 0x0F);
    /* Joystick 2 on $DC00 with DDRA = $FF: a switch pulls a driven-high
     * line low and the CIA reads the pin; a driven-low line stays low. */
    cyc_wr(M6526_REG_DDRA, 0xFF);
    cyc_wr(M6526_REG_PRA, 0x7F);
    ext_pins[0] = 0xFE;
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_PRA), 0x7E);
    /* Port B the same, independently. */
    ext_pins[1] = 0x0F;
    cyc_wr(M6526_REG_DDRB, 0xF0);
    cyc_wr(M6526_REG_PRB, 0xC0);
    CU_ASSERT_EQUAL(cyc_rd(M6526_REG_PRB), 0x0F & 0xCF);
    CU_ASSERT_EQUAL(m6526_peek(&cia, M6526_REG_DDRB), 0xF0);
    CU_ASSERT_EQUAL(m6526_peek(&cia, M6526_REG_DDRA), 0xFF);
}

static void test_port_out_notification(void)
{
    /* C64 CIA2: PA0/PA1 select the VIC bank (bank = 3 - levels & 3). */
    setup(M6526_MODEL_6526);
    cyc_wr(M6526_REG_PRA, 0x03); /* still inputs: no change */
    CU_ASSERT_EQUAL(port_out_calls, 0);
    cyc_wr(M6526_REG_DDRA, 0x3F);
    CU_ASSERT_EQUAL(port_out_calls, 1);
    CU_ASSERT_EQUAL(port_out_last[0], 0xC3);
    CU_ASSERT_EQUAL(3 - (port_out_last[0] & 3), 0);
    cyc_wr(M6526_REG_PRA, 0x00);
    CU_ASSERT_EQUAL(port_out_calls, 2);
    CU_ASSERT_EQUAL(3 - (port_out_last[0] & 3), 3);
    cyc_wr(M6526_REG_PRA, 0x00); /* same levels: no call */
    CU_ASSERT_EQUAL(port_out_calls, 2);
    cyc_wr(M6526_REG_PRA, 0xC0); /* bits 6-7 are inputs: no change */
    CU_ASSERT_EQUAL(port_out_calls, 2);
    /* PB6 toggling inside tick is reported too. */
    cyc_wr(M6526_REG_TALO, 2);
    cyc_wr(M6526_REG_TAHI, 0);
    port_out_calls = 0;
    cyc_wr(M6526_REG_CRA, 0x07);
    CU_ASSERT_EQUAL(port_out_calls, 0); /* toggle high = pulled-up input level */
    for (int i = 0; i < 4; i++) cyc();
    CU_ASSERT_EQUAL(cia.ta.underflows, 1);
    CU_ASSERT_EQUAL(port_out_calls, 1);
    CU_ASSERT_EQUAL(port_out_last[1], 0xBF);
    for (int i = 0; i < 3; i++) cyc();
    CU_ASSERT_EQUAL(port_out_calls, 2);
    CU_ASSERT_EQUAL(port_out_last[1], 0xFF);
    /* Reset makes the ports inputs again and says so. */
    cyc_wr(M6526_REG_PRA, 0x01);
    m6526_reset(&cia);
    CU_ASSERT_EQUAL(port_out_last[0], 0xFF);
}

/* ---- registers ---- */

static void test_register_mirrors(void)
{
    setup(M6526_MODEL_6526);
    cyc_wr(0x10 + M6526_REG_DDRA, 0x12);
    cyc_wr(0xF0 + M6526_REG_TALO, 0x0C);
    cyc_wr(0x3450 + M6526_REG_TAHI, 0x00);
    CU_ASSERT_EQUAL(cia.ddr[0], 0x12);
    CU_ASSERT_EQUAL(cia.ta.latch, 0x000C);
    cyc_wr(0xDC3E, 0x11);
    CU_ASSERT_EQUAL(cia.ta.cr, 0x01);
    for (int i = 0; i < 20; i++) cyc();
    for (uint16_t reg = 0; reg < 16; reg++) {
        if (reg == M6526_REG_ICR) continue;
        uint8_t base = m6526_peek(&cia, reg);
        for (uint16_t m = 1; m < 16; m++) CU_ASSERT_EQUAL(m6526_peek(&cia, (uint16_t)(0xDC00 + m * 16 + reg)), base);
        CU_ASSERT_EQUAL(m6526_read(&cia, (uint16_t)(0xDDF0 + reg)), base);
    }
    /* Reading ICR through a mirror clears it too. */
    CU_ASSERT(cia.icr.flags & M6526_INT_TA);
    m6526_read(&cia, 0xDC9D);
    CU_ASSERT_EQUAL(cia.icr.flags & 0x1F, 0);
}

static void test_peek_no_side_effects(void)
{
    setup(M6526_MODEL_6526);
    cyc_wr(M6526_REG_TALO, 4);
    cyc_wr(M6526_REG_TAHI, 0);
    cyc_wr(M6526_REG_ICR, 0x81);
    cyc_wr(M6526_REG_CRA, 0x01);
    for (int i = 0; i < 10; i++) cyc();
    CU_ASSERT_EQUAL(irq_out, 1);
    m6526 before;
    memcpy(&before, &cia, sizeof cia);
    for (uint16_t reg = 0; reg < 16; reg++) (void)m6526_peek(&cia, reg);
    CU_ASSERT_EQUAL(memcmp(&before, &cia, sizeof cia), 0);
    CU_ASSERT_EQUAL(m6526_peek(&cia, M6526_REG_ICR), 0x81);
    CU_ASSERT_EQUAL(m6526_peek(&cia, M6526_REG_TODHR), 0x01);
    CU_ASSERT_EQUAL(cia.tod.latched, 0);
    cyc();
    CU_ASSERT_EQUAL(irq_out, 1); /* still asserted: nothing was read */
    CU_ASSERT_EQUAL(m6526_read(&cia, M6526_REG_ICR), 0x81);
    CU_ASSERT_EQUAL(m6526_peek(&cia, M6526_REG_ICR) & 0x1F, 0);
    (void)m6526_read(&cia, M6526_REG_TODHR);
    CU_ASSERT_EQUAL(cia.tod.latched, 1);
}

/* A busy program: both timers, PB outputs, serial out, TOD, ICR reads. */
static uint8_t script(m6526 *c, int t)
{
    switch (t) {
    case 0: m6526_write(c, M6526_REG_TALO, 7); break;
    case 1: m6526_write(c, M6526_REG_TAHI, 0); break;
    case 2: m6526_write(c, M6526_REG_TBLO, 5); break;
    case 3: m6526_write(c, M6526_REG_TBHI, 0); break;
    case 4: m6526_write(c, M6526_REG_ICR, 0x9F); break;
    case 5: m6526_write(c, M6526_REG_CRB, 0x47); break;
    case 6: m6526_write(c, M6526_REG_CRA, 0xD1); break;
    case 7: m6526_write(c, M6526_REG_TOD10, 0); break;
    default: break;
    }
    if (t > 7 && t % 37 == 0) m6526_write(c, M6526_REG_SDR, (uint8_t)t);
    if (t > 7 && t % 53 == 0) return m6526_read(c, M6526_REG_ICR);
    if (t > 7 && t % 29 == 0) return m6526_read(c, M6526_REG_TODHR);
    if (t > 7 && t % 31 == 0) return m6526_read(c, M6526_REG_TOD10);
    if (t % 101 == 0) m6526_tod_tick(c);
    return m6526_read(c, (uint16_t)(t & 7));
}

static void test_snapshot_copy(void)
{
    setup(M6526_MODEL_6526);
    for (int t = 0; t < 3000; t++) {
        cyc();
        script(&cia, t);
    }
    m6526 copy, restored;
    memcpy(&copy, &cia, sizeof cia);
    /* A restore keeps the target's links. */
    setup(M6526_MODEL_6526A);
    m6526_set_ports(&cia, NULL, NULL, NULL);
    restored = cia;
    m6526_restore(&restored, &copy);
    CU_ASSERT_EQUAL(restored.links.read_port, NULL);
    CU_ASSERT_EQUAL(restored.model, M6526_MODEL_6526);
    memcpy(&cia, &copy, sizeof copy);
    int differ = 0, irqs = 0;
    for (int t = 3000; t < 20000; t++) {
        int a = m6526_tick(&cia), b = m6526_tick(&copy), r = m6526_tick(&restored);
        uint8_t va = script(&cia, t), vb = script(&copy, t), vr = script(&restored, t);
        if (a != b || a != r || va != vb || va != vr) differ++;
        irqs += a;
    }
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT(irqs > 0);
    CU_ASSERT(cia.ta.underflows > 1000 && cia.tb.underflows > 100);
    CU_ASSERT_EQUAL(memcmp(&cia.ta, &copy.ta, sizeof cia.ta), 0);
    CU_ASSERT_EQUAL(memcmp(&cia.tod, &copy.tod, sizeof cia.tod), 0);
    CU_ASSERT_EQUAL(cia.pipe, copy.pipe);
    CU_ASSERT_EQUAL(cia.icr.flags, restored.icr.flags);
}

/* The inline fast path of m6526_tick() changes nothing that the full
 * cycle would not: run the same program both ways, with the internal TOD
 * clock on, and compare everything. */
static void test_fast_path_equivalence(void)
{
    m6526_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.clock_hz = 5000; /* TOD pin every 100 cycles */
    m6526 fast, full;
    CU_ASSERT_EQUAL_FATAL(m6526_init(&fast, &desc), MH_OK);
    memcpy(&full, &fast, sizeof fast);
    int differ = 0, fast_irqs = 0;
    for (int t = 0; t < 40000; t++) {
        int a = m6526_tick(&fast);
        full.tod.countdown--;
        int b = m6526_tick_full(&full);
        uint8_t va = script(&fast, t % 20000), vb = script(&full, t % 20000);
        if (t == 20000) { /* second round: stop timer A, keep B on PHI2 */
            m6526_write(&fast, M6526_REG_CRA, 0x80);
            m6526_write(&full, M6526_REG_CRA, 0x80);
            m6526_write(&fast, M6526_REG_CRB, 0x01);
            m6526_write(&full, M6526_REG_CRB, 0x01);
        }
        if (a != b || va != vb) differ++;
        fast_irqs += a;
    }
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT(fast_irqs > 0);
    CU_ASSERT(fast.tod.time[1] > 0); /* the TOD ran */
    CU_ASSERT_EQUAL(memcmp(&fast, &full, sizeof fast), 0);
}

/* Clocking by deadline (m6526_quiet_ticks, m6526_skip), done the way the
 * C64 machine does it: skip ticks while the chip says they are quiet, catch
 * up before every access, and a full tick after it. */
typedef struct lazy_cia {
    m6526 chip;
    uint32_t quiet, owed, skipped;
} lazy_cia;

static int lazy_tick(lazy_cia *l)
{
    if (l->quiet) {
        l->quiet--;
        l->owed++;
        l->skipped++;
        return m6526_irq(&l->chip);
    }
    m6526_skip(&l->chip, l->owed); /* caught up before the full tick */
    l->owed = 0;
    int irq = m6526_tick(&l->chip);
    l->quiet = m6526_quiet_ticks(&l->chip);
    return irq;
}

static m6526 *lazy_touch(lazy_cia *l)
{
    m6526_skip(&l->chip, l->owed);
    l->owed = 0;
    l->quiet = 0;
    return &l->chip;
}

/* Sparse accesses, so that long quiet stretches come between them. */
static uint8_t sparse_script(m6526 *c, int t)
{
    static const struct { int at; uint8_t reg, value; } writes[] = {
        {0, M6526_REG_TALO, 0xB8},  {1, M6526_REG_TAHI, 0x0B}, /* 3000 */
        {2, M6526_REG_TBLO, 0xBC},  {3, M6526_REG_TBHI, 0x02}, /* 700 */
        {4, M6526_REG_ICR, 0x83},   {5, M6526_REG_CRA, 0x81},
        {6, M6526_REG_CRB, 0x01},   {7, M6526_REG_TOD10, 0},
        {20000, M6526_REG_CRB, 0x41}, /* TB counts TA underflows */
        {40000, M6526_REG_CRA, 0x99}, /* TA one-shot, force load */
        {50000, M6526_REG_CRB, 0x11}, /* TB on PHI2 again, force load */
        {60000, M6526_REG_CRA, 0x80}, {60001, M6526_REG_CRB, 0x00}, /* both stopped */
    };
    for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++)
        if (writes[i].at == t) m6526_write(c, writes[i].reg, writes[i].value);
    if (t > 7 && t % 997 == 0) return m6526_read(c, M6526_REG_ICR);
    if (t > 7 && t % 1231 == 0) return m6526_read(c, (uint16_t)(M6526_REG_TALO + (t & 3)));
    return 0;
}

static void test_deadline_clocking(void)
{
    m6526_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.clock_hz = 50000; /* TOD pin every 1000 cycles */
    m6526 each;
    lazy_cia lazy;
    memset(&lazy, 0, sizeof lazy);
    CU_ASSERT_EQUAL_FATAL(m6526_init(&each, &desc), MH_OK);
    CU_ASSERT_EQUAL_FATAL(m6526_init(&lazy.chip, &desc), MH_OK);
    int differ = 0, irqs = 0, compared = 0;
    for (int t = 0; t < 80000; t++) {
        int a = m6526_tick(&each);
        int b = lazy_tick(&lazy);
        irqs += a;
        if (a != b) differ++;
        int touches = t < 8 || t % 997 == 0 || t % 1231 == 0 || t % 10000 < 2;
        if (touches) {
            uint8_t va = sparse_script(&each, t), vb = sparse_script(lazy_touch(&lazy), t);
            if (va != vb) differ++;
        }
        if (t % 777 == 0) { /* caught up, the two are the same chip */
            lazy_touch(&lazy);
            if (memcmp(&each, &lazy.chip, sizeof each) != 0) differ++;
            compared++;
        }
    }
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT(compared > 100);
    CU_ASSERT(irqs > 10);
    CU_ASSERT(each.tb.underflows > 10);
    CU_ASSERT(each.tod.time[1] > 0);      /* the TOD ran */
    CU_ASSERT(lazy.skipped > 80000 / 2);  /* most ticks were skipped */
    CU_ASSERT(m6526_quiet_ticks(&each) > 0); /* stopped timers: quiet until the TOD pin */
}

static void test_debug_info(void)
{
    setup(M6526_MODEL_6526A);
    cyc_wr(M6526_REG_TALO, 0x10);
    cyc_wr(M6526_REG_TAHI, 0x27);
    cyc_wr(M6526_REG_CRB, 0x80);
    set_time(0x12, 0x34, 0x56, 0x07); /* alarm */
    cyc_wr(M6526_REG_CRB, 0x4B); /* TB: start, PBON, one-shot, counts TA */
    cyc_wr(M6526_REG_CRA, 0xC7);
    set_time(0x91, 0x02, 0x03, 0x04);
    cyc_wr(M6526_REG_ICR, 0x85);
    m6526_info info;
    m6526_get_info(&cia, &info);
    CU_ASSERT_EQUAL(info.model, M6526_MODEL_6526A);
    CU_ASSERT_EQUAL(info.ta.latch, 0x2710);
    CU_ASSERT_EQUAL(info.ta.running, 1);
    CU_ASSERT_EQUAL(info.ta.pb_on, 1);
    CU_ASSERT_EQUAL(info.ta.pb_toggle, 1);
    CU_ASSERT_EQUAL(info.ta.pb_level, 1);
    CU_ASSERT_EQUAL(info.ta.input, M6526_INPUT_PHI2);
    CU_ASSERT_EQUAL(info.tb.input, M6526_INPUT_TA);
    CU_ASSERT_EQUAL(info.tb.oneshot, 1);
    CU_ASSERT_EQUAL(info.tb.pb_toggle, 0);
    CU_ASSERT_EQUAL(info.tod.hours, 11);
    CU_ASSERT_EQUAL(info.tod.pm, 1);
    CU_ASSERT_EQUAL(info.tod.minutes, 2);
    CU_ASSERT_EQUAL(info.tod.seconds, 3);
    CU_ASSERT_EQUAL(info.tod.tenths, 4);
    CU_ASSERT_EQUAL(info.tod_running, 1);
    CU_ASSERT_EQUAL(info.alarm.hours, 12);
    CU_ASSERT_EQUAL(info.alarm.minutes, 34);
    CU_ASSERT_EQUAL(info.alarm.seconds, 56);
    CU_ASSERT_EQUAL(info.alarm.tenths, 7);
    CU_ASSERT_EQUAL(info.tod_50hz, 1);
    CU_ASSERT_EQUAL(info.sp_output, 1);
    CU_ASSERT_EQUAL(info.icr_mask, 0x05);
    CU_ASSERT_EQUAL(info.pb_out & 0xC0, 0x40); /* PB6 toggle high, PB7 pulse low */
}

MH_SUITE("cia6526.tod", NULL, NULL, MH_TEST(test_tod_bcd_and_12h), MH_TEST(test_tod_60hz),
         MH_TEST(test_tod_stopped_after_reset_and_hours_write),
         MH_TEST(test_tod_latch_on_hours_read), MH_TEST(test_tod_alarm_irq),
         MH_TEST(test_tod_internal_clock))
MH_SUITE("cia6526.serial", NULL, NULL, MH_TEST(test_serial_output),
         MH_TEST(test_serial_toggle_delay), MH_TEST(test_serial_turn_around),
         MH_TEST(test_serial_force_finish),
         MH_TEST(test_serial_back_to_back), MH_TEST(test_serial_input))
MH_SUITE("cia6526.ports", NULL, NULL, MH_TEST(test_port_ddr_and_pins),
         MH_TEST(test_port_out_notification))
MH_SUITE("cia6526.regs", NULL, NULL, MH_TEST(test_register_mirrors),
         MH_TEST(test_peek_no_side_effects), MH_TEST(test_snapshot_copy),
         MH_TEST(test_fast_path_equivalence), MH_TEST(test_deadline_clocking),
         MH_TEST(test_debug_info))
