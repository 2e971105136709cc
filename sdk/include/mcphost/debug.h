/* mcphost/debug.h - the host's debug engine, "mh.debug/1": execution
 * control, breakpoints and stop records of a machine session.
 *
 * Every session whose machine registers an "mh.cpu6502/1" CPU has one
 * engine, owned by the host and kept across snapshot loads and resets. It
 * holds:
 *   - the execution state: paused (created, or execution_pause), running,
 *     stopped (a breakpoint, a step or a run_until goal ended the run),
 *     jammed (the CPU executed a JAM opcode), exited (a runner's run ended);
 *   - the goal of the current run (continue, N instructions, step over a
 *     JSR, step out of a subroutine, N cycles, an address, N frames);
 *   - the breakpoints: exec, read, write and change watchpoints over CPU
 *     address ranges with an optional condition (mcphost/expr.h), ignore
 *     count, temporary and log-only flags and a group; and "check"
 *     breakpoints whose test is a plugin's callback run at every
 *     instruction boundary (raster lines, sprite collisions ...);
 *   - the last stop record: a JSON object with the reason, the breakpoint,
 *     PC, registers, flags, raster line and cycle, the memory access that
 *     triggered it, disassembly around PC, and the cycle and frame counters.
 *   - the history: the last instructions executed and the last CPU writes,
 *     in rings that are on by default (history_*; docs/tools-debug.md);
 *   - the profiler and code/data log, off until asked (profile_*).
 * With no breakpoint armed, no goal that needs them, both history rings
 * off and the profiler stopped, the CPU's debug hooks are removed, so an
 * idle engine costs nothing.
 *
 * Events (mcphost/events.h) go out for every stop ("stopped", and
 * "breakpoint" for a breakpoint), resume, jam and tracepoint hit ("log").
 *
 * Condition names (case-insensitive): a x y s p pc, flags c z i d v n
 * (0/1), value (the byte read or written), address (of the access),
 * cycles, frame, raster (line) and raster_cycle (when the machine has
 * "mh.video/1"), mem[addr] (CPU view, side-effect free) and opcode (the
 * byte at PC).
 *
 * Ownership: text written into caller buffers is NUL-terminated and
 * truncated to the buffer; the *_json functions return the length the
 * whole text needs (like snprintf), so a caller can retry with more room.
 * A check breakpoint's check_user belongs to the engine from a successful
 * add() on: it calls check_free(check_user) when the breakpoint goes.
 * Threads: as tagged per function. [emu-thread] functions must run in a
 * tool handler on the session's thread (MH_TOOL_NEEDS_SESSION); the
 * [thread-safe] ones may run anywhere, and the blocking ones (wait, and run
 * with a wait) only on a host worker thread (MH_TOOL_SESSION_ON_WORKER).
 */
#ifndef MCPHOST_DEBUG_H
#define MCPHOST_DEBUG_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/expr.h"
#include "mcphost/session.h"
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_DEBUG_SERVICE_ID "mh.debug/1"

typedef enum mh_exec_state {
    MH_EXEC_PAUSED = 0,
    MH_EXEC_RUNNING = 1,
    MH_EXEC_STOPPED = 2,
    MH_EXEC_JAMMED = 3,
    MH_EXEC_EXITED = 4
} mh_exec_state;

static inline const char *mh_exec_state_name(uint32_t state)
{
    static const char *const names[] = {"paused", "running", "stopped", "jammed", "exited"};
    return state < 5 ? names[state] : "unknown";
}

/* What a run is for. It ends early at a breakpoint or a pause. */
typedef enum mh_run_goal {
    MH_GOAL_CONTINUE = 0,  /* until a breakpoint or pause */
    MH_GOAL_STEP = 1,      /* count instructions (into subroutines) */
    MH_GOAL_STEP_OVER = 2, /* count instructions; a JSR with its subroutine is one */
    MH_GOAL_STEP_OUT = 3,  /* until an RTS or RTI returns from the current level */
    MH_GOAL_CYCLES = 4,    /* count cycles (ends at the instruction boundary reached) */
    MH_GOAL_ADDRESS = 5,   /* until PC == address */
    MH_GOAL_FRAMES = 6     /* count frames (ends at the start of the next frame) */
} mh_run_goal;

typedef struct mh_run_request {
    uint32_t struct_size;
    uint32_t goal;    /* mh_run_goal */
    uint64_t count;   /* instructions, cycles or frames; 0 means 1 */
    uint32_t address; /* MH_GOAL_ADDRESS */
    int warp;         /* 1 warp, 0 real time, -1 as before */
} mh_run_request;

/* Breakpoint kinds (a mask). */
enum {
    MH_BP_EXEC = 1u << 0,   /* before an instruction in [start, end] executes */
    MH_BP_READ = 1u << 1,   /* after a read of [start, end] (at the instruction's end) */
    MH_BP_WRITE = 1u << 2,  /* after a write of [start, end] */
    MH_BP_CHANGE = 1u << 3, /* after a write that changes the byte */
    MH_BP_CHECK = 1u << 4   /* when check() says so, at an instruction boundary */
};

/* Breakpoint flags. */
enum {
    MH_BP_TEMPORARY = 1u << 0, /* deleted after it fires once */
    MH_BP_LOG_ONLY = 1u << 1,  /* a tracepoint: logs (event + trace), never stops */
    MH_BP_DISABLED = 1u << 2   /* created disabled */
};

/* A plugin's test for a check breakpoint, run [emu-thread] at every
 * instruction boundary while the breakpoint is enabled. Return 1 when it
 * fires and write into detail a JSON object member list (no braces) that
 * says what fired, e.g. "\"line\":100,\"cycle\":12"; return 0 otherwise. */
typedef int (*mh_bp_check_fn)(void *check_user, mh_session *session, char *detail,
                              size_t detail_size);

typedef struct mh_breakpoint_spec {
    uint32_t struct_size;
    uint32_t kinds;          /* MH_BP_* kinds; CHECK alone or the others */
    uint32_t start, end;     /* CPU address range, inclusive (not CHECK) */
    const char *condition;   /* expression (expr.h) or NULL; must be nonzero to fire */
    uint32_t ignore_count;   /* hits to let pass before firing */
    uint32_t flags;          /* MH_BP_TEMPORARY ... */
    const char *group;       /* a group name to toggle or delete together; NULL none */
    const char *label;       /* what it is, for lists and stop records ("raster line 100");
                                NULL: made from the kind and range */
    mh_bp_check_fn check;    /* MH_BP_CHECK */
    void *check_user;
    void (*check_free)(void *check_user); /* may be NULL */
    /* ABI 1.4: names in condition that are not the engine's own (a
     * program's labels) are asked of constant (expr.h), called only inside
     * bp_add. May be NULL. A spec without these members is still taken. */
    mh_expr_constant_fn constant;
    void *constant_user;
} mh_breakpoint_spec;

/* One executed instruction, as it was before it ran. */
typedef struct mh_insn_record {
    uint64_t cycle;          /* session cycles when it started */
    uint16_t pc;
    uint8_t a, x, y, s, p;
    uint8_t bytes[3];        /* opcode and operands (length from the opcode) */
} mh_insn_record;

/* One CPU write. old_value is what the address read before it. */
typedef struct mh_write_record {
    uint64_t cycle;
    uint16_t pc, address;    /* pc: the writing instruction's address */
    uint8_t old_value, value;
    uint16_t line, line_cycle; /* beam position; 0 without mh.video/1 */
} mh_write_record;

/* ABI 1.5: a frame trace (frame_trace_*): the CPU's writes to chosen
 * addresses (a chip's registers) during whole frames. */
typedef struct mh_frame_trace_spec {
    uint32_t struct_size;
    uint32_t frames;           /* frames to record from the next frame start; 0: until
                                  stopped. Without "mh.video/1" recording starts at once. */
    const uint8_t *address_map;/* 65536 bytes, nonzero: record writes there; NULL: every
                                  write. Copied by frame_trace_start. */
    uint16_t pc_start, pc_end; /* only writes by instructions in [pc_start, pc_end] */
    uint32_t capacity;         /* records kept (the first ones); 0: 65536; at most 1 << 22 */
} mh_frame_trace_spec;

typedef enum mh_frame_trace_state {
    MH_FTRACE_OFF = 0,       /* never started */
    MH_FTRACE_WAITING = 1,   /* armed, waiting for the next frame start */
    MH_FTRACE_RECORDING = 2,
    MH_FTRACE_DONE = 3       /* its frames are over, or stopped */
} mh_frame_trace_state;

typedef struct mh_frame_trace_status {
    uint32_t struct_size;
    uint32_t state;          /* mh_frame_trace_state */
    uint32_t frames;         /* asked for (0: until stopped) */
    uint32_t frames_done;    /* frame starts passed while recording */
    uint64_t recorded;       /* records held */
    uint64_t dropped;        /* matching writes left out: the trace was full */
    uint64_t first_cycle, last_cycle; /* when recording began and ended (or now) */
} mh_frame_trace_status;

/* ABI 1.5: one chip event (machine_events.h), or an interrupt the CPU
 * took (kind MH_TRACE_EV_TAKEN, detail: 0 IRQ, 1 NMI, 2 BRK, 3 reset, chip
 * "cpu"). */
#define MH_TRACE_EV_TAKEN 100u
typedef struct mh_trace_event {
    uint64_t cycle;
    uint32_t kind, detail;
    const char *chip;        /* static, the machine's (or "cpu") */
    uint16_t pc;             /* the instruction running (taken: the handler) */
    uint16_t line, line_cycle;
} mh_trace_event;

/* ABI 1.5: a cycle counter over the runs of a piece of code: from the
 * cycle the instruction at start begins to the cycle the one at end
 * begins, or (end_set 0) to the return (RTS/RTI) that leaves the routine
 * entered at start, that return included. */
typedef struct mh_cycle_counter {
    uint32_t struct_size;
    uint16_t start, end;
    int end_set;
    uint64_t runs;           /* completed runs */
    uint64_t min, max, total;/* over the completed runs */
    uint64_t last;           /* the last run's cycles */
} mh_cycle_counter;

typedef struct mh_history_config {
    uint32_t struct_size;
    int64_t instructions;    /* ring size; default 65536 */
    int64_t writes;          /* ring size; default 65536 */
} mh_history_config;

/* Program knowledge a plugin adds to the stop events (add_stop_annotator):
 * writes JSON object members for the stop at pc of session into members
 * (size bytes, NUL-terminated), e.g.
 *   "symbol":"fill_screen+3","source":{"file":"main.s","line":42,"text":"lda #1"}
 * and returns their length (0: nothing to add; a length >= size is taken as
 * nothing). [emu-thread] of the stopped session: keep it short, never
 * block on the machine, never call an [emu-thread] mh.debug/1 function. */
typedef size_t (*mh_stop_annotate_fn)(void *user, mh_session *session, uint16_t pc,
                                      char *members, size_t size);

/* ---- profiler and code/data log (ABI 1.5, profile_* below) ----
 * While on, the engine counts per CPU address the instructions started
 * there and the cycles they took; per function entry (a JSR target or an
 * interrupt handler's first instruction) the calls, the cycles inside it
 * alone (exclusive) and with its callees (inclusive, of calls that
 * returned); the call sites, the RTS/RTI that returned and the control
 * transfers seen (branch, jump, call and return edges); and for every byte
 * what the CPU did with it (the code/data log). */

/* Bits of mh_profile_view.usage[address]. */
enum {
    MH_USAGE_OPCODE = 1u << 0,  /* an instruction started here */
    MH_USAGE_OPERAND = 1u << 1, /* an operand byte of an executed instruction */
    MH_USAGE_READ = 1u << 2,    /* read as data (not fetched as code) */
    MH_USAGE_WRITE = 1u << 3    /* written */
};

/* How a function was entered (mh_profile_function.kinds, a mask). */
enum {
    MH_ENTRY_JSR = 1u << 0,
    MH_ENTRY_IRQ = 1u << 1,
    MH_ENTRY_NMI = 1u << 2,
    MH_ENTRY_BRK = 1u << 3
};

typedef struct mh_profile_function {
    uint64_t calls;            /* 0 (and kinds 0): not an entry */
    uint64_t inclusive_cycles; /* of the calls that returned, callees included */
    uint64_t exclusive_cycles; /* its own instructions (and the interrupt sequence) */
    uint64_t instructions;     /* its own instructions */
    uint32_t kinds;            /* MH_ENTRY_* */
    uint32_t reserved;
} mh_profile_function;

/* The profiler's tables, owned by the engine: valid until the next run,
 * profile_control or the session's end. Pair tables hold keys
 * a << 16 | b (MH_PROFILE_PAIR_EMPTY: a free slot) in pair_slots slots,
 * unordered: edges (from, to), callers (entry, call site), returns
 * (entry, RTS/RTI address). */
#define MH_PROFILE_PAIR_EMPTY 0xFFFFFFFFu
typedef struct mh_profile_view {
    uint32_t struct_size;
    int on;                        /* recording now */
    uint64_t cycles, instructions; /* profiled in all */
    const uint32_t *insn_count;    /* [65536] instructions started at each address */
    const uint64_t *cycle_count;   /* [65536] their cycles */
    const mh_profile_function *functions; /* [65536] by entry address */
    const uint8_t *usage;          /* [65536] MH_USAGE_* */
    const uint32_t *reads, *writes; /* [65536] data reads and writes of each byte */
    const uint32_t *edges, *callers, *returns;
    size_t pair_slots;
    int pairs_full;                /* a pair table filled up and left some out */
} mh_profile_view;

/* Time travel (ABI 1.5): where mh_debug_service.travel goes. */
typedef enum mh_travel_kind {
    MH_TRAVEL_STEPS = 0,      /* value instructions back (from the history ring) */
    MH_TRAVEL_CYCLE = 1,      /* to session cycle `value` */
    MH_TRAVEL_FRAMES = 2,     /* value frames back */
    MH_TRAVEL_STOP = 3,       /* to the previous stop */
    MH_TRAVEL_BREAKPOINT = 4  /* reverse-continue: the last exec breakpoint or
                                 write/change watchpoint hit before now */
} mh_travel_kind;

typedef struct mh_travel_result {
    uint32_t struct_size;
    uint32_t bp_id;          /* MH_TRAVEL_BREAKPOINT: the breakpoint; 0 none */
    uint64_t from_cycle, to_cycle;
    uint64_t replayed;       /* cycles re-executed from the ring snapshot */
    uint64_t elapsed_us;     /* wall time the travel took */
    /* the snapshot ring after it: */
    uint64_t ring_bytes;     /* compressed snapshots held */
    uint64_t ring_entries;
    uint64_t oldest_cycle;   /* the earliest cycle it can go back to */
    uint64_t interval;       /* cycles between snapshots; 0: the ring is off */
} mh_travel_result;

typedef struct mh_debug_service {
    uint32_t struct_size;

    /* ---- execution [thread-safe] ---- */

    /* Starts a run toward the request's goal and returns at once (a run
     * that ends at once, e.g. a step, may already be over). MH_ERR_STATE
     * with a message when the CPU is jammed (for a step) or the session
     * has no debuggable CPU. */
    mh_status (*run)(mh_session *session, const mh_run_request *request, char *error,
                     size_t error_size);
    /* Stops a running machine at the next instruction boundary and waits
     * until it has stopped (state paused, reason "pause"); a no-op when it
     * is not running. [worker-thread] */
    mh_status (*pause)(mh_session *session);
    /* Blocks until the session is not running or timeout_ms passed.
     * Returns MH_OK when it stopped, MH_ERR_TIMEOUT when still running,
     * MH_ERR_CANCELLED when cancelled() says so (polled every 50 ms; may be
     * NULL). [worker-thread] */
    mh_status (*wait)(mh_session *session, uint32_t timeout_ms, int (*cancelled)(void *user),
                      void *cancelled_user);
    mh_exec_state (*state)(mh_session *session);
    /* The state as a JSON object: {"state": ..., "cycles": ..., and when not
     * running, "stop": the last stop record}. Returns the needed length. */
    size_t (*state_json)(mh_session *session, char *out, size_t out_size);

    /* ---- breakpoints [emu-thread] ---- */

    /* Adds one; *id is its number (from 1, never reused in a session). A
     * bad condition is refused with the position of the error. */
    mh_status (*bp_add)(mh_session *session, const mh_breakpoint_spec *spec, uint32_t *id,
                        char *error, size_t error_size);
    /* id 0 with group NULL: every breakpoint; a group: its members. */
    mh_status (*bp_delete)(mh_session *session, uint32_t id, const char *group);
    mh_status (*bp_enable)(mh_session *session, uint32_t id, const char *group, int enabled);
    /* Replaces the condition (NULL or "" removes it). */
    mh_status (*bp_condition)(mh_session *session, uint32_t id, const char *condition,
                              char *error, size_t error_size);
    /* A JSON array of every breakpoint with its hit count. */
    size_t (*bp_list_json)(mh_session *session, char *out, size_t out_size);
    /* The tracepoint log since sequence number `since` (0: all kept) as a
     * JSON object {"next": N, "dropped": N, "entries": [...]}. */
    size_t (*trace_json)(mh_session *session, uint64_t since, char *out, size_t out_size);

    /* ---- tool helpers [emu-thread] ---- */

    /* Runs the machine now, from a tool handler, for `cycles` cycles (to
     * the next instruction boundary), with breakpoints armed: one that
     * fires ends it early, the session becomes stopped and *stopped is
     * set to 1. For tools that need the machine to move (audio capture,
     * holding a key for N frames). MH_ERR_STATE while the session runs. */
    mh_status (*advance)(mh_session *session, uint64_t cycles, int *stopped);
    /* Cycles since power-on, and the stopwatch: cycles since its last
     * reset (reset 1 restarts it and returns the time before). */
    uint64_t (*cycles)(mh_session *session);
    uint64_t (*stopwatch)(mh_session *session, int reset);
    /* Records that a tool changed the machine behind the engine's back
     * (reset, snapshot load): the next stop record is built afresh and a
     * "reset" event goes out with detail_json (may be NULL). */
    void (*machine_changed)(mh_session *session, uint32_t event_type, const char *detail_json);

    /* ABI 1.4 (check struct_size): bp_condition with a constant callback
     * for labels, as mh_breakpoint_spec.constant. [emu-thread] */
    mh_status (*bp_condition_with)(mh_session *session, uint32_t id, const char *condition,
                                   mh_expr_constant_fn constant, void *constant_user,
                                   char *error, size_t error_size);

    /* ---- history (ABI 1.4: check struct_size) [emu-thread] ----
     * The engine keeps, while enabled, a ring of the last instructions
     * executed (recorded before each one) and a ring of the last CPU
     * writes. Copies go out newest first: skip the `skip` newest, then up
     * to `max` records; the return is how many were copied. */
    size_t (*history_copy)(mh_session *session, size_t skip, mh_insn_record *out, size_t max);
    size_t (*writes_copy)(mh_session *session, size_t skip, mh_write_record *out, size_t max);
    /* Reads and changes the setup: a NULL config just reads; fields at -1
     * stay as they are. Sizes are rounded up to a power of two (at most
     * 1 << 22); 0 turns that ring off. A change empties that ring. */
    mh_status (*history_config)(mh_session *session, const mh_history_config *config,
                                mh_history_config *now);
    /* Every PC that wrote any address in [start, end] since the write log
     * was last (re)started, also beyond what the ring still holds:
     * ascending, up to max into pcs; returns how many there are. *complete
     * (may be NULL) is 0 when the engine's table of (pc, address) pairs
     * filled up and some were left out. */
    size_t (*writers)(mh_session *session, uint16_t start, uint16_t end, uint16_t *pcs,
                      size_t max, int *complete);

    /* ---- stop annotators (appended after ABI 1.4's first set: check
     * struct_size) [thread-safe] ----
     * The stop records of "stopped", "breakpoint" and "jammed" events get
     * the members every annotator writes (labels, source lines), so a
     * client waiting on notifications sees what a tool's answer says.
     * The stored stop record (state_json) stays as the engine built it.
     * Returns an id for remove_stop_annotator(), 0 on failure (the host
     * keeps up to 8). After remove returns, fn is not running and will not
     * be called again: call it in deinit(), never from inside fn. */
    uint64_t (*add_stop_annotator)(const mh_host *host, mh_stop_annotate_fn fn, void *user);
    void (*remove_stop_annotator)(const mh_host *host, uint64_t id);
    /* ---- traces (ABI 1.5: check struct_size) [emu-thread] ---- */

    /* Starts a frame trace (replacing the last one), stops it (it keeps its
     * records), and copies its records oldest first after skipping `skip`;
     * status (may be NULL) says how it stands. */
    mh_status (*frame_trace_start)(mh_session *session, const mh_frame_trace_spec *spec,
                                   char *error, size_t error_size);
    void (*frame_trace_stop)(mh_session *session);
    size_t (*frame_trace_copy)(mh_session *session, size_t skip, mh_write_record *out,
                               size_t max, mh_frame_trace_status *status);
    /* The chip event log: a ring of mh_trace_event, off until sized (the
     * machine's event sink is installed only while it is on). size -1
     * keeps it; 0 turns it off; a change empties it. *now: its size. */
    mh_status (*events_config)(mh_session *session, int64_t size, int64_t *now);
    size_t (*events_copy)(mh_session *session, size_t skip, mh_trace_event *out, size_t max);
    /* Cycle counters (at most 16): counter_add finds or adds the one for
     * (start, end, end_set); counters_copy copies them all (returns the
     * count); counters_reset zeroes one (index) or all (index < 0), and
     * with remove deletes them. */
    mh_status (*counter_add)(mh_session *session, uint16_t start, uint16_t end, int end_set,
                             char *error, size_t error_size);
    size_t (*counters_copy)(mh_session *session, mh_cycle_counter *out, size_t max);
    void (*counters_reset)(mh_session *session, int index, int remove);

    /* ---- profiler (ABI 1.5: check struct_size) [emu-thread] ----
     * on 1 starts recording (reset 1 empties the tables first), on 0 stops
     * it and keeps the tables. The CPU hooks it needs are on only while it
     * records. Also while the session runs. MH_ERR_STATE without a CPU,
     * MH_ERR_NO_MEMORY. */
    mh_status (*profile_control)(mh_session *session, int on, int reset);
    /* The tables, or NULL when the profiler never ran in this session. */
    const mh_profile_view *(*profile_view)(mh_session *session);
    /* ---- time travel (ABI 1.5, after the profiler: check struct_size) [emu-thread] ----
     * The engine keeps a bounded ring of compressed snapshots (every
     * interval cycles, the last 60 s of emulated time) and goes back by
     * restoring the newest one before the target and re-executing to the
     * exact cycle, with breakpoints and history hooks off. The session must
     * not be running (MH_ERR_STATE). Afterwards the machine is stopped
     * there with a fresh stop record; ring snapshots and history/write
     * records newer than the target are dropped (that future is gone),
     * breakpoints are kept. docs/tools-debug.md "Time travel". */
    mh_status (*travel)(mh_session *session, uint32_t kind, uint64_t value,
                        mh_travel_result *out, char *error, size_t error_size);
    /* Turns the ring on (1) or off (0; frees it), -1 keeps it; fills now
     * (may be NULL) with the ring's figures (from/to: the current cycle). */
    mh_status (*travel_config)(mh_session *session, int on, mh_travel_result *now);
} mh_debug_service;

#ifdef __cplusplus
}
#endif
#endif
