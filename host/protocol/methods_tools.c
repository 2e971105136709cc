/* tools/list and tools/call: validation, session and chip resolution, and
 * running the handler on the right thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <mcphost/json.h>

#include "call.h"
#include "chip_alternatives.h"
#include "chip_names.h"
#include "hostctx.h"
#include "log.h"
#include "methods.h"
#include "observe.h"
#include "schema.h"
#include "sessions.h"
#include "tools_listed.h"
#include "workers.h"

/* The hints that differ from MCP's defaults (readOnly false, destructive
 * true, idempotent false, openWorld true); destructive and idempotent only
 * mean something for a tool that is not read-only. The title is here only
 * for clients before 2025-06-18, which have no top-level title. */
static cJSON *annotations_json(const mh_reg_tool *t, int modern)
{
    cJSON *a = cJSON_CreateObject();
    if (t->title && !modern) cJSON_AddStringToObject(a, "title", t->title);
    if (t->annotations & MH_TOOL_READ_ONLY) {
        cJSON_AddTrueToObject(a, "readOnlyHint");
    } else {
        if (!(t->annotations & MH_TOOL_DESTRUCTIVE)) cJSON_AddFalseToObject(a, "destructiveHint");
        if (t->annotations & MH_TOOL_IDEMPOTENT) cJSON_AddTrueToObject(a, "idempotentHint");
    }
    if (!(t->annotations & MH_TOOL_OPEN_WORLD)) cJSON_AddFalseToObject(a, "openWorldHint");
    return a;
}

void mh_method_tools_list(mh_request *req, const cJSON *params)
{
    mh_hostctx *ctx = mh_request_host(req);
    const size_t capacity = ctx->registry.tools.count;
    const mh_reg_tool **listed = calloc(capacity ? capacity : 1, sizeof *listed);
    const size_t count = listed ? mh_tools_listed(ctx, NULL, listed, capacity) : 0;
    cJSON *result = cJSON_CreateObject();
    size_t start, end;
    if (!mh_paginate(req, params, count < capacity ? count : capacity, &start, &end, result)) {
        cJSON_Delete(result);
        free(listed);
        return;
    }
    int modern = strcmp(mh_request_protocol(req), "2025-06-18") >= 0;
    cJSON *tools = cJSON_AddArrayToObject(result, "tools");
    for (size_t i = start; i < end; i++) {
        const mh_reg_tool *t = listed[i];
        cJSON *tool = cJSON_CreateObject();
        cJSON_AddStringToObject(tool, "name", t->name);
        if (t->title && modern) cJSON_AddStringToObject(tool, "title", t->title);
        cJSON_AddStringToObject(tool, "description", t->description);
        cJSON_AddItemToObject(tool, "inputSchema", cJSON_Duplicate(t->input_schema, 1));
        if (t->output_schema && modern)
            cJSON_AddItemToObject(tool, "outputSchema", cJSON_Duplicate(t->output_schema, 1));
        cJSON_AddItemToObject(tool, "annotations", annotations_json(t, modern));
        cJSON_AddItemToArray(tools, tool);
    }
    free(listed);
    mh_request_respond(req, result);
}

typedef struct tool_job {
    mh_request *req;
    const mh_reg_tool *tool;
    mh_call *call;
    char session_name[64];
    char *instance; /* requested chip instance, or NULL */
    /* mh.observe/1: the begin/end pair of this call */
    uint64_t call_id, started_ns;
    char observed_session[64];
    char client[96];
} tool_job;

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The first line of the result's first text (or the error), cut at a
 * character boundary, for an activity view. */
static void result_summary(const cJSON *content, char *out, size_t size)
{
    out[0] = '\0';
    const cJSON *item;
    cJSON_ArrayForEach(item, content)
    {
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(item, "text");
        if (!cJSON_IsString(text)) continue;
        size_t n = strcspn(text->valuestring, "\n");
        if (n >= size) {
            n = size - 1;
            while (n > 0 && ((unsigned char)text->valuestring[n] & 0xC0) == 0x80) n--;
        }
        memcpy(out, text->valuestring, n);
        out[n] = '\0';
        return;
    }
}

static void observe_begin(tool_job *job, const char *tool_name, const cJSON *args)
{
    mh_observe *obs = mh_request_host(job->req)->observe;
    if (!mh_observe_wants(obs, MH_OBSERVE_TOOL_BEGIN) && !mh_observe_wants(obs, MH_OBSERVE_TOOL_END))
        return;
    job->call_id = mh_observe_next_call_id(obs);
    job->started_ns = monotonic_ns();
    mh_request_client(job->req, job->client, sizeof job->client);
    const cJSON *named = cJSON_GetObjectItemCaseSensitive(args, "session");
    if (!(job->tool->flags & (MH_TOOL_NEEDS_SESSION | MH_TOOL_SESSION_ON_WORKER)))
        job->observed_session[0] = '\0'; /* a host tool: no session of its own */
    else if (cJSON_IsString(named))
        snprintf(job->observed_session, sizeof job->observed_session, "%s", named->valuestring);
    else
        mh_request_current_session(job->req, job->observed_session, sizeof job->observed_session);
    if (!mh_observe_wants(obs, MH_OBSERVE_TOOL_BEGIN)) return;
    char *text = args ? cJSON_PrintUnformatted(args) : NULL;
    mh_observation o = {.struct_size = sizeof o, .kind = MH_OBSERVE_TOOL_BEGIN,
                        .session = job->observed_session[0] ? job->observed_session : NULL,
                        .detail_json = text ? text : "{}", .call_id = job->call_id,
                        .client = job->client, .tool = tool_name};
    mh_observe_emit(obs, &o);
    cJSON_free(text);
}

/* After mh_call_finish_content(): the call's content is the result's. */
static void observe_end(tool_job *job, const mh_call *call)
{
    mh_observe *obs = mh_request_host(job->req)->observe;
    if (!job->call_id || !mh_observe_wants(obs, MH_OBSERVE_TOOL_END)) return;
    char summary[200];
    result_summary(call->content, summary, sizeof summary);
    mh_observation o = {.struct_size = sizeof o, .kind = MH_OBSERVE_TOOL_END,
                        .session = job->observed_session[0] ? job->observed_session : NULL,
                        .call_id = job->call_id, .client = job->client, .tool = job->tool->name,
                        .duration_ns = monotonic_ns() - job->started_ns,
                        .is_error = call->error != NULL, .summary = summary};
    mh_observe_emit(obs, &o);
}

static void tool_job_free(tool_job *job)
{
    mh_call_free(job->call);
    free(job->instance);
    free(job);
}

/* Answers the request from what the handler wrote. */
static void finish_tool(tool_job *job)
{
    mh_call *call = job->call;
    if (!call->error && job->tool->output_schema && mh_call_has_structured(call)) {
        char why[512];
        /* The parse itself is checked (no cJSON copy); text only cJSON
         * could read is checked as that tree. */
        int valid = call->structured_doc
                        ? mh_schema_validate_json(job->tool->output_schema,
                                                  mh_json_root(call->structured_doc), why,
                                                  sizeof why)
                        : mh_schema_validate(job->tool->output_schema, call->structured, why,
                                             sizeof why);
        if (!valid) {
            mh_log(MH_LOG_ERROR, job->tool->name, "result does not match its outputSchema: %s",
                   why);
            mh_call_errorf(call,
                           "internal error: %s produced a result that does not match its "
                           "outputSchema (%s); please report this",
                           job->tool->name, why);
        }
    }
    mh_call_finish_content(call);
    observe_end(job, call);
    mh_request_respond_tool(job->req, call);
    tool_job_free(job);
}

static void list_instances(mh_session *s, const char *interface_id, char *out, size_t size)
{
    out[0] = '\0';
    size_t n = mh_session_service_impl.chip_count(s);
    for (size_t i = 0; i < n; i++) {
        const mh_chip *c = mh_session_service_impl.chip_at(s, i);
        if (strcmp(c->interface_id, interface_id) != 0) continue;
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s", len ? ", " : "", c->instance);
    }
}

/* Runs the handler with its client known to the engine (who paused). */
static void call_handler(tool_job *job, const mh_reg_tool *tool, mh_call *call)
{
    if (!job->client[0]) mh_request_client(job->req, job->client, sizeof job->client);
    mh_call_set_current_client(job->client);
    tool->call(tool->user_data, call);
    mh_call_set_current_client(NULL);
}

/* Host tools run on the server's worker threads, so the transport keeps
 * reading (pings, cancellations) while they work. */
static void run_host_tool(void *arg)
{
    tool_job *job = arg;
    if (!mh_request_cancelled(job->req)) call_handler(job, job->tool, job->call);
    finish_tool(job);
}

/* A quick host tool (MH_TOOL_QUICK) runs here on the transport's thread:
 * handing it to a worker would cost more than it does. */
static void start_host_tool(tool_job *job)
{
    if ((job->tool->flags & MH_TOOL_QUICK) &&
        !(job->tool->flags & (MH_TOOL_NEEDS_SESSION | MH_TOOL_SESSION_ON_WORKER))) {
        run_host_tool(job);
        return;
    }
    if (mh_workers_post(mh_server_workers(mh_request_server(job->req)), run_host_tool, job) != 0)
        run_host_tool(job);
}

/* [emu-thread] of the session, or session NULL when it ended first. */
static void run_session_tool(void *arg, mh_session *s)
{
    tool_job *job = arg;
    mh_call *call = job->call;
    const mh_reg_tool *tool = job->tool;
    if (!s) {
        mh_call_errorf(call, "session \"%s\" ended before %s could run; session_list shows "
                             "the live sessions", job->session_name, tool->name);
        finish_tool(job);
        return;
    }
    if (mh_request_cancelled(job->req)) {
        finish_tool(job);
        return;
    }
    if (tool->requires) {
        call->chip = mh_session_service_impl.find_chip(s, tool->requires, job->instance);
        if (!call->chip) {
            char instances[256];
            list_instances(s, tool->requires, instances, sizeof instances);
            if (job->instance && instances[0])
                mh_call_errorf(call,
                               "%s: session \"%s\" has no %s named \"%s\"; its instances are: %s",
                               tool->name, job->session_name, mh_chip_human_name(tool->requires),
                               job->instance, instances);
            else {
                char instead[512];
                mh_chip_alternatives(&mh_request_host(job->req)->registry, s, tool->name,
                                     tool->requires, instead, sizeof instead);
                mh_call_errorf(call,
                               "%s is not available on session \"%s\": the %s machine does not "
                               "have a %s (%s)%s. host_info lists which tools each machine "
                               "offers.",
                               tool->name, job->session_name, mh_session_machine_name(s),
                               mh_chip_human_name(tool->requires), tool->requires, instead);
            }
            finish_tool(job);
            return;
        }
    }
    call_handler(job, tool, call);
    finish_tool(job);
}

/* Picks the session: the `session` argument, else the connection's current
 * one. Answers the call with an error and returns NULL when there is none. */
static mh_session *resolve_session(tool_job *job, const cJSON *args)
{
    const cJSON *named = cJSON_GetObjectItemCaseSensitive(args, "session");
    mh_sessions *set = mh_request_host(job->req)->sessions;
    if (cJSON_IsString(named))
        snprintf(job->session_name, sizeof job->session_name, "%s", named->valuestring);
    else
        mh_request_current_session(job->req, job->session_name, sizeof job->session_name);
    if (!job->session_name[0]) {
        mh_call_errorf(job->call,
                       "%s needs a machine session, and this connection has none: start "
                       "mcphost with --machine c64 (or another machine), or call session_create",
                       job->tool->name);
        return NULL;
    }
    mh_session *s = set ? mh_sessions_find(set, job->session_name) : NULL;
    if (!s)
        mh_call_errorf(job->call,
                       "no machine session named \"%s\"; session_list shows the live sessions",
                       job->session_name);
    return s;
}

void mh_method_tools_call(mh_request *req, const cJSON *params)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(params, "name");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
    if (!cJSON_IsString(name)) {
        mh_request_fail(req, -32602,
                        "Invalid params: tools/call needs params.name, the name of a tool from "
                        "tools/list");
        return;
    }
    if (args && !cJSON_IsObject(args) && !cJSON_IsNull(args)) {
        mh_request_fail(req, -32602, "Invalid params: params.arguments must be a JSON object");
        return;
    }
    const mh_reg_tool *tool = mh_registry_tool(&mh_request_host(req)->registry, name->valuestring);
    if (!tool) {
        char message[400];
        snprintf(message, sizeof message,
                 "Unknown tool: \"%.*s\"; tools/list shows the tools this server offers",
                 mh_utf8_prefix(name->valuestring, 120), name->valuestring);
        mh_request_fail(req, -32602, message);
        return;
    }
    cJSON *empty = NULL;
    if (!cJSON_IsObject(args)) args = empty = cJSON_CreateObject();
    /* `confirm` (a confirmation token, confirm.c) is the host's, not the
     * tool's, unless the tool declares an argument of that name itself. */
    const cJSON *confirm = cJSON_GetObjectItemCaseSensitive(args, "confirm");
    char *confirm_token = confirm ? strdup(cJSON_IsString(confirm) ? confirm->valuestring : "") : NULL;
    const cJSON *declared = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(tool->input_schema, "properties"), "confirm");
    if (confirm && !declared) {
        cJSON *without = cJSON_Duplicate(args, 1);
        cJSON_DeleteItemFromObjectCaseSensitive(without, "confirm");
        cJSON_Delete(empty);
        args = empty = without;
    }
    tool_job *job = calloc(1, sizeof *job);
    if (job) job->call = mh_call_new(req, args);
    if (job && job->call) {
        job->call->tool = tool->name;
        job->call->confirm = confirm_token;
        confirm_token = NULL;
    }
    free(confirm_token);
    if (!job || !job->call) {
        free(job);
        cJSON_Delete(empty);
        mh_request_fail(req, -32603, "Internal error: out of memory");
        return;
    }
    job->req = req;
    job->tool = tool;
    observe_begin(job, tool->name, args);

    char why[1024];
    if (!mh_schema_validate(tool->input_schema, args, why, sizeof why)) {
        /* Argument errors are tool errors, so a model can read and correct them. */
        mh_call_errorf(job->call, "%s: %s. The tool's inputSchema (tools/list) lists what it takes.",
                       tool->name, why);
        cJSON_Delete(empty);
        finish_tool(job);
        return;
    }
    if (!(tool->flags & (MH_TOOL_NEEDS_SESSION | MH_TOOL_SESSION_ON_WORKER))) {
        cJSON_Delete(empty);
        start_host_tool(job);
        return;
    }
    mh_session *s = resolve_session(job, args);
    const cJSON *instance = cJSON_GetObjectItemCaseSensitive(args, "instance");
    if (cJSON_IsString(instance)) job->instance = strdup(instance->valuestring);
    cJSON_Delete(empty);
    if (!s || !mh_request_may_change(req, s, tool->name,
                                     (tool->annotations & MH_TOOL_READ_ONLY) != 0, job->call)) {
        if (s) mh_session_unref(s);
        finish_tool(job);
        return;
    }
    job->call->session = s; /* the call keeps the reference */
    if (tool->flags & MH_TOOL_SESSION_ON_WORKER) {
        start_host_tool(job);
        return;
    }
    mh_session_ref(s);
    /* A read-only tool on an idle machine runs here, on the transport's
     * thread, like a quick host tool: no hand-off to the session's thread
     * and back (mh_session_post_quick queues it when the machine runs). */
    if (tool->annotations & MH_TOOL_READ_ONLY)
        mh_session_post_quick(s, run_session_tool, job);
    else
        mh_session_post_changing(s, run_session_tool, job);
    mh_session_unref(s);
}
