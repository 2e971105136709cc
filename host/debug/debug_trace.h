/* host/debug/debug_trace.h - the debug engine's traces (mcphost/debug.h
 * ABI 1.5): the frame trace (chip register writes over whole frames), the
 * chip event log (the machine's event sink plus interrupts taken) and the
 * cycle counters. The state lives behind mh_dbg.traces, allocated on first
 * use; the hooks call in only while mh_dbg.trace_sync / trace_writes say
 * so, so an engine without traces pays one test per hook. [emu-thread]. */
#ifndef MH_HOST_DEBUG_TRACE_H
#define MH_HOST_DEBUG_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "debug_engine.h"

#define DBG_COUNTERS_MAX 16

/* Called by debug_hooks.c. */
void dbg_trace_sync(mh_dbg *dbg, uint16_t pc);
void dbg_trace_write(mh_dbg *dbg, uint16_t address, uint8_t old, uint8_t value);
void dbg_traces_free(mh_dbg *dbg);

/* The service (debug_service.c). */
mh_status mh_dbg_frame_trace_start(mh_dbg *dbg, const mh_frame_trace_spec *spec, char *error,
                                   size_t error_size);
void mh_dbg_frame_trace_stop(mh_dbg *dbg);
size_t mh_dbg_frame_trace_copy(mh_dbg *dbg, size_t skip, mh_write_record *out, size_t max,
                               mh_frame_trace_status *status);
mh_status mh_dbg_events_config(mh_dbg *dbg, int64_t size, int64_t *now);
size_t mh_dbg_events_copy(mh_dbg *dbg, size_t skip, mh_trace_event *out, size_t max);
mh_status mh_dbg_counter_add(mh_dbg *dbg, uint16_t start, uint16_t end, int end_set, char *error,
                             size_t error_size);
size_t mh_dbg_counters_copy(mh_dbg *dbg, mh_cycle_counter *out, size_t max);
void mh_dbg_counters_reset(mh_dbg *dbg, int index, int remove);

/* Time travel (debug_travel.c): while muted the chip event log ignores the
 * machine's events (re-execution repeats what it logged); after landing at
 * `landed` the event log, the frame trace and the counters' runs in
 * progress drop what is newer (that future is gone); unmutes. */
void dbg_traces_mute_events(mh_dbg *dbg, int muted);
void dbg_traces_travelled(mh_dbg *dbg, uint64_t landed);

#endif
