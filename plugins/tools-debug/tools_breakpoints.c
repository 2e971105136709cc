/* tools_breakpoints.c - breakpoints, watchpoints and tracepoints on the
 * host's debug engine (mh.debug/1): set, memory_watch, list, delete, toggle,
 * condition, trace. They run on the session's thread between run slices
 * (MH_TOOL_NEEDS_SESSION), so they take effect at once on a running machine
 * and are armed before a paused one starts: none is ever missed. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/args.h>
#include <mcphost/json.h>
#include <mcphost/toolkit.h>

#include "td_resolve.h"
#include "td_source.h"
#include "tools_debug.h"

typedef struct bp_args {
    mh_json_doc *doc;
    const mh_json *args;
    char error[MH_ARGS_ERROR_SIZE + 200];
} bp_args;

static int parse(td_plugin *p, mh_call *call, bp_args *a)
{
    a->args = mh_toolkit_args(p->call, call, &a->doc, a->error, sizeof a->error);
    return a->args != NULL;
}

/* ---- labels in conditions ---- */

typedef struct label_scope {
    td_plugin *plugin;
    const char *session;
} label_scope;

/* The expression language's constant callback: a label of the session. */
static int label_constant(void *user, const char *name, size_t length, int64_t *value, char *why,
                          size_t why_size)
{
    label_scope *scope = user;
    if (!scope->plugin->store) return 0;
    uint32_t address = 0;
    td_session_state *state = td_store_lock(scope->plugin->store, scope->session, 0);
    int found = td_resolve_label(state, name, length, &address, why, why_size);
    td_store_unlock(scope->plugin->store);
    if (found) *value = address;
    return found;
}

/* Answers with the breakpoint list (and the id just set, when nonzero). */
static void report_list(td_plugin *p, mh_call *call, uint32_t id, const char *text)
{
    mh_session *session = p->call->session(call);
    char *list = td_fetch_json(p->debug->bp_list_json, session);
    if (!list) {
        p->call->error(call, "out of memory listing breakpoints");
        return;
    }
    char *json = malloc(strlen(list) + 64);
    if (!json) {
        free(list);
        p->call->error(call, "out of memory listing breakpoints");
        return;
    }
    if (id) sprintf(json, "{\"id\":%u,\"breakpoints\":%s}", id, list);
    else sprintf(json, "{\"breakpoints\":%s}", list);
    td_send_with_facts(p, call, text, json);
    free(json);
    free(list);
}

/* ---- kinds ---- */

static const struct {
    const char *name;
    uint32_t kinds;
} kind_names[] = {
    {"exec", MH_BP_EXEC},   {"read", MH_BP_READ},
    {"write", MH_BP_WRITE}, {"change", MH_BP_CHANGE},
    {"access", MH_BP_READ | MH_BP_WRITE},
};

static int kind_of(const char *name, uint32_t *kinds)
{
    for (size_t i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++)
        if (strcmp(kind_names[i].name, name) == 0) {
            *kinds |= kind_names[i].kinds;
            return 1;
        }
    return 0;
}

/* `key` as a kind name or an array of them; def when missing. */
static int parse_kinds(const mh_json *args, const char *key, uint32_t def, uint32_t *kinds,
                       char *error, size_t size)
{
    const mh_json *value = mh_json_object_get(args, key);
    *kinds = 0;
    if (!value || mh_json_is_null(value)) {
        *kinds = def;
        return 1;
    }
    size_t n = mh_json_typeof(value) == MH_JSON_ARRAY ? mh_json_array_size(value) : 1;
    for (size_t i = 0; i < n; i++) {
        const mh_json *item = mh_json_typeof(value) == MH_JSON_ARRAY ? mh_json_array_get(value, i)
                                                                     : value;
        const char *name = mh_json_as_string(item, NULL);
        if (!name || !kind_of(name, kinds)) {
            snprintf(error, size, "%s: expected \"exec\", \"read\", \"write\", \"change\" or "
                                  "\"access\" (or an array of them), got %s%s%s",
                     key, name ? "\"" : "a ", name ? name : mh_json_type_name(mh_json_typeof(item)),
                     name ? "\"" : "");
            return 0;
        }
    }
    if (!*kinds) {
        snprintf(error, size, "%s: give at least one kind", key);
        return 0;
    }
    return 1;
}

/* ---- set and memory_watch ---- */

static void add_breakpoint(td_plugin *p, mh_call *call, const char *kinds_key, uint32_t def_kinds)
{
    bp_args a = {0};
    if (!parse(p, call, &a)) return;
    mh_breakpoint_spec spec = {0};
    spec.struct_size = sizeof spec;
    uint32_t start = 0, length = 0;
    mh_status status = td_resolve_range(p->store, p->sessions->name(p->call->session(call)), a.args,
                                        0xFFFF, 1, 0, &start, &length, a.error, sizeof a.error);
    if (status != MH_OK) {
        p->call->error(call, a.error);
    } else if (parse_kinds(a.args, kinds_key, def_kinds, &spec.kinds, a.error, sizeof a.error) &&
               mh_toolkit_breakpoint_options(a.args, &spec, a.error, sizeof a.error) == MH_OK) {
        spec.start = start;
        spec.end = start + length - 1;
        label_scope scope = {p, p->sessions->name(p->call->session(call))};
        spec.constant = label_constant;
        spec.constant_user = &scope;
        uint32_t id = 0;
        status = p->debug->bp_add(p->call->session(call), &spec, &id, a.error, sizeof a.error);
        if (status != MH_OK) {
            p->call->error(call, a.error);
        } else {
            char text[160];
            snprintf(text, sizeof text, "breakpoint #%u set ($%04X-$%04X)%s%s", id, spec.start,
                     spec.end, spec.condition ? " if " : "", spec.condition ? spec.condition : "");
            report_list(p, call, id, text);
        }
    } else {
        p->call->error(call, a.error);
    }
    mh_json_free(a.doc);
}

static void tool_set(void *user, mh_call *call) { add_breakpoint(user, call, "kind", MH_BP_EXEC); }

static void tool_memory_watch(void *user, mh_call *call)
{
    add_breakpoint(user, call, "on", MH_BP_WRITE);
}

/* ---- list, delete, toggle, condition, trace ---- */

static void tool_list(void *user, mh_call *call)
{
    td_plugin *p = user;
    report_list(p, call, 0, "breakpoints");
}

/* id or group (or all) from the arguments; 0 on a bad argument (error set). */
static int target(td_plugin *p, mh_call *call, bp_args *a, uint32_t *id, const char **group,
                  int allow_all)
{
    int64_t value = 0;
    bool all = false;
    mh_status s_id = mh_args_int(a->args, "id", 1, 0xFFFFFFFFLL, &value, a->error, sizeof a->error);
    if (s_id != MH_OK && s_id != MH_ERR_NOT_FOUND) {
        p->call->error(call, a->error);
        return 0;
    }
    *id = (uint32_t)value;
    *group = NULL;
    mh_status s_group = mh_args_string(a->args, "group", group, NULL, a->error, sizeof a->error);
    if (s_group != MH_OK && s_group != MH_ERR_NOT_FOUND) {
        p->call->error(call, a->error);
        return 0;
    }
    mh_args_bool(a->args, "all", &all, NULL, 0);
    int given = (*id != 0) + (*group != NULL) + (all && allow_all);
    if (given != 1) {
        p->call->error(call, allow_all ? "give exactly one of id, group or all: true "
                                         "(breakpoints_list shows the ids)"
                                       : "give exactly one of id or group (breakpoints_list "
                                         "shows them)");
        return 0;
    }
    return 1;
}

static void not_found(td_plugin *p, mh_call *call, uint32_t id, const char *group)
{
    char text[200];
    if (id) snprintf(text, sizeof text, "no breakpoint #%u; breakpoints_list shows them", id);
    else snprintf(text, sizeof text, "no breakpoint in group \"%s\"; breakpoints_list shows them",
                  group ? group : "");
    p->call->error(call, text);
}

static void tool_delete(void *user, mh_call *call)
{
    td_plugin *p = user;
    bp_args a = {0};
    uint32_t id = 0;
    const char *group = NULL;
    if (parse(p, call, &a) && target(p, call, &a, &id, &group, 1)) {
        if (p->debug->bp_delete(p->call->session(call), id, group) != MH_OK)
            not_found(p, call, id, group);
        else
            report_list(p, call, 0, id ? "breakpoint deleted" : "breakpoints deleted");
    }
    mh_json_free(a.doc);
}

/* Whether breakpoint id is enabled now (from the list). */
static int is_enabled(td_plugin *p, mh_session *session, uint32_t id, int *found)
{
    char *list = td_fetch_json(p->debug->bp_list_json, session);
    mh_json_doc *doc = list ? mh_json_parse(list, strlen(list), NULL, NULL) : NULL;
    const mh_json *root = doc ? mh_json_root(doc) : NULL;
    int enabled = 0;
    *found = 0;
    for (size_t i = 0; root && i < mh_json_array_size(root); i++) {
        const mh_json *bp = mh_json_array_get(root, i);
        int64_t bp_id = 0;
        bool on = false;
        if (mh_json_get_int(bp, "id", &bp_id) == MH_OK && bp_id == id) {
            *found = 1;
            enabled = mh_json_get_bool(bp, "enabled", &on) == MH_OK && on;
        }
    }
    mh_json_free(doc);
    free(list);
    return enabled;
}

static void tool_toggle(void *user, mh_call *call)
{
    td_plugin *p = user;
    bp_args a = {0};
    uint32_t id = 0;
    const char *group = NULL;
    if (parse(p, call, &a) && target(p, call, &a, &id, &group, 0)) {
        mh_session *session = p->call->session(call);
        bool enabled = false;
        mh_status status = mh_args_bool(a.args, "enabled", &enabled, a.error, sizeof a.error);
        int found = 1;
        if (status == MH_ERR_NOT_FOUND && id) {
            enabled = !is_enabled(p, session, id, &found);
            status = MH_OK;
        } else if (status == MH_ERR_NOT_FOUND) {
            snprintf(a.error, sizeof a.error, "toggling a group needs enabled: true or false");
            status = MH_ERR_INVALID_ARGUMENT;
        }
        if (status != MH_OK) p->call->error(call, a.error);
        else if (!found || p->debug->bp_enable(session, id, group, enabled) != MH_OK)
            not_found(p, call, id, group);
        else
            report_list(p, call, 0, enabled ? "enabled" : "disabled");
    }
    mh_json_free(a.doc);
}

static void tool_condition(void *user, mh_call *call)
{
    td_plugin *p = user;
    bp_args a = {0};
    int64_t id = 0;
    const char *condition = NULL;
    if (parse(p, call, &a)) {
        mh_status status = mh_args_int(a.args, "id", 1, 0xFFFFFFFFLL, &id, a.error, sizeof a.error);
        if (status == MH_OK) {
            status = mh_args_string(a.args, "condition", &condition, NULL, a.error, sizeof a.error);
            if (status == MH_ERR_NOT_FOUND) status = MH_OK; /* removes it */
        }
        mh_session *session = p->call->session(call);
        label_scope scope = {p, p->sessions->name(session)};
        int with = p->debug->struct_size >= offsetof(mh_debug_service, bp_condition_with) +
                                                sizeof p->debug->bp_condition_with &&
                   p->debug->bp_condition_with;
        if (status == MH_OK && with)
            status = p->debug->bp_condition_with(session, (uint32_t)id, condition, label_constant,
                                                 &scope, a.error, sizeof a.error);
        else if (status == MH_OK)
            status = p->debug->bp_condition(session, (uint32_t)id, condition, a.error,
                                            sizeof a.error);
        if (status != MH_OK) p->call->error(call, a.error);
        else report_list(p, call, (uint32_t)id,
                         condition && *condition ? "condition set" : "condition removed");
    }
    mh_json_free(a.doc);
}

static void tool_trace(void *user, mh_call *call)
{
    td_plugin *p = user;
    bp_args a = {0};
    int64_t since = 0;
    if (parse(p, call, &a)) {
        mh_status status = mh_args_int(a.args, "since", 0, INT64_MAX, &since, a.error,
                                       sizeof a.error);
        if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
            p->call->error(call, a.error);
        } else {
            mh_session *session = p->call->session(call);
            size_t need = p->debug->trace_json(session, (uint64_t)since, NULL, 0);
            char *json = malloc(need + 1);
            if (!json) {
                p->call->error(call, "out of memory reading the trace");
            } else {
                p->debug->trace_json(session, (uint64_t)since, json, need + 1);
                json = td_where_trace_json(p, p->sessions->name(session), json);
                td_send_with_facts(p, call,
                                   "tracepoint log, oldest first (pass next as since to read "
                                   "only newer entries; when rows are left out below, since = "
                                   "the last row's seq + 1 reads on)",
                                   json);
                free(json);
            }
        }
    }
    mh_json_free(a.doc);
}

/* ---- registration ---- */

/* address + length or end, as every range tool takes them */
#define RANGE_PROPS \
    "\"address\":{\"type\":[\"integer\",\"string\"],\"description\":\"$C000, 49152, a label or " \
    "label+2\"},\"length\":{\"type\":[\"integer\",\"string\"],\"description\":\"Bytes\"}," \
    "\"end\":{\"type\":[\"integer\",\"string\"],\"description\":\"Last address (inclusive)\"}"

static const td_tool tools[] = {
    {"breakpoints_set", "vice.breakpoints.set", "Set a breakpoint",
     "Breakpoint on an address or range: exec stops before the instruction; read, write, "
     "change (a write changing the byte), access after it.",
     "{\"type\":\"object\",\"properties\":{\"condition\":{\"type\":\"string\","
     "\"description\":\"Stop only when true: \\\"x == $10 && mem[$D012] > 100\\\"; names: a x "
     "y s p pc c z i d v n value address write cycles frame raster raster_cycle mem[addr] "
     "opcode, labels\"},"
     MH_TOOLKIT_BREAKPOINT_OPTIONS_SCHEMA
     ","
     RANGE_PROPS
     ",\"kind\":{\"type\":[\"string\",\"array\"],\"description\":\"exec (default), read, "
     "write, change, access, or an array of them\"}},\"required\":[\"address\"],"
     "\"additionalProperties\":false}",
     0, MH_TOOL_NEEDS_SESSION, tool_set},
    {"breakpoints_memory_watch", "vice.breakpoints.memory_watch", "Watch memory",
     "Watchpoint on a range: stops after the instruction that made the access; the stop "
     "record names it (address, value, old value, PC).",
     "{\"type\":\"object\",\"properties\":{\"condition\":{\"type\":\"string\","
     "\"description\":\"Also require this (breakpoints_set syntax)\"},"
     MH_TOOLKIT_BREAKPOINT_OPTIONS_SCHEMA
     ","
     RANGE_PROPS
     ",\"on\":{\"type\":[\"string\",\"array\"],\"description\":\"write (default), read, "
     "change, access, or an array of them\"}},\"required\":[\"address\"],"
     "\"additionalProperties\":false}",
     0, MH_TOOL_NEEDS_SESSION, tool_memory_watch},
    {"breakpoints_list", "vice.breakpoints.list", "List breakpoints",
     "Every breakpoint: kind, range, condition, hits, flags.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, tool_list},
    {"breakpoints_delete", "vice.breakpoints.delete", "Delete breakpoints",
     "Deletes one breakpoint (id), a group, or all.",
     "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\","
     "\"description\":\"Breakpoint id\",\"minimum\":1},\"group\":{\"type\":\"string\","
     "\"description\":\"All breakpoints of this group\"},\"all\":{\"type\":\"boolean\","
     "\"description\":\"true: every breakpoint\"}},\"additionalProperties\":false}",
     MH_TOOL_DESTRUCTIVE, MH_TOOL_NEEDS_SESSION, tool_delete},
    {"breakpoints_toggle", "vice.breakpoints.toggle", "Enable or disable breakpoints",
     "Enables or disables a breakpoint (id; without enabled it flips) or a group.",
     "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\","
     "\"description\":\"Breakpoint id\",\"minimum\":1},\"group\":{\"type\":\"string\","
     "\"description\":\"All breakpoints of this group\"},\"enabled\":{\"type\":\"boolean\","
     "\"description\":\"New state (needed for a group)\"}},\"additionalProperties\":false}",
     0, MH_TOOL_NEEDS_SESSION, tool_toggle},
    {"breakpoints_condition", "vice.breakpoints.condition", "Set a condition",
     "Sets or (without condition, or \"\") removes a breakpoint's condition.",
     "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\","
     "\"description\":\"Breakpoint id\",\"minimum\":1},\"condition\":{\"type\":\"string\","
     "\"description\":\"As in breakpoints_set\"}},\"required\":[\"id\"],"
     "\"additionalProperties\":false}",
     0, MH_TOOL_NEEDS_SESSION, tool_condition},
    {"breakpoints_trace", "vice.breakpoints.trace", "Tracepoint log",
     "Tracepoint (log_only) hits, oldest first, last 1024 kept: PC, cycles, raster, access.",
     "{\"type\":\"object\",\"properties\":{\"since\":{\"type\":\"integer\","
     "\"description\":\"Only entries after this one (the previous answer's next)\","
     "\"minimum\":0}},\"additionalProperties\":false}",
     MH_TOOL_READ_ONLY, MH_TOOL_NEEDS_SESSION, tool_trace},
};

/* Every tool but the last (trace) answers with the breakpoint list. */
static const char list_output[] =
    "{\"type\":\"object\",\"required\":[\"breakpoints\"],\"properties\":{\"id\":{\"type\":"
    "\"integer\"},\"breakpoints\":{\"type\":\"array\"}}}";
static const char trace_output[] =
    "{\"type\":\"object\",\"required\":[\"next\",\"dropped\",\"entries\"]}";

mh_status td_register_breakpoints(td_plugin *plugin)
{
    if (!plugin->debug) return MH_OK;
    const size_t count = sizeof tools / sizeof tools[0];
    mh_status status = td_register_tools(plugin, tools, count - 1, list_output);
    return status != MH_OK ? status : td_register_tools(plugin, tools + count - 1, 1, trace_output);
}
