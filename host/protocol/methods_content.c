/* resources/list, resources/templates/list, resources/read, prompts/list,
 * prompts/get and completion/complete. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mcphost/json.h>

#include "call.h"
#include "content_forward.h"
#include "hostctx.h"
#include "methods.h"

static void add_optional(cJSON *obj, const char *key, const char *value)
{
    if (value) cJSON_AddStringToObject(obj, key, value);
}

/* Lists resources (templates 0) or resource templates (templates 1). */
static void list_resources(mh_request *req, const cJSON *params, int templates)
{
    const mh_registry *reg = &mh_request_host(req)->registry;
    mh_ptrvec chosen = {0};
    for (size_t i = 0; i < reg->resources.count; i++) {
        const mh_reg_resource *r = reg->resources.items[i];
        if (r->is_template == templates) mh_ptrvec_push(&chosen, (void *)r);
    }
    cJSON *result = cJSON_CreateObject();
    size_t start, end;
    if (!mh_paginate(req, params, chosen.count, &start, &end, result)) {
        cJSON_Delete(result);
        mh_ptrvec_free(&chosen);
        return;
    }
    cJSON *list = cJSON_AddArrayToObject(result, templates ? "resourceTemplates" : "resources");
    for (size_t i = start; i < end; i++) {
        const mh_reg_resource *r = chosen.items[i];
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, templates ? "uriTemplate" : "uri", r->uri);
        cJSON_AddStringToObject(item, "name", r->name);
        add_optional(item, "title", r->title);
        add_optional(item, "description", r->description);
        add_optional(item, "mimeType", r->mime_type);
        cJSON_AddItemToArray(list, item);
    }
    mh_ptrvec_free(&chosen);
    mh_request_respond(req, result);
}

void mh_method_resources_list(mh_request *req, const cJSON *params)
{
    list_resources(req, params, 0);
}

void mh_method_resource_templates_list(mh_request *req, const cJSON *params)
{
    list_resources(req, params, 1);
}

void mh_method_resources_read(mh_request *req, const cJSON *params)
{
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(params, "uri");
    if (!cJSON_IsString(uri)) {
        mh_request_fail(req, -32602, "Invalid params: resources/read needs params.uri");
        return;
    }
    cJSON *args = NULL;
    const mh_reg_resource *r =
        mh_registry_resource_for_uri(&mh_request_host(req)->registry, uri->valuestring, &args);
    if (!r) {
        char message[512];
        snprintf(message, sizeof message,
                 "Resource not found: %.*s; resources/list and resources/templates/list show "
                 "what can be read",
                 mh_utf8_prefix(uri->valuestring, 300), uri->valuestring);
        mh_request_fail(req, -32002, message);
        return;
    }
    if (!args) args = cJSON_CreateObject();
    cJSON_AddStringToObject(args, "uri", uri->valuestring);
    mh_call *call = mh_call_new(req, args);
    cJSON_Delete(args);
    if (!call) {
        mh_request_fail(req, -32603, "Internal error: out of memory");
        return;
    }
    call->resource_uri = uri->valuestring;
    r->read(r->user_data, call);
    if (call->error) {
        mh_request_fail(req, call->error_code ? call->error_code : -32603, call->error);
    } else if (call->forward_tool) {
        mh_forward_read(req, call, r->mime_type, uri->valuestring);
    } else {
        /* Text contents carry the resource's MIME type. */
        cJSON *item;
        cJSON_ArrayForEach(item, call->content)
        {
            if (r->mime_type && !cJSON_GetObjectItemCaseSensitive(item, "mimeType"))
                cJSON_AddStringToObject(item, "mimeType", r->mime_type);
        }
        cJSON *result = cJSON_CreateObject();
        cJSON_AddItemToObject(result, "contents", call->content);
        call->content = NULL;
        mh_request_respond(req, result);
    }
    mh_call_free(call);
}

/* resources/subscribe and resources/unsubscribe: the URI must name a
 * resource (or match a template); server_resources.c sends
 * notifications/resources/updated when it may have changed. */
static void subscription(mh_request *req, const cJSON *params, const char *method)
{
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(params, "uri");
    char message[512];
    if (!cJSON_IsString(uri)) {
        snprintf(message, sizeof message, "Invalid params: %s needs params.uri", method);
        mh_request_fail(req, -32602, message);
        return;
    }
    cJSON *args = NULL;
    const mh_reg_resource *r =
        mh_registry_resource_for_uri(&mh_request_host(req)->registry, uri->valuestring, &args);
    cJSON_Delete(args);
    if (!r) {
        snprintf(message, sizeof message,
                 "Resource not found: %.*s; resources/list and resources/templates/list show "
                 "what exists",
                 mh_utf8_prefix(uri->valuestring, 300), uri->valuestring);
        mh_request_fail(req, -32002, message);
        return;
    }
    if (strcmp(method, "resources/subscribe") == 0) {
        if (mh_request_resource_subscribe(req, uri->valuestring) != 0) {
            mh_request_fail(req, -32603, "Internal error: out of memory");
            return;
        }
    } else {
        mh_request_resource_unsubscribe(req, uri->valuestring); /* not subscribed: fine */
    }
    mh_request_respond(req, cJSON_CreateObject());
}

void mh_method_resources_subscribe(mh_request *req, const cJSON *params)
{
    subscription(req, params, "resources/subscribe");
}

void mh_method_resources_unsubscribe(mh_request *req, const cJSON *params)
{
    subscription(req, params, "resources/unsubscribe");
}

void mh_method_prompts_list(mh_request *req, const cJSON *params)
{
    const mh_registry *reg = &mh_request_host(req)->registry;
    cJSON *result = cJSON_CreateObject();
    size_t start, end;
    if (!mh_paginate(req, params, reg->prompts.count, &start, &end, result)) {
        cJSON_Delete(result);
        return;
    }
    cJSON *list = cJSON_AddArrayToObject(result, "prompts");
    for (size_t i = start; i < end; i++) {
        const mh_reg_prompt *p = reg->prompts.items[i];
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "name", p->name);
        add_optional(item, "title", p->title);
        add_optional(item, "description", p->description);
        cJSON *args = cJSON_AddArrayToObject(item, "arguments");
        for (size_t a = 0; a < p->argument_count; a++) {
            cJSON *arg = cJSON_CreateObject();
            cJSON_AddStringToObject(arg, "name", p->arguments[a].name);
            add_optional(arg, "description", p->arguments[a].description);
            cJSON_AddBoolToObject(arg, "required", p->arguments[a].required != 0);
            cJSON_AddItemToArray(args, arg);
        }
        cJSON_AddItemToArray(list, item);
    }
    mh_request_respond(req, result);
}

void mh_method_prompts_get(mh_request *req, const cJSON *params)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(params, "name");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
    char message[512];
    if (!cJSON_IsString(name)) {
        mh_request_fail(req, -32602, "Invalid params: prompts/get needs params.name");
        return;
    }
    const mh_reg_prompt *p = mh_registry_prompt(&mh_request_host(req)->registry, name->valuestring);
    if (!p) {
        snprintf(message, sizeof message,
                 "Invalid params: unknown prompt \"%.*s\"; prompts/list shows the prompts",
                 mh_utf8_prefix(name->valuestring, 200), name->valuestring);
        mh_request_fail(req, -32602, message);
        return;
    }
    if (args && !cJSON_IsObject(args)) {
        mh_request_fail(req, -32602, "Invalid params: params.arguments must be an object of strings");
        return;
    }
    for (size_t a = 0; a < p->argument_count; a++) {
        const cJSON *value = cJSON_GetObjectItemCaseSensitive(args, p->arguments[a].name);
        if ((p->arguments[a].required && !value) || (value && !cJSON_IsString(value))) {
            snprintf(message, sizeof message,
                     "Invalid params: prompt %s needs argument \"%s\" as a string%s%s",
                     p->name, p->arguments[a].name,
                     p->arguments[a].description ? ": " : "",
                     p->arguments[a].description ? p->arguments[a].description : "");
            mh_request_fail(req, -32602, message);
            return;
        }
    }
    mh_call *call = mh_call_new(req, args);
    if (!call) {
        mh_request_fail(req, -32603, "Internal error: out of memory");
        return;
    }
    p->get(p->user_data, call);
    if (call->error) {
        mh_request_fail(req, -32603, call->error);
    } else {
        cJSON *result = cJSON_CreateObject();
        add_optional(result, "description", p->description);
        cJSON_AddItemToObject(result, "messages",
                              call->messages ? call->messages : cJSON_CreateArray());
        call->messages = NULL;
        mh_request_respond(req, result);
    }
    mh_call_free(call);
}

void mh_method_completion_complete(mh_request *req, const cJSON *params)
{
    const cJSON *ref = cJSON_GetObjectItemCaseSensitive(params, "ref");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(ref, "type");
    const cJSON *argument = cJSON_GetObjectItemCaseSensitive(params, "argument");
    const cJSON *arg_name = cJSON_GetObjectItemCaseSensitive(argument, "name");
    const cJSON *arg_value = cJSON_GetObjectItemCaseSensitive(argument, "value");
    if (!cJSON_IsString(type) || !cJSON_IsString(arg_name) || !cJSON_IsString(arg_value)) {
        mh_request_fail(req, -32602,
                        "Invalid params: completion/complete needs ref.type and argument.name "
                        "and argument.value strings");
        return;
    }
    const mh_registry *reg = &mh_request_host(req)->registry;
    mh_handler_fn complete = NULL;
    void *user_data = NULL;
    if (strcmp(type->valuestring, "ref/prompt") == 0) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(ref, "name");
        const mh_reg_prompt *p =
            cJSON_IsString(name) ? mh_registry_prompt(reg, name->valuestring) : NULL;
        if (!p) {
            mh_request_fail(req, -32602, "Invalid params: ref.name is not a known prompt");
            return;
        }
        complete = p->complete;
        user_data = p->user_data;
    } else if (strcmp(type->valuestring, "ref/resource") == 0) {
        const cJSON *uri = cJSON_GetObjectItemCaseSensitive(ref, "uri");
        const mh_reg_resource *found = NULL;
        for (size_t i = 0; cJSON_IsString(uri) && i < reg->resources.count; i++) {
            const mh_reg_resource *r = reg->resources.items[i];
            if (strcmp(r->uri, uri->valuestring) == 0) found = r;
        }
        if (!found) {
            mh_request_fail(req, -32602, "Invalid params: ref.uri is not a known resource template");
            return;
        }
        complete = found->complete;
        user_data = found->user_data;
    } else {
        mh_request_fail(req, -32602,
                        "Invalid params: ref.type must be \"ref/prompt\" or \"ref/resource\"");
        return;
    }
    cJSON *args = cJSON_CreateObject();
    cJSON_AddStringToObject(args, "argument", arg_name->valuestring);
    cJSON_AddStringToObject(args, "value", arg_value->valuestring);
    const cJSON *context = cJSON_GetObjectItemCaseSensitive(params, "context");
    if (context) cJSON_AddItemToObject(args, "context", cJSON_Duplicate(context, 1));
    mh_call *call = mh_call_new(req, args);
    cJSON_Delete(args);
    if (!call) {
        mh_request_fail(req, -32603, "Internal error: out of memory");
        return;
    }
    if (complete) complete(user_data, call);
    if (call->forward_tool) {
        mh_forward_completion(req, call, arg_value->valuestring);
    } else {
        mh_request_respond(req, mh_completion_result(call->completions, NULL));
    }
    mh_call_free(call);
}
