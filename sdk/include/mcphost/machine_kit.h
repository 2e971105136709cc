/* mcphost/machine_kit.h - the machine kit: what every 6502-family machine
 * plugin repeats, once (static helper library mh_machine_kit, link target
 * mcphost::machine_kit; docs/machine-kit.md).
 *
 * Offers:
 *   - the run loop behind mh_machine_desc.run(): the CPU in chunks up to
 *     the cycle budget, a per-machine service call between chunks (at an
 *     instruction boundary), the jam (a jammed CPU stops executing but the
 *     machine's clock and chips keep running, so later runs use their whole
 *     budget and say MH_RUN_JAMMED), a debugger's stop (MH_RUN_BREAK), and
 *     the debug-cart exit (MH_RUN_EXIT exactly after the writing cycle);
 *   - the debug-cart exit itself: mh_kit_request_exit() from the machine's
 *     bus halts the CPU at its next read cycle (a kit bus that ticks
 *     nothing on reads, RDY low), the run loop takes the stalled cycles back
 *     off the clock and gives the CPU its real bus again;
 *   - the machine_create skeleton: make the instance from the options,
 *     register its chips, and on any failure destroy it, leaving nothing;
 *   - the mh.memory/1 skeleton: a const table of spaces (plain byte arrays
 *     inside the instance, or per-byte functions), range and writable
 *     checks, peek/poke dispatch, bank_at, and peek_runs (RAM and ROM runs
 *     read in place where the map's optional span() says where they are);
 *   - a log helper that takes a NULL host (machines made by unit tests).
 * KERNAL glue (LOAD trap, keyboard buffer, autostart) is in mcphost/kernal.h.
 *
 * The kit's callbacks run per chunk or per instruction boundary, never per
 * cycle: the per-cycle path stays the machine's own bus callbacks.
 *
 * Ownership: the machine owns every struct here (embedded in its instance;
 * nothing is allocated). Tables (mh_kit_run_ops, mh_kit_memory_map,
 * mh_kit_machine_ops) are usually static const and must outlive the
 * instance. mh_kit_state holds no pointers, so a snapshot may copy it.
 * Threads: everything is [emu-thread] (the session's thread); two
 * instances share nothing.
 */
#ifndef MCPHOST_MACHINE_KIT_H
#define MCPHOST_MACHINE_KIT_H

#include <stddef.h>
#include <stdint.h>

#include "mcphost/cpu6502.h"
#include "mcphost/log.h"
#include "mcphost/machine.h"
#include "mcphost/plugin.h"
#include "mcphost/session.h"
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most cycles one core call runs by default. A debug-cart exit wastes
 * at most this many (cheap, taken back) halted cycles before the loop
 * notices it. */
#define MH_KIT_DEFAULT_CHUNK 16384u

/* ---- the run loop ---- */

/* The run state a snapshot keeps: plain values only. */
typedef struct mh_kit_state {
    uint64_t cycles;    /* machine cycles run since mh_kit_state_reset() */
    uint64_t exit_end;  /* with exit_from_cpu: cpu.cycles after the last real cycle */
    int32_t exit_code;  /* with exit_pending */
    uint8_t exit_pending;  /* a debug-cart write ended the run */
    uint8_t exit_from_cpu; /* the CPU wrote it: the CPU is halted on the kit's bus */
    uint8_t reserved[2];
} mh_kit_state;

/* Run flags. */
#define MH_KIT_RUN_BOUNDARY 0x1u /* end every chunk (and the run) at an
                                  * instruction boundary, as service()
                                  * needs; the run may overshoot its budget
                                  * by one instruction (plus RDY stalls) */

/* What the machine adds to the loop. Every function is optional (NULL). */
typedef struct mh_kit_run_ops {
    uint32_t struct_size;
    uint32_t flags; /* MH_KIT_RUN_* */
    /* The most cycles the next chunk may run (<= chunk), e.g. to end it
     * when a pulse ends. */
    uint32_t (*chunk_limit)(void *machine, uint32_t chunk);
    /* After each chunk that did not end the run (exit, the CPU jamming,
     * a debugger's stop); with MH_KIT_RUN_BOUNDARY at an instruction
     * boundary unless the CPU is jammed (its clock and chips go on). ran =
     * the chunk's cycles before the boundary step. */
    void (*service)(void *machine, uint32_t ran);
    /* Once at the end of every run (e.g. bring the sound chip up to date,
     * flush output). */
    void (*run_end)(void *machine);
    /* The RDY level to give the CPU back after a debug-cart halt (a chip
     * may be holding it low); NULL: 1. */
    uint8_t (*rdy_level)(void *machine);
} mh_kit_run_ops;

/* The runner: pointers into the machine, set once by mh_kit_init(). */
typedef struct mh_machine_kit {
    mh_cpu6502 *cpu;
    mh_kit_state *state;
    const mh_kit_run_ops *ops;
    void *machine;          /* passed to every ops function */
    uint32_t chunk;         /* most cycles per core call */
    /* The machine's real bus, given back after a debug-cart halt. */
    mh_cpu6502_read_fn bus_read;
    mh_cpu6502_write_fn bus_write;
    void *bus_user;
    mh_cpu6502_sync_fn halted_sync; /* the sync hook put aside while halted */
    /* Runs the CPU for a chunk exactly as mh_cpu6502_run(cpu, cycles)
     * would, e.g. the machine's own instance of the cycle engine with its
     * bus inlined (sdk/src/cpu6502/cpu6502_engine.h); NULL (the default):
     * mh_cpu6502_run. Set with mh_kit_set_run_cpu(). */
    uint32_t (*run_cpu)(void *machine, uint32_t cycles);
} mh_machine_kit;

/* Sets up the runner. bus_read/bus_write/bus_user are the machine's
 * per-cycle bus (what the CPU was initialised with); chunk 0 means
 * MH_KIT_DEFAULT_CHUNK. */
void mh_kit_init(mh_machine_kit *kit, mh_cpu6502 *cpu, mh_kit_state *state,
                 const mh_kit_run_ops *ops, void *machine, mh_cpu6502_read_fn bus_read,
                 mh_cpu6502_write_fn bus_write, void *bus_user, uint32_t chunk);

/* The machine's own CPU runner (see mh_machine_kit.run_cpu); NULL:
 * mh_cpu6502_run. */
void mh_kit_set_run_cpu(mh_machine_kit *kit, uint32_t (*run_cpu)(void *machine, uint32_t cycles));

/* Power-on: the clock back to 0, no exit pending. */
void mh_kit_state_reset(mh_kit_state *state);

/* Runs up to max_cycles (with MH_KIT_RUN_BOUNDARY it may overshoot by one
 * instruction) and fills result (cycles, stop, exit_code); adds the cycles
 * to state->cycles. A run that starts with an exit pending (a debugger
 * wrote the register) returns MH_RUN_EXIT at once. */
mh_status mh_kit_run(mh_machine_kit *kit, uint64_t max_cycles, mh_run_result *result);

/* Called by the machine's bus on a debug-cart write. from_cpu 1 (a CPU
 * write cycle, inside the bus callback): the CPU halts at its next read
 * cycle and the run ends exactly after this cycle; a CPU write still in
 * flight (the second write of a read-modify-write) runs as a real cycle
 * through the machine's bus_write. from_cpu 0 (a debugger's poke): the
 * next run returns MH_RUN_EXIT at once. A second request while one is
 * pending only moves the end past a CPU write. */
void mh_kit_request_exit(mh_machine_kit *kit, uint8_t code, int from_cpu);

/* Ends a debug-cart halt now (between runs, e.g. before a reset): gives
 * back the real bus and the sync hook, takes the halted cycles off the
 * CPU's clock. Returns how many; 0 when not halted. */
uint32_t mh_kit_undo_exit_stall(mh_machine_kit *kit);

/* Whether the kit's halted bus is in place (the exit's halt). */
int mh_kit_halted(const mh_machine_kit *kit);

/* ---- the machine_create skeleton ---- */

typedef struct mh_kit_machine_ops {
    uint32_t struct_size;
    /* Makes an instance from the options (parse, check, allocate, load)
     * into *instance. On failure returns the error with a message in error,
     * having freed what it made. host is the one the plugin got. */
    mh_status (*make)(const mh_host *host, const char *options_json, void **instance, char *error,
                      size_t error_size);
    /* Fills up to max chips of the instance; returns how many. */
    size_t (*chips)(void *instance, mh_chip *chips, size_t max);
    void (*destroy)(void *instance);
    /* Optional: after the chips are registered (e.g. log what was made). */
    void (*created)(void *instance);
} mh_kit_machine_ops;

/* The most chips mh_kit_machine_create() registers for one instance. */
#define MH_KIT_MAX_CHIPS 32u

/* mh_machine_desc.create() on the kit: looks up mh.session/1, makes the
 * instance, registers its chips; on any failure destroys the instance and
 * returns the error with a message (nothing is left behind). */
mh_status mh_kit_machine_create(const mh_kit_machine_ops *ops, const mh_host *host,
                                mh_session *session, const char *options_json, void **instance,
                                char *error, size_t error_size);

/* Registers chips in order; the message names the chip that failed. */
mh_status mh_kit_register_chips(const mh_session_service *sessions, mh_session *session,
                                const mh_chip *chips, size_t count, char *error,
                                size_t error_size);

/* ---- the mh.memory/1 skeleton ---- */

/* One memory space. Either plain bytes inside the instance (peek == NULL:
 * the space's byte at address a is at (uint8_t *)instance + offset + a,
 * masked with mask on read and write, e.g. 0x0F for colour nybbles), or
 * per-byte functions (peek without side effects, poke like a CPU write)
 * taking the address inside the space. */
typedef struct mh_kit_space {
    mh_memory_space info;   /* name, description, size, base, writable */
    size_t offset;
    uint8_t mask;           /* plain bytes: 0 means 0xFF */
    uint8_t (*peek)(const void *instance, uint32_t address);
    void (*poke)(void *instance, uint32_t address, uint8_t value);
} mh_kit_space;

typedef struct mh_kit_memory_map {
    const mh_kit_space *spaces;
    size_t count;
    /* The space a CPU read of address reaches now. */
    size_t (*bank_at)(const void *instance, uint16_t address);
    /* Optional: after every poke (e.g. flush output a port wrote). */
    void (*after_poke)(void *instance);
    /* Optional, for spaces read with a per-byte peek (the "cpu" space):
     * where the bytes from address on can be read in place (a banked RAM
     * or ROM run). Returns a pointer to the byte at address and sets
     * *length (1 or more) to how many bytes from there read exactly as
     * peek gives them; or returns NULL and sets *length (1 or more) to how
     * many bytes from address on must go through peek one by one (I/O,
     * open bus, a CPU port, or a space it does not cover). *length may run
     * past the space's end (the kit clips it). No side effects. With it
     * the kit's peek and peek_runs copy whole runs instead of calling
     * peek once per byte. */
    const uint8_t *(*span)(const void *instance, size_t space, uint32_t address,
                           uint32_t *length);
} mh_kit_memory_map;

/* The context of a kit memory chip: the map and the instance. Embed it in
 * the instance and register {MH_IFACE_MEMORY, ..., &mh_kit_memory_iface,
 * &that} (mh_kit_memory_chip() fills the mh_chip). */
typedef struct mh_kit_memory {
    const mh_kit_memory_map *map;
    void *instance;
} mh_kit_memory;

extern const mh_memory_iface mh_kit_memory_iface;

/* Sets up memory and returns the mh.memory/1 chip (instance "memory"). */
mh_chip mh_kit_memory_chip(mh_kit_memory *memory, const mh_kit_memory_map *map, void *instance,
                           const char *description);

/* ---- log ---- */

/* printf-style line through the host's mh.log/1; nothing when host is
 * NULL or has no log service. */
void mh_kit_log(const mh_host *host, mh_log_level level, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif
