/* debug_travel.c - time travel (debug_travel.h): the snapshot ring, exact
 * re-execution to a cycle, and the mh.debug/1 travel calls (step back,
 * rewind to a cycle, frames back or the previous stop, reverse-continue,
 * whose search is debug_reverse.c's). */
#include "debug_travel.h"
#include "debug_travel_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "debug_internal.h"
#include "debug_trace.h"
#include "hostctx.h"
#include "log.h"
#include "mcphost/machine.h"
#include "session_internal.h"

typedef struct travel_entry {
    uint64_t cycle;   /* session cycles when it was taken */
    int key;          /* 1: zlib of the blob; 0: zero-run code of the XOR with the entry before */
    uint8_t *data;
    size_t size;      /* bytes of data */
    size_t raw_size;  /* bytes of the blob */
    size_t code_size; /* a delta: bytes of the zero-run code before zlib */
    /* instructions the history ring had recorded when it was taken (the
     * next instruction to start is number insn_seq); valid when seq_ok */
    uint64_t insn_seq;
    int seq_ok;
    /* the machine's pending input holds then (mh.input/1 hold_state_save:
     * not in its snapshot), malloc'ed; NULL when none was pending */
    uint8_t *holds;
    size_t holds_size;
} travel_entry;

#define TRAVEL_STOPS 64u
#define TRAVEL_SLOTS 1024u /* more than 60 s at the default interval, with room */

struct mh_travel {
    mh_session *s;
    const mh_snapshot_iface *snap;
    void *snap_ctx;
    const mh_input_iface *input; /* with hold_state_save/load, or NULL */
    void *input_ctx;
    int on;
    uint64_t hz;                 /* session cycles per second */
    uint64_t interval;           /* cycles between entries */
    uint64_t keep;               /* cycles of history to keep */
    size_t max_bytes;            /* the most the entries may hold */
    uint64_t next_due;           /* session cycles of the next entry */
    travel_entry ring[TRAVEL_SLOTS];
    size_t head, count;          /* oldest slot, entries held */
    size_t bytes;                /* sum of the entries' data */
    double entry_cost;           /* bytes per entry lately (keys spread over their group) */
    unsigned since_key;          /* deltas since the newest key */
    uint8_t *last;               /* the newest entry's blob, for the next delta */
    size_t last_size;
    uint64_t stops[TRAVEL_STOPS]; /* cycles of recent stops (ring) */
    uint64_t stop_seqs[TRAVEL_STOPS]; /* their instruction numbers (UINT64_MAX: none) */
    size_t stop_next;
    uint64_t replay_left;        /* instructions still to start in a counted replay */
    uint64_t replay_started;     /* instructions the last replay started */
    int replay_hit;              /* the counted replay reached its instruction */
    uint64_t replay_accesses;    /* CPU accesses the replay made (with an access stop) */
    uint64_t replay_access_stop; /* the access whose instruction ends it; 0: none */
};

static travel_entry *entry_at(mh_travel *t, size_t i)
{
    return &t->ring[(t->head + i) % TRAVEL_SLOTS];
}

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* ---- the delta code: XOR with the previous blob, as (zero run, literal
 * length, literal bytes) triples with LEB128 lengths ---- */

static size_t put_len(uint8_t *out, size_t n)
{
    size_t i = 0;
    do {
        out[i++] = (uint8_t)((n & 0x7F) | (n > 0x7F ? 0x80 : 0));
        n >>= 7;
    } while (n);
    return i;
}

static int get_len(const uint8_t *in, size_t size, size_t *at, size_t *n)
{
    *n = 0;
    for (unsigned shift = 0; *at < size && shift < 63; shift += 7) {
        uint8_t b = in[(*at)++];
        *n |= (size_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) return 0;
    }
    return -1;
}

/* The first index from i on where now and old differ (size when none).
 * Eight bytes at a time: most of a snapshot is unchanged from the last. */
static size_t first_difference(const uint8_t *now, const uint8_t *old, size_t i, size_t size)
{
    while (size - i >= 8) {
        uint64_t a, b;
        memcpy(&a, now + i, 8);
        memcpy(&b, old + i, 8);
        if (a != b) break;
        i += 8;
    }
    while (i < size && now[i] == old[i]) i++;
    return i;
}

/* Codes new XOR old (both size bytes) into a malloc'ed buffer. */
static uint8_t *delta_encode(const uint8_t *now, const uint8_t *old, size_t size, size_t *out_size)
{
    uint8_t *out = malloc(size + size / 4 + 32);
    if (!out) return NULL;
    size_t o = 0, i = 0;
    while (i < size) {
        size_t zero = first_difference(now, old, i, size);
        /* literal until 8 equal bytes in a row (a shorter run costs more to code) */
        size_t end = zero, same = 0;
        while (end < size && same < 8) {
            same = now[end] == old[end] ? same + 1 : 0;
            end++;
        }
        if (same) end -= same;
        o += put_len(out + o, zero - i);
        o += put_len(out + o, end - zero);
        for (size_t k = zero; k < end; k++) out[o++] = now[k] ^ old[k];
        i = end;
    }
    *out_size = o;
    return out;
}

/* Applies a delta to buf (size bytes) in place; -1 when it does not fit. */
static int delta_apply(uint8_t *buf, size_t size, const uint8_t *code, size_t code_size)
{
    size_t at = 0, i = 0;
    while (at < code_size) {
        size_t zero, lit;
        if (get_len(code, code_size, &at, &zero) || get_len(code, code_size, &at, &lit)) return -1;
        if (zero > size - i || lit > size - i - zero || lit > code_size - at) return -1;
        i += zero;
        for (size_t k = 0; k < lit; k++) buf[i++] ^= code[at++];
    }
    return 0;
}

/* ---- the ring ---- */

static void entry_free(mh_travel *t, travel_entry *e)
{
    t->bytes -= e->size + e->holds_size;
    free(e->holds);
    free(e->data);
    memset(e, 0, sizeof *e);
}

static void drop_newest(mh_travel *t)
{
    entry_free(t, entry_at(t, t->count - 1));
    t->count--;
}

/* Drops the oldest key group while the next group still reaches back
 * `keep` cycles from the newest entry, or the ring is over its bytes. */
static void evict(mh_travel *t)
{
    for (;;) {
        size_t next_key = 1;
        while (next_key < t->count && !entry_at(t, next_key)->key) next_key++;
        if (next_key >= t->count) return; /* one group: keep it */
        uint64_t newest = entry_at(t, t->count - 1)->cycle;
        int old_enough = newest - entry_at(t, next_key)->cycle >= t->keep;
        if (!old_enough && t->bytes <= t->max_bytes && t->count < TRAVEL_SLOTS - 1) return;
        for (size_t i = 0; i < next_key; i++) entry_free(t, entry_at(t, i));
        t->head = (t->head + next_key) % TRAVEL_SLOTS;
        t->count -= next_key;
    }
}

static void ring_clear(mh_travel *t)
{
    while (t->count) drop_newest(t);
    t->head = 0;
    free(t->last);
    t->last = NULL;
    t->last_size = 0;
    t->since_key = 0;
    t->entry_cost = 0;
}

/* Spaces the entries so that the ring reaches its seconds back within its
 * bytes and slots: a machine whose state changes much (a scrolling
 * screen, sound) gets fewer, further apart entries (between 0.2 s and 2 s
 * of emulated time). Going back is then more re-execution, never less
 * reach. The cost of an entry is the larger of the ring's average and
 * what entries cost lately (so a machine that starts changing much widens
 * the gap at once, not once its cheap old entries are gone), and the ring
 * must hold one key group more than the seconds span: eviction drops a
 * whole group. */
static void adapt_interval(mh_travel *t)
{
    if (t->count < TRAVEL_KEY_EVERY) return;
    uint64_t hz = t->hz;
    double per_entry = (double)t->bytes / (double)t->count;
    if (t->entry_cost > per_entry) per_entry = t->entry_cost;
    double entries = (double)t->max_bytes * 0.9 / per_entry;
    if (entries > TRAVEL_SLOTS * 0.9) entries = TRAVEL_SLOTS * 0.9;
    entries -= TRAVEL_KEY_EVERY;
    if (entries < TRAVEL_KEY_EVERY) entries = TRAVEL_KEY_EVERY;
    uint64_t want = (uint64_t)((double)t->keep / entries);
    if (want < hz / 5) want = hz / 5;
    if (want > hz * 2) want = hz * 2;
    t->interval = want;
}

/* The machine's pending holds into holds (MH_INPUT_HOLD_STATE_MAX bytes);
 * their size, 0 when none (or the machine keeps none). */
static size_t holds_now(const mh_travel *t, uint8_t *holds)
{
    size_t size = 0;
    if (!t->input || t->input->hold_state_save(t->input_ctx, holds, MH_INPUT_HOLD_STATE_MAX,
                                               &size) != MH_OK)
        return 0;
    return size;
}

/* 1 when the machine's pending holds differ from the newest entry's. */
static int holds_changed(mh_travel *t)
{
    uint8_t now[MH_INPUT_HOLD_STATE_MAX];
    size_t size = holds_now(t, now);
    const travel_entry *e = t->count ? entry_at(t, t->count - 1) : NULL;
    if (!e) return size != 0;
    return size != e->holds_size || (size && memcmp(now, e->holds, size) != 0);
}

/* Puts back the holds pending at a restored state, so re-execution ends
 * them where they ended. */
static void load_holds(mh_travel *t, const uint8_t *holds, size_t size)
{
    if (t->input && t->input->hold_state_load(t->input_ctx, holds, size) != MH_OK)
        mh_log(MH_LOG_WARNING, t->s->name, "time travel: the machine refused the input holds "
               "of its ring snapshot; the holds stay as they were");
}

/* Stores blob (taken over) as the newest entry. */
static void store(mh_travel *t, uint64_t cycles, void *blob, size_t size)
{
    const dbg_ring *history = &t->s->dbg->history;
    /* a history ring that was resized counts from 0 again: older numbers
     * no longer match */
    if (t->count && entry_at(t, t->count - 1)->insn_seq > history->next)
        for (size_t i = 0; i < t->count; i++) entry_at(t, i)->seq_ok = 0;
    travel_entry e = {cycles, 0, NULL, 0, size, 0, history->next, history->data != NULL, NULL, 0};
    uint8_t holds[MH_INPUT_HOLD_STATE_MAX];
    size_t holds_size = holds_now(t, holds);
    if (!t->last || t->last_size != size || t->since_key + 1 >= TRAVEL_KEY_EVERY) {
        uLongf bound = compressBound((uLong)size);
        e.data = malloc(bound);
        if (e.data && compress2(e.data, &bound, blob, (uLong)size, 1) == Z_OK) {
            e.size = bound;
            e.key = 1;
        }
    } else {
        /* the zero-run code is cheap and small; zlib then squeezes what
         * changes (sound buffers, the picture) */
        uint8_t *code = delta_encode(blob, t->last, size, &e.code_size);
        uLongf bound = code ? compressBound((uLong)e.code_size) : 0;
        e.data = code ? malloc(bound) : NULL;
        if (e.data && compress2(e.data, &bound, code, (uLong)e.code_size, 1) == Z_OK)
            e.size = bound;
        free(code);
    }
    if (!e.data || !e.size) {
        free(e.data);
        free(blob);
        return;
    }
    if (holds_size && (e.holds = malloc(holds_size)) != NULL) {
        memcpy(e.holds, holds, holds_size);
        e.holds_size = holds_size;
    }
    uint8_t *shrunk = realloc(e.data, e.size);
    if (shrunk) e.data = shrunk;
    t->since_key = e.key ? 0 : t->since_key + 1;
    free(t->last);
    t->last = blob;
    t->last_size = size;
    if (t->count >= TRAVEL_SLOTS) evict(t);
    *entry_at(t, t->count++) = e;
    t->bytes += e.size + e.holds_size;
    /* a moving average over about one key group */
    double cost = (double)(e.size + e.holds_size);
    t->entry_cost = t->entry_cost > 0 ? t->entry_cost + (cost - t->entry_cost) / TRAVEL_KEY_EVERY
                                      : cost;
    evict(t);
    adapt_interval(t);
}

static void capture(mh_travel *t, uint64_t cycles)
{
    void *blob = NULL;
    size_t size = 0;
    if (t->snap->save(t->snap_ctx, &blob, &size) == MH_OK) store(t, cycles, blob, size);
}

/* The blob of entry i, rebuilt from its key and the deltas after it
 * (malloc'ed), or NULL. */
static uint8_t *rebuild(mh_travel *t, size_t i, size_t *size)
{
    size_t key = i;
    while (key > 0 && !entry_at(t, key)->key) key--;
    travel_entry *k = entry_at(t, key);
    if (!k->key) return NULL;
    uint8_t *buf = malloc(k->raw_size);
    uLongf got = k->raw_size;
    if (!buf || uncompress(buf, &got, k->data, (uLong)k->size) != Z_OK || got != k->raw_size) {
        free(buf);
        return NULL;
    }
    for (size_t j = key + 1; j <= i; j++) {
        travel_entry *d = entry_at(t, j);
        uint8_t *code = malloc(d->code_size ? d->code_size : 1);
        uLongf code_size = d->code_size;
        int bad = !code || d->raw_size != k->raw_size ||
                  uncompress(code, &code_size, d->data, (uLong)d->size) != Z_OK ||
                  code_size != d->code_size ||
                  delta_apply(buf, d->raw_size, code, code_size) != 0;
        free(code);
        if (bad) {
            free(buf);
            return NULL;
        }
    }
    *size = k->raw_size;
    return buf;
}

mh_travel *mh_travel_new(mh_session *s)
{
    const mh_chip *chip = mh_session_service_impl.find_chip(s, MH_IFACE_SNAPSHOT, NULL);
    if (!s->dbg || !chip) return NULL;
    const mh_snapshot_iface *snap = chip->vtable;
    if (snap->struct_size < sizeof(mh_snapshot_iface)) return NULL;
    mh_travel *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->s = s;
    t->snap = snap;
    t->snap_ctx = chip->context;
    /* holds are left out of machine snapshots (a user's snapshot_load keeps
     * them); the ring keeps them beside its own */
    const mh_chip *input = mh_session_service_impl.find_chip(s, MH_IFACE_INPUT, NULL);
    const mh_input_iface *in = input ? input->vtable : NULL;
    if (in && in->struct_size >= offsetof(mh_input_iface, hold_state_load) +
                                     sizeof in->hold_state_load &&
        in->hold_state_save && in->hold_state_load) {
        t->input = in;
        t->input_ctx = input->context;
    }
    /* mcphost --time-travel on|off, else MCPHOST_TRAVEL=off (benchmarks),
     * starts sessions with the ring on or off (the mh.debug/1 travel_config
     * call switches it at run time); --time-travel-seconds/-mib size it */
    const mh_hostctx *ctx = s->set ? s->set->ctx : NULL;
    const char *env = getenv("MCPHOST_TRAVEL");
    int cli = ctx ? ctx->travel : 0;
    t->on = cli ? cli > 0 : !(env && strcmp(env, "off") == 0);
    uint64_t seconds = ctx && ctx->travel_seconds ? ctx->travel_seconds : TRAVEL_KEEP_SECONDS;
    t->max_bytes = ctx && ctx->travel_mib ? (size_t)ctx->travel_mib << 20 : TRAVEL_MAX_BYTES;
    uint64_t hz = s->clock_hz ? s->clock_hz : 1000000u;
    t->hz = hz;
    t->interval = hz / 5; /* 0.2 s: re-execution to any point stays short */
    t->keep = hz * seconds;
    t->next_due = atomic_load(&s->cycles);
    return t;
}

void mh_travel_free(mh_travel *t)
{
    if (!t) return;
    ring_clear(t);
    free(t);
}

void mh_travel_after_slice(mh_travel *t)
{
    if (!t || !t->on) return;
    uint64_t cycles = atomic_load(&t->s->cycles);
    if (cycles < t->next_due) return;
    capture(t, cycles);
    t->next_due = cycles + t->interval;
}

void mh_travel_after_job(mh_travel *t)
{
    if (!t || !t->on) return;
    void *blob = NULL;
    size_t size = 0;
    if (t->snap->save(t->snap_ctx, &blob, &size) != MH_OK) return;
    /* most jobs change nothing (reads, or the machine ran and its slices
     * were taken) */
    if (t->last && size == t->last_size && memcmp(blob, t->last, size) == 0 &&
        !holds_changed(t)) {
        free(blob);
        return;
    }
    uint64_t cycles = atomic_load(&t->s->cycles);
    store(t, cycles, blob, size);
    t->next_due = cycles + t->interval;
}

void mh_travel_note_stop(mh_travel *t, uint64_t cycles)
{
    if (!t) return;
    size_t last = (t->stop_next + TRAVEL_STOPS - 1) % TRAVEL_STOPS;
    if (t->stop_next && t->stops[last] == cycles) return;
    const dbg_ring *history = &t->s->dbg->history;
    t->stops[t->stop_next % TRAVEL_STOPS] = cycles;
    t->stop_seqs[t->stop_next % TRAVEL_STOPS] = history->data ? history->next : UINT64_MAX;
    t->stop_next++;
}

/* ---- going back ----
 *
 * A target is an instruction (its number in the history ring: exact on
 * every machine, also where session cycles are not CPU cycles, as the
 * Plus/4's TED ticks) or a cycle (rewind by cycles or frames). Going there
 * restores the newest ring entry before it and re-executes: to an
 * instruction by counting instruction starts with a sync hook of travel's
 * own; to a cycle by running that many cycles, then on to an instruction
 * boundary. The engine's hooks (breakpoints, history) are off meanwhile. */

static void fill_status(const mh_travel *t, mh_travel_result *out)
{
    out->ring_bytes = t ? t->bytes : 0;
    out->ring_entries = t ? t->count : 0;
    out->oldest_cycle = t && t->count ? t->ring[t->head].cycle : 0;
    out->interval = t && t->on ? t->interval : 0;
}

/* Drops the write records at or after `cycle`: that future is gone. (The
 * writers table keeps its pairs: it says who ever wrote.) */
static void truncate_writes(dbg_ring *ring, uint64_t cycle)
{
    size_t n = 0;
    mh_write_record r;
    while (dbg_ring_copy_newest(ring, n, &r, 1) == 1 && r.cycle >= cycle) n++;
    dbg_ring_drop_newest(ring, n);
}

static int count_sync(void *user, uint16_t pc)
{
    (void)pc;
    mh_travel *t = user;
    if (t->replay_left == 0) {
        t->replay_hit = 1;
        return 1;
    }
    t->replay_left--;
    return 0;
}

/* Reverse-continue's watchpoint landing: the CPU stops at the boundary
 * after the instruction that made this access, as a watchpoint stops. */
static int count_access(void *user, uint16_t address, uint8_t value, int write)
{
    (void)address, (void)value, (void)write;
    mh_travel *t = user;
    if (++t->replay_accesses != t->replay_access_stop) return 0;
    t->replay_hit = 1;
    return 1;
}

/* Runs the machine from where it stands to the target (hooks: travel's
 * counter or none). Returns MH_OK, or an error with error set. */
static mh_status replay(mh_travel *t, const travel_target *target, uint64_t limit, char *error,
                        size_t error_size)
{
    mh_session *s = t->s;
    mh_dbg *dbg = s->dbg;
    mh_cpu6502 *cpu = dbg->cpu_state;
    const mh_machine_desc *m = &s->machine->desc;
    uint64_t now = atomic_load(&s->cycles), start = now;
    mh_status status = MH_OK;
    t->replay_hit = 0;
    /* replay_left holds the restored entry's instruction number; a run to
     * a cycle counts the instructions it starts too (from "all") */
    uint64_t budget_insns = target->by_insn ? (target->seq >= t->replay_left
                                                   ? target->seq - t->replay_left : 0)
                                            : UINT64_MAX;
    t->replay_left = budget_insns;
    /* a CPU stopped before an instruction starts it without the sync hook
     * (sync_skip): that start counts here */
    if (mh_cpu6502_at_boundary(cpu) && cpu->sync_skip && cpu->ad == cpu->pc && !cpu->jammed) {
        if (t->replay_left == 0) t->replay_hit = 1;
        else t->replay_left--;
    }
    t->replay_accesses = 0;
    t->replay_access_stop = target->access_stop;
    mh_cpu6502_set_access_reads(dbg->cpu_state, 1, NULL); /* counts every access */
    dbg->cpu->set_debug_hooks(dbg->cpu_ctx, count_sync, target->access_stop ? count_access : NULL,
                              t);
    dbg->hooks_sync = 1; /* so mh_dbg_end re-arms the engine's own */
    dbg->hooks_access = 0;
    dbg_traces_mute_events(dbg, 1); /* the chip event log has these */
    uint64_t chunk = s->clock_hz / 50 ? s->clock_hz / 50 : 20000;
    int boundary_runs = 0;
    while (status == MH_OK && !t->replay_hit) {
        uint64_t budget = chunk;
        if (!target->by_insn) {
            int reached = now >= target->cycle;
            if (reached && (mh_cpu6502_at_boundary(cpu) || cpu->jammed || boundary_runs++ > 16))
                break;
            budget = reached ? 1 : target->cycle - now;
        } else if (now - start > limit) {
            snprintf(error, error_size, "re-execution did not reach the instruction within %llu "
                     "cycles (the machine ran otherwise than recorded)",
                     (unsigned long long)limit);
            status = MH_ERR_STATE;
            break;
        }
        mh_run_result result = {sizeof result, 0, MH_RUN_BUDGET, 0};
        status = m->run(s->instance, budget, &result);
        now += result.cycles;
        if (result.stop == MH_RUN_EXIT || (result.cycles == 0 && result.stop != MH_RUN_BREAK))
            break;
    }
    dbg->cpu->set_debug_hooks(dbg->cpu_ctx, NULL, NULL, dbg);
    dbg->hooks_sync = 0;
    cpu->stop_request = 0; /* an access stop due when the run's budget ended */
    t->replay_started = budget_insns - t->replay_left;
    atomic_store(&s->cycles, now);
    mh_dbg_set_cycles(dbg, now);
    return status;
}

/* The newest entry the target can be reached from (its index + 1), or 0. */
static size_t entry_for(mh_travel *t, const travel_target *target)
{
    for (size_t i = t->count; i > 0; i--) {
        const travel_entry *e = entry_at(t, i - 1);
        if (target->by_insn ? e->seq_ok && e->insn_seq <= target->seq : e->cycle <= target->cycle)
            return i;
    }
    return 0;
}

/* Loads a blob into the machine at `cycles` (the session's count). */
static mh_status load_blob(mh_travel *t, const void *blob, size_t size, uint64_t cycles,
                           char *error, size_t error_size)
{
    char why[256] = "";
    mh_status status = t->snap->load(t->snap_ctx, blob, size, why, sizeof why);
    if (status != MH_OK) {
        snprintf(error, error_size, "the machine refused its ring snapshot: %s", why);
        return status;
    }
    atomic_store(&t->s->cycles, cycles);
    mh_dbg_set_cycles(t->s->dbg, cycles);
    return MH_OK;
}

/* Loads entry i into the machine; its blob (malloc'ed), or NULL with
 * *status and error set. */
static uint8_t *load_entry(mh_travel *t, size_t i, size_t *size, mh_status *status, char *error,
                           size_t error_size)
{
    uint8_t *blob = rebuild(t, i, size);
    if (!blob) {
        snprintf(error, error_size, "the ring snapshot could not be rebuilt (out of memory?)");
        *status = MH_ERR_NO_MEMORY;
        return NULL;
    }
    const travel_entry *e = entry_at(t, i);
    *status = load_blob(t, blob, *size, e->cycle, error, error_size);
    if (*status != MH_OK) {
        free(blob);
        return NULL;
    }
    load_holds(t, e->holds, e->holds_size);
    return blob;
}

static mh_status go_to(mh_session *s, const travel_target *target, mh_travel_result *out,
                       int *moved, char *error, size_t error_size)
{
    mh_travel *t = s->travel;
    size_t i = target->entry && target->entry <= t->count ? target->entry : entry_for(t, target);
    if (i == 0) {
        snprintf(error, error_size, "%s is older than the snapshot ring reaches (oldest cycle "
                 "%llu)", target->by_insn ? "that instruction" : "that cycle",
                 (unsigned long long)(t->count ? t->ring[t->head].cycle : 0));
        return MH_ERR_NOT_FOUND;
    }
    size_t size = 0;
    mh_status status = MH_OK;
    uint8_t *blob = load_entry(t, i - 1, &size, &status, error, error_size);
    if (!blob) return status;
    const travel_entry *e = entry_at(t, i - 1);
    *moved = 1;
    uint64_t from = e->cycle, limit = out->from_cycle - from + t->interval;
    t->replay_left = e->insn_seq; /* replay() subtracts it from the target's number */
    /* the future after the restored entry is gone; it is the newest now */
    while (t->count > i) drop_newest(t);
    free(t->last);
    t->last = blob;
    t->last_size = size;
    t->since_key = 0;
    for (size_t k = i; k-- > 0 && !entry_at(t, k)->key;) t->since_key++;
    status = replay(t, target, limit, error, error_size);
    uint64_t landed = atomic_load(&s->cycles);
    t->next_due = landed + t->interval;
    out->replayed = landed - from;
    out->to_cycle = landed;
    dbg_ring *history = &s->dbg->history;
    if (target->by_insn && e->seq_ok) {
        if (history->next > target->seq)
            dbg_ring_drop_newest(history, (size_t)(history->next - target->seq));
        truncate_writes(&s->dbg->writes, target->cycle);
    } else {
        /* the instructions that started at or after where it landed: the
         * count re-execution made where the entry's number holds (exact
         * also where the history's cycle stamps are not, the Plus/4), else
         * by the stamps */
        uint64_t seq = e->insn_seq + t->replay_started;
        if (e->seq_ok && history->next >= seq) {
            dbg_ring_drop_newest(history, history->next - seq);
        } else {
            size_t n = 0;
            mh_insn_record r;
            while (dbg_ring_copy_newest(history, n, &r, 1) == 1 && r.cycle >= landed) n++;
            dbg_ring_drop_newest(history, n);
        }
        truncate_writes(&s->dbg->writes, landed);
    }
    while (t->stop_next && t->stops[(t->stop_next - 1) % TRAVEL_STOPS] >= landed) t->stop_next--;
    dbg_traces_travelled(s->dbg, landed);
    return status;
}

/* The target `back` instructions before now (1: the last one run), from
 * the history ring; 0 when it does not hold that many. */
static int insn_back(const mh_dbg *dbg, uint64_t back, travel_target *target)
{
    mh_insn_record r;
    if (!back || dbg_ring_copy_newest(&dbg->history, (size_t)back - 1, &r, 1) != 1) return 0;
    target->by_insn = 1;
    target->seq = dbg->history.next - back;
    target->cycle = r.cycle;
    return 1;
}

/* The target of a request; 0 with error set when there is none. */
static mh_status target_of(mh_session *s, uint32_t kind, uint64_t value, uint64_t now,
                           travel_target *target, uint32_t *bp_id, char *error, size_t error_size)
{
    mh_travel *t = s->travel;
    mh_dbg *dbg = s->dbg;
    memset(target, 0, sizeof *target);
    switch (kind) {
    case MH_TRAVEL_STEPS:
        if (!insn_back(dbg, value ? value : 1, target)) {
            snprintf(error, error_size, "the instruction history holds %zu instructions, not %llu "
                     "(trace_instructions size sets it; 0 is off)", dbg_ring_count(&dbg->history),
                     (unsigned long long)(value ? value : 1));
            return MH_ERR_NOT_FOUND;
        }
        return MH_OK;
    case MH_TRAVEL_CYCLE:
        target->cycle = value;
        return MH_OK;
    case MH_TRAVEL_FRAMES: {
        uint64_t frame = 0;
        if (s->audio_chip) {
            const mh_audio_iface *a = s->audio_chip->vtable;
            frame = a->frame_cycles(s->audio_chip->context);
        }
        if (!frame) {
            snprintf(error, error_size, "this machine reports no frame length");
            return MH_ERR_UNSUPPORTED;
        }
        uint64_t back = (value ? value : 1) * frame;
        target->cycle = back > now ? 0 : now - back;
        return MH_OK;
    }
    case MH_TRAVEL_STOP: {
        size_t n = t->stop_next < TRAVEL_STOPS ? t->stop_next : TRAVEL_STOPS;
        for (size_t i = 0; i < n; i++) {
            size_t at = (t->stop_next - 1 - i) % TRAVEL_STOPS;
            if (t->stops[at] >= now) continue;
            target->cycle = t->stops[at];
            /* by its instruction where the history still counts to it */
            if (t->stop_seqs[at] != UINT64_MAX && t->stop_seqs[at] <= dbg->history.next &&
                dbg->history.data) {
                target->by_insn = 1;
                target->seq = t->stop_seqs[at];
            }
            return MH_OK;
        }
        snprintf(error, error_size, "no earlier stop is recorded");
        return MH_ERR_NOT_FOUND;
    }
    case MH_TRAVEL_BREAKPOINT: /* debug_reverse.c */
        return mh_reverse_find(s, now, target, bp_id, error, error_size);
    default:
        snprintf(error, error_size, "unknown travel kind %u", kind);
        return MH_ERR_INVALID_ARGUMENT;
    }
}

mh_status mh_travel_go(mh_session *s, uint32_t kind, uint64_t value, mh_travel_result *out,
                       char *error, size_t error_size)
{
    if (!out || out->struct_size < sizeof *out) return MH_ERR_INVALID_ARGUMENT;
    uint64_t started = now_us();
    mh_travel *t = s ? s->travel : NULL;
    fill_status(t, out);
    if (!t) {
        snprintf(error, error_size, "this session keeps no snapshot ring (the machine has no "
                 "snapshot interface or no debuggable CPU)");
        return MH_ERR_UNSUPPORTED;
    }
    pthread_mutex_lock(&s->lock);
    int running = s->running || s->goal_pending;
    pthread_mutex_unlock(&s->lock);
    if (running) {
        snprintf(error, error_size, "the machine is running; execution_pause first");
        return MH_ERR_STATE;
    }
    if (!t->on) {
        snprintf(error, error_size, "time travel is off for this session: execution_rewind "
                 "with ring: \"on\" turns its snapshot ring on (it covers what runs from then "
                 "on), or start mcphost with --time-travel on");
        return MH_ERR_STATE;
    }
    if (!t->count) {
        snprintf(error, error_size, "the snapshot ring is still empty (run the machine first)");
        return MH_ERR_STATE;
    }
    uint64_t now = atomic_load(&s->cycles);
    out->from_cycle = now;
    out->bp_id = 0;
    travel_target target;
    mh_status status = target_of(s, kind, value, now, &target, &out->bp_id, error, error_size);
    if (status != MH_OK) return status;
    if (!target.by_insn && target.cycle > now) {
        snprintf(error, error_size, "cycle %llu is in the future (now %llu); run forward instead",
                 (unsigned long long)target.cycle, (unsigned long long)now);
        return MH_ERR_INVALID_ARGUMENT;
    }
    int moved = 0;
    status = go_to(s, &target, out, &moved, error, error_size);
    mh_dbg_reason reason = MH_DBG_GOAL;
    if (moved && status == MH_OK && kind == MH_TRAVEL_BREAKPOINT)
        reason = mh_reverse_landed(s, &target, out->bp_id);
    if (moved) {
        mh_session_observe_frame_now(s);
        mh_session_enter_stopped(s, MH_EXEC_STOPPED, reason, 0);
        out->to_cycle = atomic_load(&s->cycles);
    }
    fill_status(t, out);
    out->elapsed_us = now_us() - started;
    return status;
}

mh_status mh_travel_config(mh_session *s, int on, mh_travel_result *now)
{
    mh_travel *t = s ? s->travel : NULL;
    if (!t) return MH_ERR_UNSUPPORTED;
    if (on >= 0 && (on != 0) != t->on) {
        ring_clear(t);
        t->on = on != 0;
        t->next_due = atomic_load(&s->cycles);
    }
    if (now && now->struct_size >= sizeof *now) {
        memset(&now->bp_id, 0, sizeof *now - offsetof(mh_travel_result, bp_id));
        now->from_cycle = now->to_cycle = atomic_load(&s->cycles);
        fill_status(t, now);
    }
    return MH_OK;
}

/* ---- for reverse-continue (debug_travel_internal.h) ---- */

size_t travel_ring_count(const mh_travel *t) { return t->count; }

uint64_t travel_ring_cycle(const mh_travel *t, size_t i)
{
    return t->ring[(t->head + i) % TRAVEL_SLOTS].cycle;
}

uint64_t travel_ring_insn_seq(const mh_travel *t, size_t i, int *valid)
{
    const travel_entry *e = &t->ring[(t->head + i) % TRAVEL_SLOTS];
    *valid = e->seq_ok;
    return e->insn_seq;
}

mh_status travel_ring_load(mh_travel *t, size_t i, char *error, size_t error_size)
{
    size_t size = 0;
    mh_status status = MH_OK;
    free(load_entry(t, i, &size, &status, error, error_size));
    return status;
}

mh_status travel_state_save(mh_travel *t, travel_state *state)
{
    state->holds_size = holds_now(t, state->holds);
    return t->snap->save(t->snap_ctx, &state->blob, &state->size);
}

mh_status travel_state_load(mh_travel *t, const travel_state *state, uint64_t cycles,
                            char *error, size_t error_size)
{
    mh_status status = load_blob(t, state->blob, state->size, cycles, error, error_size);
    if (status == MH_OK) load_holds(t, state->holds, state->holds_size);
    return status;
}
