/* debug_trace.c - frame trace, chip event log and cycle counters of the
 * debug engine (debug_trace.h). */
#include "debug_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug_internal.h"

#define OP_RTS 0x60
#define OP_RTI 0x40
#define FTRACE_DEFAULT 65536u

typedef struct dbg_counter {
    mh_cycle_counter stats;
    int active;           /* inside a run now */
    uint64_t begin;       /* cycle the run began */
    uint8_t entry_s;      /* S when the routine was entered */
} dbg_counter;

struct dbg_traces {
    /* frame trace */
    mh_frame_trace_status ft;
    uint8_t *map;         /* 65536 bytes or NULL: every address */
    uint16_t pc_start, pc_end;
    mh_write_record *records;
    size_t capacity;
    uint32_t last_line;
    /* cycles at which the recorded frames began (first_cycle, then each
     * wrap), so time travel can take frames back; frame_count held */
    uint64_t *frame_starts;
    size_t frame_count, frame_capacity;
    /* events */
    dbg_ring events;
    int events_muted;     /* time travel is re-executing: its events were logged */
    /* counters */
    dbg_counter counters[DBG_COUNTERS_MAX];
    size_t counter_count;
};

static uint64_t now_cycles(const mh_dbg *dbg)
{
    return dbg->cpu_state->cycles + dbg->cycle_offset;
}

static void beam(const mh_dbg *dbg, uint16_t *line, uint16_t *cycle)
{
    uint32_t l = 0, c = 0;
    if (dbg->video) dbg->video->beam(dbg->video_ctx, &l, &c);
    *line = (uint16_t)l;
    *cycle = (uint16_t)c;
}

static dbg_traces *traces_of(mh_dbg *dbg)
{
    if (!dbg->traces) dbg->traces = calloc(1, sizeof *dbg->traces);
    return dbg->traces;
}

/* What the hooks must do now; re-installs them when that changed. */
static void update_flags(mh_dbg *dbg)
{
    dbg_traces *t = dbg->traces;
    int ft_live = t && (t->ft.state == MH_FTRACE_WAITING || t->ft.state == MH_FTRACE_RECORDING);
    dbg->trace_writes = ft_live;
    dbg->trace_sync = t && ((ft_live && dbg->video) || t->events.data || t->counter_count);
    dbg_arm_hooks(dbg);
}

void dbg_traces_free(mh_dbg *dbg)
{
    dbg_traces *t = dbg->traces;
    if (!t) return;
    if (t->events.data && dbg->cpu->struct_size > offsetof(mh_cpu6502_iface, set_event_sink) &&
        dbg->cpu->set_event_sink)
        dbg->cpu->set_event_sink(dbg->cpu_ctx, NULL, NULL);
    dbg_ring_free(&t->events);
    free(t->frame_starts);
    free(t->map);
    free(t->records);
    free(t);
    dbg->traces = NULL;
}

/* ---- the hooks' side ---- */

static void push_event(mh_dbg *dbg, uint32_t kind, const char *chip, uint32_t detail, uint16_t pc)
{
    mh_trace_event *e = dbg_ring_push(&dbg->traces->events);
    e->cycle = now_cycles(dbg);
    e->kind = kind;
    e->detail = detail;
    e->chip = chip;
    e->pc = pc;
    beam(dbg, &e->line, &e->line_cycle);
}

/* The machine's event sink. */
static void on_chip_event(void *user, uint32_t kind, const char *chip, uint32_t detail)
{
    mh_dbg *dbg = user;
    if (dbg->traces && dbg->traces->events.data && !dbg->traces->events_muted)
        push_event(dbg, kind, chip ? chip : "?", detail, dbg->cpu_state->ipc);
}

/* At the boundary after an interrupt sequence (ir $00): which one. */
static void note_interrupt(mh_dbg *dbg, uint16_t pc)
{
    const mh_cpu6502 *cpu = dbg->cpu_state;
    uint16_t nmi = (uint16_t)(dbg_peek(dbg, 0xFFFA) | dbg_peek(dbg, 0xFFFB) << 8);
    uint16_t reset = (uint16_t)(dbg_peek(dbg, 0xFFFC) | dbg_peek(dbg, 0xFFFD) << 8);
    uint8_t pushed_p = dbg_peek(dbg, (uint16_t)(0x100 + (uint8_t)(cpu->s + 1)));
    /* a reset pushes nothing (its three stack cycles are reads) */
    uint32_t which = pc == nmi ? 1 : pc == reset ? 3 : (pushed_p & MH_CPU6502_FLAG_B) ? 2 : 0;
    push_event(dbg, MH_TRACE_EV_TAKEN, "cpu", which, pc);
}

static void finish_run(dbg_counter *k, uint64_t now)
{
    uint64_t n = now - k->begin;
    mh_cycle_counter *s = &k->stats;
    if (s->runs == 0 || n < s->min) s->min = n;
    if (n > s->max) s->max = n;
    s->total += n;
    s->last = n;
    s->runs++;
    k->active = 0;
}

static void count_cycles(mh_dbg *dbg, dbg_traces *t, uint16_t pc)
{
    const mh_cpu6502 *cpu = dbg->cpu_state;
    uint64_t now = now_cycles(dbg);
    for (size_t i = 0; i < t->counter_count; i++) {
        dbg_counter *k = &t->counters[i];
        if (k->active) {
            if (k->stats.end_set ? pc == k->stats.end
                                 : (cpu->ir == OP_RTS || cpu->ir == OP_RTI) &&
                                       (uint8_t)(cpu->s - k->entry_s) >= 1 &&
                                       (uint8_t)(cpu->s - k->entry_s) < 0x80)
                finish_run(k, now);
        }
        if (!k->active && pc == k->stats.start) {
            k->active = 1;
            k->begin = now;
            k->entry_s = cpu->s;
        }
    }
}

/* Keeps where a recorded frame began (time travel takes frames back by
 * it); without memory the trace only cannot be taken back that far. */
static void note_frame_start(dbg_traces *t, uint64_t cycle)
{
    if (t->frame_count == t->frame_capacity) {
        size_t want = t->frame_capacity ? t->frame_capacity * 2 : 64;
        uint64_t *grown = realloc(t->frame_starts, want * sizeof *grown);
        if (!grown) return;
        t->frame_starts = grown;
        t->frame_capacity = want;
    }
    t->frame_starts[t->frame_count++] = cycle;
}

void dbg_trace_sync(mh_dbg *dbg, uint16_t pc)
{
    dbg_traces *t = dbg->traces;
    if (!t) return;
    if (t->events.data && dbg->cpu_state->ir == 0x00)
        note_interrupt(dbg, pc);
    if (t->counter_count) count_cycles(dbg, t, pc);
    if (dbg->trace_writes && dbg->video) {
        uint16_t line, cycle;
        beam(dbg, &line, &cycle);
        int wrapped = line < t->last_line;
        t->last_line = line;
        if (!wrapped) return;
        if (t->ft.state == MH_FTRACE_WAITING) {
            t->ft.state = MH_FTRACE_RECORDING;
            t->ft.first_cycle = now_cycles(dbg);
            note_frame_start(t, t->ft.first_cycle);
        } else if (note_frame_start(t, now_cycles(dbg)),
                   ++t->ft.frames_done >= t->ft.frames && t->ft.frames) {
            t->ft.state = MH_FTRACE_DONE;
            t->ft.last_cycle = now_cycles(dbg);
            dbg->trace_writes = 0; /* the hooks stay until the run ends */
        }
    }
}

void dbg_trace_write(mh_dbg *dbg, uint16_t address, uint8_t old, uint8_t value)
{
    dbg_traces *t = dbg->traces;
    if (t->ft.state != MH_FTRACE_RECORDING || (t->map && !t->map[address])) return;
    uint16_t pc = dbg->cpu_state->ipc;
    if (pc < t->pc_start || pc > t->pc_end) return;
    if (t->ft.recorded >= t->capacity) {
        t->ft.dropped++;
        return;
    }
    mh_write_record *r = &t->records[t->ft.recorded++];
    r->cycle = now_cycles(dbg);
    r->pc = pc;
    r->address = address;
    r->old_value = old;
    r->value = value;
    beam(dbg, &r->line, &r->line_cycle);
}

/* ---- frame trace ---- */

mh_status mh_dbg_frame_trace_start(mh_dbg *dbg, const mh_frame_trace_spec *spec, char *error,
                                   size_t error_size)
{
    if (!spec || spec->struct_size < sizeof *spec || spec->pc_start > spec->pc_end) {
        snprintf(error, error_size, "frame trace: no valid spec (pc_start <= pc_end)");
        return MH_ERR_INVALID_ARGUMENT;
    }
    dbg_traces *t = traces_of(dbg);
    if (!t) return MH_ERR_NO_MEMORY;
    size_t capacity = spec->capacity ? spec->capacity : FTRACE_DEFAULT;
    if (capacity > DBG_RING_MAX) capacity = DBG_RING_MAX;
    mh_write_record *records = malloc(capacity * sizeof *records);
    uint8_t *map = spec->address_map ? malloc(65536) : NULL;
    if (!records || (spec->address_map && !map)) {
        free(records);
        free(map);
        snprintf(error, error_size, "frame trace: out of memory for %zu records", capacity);
        return MH_ERR_NO_MEMORY;
    }
    if (map) memcpy(map, spec->address_map, 65536);
    free(t->records);
    free(t->map);
    t->records = records;
    t->map = map;
    t->capacity = capacity;
    t->pc_start = spec->pc_start;
    t->pc_end = spec->pc_end;
    t->ft = (mh_frame_trace_status){sizeof t->ft, MH_FTRACE_WAITING, spec->frames, 0, 0, 0, 0, 0};
    t->frame_count = 0;
    uint16_t line, cycle;
    beam(dbg, &line, &cycle);
    t->last_line = line; /* recording starts when the beam next wraps to the top */
    if (!dbg->video) {
        t->ft.state = MH_FTRACE_RECORDING;
        t->ft.first_cycle = now_cycles(dbg);
        note_frame_start(t, t->ft.first_cycle);
    }
    update_flags(dbg);
    return MH_OK;
}

void mh_dbg_frame_trace_stop(mh_dbg *dbg)
{
    dbg_traces *t = dbg->traces;
    if (!t || t->ft.state == MH_FTRACE_OFF || t->ft.state == MH_FTRACE_DONE) return;
    if (t->ft.state == MH_FTRACE_RECORDING) t->ft.last_cycle = now_cycles(dbg);
    t->ft.state = MH_FTRACE_DONE;
    update_flags(dbg);
}

size_t mh_dbg_frame_trace_copy(mh_dbg *dbg, size_t skip, mh_write_record *out, size_t max,
                               mh_frame_trace_status *status)
{
    dbg_traces *t = dbg->traces;
    if (status && status->struct_size >= sizeof *status) {
        *status = t ? t->ft : (mh_frame_trace_status){sizeof *status, 0, 0, 0, 0, 0, 0, 0};
        if (t && t->ft.state == MH_FTRACE_RECORDING) status->last_cycle = now_cycles(dbg);
    }
    if (!t || !out || skip >= t->ft.recorded) return 0;
    size_t n = t->ft.recorded - skip < max ? (size_t)(t->ft.recorded - skip) : max;
    memcpy(out, t->records + skip, n * sizeof *out);
    return n;
}

/* ---- events ---- */

mh_status mh_dbg_events_config(mh_dbg *dbg, int64_t size, int64_t *now)
{
    mh_status status = MH_OK;
    if (size >= 0) {
        dbg_traces *t = traces_of(dbg);
        if (!t) return MH_ERR_NO_MEMORY;
        int has_sink = dbg->cpu->struct_size > offsetof(mh_cpu6502_iface, set_event_sink) &&
                       dbg->cpu->set_event_sink;
        if (dbg_ring_resize(&t->events, sizeof(mh_trace_event), (size_t)size) != 0)
            status = MH_ERR_NO_MEMORY;
        if (has_sink)
            dbg->cpu->set_event_sink(dbg->cpu_ctx, t->events.data ? on_chip_event : NULL, dbg);
        update_flags(dbg);
    }
    if (now) *now = dbg->traces ? (int64_t)dbg_ring_capacity(&dbg->traces->events) : 0;
    return status;
}

size_t mh_dbg_events_copy(mh_dbg *dbg, size_t skip, mh_trace_event *out, size_t max)
{
    if (!dbg->traces || !out) return 0;
    return dbg_ring_copy_newest(&dbg->traces->events, skip, out, max);
}

/* ---- cycle counters ---- */

mh_status mh_dbg_counter_add(mh_dbg *dbg, uint16_t start, uint16_t end, int end_set, char *error,
                             size_t error_size)
{
    dbg_traces *t = traces_of(dbg);
    if (!t) return MH_ERR_NO_MEMORY;
    for (size_t i = 0; i < t->counter_count; i++) {
        const mh_cycle_counter *s = &t->counters[i].stats;
        if (s->start == start && s->end_set == (end_set != 0) && (!end_set || s->end == end))
            return MH_OK;
    }
    if (t->counter_count == DBG_COUNTERS_MAX) {
        snprintf(error, error_size, "cycle counters: all %d are in use (trace_cycles_reset "
                 "with remove frees them)", DBG_COUNTERS_MAX);
        return MH_ERR_STATE;
    }
    dbg_counter *k = &t->counters[t->counter_count++];
    memset(k, 0, sizeof *k);
    k->stats.struct_size = sizeof k->stats;
    k->stats.start = start;
    k->stats.end = end_set ? end : 0;
    k->stats.end_set = end_set != 0;
    update_flags(dbg);
    return MH_OK;
}

size_t mh_dbg_counters_copy(mh_dbg *dbg, mh_cycle_counter *out, size_t max)
{
    dbg_traces *t = dbg->traces;
    if (!t) return 0;
    for (size_t i = 0; out && i < t->counter_count && i < max; i++) out[i] = t->counters[i].stats;
    return t->counter_count;
}

void mh_dbg_counters_reset(mh_dbg *dbg, int index, int remove)
{
    dbg_traces *t = dbg->traces;
    if (!t) return;
    size_t kept = 0;
    for (size_t i = 0; i < t->counter_count; i++) {
        dbg_counter *k = &t->counters[i];
        int chosen = index < 0 || (size_t)index == i;
        if (chosen && remove) continue;
        if (chosen) {
            mh_cycle_counter keep = k->stats;
            memset(k, 0, sizeof *k);
            k->stats = (mh_cycle_counter){sizeof keep, keep.start, keep.end, keep.end_set,
                                          0, 0, 0, 0, 0};
        }
        t->counters[kept++] = *k;
    }
    t->counter_count = kept;
    update_flags(dbg);
}

/* ---- time travel ---- */

void dbg_traces_mute_events(mh_dbg *dbg, int muted)
{
    if (dbg->traces) dbg->traces->events_muted = muted != 0;
}

/* The frame trace back to `landed`: its writes at or after it and the
 * frames that began after it are gone; a trace that ended after it records
 * again (re-execution, or a different future, fills it in). */
static void frame_trace_back(mh_dbg *dbg, dbg_traces *t, uint64_t landed)
{
    if (t->ft.state == MH_FTRACE_OFF) return;
    size_t kept = (size_t)t->ft.recorded;
    while (kept && t->records[kept - 1].cycle >= landed) kept--;
    /* writes are dropped only once the capacity is used, after every kept one */
    if (kept < t->ft.recorded) t->ft.dropped = 0;
    t->ft.recorded = kept;
    if (t->ft.state == MH_FTRACE_WAITING) return;
    if (t->ft.state == MH_FTRACE_DONE && t->ft.last_cycle <= landed) return;
    while (t->frame_count && t->frame_starts[t->frame_count - 1] > landed) {
        t->frame_count--;
        if (t->ft.frames_done) t->ft.frames_done--;
    }
    if (t->frame_count == 0) {
        /* it had not begun at the target: it waits for the next frame start */
        t->ft.state = dbg->video ? MH_FTRACE_WAITING : MH_FTRACE_RECORDING;
        t->ft.frames_done = 0;
        t->ft.first_cycle = dbg->video ? 0 : landed;
        if (!dbg->video) note_frame_start(t, landed);
    } else {
        t->ft.state = MH_FTRACE_RECORDING;
    }
    t->ft.last_cycle = 0;
    uint16_t line, cycle;
    beam(dbg, &line, &cycle);
    t->last_line = line;
}

void dbg_traces_travelled(mh_dbg *dbg, uint64_t landed)
{
    dbg_traces *t = dbg->traces;
    if (!t) return;
    t->events_muted = 0;
    /* Events from cycle `landed` on are the abandoned future. An interrupt
     * taken at `landed` is the past: its handler's first instruction is
     * next, and resuming starts it without the sync hook that logs it. */
    size_t n = 0;
    mh_trace_event e;
    while (dbg_ring_copy_newest(&t->events, n, &e, 1) == 1 &&
           (e.cycle > landed || (e.cycle == landed && e.kind != MH_TRACE_EV_TAKEN)))
        n++;
    dbg_ring_drop_newest(&t->events, n);
    frame_trace_back(dbg, t, landed);
    /* a counted run that began after the target never began; the counters'
     * statistics stay (they count what ran, re-execution included) */
    for (size_t i = 0; i < t->counter_count; i++)
        if (t->counters[i].active && t->counters[i].begin >= landed) t->counters[i].active = 0;
    update_flags(dbg);
}
