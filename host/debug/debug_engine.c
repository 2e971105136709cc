/* debug_engine.c - the debug engine's breakpoint store, hook arming and run
 * goals (see debug_engine.h). The hooks themselves are in debug_hooks.c,
 * stop records and lists in debug_record.c. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug_internal.h"
#include "debug_trace.h"
#include "sessions.h"

/* The space named "ram", where the hooks may take a written byte as what
 * the address reads back while a read of it reaches that space; none
 * without bank_at. */
static size_t find_ram_space(const mh_memory_iface *mem, void *ctx)
{
    if (mem->struct_size < offsetof(mh_memory_iface, bank_at) + sizeof mem->bank_at ||
        !mem->bank_at || !mem->space_count || !mem->space)
        return DBG_NO_SPACE;
    for (size_t i = 0, n = mem->space_count(ctx); i < n; i++) {
        const mh_memory_space *space = mem->space(ctx, i);
        if (space && space->name && strcmp(space->name, "ram") == 0) return i;
    }
    return DBG_NO_SPACE;
}

mh_dbg *mh_dbg_new(mh_session *session, const char *session_name)
{
    const mh_chip *cpu =
        mh_session_service_impl.find_chip(session, MH_IFACE_CPU6502, NULL);
    const mh_chip *mem = mh_session_service_impl.find_chip(session, MH_IFACE_MEMORY, NULL);
    if (!cpu || !mem) return NULL;
    mh_dbg *dbg = calloc(1, sizeof *dbg);
    if (!dbg) return NULL;
    dbg->session = session;
    snprintf(dbg->name, sizeof dbg->name, "%s", session_name);
    dbg->cpu = cpu->vtable;
    dbg->cpu_ctx = cpu->context;
    dbg->cpu_state = dbg->cpu->state(dbg->cpu_ctx);
    dbg->mem = mem->vtable;
    dbg->mem_ctx = mem->context;
    dbg->ram_space = find_ram_space(dbg->mem, dbg->mem_ctx);
    const mh_chip *video = mh_session_service_impl.find_chip(session, MH_IFACE_VIDEO, NULL);
    if (video) {
        dbg->video = video->vtable;
        dbg->video_ctx = video->context;
    }
    dbg->next_id = 1;
    if (dbg_ring_resize(&dbg->history, sizeof(mh_insn_record), DBG_HISTORY_DEFAULT) != 0 ||
        dbg_ring_resize(&dbg->writes, sizeof(mh_write_record), DBG_WRITES_DEFAULT) != 0 ||
        dbg_pairs_reset(&dbg->writers) != 0) {
        mh_dbg_free(dbg);
        return NULL;
    }
    return dbg;
}

void dbg_bp_free(dbg_bp *bp)
{
    if (!bp) return;
    if (bp->check_free) bp->check_free(bp->check_user);
    mh_expr_free(bp->condition);
    free(bp->group);
    free(bp->label);
    free(bp);
}

void mh_dbg_free(mh_dbg *dbg)
{
    if (!dbg) return;
    for (size_t i = 0; i < dbg->bps.count; i++) dbg_bp_free(dbg->bps.items[i]);
    mh_ptrvec_free(&dbg->bps);
    dbg_ring_free(&dbg->history);
    dbg_ring_free(&dbg->writes);
    dbg_pairs_free(&dbg->writers);
    dbg_traces_free(dbg);
    dbg_profile_free(dbg->profile);
    free(dbg);
}

/* ---- arming ---- */

static int goal_needs_sync(const mh_dbg *dbg)
{
    if (!dbg->goal_active) return 0;
    switch (dbg->goal.goal) {
    case MH_GOAL_STEP:
    case MH_GOAL_STEP_OVER:
    case MH_GOAL_STEP_OUT:
    case MH_GOAL_ADDRESS:
    case MH_GOAL_FRAMES:
        return 1;
    default:
        return 0;
    }
}

/* The address maps from the enabled breakpoints; only after a breakpoint
 * changed (dbg->maps_dirty), not on every run. */
static void rebuild_maps(mh_dbg *dbg)
{
    memset(dbg->exec_map, 0, sizeof dbg->exec_map);
    memset(dbg->watch_map, 0, sizeof dbg->watch_map);
    dbg->armed_exec = dbg->armed_watch = dbg->armed_check = dbg->armed_change = 0;
    dbg->armed_read = 0;
    for (size_t i = 0; i < dbg->bps.count; i++) {
        const dbg_bp *bp = dbg->bps.items[i];
        if (!bp->enabled || bp->dead) continue;
        if (bp->kinds & MH_BP_CHECK) dbg->armed_check++;
        uint8_t watch = (uint8_t)(((bp->kinds & MH_BP_READ) ? WATCH_READ : 0) |
                                  ((bp->kinds & MH_BP_WRITE) ? WATCH_WRITE : 0) |
                                  ((bp->kinds & MH_BP_CHANGE) ? WATCH_CHANGE : 0));
        if (bp->kinds & MH_BP_EXEC) dbg->armed_exec++;
        if (watch) dbg->armed_watch++;
        if (watch & WATCH_READ) dbg->armed_read++;
        if (watch & (WATCH_CHANGE | WATCH_WRITE)) dbg->armed_change++;
        for (uint32_t a = bp->start; a <= bp->end && a <= 0xFFFF; a++) {
            if ((bp->kinds & MH_BP_EXEC) && dbg->exec_map[a] < 255) dbg->exec_map[a]++;
            dbg->watch_map[a] |= watch;
        }
    }
    dbg->maps_dirty = 0;
}

/* Write and change watchpoints report (and change watchpoints compare
 * with) the byte before a write: read them afresh, since tools, loads and
 * DMA may have changed memory since. The CPU's access hook runs after the
 * write reached the bus, so it cannot read the old byte then (an I/O
 * register would answer with its new value). */
static void refresh_shadow(mh_dbg *dbg)
{
    dbg->shadow_stale = 0;
    if (dbg->writes.data || dbg->trace_writes) { /* the write log needs every old value */
        dbg->mem->peek(dbg->mem_ctx, 0, 0, dbg->shadow, sizeof dbg->shadow);
        return;
    }
    for (size_t i = 0; dbg->armed_change && i < dbg->bps.count; i++) {
        const dbg_bp *bp = dbg->bps.items[i];
        if (bp->enabled && !bp->dead && (bp->kinds & (MH_BP_CHANGE | MH_BP_WRITE)))
            dbg->mem->peek(dbg->mem_ctx, 0, bp->start, dbg->shadow + bp->start,
                           bp->end - bp->start + 1);
    }
}

/* Brings the maps (and, with refresh, the shadow bytes) up to date and
 * installs the hooks that are needed, or none. */
static void arm_hooks(mh_dbg *dbg, int refresh)
{
    if (dbg->maps_dirty) rebuild_maps(dbg);
    if (refresh)
        refresh_shadow(dbg);
    else
        dbg->shadow_stale = 1;
    int profiling = dbg->profiling != NULL;
    int sync = dbg->armed_exec || dbg->armed_check || goal_needs_sync(dbg) ||
               dbg->history.data != NULL || dbg->trace_sync || profiling;
    int access = dbg->armed_watch != 0 || dbg->writes.data != NULL || dbg->trace_writes ||
                 profiling;
    if (sync != dbg->hooks_sync || access != dbg->hooks_access) {
        dbg->cpu->set_debug_hooks(dbg->cpu_ctx, sync ? dbg_sync_hook : NULL,
                                  access ? dbg_access_hook : NULL, dbg);
        dbg->hooks_sync = sync;
        dbg->hooks_access = access;
    }
    /* Only a read watchpoint needs the hook on reads, and only of the
     * watched addresses (the write log, the traces and the profiler's
     * writes look at writes; the profiler derives its data reads from the
     * instruction): one call fewer per read cycle. The watch map marks
     * write-watched bytes too, whose reads the hook passes over as
     * before. Set on every arming, since re-execution (debug_travel.c,
     * debug_reverse.c) turns every read on for its own hooks. */
    mh_cpu6502_set_access_reads(dbg->cpu_state, access && dbg->armed_read != 0, dbg->watch_map);
}

/* ---- breakpoints ---- */

static dbg_bp *find_bp(mh_dbg *dbg, uint32_t id)
{
    for (size_t i = 0; i < dbg->bps.count; i++) {
        dbg_bp *bp = dbg->bps.items[i];
        if (bp->id == id && !bp->dead) return bp;
    }
    return NULL;
}

static mh_status compile_condition(mh_dbg *dbg, const char *text, mh_expr_constant_fn constant,
                                   void *constant_user, mh_expr **out, char *error,
                                   size_t error_size)
{
    *out = NULL;
    if (!text || !*text) return MH_OK;
    char why[200];
    size_t position = 0;
    mh_status status =
        mh_expr_compile_with(text, dbg_resolve_name, dbg, constant, constant_user, out, &position,
                             why, sizeof why);
    if (status != MH_OK)
        snprintf(error, error_size, "condition \"%s\": %s", text, why);
    return status;
}

mh_status mh_dbg_bp_add(mh_dbg *dbg, const mh_breakpoint_spec *spec, uint32_t *id, char *error,
                        size_t error_size)
{
    const uint32_t kinds_all = MH_BP_EXEC | MH_BP_READ | MH_BP_WRITE | MH_BP_CHANGE | MH_BP_CHECK;
    const size_t spec_1_2 = offsetof(mh_breakpoint_spec, constant);
    if (!spec || spec->struct_size < spec_1_2 || !spec->kinds ||
        (spec->kinds & ~kinds_all)) {
        snprintf(error, error_size, "breakpoint: no valid kind given (exec, read, write, change)");
        return MH_ERR_INVALID_ARGUMENT;
    }
    if ((spec->kinds & MH_BP_CHECK) && (spec->kinds != MH_BP_CHECK || !spec->check)) {
        snprintf(error, error_size, "breakpoint: a check breakpoint needs a check function and "
                                    "no other kind");
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (!(spec->kinds & MH_BP_CHECK) && (spec->start > spec->end || spec->end > 0xFFFF)) {
        snprintf(error, error_size, "breakpoint: range $%X-$%X is not within $0000-$FFFF with "
                 "start <= end", spec->start, spec->end);
        return MH_ERR_INVALID_ARGUMENT;
    }
    dbg_bp *bp = calloc(1, sizeof *bp);
    if (!bp) return MH_ERR_NO_MEMORY;
    int has_constant = spec->struct_size >= sizeof(mh_breakpoint_spec);
    mh_status status = compile_condition(dbg, spec->condition, has_constant ? spec->constant : NULL,
                                         has_constant ? spec->constant_user : NULL, &bp->condition,
                                         error, error_size);
    if (status != MH_OK) {
        free(bp);
        return status;
    }
    bp->kinds = spec->kinds;
    bp->flags = spec->flags;
    bp->start = spec->start;
    bp->end = spec->end;
    bp->enabled = !(spec->flags & MH_BP_DISABLED);
    bp->ignore_count = spec->ignore_count;
    bp->group = spec->group && *spec->group ? strdup(spec->group) : NULL;
    if (spec->label && *spec->label) {
        bp->label = strdup(spec->label);
    } else {
        char label[64];
        if (spec->start == spec->end)
            snprintf(label, sizeof label, "%s $%04X", dbg_bp_kind_name(spec->kinds), spec->start);
        else
            snprintf(label, sizeof label, "%s $%04X-$%04X", dbg_bp_kind_name(spec->kinds),
                     spec->start, spec->end);
        bp->label = strdup(label);
    }
    bp->check = spec->check;
    bp->check_user = spec->check_user;
    bp->id = dbg->next_id;
    if (!bp->label || mh_ptrvec_push(&dbg->bps, bp) != 0) {
        bp->check_free = NULL; /* not ours until success */
        dbg_bp_free(bp);
        return MH_ERR_NO_MEMORY;
    }
    bp->check_free = spec->check_free;
    dbg->next_id++;
    *id = bp->id;
    dbg->maps_dirty = 1;
    dbg_arm_hooks(dbg);
    return MH_OK;
}

static int selected(const dbg_bp *bp, uint32_t id, const char *group)
{
    if (bp->dead) return 0;
    if (id) return bp->id == id;
    if (group) return bp->group && strcmp(bp->group, group) == 0;
    return 1;
}

mh_status mh_dbg_bp_delete(mh_dbg *dbg, uint32_t id, const char *group)
{
    size_t removed = 0;
    for (size_t i = dbg->bps.count; i-- > 0;) {
        dbg_bp *bp = dbg->bps.items[i];
        if (!selected(bp, id, group)) continue;
        mh_ptrvec_remove_at(&dbg->bps, i);
        if (dbg->pending_bp == bp) dbg->pending_bp = NULL;
        dbg_bp_free(bp);
        removed++;
    }
    dbg->maps_dirty = 1;
    dbg_arm_hooks(dbg);
    return removed || (!id && !group) ? MH_OK : MH_ERR_NOT_FOUND;
}

mh_status mh_dbg_bp_enable(mh_dbg *dbg, uint32_t id, const char *group, int enabled)
{
    size_t changed = 0;
    for (size_t i = 0; i < dbg->bps.count; i++) {
        dbg_bp *bp = dbg->bps.items[i];
        if (!selected(bp, id, group)) continue;
        bp->enabled = enabled != 0;
        changed++;
    }
    dbg->maps_dirty = 1;
    dbg_arm_hooks(dbg);
    return changed || (!id && !group) ? MH_OK : MH_ERR_NOT_FOUND;
}

mh_status mh_dbg_bp_condition(mh_dbg *dbg, uint32_t id, const char *condition,
                              mh_expr_constant_fn constant, void *constant_user, char *error,
                              size_t error_size)
{
    dbg_bp *bp = find_bp(dbg, id);
    if (!bp) {
        snprintf(error, error_size, "no breakpoint %u; breakpoints_list shows them", id);
        return MH_ERR_NOT_FOUND;
    }
    mh_expr *compiled = NULL;
    mh_status status =
        compile_condition(dbg, condition, constant, constant_user, &compiled, error, error_size);
    if (status != MH_OK) return status;
    mh_expr_free(bp->condition);
    bp->condition = compiled;
    return MH_OK;
}

/* ---- runs ---- */

const mh_cpu6502 *mh_dbg_cpu(const mh_dbg *dbg) { return dbg->cpu_state; }

int mh_dbg_has_video(const mh_dbg *dbg) { return dbg->video != NULL; }

void mh_dbg_set_cycles(mh_dbg *dbg, uint64_t cycles)
{
    dbg->cycles = cycles;
    dbg->cycle_offset = cycles - dbg->cpu_state->cycles;
}

uint64_t mh_dbg_stopwatch(mh_dbg *dbg, int reset)
{
    uint64_t elapsed = dbg->cycles - dbg->stopwatch_mark;
    if (reset) dbg->stopwatch_mark = dbg->cycles;
    return elapsed;
}

/* The CPU's debugger bookkeeping at an instruction boundary as a run's
 * start wants it: the first instruction runs without the sync hook (so
 * resuming never fires the breakpoint at the PC it stands on). */
static void settle_at_boundary(mh_cpu6502 *cpu)
{
    cpu->sync_skip = 1;
    cpu->ad = cpu->pc;
}

void mh_dbg_settle_stopped(mh_dbg *dbg)
{
    mh_cpu6502 *cpu = dbg->cpu_state;
    if (!mh_cpu6502_at_boundary(cpu) || cpu->jammed) return;
    settle_at_boundary(cpu);
    cpu->stop_reason = MH_CPU6502_STOP_NONE;
}

void mh_dbg_begin(mh_dbg *dbg, const mh_run_request *request)
{
    mh_cpu6502 *cpu = dbg->cpu_state;
    dbg->goal = *request;
    dbg->goal_active = request->goal != MH_GOAL_CONTINUE;
    dbg->goal_left = request->count ? request->count : 1;
    dbg->goal_end = dbg->cycles + dbg->goal_left;
    atomic_store(&dbg->goal_straddle, 0);
    dbg->step_over_waiting = 0;
    dbg->step_out_s = cpu->s;
    dbg->last_boundary = cpu->pc;
    dbg->last_line = 0;
    if (dbg->video) {
        uint32_t cycle;
        dbg->video->beam(dbg->video_ctx, &dbg->last_line, &cycle);
    }
    dbg->pending = MH_DBG_NONE;
    dbg->pending_bp = NULL;
    dbg->pending_has_access = 0;
    /* Resuming never fires the breakpoint at the PC it stands on: the
     * first instruction runs without the sync hook. */
    if (mh_cpu6502_at_boundary(cpu) && !cpu->jammed) {
        settle_at_boundary(cpu);
        /* so the history records that instruction here (the sync hook
         * does not record one it stops before, either) */
        if (dbg->history.data) dbg_record_insn(dbg, cpu->pc);
        if (dbg->profiling) dbg_profile_insn(dbg, cpu->pc);
    }
    dbg_arm_hooks(dbg);
}

uint64_t mh_dbg_slice_budget(mh_dbg *dbg, uint64_t limit)
{
    if (dbg->shadow_stale) refresh_shadow(dbg); /* the CPU is about to run */
    if (dbg->goal_active && dbg->goal.goal == MH_GOAL_CYCLES) {
        uint64_t left = dbg->goal_end > dbg->cycles ? dbg->goal_end - dbg->cycles : 0;
        if (left < limit) return left ? left : 1;
    }
    return limit;
}

mh_dbg_reason mh_dbg_after_slice(mh_dbg *dbg, uint32_t stop, uint64_t total_cycles)
{
    mh_dbg_set_cycles(dbg, total_cycles);
    dbg_post_trace_events(dbg);
    if (stop == MH_RUN_BREAK && dbg->pending != MH_DBG_NONE) return dbg->pending;
    if (dbg->goal_active && dbg->goal.goal == MH_GOAL_CYCLES && total_cycles >= dbg->goal_end) {
        dbg->pending = MH_DBG_GOAL;
        return MH_DBG_GOAL;
    }
    return MH_DBG_NONE;
}

void dbg_arm_hooks(mh_dbg *dbg) { arm_hooks(dbg, 1); }

void mh_dbg_end(mh_dbg *dbg)
{
    dbg->goal_active = 0;
    for (size_t i = dbg->bps.count; i-- > 0;) {
        dbg_bp *bp = dbg->bps.items[i];
        if (!bp->dead) continue;
        mh_ptrvec_remove_at(&dbg->bps, i);
        if (dbg->pending_bp == bp) dbg->pending_bp = NULL;
        dbg_bp_free(bp);
        dbg->maps_dirty = 1;
    }
    /* The shadow waits for the next run (mh_dbg_begin, or the next slice):
     * with the write log on it is a 64 KiB peek, twice the cost of a step. */
    arm_hooks(dbg, 0);
    dbg_post_trace_events(dbg);
}

int mh_dbg_goal_straddle(mh_dbg *dbg, uint16_t *goal, uint16_t *instruction)
{
    uint64_t v = dbg ? atomic_load(&dbg->goal_straddle) : 0;
    if (!v) return 0;
    *goal = (uint16_t)(v >> 16);
    *instruction = (uint16_t)v;
    return 1;
}

/* ---- history ---- */

mh_status mh_dbg_history_config(mh_dbg *dbg, int64_t instructions, int64_t writes)
{
    mh_status status = MH_OK;
    if (instructions >= 0 &&
        dbg_ring_resize(&dbg->history, sizeof(mh_insn_record), (size_t)instructions) != 0)
        status = MH_ERR_NO_MEMORY;
    if (writes >= 0) {
        if (dbg_ring_resize(&dbg->writes, sizeof(mh_write_record), (size_t)writes) != 0)
            status = MH_ERR_NO_MEMORY;
        if (!dbg->writes.data)
            dbg_pairs_free(&dbg->writers);
        else if (dbg_pairs_reset(&dbg->writers) != 0) {
            dbg_ring_free(&dbg->writes);
            status = MH_ERR_NO_MEMORY;
        }
    }
    dbg_arm_hooks(dbg);
    return status;
}

void mh_dbg_history_sizes(const mh_dbg *dbg, int64_t *instructions, int64_t *writes)
{
    *instructions = (int64_t)dbg_ring_capacity(&dbg->history);
    *writes = (int64_t)dbg_ring_capacity(&dbg->writes);
}

size_t mh_dbg_history_copy(const mh_dbg *dbg, size_t skip, mh_insn_record *out, size_t max)
{
    return dbg_ring_copy_newest(&dbg->history, skip, out, max);
}

size_t mh_dbg_writes_copy(const mh_dbg *dbg, size_t skip, mh_write_record *out, size_t max)
{
    return dbg_ring_copy_newest(&dbg->writes, skip, out, max);
}

size_t mh_dbg_writers(const mh_dbg *dbg, uint16_t start, uint16_t end, uint16_t *pcs, size_t max,
                      int *complete)
{
    if (complete) *complete = !dbg->writers.full;
    return dbg_pairs_writers(&dbg->writers, start, end, pcs, max);
}
