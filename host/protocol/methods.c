#include "methods.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostctx.h"
#include "log.h"

static const mh_method method_table[] = {
    {"initialize", mh_method_initialize, 1},
    {"ping", mh_method_ping, 1},
    {"logging/setLevel", mh_method_logging_set_level, 0},
    {"tools/list", mh_method_tools_list, 0},
    {"tools/call", mh_method_tools_call, 0},
    {"resources/list", mh_method_resources_list, 0},
    {"resources/templates/list", mh_method_resource_templates_list, 0},
    {"resources/read", mh_method_resources_read, 0},
    {"resources/subscribe", mh_method_resources_subscribe, 0},
    {"resources/unsubscribe", mh_method_resources_unsubscribe, 0},
    {"prompts/list", mh_method_prompts_list, 0},
    {"prompts/get", mh_method_prompts_get, 0},
    {"completion/complete", mh_method_completion_complete, 0},
    {"server/discover", mh_method_server_discover, 1},
};

const mh_method *mh_method_find(const char *name)
{
    for (size_t i = 0; i < sizeof method_table / sizeof method_table[0]; i++)
        if (strcmp(method_table[i].name, name) == 0) return &method_table[i];
    return NULL;
}

cJSON *mh_initialize_result(const char *version)
{
    cJSON *result = cJSON_CreateObject();
    cJSON_AddStringToObject(result, "protocolVersion", version);
    cJSON *caps = cJSON_AddObjectToObject(result, "capabilities");
    cJSON_AddBoolToObject(cJSON_AddObjectToObject(caps, "tools"), "listChanged", 1);
    cJSON *resources = cJSON_AddObjectToObject(caps, "resources");
    cJSON_AddBoolToObject(resources, "subscribe", 1);
    cJSON_AddBoolToObject(resources, "listChanged", 0);
    cJSON_AddBoolToObject(cJSON_AddObjectToObject(caps, "prompts"), "listChanged", 0);
    cJSON_AddObjectToObject(caps, "logging");
    if (strcmp(version, "2024-11-05") != 0) cJSON_AddObjectToObject(caps, "completions");
    cJSON *info = cJSON_AddObjectToObject(result, "serverInfo");
    cJSON_AddStringToObject(info, "name", "mcphost");
    cJSON_AddStringToObject(info, "title", "mcphost Commodore debugger host");
    cJSON_AddStringToObject(info, "version", MH_HOST_VERSION);
    cJSON_AddStringToObject(
        result, "instructions",
        "mcphost emulates Commodore machines (C64, VIC-20, Plus/4) for debugging. Tools act on "
        "this connection's current machine session unless a tool call names another with "
        "`session`; session_list and host_info show what is loaded. Addresses take integers or "
        "strings like \"$C000\", \"0xC000\" or \"49152\".");
    return result;
}

void mh_method_ping(mh_request *req, const cJSON *params)
{
    (void)params;
    mh_request_respond(req, cJSON_CreateObject());
}

void mh_method_logging_set_level(mh_request *req, const cJSON *params)
{
    const cJSON *level = cJSON_GetObjectItemCaseSensitive(params, "level");
    int parsed = cJSON_IsString(level) ? mh_log_level_parse(level->valuestring) : -1;
    if (parsed < 0) {
        mh_request_fail(req, -32602,
                        "Invalid params: level must be one of debug, info, notice, warning, "
                        "error, critical, alert, emergency");
        return;
    }
    mh_request_set_log_level(req, parsed);
    mh_request_respond(req, cJSON_CreateObject());
}

/* Cursors are the decimal index of the next item, prefixed so a client
 * cannot mistake an arbitrary number for one. */
int mh_paginate(mh_request *req, const cJSON *params, size_t n, size_t *start, size_t *end,
                cJSON *result)
{
    size_t page = mh_server_page_size(mh_request_server(req));
    const cJSON *cursor = cJSON_GetObjectItemCaseSensitive(params, "cursor");
    *start = 0;
    if (cursor && !cJSON_IsNull(cursor)) {
        char *tail = NULL;
        unsigned long long at = 0;
        int ok = cJSON_IsString(cursor) && strncmp(cursor->valuestring, "mh:", 3) == 0;
        if (ok) {
            at = strtoull(cursor->valuestring + 3, &tail, 10);
            ok = tail != cursor->valuestring + 3 && *tail == '\0' && at <= n;
        }
        if (!ok) {
            mh_request_fail(req, -32602,
                            "Invalid params: unknown cursor; pass the nextCursor of the previous "
                            "page, or no cursor for the first page");
            return 0;
        }
        *start = (size_t)at;
    }
    *end = *start + page < n ? *start + page : n;
    if (*end < n) {
        char next[32];
        snprintf(next, sizeof next, "mh:%zu", *end);
        cJSON_AddStringToObject(result, "nextCursor", next);
    }
    return 1;
}
