/* profile_tools.c - machine_profile_create, _apply, _list, _delete: host
 * tools over profiles.h. Applying a profile creates a new session with the
 * profile's options (most of them, e.g. the chip models, are fixed when a
 * machine is made, so a running session is never reconfigured); the new
 * session belongs to the caller like one from session_create. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/toolkit.h"
#include "call.h"
#include "hostctx.h"
#include "profiles.h"
#include "server.h"
#include "sessions.h"

static void reply(mh_call *call, cJSON *out, const char *text)
{
    char *json = cJSON_PrintUnformatted(out);
    /* The summary and every fact (clients that show only text see them). */
    char *full = text && json ? mh_toolkit_text_with_facts(text, json) : NULL;
    if (text) mh_call_service_impl.text(call, full ? full : text);
    free(full);
    mh_call_service_impl.structured(call, json ? json : "{}");
    cJSON_free(json);
    cJSON_Delete(out);
}

static const char *arg_string(const cJSON *args, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int profile_exists(const char *name)
{
    mh_profile p;
    char error[1200];
    int found = mh_profile_load(name, &p, error, sizeof error) != 1;
    mh_profile_free(&p);
    return found;
}

static void tool_create(void *user, mh_call *call)
{
    (void)user;
    cJSON *args = cJSON_Parse(call->args_json);
    const char *name = arg_string(args, "name");
    mh_hostctx *ctx = call->req ? mh_request_host(call->req) : NULL;
    char error[1200];
    mh_profile p;
    memset(&p, 0, sizeof p);
    cJSON *body = cJSON_CreateObject();
    cJSON_AddItemToObject(body, "machine", cJSON_Duplicate(cJSON_GetObjectItem(args, "machine"), 1));
    const cJSON *desc = cJSON_GetObjectItemCaseSensitive(args, "description");
    if (desc) cJSON_AddItemToObject(body, "description", cJSON_Duplicate(desc, 1));
    cJSON_AddItemToObject(body, "options", cJSON_Duplicate(cJSON_GetObjectItem(args, "options"), 1));
    char *text = cJSON_PrintUnformatted(body);
    cJSON_Delete(body);
    if (!mh_profile_name_valid(name)) {
        mh_call_errorf(call, "machine_profile_create: name \"%.64s\" is invalid: use 1-64 of "
                             "a-z, A-Z, 0-9, _ and -", name ? name : "");
    } else if (!text || mh_profile_from_json(name, text, strlen(text), &p, error, sizeof error)) {
        mh_call_errorf(call, "machine_profile_create: %s", text ? error : "out of memory");
    } else if (ctx && !mh_registry_machine(&ctx->registry, p.machine)) {
        mh_call_errorf(call, "machine_profile_create: unknown machine \"%s\"; host_info lists "
                             "the machines", p.machine);
    } else if (cJSON_IsTrue(cJSON_GetObjectItem(args, "overwrite")) && profile_exists(name) &&
               !mh_call_confirm(call, "the saved profile would be replaced")) {
        /* answered: requires_confirmation */
    } else if (mh_profile_save(&p, cJSON_IsTrue(cJSON_GetObjectItem(args, "overwrite")), error,
                               sizeof error) != 0) {
        mh_call_errorf(call, "machine_profile_create: %s", error);
    } else {
        cJSON *out = cJSON_CreateObject();
        cJSON_AddStringToObject(out, "name", p.name);
        cJSON_AddStringToObject(out, "machine", p.machine);
        cJSON_AddItemToObject(out, "options", cJSON_Duplicate(p.options, 1));
        char line[160];
        snprintf(line, sizeof line, "saved profile %s (%s); machine_profile_apply starts it",
                 p.name, p.machine);
        reply(call, out, line);
    }
    cJSON_free(text);
    mh_profile_free(&p);
    cJSON_Delete(args);
}

static void tool_apply(void *user, mh_call *call)
{
    (void)user;
    cJSON *args = cJSON_Parse(call->args_json);
    const char *name = arg_string(args, "name");
    mh_hostctx *ctx = call->req ? mh_request_host(call->req) : NULL;
    char error[1200];
    mh_profile p;
    int found = mh_profile_load(name ? name : "", &p, error, sizeof error);
    if (found != 0 || !ctx) {
        if (found == 1)
            mh_call_errorf(call, "machine_profile_apply: no profile named \"%s\"; "
                                 "machine_profile_list shows them", name);
        else
            mh_call_errorf(call, "machine_profile_apply: %s", ctx ? error : "no host");
        cJSON_Delete(args);
        return;
    }
    char *options = cJSON_PrintUnformatted(p.options);
    mh_session *s = NULL;
    mh_status status = mh_sessions_create(ctx->sessions, p.machine, arg_string(args, "session_name"),
                                          options, &s, error, sizeof error);
    cJSON_free(options);
    if (status != MH_OK) {
        mh_call_errorf(call, "machine_profile_apply %s: %s", p.name, error);
    } else {
        char client[96];
        mh_request_client(call->req, client, sizeof client);
        mh_session_set_owner(s, mh_request_owner_id(call->req), client);
        int selected = !cJSON_IsFalse(cJSON_GetObjectItem(args, "select"));
        if (selected) mh_request_select_session(call->req, mh_session_name(s));
        cJSON *out = cJSON_CreateObject();
        cJSON_AddStringToObject(out, "profile", p.name);
        cJSON_AddStringToObject(out, "session", mh_session_name(s));
        cJSON_AddStringToObject(out, "machine", p.machine);
        cJSON_AddBoolToObject(out, "current", selected);
        cJSON_AddItemToObject(out, "options", cJSON_Duplicate(p.options, 1));
        char line[200];
        snprintf(line, sizeof line, "profile %s: created session %s (%s)%s", p.name,
                 mh_session_name(s), p.machine, selected ? "; it is now the current session" : "");
        mh_session_unref(s);
        reply(call, out, line);
    }
    mh_profile_free(&p);
    cJSON_Delete(args);
}

static void tool_list(void *user, mh_call *call)
{
    (void)user;
    cJSON *out = cJSON_CreateObject();
    cJSON_AddItemToObject(out, "profiles", mh_profile_list());
    char dir[4096], error[256];
    cJSON_AddStringToObject(out, "directory",
                            mh_profile_dir(dir, sizeof dir, error, sizeof error) == 0 ? dir : "");
    reply(call, out, NULL);
}

static void tool_delete(void *user, mh_call *call)
{
    (void)user;
    cJSON *args = cJSON_Parse(call->args_json);
    const char *name = arg_string(args, "name");
    char error[1200];
    int result = -1;
    if (!mh_profile_name_valid(name))
        snprintf(error, sizeof error, "name \"%.64s\" is invalid: use 1-64 of a-z, A-Z, 0-9, _ "
                                      "and -", name ? name : "");
    else
        result = mh_profile_delete(name, error, sizeof error);
    if (result == 1)
        mh_call_errorf(call, "machine_profile_delete: no profile named \"%s\"", name);
    else if (result != 0)
        mh_call_errorf(call, "machine_profile_delete: %s", error);
    else {
        cJSON *out = cJSON_CreateObject();
        cJSON_AddStringToObject(out, "deleted", name);
        reply(call, out, "deleted");
    }
    cJSON_Delete(args);
}

#define NAME_PROP "\"name\":{\"type\":\"string\",\"description\":\"Profile name\"}"

const mh_tool_desc mh_profile_tools[] = {
    {sizeof(mh_tool_desc), "machine_profile_create", "Save a machine profile",
     "Saves session_create options (model, video, chips, memory, drive8, rom_dir) by name.",
     "{\"type\":\"object\",\"properties\":{" NAME_PROP ",\"machine\":{\"type\":\"string\","
     "\"description\":\"Machine type\"},\"options\":{\"type\":\"object\",\"description\":"
     "\"Machine options\"},\"description\":{\"type\":\"string\","
     "\"description\":\"What it is\"},\"overwrite\":{\"type\":\"boolean\",\"description\":"
     "\"Replace it\"}},\"required\":[\"name\",\"machine\",\"options\"],"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"name\",\"machine\",\"options\"]}",
     0, 0, NULL, "vice.machine.profile.create", tool_create, NULL},
    {sizeof(mh_tool_desc), "machine_profile_apply", "Start a machine from a profile",
     "Starts a new session from a profile.",
     "{\"type\":\"object\",\"properties\":{" NAME_PROP ",\"session_name\":{\"type\":\"string\","
     "\"description\":\"New session's name\"},\"select\":{\"type\":\"boolean\","
     "\"description\":\"Make it current (default true)\"}},\"required\":[\"name\"],"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"profile\",\"session\",\"machine\"]}",
     0, 0, NULL, "vice.machine.profile.apply", tool_apply, NULL},
    {sizeof(mh_tool_desc), "machine_profile_list", "List machine profiles",
     "Built-in and saved profiles.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"profiles\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, NULL, "vice.machine.profile.list", tool_list,
     NULL},
    {sizeof(mh_tool_desc), "machine_profile_delete", "Delete a machine profile",
     "Deletes a saved profile.",
     "{\"type\":\"object\",\"properties\":{" NAME_PROP "},\"required\":[\"name\"],"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"deleted\"]}",
     MH_TOOL_DESTRUCTIVE | MH_TOOL_IDEMPOTENT, 0, NULL, "vice.machine.profile.delete",
     tool_delete, NULL},
};
const size_t mh_profile_tool_count = sizeof mh_profile_tools / sizeof mh_profile_tools[0];
