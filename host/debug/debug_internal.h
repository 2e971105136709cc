/* host/debug/debug_internal.h - the debug engine's state, shared by its
 * files: debug_engine.c (breakpoint store, hook arming), debug_hooks.c (the
 * CPU hooks, conditions, goals), debug_record.c (stop records, lists,
 * traces). [emu-thread] only. */
#ifndef MH_HOST_DEBUG_INTERNAL_H
#define MH_HOST_DEBUG_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>

#include "debug_engine.h"
#include "debug_history.h"
#include "debug_profile.h"
#include "mcphost/expr.h"
#include "mcphost/machine.h"
#include "ptrvec.h"

typedef struct dbg_traces dbg_traces;

/* Bits of watch_map[address]. */
enum { WATCH_READ = 1, WATCH_WRITE = 2, WATCH_CHANGE = 4 };

typedef struct dbg_bp {
    uint32_t id;
    uint32_t kinds, flags;
    uint32_t start, end;
    int enabled;
    mh_expr *condition;
    uint32_t ignore_count;
    uint64_t hits;      /* times it matched with its condition true */
    uint64_t fired;     /* times it stopped or logged */
    int dead;           /* temporary and fired: delete at the end of the run */
    char *group, *label;
    mh_bp_check_fn check;
    void *check_user;
    void (*check_free)(void *check_user);
} dbg_bp;

/* The access that fired a watchpoint, or the last one a condition saw. */
typedef struct dbg_access {
    uint16_t address, pc;
    uint8_t value, old_value;
    int write;
} dbg_access;

typedef struct dbg_trace_entry {
    uint64_t seq, cycles;
    uint32_t bp_id;
    uint16_t pc;
    uint16_t line, line_cycle;
    int has_access;
    dbg_access access;
    char detail[96];
} dbg_trace_entry;

#define DBG_TRACE_SIZE 1024

struct mh_dbg {
    mh_session *session;
    char name[64];
    const mh_cpu6502_iface *cpu;
    void *cpu_ctx;
    mh_cpu6502 *cpu_state;  /* the CPU's state (lives as long as the machine) */
    uint64_t cycle_offset;  /* session cycles - cpu->cycles */
    const mh_memory_iface *mem;
    void *mem_ctx;
    size_t ram_space;       /* the space named "ram" (DBG_NO_SPACE: none, or no bank_at) */
    const mh_video_iface *video;
    void *video_ctx;

    char requested_by[96]; /* mh_dbg_set_requested_by(), for the next pause's record */

    mh_ptrvec bps; /* dbg_bp* */
    uint32_t next_id;
    uint8_t exec_map[65536];  /* number of enabled exec breakpoints (saturating) */
    uint8_t watch_map[65536]; /* WATCH_* of enabled watchpoints */
    uint8_t shadow[65536];    /* last known bytes of write/change watchpoints (old_value) */
    size_t armed_exec, armed_watch, armed_check, armed_change; /* change: write or change */
    size_t armed_read;        /* read watchpoints: the access hook is called for reads */
    int maps_dirty;           /* a breakpoint changed: rebuild the maps */
    int shadow_stale;         /* a run ended: refresh shadow before the CPU runs again */

    /* The run. */
    mh_run_request goal;
    int goal_active;
    uint64_t goal_left;     /* instructions or frames still to go */
    uint64_t goal_end;      /* MH_GOAL_CYCLES: the cycle count to reach */
    /* MH_GOAL_ADDRESS: an executed instruction covered the goal address
     * without starting there: 1 << 32 | goal << 16 | that instruction's
     * address; 0 when none. Written [emu-thread], read by any thread
     * (mh_dbg_goal_straddle). */
    _Atomic uint64_t goal_straddle;
    int step_over_waiting;  /* inside a JSR or interrupt being stepped over */
    int step_over_counts;   /* its return counts as a step (a JSR, or an
                             * instruction that ran before an interrupt) */
    uint16_t last_boundary; /* PC at the last instruction boundary seen */
    uint16_t step_over_pc;
    uint8_t step_over_s;
    uint8_t step_out_s;
    uint32_t last_line;     /* frames: the raster line at the last check */
    int hooks_sync, hooks_access; /* what is installed now */

    /* What stopped the CPU in the last slice. */
    mh_dbg_reason pending;
    dbg_bp *pending_bp;     /* the breakpoint that fired (may be dead) */
    uint32_t pending_bp_id;
    char pending_detail[256];
    int pending_has_access;
    dbg_access pending_access;
    dbg_access current;     /* the access a condition is evaluated for */
    int in_access;          /* 1 inside the access hook */

    uint64_t cycles;        /* the session's count at the last slice end */
    uint64_t stopwatch_mark;

    dbg_trace_entry trace[DBG_TRACE_SIZE];
    uint64_t trace_next;    /* sequence number of the next entry */
    uint64_t trace_posted;  /* entries already sent as events */

    /* Always-on history (debug_history.h): mh_insn_record before every
     * instruction, mh_write_record after every CPU write. While the write
     * log is on, shadow[] holds every address's last read-back byte (its
     * old value), not only the watched ones. */
    dbg_ring history;
    dbg_ring writes;
    dbg_pairset writers;    /* (pc, address) of every write since the log (re)started */

    /* Traces (debug_trace.h): NULL until first used; the hooks call in
     * while trace_sync (every instruction) or trace_writes (every write). */
    struct dbg_traces *traces;
    int trace_sync, trace_writes;
    /* The profiler and code/data log (debug_profile.h): NULL until first
     * started; its tables stay after it stops. Hooks only while on:
     * profiling is profile while it is on, else NULL, so the per-instruction
     * and per-write hooks test one pointer (mh_dbg_profile_control sets it). */
    dbg_profile *profile;
    dbg_profile *profiling;
};

#define DBG_NO_SPACE ((size_t)-1)
#define DBG_HISTORY_DEFAULT 65536u
#define DBG_WRITES_DEFAULT 65536u

/* debug_engine.c */
void dbg_arm_hooks(mh_dbg *dbg);
void dbg_bp_free(dbg_bp *bp);
/* debug_hooks.c */
int dbg_sync_hook(void *user, uint16_t pc);
int dbg_access_hook(void *user, uint16_t address, uint8_t value, int write);
int dbg_resolve_name(void *user, const char *name, size_t length, int32_t *id, int *indexed);
int64_t dbg_fetch_name(void *user, int32_t id, int64_t index);
uint8_t dbg_peek(mh_dbg *dbg, uint16_t address);
void dbg_record_insn(mh_dbg *dbg, uint16_t pc);
/* debug_profile_glue.c */
void dbg_profile_insn(mh_dbg *dbg, uint16_t pc);
/* debug_record.c */
void dbg_trace_add(mh_dbg *dbg, const dbg_bp *bp, const char *detail, int has_access);
void dbg_post_trace_events(mh_dbg *dbg);
const char *dbg_bp_kind_name(uint32_t kinds);

#endif
