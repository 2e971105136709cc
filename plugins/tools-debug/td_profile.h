/* td_profile.h - what the profiler tools (tools_profile.c, tools_cfg.c,
 * tools_usage.c) share: the engine's profiler tables (mh.debug/1
 * profile_view) with an error result when there are none, the second
 * halves of a pair table's keys for one first half, a function's entry
 * kinds as text, and the shared schema fragments.
 * Threads: [emu-thread] inside a MH_TOOL_NEEDS_SESSION handler. */
#ifndef TD_PROFILE_H
#define TD_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "td_util.h"

/* The tables, or NULL after an error result (an older engine, or the
 * profiler never started: "profile_start first"). */
const mh_profile_view *td_profile_view(td_call *c);

/* A pair table's keys, sorted (malloc'ed; NULL when out of memory). */
uint32_t *td_profile_sort_pairs(const uint32_t *keys, size_t slots, size_t *count);

/* The b of every key a << 16 | b in sorted keys, ascending, up to max into
 * out; returns how many there are. */
size_t td_profile_pairs_of(const uint32_t *sorted, size_t count, uint16_t a, uint16_t *out,
                           size_t max);

/* "jsr", "irq,nmi" ... of MH_ENTRY_* kinds into out. */
void td_profile_kinds(uint32_t kinds, char *out, size_t size);

/* Writes "symbol" (when the address has one) and appends " (symbol)" to
 * text for address. */
void td_profile_symbol(td_call *c, mh_json_writer *w, td_buf *text, uint16_t address);

#define TD_PAGE_SCHEMA                                                                        \
    "\"count\":{\"type\":\"integer\",\"description\":\"default 20\"},"               \
    "\"offset\":{\"type\":\"integer\",\"description\":\"skip\"}"

#endif
