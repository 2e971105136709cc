/* Tests of the 6522 VIA core (plugins/machine-vic20/via6522.c): timers
 * (T1 N+1.5/N+2, one-shot and free-running, PB7), T2 (one-shot, PB6
 * counting), the shift register modes and SR flag timing, CA/CB handshakes,
 * input latching, IFR/IER.
 *
 * A "cycle" is what the machine does once per phi2 cycle: tick the chip,
 * then (maybe) the CPU's access. "cyc_wr" is a write in a new cycle. */
#include "mh_test.h"

#include "via6522.h"

#include <string.h>

static m6522 via;
static int irq_out;
static uint8_t port_in[2];

static uint8_t read_port(void *user, int port)
{
    (void)user;
    return port_in[port];
}

static void setup(void)
{
    m6522_desc desc = {read_port, NULL, NULL};
    port_in[0] = port_in[1] = 0xFF;
    m6522_init(&via, &desc);
    irq_out = 0;
}

static void cyc(void) { irq_out = m6522_tick(&via); }

static uint8_t cyc_rd(uint8_t reg)
{
    cyc();
    return m6522_read(&via, reg);
}

static void cyc_wr(uint8_t reg, uint8_t value)
{
    cyc();
    m6522_write(&via, reg, value);
}

/* ---- timer 1 ---- */

static void test_t1_one_shot_timing(void)
{
    setup();
    cyc_wr(0x4, 5);
    cyc_wr(0x5, 0); /* T1 = 5, write in cycle w */
    /* w+1 shows 5, then 4 .. 0, then $FFFF with the flag (N+1.5). */
    static const uint16_t expect[] = {5, 4, 3, 2, 1, 0, 0xFFFF, 5, 4};
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        cyc();
        CU_ASSERT_EQUAL(via.t1_counter, expect[i]);
        CU_ASSERT_EQUAL((via.ifr & M6522_IRQ_T1) != 0, i == 6 || i > 6);
    }
    /* One-shot: the counter goes on (reloaded from the latch) without a
     * second flag after it is cleared. */
    CU_ASSERT_EQUAL(m6522_read(&via, 0x4), 4); /* reading T1C-L clears the flag */
    CU_ASSERT_EQUAL(via.ifr & M6522_IRQ_T1, 0);
    for (int i = 0; i < 30; i++) cyc();
    CU_ASSERT_EQUAL(via.ifr & M6522_IRQ_T1, 0);
    CU_ASSERT(via.t1_timeouts >= 4);
}

static void test_t1_free_run_period(void)
{
    setup();
    cyc_wr(0xB, 0x40);
    cyc_wr(0xE, 0xC0); /* enable T1 IRQ */
    cyc_wr(0x4, 10);
    cyc_wr(0x5, 0);
    int flags_at[4], n = 0;
    for (int t = 1; t <= 60 && n < 4; t++) {
        cyc();
        if (via.ifr & M6522_IRQ_T1) {
            flags_at[n++] = t;
            CU_ASSERT_EQUAL(irq_out, 1);
            CU_ASSERT_EQUAL(m6522_peek(&via, 0xD), 0xC0);
            m6522_write(&via, 0xD, 0x40); /* acknowledge */
            CU_ASSERT_EQUAL(via.irq, 0);
        }
    }
    CU_ASSERT_EQUAL_FATAL(n, 4);
    CU_ASSERT_EQUAL(flags_at[0], 12);          /* N + 2 after the write's cycle */
    CU_ASSERT_EQUAL(flags_at[1] - flags_at[0], 12); /* period N + 2 */
    CU_ASSERT_EQUAL(flags_at[2] - flags_at[1], 12);
}

static void test_t1_pb7(void)
{
    setup();
    cyc_wr(0x2, 0xFF); /* port B output, ORB = 0 */
    CU_ASSERT_EQUAL(m6522_peek(&via, 0x0) & 0x80, 0);
    cyc_wr(0xB, 0x80); /* PB7 = timer output: the flip-flop idles high */
    CU_ASSERT_EQUAL(m6522_peek(&via, 0x0) & 0x80, 0x80);
    cyc_wr(0x4, 3);
    cyc_wr(0x5, 0); /* one-shot: PB7 low until the time-out */
    CU_ASSERT_EQUAL(m6522_peek(&via, 0x0) & 0x80, 0);
    for (int i = 0; i < 4; i++) cyc();
    CU_ASSERT_EQUAL(m6522_peek(&via, 0x0) & 0x80, 0);
    cyc(); /* the time-out */
    CU_ASSERT_EQUAL(m6522_peek(&via, 0x0) & 0x80, 0x80);
    for (int i = 0; i < 20; i++) cyc();
    CU_ASSERT_EQUAL(m6522_peek(&via, 0x0) & 0x80, 0x80); /* one pulse only */
    /* Free-running: PB7 toggles at each time-out (a square wave). */
    cyc_wr(0xB, 0xC0);
    cyc_wr(0x5, 0);
    int toggles = 0;
    uint8_t last = m6522_peek(&via, 0x0) & 0x80;
    for (int i = 0; i < 50; i++) {
        cyc();
        uint8_t now = m6522_peek(&via, 0x0) & 0x80;
        toggles += now != last;
        last = now;
    }
    CU_ASSERT_EQUAL(toggles, 10); /* period 5 cycles (N + 2) */
    /* PB7 off: the flip-flop is held high, the port shows ORB again. */
    cyc_wr(0xB, 0x00);
    CU_ASSERT_EQUAL(m6522_peek(&via, 0x0) & 0x80, 0);
    CU_ASSERT_EQUAL(via.pb7, 1);
}

/* ---- timer 2 ---- */

static void test_t2_one_shot(void)
{
    setup();
    cyc_wr(0x8, 3);
    cyc_wr(0x9, 0);
    static const uint16_t expect[] = {3, 2, 1, 0, 0xFFFF, 0xFFFE, 0xFFFD};
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        cyc();
        CU_ASSERT_EQUAL(via.t2_counter, expect[i]);
    }
    CU_ASSERT_EQUAL(via.ifr & M6522_IRQ_T2, M6522_IRQ_T2);
    CU_ASSERT_EQUAL(cyc_rd(0x8), 0xFC); /* T2C-L read clears the flag */
    CU_ASSERT_EQUAL(via.ifr & M6522_IRQ_T2, 0);
}

static void test_t2_pulse_counting(void)
{
    setup();
    cyc_wr(0xB, 0x20);
    cyc_wr(0x8, 3);
    cyc_wr(0x9, 0);
    for (int i = 0; i < 10; i++) cyc();
    CU_ASSERT_EQUAL(via.t2_counter, 3); /* phi2 does not count */
    for (int p = 0; p < 3; p++) {
        m6522_set_pb6(&via, 0);
        cyc();
        m6522_set_pb6(&via, 1);
        cyc();
    }
    CU_ASSERT_EQUAL(via.t2_counter, 0);
    CU_ASSERT_EQUAL(via.ifr & M6522_IRQ_T2, M6522_IRQ_T2);
    /* Back to phi2: the mode change takes a cycle. */
    cyc_wr(0xB, 0x00);
    uint16_t before = via.t2_counter;
    cyc();
    CU_ASSERT_EQUAL(via.t2_counter, before);
    cyc();
    CU_ASSERT_EQUAL(via.t2_counter, (uint16_t)(before - 1));
}

/* ---- shift register ---- */

static void test_sr_out_phi2(void)
{
    setup();
    cyc_wr(0xB, 0x18); /* shift out at phi2 */
    cyc_wr(0xA, 0x81); /* starts 8 shifts: the first two cycles later */
    cyc();
    CU_ASSERT_EQUAL(via.sr, 0x81);
    CU_ASSERT_EQUAL(via.cb2_pin, 1); /* CB2 shows bit 7 */
    cyc();
    CU_ASSERT_EQUAL(via.sr, 0x03); /* recirculates */
    int flag_at = 0;
    for (int t = 3; t <= 20 && !flag_at; t++) {
        cyc();
        if (via.ifr & M6522_IRQ_SR) flag_at = t;
    }
    CU_ASSERT_EQUAL(flag_at, 16); /* the eighth shift */
    CU_ASSERT_EQUAL(via.sr, 0x81);
    for (int i = 0; i < 10; i++) cyc();
    CU_ASSERT_EQUAL(via.sr, 0x81); /* stopped */
    CU_ASSERT_EQUAL(cyc_rd(0xA), 0x81);
    CU_ASSERT_EQUAL(via.ifr & M6522_IRQ_SR, 0); /* the read cleared the flag and restarted */
    CU_ASSERT_EQUAL(via.sr_running, 1);
}

static void test_sr_in_t2(void)
{
    setup();
    cyc_wr(0x8, 2); /* T2 low latch: a bit every 2 * (2 + 2) cycles */
    cyc_wr(0x9, 0);
    cyc_wr(0xB, 0x04);
    m6522_set_cb2(&via, 1);
    cyc_wr(0xA, 0x00);
    int flag_at = 0;
    for (int t = 1; t <= 400 && !flag_at; t++) {
        cyc();
        if (via.ifr & M6522_IRQ_SR) flag_at = t;
    }
    CU_ASSERT(flag_at > 0);
    CU_ASSERT_EQUAL(via.sr, 0xFF); /* eight 1s shifted in from CB2 */
    for (int i = 0; i < 100; i++) cyc();
    CU_ASSERT_EQUAL(via.sr_running, 0);
}

static void test_sr_ext_cb1(void)
{
    setup();
    cyc_wr(0xB, 0x0C); /* shift in on CB1 */
    cyc_wr(0xA, 0x00);
    static const int bits[8] = {1, 0, 1, 1, 0, 0, 1, 0};
    for (int i = 0; i < 8; i++) {
        m6522_set_cb2(&via, bits[i]);
        m6522_set_cb1(&via, 0);
        cyc();
        m6522_set_cb1(&via, 1); /* data comes in on the rising edge */
        cyc();
    }
    CU_ASSERT_EQUAL(via.sr, 0xB2);
    CU_ASSERT_EQUAL(via.ifr & M6522_IRQ_SR, M6522_IRQ_SR);
}

static void test_sr_free_running_out_keeps_going(void)
{
    setup();
    cyc_wr(0x8, 0);
    cyc_wr(0x9, 0);
    cyc_wr(0xB, 0x10); /* free-running out at T2 rate */
    cyc_wr(0xA, 0x01);
    for (int i = 0; i < 500; i++) cyc();
    CU_ASSERT_EQUAL(via.ifr & M6522_IRQ_SR, 0); /* no flag in this mode */
    CU_ASSERT_EQUAL(via.sr_running, 1);
}

/* ---- handshakes, control lines, latching ---- */

static void test_ca2_handshake_and_pulse(void)
{
    setup();
    cyc_wr(0xC, 0x08); /* CA2 handshake output, CA1 negative edge */
    CU_ASSERT_EQUAL(via.ca2_pin, 1);
    cyc_rd(0x1);       /* an ORA read: CA2 low ("data taken") */
    CU_ASSERT_EQUAL(via.ca2_pin, 0);
    m6522_set_ca1(&via, 0); /* the active CA1 edge ends it */
    CU_ASSERT_EQUAL(via.ca2_pin, 1);
    CU_ASSERT_EQUAL(via.ifr & M6522_IRQ_CA1, M6522_IRQ_CA1);
    cyc_rd(0xF); /* no handshake, the flag stays */
    CU_ASSERT_EQUAL(via.ca2_pin, 1);
    CU_ASSERT_EQUAL(via.ifr & M6522_IRQ_CA1, M6522_IRQ_CA1);
    cyc_rd(0x1); /* clears CA1 */
    CU_ASSERT_EQUAL(via.ifr & M6522_IRQ_CA1, 0);
    m6522_set_ca1(&via, 1);
    cyc_wr(0xC, 0x0A); /* pulse mode: low for one cycle after the access */
    cyc_rd(0x1);
    CU_ASSERT_EQUAL(via.ca2_pin, 0);
    cyc();
    CU_ASSERT_EQUAL(via.ca2_pin, 1);
}

static void test_cb2_input_edges_and_independent(void)
{
    setup();
    cyc_wr(0xC, 0x40); /* CB2 input, positive edge */
    m6522_set_cb2(&via, 0);
    CU_ASSERT_EQUAL(via.ifr & M6522_IRQ_CB2, 0);
    m6522_set_cb2(&via, 1);
    CU_ASSERT_EQUAL(via.ifr & M6522_IRQ_CB2, M6522_IRQ_CB2);
    cyc_rd(0x0); /* port B access clears it */
    CU_ASSERT_EQUAL(via.ifr & M6522_IRQ_CB2, 0);
    cyc_wr(0xC, 0x60); /* independent: a port access leaves it */
    m6522_set_cb2(&via, 0);
    m6522_set_cb2(&via, 1);
    cyc_rd(0x0);
    CU_ASSERT_EQUAL(via.ifr & M6522_IRQ_CB2, M6522_IRQ_CB2);
}

static void test_input_latching(void)
{
    setup();
    cyc_wr(0xB, 0x01); /* port A latches on the CA1 edge */
    port_in[0] = 0x5A;
    m6522_set_ca1(&via, 0); /* negative edge (PCR bit 0 = 0) */
    port_in[0] = 0x00;
    CU_ASSERT_EQUAL(cyc_rd(0x1), 0x5A);
    cyc_wr(0xB, 0x00);
    CU_ASSERT_EQUAL(cyc_rd(0x1), 0x00);
}

static void test_ifr_ier(void)
{
    setup();
    CU_ASSERT_EQUAL(m6522_peek(&via, 0xE), 0x80); /* bit 7 reads 1 */
    cyc_wr(0xE, 0x82); /* enable CA1 */
    CU_ASSERT_EQUAL(m6522_peek(&via, 0xE), 0x82);
    m6522_set_ca1(&via, 0);
    CU_ASSERT_EQUAL(m6522_peek(&via, 0xD), 0x82);
    CU_ASSERT_EQUAL(via.irq, 1);
    cyc_wr(0xE, 0x02); /* disable: the flag stays, bit 7 and /IRQ go */
    CU_ASSERT_EQUAL(m6522_peek(&via, 0xD), 0x02);
    CU_ASSERT_EQUAL(via.irq, 0);
    cyc_wr(0xD, 0x7F); /* writing 1s clears flags */
    CU_ASSERT_EQUAL(m6522_peek(&via, 0xD), 0x00);
}

static void test_ports_and_reset(void)
{
    setup();
    cyc_wr(0x3, 0x0F);
    cyc_wr(0x1, 0xA5);
    port_in[0] = 0x3C;
    /* Port A reads the pins: outputs as driven (and the outside), inputs. */
    CU_ASSERT_EQUAL(cyc_rd(0x1), (0x05 | 0xF0) & 0x3C);
    cyc_wr(0x2, 0xF0);
    cyc_wr(0x0, 0x5A);
    port_in[1] = 0x00;
    /* Port B reads ORB for output bits, pins for inputs. */
    CU_ASSERT_EQUAL(cyc_rd(0x0), 0x50);
    m6522_reset(&via);
    CU_ASSERT_EQUAL(via.ddra, 0);
    CU_ASSERT_EQUAL(via.ier, 0);
    CU_ASSERT_EQUAL(via.acr, 0);
}

MH_SUITE("via6522.timers", NULL, NULL, MH_TEST(test_t1_one_shot_timing),
         MH_TEST(test_t1_free_run_period), MH_TEST(test_t1_pb7), MH_TEST(test_t2_one_shot),
         MH_TEST(test_t2_pulse_counting))
MH_SUITE("via6522.shift", NULL, NULL, MH_TEST(test_sr_out_phi2), MH_TEST(test_sr_in_t2),
         MH_TEST(test_sr_ext_cb1), MH_TEST(test_sr_free_running_out_keeps_going))
MH_SUITE("via6522.lines", NULL, NULL, MH_TEST(test_ca2_handshake_and_pulse),
         MH_TEST(test_cb2_input_edges_and_independent), MH_TEST(test_input_latching),
         MH_TEST(test_ifr_ier), MH_TEST(test_ports_and_reset))
