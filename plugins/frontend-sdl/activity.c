/* activity.c - the window's model: tool calls, execution events and the
 * followed session's status (activity.h). */
#include "activity.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcphost/events.h"
#include "mcphost/json.h"

struct fe_activity {
    pthread_mutex_t lock; /* everything below */
    fe_entry ring[FE_ACTIVITY_MAX];
    uint64_t next_seq;    /* seq of the next entry; ring[(seq - 1) % MAX] */
    fe_status status;
    uint64_t version;
    char hide_tool[48];
};

uint64_t fe_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void copy(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

fe_activity *fe_activity_new(const char *hide_tool)
{
    fe_activity *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    pthread_mutex_init(&a->lock, NULL);
    a->next_seq = 1;
    copy(a->hide_tool, sizeof a->hide_tool, hide_tool);
    return a;
}

void fe_activity_free(fe_activity *a)
{
    if (!a) return;
    pthread_mutex_destroy(&a->lock);
    free(a);
}

/* ---- short arguments ---- */

typedef struct text_out {
    char *out;
    size_t size, len;
    int full;
} text_out;

static void put(text_out *t, const char *s, size_t n)
{
    if (t->full) return;
    if (t->len + n >= t->size) {
        n = t->size - 1 - t->len;
        t->full = 1;
    }
    memcpy(t->out + t->len, s, n);
    t->len += n;
    t->out[t->len] = '\0';
}

static void put_value(text_out *t, const mh_json *v)
{
    char buf[48];
    size_t n = 0;
    switch (mh_json_typeof(v)) {
    case MH_JSON_STRING: {
        const char *s = mh_json_as_string(v, &n);
        put(t, s, n);
        return;
    }
    case MH_JSON_NUMBER: {
        int64_t i;
        double d = 0;
        if (mh_json_as_int64(v, &i) == MH_OK)
            snprintf(buf, sizeof buf, "%lld", (long long)i);
        else if (mh_json_as_double(v, &d) == MH_OK)
            snprintf(buf, sizeof buf, "%g", d);
        break;
    }
    case MH_JSON_BOOL: {
        bool b = false;
        mh_json_as_bool(v, &b);
        snprintf(buf, sizeof buf, "%s", b ? "true" : "false");
        break;
    }
    case MH_JSON_NULL: snprintf(buf, sizeof buf, "null"); break;
    case MH_JSON_OBJECT: snprintf(buf, sizeof buf, "{...}"); break;
    case MH_JSON_ARRAY: snprintf(buf, sizeof buf, "[%zu]", mh_json_array_size(v)); break;
    default: buf[0] = '\0'; break;
    }
    put(t, buf, strlen(buf));
}

void fe_activity_short_args(const char *args_json, char *out, size_t size)
{
    if (!out || size == 0) return;
    out[0] = '\0';
    if (!args_json || !*args_json) return;
    mh_json_doc *doc = mh_json_parse(args_json, strlen(args_json), NULL, NULL);
    const mh_json *root = doc ? mh_json_root(doc) : NULL;
    if (mh_json_typeof(root) != MH_JSON_OBJECT) {
        copy(out, size, args_json);
    } else {
        text_out t = {out, size, 0, 0};
        for (size_t i = 0; i < mh_json_object_size(root); i++) {
            size_t klen = 0;
            const char *key = mh_json_object_key(root, i, &klen);
            if (i) put(&t, " ", 1);
            put(&t, key, klen);
            put(&t, "=", 1);
            put_value(&t, mh_json_object_value(root, i));
        }
        if (t.full && size > 4) memcpy(out + size - 4, "...", 4);
    }
    mh_json_free(doc);
}

/* ---- entries ---- */

static fe_entry *push(fe_activity *a, fe_entry_kind kind, const mh_observation *o)
{
    fe_entry *e = &a->ring[(a->next_seq - 1) % FE_ACTIVITY_MAX];
    memset(e, 0, sizeof *e);
    e->seq = a->next_seq++;
    e->kind = kind;
    e->begun_ns = fe_now_ns();
    copy(e->session, sizeof e->session, o->session);
    return e;
}

static fe_entry *find_call(fe_activity *a, uint64_t call_id)
{
    uint64_t oldest = a->next_seq > FE_ACTIVITY_MAX ? a->next_seq - FE_ACTIVITY_MAX : 1;
    for (uint64_t seq = a->next_seq; seq-- > oldest;) {
        fe_entry *e = &a->ring[(seq - 1) % FE_ACTIVITY_MAX];
        if (e->kind == FE_ENTRY_CALL && e->call_id == call_id) return e;
    }
    return NULL;
}

static void call_begin(fe_activity *a, const mh_observation *o)
{
    fe_entry *e = push(a, FE_ENTRY_CALL, o);
    e->call_id = o->call_id;
    e->pending = 1;
    copy(e->client, sizeof e->client, o->client);
    copy(e->tool, sizeof e->tool, o->tool);
    fe_activity_short_args(o->detail_json, e->args, sizeof e->args);
}

static void call_end(fe_activity *a, const mh_observation *o)
{
    fe_entry *e = find_call(a, o->call_id);
    if (!e) { /* the begin went before the model existed, or scrolled away */
        call_begin(a, o);
        e = find_call(a, o->call_id);
    }
    e->pending = 0;
    e->ended_ns = fe_now_ns();
    e->is_error = o->is_error;
    e->duration_ns = o->duration_ns;
    copy(e->summary, sizeof e->summary, o->summary);
}

/* ---- the status ---- */

static void read_stop(fe_status *st, const char *json)
{
    mh_json_doc *doc = json ? mh_json_parse(json, strlen(json), NULL, NULL) : NULL;
    const mh_json *r = doc ? mh_json_root(doc) : NULL;
    if (mh_json_typeof(r) != MH_JSON_OBJECT) {
        mh_json_free(doc);
        return;
    }
    uint64_t u = 0;
    copy(st->state, sizeof st->state, mh_json_get_string(r, "state", st->state));
    copy(st->reason, sizeof st->reason, mh_json_get_string(r, "reason", ""));
    copy(st->requested_by, sizeof st->requested_by, mh_json_get_string(r, "requested_by", ""));
    const mh_json *bp = mh_json_object_get(r, "breakpoint");
    st->breakpoint = bp && mh_json_get_uint(bp, "id", &u) == MH_OK ? u : 0;
    st->pc = mh_json_get_uint(r, "pc", &u) == MH_OK ? (uint32_t)u : 0;
    copy(st->instruction, sizeof st->instruction, mh_json_get_string(r, "instruction", ""));
    const mh_json *regs = mh_json_object_get(r, "registers");
    copy(st->registers, sizeof st->registers, mh_json_get_string(regs, "text", ""));
    st->cycles = mh_json_get_uint(r, "cycles", &u) == MH_OK ? u : 0;
    const mh_json *raster = mh_json_object_get(r, "raster");
    st->raster_line = mh_json_get_uint(raster, "line", &u) == MH_OK ? (uint32_t)u : 0;
    st->raster_cycle = mh_json_get_uint(raster, "cycle", &u) == MH_OK ? (uint32_t)u : 0;
    const mh_json *dis = mh_json_object_get(r, "disassembly");
    st->disasm_count = 0;
    for (size_t i = 0; i < mh_json_array_size(dis) && i < FE_DISASM_LINES; i++) {
        const mh_json *line = mh_json_array_get(dis, i);
        fe_disasm_line *d = &st->disasm[st->disasm_count++];
        d->address = mh_json_get_uint(line, "address", &u) == MH_OK ? (uint32_t)u : 0;
        bool current = false;
        d->current = mh_json_get_bool(line, "current", &current) == MH_OK && current;
        copy(d->text, sizeof d->text, mh_json_get_string(line, "text", ""));
        copy(d->bytes, sizeof d->bytes, mh_json_get_string(line, "bytes", ""));
    }
    mh_json_free(doc);
}

static int followed(const fe_activity *a, const char *session)
{
    return session && strcmp(a->status.session, session) == 0;
}

static void event_entry(fe_activity *a, const mh_observation *o)
{
    const char *name = mh_event_type_name(o->event_type);
    fe_entry *e = push(a, FE_ENTRY_EVENT, o);
    copy(e->tool, sizeof e->tool, name ? name : "event");
    if (o->event_type != MH_EVENT_STOPPED && o->event_type != MH_EVENT_BREAKPOINT) return;
    /* the stop record in a few words: reason, breakpoint, pc */
    fe_status st;
    memset(&st, 0, sizeof st);
    read_stop(&st, o->detail_json);
    char bp[24] = "";
    if (st.breakpoint) snprintf(bp, sizeof bp, " #%llu", (unsigned long long)st.breakpoint);
    snprintf(e->args, sizeof e->args, "%.16s%.12s%s%.30s at $%04X", st.reason, bp,
             st.requested_by[0] ? " by " : "", st.requested_by, (unsigned)st.pc);
    copy(e->summary, sizeof e->summary, st.instruction);
}

static void exec_event(fe_activity *a, const mh_observation *o)
{
    if (o->event_type == MH_EVENT_FRAME || o->event_type == MH_EVENT_LOG) return;
    /* a breakpoint is followed by its stop: list the stop only */
    if (o->event_type != MH_EVENT_BREAKPOINT) event_entry(a, o);
    if (!followed(a, o->session)) return;
    fe_status *st = &a->status;
    switch (o->event_type) {
    case MH_EVENT_STOPPED:
        read_stop(st, o->detail_json);
        st->stop_count++;
        st->stop_ns = fe_now_ns();
        break;
    case MH_EVENT_RESUMED: {
        copy(st->state, sizeof st->state, "running");
        mh_json_doc *doc = o->detail_json
                               ? mh_json_parse(o->detail_json, strlen(o->detail_json), NULL, NULL)
                               : NULL;
        bool warp = false;
        st->warp = doc && mh_json_get_bool(mh_json_root(doc), "warp", &warp) == MH_OK && warp;
        mh_json_free(doc);
        break;
    }
    case MH_EVENT_JAMMED: copy(st->state, sizeof st->state, "jammed"); break;
    case MH_EVENT_EXITED: copy(st->state, sizeof st->state, "exited"); break;
    default: break;
    }
}

void fe_activity_observe(fe_activity *a, const mh_observation *o)
{
    if (!a || !o) return;
    int hidden = o->tool && strcmp(o->tool, a->hide_tool) == 0;
    pthread_mutex_lock(&a->lock);
    switch (o->kind) {
    case MH_OBSERVE_TOOL_BEGIN:
        if (!hidden) call_begin(a, o);
        break;
    case MH_OBSERVE_TOOL_END:
        if (!hidden) call_end(a, o);
        break;
    case MH_OBSERVE_EXEC_EVENT: exec_event(a, o); break;
    case MH_OBSERVE_SESSION_DESTROYED:
        if (followed(a, o->session)) copy(a->status.state, sizeof a->status.state, "exited");
        break;
    default: pthread_mutex_unlock(&a->lock); return;
    }
    a->version++;
    pthread_mutex_unlock(&a->lock);
}

void fe_activity_follow(fe_activity *a, const char *session, const char *machine)
{
    pthread_mutex_lock(&a->lock);
    if (!followed(a, session)) {
        memset(&a->status, 0, sizeof a->status);
        copy(a->status.session, sizeof a->status.session, session);
        copy(a->status.machine, sizeof a->status.machine, machine);
        a->version++;
    }
    pthread_mutex_unlock(&a->lock);
}

void fe_activity_initial_state(fe_activity *a, const char *session, const char *state)
{
    pthread_mutex_lock(&a->lock);
    if (followed(a, session) && !a->status.state[0]) {
        copy(a->status.state, sizeof a->status.state, state);
        a->version++;
    }
    pthread_mutex_unlock(&a->lock);
}

size_t fe_activity_entries(fe_activity *a, fe_entry *out, size_t max)
{
    pthread_mutex_lock(&a->lock);
    uint64_t total = a->next_seq - 1;
    uint64_t kept = total < FE_ACTIVITY_MAX ? total : FE_ACTIVITY_MAX;
    size_t n = kept < max ? (size_t)kept : max;
    for (size_t i = 0; i < n; i++) {
        uint64_t seq = a->next_seq - n + i;
        out[i] = a->ring[(seq - 1) % FE_ACTIVITY_MAX];
    }
    pthread_mutex_unlock(&a->lock);
    return n;
}

void fe_activity_status(fe_activity *a, fe_status *out)
{
    pthread_mutex_lock(&a->lock);
    *out = a->status;
    pthread_mutex_unlock(&a->lock);
}

uint64_t fe_activity_version(fe_activity *a)
{
    pthread_mutex_lock(&a->lock);
    uint64_t v = a->version;
    pthread_mutex_unlock(&a->lock);
    return v;
}
