/* host/debug/debug_profile.h - the debug engine's profiler and code/data
 * log (mcphost/debug.h mh_profile_view): per-address instruction and cycle
 * counts, per-function calls and exclusive/inclusive cycles from a shadow
 * call stack, the control transfers seen, and what the CPU did with each
 * byte. The engine feeds it one dbg_profile_at per instruction boundary
 * (from its sync hook) and every CPU write (from its access hook) while it
 * is on; the accounting itself knows nothing of the CPU or the bus, so the
 * unit tests drive it with made-up steps.
 * Data reads are worked out from each instruction (its addressing mode,
 * X, Y and pointers) rather than taken from the bus, which also carries
 * the 6502's dummy reads (the un-carried address of an indexed store, the
 * base of a zero page index): those are no data the program reads.
 * Ownership: dbg_profile_new() allocates everything; dbg_profile_free().
 * [emu-thread] only. */
#ifndef MH_HOST_DEBUG_PROFILE_H
#define MH_HOST_DEBUG_PROFILE_H

#include <stdint.h>

#include "debug_history.h"
#include "mcphost/debug.h"

#define DBG_PROFILE_DEPTH 256 /* shadow call stack frames kept */

/* One instruction boundary: the instruction about to start at pc, and
 * what the CPU says of the one that just ended. */
typedef struct dbg_profile_at {
    uint64_t cycle;      /* session cycles now */
    uint16_t pc;
    uint8_t bytes[3];    /* opcode and operands at pc */
    uint8_t s, x, y;     /* registers now */
    /* Reads memory without side effects (the pointers of indirect modes). */
    uint8_t (*peek)(void *peek_user, uint16_t address);
    void *peek_user;
    /* An interrupt sequence ran just before pc (the CPU's ir is $00):
     * MH_ENTRY_IRQ, _NMI or _BRK (the pushed B flag tells BRK from a
     * hardware interrupt); 0 otherwise. */
    uint32_t interrupt;
    uint8_t interrupt_cycles; /* its length (the CPU's t) for IRQ/NMI */
    uint16_t resume;          /* IRQ/NMI: the address it pushed (where the
                               * instruction before went) */
    int reset;                /* a reset sequence ran: the call stack is gone */
} dbg_profile_at;

typedef struct dbg_frame {
    uint16_t entry;
    uint8_t caller_s;   /* S before the call: popped once S is back there or above */
    uint64_t start;     /* cycle the call started (its JSR done, or the interrupt begun) */
} dbg_frame;

typedef struct dbg_profile {
    mh_profile_view view;  /* points into the tables below */
    int on;
    uint32_t insn_count[65536];
    uint64_t cycle_count[65536];
    mh_profile_function functions[65536];
    uint8_t usage[65536];
    uint32_t reads[65536], writes[65536];
    dbg_pairset edges, callers, returns;
    dbg_frame stack[DBG_PROFILE_DEPTH];
    size_t depth;
    /* The previous boundary's instruction. */
    int have_last;
    uint16_t last_pc;
    uint8_t last_bytes[3];
    uint8_t last_s;
    uint64_t last_cycle;
    uint64_t root_cycles;  /* cycles outside any known function */
} dbg_profile;

/* NULL when out of memory. Starts off and empty. */
dbg_profile *dbg_profile_new(void);
void dbg_profile_free(dbg_profile *p);
/* Empties every table and the call stack. */
void dbg_profile_reset(dbg_profile *p);
/* Forgets the previous boundary (a run ended: the cycles until the next
 * one are not the last instruction's). */
void dbg_profile_pause(dbg_profile *p);
/* The view with on and the totals up to date. */
const mh_profile_view *dbg_profile_view(dbg_profile *p);

/* Accounts the instruction that ended at `at` and starts the one at pc. */
void dbg_profile_step(dbg_profile *p, const dbg_profile_at *at);

/* One CPU write (a read-modify-write instruction's dummy write too: it
 * is a real bus write). */
static inline void dbg_profile_write(dbg_profile *p, uint16_t address)
{
    p->usage[address] |= MH_USAGE_WRITE;
    p->writes[address]++;
}

/* The 6502's control-transfer opcodes (branches, JMP, JSR, RTS, RTI, BRK). */
int dbg_profile_is_flow(uint8_t opcode);

#endif
