/* host/debug/debug_travel_internal.h - what time travel (debug_travel.c)
 * offers reverse-continue (debug_reverse.c): the travel target, read access
 * to the snapshot ring, loading a ring entry or a saved state into the
 * machine without changing the ring, and the search itself.
 *
 * Ring entries are numbered 0 (oldest) to travel_ring_count() - 1 (newest).
 * Loading never drops entries: only mh_travel_go() landing somewhere cuts
 * the future. Everything is [emu-thread], with the machine stopped.
 */
#ifndef MH_HOST_DEBUG_TRAVEL_INTERNAL_H
#define MH_HOST_DEBUG_TRAVEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "debug_internal.h"
#include "debug_travel.h"
#include "mcphost/machine.h"

/* Where a travel goes: an instruction (its number in the history ring:
 * exact on every machine, also where session cycles are not CPU cycles, as
 * the Plus/4's TED ticks) or a cycle (rewind by cycles or frames). */
typedef struct travel_target {
    int by_insn;
    uint64_t seq;   /* by_insn: the instruction to stop before */
    uint64_t cycle; /* else the cycle; by_insn: its start (for the write log) */
    /* Reverse-continue: the ring entry to re-execute from (index + 1; 0:
     * the newest one before the target), and with access_stop the CPU
     * access (1: the first after that entry's restore) whose instruction
     * ends the travel, as a watchpoint stops: at the next instruction
     * boundary, before an interrupt taken there. */
    size_t entry;
    uint64_t access_stop;
    dbg_access access; /* with access_stop: the access, for the stop record */
} travel_target;

size_t travel_ring_count(const mh_travel *travel);
uint64_t travel_ring_cycle(const mh_travel *travel, size_t i);
/* The instruction number the history ring had reached at entry i; *valid
 * 0 when the history was off or resized since (the number then counts
 * only from the entry). */
uint64_t travel_ring_insn_seq(const mh_travel *travel, size_t i, int *valid);
/* Loads entry i into the machine and sets the session's cycle count to
 * its cycle. On failure error says why (the machine may be changed). */
mh_status travel_ring_load(mh_travel *travel, size_t i, char *error, size_t error_size);
/* The machine's state as it stands, with its pending input holds (to put
 * it back after a search); blob is malloc'ed, the caller frees it. */
typedef struct travel_state {
    void *blob;
    size_t size;
    uint8_t holds[MH_INPUT_HOLD_STATE_MAX];
    size_t holds_size;
} travel_state;
mh_status travel_state_save(mh_travel *travel, travel_state *state);
mh_status travel_state_load(mh_travel *travel, const travel_state *state, uint64_t cycles,
                            char *error, size_t error_size);

/* debug_reverse.c: the last place before `now` (the session's cycles)
 * where the forward engine would have stopped for a breakpoint or
 * watchpoint, as a target (entry and access_stop set); *bp_id says which.
 * The machine is back as it was when it returns, found or not. */
mh_status mh_reverse_find(mh_session *session, uint64_t now, travel_target *target,
                          uint32_t *bp_id, char *error, size_t error_size);
/* After landing on target's hit of bp_id: the stop's reason (breakpoint
 * or watchpoint), with the engine's pending stop set as a forward stop
 * sets it (the breakpoint, the access); a temporary breakpoint has had its
 * stop (the run's end deletes it). */
mh_dbg_reason mh_reverse_landed(mh_session *session, const travel_target *target,
                                uint32_t bp_id);

#endif
