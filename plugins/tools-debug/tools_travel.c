/* tools_travel.c - execution_step_back, execution_rewind and
 * execution_reverse_continue: time travel through the host's debug engine
 * (mh.debug/1 travel: a ring of compressed snapshots plus exact
 * re-execution; docs/tools-debug.md "Time travel"). Each answer says where
 * the machine went, how much was re-executed, the ring's size in bytes,
 * and the new stop record. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "td_util.h"

static int has_travel(const td_plugin *p)
{
    return p->debug && p->debug->struct_size >= offsetof(mh_debug_service, travel_config) +
                                                    sizeof p->debug->travel_config;
}

/* An answer's object begun (NULL after td_fail when out of memory). */
static mh_json_writer *answer_begin(td_call *c)
{
    mh_json_writer *w = mh_json_writer_new();
    if (!w) {
        td_fail(c, "%s: out of memory", c->tool);
        return NULL;
    }
    mh_json_write_object_begin(w);
    return w;
}

/* Ends the answer with the session's debug state (the stop record) and
 * sends it with text. */
static void answer_end(td_call *c, mh_json_writer *w, const char *text)
{
    char *state = td_fetch_json(c->plugin->debug->state_json, c->session);
    if (state) {
        mh_json_write_key(w, "state");
        mh_json_write_raw(w, state, strlen(state));
    }
    mh_json_write_object_end(w);
    td_result(c, w, text);
    mh_json_writer_free(w);
    free(state);
}

/* Travels (kind, value) and answers with the figures and the stop record. */
static void travel_answer(td_call *c, uint32_t kind, uint64_t value, const char *what)
{
    mh_travel_result r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    char error[512] = "";
    mh_status s = c->plugin->debug->travel(c->session, kind, value, &r, error, sizeof error);
    if (s != MH_OK) {
        td_fail(c, "%s: %s (snapshot ring: %llu snapshots, %llu bytes, back to cycle %llu)",
                c->tool, error[0] ? error : mh_status_name(s),
                (unsigned long long)r.ring_entries, (unsigned long long)r.ring_bytes,
                (unsigned long long)r.oldest_cycle);
        return;
    }
    mh_json_writer *w = answer_begin(c);
    if (!w) return;
    mh_json_write_key(w, "cycle");
    mh_json_write_uint(w, r.to_cycle);
    mh_json_write_key(w, "from_cycle");
    mh_json_write_uint(w, r.from_cycle);
    mh_json_write_key(w, "replayed_cycles");
    mh_json_write_uint(w, r.replayed);
    mh_json_write_key(w, "elapsed_ms");
    mh_json_write_double(w, (double)r.elapsed_us / 1000.0);
    if (kind == MH_TRAVEL_BREAKPOINT) {
        mh_json_write_key(w, "breakpoint");
        mh_json_write_uint(w, r.bp_id);
    }
    mh_json_write_key(w, "ring_bytes");
    mh_json_write_uint(w, r.ring_bytes);
    mh_json_write_key(w, "ring_snapshots");
    mh_json_write_uint(w, r.ring_entries);
    mh_json_write_key(w, "oldest_cycle");
    mh_json_write_uint(w, r.oldest_cycle);
    char text[256];
    snprintf(text, sizeof text, "%s: cycle %llu -> %llu (%llu cycles re-executed in %.1f ms); "
             "snapshot ring %llu bytes in %llu snapshots, back to cycle %llu",
             what, (unsigned long long)r.from_cycle, (unsigned long long)r.to_cycle,
             (unsigned long long)r.replayed, (double)r.elapsed_us / 1000.0,
             (unsigned long long)r.ring_bytes, (unsigned long long)r.ring_entries,
             (unsigned long long)r.oldest_cycle);
    answer_end(c, w, text);
}

/* execution_rewind ring: "on"/"off": switches this session's snapshot ring
 * (off frees it; on covers what runs from then on) and answers its figures. */
static void ring_switch(td_call *c, int on)
{
    mh_travel_result r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    mh_status s = c->plugin->debug->travel_config(c->session, on, &r);
    if (s != MH_OK) {
        td_fail(c, "%s: this session keeps no snapshot ring (%s)", c->tool, mh_status_name(s));
        return;
    }
    mh_json_writer *w = answer_begin(c);
    if (!w) return;
    mh_json_write_key(w, "ring");
    mh_json_write_string(w, on ? "on" : "off");
    mh_json_write_key(w, "cycle");
    mh_json_write_uint(w, r.to_cycle);
    mh_json_write_key(w, "ring_bytes");
    mh_json_write_uint(w, r.ring_bytes);
    mh_json_write_key(w, "ring_snapshots");
    mh_json_write_uint(w, r.ring_entries);
    char text[160];
    snprintf(text, sizeof text, "time travel %s for this session at cycle %llu%s", on ? "on" : "off",
             (unsigned long long)r.to_cycle, on ? " (the ring covers what runs from now on)" : "");
    answer_end(c, w, text);
}

static int begin(td_call *c, void *user, mh_call *call, const char *tool)
{
    if (td_begin(c, user, call, tool, TD_NEED_CPU) != 0) return -1;
    if (!has_travel(c->plugin)) {
        td_fail(c, "%s: this host's debug engine cannot travel back", tool);
        return -1;
    }
    return 0;
}

static void tool_step_back(void *user, mh_call *call)
{
    td_call c;
    if (begin(&c, user, call, "execution_step_back") == 0) {
        int64_t count = 1;
        mh_status s = mh_args_int(c.args, "count", 1, 1 << 22, &count, c.err, sizeof c.err);
        if (s != MH_OK && s != MH_ERR_NOT_FOUND)
            td_fail_arg(&c);
        else
            travel_answer(&c, MH_TRAVEL_STEPS, (uint64_t)count, "stepped back");
    }
    td_end(&c);
}

static void tool_rewind(void *user, mh_call *call)
{
    td_call c;
    if (begin(&c, user, call, "execution_rewind") != 0) goto done;
    int64_t cycle = -1, frames = -1;
    size_t to = 0, ring = 0;
    static const char *const tos[] = {"stop"};
    static const char *const rings[] = {"off", "on"};
    mh_status s = mh_args_int(c.args, "cycle", 0, INT64_MAX, &cycle, c.err, sizeof c.err);
    if (s == MH_OK || s == MH_ERR_NOT_FOUND)
        s = mh_args_int(c.args, "frames", 1, 100000, &frames, c.err, sizeof c.err);
    int has_to = 0, has_ring = 0;
    if (s == MH_OK || s == MH_ERR_NOT_FOUND) {
        s = mh_args_choice(c.args, "to", tos, 1, &to, c.err, sizeof c.err);
        has_to = s == MH_OK;
    }
    if (s == MH_OK || s == MH_ERR_NOT_FOUND) {
        s = mh_args_choice(c.args, "ring", rings, 2, &ring, c.err, sizeof c.err);
        has_ring = s == MH_OK;
    }
    if (s != MH_OK && s != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    if ((cycle >= 0) + (frames >= 0) + has_to + has_ring != 1) {
        td_fail(&c, "execution_rewind: give exactly one of cycle, frames, to: \"stop\" or "
                    "ring: \"on\"/\"off\"");
        goto done;
    }
    if (has_ring)
        ring_switch(&c, (int)ring);
    else if (cycle >= 0)
        travel_answer(&c, MH_TRAVEL_CYCLE, (uint64_t)cycle, "rewound to a cycle");
    else if (frames >= 0)
        travel_answer(&c, MH_TRAVEL_FRAMES, (uint64_t)frames, "rewound by frames");
    else
        travel_answer(&c, MH_TRAVEL_STOP, 0, "rewound to the previous stop");
done:
    td_end(&c);
}

static void tool_reverse_continue(void *user, mh_call *call)
{
    td_call c;
    if (begin(&c, user, call, "execution_reverse_continue") == 0)
        travel_answer(&c, MH_TRAVEL_BREAKPOINT, 0, "reverse-continued to the last hit");
    td_end(&c);
}

static const td_tool travel_tools[] = {
    {"execution_step_back", NULL, "Step back",
     "Undoes count instructions.",
     "{\"type\":\"object\",\"properties\":{\"count\":{\"type\":\"integer\",\"description\":\"default 1\"}},"
     "\"additionalProperties\":false}",
     0, MH_TOOL_NEEDS_SESSION, tool_step_back},
    {"execution_rewind", NULL, "Rewind",
     "Back to a cycle, N frames, or the last stop.",
     "{\"type\":\"object\",\"properties\":{\"cycle\":{\"type\":\"integer\",\"description\":"
     "\"target\"},\"frames\":{\"type\":\"integer\",\"description\":\"back\"},"
     "\"to\":{\"enum\":[\"stop\"],\"description\":\"last stop\"},"
     "\"ring\":{\"enum\":[\"on\",\"off\"],\"description\":\"travel\"}},"
     "\"additionalProperties\":false}",
     0, MH_TOOL_NEEDS_SESSION, tool_rewind},
    {"execution_reverse_continue", NULL, "Run backward",
     "Back to the last breakpoint/watchpoint hit.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     0, MH_TOOL_NEEDS_SESSION, tool_reverse_continue},
};

static const char travel_output[] =
    "{\"type\":\"object\",\"required\":[\"cycle\",\"ring_bytes\",\"state\"]}";

mh_status td_register_travel(td_plugin *plugin)
{
    return td_register_tools(plugin, travel_tools, sizeof travel_tools / sizeof travel_tools[0],
                             travel_output);
}
