/* via6522.h - the MOS 6522 Versatile Interface Adapter, cycle by cycle
 * (docs/via6522.md). Prefix m6522_ (the chip's part number).
 *
 * The chip: two 8-bit ports with data direction and input latching on
 * CA1/CB1, timer 1 (one-shot / free-running, PB7 output), timer 2
 * (one-shot / PB6 pulse counting), the shift register in its eight modes,
 * the control lines CA1/CA2/CB1/CB2 (edges, handshake, pulse, manual
 * output), IFR/IER and /IRQ.
 *
 * Machine-side contract: call m6522_tick() once per phi2 cycle before the
 * CPU's access of that cycle, then m6522_read()/m6522_write() for an access
 * to the chip. The machine feeds pin levels through the read_port callback
 * (what drives each port's pins from outside; 1 = high, bits with nothing
 * attached should read 1) and m6522_set_ca1/cb1/ca2/cb2/pb6 for the control
 * lines; port_out tells it the levels the chip drives (output bits, others
 * 1) whenever they change.
 *
 * Timers (datasheet and the well-known "N+1.5 / N+2" behaviour): a write
 * of T1C-H loads the counter from the latch; the counter shows N in the
 * next cycle and counts down one per cycle; the cycle after it showed 0 it
 * shows $FFFF and the flag is set (N+1.5 cycles after the write, as the
 * CPU sees it: the next phi2); the cycle after that it is reloaded from the
 * latch, so the period is N+2. T1 reloads in both modes; one-shot mode only
 * sets the flag (and toggles PB7) once per T1C-H write. T2 (one-shot) keeps
 * counting from $FFFF without a reload.
 *
 * Ownership: plain struct owned by the machine; callbacks borrowed.
 * m6522_restore() copies a snapshot but keeps the callbacks.
 * Threads: [emu-thread].
 */
#ifndef MH_VIA6522_H
#define MH_VIA6522_H

#include <stdint.h>
#include "mcphost/machine_events.h"

enum {
    M6522_IRQ_CA2 = 0x01, M6522_IRQ_CA1 = 0x02, M6522_IRQ_SR = 0x04, M6522_IRQ_CB2 = 0x08,
    M6522_IRQ_CB1 = 0x10, M6522_IRQ_T2 = 0x20, M6522_IRQ_T1 = 0x40
};

/* Pin levels from outside for port 0 (A) or 1 (B). */
typedef uint8_t (*m6522_read_port_fn)(void *user, int port);
/* The levels the chip drives on port 0/1 changed (inputs read as 1). */
typedef void (*m6522_port_out_fn)(void *user, int port, uint8_t levels);

typedef struct m6522_desc {
    m6522_read_port_fn read_port;
    m6522_port_out_fn port_out;
    void *user;
} m6522_desc;

typedef struct m6522 {
    /* Registers. */
    uint8_t ora, orb, ddra, ddrb;
    uint8_t acr, pcr, ifr, ier, sr;
    uint8_t pa_latch, pb_latch;  /* input latched at the C1 edge (ACR 0/1) */
    uint16_t t1_counter, t1_latch;
    uint16_t t2_counter;
    uint8_t t2_latch_low;
    /* Timer sequencing: a load shows the value for one cycle before
     * counting; a time-out reloads T1 one cycle later. */
    uint8_t t1_loaded, t1_reload, t1_armed;
    uint8_t t2_loaded, t2_reload_low, t2_armed;
    uint8_t pb7;                 /* T1's PB7 output level */
    uint8_t t2_pulse_mode;       /* ACR bit 5 as the counter saw it last cycle */
    /* Shift register: bits shifted in this byte, whether shifting, and the
     * shift clock (CB1 as the chip drives it in the internal modes). */
    uint8_t sr_count, sr_running, sr_clock, sr_stopping;
    uint8_t sr_edge_in;          /* cycles until a T2-rate clock edge */
    /* Control lines: input levels from outside, output levels driven. */
    uint8_t ca1_in, ca2_in, cb1_in, cb2_in;
    uint8_t ca2_out, cb2_out;    /* handshake/manual output levels */
    uint8_t ca2_pulse, cb2_pulse; /* pulse mode: cycles low left */
    uint8_t ca2_pin, cb2_pin, cb1_pin; /* the lines as they are now */
    uint8_t pb6_in;
    uint8_t irq;                 /* /IRQ asserted */
    uint8_t quiet;               /* nothing pending but the timers (m6522_tick's fast path) */
    uint32_t t1_timeouts, t2_timeouts;
    /* Callbacks (not state; kept by m6522_restore). */
    m6522_read_port_fn read_port;
    m6522_port_out_fn port_out;
    void *user;
    /* Chip events (machine_events.h; kept by m6522_restore); NULL: none.
     * name: the instance ("via1"); irq_kind: MH_CHIP_EV_IRQ or _NMI, as
     * the machine wired the chip's /IRQ pin. */
    const mh_event_sink *events;
    const char *name;
    uint32_t irq_kind;
} m6522;

void m6522_init(m6522 *via, const m6522_desc *desc);
/* The /RES pin: registers (not the timers' counters and latches, nor SR)
 * cleared, as the datasheet says. */
void m6522_reset(m6522 *via);
/* One phi2 cycle; returns the /IRQ level (1 = asserted). */
int m6522_tick_slow(m6522 *via);
/* T1's time-out when it is armed: the flag, PB7 (out of line). */
void m6522_t1_fire(m6522 *via);

/* Timer 1's cycle: a reload or load shows its value for a cycle; the cycle
 * after 0 shows $FFFF and is a time-out (it always reloads). */
static inline void m6522_t1_tick(m6522 *via)
{
    if (via->t1_reload) {
        via->t1_reload = 0;
        via->t1_counter = via->t1_latch;
        return;
    }
    if (via->t1_loaded) {
        via->t1_loaded = 0;
        return;
    }
    if (via->t1_counter-- != 0) return;
    via->t1_reload = 1;
    via->t1_timeouts++;
    if (via->t1_armed) m6522_t1_fire(via);
}

static inline int m6522_tick(m6522 *via)
{
    /* The common cycle: T2 counts down and is not at 0, T1 inline, and
     * nothing else is pending (quiet: no T2 load or reload, no shift
     * register or PB6 counting mode, no control-line pulse). */
    if (via->quiet && via->t2_counter) {
        m6522_t1_tick(via);
        via->t2_counter--;
        return via->irq;
    }
    return m6522_tick_slow(via);
}
/* Lazy clocking: cycles until the next tick that may change what the chip
 * shows on /IRQ or its pins (an armed time-out, or anything pending that
 * only m6522_tick handles: 1); at most 0x20000. */
uint32_t m6522_next_event(const m6522 *via);
/* n ticks at once, the same as n calls of m6522_tick() when the first n-1
 * hold no event (n <= m6522_next_event()); returns the /IRQ level. */
int m6522_advance(m6522 *via, uint32_t n);
uint8_t m6522_read(m6522 *via, uint8_t reg);
void m6522_write(m6522 *via, uint8_t reg, uint8_t value);
/* What a read returns, without side effects. */
uint8_t m6522_peek(const m6522 *via, uint8_t reg);
/* Control line inputs (levels; edges act at once). */
void m6522_set_ca1(m6522 *via, int level);
void m6522_set_cb1(m6522 *via, int level);
void m6522_set_ca2(m6522 *via, int level);
void m6522_set_cb2(m6522 *via, int level);
void m6522_set_pb6(m6522 *via, int level);
/* Pin levels of port 0/1 now (outputs driven, inputs from outside). */
uint8_t m6522_port_pins(const m6522 *via, int port);
/* The levels the chip drives on a port (inputs as 1). */
uint8_t m6522_port_drive(const m6522 *via, int port);
void m6522_restore(m6522 *via, const m6522 *saved);

#endif
