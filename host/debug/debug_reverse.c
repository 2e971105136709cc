/* debug_reverse.c - reverse-continue (issue #18; debug_travel_internal.h):
 * the last place before now where the forward engine would have stopped.
 *
 * It walks the snapshot ring back interval by interval: restores an entry
 * and re-executes to the next entry (or to now) with hooks of its own that
 * judge every breakpoint and watchpoint as debug_hooks.c does (exec before
 * the instruction; read, write and change after the access, stopping at
 * the next instruction boundary; conditions evaluated with the machine as
 * it is at that point; enabled, temporary, tracepoints), but count the hits
 * instead of stopping. The newest interval with a hit that counts holds the
 * answer; the machine is then put back as it was, and mh_travel_go() lands
 * there exactly by re-executing from the same entry the same way.
 *
 * Ignore counts going back: a breakpoint with ignore count N passes over
 * its N latest hits before now (counted as forward counts them: an exec
 * breakpoint once per instruction start, a watchpoint once per matching
 * access); the (N+1)-th latest stops. Hit counters are left as they are.
 * Plugin check breakpoints (raster, sprite collision) keep state of their
 * own and are not judged backwards.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug_internal.h"
#include "debug_trace.h"
#include "debug_travel_internal.h"
#include "session_internal.h"

/* Where a hit stops, in the interval's re-execution from its entry. */
typedef struct rev_hit {
    uint64_t insns;  /* instruction starts before the stop */
    uint64_t access; /* a watchpoint's access (1: the first after the entry); 0: exec */
    uint64_t order;  /* accesses before the stop (orders hits within an instruction) */
    uint64_t cycle;  /* the engine's cycle count at the stop */
    uint64_t into;   /* CPU cycles from the start of the last instruction
                      * started before the stop to the stop */
    dbg_access what; /* a watchpoint's: the access */
} rev_hit;

/* A breakpoint's part in the search. */
typedef struct rev_bp {
    dbg_bp *bp;
    uint64_t skip;    /* hits still to pass over going back (ignore count) */
    uint64_t count;   /* hits in the interval scanned */
    uint64_t unended; /* of them, in the instruction still running (no boundary yet) */
    uint64_t want;    /* the hit to keep (1-based, forward order); 0: the latest */
    int kept;         /* hit holds the kept one */
    int waiting;      /* the kept hit waits for its instruction boundary */
    rev_hit hit;
} rev_bp;

typedef struct rev_scan {
    mh_dbg *dbg;
    mh_cpu6502 *cpu;
    rev_bp *bps;
    size_t count;
    int watching;      /* some watchpoint: the access hook is needed */
    int open;          /* a watchpoint hit in the instruction running (it waits
                        * for the boundary where it stops) */
    uint64_t insns;    /* instruction starts since the entry */
    uint64_t accesses; /* CPU accesses since the entry */
    uint64_t started;  /* the CPU's cycles when the last instruction started */
    uint8_t *shadow;   /* [65536] what each write/change-watched byte read before a write */
} rev_scan;

static uint64_t cycles_now(const rev_scan *r)
{
    return r->cpu->cycles + r->dbg->cycle_offset;
}

/* The instruction boundary where the open watchpoint hits stop. */
static void reach_boundary(rev_scan *r)
{
    for (size_t i = 0; i < r->count; i++) {
        rev_bp *b = &r->bps[i];
        b->unended = 0;
        if (!b->waiting) continue;
        b->waiting = 0;
        b->hit.insns = r->insns;
        b->hit.order = r->accesses;
        b->hit.cycle = cycles_now(r);
        b->hit.into = r->cpu->cycles - r->started;
    }
    r->open = 0;
}

/* b matched: counts the hit when its condition holds, keeps it when it is
 * the one wanted. access: 0 for an exec breakpoint. */
static void judge(rev_scan *r, rev_bp *b, uint64_t access)
{
    if (b->bp->condition && mh_expr_eval(b->bp->condition, dbg_fetch_name, r->dbg) == 0) return;
    b->count++;
    if (access) {
        b->unended++;
        r->open = 1;
    }
    if (b->want && b->count != b->want) return;
    b->kept = 1;
    b->hit.access = access;
    if (access) b->hit.what = r->dbg->current;
    b->waiting = access != 0;
    if (access) return;
    b->hit.insns = r->insns;
    b->hit.order = r->accesses;
    b->hit.cycle = cycles_now(r);
    b->hit.into = 0;
}

static void judge_exec(rev_scan *r, uint16_t pc)
{
    for (size_t i = 0; i < r->count; i++) {
        rev_bp *b = &r->bps[i];
        if ((b->bp->kinds & MH_BP_EXEC) && pc >= b->bp->start && pc <= b->bp->end) judge(r, b, 0);
    }
}

static int rev_sync(void *user, uint16_t pc)
{
    rev_scan *r = user;
    if (r->open) reach_boundary(r);
    if (r->dbg->exec_map[pc]) judge_exec(r, pc);
    r->insns++;
    r->started = r->cpu->cycles;
    return 0;
}

static int rev_access(void *user, uint16_t address, uint8_t value, int write)
{
    rev_scan *r = user;
    /* an opcode fetch (or an interrupt's first cycle): a boundary, where
     * a watchpoint's stop falls (before any interrupt taken there) */
    if (r->open && r->cpu->state == MH_CPU6502_STATE_FETCH) reach_boundary(r);
    r->accesses++;
    mh_dbg *dbg = r->dbg;
    uint8_t watch = dbg->watch_map[address];
    if (!watch) return 0;
    uint8_t old = r->shadow[address];
    int changed = 0;
    if (write) {
        /* as the forward engine: a change is a change of what the address
         * reads (an I/O register may read otherwise than the byte written) */
        uint8_t now = value;
        dbg->mem->peek(dbg->mem_ctx, 0, address, &now, 1);
        changed = (watch & WATCH_CHANGE) && old != now;
        r->shadow[address] = now;
        if (!(watch & WATCH_WRITE) && !changed) return 0;
    } else if (!(watch & WATCH_READ)) {
        return 0;
    }
    dbg->current = (dbg_access){address, r->cpu->ipc, value, old, write};
    dbg->in_access = 1;
    for (size_t i = 0; i < r->count; i++) {
        rev_bp *b = &r->bps[i];
        const dbg_bp *bp = b->bp;
        if (address < bp->start || address > bp->end) continue;
        int match = write ? ((bp->kinds & MH_BP_WRITE) || ((bp->kinds & MH_BP_CHANGE) && changed))
                          : (bp->kinds & MH_BP_READ) != 0;
        if (match) judge(r, b, r->accesses);
    }
    dbg->in_access = 0;
    return 0;
}

/* The breakpoints the forward engine would stop for (tracepoints only
 * log; check breakpoints are the plugins'). */
static int eligible(const dbg_bp *bp)
{
    const uint32_t kinds = MH_BP_EXEC | MH_BP_READ | MH_BP_WRITE | MH_BP_CHANGE;
    return bp->enabled && !bp->dead && !(bp->flags & MH_BP_LOG_ONLY) && (bp->kinds & kinds);
}

/* Re-executes interval i (from entry i to `end`, the session's cycles)
 * with the judging hooks. last: `end` is now, so a watchpoint hit in the
 * instruction that ends there would stop now, not before: it does not
 * count. */
static mh_status scan_interval(mh_session *s, rev_scan *r, size_t i, uint64_t end, int last,
                               char *error, size_t error_size)
{
    mh_dbg *dbg = s->dbg;
    mh_status status = travel_ring_load(s->travel, i, error, error_size);
    if (status != MH_OK) return status;
    r->insns = r->accesses = 0;
    r->open = 0;
    r->started = r->cpu->cycles;
    for (size_t k = 0; k < r->count; k++) {
        rev_bp *b = &r->bps[k];
        b->count = b->unended = 0;
        b->kept = b->waiting = 0;
        if (b->bp->kinds & (MH_BP_WRITE | MH_BP_CHANGE))
            dbg->mem->peek(dbg->mem_ctx, 0, (uint16_t)b->bp->start, r->shadow + b->bp->start,
                           b->bp->end - b->bp->start + 1);
    }
    /* A CPU stopped before an instruction starts it without the sync hook
     * (sync_skip); replay() counts that start too. It runs first unless an
     * interrupt is due. */
    mh_cpu6502 *cpu = r->cpu;
    if (mh_cpu6502_at_boundary(cpu) && cpu->sync_skip && cpu->ad == cpu->pc && !cpu->jammed) {
        if (!cpu->poll_prev && dbg->exec_map[cpu->pc]) judge_exec(r, cpu->pc);
        r->insns++;
    }
    mh_cpu6502_set_access_reads(dbg->cpu_state, 1, NULL); /* counts every access */
    dbg->cpu->set_debug_hooks(dbg->cpu_ctx, rev_sync, r->watching ? rev_access : NULL, r);
    const mh_machine_desc *m = &s->machine->desc;
    uint64_t now = travel_ring_cycle(s->travel, i);
    /* the same slices as replay() runs, so that landing re-executes alike */
    uint64_t chunk = s->clock_hz / 50 ? s->clock_hz / 50 : 20000;
    while (status == MH_OK && now < end) {
        mh_run_result result = {sizeof result, 0, MH_RUN_BUDGET, 0};
        status = m->run(s->instance, end - now < chunk ? end - now : chunk, &result);
        now += result.cycles;
        if (result.stop == MH_RUN_EXIT || result.cycles == 0) break;
    }
    dbg->cpu->set_debug_hooks(dbg->cpu_ctx, NULL, NULL, dbg);
    dbg->hooks_sync = dbg->hooks_access = 0;
    if (status != MH_OK) snprintf(error, error_size, "re-execution failed: %s",
                                  mh_status_name(status));
    if (!r->open) return status;
    if (!last) {
        reach_boundary(r);
        return status;
    }
    for (size_t k = 0; k < r->count; k++) {
        rev_bp *b = &r->bps[k];
        b->count -= b->unended;
        if (b->waiting) b->kept = b->waiting = 0;
    }
    r->open = 0;
    return status;
}

/* Whether a stops after b (the same place: the watchpoint, whose stop
 * comes first, and of two the first access). */
static int later(const rev_hit *a, const rev_hit *b)
{
    if (a->insns != b->insns) return a->insns > b->insns;
    if (a->order != b->order) return a->order > b->order;
    if (!a->access != !b->access) return a->access != 0;
    return a->access && a->access < b->access;
}

/* After scanning interval i: which breakpoints stop in it (setting want
 * where the kept hit is not the one); 1 when any does, 2 when a second
 * pass must find the wanted hits. Passes over the hits that do not. */
static int settle_interval(rev_scan *r)
{
    int any = 0, again = 0;
    for (size_t k = 0; k < r->count; k++) {
        rev_bp *b = &r->bps[k];
        if (b->count <= b->skip) {
            b->skip -= b->count;
            b->want = 0;
            continue;
        }
        uint64_t wanted = b->count - b->skip;
        any = 1;
        if (wanted != b->count || !b->kept) again = 1;
        b->want = wanted;
    }
    return again ? 2 : any;
}

/* Where the write log is cut at the landing (records at or after it go):
 * the engine stamps its records with CPU cycles counted on from the last
 * run slice's start, which on the Plus/4 (session cycles are TED ticks)
 * drift from a count from the ring entry. The history's record of the
 * last instruction started before the stop has the stamp of that clock;
 * the stop lies `into` CPU cycles after it. Else the count from the entry
 * (equal where session cycles are CPU cycles). */
static uint64_t write_log_cut(const mh_dbg *dbg, int numbered, uint64_t seq, const rev_hit *hit)
{
    if (hit->access && hit->insns == 0) return hit->cycle; /* no start since the entry */
    uint64_t last = hit->access ? seq - 1 : seq; /* exec: the stop is that start */
    const dbg_ring *history = &dbg->history;
    mh_insn_record record;
    if (!numbered || !history->data || last >= history->next ||
        dbg_ring_copy_newest(history, (size_t)(history->next - 1 - last), &record, 1) != 1)
        return hit->cycle;
    return record.cycle + hit->into;
}

static mh_status restore_now(mh_session *s, const travel_state *state, uint64_t now,
                             mh_status status, char *error, size_t error_size)
{
    char why[256] = "";
    mh_status back = travel_state_load(s->travel, state, now, why, sizeof why);
    if (back != MH_OK) {
        snprintf(error, error_size, "could not put the machine back after the search: %s", why);
        return back;
    }
    return status;
}

static mh_status search(mh_session *s, rev_scan *r, uint64_t now, travel_target *target,
                        uint32_t *bp_id, char *error, size_t error_size)
{
    mh_travel *t = s->travel;
    size_t entries = travel_ring_count(t);
    for (size_t i = entries; i-- > 0;) {
        uint64_t start = travel_ring_cycle(t, i);
        uint64_t end = i + 1 < entries ? travel_ring_cycle(t, i + 1) : now;
        if (end > now) end = now;
        if (start >= end) continue;
        int last = end == now;
        for (size_t k = 0; k < r->count; k++) r->bps[k].want = 0;
        mh_status status = scan_interval(s, r, i, end, last, error, error_size);
        if (status != MH_OK) return status;
        int found = settle_interval(r);
        if (!found) continue;
        if (found == 2) {
            /* the kept (latest) hit is not the one: once more for it */
            status = scan_interval(s, r, i, end, last, error, error_size);
            if (status != MH_OK) return status;
        }
        const rev_bp *best = NULL;
        for (size_t k = 0; k < r->count; k++) {
            const rev_bp *b = &r->bps[k];
            if (b->want && b->kept && (!best || later(&b->hit, &best->hit))) best = b;
        }
        if (!best) {
            snprintf(error, error_size, "re-execution of the interval from cycle %llu did not "
                     "repeat its hits (the machine ran otherwise)", (unsigned long long)start);
            return MH_ERR_STATE;
        }
        memset(target, 0, sizeof *target);
        target->by_insn = 1;
        target->entry = i + 1;
        int numbered = 0;
        target->seq = travel_ring_insn_seq(t, i, &numbered) + best->hit.insns;
        target->cycle = write_log_cut(s->dbg, numbered, target->seq, &best->hit);
        target->access_stop = best->hit.access;
        target->access = best->hit.what;
        *bp_id = best->bp->id;
        return MH_OK;
    }
    snprintf(error, error_size, "no enabled breakpoint or watchpoint would have stopped (with "
             "its condition and ignore count) between cycle %llu, as far back as the snapshot "
             "ring reaches, and now (cycle %llu); the machine is where it was",
             (unsigned long long)(entries ? travel_ring_cycle(t, 0) : now),
             (unsigned long long)now);
    return MH_ERR_NOT_FOUND;
}

mh_status mh_reverse_find(mh_session *s, uint64_t now, travel_target *target, uint32_t *bp_id,
                          char *error, size_t error_size)
{
    mh_dbg *dbg = s->dbg;
    if (dbg->maps_dirty) dbg_arm_hooks(dbg);
    rev_scan r = {.dbg = dbg, .cpu = dbg->cpu_state};
    r.bps = calloc(dbg->bps.count ? dbg->bps.count : 1, sizeof *r.bps);
    r.shadow = malloc(65536);
    travel_state now_state = {0};
    mh_status status = MH_ERR_NO_MEMORY;
    if (!r.bps || !r.shadow || travel_state_save(s->travel, &now_state) != MH_OK) {
        snprintf(error, error_size, "out of memory for the search");
        goto done;
    }
    for (size_t i = 0; i < dbg->bps.count; i++) {
        dbg_bp *bp = dbg->bps.items[i];
        if (!eligible(bp)) continue;
        r.bps[r.count++] = (rev_bp){.bp = bp, .skip = bp->ignore_count};
        if (bp->kinds & (MH_BP_READ | MH_BP_WRITE | MH_BP_CHANGE)) r.watching = 1;
    }
    if (!r.count) {
        snprintf(error, error_size, "no enabled breakpoint or watchpoint to look for "
                 "(tracepoints and check breakpoints are not looked for)");
        status = MH_ERR_NOT_FOUND;
        goto done;
    }
    dbg_events_quiet(dbg, 1); /* the past's chip events are in the log already */
    status = search(s, &r, now, target, bp_id, error, error_size);
    dbg_events_quiet(dbg, 0);
    status = restore_now(s, &now_state, now, status, error, error_size);
    /* the engine's hooks as they were (a snapshot of the CPU holds them) */
    dbg_arm_hooks(dbg);
done:
    free(now_state.blob);
    free(r.shadow);
    free(r.bps);
    return status;
}

mh_dbg_reason mh_reverse_landed(mh_session *s, const travel_target *target, uint32_t bp_id)
{
    mh_dbg *dbg = s->dbg;
    mh_dbg_reason reason = target->access_stop ? MH_DBG_WATCHPOINT : MH_DBG_BREAKPOINT;
    dbg->pending = reason;
    dbg->pending_bp = NULL;
    dbg->pending_bp_id = bp_id;
    dbg->pending_detail[0] = '\0';
    dbg->pending_has_access = target->access_stop != 0;
    dbg->pending_access = target->access;
    for (size_t i = 0; i < dbg->bps.count; i++) {
        dbg_bp *bp = dbg->bps.items[i];
        if (bp->id != bp_id || bp->dead) continue;
        dbg->pending_bp = bp;
        if (bp->flags & MH_BP_TEMPORARY) {
            bp->dead = 1;
            dbg->maps_dirty = 1;
        }
    }
    return reason;
}
