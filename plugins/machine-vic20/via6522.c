/* via6522.c - the MOS 6522 VIA, cycle by cycle (via6522.h, docs/via6522.md). */
#include "via6522.h"

#include <string.h>

/* ACR shift register modes (bits 2-4). */
enum { SR_OFF = 0, SR_IN_T2, SR_IN_PHI2, SR_IN_CB1, SR_OUT_FREE, SR_OUT_T2, SR_OUT_PHI2, SR_OUT_CB1 };

static unsigned sr_mode(const m6522 *via) { return (via->acr >> 2) & 7u; }
static int sr_uses_t2(unsigned mode) { return mode == SR_IN_T2 || mode == SR_OUT_FREE || mode == SR_OUT_T2; }
static int sr_output(unsigned mode) { return mode >= SR_OUT_FREE; }

/* CA2/CB2 mode from the PCR's three bits. */
static unsigned c2_mode(uint8_t pcr, int b) { return b ? (pcr >> 5) & 7u : (pcr >> 1) & 7u; }
static int c2_independent(unsigned mode) { return mode == 1 || mode == 3; }

/* Whether m6522_tick's fast path may run: called at the end of every
 * function that changes the chip. */
static void update_quiet(m6522 *via)
{
    via->quiet = !(via->t2_loaded | via->t2_reload_low |
                   via->t2_pulse_mode | via->ca2_pulse | via->cb2_pulse | via->sr_edge_in |
                   via->sr_stopping | (via->acr & 0x3Cu));
}

static void update_irq(m6522 *via) { via->irq = (via->ifr & via->ier & 0x7Fu) != 0; }

/* Tells the machine's event sink (only called while one is set): timer 1
 * (IFR bit 6) and timer 2 (bit 5) time-outs, and an enabled flag. */
static void note_event(const m6522 *via, uint8_t bits)
{
    const char *name = via->name ? via->name : "via";
    if (bits & 0x40u) mh_event_emit(via->events, MH_CHIP_EV_TIMER, name, 0);
    if (bits & 0x20u) mh_event_emit(via->events, MH_CHIP_EV_TIMER, name, 1);
    if (bits & via->ier & 0x7Fu)
        mh_event_emit(via->events, via->irq_kind ? via->irq_kind : MH_CHIP_EV_IRQ, name,
                      bits & via->ier & 0x7Fu);
}

static void set_flag(m6522 *via, uint8_t bits)
{
    via->ifr |= bits;
    update_irq(via);
    if (mh_event_listening(via->events)) note_event(via, bits);
}

static void clear_flag(m6522 *via, uint8_t bits)
{
    via->ifr &= (uint8_t)~bits;
    update_irq(via);
}

uint8_t m6522_port_drive(const m6522 *via, int port)
{
    if (port == 0) return (uint8_t)((via->ora & via->ddra) | ~via->ddra);
    uint8_t levels = (uint8_t)((via->orb & via->ddrb) | ~via->ddrb);
    if (via->acr & 0x80) levels = (uint8_t)((levels & 0x7Fu) | (via->pb7 ? 0x80u : 0u));
    return levels;
}

uint8_t m6522_port_pins(const m6522 *via, int port)
{
    uint8_t outside = via->read_port ? via->read_port(via->user, port) : 0xFF;
    return (uint8_t)(m6522_port_drive(via, port) & outside);
}

static void ports_changed(m6522 *via)
{
    if (!via->port_out) return;
    via->port_out(via->user, 0, m6522_port_drive(via, 0));
    via->port_out(via->user, 1, m6522_port_drive(via, 1));
}

/* The CA2 / CB2 pin level the chip drives (1 when it is an input). */
static uint8_t c2_drive(const m6522 *via, int b)
{
    unsigned mode = c2_mode(via->pcr, b);
    /* Shifting out, CB2 shows the bit at the register's top. */
    if (b && sr_output(sr_mode(via))) return (uint8_t)(via->sr >> 7);
    if (mode < 4) return 1;
    if (mode == 6) return 0;
    if (mode == 7) return 1;
    return b ? via->cb2_out : via->ca2_out; /* handshake / pulse */
}

/* Input edge on CA2/CB2 (mode 0-3) against the pin's new level. */
static void c2_edge(m6522 *via, int b, uint8_t old_level, uint8_t level)
{
    unsigned mode = c2_mode(via->pcr, b);
    if (mode >= 4 || old_level == level) return;
    int positive = (mode & 2u) != 0;
    if ((positive && level) || (!positive && !level)) set_flag(via, b ? M6522_IRQ_CB2 : M6522_IRQ_CA2);
}

/* Recomputes the CA2/CB2 pins: outside level AND what the chip drives;
 * the edge detector watches the pin whoever drives it. */
static void update_c2_pins(m6522 *via)
{
    uint8_t ca2 = (uint8_t)(via->ca2_in & c2_drive(via, 0));
    uint8_t cb2 = (uint8_t)(via->cb2_in & c2_drive(via, 1));
    uint8_t old_ca2 = via->ca2_pin, old_cb2 = via->cb2_pin;
    via->ca2_pin = ca2;
    via->cb2_pin = cb2;
    c2_edge(via, 0, old_ca2, ca2);
    c2_edge(via, 1, old_cb2, cb2);
}

void m6522_init(m6522 *via, const m6522_desc *desc)
{
    memset(via, 0, sizeof *via);
    via->read_port = desc->read_port;
    via->port_out = desc->port_out;
    via->user = desc->user;
    via->ca1_in = via->ca2_in = via->cb1_in = via->cb2_in = 1;
    via->pb6_in = 1;
    m6522_reset(via);
}

void m6522_reset(m6522 *via)
{
    via->ora = via->orb = via->ddra = via->ddrb = 0;
    via->acr = via->pcr = via->ifr = via->ier = 0;
    via->t1_armed = via->t2_armed = 0;
    via->t1_reload = via->t1_loaded = via->t2_loaded = via->t2_reload_low = 0;
    via->pb7 = 1;
    via->sr_count = 0;
    via->sr_running = 0;
    via->sr_clock = 1;
    via->ca2_out = via->cb2_out = 1;
    via->ca2_pulse = via->cb2_pulse = 0;
    via->ca2_pin = via->ca2_in;
    via->cb2_pin = via->cb2_in;
    via->cb1_pin = via->cb1_in;
    via->irq = 0;
    ports_changed(via);
    update_quiet(via);
}

void m6522_restore(m6522 *via, const m6522 *saved)
{
    m6522_read_port_fn read_port = via->read_port;
    m6522_port_out_fn port_out = via->port_out;
    void *user = via->user;
    const mh_event_sink *events = via->events;
    const char *name = via->name;
    uint32_t irq_kind = via->irq_kind;
    *via = *saved;
    via->read_port = read_port;
    via->port_out = port_out;
    via->user = user;
    via->events = events;
    via->name = name;
    via->irq_kind = irq_kind;
    update_quiet(via);
}

/* ---- shift register ---- */

/* One shift: in modes take CB2's level into bit 0; out modes rotate bit 7
 * out to CB2 (and back into bit 0). After 8 bits the flag is set and the
 * shifting stops, except in the free-running output mode. */
static void sr_shift(m6522 *via)
{
    unsigned mode = sr_mode(via);
    if (sr_output(mode)) {
        via->sr = (uint8_t)(via->sr << 1 | via->sr >> 7); /* it recirculates */
        update_c2_pins(via);
    } else {
        via->sr = (uint8_t)(via->sr << 1 | (via->cb2_pin & 1u));
    }
    if (!via->sr_running || via->sr_stopping || mode == SR_OUT_FREE) return;
    if (++via->sr_count >= 8) {
        /* The flag is set with the eighth shift; the shifter counts as busy
         * (an access does not restart it) until the next cycle. */
        via->sr_count = 0;
        via->sr_stopping = 1;
        set_flag(via, M6522_IRQ_SR);
    }
}

/* A half period of the internal shift clock ended: CB1 toggles; data goes
 * out on the falling edge and comes in on the rising edge. */
static void sr_clock_edge(m6522 *via)
{
    unsigned mode = sr_mode(via);
    if (via->sr_stopping) {
        /* This edge ends the eighth bit's period: the shifter is idle. */
        via->sr_stopping = 0;
        via->sr_running = 0;
    }
    int shifting = via->sr_running || mode == SR_OUT_FREE;
    /* The T2-rate divider runs on while idle; the phi2 one stops. */
    if (!shifting && !sr_uses_t2(mode)) return;
    via->sr_clock ^= 1u;
    if (shifting) via->cb1_pin = via->sr_clock;
    if (shifting && via->sr_clock != (uint8_t)sr_output(mode)) sr_shift(via);
}

/* An SR read or write clears the flag and starts a byte when the shifter
 * is idle (an access while it shifts does not restart the count). */
static void sr_start(m6522 *via)
{
    clear_flag(via, M6522_IRQ_SR);
    if (via->sr_running) return;
    via->sr_count = 0;
    via->sr_running = sr_mode(via) != SR_OFF;
    /* At the system clock's rate the divider starts with CB1 low: the
     * first shift out comes two cycles after the access. */
    if (sr_mode(via) == SR_IN_PHI2 || sr_mode(via) == SR_OUT_PHI2) via->sr_clock = 0;
    /* At T2's rate CB1 starts high: the next T2 edge is a falling one. */
    else if (sr_uses_t2(sr_mode(via))) via->sr_clock = 1;
}

/* ---- timers ---- */

void m6522_t1_fire(m6522 *via)
{
    /* Only a time-out after a T1C-H write counts; free-running mode keeps
     * the timer armed, one-shot mode disarms it. */
    if (!(via->acr & 0x40)) via->t1_armed = 0;
    set_flag(via, M6522_IRQ_T1);
    /* The PB7 flip-flop toggles at each time-out that sets the flag. */
    if (via->acr & 0x80) {
        via->pb7 ^= 1u;
        if (via->port_out) via->port_out(via->user, 1, m6522_port_drive(via, 1));
    }
}

static void t2_timeout(m6522 *via)
{
    via->t2_timeouts++;
    if (via->t2_armed) {
        via->t2_armed = 0;
        set_flag(via, M6522_IRQ_T2);
    }
}

static void t2_tick(m6522 *via, unsigned mode)
{
    if (via->t2_loaded) {
        via->t2_pulse_mode = via->acr & 0x20u;
        via->t2_loaded = 0;
        return;
    }
    if (via->t2_reload_low) {
        /* The shift register's T2 rate: the low byte reloads from its latch. */
        via->t2_reload_low = 0;
        via->t2_pulse_mode = via->acr & 0x20u;
        via->t2_counter = (uint16_t)((via->t2_counter & 0xFF00u) | via->t2_latch_low);
        return;
    }
    /* The counting mode (ACR bit 5) takes effect one cycle after a write. */
    uint8_t pulse_mode = via->t2_pulse_mode;
    via->t2_pulse_mode = via->acr & 0x20u;
    if (pulse_mode) return; /* counts PB6 pulses */
    uint16_t before = via->t2_counter--;
    if (before == 0) t2_timeout(via);
    if (sr_uses_t2(mode) && (before & 0xFFu) == 0) {
        via->t2_reload_low = 1;
        via->sr_edge_in = 2; /* CB1 follows the underflow two cycles later */
    }
}

int m6522_tick_slow(m6522 *via)
{
    if (via->sr_stopping && (via->acr & 0x0Cu) == 0x0Cu) {
        /* Clocked by CB1 from outside: idle right after the eighth bit. */
        via->sr_stopping = 0;
        via->sr_running = 0;
    }
    m6522_t1_tick(via);
    unsigned mode = sr_mode(via);
    if (via->sr_edge_in && --via->sr_edge_in == 0 && sr_uses_t2(mode)) sr_clock_edge(via);
    t2_tick(via, mode);
    if (mode == SR_IN_PHI2 || mode == SR_OUT_PHI2) sr_clock_edge(via);
    if (via->ca2_pulse && --via->ca2_pulse == 0) {
        via->ca2_out = 1;
        update_c2_pins(via);
    }
    if (via->cb2_pulse && --via->cb2_pulse == 0) {
        via->cb2_out = 1;
        update_c2_pins(via);
    }
    update_quiet(via);
    return via->irq;
}

/* ---- lazy clocking ---- */

uint32_t m6522_next_event(const m6522 *via)
{
    if (!via->quiet) return 1;
    uint32_t next = 0x20000u;
    if (via->t1_armed) {
        if (via->t1_loaded || via->t1_reload) return 1;
        next = (uint32_t)via->t1_counter + 1u;
    }
    if (via->t2_armed && (uint32_t)via->t2_counter + 1u < next) next = (uint32_t)via->t2_counter + 1u;
    return next;
}

/* k cycles of timer 1 with no armed time-out among them. */
static void t1_skip(m6522 *via, uint32_t k)
{
    while (k) {
        if (via->t1_loaded) {
            via->t1_loaded = 0;
            k--;
        } else if (via->t1_reload) {
            via->t1_reload = 0;
            via->t1_counter = via->t1_latch;
            k--;
        } else if (k <= via->t1_counter) {
            via->t1_counter = (uint16_t)(via->t1_counter - k);
            return;
        } else {
            /* Down to 0 and the (unarmed) time-out: $FFFF, reload pending;
             * from there the timer repeats every latch + 2 cycles. */
            k -= (uint32_t)via->t1_counter + 1u;
            via->t1_counter = 0xFFFF;
            via->t1_reload = 1;
            via->t1_timeouts++;
            uint32_t period = (uint32_t)via->t1_latch + 2u;
            if (k > period) {
                uint32_t full = (k - 1u) / period;
                via->t1_timeouts += full;
                k -= full * period;
            }
        }
    }
}

/* k cycles of timer 2 counting phi2 (quiet: no load, no shift register)
 * with no armed time-out among them. */
static void t2_skip(m6522 *via, uint32_t k)
{
    uint32_t c = via->t2_counter;
    if (k > c) via->t2_timeouts += 1u + (k - c - 1u) / 65536u;
    via->t2_counter = (uint16_t)(c - k);
}

int m6522_advance(m6522 *via, uint32_t n)
{
    if (!n) return via->irq;
    if (!via->quiet) {
        while (n--) m6522_tick(via);
        return via->irq;
    }
    /* Quiet: the timers are independent; the last cycle may be the event. */
    t1_skip(via, n - 1u);
    t2_skip(via, n - 1u);
    return m6522_tick(via);
}

/* ---- control line inputs ---- */

static void c1_edge(m6522 *via, int b, int level)
{
    int positive = b ? (via->pcr & 0x10) != 0 : (via->pcr & 0x01) != 0;
    if ((positive && !level) || (!positive && level)) return;
    set_flag(via, b ? M6522_IRQ_CB1 : M6522_IRQ_CA1);
    if (b) {
        if (via->acr & 0x02) via->pb_latch = m6522_port_pins(via, 1);
        if (c2_mode(via->pcr, 1) == 4) via->cb2_out = 1; /* handshake done */
    } else {
        if (via->acr & 0x01) via->pa_latch = m6522_port_pins(via, 0);
        if (c2_mode(via->pcr, 0) == 4) via->ca2_out = 1;
    }
    update_c2_pins(via);
}

void m6522_set_ca1(m6522 *via, int level)
{
    level = level != 0;
    if (level == via->ca1_in) return;
    via->ca1_in = (uint8_t)level;
    c1_edge(via, 0, level);
    update_quiet(via);
}

void m6522_set_cb1(m6522 *via, int level)
{
    level = level != 0;
    if (level == via->cb1_in) return;
    via->cb1_in = (uint8_t)level;
    via->cb1_pin = (uint8_t)level;
    /* Clocked from outside: out on the falling edge, in on the rising. */
    unsigned mode = sr_mode(via);
    if ((mode == SR_IN_CB1 && level) || (mode == SR_OUT_CB1 && !level)) {
        if (via->sr_stopping) {
            via->sr_stopping = 0;
            via->sr_running = 0;
        }
        if (via->sr_running) sr_shift(via);
    }
    c1_edge(via, 1, level);
    update_quiet(via);
}

void m6522_set_ca2(m6522 *via, int level)
{
    via->ca2_in = (uint8_t)(level != 0);
    update_c2_pins(via);
    update_quiet(via);
}

void m6522_set_cb2(m6522 *via, int level)
{
    via->cb2_in = (uint8_t)(level != 0);
    update_c2_pins(via);
    update_quiet(via);
}

void m6522_set_pb6(m6522 *via, int level)
{
    level = level != 0;
    int falling = via->pb6_in && !level;
    via->pb6_in = (uint8_t)level;
    if (!falling || !(via->acr & 0x20) || via->t2_loaded) return;
    if (--via->t2_counter == 0) t2_timeout(via);
    update_quiet(via);
}

/* ---- register access ---- */

static uint8_t read_port_a(const m6522 *via)
{
    return (via->acr & 0x01) ? via->pa_latch : m6522_port_pins(via, 0);
}

static uint8_t read_port_b(const m6522 *via)
{
    uint8_t input = (via->acr & 0x02) ? via->pb_latch : m6522_port_pins(via, 1);
    uint8_t value = (uint8_t)((via->orb & via->ddrb) | (input & ~via->ddrb));
    if (via->acr & 0x80) value = (uint8_t)((value & 0x7Fu) | (via->pb7 ? 0x80u : 0u));
    return value;
}

uint8_t m6522_peek(const m6522 *via, uint8_t reg)
{
    switch (reg & 0x0Fu) {
    case 0x0: return read_port_b(via);
    case 0x1: case 0xF: return read_port_a(via);
    case 0x2: return via->ddrb;
    case 0x3: return via->ddra;
    case 0x4: return (uint8_t)via->t1_counter;
    case 0x5: return (uint8_t)(via->t1_counter >> 8);
    case 0x6: return (uint8_t)via->t1_latch;
    case 0x7: return (uint8_t)(via->t1_latch >> 8);
    case 0x8: return (uint8_t)via->t2_counter;
    case 0x9: return (uint8_t)(via->t2_counter >> 8);
    case 0xA: return via->sr;
    case 0xB: return via->acr;
    case 0xC: return via->pcr;
    case 0xD: return (uint8_t)(via->ifr | (via->irq ? 0x80u : 0u));
    default: return (uint8_t)(via->ier | 0x80u);
    }
}

/* A port access's effect on the C1/C2 flags and the C2 handshake. */
static void port_access(m6522 *via, int b)
{
    unsigned mode = c2_mode(via->pcr, b);
    uint8_t bits = b ? M6522_IRQ_CB1 : M6522_IRQ_CA1;
    if (!c2_independent(mode)) bits |= b ? M6522_IRQ_CB2 : M6522_IRQ_CA2;
    clear_flag(via, bits);
    if (mode == 4 || mode == 5) {
        if (b) via->cb2_out = 0;
        else via->ca2_out = 0;
        if (mode == 5) {
            if (b) via->cb2_pulse = 1;
            else via->ca2_pulse = 1;
        }
        update_c2_pins(via);
    }
}

uint8_t m6522_read(m6522 *via, uint8_t reg)
{
    reg &= 0x0Fu;
    uint8_t value = m6522_peek(via, reg);
    switch (reg) {
    case 0x0: port_access(via, 1); break;
    case 0x1: port_access(via, 0); break;
    case 0x4: clear_flag(via, M6522_IRQ_T1); break;
    case 0x8: clear_flag(via, M6522_IRQ_T2); break;
    case 0xA: sr_start(via); break;
    default: break;
    }
    update_quiet(via);
    return value;
}

void m6522_write(m6522 *via, uint8_t reg, uint8_t value)
{
    switch (reg & 0x0Fu) {
    case 0x0:
        via->orb = value;
        /* CB2 handshake/pulse acts on writes to port B only. */
        port_access(via, 1);
        ports_changed(via);
        break;
    case 0x1:
        via->ora = value;
        port_access(via, 0);
        ports_changed(via);
        break;
    case 0xF: via->ora = value; ports_changed(via); break;
    case 0x2: via->ddrb = value; ports_changed(via); break;
    case 0x3: via->ddra = value; ports_changed(via); break;
    case 0x4: case 0x6: via->t1_latch = (uint16_t)((via->t1_latch & 0xFF00u) | value); break;
    case 0x7:
        via->t1_latch = (uint16_t)((via->t1_latch & 0x00FFu) | value << 8);
        clear_flag(via, M6522_IRQ_T1);
        break;
    case 0x5:
        via->t1_latch = (uint16_t)((via->t1_latch & 0x00FFu) | value << 8);
        via->t1_counter = via->t1_latch;
        via->t1_loaded = 1;
        via->t1_reload = 0;
        via->t1_armed = 1;
        clear_flag(via, M6522_IRQ_T1);
        /* A T1 load starts a PB7 pulse (low) when PB7 is the timer's. */
        if (via->acr & 0x80) {
            via->pb7 = 0;
            ports_changed(via);
        }
        break;
    case 0x8: via->t2_latch_low = value; break;
    case 0x9:
        via->t2_counter = (uint16_t)(value << 8 | via->t2_latch_low);
        via->t2_loaded = 1;
        via->t2_reload_low = 0;
        via->t2_armed = 1;
        clear_flag(via, M6522_IRQ_T2);
        break;
    case 0xA:
        via->sr = value;
        sr_start(via);
        update_c2_pins(via); /* shifting out, CB2 shows the new bit 7 */
        break;
    case 0xB: {
        unsigned old_mode = sr_mode(via);
        via->acr = value;
        if (sr_mode(via) == SR_OFF) via->sr_running = 0;
        /* With PB7 output off the flip-flop is held high. */
        if (!(value & 0x80u)) via->pb7 = 1;
        if (old_mode != sr_mode(via)) update_c2_pins(via);
        ports_changed(via);
        break;
    }
    case 0xC:
        via->pcr = value;
        /* Handshake and pulse outputs start high. */
        if (c2_mode(value, 0) < 6) via->ca2_out = 1;
        if (c2_mode(value, 1) < 6) via->cb2_out = 1;
        update_c2_pins(via);
        break;
    case 0xD: clear_flag(via, value & 0x7Fu); break;
    default:
        if (value & 0x80u) via->ier |= value & 0x7Fu;
        else via->ier &= (uint8_t)~value;
        update_irq(via);
        break;
    }
    update_quiet(via);
}
