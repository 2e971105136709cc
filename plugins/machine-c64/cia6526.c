/* cia6526.c - MOS 6526 / 6526A CIA, cycle-stepped (see cia6526.h and
 * docs/cia6526.md for what is implemented and where the timings come from).
 *
 * The chip is modelled with delay lines, as in W. Lorenz's "A Software Model
 * of the CIA6526": `pipe` holds events in flight, one bit per stage; at the
 * end of every tick each bit moves one stage on (stage k -> k+1) and `feed`
 * supplies the stage-0 bits that recur every cycle (a timer counting PHI2).
 * A register access between ticks sets stage-0 bits, so an event at stage
 * k fires k ticks after the access; a bit set during a tick at stage k
 * fires at stage k+1 of the next tick.
 */
#include "cia6526.h"

#include <string.h>

/* ---- delay-line bits ---- */

/* Timer count pipelines: C2 = underflow check armed, C3 = decrement. */
#define P_TA_C0 (1ull << 0)
#define P_TA_C1 (1ull << 1)
#define P_TA_C2 (1ull << 2)
#define P_TA_C3 (1ull << 3)
#define P_TB_C0 (1ull << 4)
#define P_TB_C1 (1ull << 5)
#define P_TB_C2 (1ull << 6)
#define P_TB_C3 (1ull << 7)
/* Counter loads: L1 = load now; L2 = the counter was loaded this cycle. */
#define P_TA_L0 (1ull << 8)
#define P_TA_L1 (1ull << 9)
#define P_TA_L2 (1ull << 10)
#define P_TB_L0 (1ull << 11)
#define P_TB_L1 (1ull << 12)
#define P_TB_L2 (1ull << 13)
/* End of the one-cycle PB6/PB7 pulse. */
#define P_PB6_END0 (1ull << 14)
#define P_PB6_END1 (1ull << 15)
#define P_PB7_END0 (1ull << 16)
#define P_PB7_END1 (1ull << 17)
/* Interrupt output: assert at SET1, release at CLR0. */
#define P_INT_SET0 (1ull << 18)
#define P_INT_SET1 (1ull << 19)
#define P_INT_CLR0 (1ull << 20)
/* ICR was read (RD0: in the previous cycle). */
#define P_ICR_RD0 (1ull << 21)
#define P_ICR_RD1 (1ull << 22)
/* IR bit cleared at IR_CLR1 after a read. */
#define P_IR_CLR0 (1ull << 23)
#define P_IR_CLR1 (1ull << 24)
#define P_IR_CLR2 (1ull << 25)
/* 6526A: flags cleared at ACK1 after a read. */
#define P_ACK0 (1ull << 26)
#define P_ACK1 (1ull << 27)
/* IR bit set at IR_SET1. */
#define P_IR_SET0 (1ull << 28)
#define P_IR_SET1 (1ull << 29)
/* Asynchronous sources, taken at the next tick. */
#define P_SRC_FLG (1ull << 30)
#define P_SRC_TOD (1ull << 31)
/* Serial: SP flag at SER_IRQ2 (2 cycles after the last bit is put out). */
#define P_SER_IRQ0 (1ull << 32)
#define P_SER_IRQ1 (1ull << 33)
#define P_SER_IRQ2 (1ull << 34)
/* Serial: SDR write reaches the shift register at SER_LD1. */
#define P_SER_LD0 (1ull << 35)
#define P_SER_LD1 (1ull << 36)
/* Serial: CNT toggles at SER_TGL2, two ticks after a timer A underflow
 * (VICE's "~1.5 cycle delay until CNT is toggled"). */
#define P_SER_TGL0 (1ull << 37)
#define P_SER_TGL1 (1ull << 38)
#define P_SER_TGL2 (1ull << 39)
/* Serial input: a byte arrived. */
#define P_SRC_SERIN (1ull << 40)
/* One-shot bit cleared by the last write: still in force for this tick. */
#define P_TA_OS0 (1ull << 41)
#define P_TB_OS0 (1ull << 42)
/* Serial: CNT output changed (CHG1: in the last tick, CHG2: the one before),
 * the chip's short memory of its CNT level. */
#define P_SER_CHG0 (1ull << 43)
#define P_SER_CHG1 (1ull << 44)
#define P_SER_CHG2 (1ull << 45)
/* Serial: an underflow right behind the one whose toggle is due next tick
 * makes no CNT toggle of its own (the timer output changes too fast). */
#define P_SER_NGL0 (1ull << 46)
#define P_SER_NGL1 (1ull << 47)
#define P_SER_NGL2 (1ull << 48)

#define P_ALL ((1ull << 49) - 1u)
#define P_STAGE0                                                                       \
    (P_TA_C0 | P_TB_C0 | P_TA_L0 | P_TB_L0 | P_PB6_END0 | P_PB7_END0 | P_INT_SET0 |    \
     P_INT_CLR0 | P_ICR_RD0 | P_IR_CLR0 | P_ACK0 | P_IR_SET0 | P_SRC_FLG | P_SRC_TOD | \
     P_SER_IRQ0 | P_SER_LD0 | P_SER_TGL0 | P_SRC_SERIN | P_TA_OS0 | P_TB_OS0 |   \
     P_SER_CHG0 | P_SER_NGL0)
#define P_KEEP (P_ALL & ~P_STAGE0)

#define P_IRQ_WORK (P_IR_CLR1 | P_ACK1 | P_IR_SET1 | P_INT_SET1 | P_INT_CLR0)
#define P_SRC_ASYNC (P_SRC_FLG | P_SRC_TOD | P_SER_IRQ2 | P_SRC_SERIN)

#define DEFAULT_CLOCK_HZ 985248u
#define DEFAULT_TOD_HZ 50u

/* ---- ports ---- */

static uint8_t timer_pb_level(const m6526_timer *t)
{
    return (t->cr & M6526_CR_TOGGLE) ? t->toggle : t->pulse;
}

uint8_t m6526_port_output(const m6526 *cia, int port)
{
    port &= 1;
    uint8_t out = (uint8_t)(cia->pr[port] | (uint8_t)~cia->ddr[port]);
    if (port == M6526_PORT_B) {
        if (cia->ta.cr & M6526_CR_PBON)
            out = (uint8_t)((out & 0xBFu) | (timer_pb_level(&cia->ta) << 6));
        if (cia->tb.cr & M6526_CR_PBON)
            out = (uint8_t)((out & 0x7Fu) | (timer_pb_level(&cia->tb) << 7));
    }
    return out;
}

uint8_t m6526_port_ddr(const m6526 *cia, int port)
{
    port &= 1;
    uint8_t ddr = cia->ddr[port];
    if (port == M6526_PORT_B) {
        if (cia->ta.cr & M6526_CR_PBON) ddr |= 0x40u;
        if (cia->tb.cr & M6526_CR_PBON) ddr |= 0x80u;
    }
    return ddr;
}

static void notify_port(m6526 *cia, int port)
{
    if (!cia->links.port_out) return;
    uint8_t levels = m6526_port_output(cia, port);
    if (levels != cia->port_last[port]) {
        cia->port_last[port] = levels;
        cia->links.port_out(cia->links.user, port, levels);
    }
}

static uint8_t port_pins(const m6526 *cia, int port)
{
    return cia->links.read_port ? cia->links.read_port(cia->links.user, port) : 0xFFu;
}

/* A port read sees the pins: the CIA's drive wired-AND the outside's. */
static uint8_t port_read(const m6526 *cia, int port)
{
    return (uint8_t)(m6526_port_output(cia, port) & port_pins(cia, port));
}

/* ---- TOD ---- */

static void tod_check_alarm(m6526 *cia)
{
    if (memcmp(cia->tod.time, cia->tod.alarm, 4) == 0) cia->pipe |= P_SRC_TOD;
}

/* Advance by a tenth with the chip's counters: tenths and the low digits
 * are 4-bit counters carrying at 10, the tens of seconds and minutes 3-bit
 * counters carrying at 6, hours 1..12 with PM toggling on 11 -> 12. */
static void tod_advance(m6526_tod *tod)
{
    uint8_t t = (uint8_t)((tod->time[0] + 1u) & 0x0Fu);
    if (t == 10u) {
        t = 0;
        uint8_t *sm[2] = {&tod->time[1], &tod->time[2]};
        int carry = 1;
        for (int i = 0; i < 2 && carry; i++) {
            uint8_t lo = (uint8_t)((*sm[i] + 1u) & 0x0Fu);
            uint8_t hi = (uint8_t)((*sm[i] >> 4) & 0x07u);
            carry = 0;
            if (lo == 10u) {
                lo = 0;
                hi = (uint8_t)((hi + 1u) & 0x07u);
                if (hi == 6u) {
                    hi = 0;
                    carry = 1;
                }
            }
            *sm[i] = (uint8_t)((hi << 4) | lo);
        }
        if (carry) {
            uint8_t hr = tod->time[3];
            uint8_t pm = hr & 0x80u;
            uint8_t hl = hr & 0x0Fu;
            uint8_t hh = (hr >> 4) & 0x01u;
            if ((hh == 1u && hl == 2u) || (hh == 0u && hl == 9u)) {
                hl = hh; /* 12 -> 01, 09 -> 10 */
                hh ^= 1u;
            } else {
                hl = (uint8_t)((hl + 1u) & 0x0Fu);
                if (hh == 1u && hl == 2u) pm ^= 0x80u;
            }
            tod->time[3] = (uint8_t)(pm | (hh << 4) | hl);
        }
    }
    tod->time[0] = t;
}

void m6526_tod_tick(m6526 *cia)
{
    m6526_tod *tod = &cia->tod;
    if (tod->stopped) return;
    /* The prescaler is a ring counter that matches after 5 (50 Hz) or 6
     * (60 Hz) pulses; the tenths count on the pulse after the match. */
    uint8_t match = (cia->ta.cr & M6526_CRA_TOD50) ? 4u : 5u;
    if (tod->prescaler == match) {
        tod->prescaler = 0;
        tod_advance(tod);
        tod_check_alarm(cia);
    } else if (++tod->prescaler > 5u) {
        tod->prescaler = 0;
    }
}

static void tod_reload_countdown(m6526_tod *tod)
{
    if (tod->external) {
        tod->countdown = UINT32_MAX;
        return;
    }
    uint64_t acc = (uint64_t)tod->frac + tod->clock_hz;
    uint32_t n = (uint32_t)(acc / tod->pin_hz);
    tod->frac = (uint32_t)(acc - (uint64_t)n * tod->pin_hz);
    tod->countdown = n;
}

static void tod_countdown_expired(m6526 *cia)
{
    tod_reload_countdown(&cia->tod);
    if (!cia->tod.external) m6526_tod_tick(cia);
}

static uint8_t read_tod(m6526 *cia, int idx)
{
    m6526_tod *tod = &cia->tod;
    if (!tod->latched) memcpy(tod->latch, tod->time, 4);
    if (idx == 3) tod->latched = 1;
    if (idx == 0) tod->latched = 0;
    return tod->latch[idx];
}

static void write_tod(m6526 *cia, int idx, uint8_t value)
{
    static const uint8_t masks[4] = {0x0F, 0x7F, 0x7F, 0x9F};
    m6526_tod *tod = &cia->tod;
    int changed;
    value &= masks[idx];
    if (cia->tb.cr & M6526_CRB_ALARM) {
        changed = tod->alarm[idx] != value;
        tod->alarm[idx] = value;
    } else {
        if (idx == 0 && tod->stopped) {
            tod->stopped = 0;
            tod->prescaler = 0;
        }
        if (idx == 3) tod->stopped = 1;
        changed = tod->time[idx] != value;
        if (changed) {
            /* The 12 comparator flips AM/PM when 12 is written. */
            if (idx == 3 && (value & 0x1Fu) == 0x12u) value ^= 0x80u;
            tod->time[idx] = value;
        }
    }
    if (changed) tod_check_alarm(cia);
}

/* ---- serial port ---- */

static void set_cnt_out(m6526 *cia, uint8_t level)
{
    if (cia->ser.cnt_out != level) cia->pipe |= P_SER_CHG0;
    cia->ser.cnt_out = level;
}

/* CRA bit 6 changed (value = the new CRA). The byte under way is dropped,
 * but the chip finishes it as far as the SP flag goes: turning around in
 * the middle of a byte sets the flag two cycles later, and a turn to input
 * just after a CNT edge leaves it owed until the port is an output again.
 * (The cases are those VICE derived from the cia-sdr-icr measurements on
 * real 6526/6526A; the CNT history is the chip's level 1 and 2 ticks ago.)
 * A byte written to SDR and not yet taken by the shift register stays. */
static void serial_turn_around(m6526 *cia, uint8_t value)
{
    m6526_serial *s = &cia->ser;
    uint64_t pipe = cia->pipe;
    uint8_t cnt1 = (uint8_t)(s->cnt_out ^ ((pipe & P_SER_CHG1) ? 1u : 0u));
    uint8_t cnt2 = (uint8_t)(cnt1 ^ ((pipe & P_SER_CHG2) ? 1u : 0u));
    if ((s->half_bits > 1 && s->half_bits < 15) || (s->half_bits == 15 && !cnt2))
        cia->pipe |= P_SER_IRQ0;
    if (!(value & M6526_CRA_SPOUT)) {
        /* The old 6526 also counts the level CNT has now. */
        int force = !cnt1 || !cnt2 || (cia->model == M6526_MODEL_6526 && !s->cnt_out);
        if (!force && s->half_bits != 2 && (pipe & (P_SER_TGL1 | P_SER_TGL2)) == P_SER_TGL2)
            force = 1;
        s->force_finish = (uint8_t)force;
    } else if (s->force_finish) {
        cia->pipe |= P_SER_IRQ0;
        s->force_finish = 0;
    }
    s->half_bits = 0;
    s->sdr_valid = 0;
    s->in_bits = 0;
    set_cnt_out(cia, 1);
    cia->pipe &= ~(P_SER_TGL0 | P_SER_TGL1 | P_SER_TGL2 | P_SER_NGL0 | P_SER_NGL1 | P_SER_NGL2);
}

/* SDR write arriving at the shift register. */
static void serial_load(m6526 *cia)
{
    m6526_serial *s = &cia->ser;
    if (s->half_bits == 0) {
        s->shifter = s->sdr;
        s->half_bits = 16;
    } else {
        s->sdr_valid = 1;
    }
}

/* One CNT half-period in output mode: odd steps drop CNT and put the next
 * bit on SP (MSB first), even steps raise CNT and shift. */
static void serial_toggle(m6526 *cia)
{
    m6526_serial *s = &cia->ser;
    if (s->half_bits == 0) return;
    s->half_bits--;
    if (s->half_bits & 1u) {
        s->sp_out = (uint8_t)(s->shifter >> 7);
        set_cnt_out(cia, 0);
        if (s->half_bits == 1u) {
            cia->pipe |= P_SER_IRQ0;
            if (s->sdr_valid) { /* next byte follows without a gap */
                s->sdr_valid = 0;
                s->shifter = s->sdr;
                s->half_bits = 17;
            }
        }
    } else {
        set_cnt_out(cia, 1);
        if (s->half_bits != 16u) s->shifter = (uint8_t)(s->shifter << 1);
        if (s->half_bits == 0 && s->sdr_valid) {
            s->sdr_valid = 0;
            s->shifter = s->sdr;
            s->half_bits = 16;
        }
    }
}

/* ---- the cycle ---- */

/* Reports underflows and a raised interrupt to the machine's event sink
 * (only called while one is set). */
static void notify_events(const m6526 *cia, int ua, int ub, uint8_t fresh)
{
    const char *name = cia->links.name ? cia->links.name : "cia";
    if (ua) mh_event_emit(cia->links.events, MH_CHIP_EV_TIMER, name, 0);
    if (ub) mh_event_emit(cia->links.events, MH_CHIP_EV_TIMER, name, 1);
    if (fresh & cia->icr.mask)
        mh_event_emit(cia->links.events, cia->links.irq_kind ? cia->links.irq_kind : MH_CHIP_EV_IRQ,
                      name, fresh & cia->icr.mask);
}

int m6526_tick_full(m6526 *cia)
{
    /* The inline part has decremented the countdown already. */
    if (cia->tod.countdown == 0) tod_countdown_expired(cia);
    uint64_t pipe = cia->pipe;
    int ua = 0, ub = 0;
    int port_b = 0;

    m6526_timer *ta = &cia->ta, *tb = &cia->tb;

    /* PB6/PB7 pulses last one cycle (ended before a new underflow can
     * start the next one: with latch 0 the pulse stays high). */
    if (pipe & (P_PB6_END1 | P_PB7_END1)) {
        if (pipe & P_PB6_END1) {
            ta->pulse = 0;
            port_b |= ta->cr & M6526_CR_PBON;
        }
        if (pipe & P_PB7_END1) {
            tb->pulse = 0;
            port_b |= tb->cr & M6526_CR_PBON;
        }
    }

    /* Serial port, before timer A: an underflow in this tick sees the
     * shift register as this tick's load and toggle leave it. */
    if (pipe & (P_SER_LD1 | P_SER_TGL2)) {
        if (pipe & P_SER_LD1) serial_load(cia);
        cia->pipe = pipe; /* serial_toggle may add P_SER_IRQ0 */
        if (pipe & P_SER_TGL2) serial_toggle(cia);
        pipe = cia->pipe;
    }

    /* Timer A. */
    if (pipe & P_TA_C3) ta->counter--;
    if ((pipe & P_TA_C2) && ta->counter == 0) {
        ua = 1;
        if ((ta->cr & M6526_CR_ONESHOT) || (pipe & P_TA_OS0)) {
            ta->cr &= (uint8_t)~M6526_CR_START;
            pipe &= ~(P_TA_C0 | P_TA_C1 | P_TA_C2);
            cia->feed &= ~P_TA_C0;
        }
        uint8_t mode = cia->tb.cr & (M6526_CRB_INMODE | M6526_CR_START);
        if (mode == 0x41u || (mode == 0x61u && cia->ser.cnt_in)) pipe |= P_TB_C1;
        /* CNT toggles a cycle later; an underflow right behind the one
         * toggling now is too close to be seen and toggles nothing. */
        if ((ta->cr & M6526_CRA_SPOUT) && cia->ser.half_bits)
            pipe |= (pipe & (P_SER_TGL1 | P_SER_NGL1)) ? P_SER_NGL0 : P_SER_TGL0;
        pipe |= P_TA_L1;
        ta->toggle ^= 1u;
        ta->pulse = 1;
        ta->underflows++;
        pipe |= P_PB6_END0;
        port_b |= ta->cr & M6526_CR_PBON;
    }
    if (pipe & P_TA_L1) {
        ta->counter = ta->latch;
        pipe &= ~P_TA_C2;
    }

    /* Timer B. */
    if (pipe & P_TB_C3) tb->counter--;
    if ((pipe & P_TB_C2) && tb->counter == 0) {
        ub = 1;
        if ((tb->cr & M6526_CR_ONESHOT) || (pipe & P_TB_OS0)) {
            tb->cr &= (uint8_t)~M6526_CR_START;
            pipe &= ~(P_TB_C0 | P_TB_C1 | P_TB_C2);
            cia->feed &= ~P_TB_C0;
        }
        pipe |= P_TB_L1;
        tb->toggle ^= 1u;
        tb->pulse = 1;
        tb->underflows++;
        pipe |= P_PB7_END0;
        port_b |= tb->cr & M6526_CR_PBON;
    }
    if (pipe & P_TB_L1) {
        tb->counter = tb->latch;
        pipe &= ~P_TB_C2;
    }

    /* Interrupts. */
    if (ua | ub | (int)((pipe & P_SRC_ASYNC) != 0)) {
        uint8_t fresh = (uint8_t)((ua ? M6526_INT_TA : 0) | (ub ? M6526_INT_TB : 0));
        if (pipe & P_SRC_FLG) fresh |= M6526_INT_FLG;
        if (pipe & P_SRC_TOD) fresh |= M6526_INT_ALARM;
        if (pipe & (P_SER_IRQ2 | P_SRC_SERIN)) fresh |= M6526_INT_SP;
        uint8_t shown = fresh;
        /* Old 6526 "timer B bug": a TB flag arriving the cycle after an ICR
         * read is lost (the interrupt still happens). */
        if (ub && cia->model == M6526_MODEL_6526 && (pipe & P_ICR_RD0))
            shown &= (uint8_t)~M6526_INT_TB;
        cia->icr.flags |= shown;
        cia->icr.ack &= (uint8_t)~fresh;
        if (mh_event_listening(cia->links.events)) notify_events(cia, ua, ub, fresh);
        if (fresh & cia->icr.mask) {
            if (cia->model == M6526_MODEL_6526 || (pipe & P_ICR_RD0))
                pipe |= P_INT_SET0 | P_IR_SET0;
            else
                pipe |= P_INT_SET1 | P_IR_SET1;
        }
    }
    if (pipe & P_IRQ_WORK) {
        if (pipe & P_IR_CLR1) cia->icr.flags &= 0x7Fu;
        if (pipe & P_ACK1) {
            cia->icr.flags &= (uint8_t)~cia->icr.ack;
            cia->icr.ack = 0;
        }
        if (pipe & P_IR_SET1) cia->icr.flags |= M6526_INT_IR;
        if (pipe & P_INT_SET1) cia->icr.irq = 1;
        if (pipe & P_INT_CLR0) cia->icr.irq = 0;
    }

    cia->pipe = ((pipe << 1) & P_KEEP) | cia->feed;
    if (port_b) notify_port(cia, M6526_PORT_B);
    return cia->icr.irq;
}

/* ---- registers ---- */

static uint8_t read_icr(m6526 *cia)
{
    m6526_icr *icr = &cia->icr;
    /* 6526A: an interrupt being raised right now shows as IR. */
    if (cia->model != M6526_MODEL_6526 && (cia->pipe & P_INT_SET1) && (icr->flags & 0x1Fu))
        icr->flags |= M6526_INT_IR;
    uint8_t result = icr->flags;
    if (icr->irq) cia->pipe |= P_INT_CLR0;
    cia->pipe &= ~(P_INT_SET0 | P_INT_SET1);
    cia->pipe |= P_IR_CLR0 | P_ICR_RD0;
    if (cia->model == M6526_MODEL_6526) {
        icr->flags &= M6526_INT_IR;
    } else {
        cia->pipe |= P_ACK0;
        icr->ack = icr->flags;
    }
    return result;
}

static void write_icr(m6526 *cia, uint8_t value)
{
    m6526_icr *icr = &cia->icr;
    if (value & 0x80u) icr->mask |= value & 0x1Fu;
    else icr->mask &= (uint8_t)~(value & 0x1Fu);
    if ((icr->mask & icr->flags & 0x1Fu) && !icr->irq) {
        if (cia->model == M6526_MODEL_6526)
            cia->pipe |= P_INT_SET0 | P_IR_SET0;
        else if (!(cia->pipe & P_ICR_RD1))
            cia->pipe |= P_INT_SET1 | P_IR_SET1;
    } else if (cia->model == M6526_MODEL_6526 && (cia->pipe & P_IR_CLR2)) {
        /* Hoxs64/VirtualC64 (Lorenz dd0dtest): an interrupt about to be
         * raised is dropped by a mask write 2 cycles after an ICR read. */
        cia->pipe &= ~(P_INT_SET1 | P_IR_SET1);
    }
}

static void write_cr(m6526 *cia, int b, uint8_t value)
{
    m6526_timer *t = b ? &cia->tb : &cia->ta;
    uint64_t c0 = b ? P_TB_C0 : P_TA_C0, c1 = b ? P_TB_C1 : P_TA_C1;
    int phi2 = b ? (value & M6526_CRB_INMODE) == 0 : (value & M6526_CRA_CNT) == 0;
    if ((value & M6526_CR_START) && phi2) {
        cia->pipe |= c0 | c1;
        cia->feed |= c0;
    } else {
        cia->pipe &= ~(c0 | c1);
        cia->feed &= ~c0;
    }
    if ((value & M6526_CR_START) && !(t->cr & M6526_CR_START)) t->toggle = 1;
    if ((t->cr & M6526_CR_ONESHOT) && !(value & M6526_CR_ONESHOT))
        cia->pipe |= b ? P_TB_OS0 : P_TA_OS0;
    if (value & M6526_CR_LOAD) cia->pipe |= b ? P_TB_L0 : P_TA_L0;
    if (!b && ((value ^ t->cr) & M6526_CRA_SPOUT)) serial_turn_around(cia, value);
    t->cr = (uint8_t)(value & ~M6526_CR_LOAD);
    notify_port(cia, M6526_PORT_B);
}

static void write_latch(m6526 *cia, int b, int hi, uint8_t value)
{
    m6526_timer *t = b ? &cia->tb : &cia->ta;
    uint16_t keep = hi ? 0x00FFu : 0xFF00u;
    uint16_t v = (uint16_t)(hi ? value << 8 : value);
    t->latch = (uint16_t)((t->latch & keep) | v);
    /* Loaded in this very cycle: the new byte reaches the counter too. */
    if (cia->pipe & (b ? P_TB_L2 : P_TA_L2)) t->counter = (uint16_t)((t->counter & keep) | v);
    /* High byte into a stopped timer loads the counter. */
    if (hi && !(t->cr & M6526_CR_START)) cia->pipe |= b ? P_TB_L0 : P_TA_L0;
}

uint8_t m6526_read(m6526 *cia, uint16_t reg)
{
    switch (reg & 0x0Fu) {
    case M6526_REG_PRA: return port_read(cia, M6526_PORT_A);
    case M6526_REG_PRB: return port_read(cia, M6526_PORT_B);
    case M6526_REG_TOD10: return read_tod(cia, 0);
    case M6526_REG_TODSEC: return read_tod(cia, 1);
    case M6526_REG_TODMIN: return read_tod(cia, 2);
    case M6526_REG_TODHR: return read_tod(cia, 3);
    case M6526_REG_ICR: return read_icr(cia);
    default: return m6526_peek(cia, reg);
    }
}

uint8_t m6526_peek(const m6526 *cia, uint16_t reg)
{
    switch (reg & 0x0Fu) {
    case M6526_REG_PRA: return port_read(cia, M6526_PORT_A);
    case M6526_REG_PRB: return port_read(cia, M6526_PORT_B);
    case M6526_REG_DDRA: return cia->ddr[0];
    case M6526_REG_DDRB: return cia->ddr[1];
    case M6526_REG_TALO: return (uint8_t)cia->ta.counter;
    case M6526_REG_TAHI: return (uint8_t)(cia->ta.counter >> 8);
    case M6526_REG_TBLO: return (uint8_t)cia->tb.counter;
    case M6526_REG_TBHI: return (uint8_t)(cia->tb.counter >> 8);
    case M6526_REG_TOD10:
    case M6526_REG_TODSEC:
    case M6526_REG_TODMIN:
    case M6526_REG_TODHR: {
        int idx = (reg & 0x0F) - M6526_REG_TOD10;
        return cia->tod.latched ? cia->tod.latch[idx] : cia->tod.time[idx];
    }
    case M6526_REG_SDR: return cia->ser.sdr;
    case M6526_REG_ICR: return cia->icr.flags;
    case M6526_REG_CRA: return cia->ta.cr;
    default: return cia->tb.cr;
    }
}

void m6526_write(m6526 *cia, uint16_t reg, uint8_t value)
{
    switch (reg & 0x0Fu) {
    case M6526_REG_PRA:
    case M6526_REG_PRB:
        cia->pr[reg & 1u] = value;
        notify_port(cia, reg & 1);
        break;
    case M6526_REG_DDRA:
    case M6526_REG_DDRB:
        cia->ddr[reg & 1u] = value;
        notify_port(cia, reg & 1);
        break;
    case M6526_REG_TALO: write_latch(cia, 0, 0, value); break;
    case M6526_REG_TAHI: write_latch(cia, 0, 1, value); break;
    case M6526_REG_TBLO: write_latch(cia, 1, 0, value); break;
    case M6526_REG_TBHI: write_latch(cia, 1, 1, value); break;
    case M6526_REG_TOD10:
    case M6526_REG_TODSEC:
    case M6526_REG_TODMIN:
    case M6526_REG_TODHR: write_tod(cia, (reg & 0x0F) - M6526_REG_TOD10, value); break;
    case M6526_REG_SDR:
        cia->ser.sdr = value;
        if (cia->ta.cr & M6526_CRA_SPOUT) cia->pipe |= P_SER_LD0;
        break;
    case M6526_REG_ICR: write_icr(cia, value); break;
    case M6526_REG_CRA: write_cr(cia, 0, value); break;
    default: write_cr(cia, 1, value); break;
    }
}

/* ---- pins ---- */

void m6526_flag(m6526 *cia)
{
    cia->pipe |= P_SRC_FLG;
}

void m6526_set_sp(m6526 *cia, int level)
{
    cia->ser.sp_in = level ? 1u : 0u;
}

void m6526_set_cnt(m6526 *cia, int level)
{
    uint8_t l = level ? 1u : 0u;
    if (l == cia->ser.cnt_in) return;
    cia->ser.cnt_in = l;
    if (!l) return; /* everything counts rising edges */
    if ((cia->ta.cr & (M6526_CR_START | M6526_CRA_CNT)) ==
        (M6526_CR_START | M6526_CRA_CNT))
        cia->pipe |= P_TA_C0;
    if ((cia->tb.cr & (M6526_CR_START | M6526_CRB_INMODE)) == (M6526_CR_START | 0x20u))
        cia->pipe |= P_TB_C0;
    if (!(cia->ta.cr & M6526_CRA_SPOUT)) {
        m6526_serial *s = &cia->ser;
        s->shifter = (uint8_t)((s->shifter << 1) | s->sp_in);
        if (++s->in_bits == 8u) {
            s->in_bits = 0;
            s->sdr = s->shifter;
            cia->pipe |= P_SRC_SERIN;
        }
    }
}

/* ---- life cycle ---- */

void m6526_reset(m6526 *cia)
{
    cia->pr[0] = cia->pr[1] = 0;
    cia->ddr[0] = cia->ddr[1] = 0;
    memset(&cia->ta, 0, sizeof cia->ta);
    memset(&cia->tb, 0, sizeof cia->tb);
    cia->ta.latch = cia->ta.counter = 0xFFFFu;
    cia->tb.latch = cia->tb.counter = 0xFFFFu;
    memset(&cia->icr, 0, sizeof cia->icr);
    uint8_t cnt_in = cia->ser.cnt_in, sp_in = cia->ser.sp_in;
    memset(&cia->ser, 0, sizeof cia->ser);
    cia->ser.cnt_out = 1;
    cia->ser.sp_out = 1;
    cia->ser.cnt_in = cnt_in; /* input levels are the outside's */
    cia->ser.sp_in = sp_in;
    m6526_tod *tod = &cia->tod;
    memset(tod->time, 0, sizeof tod->time);
    memset(tod->alarm, 0, sizeof tod->alarm);
    tod->time[3] = 0x01; /* 1 AM, as VICE and VirtualC64 observe */
    memcpy(tod->latch, tod->time, 4);
    tod->latched = 0;
    tod->stopped = 1;
    tod->prescaler = 0;
    cia->pipe = 0;
    cia->feed = 0;
    notify_port(cia, M6526_PORT_A);
    notify_port(cia, M6526_PORT_B);
}

mh_status m6526_init(m6526 *cia, const m6526_desc *desc)
{
    if (!cia || !desc) return MH_ERR_INVALID_ARGUMENT;
    if (desc->model != M6526_MODEL_6526 && desc->model != M6526_MODEL_6526A)
        return MH_ERR_INVALID_ARGUMENT;
    uint32_t clock_hz = desc->clock_hz ? desc->clock_hz : DEFAULT_CLOCK_HZ;
    uint32_t tod_hz = desc->tod_hz ? desc->tod_hz : DEFAULT_TOD_HZ;
    if (tod_hz > clock_hz) return MH_ERR_INVALID_ARGUMENT;
    memset(cia, 0, sizeof *cia);
    cia->model = (uint8_t)desc->model;
    cia->links.read_port = desc->read_port;
    cia->links.port_out = desc->port_out;
    cia->links.user = desc->user;
    cia->port_last[0] = cia->port_last[1] = 0xFFu; /* all inputs, pulled up */
    cia->ser.cnt_in = 1;
    cia->ser.sp_in = 1;
    cia->tod.clock_hz = clock_hz;
    cia->tod.pin_hz = tod_hz;
    cia->tod.external = desc->tod_external ? 1u : 0u;
    tod_reload_countdown(&cia->tod);
    m6526_reset(cia);
    return MH_OK;
}

void m6526_set_ports(m6526 *cia, m6526_read_port_fn read_port,
                          m6526_port_out_fn port_out, void *user)
{
    cia->links.read_port = read_port;
    cia->links.port_out = port_out;
    cia->links.user = user;
}

void m6526_restore(m6526 *cia, const m6526 *saved)
{
    m6526_links links = cia->links;
    *cia = *saved;
    cia->links = links;
}
