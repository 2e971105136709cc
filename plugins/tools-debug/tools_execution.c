/* tools_execution.c - execution control: run, pause, step (into, over, out,
 * cycles), run until, get state and wait, on the host's debug engine
 * (mh.debug/1). Every result is the session's execution state with the
 * stop record when stopped (debug.h), as structured content plus a one-line
 * summary. The blocking tools run on a host worker thread
 * (MH_TOOL_SESSION_ON_WORKER), so a long wait never holds up the machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mcphost/args.h>
#include <mcphost/json.h>
#include <mcphost/toolkit.h>

#include "td_resolve.h"
#include "td_source.h"
#include "td_stepline.h"
#include "tools_debug.h"

#define DEFAULT_TIMEOUT_MS 5000
#define MAX_TIMEOUT_MS 600000

/* ---- the state as a result ---- */

/* " | write $D020 = $02 (was $FE) by $C002": a watchpoint's access. */
static void access_summary(const mh_json *stop, char *out, size_t size)
{
    const mh_json *access = mh_json_object_get(stop, "access");
    if (!access) return;
    size_t used = strlen(out);
    const char *kind = mh_json_get_string(access, "kind", "?");
    snprintf(out + used, size - used, " | %s %s = %s", kind,
             mh_json_get_string(access, "address_hex", "?"),
             mh_json_get_string(access, "value_hex", "?"));
    used = strlen(out);
    if (mh_json_object_get(access, "old_value_hex"))
        snprintf(out + used, size - used, " (was %s)",
                 mh_json_get_string(access, "old_value_hex", "?"));
    used = strlen(out);
    snprintf(out + used, size - used, " by %s", mh_json_get_string(access, "by_pc_hex", "?"));
}

/* "stopped (breakpoint #1 exec $C000) at $C003: LDA #$00 | A=$00 ... | raster 100/12" */
static void summary(const mh_json *state, char *out, size_t size)
{
    const char *name = mh_json_get_string(state, "state", "?");
    const mh_json *stop = mh_json_object_get(state, "stop");
    if (!stop || strcmp(name, "running") == 0) {
        const char *warning = mh_json_get_string(state, "warning", NULL);
        snprintf(out, size, "%s%s%s", name, warning ? "; warning: " : "", warning ? warning : "");
        return;
    }
    const mh_json *bp = mh_json_object_get(stop, "breakpoint");
    const mh_json *raster = mh_json_object_get(stop, "raster");
    const mh_json *regs = mh_json_object_get(stop, "registers");
    char why[160] = "", where[64] = "";
    int64_t id = 0, line = 0, cycle = 0;
    if (bp && mh_json_get_int(bp, "id", &id) == MH_OK)
        snprintf(why, sizeof why, ", breakpoint #%lld %s", (long long)id,
                 mh_json_get_string(bp, "label", ""));
    if (raster && mh_json_get_int(raster, "line", &line) == MH_OK &&
        mh_json_get_int(raster, "cycle", &cycle) == MH_OK)
        snprintf(where, sizeof where, " | raster line %lld cycle %lld", (long long)line,
                 (long long)cycle);
    snprintf(out, size, "%s (%s%s) at %s: %s | %s%s", name,
             mh_json_get_string(stop, "reason", "?"), why, mh_json_get_string(stop, "pc_hex", "?"),
             mh_json_get_string(stop, "instruction", "?"),
             regs ? mh_json_get_string(regs, "text", "") : "", where);
    access_summary(stop, out, size);
    int64_t code = 0;
    if (mh_json_get_int(stop, "exit_code", &code) == MH_OK) {
        size_t used = strlen(out);
        snprintf(out + used, size - used, " | exit code %lld", (long long)code);
    }
}

/* Writes the session's state (and `note`, e.g. a timeout) as the result. */
static void report_state(td_plugin *p, mh_call *call, mh_session *session, const char *note)
{
    char *json = td_fetch_json(p->debug->state_json, session);
    if (!json) {
        p->call->error(call, "out of memory building the execution state");
        return;
    }
    char where[600];
    json = td_where_stop_json(p, p->sessions->name(session), json, where, sizeof where);
    mh_json_doc *doc = mh_json_parse(json, strlen(json), NULL, NULL);
    char text[1400];
    if (doc) summary(mh_json_root(doc), text, sizeof text);
    else snprintf(text, sizeof text, "state unavailable");
    snprintf(text + strlen(text), sizeof text - strlen(text), "%s", where);
    mh_json_free(doc);
    if (note) {
        size_t len = strlen(text);
        snprintf(text + len, sizeof text - len, " (%s)", note);
        /* The note also goes into the structured result. */
        char *with = malloc(strlen(json) + strlen(note) + 32);
        if (with) {
            sprintf(with, "{\"note\":\"%s\",%s", note, json + 1);
            free(json);
            json = with;
        }
    }
    /* The summary line, then every fact of the state (a text-only client
     * sees the whole stop record: access, disassembly, exit code ...). */
    td_send_with_facts(p, call, text, json);
    free(json);
}

/* ---- argument helpers ---- */

typedef struct exec_args {
    mh_json_doc *doc;
    const mh_json *args;
    char error[MH_ARGS_ERROR_SIZE];
} exec_args;

static int parse(td_plugin *p, mh_call *call, exec_args *a)
{
    a->args = mh_toolkit_args(p->call, call, &a->doc, a->error, sizeof a->error);
    return a->args != NULL;
}

/* An optional integer argument; on a bad value writes the error and returns 0. */
static int opt_int(td_plugin *p, mh_call *call, exec_args *a, const char *name, int64_t min,
                   int64_t max, int64_t *value)
{
    mh_status status = mh_args_int(a->args, name, min, max, value, a->error, sizeof a->error);
    if (status == MH_OK || status == MH_ERR_NOT_FOUND) return 1;
    p->call->error(call, a->error);
    return 0;
}

static int opt_warp(td_plugin *p, mh_call *call, exec_args *a, int *warp)
{
    bool value = false;
    mh_status status = mh_args_bool(a->args, "warp", &value, a->error, sizeof a->error);
    if (status == MH_ERR_NOT_FOUND) {
        *warp = -1;
        return 1;
    }
    if (status != MH_OK) {
        p->call->error(call, a->error);
        return 0;
    }
    *warp = value;
    return 1;
}

/* A blocking wait's state: the engine polls wait_poll() every 50 ms, which
 * answers whether the client cancelled and, about once a second, sends MCP
 * progress (when the client gave a progress token) so a client that resets
 * its timeout on progress waits as long as the machine needs. */
typedef struct wait_ctx {
    td_plugin *plugin;
    mh_call *call;
    struct timespec start;
    int64_t timeout_ms, reported_ms;
} wait_ctx;

static int64_t elapsed_ms(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)(now.tv_sec - since->tv_sec) * 1000 + (now.tv_nsec - since->tv_nsec) / 1000000;
}

static void wait_begin(wait_ctx *w, td_plugin *p, mh_call *call, int64_t timeout_ms)
{
    w->plugin = p;
    w->call = call;
    w->timeout_ms = timeout_ms;
    w->reported_ms = 0;
    clock_gettime(CLOCK_MONOTONIC, &w->start);
}

#define PROGRESS_EVERY_MS 1000

static int wait_poll(void *user)
{
    wait_ctx *w = user;
    const mh_call_service *call = w->plugin->call;
    if (call->cancelled(w->call)) return 1;
    int64_t ms = elapsed_ms(&w->start);
    if (ms - w->reported_ms >= PROGRESS_EVERY_MS) {
        char message[96];
        w->reported_ms = ms;
        snprintf(message, sizeof message, "waiting for a stop: %lld of at most %lld ms",
                 (long long)ms, (long long)w->timeout_ms);
        call->progress(w->call, (double)ms, (double)w->timeout_ms, message);
    }
    return 0;
}

/* Starts a run and, with wait_ms > 0, waits for it to stop; reports. */
static void run_and_report(td_plugin *p, mh_call *call, const mh_run_request *request,
                           int64_t wait_ms)
{
    mh_session *session = p->call->session(call);
    char error[300];
    if (p->debug->run(session, request, error, sizeof error) != MH_OK) {
        p->call->error(call, error);
        return;
    }
    const char *note = NULL;
    if (wait_ms > 0) {
        wait_ctx w;
        wait_begin(&w, p, call, wait_ms);
        mh_status status = p->debug->wait(session, (uint32_t)wait_ms, wait_poll, &w);
        if (status == MH_ERR_TIMEOUT)
            note = "still running after the timeout; execution_wait waits longer, "
                   "execution_pause stops it";
        else if (status == MH_ERR_CANCELLED)
            note = "the wait was cancelled; the machine is still running";
    }
    report_state(p, call, session, note);
}

/* ---- the tools ---- */

static void tool_run(void *user, mh_call *call)
{
    td_plugin *p = user;
    exec_args a = {0};
    int warp = -1;
    if (parse(p, call, &a) && opt_warp(p, call, &a, &warp)) {
        mh_run_request request = {sizeof request, MH_GOAL_CONTINUE, 0, 0, warp};
        run_and_report(p, call, &request, 0);
    }
    mh_json_free(a.doc);
}

static void tool_pause(void *user, mh_call *call)
{
    td_plugin *p = user;
    mh_session *session = p->call->session(call);
    p->debug->pause(session);
    report_state(p, call, session, NULL);
}

static void tool_step(void *user, mh_call *call)
{
    td_plugin *p = user;
    exec_args a = {0};
    int64_t count = 1, timeout = DEFAULT_TIMEOUT_MS;
    bool over = false;
    if (parse(p, call, &a) && opt_int(p, call, &a, "count", 1, 1000000, &count) &&
        opt_int(p, call, &a, "timeout_ms", 1, MAX_TIMEOUT_MS, &timeout)) {
        mh_status status = mh_args_bool(a.args, "over", &over, a.error, sizeof a.error);
        static const char *const units[] = {"instruction", "line"};
        size_t unit = 0;
        mh_status unit_status = mh_args_choice(a.args, "unit", units, 2, &unit, a.error, sizeof a.error);
        if (unit_status != MH_OK && unit_status != MH_ERR_NOT_FOUND) status = unit_status;
        if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
            p->call->error(call, a.error);
        } else if (unit == 1) {
            if (mh_json_object_get(a.args, "count")) p->call->error(call, "unit \"line\" steps one line; leave out count");
            else td_step_line(p, call, over, timeout, report_state);
        } else {
            mh_run_request request = {sizeof request, over ? MH_GOAL_STEP_OVER : MH_GOAL_STEP,
                                      (uint64_t)count, 0, -1};
            run_and_report(p, call, &request, timeout);
        }
    }
    mh_json_free(a.doc);
}

static void tool_step_out(void *user, mh_call *call)
{
    td_plugin *p = user;
    exec_args a = {0};
    int64_t timeout = DEFAULT_TIMEOUT_MS;
    if (parse(p, call, &a) && opt_int(p, call, &a, "timeout_ms", 1, MAX_TIMEOUT_MS, &timeout)) {
        mh_run_request request = {sizeof request, MH_GOAL_STEP_OUT, 0, 0, -1};
        run_and_report(p, call, &request, timeout);
    }
    mh_json_free(a.doc);
}

static void tool_step_cycle(void *user, mh_call *call)
{
    td_plugin *p = user;
    exec_args a = {0};
    int64_t cycles = 1;
    if (parse(p, call, &a) && opt_int(p, call, &a, "cycles", 1, 100000000, &cycles)) {
        mh_run_request request = {sizeof request, MH_GOAL_CYCLES, (uint64_t)cycles, 0, -1};
        run_and_report(p, call, &request, MAX_TIMEOUT_MS);
    }
    mh_json_free(a.doc);
}

static void tool_run_until(void *user, mh_call *call)
{
    td_plugin *p = user;
    exec_args a = {0};
    int64_t timeout = 10000, count = 0;
    int warp = -1;
    if (!parse(p, call, &a) || !opt_int(p, call, &a, "timeout_ms", 1, MAX_TIMEOUT_MS, &timeout) ||
        !opt_warp(p, call, &a, &warp)) {
        mh_json_free(a.doc);
        return;
    }
    static const struct {
        const char *name;
        uint32_t goal;
    } targets[] = {{"address", MH_GOAL_ADDRESS}, {"cycles", MH_GOAL_CYCLES},
                   {"frames", MH_GOAL_FRAMES}};
    mh_run_request request = {sizeof request, MH_GOAL_CONTINUE, 0, 0, warp};
    int given = 0;
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        if (!mh_json_object_get(a.args, targets[i].name)) continue;
        given++;
        request.goal = targets[i].goal;
    }
    if (given != 1) {
        p->call->error(call, "execution_run_until: give exactly one of address (run until PC "
                             "reaches it), cycles or frames");
        mh_json_free(a.doc);
        return;
    }
    mh_status status;
    if (request.goal == MH_GOAL_ADDRESS) {
        uint32_t address = 0;
        status = td_resolve_arg(p->store, p->sessions->name(p->call->session(call)), a.args,
                                "address", 0xFFFF, &address, a.error, sizeof a.error);
        request.address = address;
    } else {
        status = mh_args_int(a.args, request.goal == MH_GOAL_CYCLES ? "cycles" : "frames", 1,
                             request.goal == MH_GOAL_CYCLES ? 1000000000000LL : 1000000, &count,
                             a.error, sizeof a.error);
        request.count = (uint64_t)count;
    }
    if (status != MH_OK) p->call->error(call, a.error);
    else run_and_report(p, call, &request, timeout);
    mh_json_free(a.doc);
}

static void tool_get_state(void *user, mh_call *call)
{
    td_plugin *p = user;
    report_state(p, call, p->call->session(call), NULL);
}

static void tool_wait(void *user, mh_call *call)
{
    td_plugin *p = user;
    exec_args a = {0};
    int64_t timeout = 10000;
    if (parse(p, call, &a) && opt_int(p, call, &a, "timeout_ms", 0, MAX_TIMEOUT_MS, &timeout)) {
        mh_session *session = p->call->session(call);
        wait_ctx w;
        wait_begin(&w, p, call, timeout);
        mh_status status = p->debug->wait(session, (uint32_t)timeout, wait_poll, &w);
        report_state(p, call, session,
                     status == MH_ERR_TIMEOUT     ? "timed out: the machine is still running"
                     : status == MH_ERR_CANCELLED ? "cancelled: the machine is still running"
                                                  : NULL);
    }
    mh_json_free(a.doc);
}

/* ---- registration ---- */

static const char state_output[] =
    "{\"type\":\"object\",\"required\":[\"state\"],\"properties\":{\"state\":{\"enum\":[\"paus"
    "ed\",\"running\",\"stopped\",\"jammed\",\"exited\"]},\"stop\":{\"type\":\"object\"}}}";

static const td_tool tools[] = {
    {"execution_run", "vice.execution.run", "Run",
     "Runs until a breakpoint, pause or the program's end; returns at once. execution_wait "
     "returns the stop record.",
     "{\"type\":\"object\",\"properties\":{\"warp\":{\"type\":\"boolean\","
     "\"description\":\"true: full speed; false: real speed (default: unchanged)\"}},"
     "\"additionalProperties\":false}",
     0, MH_TOOL_SESSION_ON_WORKER, tool_run},
    {"execution_pause", "vice.execution.pause", "Pause",
     "Stops a running machine at the next instruction boundary; returns the stop record.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     0, MH_TOOL_SESSION_ON_WORKER, tool_pause},
    {"execution_step", "vice.execution.step", "Step",
     "Executes count instructions (default 1); returns the stop record.",
     "{\"type\":\"object\",\"properties\":{\"count\":{\"type\":\"integer\","
     "\"description\":\"Instructions\",\"minimum\":1,\"maximum\":1000000},"
     "\"over\":{\"type\":\"boolean\",\"description\":\"Step over JSR subroutines and "
     "interrupt handlers\"},\"unit\":{\"enum\":[\"instruction\",\"line\"],"
     "\"description\":\"line: to the next source line (needs a .dbg)\"},\"timeout_ms\":{\"type\":\"integer\",\"description\":\"Wait at "
     "most this long (default 5000); the run goes on\",\"minimum\":1,\"maximum\":600000}},"
     "\"additionalProperties\":false}",
     0, MH_TOOL_SESSION_ON_WORKER, tool_step},
    {"execution_step_out", "vice.execution.step_out", "Step out",
     "Runs until the current subroutine returns (RTS, or RTI of an interrupt); stops after it.",
     "{\"type\":\"object\",\"properties\":{\"timeout_ms\":{\"type\":\"integer\","
     "\"description\":\"Most ms to wait (default 5000); the run goes on\","
     "\"minimum\":1,\"maximum\":600000}},\"additionalProperties\":false}",
     0, MH_TOOL_SESSION_ON_WORKER, tool_step_out},
    {"execution_step_cycle", "vice.execution.step_cycle", "Step cycles",
     "Runs at least this many CPU cycles, to the end of the instruction they end in.",
     "{\"type\":\"object\",\"properties\":{\"cycles\":{\"type\":\"integer\","
     "\"description\":\"CPU cycles (default 1)\",\"minimum\":1,\"maximum\":100000000}},"
     "\"additionalProperties\":false}",
     0, MH_TOOL_SESSION_ON_WORKER, tool_step_cycle},
    {"execution_run_until", "vice.execution.run_until", "Run until",
     "Runs until PC reaches address, or for cycles or frames (exactly one), or a breakpoint; "
     "returns the stop record.",
     "{\"type\":\"object\",\"properties\":{\"address\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Stop before this instruction ($C000 or a label)\"},"
     "\"cycles\":{\"type\":[\"integer\",\"string\"],\"description\":\"Run this many CPU "
     "cycles\"},\"frames\":{\"type\":[\"integer\",\"string\"],\"description\":\"Run this many "
     "video frames\"},\"timeout_ms\":{\"type\":\"integer\",\"description\":\"Most ms to "
     "wait (default 10000); the run goes on\",\"minimum\":1,\"maximum\":600000},"
     "\"warp\":{\"type\":\"boolean\",\"description\":\"true: full speed; false: real "
     "speed (default: unchanged)\"}},\"additionalProperties\":false}",
     0, MH_TOOL_SESSION_ON_WORKER, tool_run_until},
    {"execution_get_state", "vice.execution.get_state", "Execution state",
     "The execution state and, when not running, the last stop record. Never pauses.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, MH_TOOL_SESSION_ON_WORKER, tool_get_state},
    {"execution_wait", "vice.execution.wait", "Wait for a stop",
     "Blocks until the machine stops (breakpoint, step, pause, jam, exit); returns the stop "
     "record. Use it, not polling.",
     "{\"type\":\"object\",\"properties\":{\"timeout_ms\":{\"type\":\"integer\","
     "\"description\":\"Most ms to wait (default 10000; 0: just look)\",\"minimum\":0,"
     "\"maximum\":600000}},\"additionalProperties\":false}",
     MH_TOOL_READ_ONLY, MH_TOOL_SESSION_ON_WORKER, tool_wait},
};

mh_status td_register_execution(td_plugin *plugin)
{
    if (!plugin->debug) return MH_OK; /* a host without the engine: no execution tools */
    return td_register_tools(plugin, tools, sizeof tools / sizeof tools[0], state_output);
}
