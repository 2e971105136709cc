/* content_forward.c - resource reads and completions answered by a tool
 * (content_forward.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <mcphost/json.h>

#include "content_forward.h"
#include "methods.h"

/* A resource read answered by a tool (call->forward_tool): the tool runs
 * through tools/call on the reader's connection, then its result becomes
 * the resource's contents. */
typedef struct forwarded_read {
    mh_request *req;
    char *uri;
    char *mime_type; /* the resource's, or NULL */
} forwarded_read;

static const char *first_text(const cJSON *content)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, content)
    {
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(item, "text");
        if (cJSON_IsString(text)) return text->valuestring;
    }
    return NULL;
}

/* A tool result as resource contents, by the resource's MIME type: JSON
 * resources take structuredContent, images the image content, text the
 * text content. */
static cJSON *tool_result_contents(const cJSON *result, const char *uri, const char *mime)
{
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(result, "content");
    const cJSON *structured = cJSON_GetObjectItemCaseSensitive(result, "structuredContent");
    cJSON *contents = cJSON_CreateArray();
    cJSON *entry = cJSON_CreateObject();
    cJSON_AddStringToObject(entry, "uri", uri);
    const int json = mime && strcmp(mime, "application/json") == 0;
    const int image = mime && strncmp(mime, "image/", 6) == 0;
    if (json && cJSON_IsObject(structured)) {
        char *text = cJSON_PrintUnformatted(structured);
        cJSON_AddStringToObject(entry, "mimeType", mime);
        cJSON_AddStringToObject(entry, "text", text ? text : "{}");
        cJSON_free(text);
    } else if (image) {
        const cJSON *item;
        cJSON_ArrayForEach(item, content)
        {
            const cJSON *type = cJSON_GetObjectItemCaseSensitive(item, "type");
            const cJSON *data = cJSON_GetObjectItemCaseSensitive(item, "data");
            const cJSON *item_mime = cJSON_GetObjectItemCaseSensitive(item, "mimeType");
            if (!cJSON_IsString(type) || strcmp(type->valuestring, "image") != 0 ||
                !cJSON_IsString(data))
                continue;
            cJSON_AddStringToObject(entry, "mimeType",
                                    cJSON_IsString(item_mime) ? item_mime->valuestring : mime);
            cJSON_AddStringToObject(entry, "blob", data->valuestring);
            break;
        }
    }
    if (!cJSON_HasObjectItem(entry, "text") && !cJSON_HasObjectItem(entry, "blob")) {
        /* text: every text item, one after another, a newline between */
        size_t size = 1, used = 0;
        const cJSON *item;
        cJSON_ArrayForEach(item, content)
        {
            const cJSON *text = cJSON_GetObjectItemCaseSensitive(item, "text");
            if (cJSON_IsString(text)) size += strlen(text->valuestring) + 1;
        }
        char *all = calloc(1, size);
        cJSON_ArrayForEach(item, content)
        {
            const cJSON *text = cJSON_GetObjectItemCaseSensitive(item, "text");
            if (!all || !cJSON_IsString(text)) continue;
            if (used) all[used++] = '\n';
            size_t n = strlen(text->valuestring);
            memcpy(all + used, text->valuestring, n + 1);
            used += n;
        }
        cJSON_DeleteItemFromObjectCaseSensitive(entry, "mimeType");
        cJSON_AddStringToObject(entry, "mimeType", image || json || !mime ? "text/plain" : mime);
        cJSON_AddStringToObject(entry, "text", all ? all : "");
        free(all);
    }
    cJSON_AddItemToArray(contents, entry);
    return contents;
}

static void forwarded_answer(void *user, cJSON *result, int code, const char *message)
{
    forwarded_read *f = user;
    if (!result) {
        mh_request_fail(f->req, code ? code : -32603, message ? message : "the read failed");
    } else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "isError"))) {
        const char *why = first_text(cJSON_GetObjectItemCaseSensitive(result, "content"));
        char text[1024];
        snprintf(text, sizeof text, "Reading %.*s failed: %.*s", mh_utf8_prefix(f->uri, 200),
                 f->uri, mh_utf8_prefix(why ? why : "the tool failed", 700),
                 why ? why : "the tool failed");
        mh_request_fail(f->req, -32603, text);
    } else {
        cJSON *answer = cJSON_CreateObject();
        cJSON_AddItemToObject(answer, "contents", tool_result_contents(result, f->uri, f->mime_type));
        mh_request_respond(f->req, answer);
    }
    cJSON_Delete(result);
    free(f->uri);
    free(f->mime_type);
    free(f);
}

void mh_forward_read(mh_request *req, mh_call *call, const char *mime_type, const char *uri)
{
    forwarded_read *f = calloc(1, sizeof *f);
    cJSON *params = cJSON_CreateObject();
    if (f) {
        f->req = req;
        f->uri = strdup(uri);
        f->mime_type = mime_type ? strdup(mime_type) : NULL;
    }
    cJSON_AddStringToObject(params, "name", call->forward_tool);
    cJSON_AddItemToObject(params, "arguments",
                          call->forward_args ? call->forward_args : cJSON_CreateObject());
    call->forward_args = NULL;
    if (!f || !f->uri || mh_request_internal(req, "tools/call", params, forwarded_answer, f) != 0) {
        if (f) {
            free(f->uri);
            free(f->mime_type);
        }
        free(f);
        mh_request_fail(req, -32603, "Internal error: out of memory");
    }
    cJSON_Delete(params);
}

#define MH_COMPLETION_MAX 100

/* {"completion": {values, total, hasMore}} from candidate strings; with a
 * prefix, only those that start with it (any case). */
cJSON *mh_completion_result(const cJSON *candidates, const char *prefix)
{
    cJSON *values = cJSON_CreateArray();
    int total = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, candidates)
    {
        if (!cJSON_IsString(v)) continue;
        if (prefix && strncasecmp(v->valuestring, prefix, strlen(prefix)) != 0) continue;
        if (total++ < MH_COMPLETION_MAX) cJSON_AddItemToArray(values, cJSON_Duplicate(v, 1));
    }
    cJSON *result = cJSON_CreateObject();
    cJSON *completion = cJSON_AddObjectToObject(result, "completion");
    cJSON_AddItemToObject(completion, "values", values);
    cJSON_AddNumberToObject(completion, "total", total);
    cJSON_AddBoolToObject(completion, "hasMore", total > MH_COMPLETION_MAX);
    return result;
}

/* A completion answered by a tool (symbols_list for labels): its
 * structuredContent's list of {"name": ...} objects (the first array in
 * it) gives the candidates. A tool error completes nothing. */
typedef struct forwarded_completion {
    mh_request *req;
    char *prefix;
} forwarded_completion;

static void completion_answer(void *user, cJSON *result, int code, const char *message)
{
    (void)code;
    (void)message;
    forwarded_completion *f = user;
    cJSON *names = cJSON_CreateArray();
    const cJSON *structured = cJSON_GetObjectItemCaseSensitive(result, "structuredContent");
    const cJSON *field;
    cJSON_ArrayForEach(field, structured)
    {
        if (!cJSON_IsArray(field)) continue;
        const cJSON *item;
        cJSON_ArrayForEach(item, field)
        {
            const cJSON *name = cJSON_GetObjectItemCaseSensitive(item, "name");
            if (cJSON_IsString(name)) cJSON_AddItemToArray(names, cJSON_CreateString(name->valuestring));
        }
        break;
    }
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "isError"))) {
        cJSON_Delete(names);
        names = cJSON_CreateArray();
    }
    mh_request_respond(f->req, mh_completion_result(names, f->prefix));
    cJSON_Delete(names);
    cJSON_Delete(result);
    free(f->prefix);
    free(f);
}

void mh_forward_completion(mh_request *req, mh_call *call, const char *prefix)
{
    forwarded_completion *f = calloc(1, sizeof *f);
    cJSON *params = cJSON_CreateObject();
    if (f) {
        f->req = req;
        f->prefix = strdup(prefix);
    }
    cJSON_AddStringToObject(params, "name", call->forward_tool);
    cJSON_AddItemToObject(params, "arguments",
                          call->forward_args ? call->forward_args : cJSON_CreateObject());
    call->forward_args = NULL;
    if (!f || !f->prefix ||
        mh_request_internal(req, "tools/call", params, completion_answer, f) != 0) {
        if (f) free(f->prefix);
        free(f);
        mh_request_respond(req, mh_completion_result(NULL, NULL));
    }
    cJSON_Delete(params);
}

