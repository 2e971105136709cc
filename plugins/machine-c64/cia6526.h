/* cia6526.h - the MOS 6526 CIA and the 6526A / 8521 ("new CIA") as a
 * cycle-stepped chip (files cia6526.c, cia6526_debug.c; docs/cia6526.md).
 *
 * Style of floooh/chips m6526.h: a m6526_desc where zero means default,
 * m6526_init(), m6526_reset(), m6526_tick() = one PHI2 cycle,
 * and a plain state struct that a debugger reads and a snapshot copies.
 *
 * Implemented (timing follows W. Lorenz, "A Software Model of the CIA6526",
 * as refined by VICE and VirtualC64 against the test suites; see the doc):
 *   - timers A and B: continuous and one-shot, start/stop, force load, the
 *     count pipeline (first decrement 3 cycles after the start write, so a
 *     read 2 cycles after it still sees the start value), reload on
 *     underflow (a timer with latch N underflows every N+1 cycles and never
 *     reads 0 while counting PHI2), loading the counter when the high latch
 *     byte is written to a stopped timer, latch writes in the cycle of a
 *     reload also reaching the counter;
 *   - timer B counting PHI2, CNT rising edges, timer A underflows, or timer
 *     A underflows while CNT is high; timer A counting PHI2 or CNT edges;
 *   - PB6/PB7 timer outputs (pulse for one cycle or toggle, the toggle
 *     flip-flop set high when the timer is started) overriding the port B
 *     data and direction bits while PBON is set;
 *   - ICR: mask with the set/clear bit 7, flags TA, TB, ALARM, SP, FLG, the
 *     IR bit and the interrupt output. Old 6526: IR and the output follow a
 *     new flag one cycle later; 6526A: in the same cycle. Reading ICR
 *     returns and clears it and releases the output at the next tick; a read
 *     in the cycle the interrupt would be raised cancels it (old) or delays
 *     it (new); the old chip's "timer B bug" (a TB flag arriving the cycle
 *     after an ICR read is lost);
 *   - TOD: BCD tenths/seconds/minutes/hours with AM/PM and the chip's
 *     nibble counters (09->10, 11->12 toggles PM, 12->01), the 50/60 Hz
 *     prescaler selected by CRA bit 7, writing hours stops the clock until
 *     tenths are written, reading hours latches the outputs until tenths are
 *     read, writing 12 into the hours flips AM/PM, alarm written when CRB
 *     bit 7 is set, alarm interrupt on an exact match;
 *   - serial port: output mode clocked by timer A underflows (CNT toggles
 *     on each underflow, 8 bits MSB first, SP flag when the 8th bit is put
 *     out, back-to-back bytes when SDR is rewritten in time); input mode
 *     shifting SP on CNT rising edges, SP flag after 8 bits;
 *   - ports: PRA/PRB/DDRA/DDRB; a read returns the pin levels (see below);
 *   - registers mirror every 16 bytes; a side-effect-free peek.
 * Not implemented: the PC handshake output; the exact sub-cycle delays of
 * the serial port (the SP flag timing is VICE's, not verified on hardware);
 * TOD power-line jitter; the undocumented behaviour of invalid BCD values
 * beyond the nibble counters.
 *
 * Machine-side contract:
 *   - Clock: call m6526_tick() exactly once per PHI2 cycle, BEFORE the
 *     CPU's bus access of that cycle (inside the CPU bus callback: first
 *     tick the chips, then perform the access with m6526_read/write).
 *     The delays above are counted in that order.
 *   - Interrupt: tick() returns the level of the /IRQ output (1 = asserted,
 *     line low); only tick() changes it. The C64 wires CIA1 to the CPU's IRQ
 *     and CIA2 to its NMI: after each tick,
 *       mh_cpu6502_set_irq(cpu, SRC_CIA1, m6526_tick(&cia1));
 *       mh_cpu6502_set_nmi(cpu, SRC_CIA2, m6526_tick(&cia2));
 *     Set inside the bus callback, the level counts for the current cycle.
 *   - Ports: read_port(user, port) returns the levels that the outside
 *     world puts on PA (port 0) or PB (port 1); a pin nothing pulls low must
 *     read 1 (the pull-ups). A register read returns
 *       m6526_port_output(cia, port) & read_port(user, port),
 *     which for input bits is (output & ddr) | (pins & ~ddr), and for output
 *     bits lets an external device pull a driven-high line low, as on the
 *     real chip (the C64 reads joystick 2 on $DC00 with DDRA = $FF).
 *     m6526_port_output() gives the levels the CIA drives (latch bits
 *     where the DDR says output, 1 = pulled up where input, PB6/PB7 timer
 *     outputs while PBON); the keyboard matrix uses it to compute the
 *     wired-AND of both sides.
 *   - port_out(user, port, levels) is called whenever
 *     m6526_port_output() of a port changes (writes to PRx/DDRx/CRx,
 *     PB6/PB7 timer outputs inside tick). C64 CIA2: VIC bank =
 *     3 - (levels & 3); serial ATN/CLK/DATA out = bits 3-5 (inverted by the
 *     7406 on the board).
 *   - TOD: by default the chip clocks its own TOD pin at desc.tod_hz (the
 *     mains frequency: 50 in PAL countries, 60 in NTSC ones) from
 *     desc.clock_hz (the PHI2 rate), with an exact fractional divider, so no
 *     machine code is needed. With desc.tod_external = 1 the machine calls
 *     m6526_tod_tick() once per TOD pin pulse instead. Either way the
 *     chip divides by 5 or 6 according to CRA bit 7, as the real one does.
 *   - FLAG: m6526_flag() is a falling edge on /FLAG (C64 CIA1: cassette
 *     read and serial SRQ; CIA2: user port). CNT/SP inputs:
 *     m6526_set_cnt(), m6526_set_sp(). Their effects appear at the
 *     next tick.
 *
 * Ownership: the caller owns m6526 (no allocation inside). Callbacks
 * and their user pointer are borrowed. The struct holds no pointers except
 * in `links`, which m6526_restore() keeps, so a snapshot is a plain
 * copy. No global mutable state.
 * Threading: [emu-thread] for every function; two CIAs share nothing.
 */
#ifndef MCPHOST_MACHINE_C64_CIA6526_H
#define MCPHOST_MACHINE_C64_CIA6526_H

#include <stdint.h>
#include "mcphost/machine_events.h"
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever the meaning of the state struct changes. */
#define M6526_STATE_VERSION 1

typedef enum m6526_model {
    M6526_MODEL_6526 = 0,  /* old NMOS 6526: IRQ one cycle after the flag */
    M6526_MODEL_6526A = 1  /* 6526A / 8521 "new CIA": IRQ with the flag */
} m6526_model;

/* Register numbers (the address modulo 16). */
enum {
    M6526_REG_PRA = 0x0,
    M6526_REG_PRB = 0x1,
    M6526_REG_DDRA = 0x2,
    M6526_REG_DDRB = 0x3,
    M6526_REG_TALO = 0x4,
    M6526_REG_TAHI = 0x5,
    M6526_REG_TBLO = 0x6,
    M6526_REG_TBHI = 0x7,
    M6526_REG_TOD10 = 0x8, /* tenths of seconds */
    M6526_REG_TODSEC = 0x9,
    M6526_REG_TODMIN = 0xA,
    M6526_REG_TODHR = 0xB, /* bit 7 = PM */
    M6526_REG_SDR = 0xC,
    M6526_REG_ICR = 0xD,
    M6526_REG_CRA = 0xE,
    M6526_REG_CRB = 0xF
};

/* Ports. */
#define M6526_PORT_A 0
#define M6526_PORT_B 1

/* ICR bits (flags when read, mask bits when written). */
#define M6526_INT_TA 0x01u
#define M6526_INT_TB 0x02u
#define M6526_INT_ALARM 0x04u
#define M6526_INT_SP 0x08u
#define M6526_INT_FLG 0x10u
#define M6526_INT_IR 0x80u /* read: an enabled flag is set; write: set/clear */

/* CRA/CRB bits. */
#define M6526_CR_START 0x01u
#define M6526_CR_PBON 0x02u
#define M6526_CR_TOGGLE 0x04u   /* 1 = toggle PB6/7, 0 = one-cycle pulse */
#define M6526_CR_ONESHOT 0x08u
#define M6526_CR_LOAD 0x10u     /* force-load strobe, never stored */
#define M6526_CRA_CNT 0x20u     /* timer A counts CNT rising edges */
#define M6526_CRA_SPOUT 0x40u   /* serial port is an output */
#define M6526_CRA_TOD50 0x80u   /* TOD pin is 50 Hz (else 60 Hz) */
#define M6526_CRB_INMODE 0x60u  /* 00 PHI2, 20 CNT, 40 TA, 60 TA while CNT */
#define M6526_CRB_ALARM 0x80u   /* TOD writes set the alarm */

/* External levels of the port pins (bit n = pin n; 1 where nothing pulls
 * the line low). Called at each read of PRA/PRB and by peek. [emu-thread] */
typedef uint8_t (*m6526_read_port_fn)(void *user, int port);
/* The levels the CIA drives on a port changed (see port_output). [emu-thread] */
typedef void (*m6526_port_out_fn)(void *user, int port, uint8_t levels);

typedef struct m6526_desc {
    m6526_model model;            /* 0: old 6526 */
    uint32_t clock_hz;                 /* PHI2 rate; 0: 985248 (PAL C64) */
    uint32_t tod_hz;                   /* TOD pin (mains) rate; 0: 50 */
    int tod_external;                  /* 1: the machine calls m6526_tod_tick() */
    m6526_read_port_fn read_port; /* NULL: all pins read 1 */
    m6526_port_out_fn port_out;   /* optional */
    void *user;                        /* for read_port and port_out */
} m6526_desc;

typedef struct m6526_timer {
    uint16_t counter;  /* current count (what $x4/$x5 read) */
    uint16_t latch;    /* reload value (what $x4/$x5 write) */
    uint8_t cr;        /* control register; bit 4 (force load) always 0,
                          bit 0 cleared when a one-shot underflows */
    uint8_t toggle;    /* PB6/PB7 toggle flip-flop, 0/1 */
    uint8_t pulse;     /* 1 during the cycle of an underflow */
    uint8_t reserved;
    uint32_t underflows; /* underflows since reset (for debuggers) */
} m6526_timer;

typedef struct m6526_tod {
    uint8_t time[4];   /* [0] tenths, [1] seconds, [2] minutes, [3] hours
                          (bit 7 = PM), BCD, as the counters hold them */
    uint8_t alarm[4];  /* same layout */
    uint8_t latch[4];  /* what reads return while latched */
    uint8_t latched;   /* 1: hours were read, tenths not yet */
    uint8_t stopped;   /* 1: hours were written, tenths not yet (or reset) */
    uint8_t prescaler; /* TOD pin pulses counted toward the next tenth (0-5) */
    uint8_t external;  /* 1: pulses come from m6526_tod_tick() only */
    uint32_t countdown; /* cycles to the next internal TOD pin pulse */
    uint32_t frac;      /* fractional divider remainder */
    uint32_t clock_hz;
    uint32_t pin_hz;
} m6526_tod;

typedef struct m6526_serial {
    uint8_t sdr;       /* serial data register */
    uint8_t shifter;   /* shift register */
    uint8_t half_bits; /* output: CNT half-periods left (16 = a byte), 0 idle */
    uint8_t sdr_valid; /* output: SDR written while shifting, sent next */
    uint8_t in_bits;   /* input: bits shifted in toward the next byte */
    uint8_t cnt_out;   /* CNT pin level driven in output mode (1 idle) */
    uint8_t sp_out;    /* SP pin level driven in output mode */
    uint8_t cnt_in;    /* CNT level given by m6526_set_cnt() (1 idle) */
    uint8_t sp_in;     /* SP level given by m6526_set_sp() */
    uint8_t force_finish; /* output -> input left a byte unfinished: its SP
                           * flag comes when the port turns output again */
    uint8_t reserved[2];
} m6526_serial;

typedef struct m6526_icr {
    uint8_t flags; /* data register: source flags and IR (bit 7) */
    uint8_t mask;  /* mask register (bits 0-4) */
    uint8_t ack;   /* 6526A: flags a pending ICR read will clear */
    uint8_t irq;   /* /IRQ output: 1 = asserted (line low) */
} m6526_icr;

/* Everything in the state that is a pointer. Not part of a snapshot. */
typedef struct m6526_links {
    m6526_read_port_fn read_port;
    m6526_port_out_fn port_out;
    void *user;
    /* Timer underflow and interrupt events (machine_events.h); NULL: none.
     * name: the instance ("cia1"); irq_kind: MH_CHIP_EV_IRQ or _NMI, as
     * the machine wired the chip's /IRQ pin. */
    const mh_event_sink *events;
    const char *name;
    uint32_t irq_kind;
} m6526_links;

typedef struct m6526 {
    uint8_t model;      /* m6526_model */
    uint8_t pr[2];      /* PRA, PRB output latches */
    uint8_t ddr[2];     /* DDRA, DDRB: 1 = output */
    uint8_t port_last[2]; /* last levels reported through port_out */
    uint8_t reserved;
    m6526_timer ta, tb;
    m6526_icr icr;
    m6526_serial ser;
    m6526_tod tod;
    /* Delay lines (internal; see cia6526.c): events in flight, shifted one
     * stage per tick, and the bits fed in at every tick. */
    uint64_t pipe;
    uint64_t feed;
    m6526_links links;
} m6526;

/* Sets up a CIA in reset state. MH_ERR_INVALID_ARGUMENT when cia or desc is
 * NULL, the model is unknown, or tod_hz > clock_hz. */
mh_status m6526_init(m6526 *cia, const m6526_desc *desc);

/* The /RES pin: ports inputs, registers 0, latches $FFFF, TOD 1:00:00.0 AM
 * stopped, alarm 0, interrupt released. Keeps the model, TOD clocking, the
 * CNT/SP input levels and links. Calls port_out for a port whose levels
 * change (outputs become pulled-up inputs). */
void m6526_reset(m6526 *cia);

/* Out-of-line rest of m6526_tick(), which has already counted
 * tod.countdown down: the full cycle, correct in every state. Call
 * m6526_tick() instead. */
int m6526_tick_full(m6526 *cia);

/* One PHI2 cycle. Returns the /IRQ output (1 = asserted).
 * Inline fast path: nothing is in flight but timers counting PHI2 (the
 * feed holds only their stage-0 bits, and every stage of a counting timer
 * is set: pipe == feed * 15), no counter can reach 0 in this tick and the
 * internal TOD pin is not due. The delay-line shift would leave pipe as
 * it is. Everything else goes to m6526_tick_full(). */
static inline int m6526_tick(m6526 *cia)
{
    uint64_t pipe = cia->pipe;
    if (--cia->tod.countdown != 0 && pipe == cia->feed * 15u) {
        if (pipe == 0) return cia->icr.irq;
        uint16_t a = (uint16_t)(pipe & 1u), b = (uint16_t)((pipe >> 4) & 1u);
        if ((!a || cia->ta.counter > 1u) && (!b || cia->tb.counter > 1u)) {
            cia->ta.counter = (uint16_t)(cia->ta.counter - a);
            cia->tb.counter = (uint16_t)(cia->tb.counter - b);
            return cia->icr.irq;
        }
    }
    return m6526_tick_full(cia);
}

/* Clocking by deadline: how many of the next ticks are sure to take the
 * inline fast path above when nothing reaches the chip from outside (no
 * register access, pin change or TOD pulse): only timers counting PHI2 in
 * flight, neither reaching its underflow check, the internal TOD pin not
 * due. 0 when the next tick needs the full path. [emu-thread] */
static inline uint32_t m6526_quiet_ticks(const m6526 *cia)
{
    uint64_t pipe = cia->pipe;
    if (pipe != cia->feed * 15u || cia->tod.countdown == 0) return 0;
    /* Tick j (from 0) is fast while countdown - (j + 1) != 0 and a
     * counting timer's counter - j > 1. */
    uint32_t quiet = cia->tod.countdown - 1u;
    if (pipe & 1u) {
        uint32_t a = cia->ta.counter > 1u ? cia->ta.counter - 1u : 0u;
        if (a < quiet) quiet = a;
    }
    if (pipe & 0x10u) {
        uint32_t b = cia->tb.counter > 1u ? cia->tb.counter - 1u : 0u;
        if (b < quiet) quiet = b;
    }
    return quiet;
}

/* `ticks` fast-path ticks at once (ticks <= m6526_quiet_ticks() as it was
 * when the skipped stretch began): the same state as that many
 * m6526_tick() calls. The /IRQ output does not change in such a stretch.
 * A machine that skips ticks this way must bring the chip up to date before
 * anything reads or changes it (register access, pins, debuggers,
 * snapshots). [emu-thread] */
static inline void m6526_skip(m6526 *cia, uint32_t ticks)
{
    cia->tod.countdown -= ticks;
    if (cia->pipe & 1u) cia->ta.counter = (uint16_t)(cia->ta.counter - ticks);
    if (cia->pipe & 0x10u) cia->tb.counter = (uint16_t)(cia->tb.counter - ticks);
}

/* Register access by the CPU in the current cycle (after its tick). reg is
 * masked to 4 bits (mirrors). Reads have the chip's side effects. */
uint8_t m6526_read(m6526 *cia, uint16_t reg);
void m6526_write(m6526 *cia, uint16_t reg, uint8_t value);

/* What a read would return, with no side effects (for debuggers): ICR is not
 * cleared, TOD is not latched or released. Calls read_port for PRA/PRB. */
uint8_t m6526_peek(const m6526 *cia, uint16_t reg);

/* Output levels the CIA drives on a port (see the contract above). */
uint8_t m6526_port_output(const m6526 *cia, int port);
/* Effective direction of a port (1 = driven): the DDR, plus PB6/PB7 while
 * the timers' PBON bits are set. */
uint8_t m6526_port_ddr(const m6526 *cia, int port);

/* Pins. */
void m6526_flag(m6526 *cia);                 /* falling edge on /FLAG */
void m6526_set_cnt(m6526 *cia, int level);   /* CNT input level */
void m6526_set_sp(m6526 *cia, int level);    /* SP input level */
void m6526_tod_tick(m6526 *cia);             /* one TOD pin pulse */

/* Replace the links (after a restore, or to rewire). */
void m6526_set_ports(m6526 *cia, m6526_read_port_fn read_port,
                          m6526_port_out_fn port_out, void *user);

/* Copies a saved state into cia, keeping cia's links. */
void m6526_restore(m6526 *cia, const m6526 *saved);

/* The /IRQ output without ticking. */
static inline int m6526_irq(const m6526 *cia)
{
    return cia->icr.irq;
}

/* ---- Decoded state for debug tools (cia6526_debug.c) ---- */

typedef enum m6526_input {
    M6526_INPUT_PHI2 = 0,
    M6526_INPUT_CNT = 1,
    M6526_INPUT_TA = 2,     /* timer B only */
    M6526_INPUT_TA_CNT = 3  /* timer B only: TA underflows while CNT high */
} m6526_input;

typedef struct m6526_timer_info {
    uint16_t counter;
    uint16_t latch;
    uint8_t running;      /* START bit */
    uint8_t oneshot;
    uint8_t pb_on;        /* output on PB6 (A) / PB7 (B) */
    uint8_t pb_toggle;    /* 1 toggle, 0 pulse */
    uint8_t pb_level;     /* current timer output level for PB6/PB7 */
    uint8_t input;        /* m6526_input */
    uint32_t underflows;
} m6526_timer_info;

typedef struct m6526_time {
    uint8_t hours;   /* 1-12 (decoded from BCD; invalid BCD kept as is) */
    uint8_t minutes;
    uint8_t seconds;
    uint8_t tenths;
    uint8_t pm;
} m6526_time;

typedef struct m6526_info {
    uint8_t model;
    m6526_timer_info ta, tb;
    m6526_time tod, alarm;
    uint8_t tod_running;  /* not stopped by an hours write */
    uint8_t tod_latched;
    uint8_t tod_50hz;     /* CRA bit 7 */
    uint8_t icr_flags;    /* data register incl. IR */
    uint8_t icr_mask;
    uint8_t irq;          /* output asserted */
    uint8_t sdr;
    uint8_t sp_output;    /* CRA bit 6 */
    uint8_t sp_bits_left; /* output mode: bits still to shift out */
    uint8_t pra, prb, ddra, ddrb;
    uint8_t pa_out, pb_out; /* m6526_port_output() */
} m6526_info;

/* Decodes the state (no side effects). */
void m6526_get_info(const m6526 *cia, m6526_info *info);

/* BCD byte to binary (low nibble + 10 * high nibble, no validation). */
static inline uint8_t m6526_bcd(uint8_t v)
{
    return (uint8_t)((v >> 4) * 10u + (v & 0x0Fu));
}

#ifdef __cplusplus
}
#endif
#endif
