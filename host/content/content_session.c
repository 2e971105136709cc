/* content_session.c - resource templates of a machine session,
 * mcphost://session/{session}/...: each read is answered by the tool an
 * agent would call (methods_content.c runs it through tools/call on the
 * reader's connection, so validation, chips and observers are the same),
 * except the keyboard names, which come straight from the machine's
 * mh.input/1 key table. Subscribing to them is served by
 * host/protocol/server_resources.c. Completion offers live session names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/json.h>

#include "call.h"
#include "content_internal.h"
#include "mcphost/machine.h"
#include "sessions.h"

#define MH_RESOURCE_NOT_FOUND (-32002)

/* Tool arguments from the template variables: which variable goes to
 * which argument. */
typedef struct var_arg {
    const char *var, *arg;
} var_arg;

typedef struct session_template {
    const char *uri, *name, *title, *description, *mime_type;
    const char *tool; /* answers the read; NULL: read here */
    var_arg args[2];
} session_template;

static const session_template templates[] = {
    {"mcphost://session/{session}/screen.png", "screen", "Screen",
     "The session's current screen as PNG (screen_capture); updated while it runs", "image/png",
     "screen_capture", {{NULL, NULL}}},
    {"mcphost://session/{session}/memory/{start}-{end}", "memory", "Memory range",
     "A hex/ASCII dump of CPU memory from start to end inclusive, as memory_read "
     "(\"$C000\", \"0xC000\" or \"49152\")",
     "text/plain", "memory_read", {{"start", "address"}, {"end", "end"}}},
    {"mcphost://session/{session}/registers", "registers", "CPU registers",
     "The CPU registers and flags as JSON (registers_get)", "application/json", "registers_get",
     {{NULL, NULL}}},
    {"mcphost://session/{session}/disassembly/{address}", "disassembly", "Disassembly",
     "16 instructions disassembled from address (disassemble), with symbols", "text/plain",
     "disassemble", {{"address", "address"}}},
    {"mcphost://session/{session}/basic", "basic", "BASIC program",
     "The BASIC program in memory as a listing (basic_list)", "text/plain", "basic_list",
     {{NULL, NULL}}},
    {"mcphost://session/{session}/breakpoints", "breakpoints", "Breakpoints",
     "Every breakpoint, watchpoint and tracepoint as JSON (breakpoints_list)",
     "application/json", "breakpoints_list", {{NULL, NULL}}},
    {"mcphost://session/{session}/keyboard", "keyboard", "Keyboard key names",
     "The key names keyboard_press takes on this machine (from its live key table); "
     "keyboard_type takes text",
     "text/plain", NULL, {{NULL, NULL}}},
};

static const char *var(const cJSON *vars, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(vars, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The key names of the session's machine, one a line. */
static void read_keyboard(mh_call *call, mh_session *s)
{
    const mh_chip *input = mh_session_service_impl.find_chip(s, MH_IFACE_INPUT, NULL);
    const mh_input_iface *iface = input ? input->vtable : NULL;
    const char *const *names = iface && iface->key_names ? iface->key_names(input->context) : NULL;
    if (!names) {
        call->error_code = MH_RESOURCE_NOT_FOUND;
        mh_call_errorf(call, "the %s machine of session \"%s\" has no keyboard by name",
                       mh_session_machine_name(s), mh_session_name(s));
        return;
    }
    size_t size = 1;
    for (size_t i = 0; names[i]; i++) size += strlen(names[i]) + 1;
    char *text = malloc(size);
    if (!text) return;
    text[0] = '\0';
    for (size_t i = 0; names[i]; i++) {
        if (!names[i][0]) continue; /* unused matrix positions */
        strcat(text, names[i]);
        strcat(text, "\n");
    }
    mh_call_service_impl.text(call, text);
    free(text);
}

static void read_session(void *user, mh_call *call)
{
    const session_template *t = user;
    cJSON *vars = cJSON_Parse(call->args_json);
    const char *name = var(vars, "session");
    mh_hostctx *ctx = call->req ? mh_request_host(call->req) : NULL;
    mh_session *s = name && ctx && ctx->sessions ? mh_sessions_find(ctx->sessions, name) : NULL;
    if (!s) {
        call->error_code = MH_RESOURCE_NOT_FOUND;
        if (!name) name = "";
        mh_call_errorf(call, "Resource not found: there is no machine session \"%.*s\"; "
                             "session_list shows the live sessions",
                       mh_utf8_prefix(name, 80), name);
    } else if (!t->tool) {
        read_keyboard(call, s);
    } else {
        cJSON *args = cJSON_CreateObject();
        cJSON_AddStringToObject(args, "session", name);
        for (size_t i = 0; i < sizeof t->args / sizeof t->args[0] && t->args[i].var; i++) {
            const char *value = var(vars, t->args[i].var);
            if (value) cJSON_AddStringToObject(args, t->args[i].arg, value);
        }
        call->forward_tool = t->tool;
        call->forward_args = args;
    }
    if (s) mh_session_unref(s);
    cJSON_Delete(vars);
}

/* Arguments and variables that take an address, so a label too. */
static const char *const label_arguments[] = {"address", "start", "end", "routine", "handler"};

int content_complete_label(mh_call *call, const char *argument, const char *value,
                           const char *session)
{
    int label = 0;
    for (size_t i = 0; argument && i < sizeof label_arguments / sizeof label_arguments[0]; i++)
        if (strcmp(argument, label_arguments[i]) == 0) label = 1;
    /* "$C0", "0x", "49": an address being typed, not a label */
    if (!label || !value || value[0] == '$' || (value[0] >= '0' && value[0] <= '9')) return 0;
    cJSON *args = cJSON_CreateObject();
    cJSON_AddStringToObject(args, "filter", value);
    cJSON_AddNumberToObject(args, "limit", 1000);
    if (session) cJSON_AddStringToObject(args, "session", session);
    call->forward_tool = "symbols_list";
    call->forward_args = args;
    return 1;
}

/* Completes the session variable with the live sessions' names, and
 * address variables with the labels of the session named in the context. */
static void complete_session(void *user, mh_call *call)
{
    (void)user;
    cJSON *args = cJSON_Parse(call->args_json);
    const char *argument = var(args, "argument");
    const char *prefix = var(args, "value");
    mh_hostctx *ctx = call->req ? mh_request_host(call->req) : NULL;
    const cJSON *context = cJSON_GetObjectItemCaseSensitive(args, "context");
    const char *session = var(cJSON_GetObjectItemCaseSensitive(context, "arguments"), "session");
    if (content_complete_label(call, argument, prefix, session)) {
        /* answered by symbols_list */
    } else if (argument && strcmp(argument, "session") == 0 && ctx && ctx->sessions) {
        mh_session **list = NULL;
        size_t n = mh_sessions_list(ctx->sessions, &list);
        for (size_t i = 0; i < n; i++) {
            const char *name = mh_session_name(list[i]);
            if (!prefix || strncmp(name, prefix, strlen(prefix)) == 0)
                mh_call_service_impl.completion(call, name);
            mh_session_unref(list[i]);
        }
        free(list);
    }
    cJSON_Delete(args);
}

mh_status content_session_register(content_state *st, const mh_host *host,
                                   const mh_registry_service *reg)
{
    (void)st;
    for (size_t i = 0; i < sizeof templates / sizeof templates[0]; i++) {
        const session_template *t = &templates[i];
        mh_resource_desc d = {sizeof d, t->uri, 1, t->name, t->title, t->description,
                              t->mime_type, read_session, complete_session, (void *)t};
        mh_status status = reg->add_resource(host, &d);
        if (status != MH_OK) return status;
    }
    return MH_OK;
}
