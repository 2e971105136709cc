/* mcphost/cpu6502.h - the cycle-exact 6502-family CPU core of the SDK
 * (static library mh_cpu6502, link target mcphost::cpu6502).
 *
 * Offers: one core for the NMOS 6502 (VIC-20), the 6510 (C64, I/O port
 * pins P0-P5) and the 7501/8501 (Plus/4, C16; I/O port pins P0-P4, P6, P7),
 * in the style of floooh/chips: a mh_cpu6502_desc where zero means default,
 * mh_cpu6502_init(), mh_cpu6502_reset(), and a plain state struct a
 * debugger reads and writes and a snapshot copies.
 *
 * Implemented (passes all 51,200 of Tom Harte's 6502 v1 single-step vectors
 * in ../shared/testdata, registers, memory and the cycle-by-cycle bus trace,
 * with the two later upstream corrections applied, see docs/cpu6502.md):
 *   - all 256 NMOS opcodes, the undocumented ones included, with every
 *     dummy read and dummy write (one bus access per cycle);
 *   - NMOS decimal mode (N, V, Z from the binary result as on the NMOS
 *     chip) for ADC, SBC, RRA, ISC and ARR;
 *   - SHA/SHX/SHY/TAS: value = reg & (H+1); on a page cross the high byte
 *     of the address becomes that value;
 *   - ANE: A = (A | $EE) & X & imm and LXA: A = X = (A | $EE) & imm (the
 *     "magic constant" $EE that Harte's vectors use);
 *   - JAM (the 12 KIL opcodes): two more reads of the byte after the
 *     opcode, then the CPU is jammed (jammed = 1, pc = the JAM opcode's
 *     address) and every further cycle is a read of $FFFF, ignoring IRQ
 *     and NMI, until mh_cpu6502_reset();
 *   - IRQ (level) and NMI (edge) sampled at the end of every cycle and
 *     acted on when sampled at the end of an instruction's second-to-last
 *     cycle: taken branches without a page cross delay an interrupt by one
 *     instruction; CLI, SEI and PLP act one instruction late, RTI at once;
 *     an NMI that arrives by the fourth cycle of BRK or of an IRQ sequence
 *     hijacks its vector; the first instruction of a handler always runs;
 *   - RDY: while rdy is 0, read cycles are repeated (the bus sees the same
 *     read again, the CPU discards it) and write cycles go on, as the VIC-II
 *     bad lines and sprite DMA need. The read callback of a stalled cycle
 *     runs with rdy == 0, so a machine whose chip owns the bus then (VIC-II
 *     with AEC low) can skip the access's side effects. Interrupt sampling
 *     pauses during a stall; NMI edges are still latched;
 *   - the 6510/7501 on-chip port: $00 = data direction, $01 = data; a read
 *     returns output bits from the latch and input bits from port.input (or
 *     the port_input callback). Accesses to $00/$01 still go out on the
 *     bus (the machine sees them; the value a bus read returns is replaced
 *     by the port's).
 * The 6510's bits 6-7 have no pins: switched from output to input they read
 * back the level they drove until it fades (port.fade_cycles), then 0; a
 * write to $01 while they are inputs does not change them. 65C02 and later instruction sets.
 * SHA/SHX/SHY/TAS store reg & (H + 1) (H = the base address's high byte);
 * when RDY stalls the read just before the write, the "& (H + 1)" drops
 * out (the value is A & X, X or Y), and a page cross puts the stored value
 * into the address's high byte. ANE's constant is $EE on the 6502 and 7501,
 * $EF on the 6510 ($EE when RDY stalled its operand read).
 *
 * Per-cycle use (a machine that runs its chips once per CPU cycle):
 *   each mh_cpu6502_tick() runs exactly one cycle and makes exactly one bus
 *   access through desc.read / desc.write. The machine either runs its chips
 *   inside those callbacks, or after the tick using bus_addr / bus_data /
 *   bus_write of the state, which describe the cycle just run. It sets
 *   irq / nmi / rdy whenever its chips change them; the CPU samples them at
 *   the end of each cycle (after the bus callback returns), so a line changed
 *   inside the callback counts for the current cycle, one changed after the
 *   tick for the next. mh_cpu6502_run(cpu, n) is n ticks in one call.
 * Fast path: with desc.memory (a flat 64 KiB block) and no read/write
 * callbacks, mh_cpu6502_run() runs a specialised loop with the memory
 * inlined. It makes the same accesses in the same order and leaves the same
 * state as per-cycle ticks (the unit tests check this).
 * Debug hooks: a sync hook (called before each opcode fetch with its PC; a
 * nonzero return stops the CPU before the instruction, without using the
 * cycle) and an access hook (called after each completed bus access, or
 * for reads only those mh_cpu6502_set_access_reads() asks for; a nonzero
 * return stops the CPU at the next instruction boundary).
 * While both
 * are NULL, run/tick use loop variants without any hook code, so unused
 * hooks cost nothing.
 *
 * Ownership: the caller owns mh_cpu6502 (no allocation inside). The memory
 * block, callbacks and their user pointers are borrowed and must outlive
 * their use. The struct holds no pointers except those in `links`, which
 * mh_cpu6502_restore() keeps, so a snapshot is a plain copy.
 * Threading: [emu-thread] for every function; two CPUs share nothing, so
 * different CPUs may run on different threads.
 */
#ifndef MCPHOST_CPU6502_H
#define MCPHOST_CPU6502_H

#include <stdint.h>
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever the meaning of the state struct changes. */
#define MH_CPU6502_STATE_VERSION 1

typedef enum mh_cpu6502_model {
    MH_CPU6502_MODEL_6502 = 0, /* NMOS 6502 (VIC-20): no I/O port */
    MH_CPU6502_MODEL_6510 = 1, /* 6510 (C64): port pins P0-P5 */
    MH_CPU6502_MODEL_7501 = 2  /* 7501/8501 (Plus/4, C16): P0-P4, P6, P7 */
} mh_cpu6502_model;

/* Status register bits. */
#define MH_CPU6502_FLAG_C 0x01u
#define MH_CPU6502_FLAG_Z 0x02u
#define MH_CPU6502_FLAG_I 0x04u
#define MH_CPU6502_FLAG_D 0x08u
#define MH_CPU6502_FLAG_B 0x10u /* only in pushed copies of P */
#define MH_CPU6502_FLAG_U 0x20u /* always 1 */
#define MH_CPU6502_FLAG_V 0x40u
#define MH_CPU6502_FLAG_N 0x80u

/* Vectors. */
#define MH_CPU6502_VECTOR_NMI 0xFFFAu
#define MH_CPU6502_VECTOR_RESET 0xFFFCu
#define MH_CPU6502_VECTOR_IRQ 0xFFFEu

/* state == MH_CPU6502_STATE_FETCH: at an instruction boundary (the next
 * cycle fetches an opcode or starts an interrupt). Other values are the
 * core's internal micro-states. */
#define MH_CPU6502_STATE_FETCH 0u

/* Why the last run/tick/step returned before using all its cycles. */
typedef enum mh_cpu6502_stop {
    MH_CPU6502_STOP_NONE = 0,   /* ran all cycles asked for (or step ended) */
    MH_CPU6502_STOP_SYNC = 1,   /* the sync hook asked to stop before pc */
    MH_CPU6502_STOP_ACCESS = 2, /* the access hook asked; at a boundary */
    MH_CPU6502_STOP_JAM = 3     /* the CPU has just jammed */
} mh_cpu6502_stop;

/* Bus read for the cycle: returns the data at addr. Runs once per read
 * cycle, also for dummy reads and RDY-stalled repeats. [emu-thread] */
typedef uint8_t (*mh_cpu6502_read_fn)(void *user, uint16_t addr);
/* Bus write for the cycle, also for dummy writes. [emu-thread] */
typedef void (*mh_cpu6502_write_fn)(void *user, uint16_t addr, uint8_t value);
/* Levels of the I/O port's pins (bit n = pin Pn) for bits configured as
 * inputs. Called at each read of $01. [emu-thread] */
typedef uint8_t (*mh_cpu6502_port_input_fn)(void *user);
/* Called before each opcode fetch with the opcode's address; return
 * nonzero to stop before the instruction (the next run/tick resumes it
 * without calling the hook again for it). [emu-thread] */
typedef int (*mh_cpu6502_sync_fn)(void *user, uint16_t pc);
/* Called after each completed bus access (not for RDY-stalled repeats);
 * write is 1 for writes. Return nonzero to stop at the end of the current
 * instruction. [emu-thread] */
typedef int (*mh_cpu6502_access_fn)(void *user, uint16_t addr, uint8_t value, int write);

typedef struct mh_cpu6502_desc {
    mh_cpu6502_model model;          /* 0: NMOS 6502 */
    mh_cpu6502_read_fn read;         /* per-cycle bus; NULL: use memory */
    mh_cpu6502_write_fn write;       /* both or neither */
    void *user;                      /* for read, write and port_input */
    uint8_t *memory;                 /* flat 64 KiB when read/write are NULL */
    mh_cpu6502_port_input_fn port_input; /* optional; else port.input */
} mh_cpu6502_desc;

/* The on-chip I/O port of the 6510 and 7501/8501 (all zero on a 6502). */
typedef struct mh_cpu6502_port {
    uint8_t ddr;   /* $00: 1 = output */
    uint8_t data;  /* $01: output latch */
    uint8_t input; /* levels of the pins as inputs (default: pulled up) */
    uint8_t pins;  /* which pins exist: $3F 6510, $DF 7501, 0 6502 */
    /* Port bits without a pin (the 6510's 6 and 7) hold, when switched
     * from output to input, the level they drove, like a capacitor, until
     * it fades: `charge` = those levels, read back until cycle
     * `charge_until`; fade_cycles = the model's fade time (0: not
     * modelled, such bits read as `input` says). */
    uint8_t charge;
    uint8_t reserved[3];
    uint32_t fade_cycles;
    uint64_t charge_until;
} mh_cpu6502_port;

/* Everything in the state that is a pointer. Not part of a snapshot. */
typedef struct mh_cpu6502_links {
    mh_cpu6502_read_fn read;
    mh_cpu6502_write_fn write;
    void *user;
    uint8_t *memory;
    mh_cpu6502_port_input_fn port_input;
    mh_cpu6502_sync_fn sync;
    mh_cpu6502_access_fn access;
    void *hook_user;
    /* Which reads call the access hook (writes always do): set with
     * mh_cpu6502_set_access_reads(); mh_cpu6502_set_hooks() leaves them.
     * access_skip_reads 1: none; else access_read_map NULL: every read,
     * or only reads of addresses whose byte in the map (64 KiB, borrowed)
     * is nonzero. A debugger that watches no reads, or a few addresses,
     * spares a call per read cycle. */
    uint8_t access_skip_reads;
    const uint8_t *access_read_map;
} mh_cpu6502_links;

typedef struct mh_cpu6502 {
    /* Registers: read and write them at an instruction boundary. */
    uint16_t pc;
    uint8_t a, x, y, s, p; /* p: bit 5 always set, B never set */
    uint8_t model;         /* mh_cpu6502_model */

    /* Current instruction. */
    uint8_t ir;    /* opcode being executed ($00 during IRQ/NMI/reset) */
    uint8_t state; /* micro-state; MH_CPU6502_STATE_FETCH at a boundary */
    uint8_t t;     /* cycles of the current instruction run so far (at a
                    * boundary: the length of the last one) */
    uint8_t jammed; /* 1 after a JAM opcode, until reset */
    uint16_t ipc;  /* address of the current instruction's opcode */
    uint16_t ad;   /* address latch */
    uint8_t dl;    /* data latch */
    uint8_t tmp;   /* page-cross carry / interrupt kind */
    uint8_t stalled; /* 1 if the last cycle was a RDY-stalled read */
    uint8_t stop_reason; /* mh_cpu6502_stop of the last run/tick/step */

    uint64_t cycles; /* cycles run since init (stalls and jams included) */

    /* Input lines. irq and nmi are masks of sources, nonzero = asserted
     * (line low): a machine ORs one bit per chip. rdy: 1 = ready, 0 = RDY
     * pulled low (read cycles stall). */
    uint32_t irq;
    uint32_t nmi;
    uint8_t rdy;

    /* Interrupt sampling. */
    uint8_t nmi_seen;    /* nmi was asserted at the end of the last cycle */
    uint8_t nmi_pending; /* NMI edge detected, not yet serviced */
    uint8_t poll_prev;   /* interrupt due, sampled one cycle earlier */
    uint8_t poll_cur;    /* interrupt due, sampled at the last cycle */

    /* The bus access of the last cycle run. */
    uint8_t bus_write; /* 1 = write */
    uint8_t bus_data;
    uint16_t bus_addr;

    /* Debugger bookkeeping. */
    uint8_t sync_skip;    /* 1: do not call the sync hook for the next fetch */
    uint8_t stop_request; /* 1: stop at the next boundary (access hook) */

    mh_cpu6502_port port;

    mh_cpu6502_links links;
} mh_cpu6502;

/* Sets up a CPU in power-on state and starts the reset sequence: the first
 * seven cycles read the reset vector. MH_ERR_INVALID_ARGUMENT when cpu or
 * desc is NULL, the model is unknown, only one of read/write is given, or
 * neither a bus nor memory is given. */
mh_status mh_cpu6502_init(mh_cpu6502 *cpu, const mh_cpu6502_desc *desc);

/* Starts the 7-cycle reset sequence at the next cycle (also un-jams the
 * CPU, sets I, clears the port's DDR and data). Registers other than S, P
 * and PC keep their values, as on the chip. */
void mh_cpu6502_reset(mh_cpu6502 *cpu);

/* Runs one cycle. Returns 1, or 0 when a hook stopped the CPU first. */
uint32_t mh_cpu6502_tick(mh_cpu6502 *cpu);

/* Runs up to `cycles` cycles; returns how many ran. Returns early with
 * stop_reason set when a hook stops the CPU or it jams. May end in the
 * middle of an instruction (state != MH_CPU6502_STATE_FETCH). */
uint32_t mh_cpu6502_run(mh_cpu6502 *cpu, uint32_t cycles);

/* Runs until the next instruction boundary (at least one cycle unless a
 * hook stops the CPU first), a stop, or 1 cycle when jammed. Returns the
 * cycles run. */
uint32_t mh_cpu6502_step(mh_cpu6502 *cpu);

/* Replace the links (after a restore, or to switch bus or hooks). */
void mh_cpu6502_set_bus(mh_cpu6502 *cpu, mh_cpu6502_read_fn read, mh_cpu6502_write_fn write,
                        void *user);
void mh_cpu6502_set_memory(mh_cpu6502 *cpu, uint8_t *memory);
void mh_cpu6502_set_hooks(mh_cpu6502 *cpu, mh_cpu6502_sync_fn sync,
                          mh_cpu6502_access_fn access, void *hook_user);

/* Which reads call the access hook: on 0: none (writes only); on 1 with
 * map NULL: every read (the default after init); on 1 with a map: reads
 * of addresses whose map byte is nonzero (the map, 65536 bytes, is
 * borrowed until the next call and may change between runs). [emu-thread],
 * between runs. */
static inline void mh_cpu6502_set_access_reads(mh_cpu6502 *cpu, int on, const uint8_t *map)
{
    cpu->links.access_skip_reads = (uint8_t)!on;
    cpu->links.access_read_map = on ? map : 0;
}

/* Copies a saved state into cpu, keeping cpu's links. */
void mh_cpu6502_restore(mh_cpu6502 *cpu, const mh_cpu6502 *saved);

/* 1 when saved's micro-state is one the core can be in (a snapshot
 * loader's check before mh_cpu6502_restore()): a known state, jammed
 * exactly in the jammed state. A hostile blob could otherwise leave the
 * CPU in the jam state with the flag clear, never reaching an instruction
 * boundary. */
int mh_cpu6502_state_valid(const mh_cpu6502 *saved);

/* Levels the port drives on its pins: output bits from the latch, input
 * bits from port.input (pull-ups). 0 on a 6502. */
uint8_t mh_cpu6502_port_pins(const mh_cpu6502 *cpu);

/* What a read of $00/$01 returns (no side effects, also for debuggers). */
uint8_t mh_cpu6502_port_read(const mh_cpu6502 *cpu, uint16_t addr);

/* Writes $00 (addr 0) or $01 as a CPU write would (charging the pinless
 * bits that turn to input); for a debugger's poke. */
void mh_cpu6502_port_write(mh_cpu6502 *cpu, uint16_t addr, uint8_t value);

/* 1 at an instruction boundary. */
static inline int mh_cpu6502_at_boundary(const mh_cpu6502 *cpu)
{
    return cpu->state == MH_CPU6502_STATE_FETCH;
}

/* Assert (level != 0) or release one interrupt source bit. */
static inline void mh_cpu6502_set_irq(mh_cpu6502 *cpu, uint32_t source, int level)
{
    if (level) cpu->irq |= source;
    else cpu->irq &= ~source;
}

static inline void mh_cpu6502_set_nmi(mh_cpu6502 *cpu, uint32_t source, int level)
{
    if (level) cpu->nmi |= source;
    else cpu->nmi &= ~source;
}

#ifdef __cplusplus
}
#endif
#endif
