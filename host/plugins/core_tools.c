#include "core_tools.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call.h"
#include "capabilities_tool.h"
#include "chip_names.h"
#include "hostctx.h"
#include "loader.h"
#include "profiles.h"
#include "mcphost/registry.h"
#include "debug_engine.h"
#include "mcphost/toolkit.h"
#include "server.h"
#include "sessions.h"

static mh_hostctx *host_of(mh_call *call) { return call->req ? mh_request_host(call->req) : NULL; }

static void set_result(mh_call *call, cJSON *structured, const char *text)
{
    char *json = cJSON_PrintUnformatted(structured);
    /* The summary and every fact (mh_toolkit_text_with_facts): clients that
     * show only text content see them all. */
    char *full = text && json ? mh_toolkit_text_with_facts(text, json) : NULL;
    if (text) mh_call_service_impl.text(call, full ? full : text);
    free(full);
    mh_call_service_impl.structured(call, json ? json : "{}");
    cJSON_free(json);
    cJSON_Delete(structured);
}

static void tool_ping(void *user, mh_call *call)
{
    (void)user;
    cJSON *out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "reply", "pong");
    cJSON_AddStringToObject(out, "version", MH_HOST_VERSION);
    set_result(call, out, "pong");
}

static cJSON *chips_json(mh_session *s)
{
    cJSON *chips = cJSON_CreateArray();
    size_t n = mh_session_service_impl.chip_count(s);
    for (size_t i = 0; i < n; i++) {
        const mh_chip *c = mh_session_service_impl.chip_at(s, i);
        cJSON *chip = cJSON_CreateObject();
        cJSON_AddStringToObject(chip, "interface", c->interface_id);
        cJSON_AddStringToObject(chip, "instance", c->instance);
        cJSON_AddStringToObject(chip, "description", c->description);
        cJSON_AddItemToArray(chips, chip);
    }
    return chips;
}

/* Who owns s, as session_list shows it: "server" (shared), "you", or the
 * other client's name; "(disconnected)" while it waits for the reaper. */
static void owner_json(cJSON *obj, mh_session *s, mh_call *call)
{
    char label[96];
    int orphaned = 0;
    uint64_t owner = mh_session_owner(s, label, sizeof label, &orphaned);
    int mine = owner && call->req && owner == mh_request_owner_id(call->req);
    char text[128];
    snprintf(text, sizeof text, "%s%s", !owner ? "server" : mine ? "you" : label[0] ? label : "another client",
             orphaned ? " (disconnected)" : "");
    cJSON_AddStringToObject(obj, "owner", text);
    cJSON_AddBoolToObject(obj, "canChange", !owner || mine);
    cJSON_AddStringToObject(obj, "state",
                            mh_exec_state_name(mh_debug_service_impl.state(s)));
    cJSON_AddNumberToObject(obj, "idleSeconds", (double)(mh_session_idle_ms(s) / 1000u));
}

static cJSON *session_json(mh_session *s, const char *current)
{
    cJSON *obj = cJSON_CreateObject();
    cJSON_AddStringToObject(obj, "name", mh_session_name(s));
    cJSON_AddStringToObject(obj, "machine", mh_session_machine_name(s));
    cJSON_AddBoolToObject(obj, "current", current && strcmp(current, mh_session_name(s)) == 0);
    cJSON_AddItemToObject(obj, "chips", chips_json(s));
    return obj;
}

/* Why a tool cannot run on session s, or NULL when it can. */
static const char *unavailable_reason(const mh_reg_tool *t, mh_session *s, char *buf, size_t size)
{
    if (!(t->flags & MH_TOOL_NEEDS_SESSION)) return NULL;
    if (!s) return "needs a machine session; none is selected";
    if (t->requires && !mh_session_service_impl.find_chip(s, t->requires, NULL)) {
        snprintf(buf, size, "the %s machine does not have a %s (%s)", mh_session_machine_name(s),
                 mh_chip_human_name(t->requires), t->requires);
        return buf;
    }
    return NULL;
}

static void tool_host_info(void *user, mh_call *call)
{
    (void)user;
    mh_hostctx *ctx = host_of(call);
    if (!ctx) {
        mh_call_errorf(call, "host_info is only available over a connection");
        return;
    }
    char current[64] = "";
    mh_request_current_session(call->req, current, sizeof current);
    cJSON *out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "version", MH_HOST_VERSION);
    cJSON *versions = cJSON_AddArrayToObject(out, "protocolVersions");
    for (size_t i = 0; mh_protocol_versions[i]; i++)
        cJSON_AddItemToArray(versions, cJSON_CreateString(mh_protocol_versions[i]));

    cJSON *plugins = cJSON_AddArrayToObject(out, "plugins");
    for (size_t i = 0; i < ctx->plugins.count; i++) {
        const mh_plugin_record *p = ctx->plugins.items[i];
        cJSON *plugin = cJSON_CreateObject();
        cJSON_AddStringToObject(plugin, "id", p->entry->id);
        cJSON_AddStringToObject(plugin, "name", p->entry->name);
        cJSON_AddStringToObject(plugin, "version", p->entry->version);
        cJSON_AddStringToObject(plugin, "kind", mh_plugin_kind_name(p->entry->kind));
        cJSON_AddStringToObject(plugin, "path", p->path ? p->path : "(built in)");
        if (p->entry->description)
            cJSON_AddStringToObject(plugin, "description", p->entry->description);
        cJSON_AddItemToArray(plugins, plugin);
    }
    cJSON *machines = cJSON_AddArrayToObject(out, "machines");
    for (size_t i = 0; i < ctx->registry.machines.count; i++) {
        const mh_reg_machine *m = ctx->registry.machines.items[i];
        cJSON *machine = cJSON_CreateObject();
        cJSON_AddStringToObject(machine, "name", m->name);
        cJSON_AddStringToObject(machine, "description", m->description);
        cJSON_AddItemToArray(machines, machine);
    }
    cJSON *transports = cJSON_AddArrayToObject(out, "transports");
    for (size_t i = 0; i < ctx->registry.transports.count; i++)
        cJSON_AddItemToArray(transports, cJSON_CreateString(
                                             ((mh_reg_transport *)ctx->registry.transports.items[i])->name));

    mh_session **list = NULL;
    size_t n = mh_sessions_list(ctx->sessions, &list);
    cJSON *sessions = cJSON_AddArrayToObject(out, "sessions");
    mh_session *cur = NULL;
    for (size_t i = 0; i < n; i++) {
        cJSON_AddItemToArray(sessions, session_json(list[i], current));
        if (strcmp(mh_session_name(list[i]), current) == 0) cur = list[i];
    }
    cJSON_AddStringToObject(out, "currentSession", current);

    cJSON *tools = cJSON_AddArrayToObject(out, "tools");
    for (size_t i = 0; i < ctx->registry.tools.count; i++) {
        const mh_reg_tool *t = ctx->registry.tools.items[i];
        cJSON *tool = cJSON_CreateObject();
        char buf[256];
        const char *why = unavailable_reason(t, cur, buf, sizeof buf);
        cJSON_AddStringToObject(tool, "name", t->name);
        cJSON_AddStringToObject(tool, "plugin", t->owner->entry->id);
        if (t->requires) cJSON_AddStringToObject(tool, "requires", t->requires);
        if (t->seed_name) cJSON_AddStringToObject(tool, "seedName", t->seed_name);
        cJSON_AddBoolToObject(tool, "available", why == NULL);
        if (why) cJSON_AddStringToObject(tool, "unavailableReason", why);
        cJSON_AddItemToArray(tools, tool);
    }
    for (size_t i = 0; i < n; i++) mh_session_unref(list[i]);
    free(list);
    set_result(call, out, NULL);
}

static cJSON *parse_args(mh_call *call) { return cJSON_Parse(call->args_json); }

static void tool_session_create(void *user, mh_call *call)
{
    (void)user;
    mh_hostctx *ctx = host_of(call);
    cJSON *args = parse_args(call);
    const cJSON *machine = cJSON_GetObjectItemCaseSensitive(args, "machine");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(args, "name");
    const cJSON *options = cJSON_GetObjectItemCaseSensitive(args, "options");
    const cJSON *select = cJSON_GetObjectItemCaseSensitive(args, "select");
    char *options_json = options ? cJSON_PrintUnformatted(options) : NULL;
    char error[512];
    mh_session *s = NULL;
    mh_status status = ctx ? mh_sessions_create(ctx->sessions, machine->valuestring,
                                                cJSON_IsString(name) ? name->valuestring : NULL,
                                                options_json, &s, error, sizeof error)
                           : MH_ERR_STATE;
    cJSON_free(options_json);
    if (status != MH_OK) {
        mh_call_errorf(call, "session_create: %s", ctx ? error : "no host");
        cJSON_Delete(args);
        return;
    }
    if (call->req) { /* it belongs to the connection that made it */
        char client[96];
        mh_request_client(call->req, client, sizeof client);
        mh_session_set_owner(s, mh_request_owner_id(call->req), client);
    }
    int selected = !cJSON_IsFalse(select);
    if (selected) mh_request_select_session(call->req, mh_session_name(s));
    cJSON *out = session_json(s, selected ? mh_session_name(s) : NULL);
    char text[160];
    snprintf(text, sizeof text, "created session %s (%s)%s", mh_session_name(s),
             mh_session_machine_name(s), selected ? "; it is now the current session" : "");
    mh_session_unref(s);
    cJSON_Delete(args);
    set_result(call, out, text);
}

static void tool_session_list(void *user, mh_call *call)
{
    (void)user;
    mh_hostctx *ctx = host_of(call);
    char current[64] = "";
    if (call->req) mh_request_current_session(call->req, current, sizeof current);
    mh_session **list = NULL;
    size_t n = ctx ? mh_sessions_list(ctx->sessions, &list) : 0;
    cJSON *out = cJSON_CreateObject();
    cJSON *sessions = cJSON_AddArrayToObject(out, "sessions");
    for (size_t i = 0; i < n; i++) {
        cJSON *one = session_json(list[i], current);
        owner_json(one, list[i], call);
        cJSON_AddItemToArray(sessions, one);
        mh_session_unref(list[i]);
    }
    free(list);
    cJSON_AddStringToObject(out, "current", current);
    set_result(call, out, NULL);
}

static void tool_session_select(void *user, mh_call *call)
{
    (void)user;
    mh_hostctx *ctx = host_of(call);
    cJSON *args = parse_args(call);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(args, "session");
    mh_session *s = ctx ? mh_sessions_find(ctx->sessions, name->valuestring) : NULL;
    if (!s) {
        mh_call_errorf(call, "session_select: no session named \"%s\"; session_list shows the "
                             "live sessions",
                       name->valuestring);
    } else {
        mh_request_select_session(call->req, mh_session_name(s));
        char current[64];
        mh_request_current_session(call->req, current, sizeof current);
        set_result(call, session_json(s, current), NULL);
        mh_session_unref(s);
    }
    cJSON_Delete(args);
}

static void tool_session_destroy(void *user, mh_call *call)
{
    (void)user;
    mh_hostctx *ctx = host_of(call);
    cJSON *args = parse_args(call);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(args, "session");
    mh_session *victim = ctx ? mh_sessions_find(ctx->sessions, name->valuestring) : NULL;
    int allowed = victim && mh_request_may_change(call->req, victim, "session_destroy", 0, call);
    if (victim && allowed && mh_debug_service_impl.state(victim) == MH_EXEC_RUNNING)
        allowed = mh_call_confirm(call, "the machine is running; destroying it loses its state");
    if (victim) mh_session_unref(victim);
    if (victim && !allowed) {
        cJSON_Delete(args);
        return;
    }
    if (!victim || mh_sessions_destroy(ctx->sessions, name->valuestring) != MH_OK) {
        mh_call_errorf(call, "session_destroy: no session named \"%s\"; session_list shows the "
                             "live sessions",
                       name->valuestring);
    } else {
        char current[64];
        mh_request_current_session(call->req, current, sizeof current);
        int was_current = strcmp(current, name->valuestring) == 0;
        if (was_current) mh_request_select_session(call->req, "");
        cJSON *out = cJSON_CreateObject();
        cJSON_AddStringToObject(out, "destroyed", name->valuestring);
        cJSON_AddBoolToObject(out, "wasCurrent", was_current);
        set_result(call, out,
                   was_current ? "destroyed; this connection now has no current session "
                                 "(session_select picks another)"
                               : "destroyed");
    }
    cJSON_Delete(args);
}

/* session_attach: takes a session over from its owner (who gets a
 * "taken_over" event) and makes it current. A session of the server
 * (the command-line machine) stays shared: attaching just selects it. */
static void tool_session_attach(void *user, mh_call *call)
{
    (void)user;
    mh_hostctx *ctx = host_of(call);
    cJSON *args = parse_args(call);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(args, "session");
    mh_session *s = ctx && call->req ? mh_sessions_find(ctx->sessions, name->valuestring) : NULL;
    if (!s) {
        mh_call_errorf(call, "session_attach: no session named \"%s\"; session_list shows the "
                             "live sessions", name->valuestring);
        cJSON_Delete(args);
        return;
    }
    char old_label[96], client[96];
    int orphaned = 0;
    uint64_t me = mh_request_owner_id(call->req);
    uint64_t old = mh_session_owner(s, old_label, sizeof old_label, &orphaned);
    mh_request_client(call->req, client, sizeof client);
    if (old && old != me) {
        mh_session_set_owner(s, me, client);
        cJSON *detail = cJSON_CreateObject();
        cJSON_AddStringToObject(detail, "by", client);
        mh_server_notify_conn(ctx->server, old, mh_session_name(s), "taken_over", detail);
    } else if (old == me) {
        mh_session_set_owner(s, me, client); /* a late reaper deadline goes too */
    }
    mh_request_select_session(call->req, mh_session_name(s));
    cJSON *out = session_json(s, mh_session_name(s));
    owner_json(out, s, call);
    char text[256];
    snprintf(text, sizeof text, "%s is now the current session; %s", mh_session_name(s),
             !old ? "it is the server's, shared by every client"
             : old == me ? "it was already yours"
                         : me ? "it is yours now (its previous owner was told)"
                              : "it is shared now (its previous owner was told)");
    cJSON_AddStringToObject(out, "previousOwner",
                            !old ? "server" : old == me ? "you" : old_label);
    mh_session_unref(s);
    cJSON_Delete(args);
    set_result(call, out, text);
}

/* The session an events tool names, or the connection's current one. */
static int events_session(mh_call *call, const cJSON *args, char *out, size_t size)
{
    const cJSON *named = cJSON_GetObjectItemCaseSensitive(args, "session");
    if (cJSON_IsString(named))
        snprintf(out, size, "%s", named->valuestring);
    else
        mh_request_current_session(call->req, out, size);
    if (!out[0]) {
        mh_call_errorf(call, "no session given and this connection has no current session; "
                             "pass `session` (session_list shows them)");
        return 0;
    }
    mh_session *s = mh_sessions_find(host_of(call)->sessions, out);
    if (!s) {
        mh_call_errorf(call, "no machine session named \"%s\"; session_list shows the live "
                             "sessions", out);
        return 0;
    }
    mh_session_unref(s);
    return 1;
}

static void tool_events_subscribe(void *user, mh_call *call)
{
    (void)user;
    cJSON *args = parse_args(call);
    char session[64];
    if (!call->req || !events_session(call, args, session, sizeof session)) {
        if (!call->req) mh_call_errorf(call, "events_subscribe needs a connection");
        cJSON_Delete(args);
        return;
    }
    uint32_t mask = 0;
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(args, "types");
    const cJSON *t;
    cJSON_ArrayForEach(t, types)
    {
        for (uint32_t k = 1; k <= MH_EVENT_TYPE_COUNT; k++)
            if (strcmp(t->valuestring, mh_event_type_name(k)) == 0) mask |= 1u << k;
    }
    if (!types)
        for (uint32_t k = 1; k <= MH_EVENT_TYPE_COUNT; k++)
            if (k != MH_EVENT_FRAME) mask |= 1u << k; /* frames only on request */
    const cJSON *every = cJSON_GetObjectItemCaseSensitive(args, "every_n_frames");
    const uint32_t every_n = cJSON_IsNumber(every) ? (uint32_t)every->valuedouble : 1;
    if (mh_request_subscribe(call->req, session, mask, every_n) != 0) {
        mh_call_errorf(call, "events_subscribe: out of memory");
        cJSON_Delete(args);
        return;
    }
    cJSON *out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "session", session);
    cJSON *list = cJSON_AddArrayToObject(out, "types");
    for (uint32_t k = 1; k <= MH_EVENT_TYPE_COUNT; k++)
        if (mask & (1u << k)) cJSON_AddItemToArray(list, cJSON_CreateString(mh_event_type_name(k)));
    if (mask & (1u << MH_EVENT_FRAME)) cJSON_AddNumberToObject(out, "every_n_frames", every_n);
    cJSON_AddStringToObject(out, "notification", "notifications/mcphost/event");
    cJSON_Delete(args);
    set_result(call, out, NULL);
}

static void tool_events_unsubscribe(void *user, mh_call *call)
{
    (void)user;
    cJSON *args = parse_args(call);
    char session[64] = "";
    const cJSON *named = cJSON_GetObjectItemCaseSensitive(args, "session");
    if (cJSON_IsString(named))
        snprintf(session, sizeof session, "%s", named->valuestring);
    else if (call->req)
        mh_request_current_session(call->req, session, sizeof session);
    if (!call->req || mh_request_unsubscribe(call->req, session) != 0)
        mh_call_errorf(call, "events_unsubscribe: this connection is not subscribed to events of "
                             "session \"%s\"", session);
    else {
        cJSON *out = cJSON_CreateObject();
        cJSON_AddStringToObject(out, "session", session);
        cJSON_AddBoolToObject(out, "subscribed", 0);
        set_result(call, out, NULL);
    }
    cJSON_Delete(args);
}

static const char session_output[] =
    "{\"type\":\"object\",\"required\":[\"name\",\"machine\",\"chips\"]}";

static const mh_tool_desc core_tools[] = {
    {sizeof(mh_tool_desc), "ping", "Ping",
     "Checks that mcphost answers: \"pong\" and the host version.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"reply\",\"version\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, MH_TOOL_QUICK, NULL, NULL, tool_ping, NULL},
    {sizeof(mh_tool_desc), "host_info", "Host information",
     "Version, plugins, machines, sessions, and every tool with whether it works on the "
     "current session.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"version\",\"plugins\",\"machines\",\"sessions\","
     "\"tools\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, NULL, NULL, tool_host_info, NULL},
    {sizeof(mh_tool_desc), "session_create", "Create machine session",
     "Starts a machine in a new session (its own thread) and makes it current unless select "
     "is false.",
     "{\"type\":\"object\",\"properties\":{\"machine\":{\"type\":\"string\","
     "\"description\":\"Machine type, e.g. \\\"c64\\\" (host_info lists them)\"},"
     "\"name\":{\"type\":\"string\",\"description\":\"Session name (default <machine>-<n>)\"},"
     "\"options\":{\"type\":\"object\",\"description\":\"Machine settings, e.g. "
     "{\\\"autostart\\\": \\\"game.prg\\\"}\"},\"select\":{\"type\":\"boolean\","
     "\"description\":\"Make it current (default true)\"}},\"required\":[\"machine\"],"
     "\"additionalProperties\":false}",
     session_output,
     0, 0, NULL, "vice.session.create", tool_session_create, NULL},
    {sizeof(mh_tool_desc), "session_list", "List machine sessions",
     "The live sessions: machine, chips, owner, state, idle time; the current one.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"sessions\",\"current\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, MH_TOOL_QUICK, NULL, "vice.session.list",
     tool_session_list, NULL},
    {sizeof(mh_tool_desc), "session_select", "Select machine session",
     "Makes a session this connection's current one.",
     "{\"type\":\"object\",\"properties\":{\"session\":{\"type\":\"string\","
     "\"description\":\"Session name (session_list)\"}},\"required\":[\"session\"],"
     "\"additionalProperties\":false}",
     session_output,
     MH_TOOL_IDEMPOTENT, MH_TOOL_QUICK, NULL, "vice.session.select", tool_session_select, NULL},
    {sizeof(mh_tool_desc), "session_destroy", "Destroy machine session",
     "Stops a session and frees it; its state is lost.",
     "{\"type\":\"object\",\"properties\":{\"session\":{\"type\":\"string\","
     "\"description\":\"Session name (session_list)\"}},\"required\":[\"session\"],"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"destroyed\",\"wasCurrent\"]}",
     MH_TOOL_DESTRUCTIVE, 0, NULL, "vice.session.destroy", tool_session_destroy, NULL},
    {sizeof(mh_tool_desc), "session_attach", "Take over a machine session",
     "Takes over another client's session (it is told) and selects it.",
     "{\"type\":\"object\",\"properties\":{\"session\":{\"type\":\"string\","
     "\"description\":\"Session name (session_list)\"}},\"required\":[\"session\"],"
     "\"additionalProperties\":false}",
     session_output,
     MH_TOOL_IDEMPOTENT, 0, NULL, NULL, tool_session_attach, NULL},
    {sizeof(mh_tool_desc), "events_subscribe", "Subscribe to machine events",
     "Sends this connection notifications/mcphost/event for a session's events; again "
     "replaces the types.",
     "{\"type\":\"object\",\"properties\":{\"session\":{\"type\":\"string\","
     "\"description\":\"Session (default: current)\"},\"types\":{\"type\":\"array\","
     "\"description\":\"Event types (default: all but frame)\",\"items\":{\"type\":\"string\","
     "\"enum\":[\"stopped\",\"resumed\",\"breakpoint\",\"jammed\",\"reset\",\"frame\","
     "\"exited\",\"log\"]}},\"every_n_frames\":{\"type\":\"integer\",\"description\":"
     "\"frame: only every n-th frame (default 1)\",\"minimum\":1,\"maximum\":100000}},"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"session\",\"types\",\"notification\"]}",
     MH_TOOL_IDEMPOTENT, 0, NULL, NULL, tool_events_subscribe, NULL},
    {sizeof(mh_tool_desc), "events_unsubscribe", "Unsubscribe from machine events",
     "Stops a session's event notifications.",
     "{\"type\":\"object\",\"properties\":{\"session\":{\"type\":\"string\","
     "\"description\":\"Session (default: current)\"}},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"session\",\"subscribed\"]}",
     MH_TOOL_IDEMPOTENT, 0, NULL, NULL, tool_events_unsubscribe, NULL},
    MH_CAPABILITIES_TOOL,
};

static mh_status core_init(const mh_host *host, void **data)
{
    const mh_registry_service *reg = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    *data = NULL;
    for (size_t i = 0; i < sizeof core_tools / sizeof core_tools[0]; i++) {
        mh_status status = reg->add_tool(host, &core_tools[i]);
        if (status != MH_OK) return status;
    }
    for (size_t i = 0; i < mh_profile_tool_count; i++) {
        mh_status status = reg->add_tool(host, &mh_profile_tools[i]);
        if (status != MH_OK) return status;
    }
    return MH_OK;
}

const mh_plugin_entry mh_core_tools_entry = {
    sizeof(mh_plugin_entry), MH_ABI_MAJOR, MH_ABI_MINOR, "org.mcphost.core", "core",
    MH_HOST_VERSION, "Host tools: ping, host_info, machine sessions", MH_PLUGIN_TOOLSET,
    core_init, NULL,
};
