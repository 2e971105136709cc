/* host/debug/debug_engine.h - the per-session debug engine behind
 * "mh.debug/1" (mcphost/debug.h): run goals, breakpoints, the CPU hooks and
 * stop records.
 *
 * sessions.c owns one engine per session (NULL when the machine has no
 * "mh.cpu6502/1" CPU) and drives it from the session's emulation thread:
 * mh_dbg_begin() when a run starts, mh_dbg_slice_budget() and
 * mh_dbg_after_slice() around each slice, mh_dbg_stop_record() when the
 * machine stops. Everything here is [emu-thread] unless tagged otherwise;
 * the engine itself takes no locks.
 */
#ifndef MH_HOST_DEBUG_ENGINE_H
#define MH_HOST_DEBUG_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/cpu6502.h"
#include "mcphost/debug.h"
#include "mcphost/json.h"
#include "mcphost/session.h"

extern const mh_debug_service mh_debug_service_impl;

typedef struct mh_dbg mh_dbg;

/* Why the engine stopped a slice (what the stop record calls "reason"). */
typedef enum mh_dbg_reason {
    MH_DBG_NONE = 0,
    MH_DBG_PAUSE,
    MH_DBG_BREAKPOINT, /* exec breakpoint */
    MH_DBG_WATCHPOINT, /* read/write/change watchpoint */
    MH_DBG_CHECK,      /* a plugin's check breakpoint */
    MH_DBG_GOAL,       /* the run's goal was reached (step, until ...) */
    MH_DBG_JAM,
    MH_DBG_EXIT,
    MH_DBG_LIMIT       /* a runner's cycle limit */
} mh_dbg_reason;

/* Finds the session's CPU, memory and video; NULL when it has no CPU. */
mh_dbg *mh_dbg_new(mh_session *session, const char *session_name);
void mh_dbg_free(mh_dbg *dbg);

/* Starts a run toward request's goal (arms the hooks it needs). */
void mh_dbg_begin(mh_dbg *dbg, const mh_run_request *request);
/* The most cycles the next slice may run for the goal (limit: what the
 * session would run anyway). */
uint64_t mh_dbg_slice_budget(mh_dbg *dbg, uint64_t limit);
/* After a slice: returns the reason the run must stop (MH_DBG_NONE: go on).
 * stop is the machine's mh_run_stop; total_cycles the session's count. */
mh_dbg_reason mh_dbg_after_slice(mh_dbg *dbg, uint32_t stop, uint64_t total_cycles);
/* The run ended (any reason): removes goal-only hooks, deletes fired
 * temporary breakpoints, posts queued tracepoint events. */
void mh_dbg_end(mh_dbg *dbg);

/* The client that asked for the next pause (the stop record's
 * "requested_by"); used by the next stop record only. */
void mh_dbg_set_requested_by(mh_dbg *dbg, const char *client);
/* The stop record of the machine as it stands, as JSON object text
 * (malloc'ed; the caller frees it). state is the execution state the
 * session is in; reason why. exit_code with MH_DBG_EXIT. */
char *mh_dbg_stop_record(mh_dbg *dbg, mh_exec_state state, mh_dbg_reason reason, int exit_code,
                         uint64_t stop_id);
/* Writes the machine's registers, PC, flags, raster and counters as members
 * of the open object (shared by stop records and trace entries). */
void mh_dbg_write_position(mh_dbg *dbg, mh_json_writer *w);

/* Breakpoints (debug.h semantics). */
mh_status mh_dbg_bp_add(mh_dbg *dbg, const mh_breakpoint_spec *spec, uint32_t *id, char *error,
                        size_t error_size);
mh_status mh_dbg_bp_delete(mh_dbg *dbg, uint32_t id, const char *group);
mh_status mh_dbg_bp_enable(mh_dbg *dbg, uint32_t id, const char *group, int enabled);
mh_status mh_dbg_bp_condition(mh_dbg *dbg, uint32_t id, const char *condition,
                              mh_expr_constant_fn constant, void *constant_user, char *error,
                              size_t error_size);
char *mh_dbg_bp_list_json(mh_dbg *dbg);
char *mh_dbg_trace_json(mh_dbg *dbg, uint64_t since);

/* The CPU's state. */
const mh_cpu6502 *mh_dbg_cpu(const mh_dbg *dbg);

/* For a run to an address (MH_GOAL_ADDRESS): nonzero when the CPU executed
 * an instruction that covers the address without starting there (the
 * address is inside it, so the run may never stop there); *goal and
 * *instruction then say which. [thread-safe] */
int mh_dbg_goal_straddle(mh_dbg *dbg, uint16_t *goal, uint16_t *instruction);
/* Whether the machine has video (raster, frames). [thread-safe] */
int mh_dbg_has_video(const mh_dbg *dbg);

/* The cycle count the engine reports (the session's), and the stopwatch. */
void mh_dbg_set_cycles(mh_dbg *dbg, uint64_t cycles);
/* [emu-thread] At a stop: the CPU's debugger bookkeeping (sync skip,
 * address latch, stop reason) made what the next run's start sets,
 * however the run ended (a breakpoint's sync stop leaves them set, a
 * budget end does not), so a state reached by re-execution (time travel)
 * is bit for bit the state a stop left. */
void mh_dbg_settle_stopped(mh_dbg *dbg);
uint64_t mh_dbg_stopwatch(mh_dbg *dbg, int reset);

/* The history rings (mcphost/debug.h history_*): sizes -1 unchanged, 0
 * off; a resize empties that ring. */
mh_status mh_dbg_history_config(mh_dbg *dbg, int64_t instructions, int64_t writes);
void mh_dbg_history_sizes(const mh_dbg *dbg, int64_t *instructions, int64_t *writes);
size_t mh_dbg_history_copy(const mh_dbg *dbg, size_t skip, mh_insn_record *out, size_t max);
size_t mh_dbg_writes_copy(const mh_dbg *dbg, size_t skip, mh_write_record *out, size_t max);
size_t mh_dbg_writers(const mh_dbg *dbg, uint16_t start, uint16_t end, uint16_t *pcs, size_t max,
                      int *complete);

/* The profiler (mcphost/debug.h profile_*; debug_profile_glue.c). */
mh_status mh_dbg_profile_control(mh_dbg *dbg, int on, int reset);
const mh_profile_view *mh_dbg_profile_view(mh_dbg *dbg);

#endif
