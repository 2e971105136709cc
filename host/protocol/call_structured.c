/* call_structured.c - a tool's structured content on its way through the
 * host: parsed once with the SDK's strict parser, seen by the host (output
 * schema validation, content forwarding) as a cJSON tree whose strings
 * point into that parse, and written to the client as the text the tool
 * gave (compact JSON), so a large result is never printed twice. The
 * output schema is checked on the parse itself (mh_schema_validate_json);
 * the cJSON view is made only for the few paths that want a tree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/json.h>

#include "call.h"

cJSON *mh_cjson_view(const mh_json *v)
{
    switch (mh_json_typeof(v)) {
    case MH_JSON_NONE: return NULL;
    case MH_JSON_NULL: return cJSON_CreateNull();
    case MH_JSON_BOOL: {
        bool b = false;
        mh_json_as_bool(v, &b);
        return cJSON_CreateBool(b);
    }
    case MH_JSON_NUMBER: {
        double d = 0;
        mh_json_as_double(v, &d);
        return cJSON_CreateNumber(d);
    }
    case MH_JSON_STRING: return cJSON_CreateStringReference(mh_json_as_string(v, NULL));
    case MH_JSON_ARRAY: {
        cJSON *array = cJSON_CreateArray();
        size_t n = mh_json_array_size(v);
        for (size_t i = 0; array && i < n; i++) {
            cJSON *item = mh_cjson_view(mh_json_array_get(v, i));
            if (!item || !cJSON_AddItemToArray(array, item)) {
                cJSON_Delete(item);
                cJSON_Delete(array);
                return NULL;
            }
        }
        return array;
    }
    case MH_JSON_OBJECT: {
        cJSON *object = cJSON_CreateObject();
        size_t n = mh_json_object_size(v);
        for (size_t i = 0; object && i < n; i++) {
            cJSON *item = mh_cjson_view(mh_json_object_value(v, i));
            if (!item || !cJSON_AddItemToObject(object, mh_json_object_key(v, i, NULL), item)) {
                cJSON_Delete(item);
                cJSON_Delete(object);
                return NULL;
            }
        }
        return object;
    }
    }
    return NULL;
}

/* Text the stdio transport can send as one line: no raw line breaks
 * (JSON strings hold none, so these would be whitespace between tokens). */
static int one_line(const char *json, size_t length)
{
    return !memchr(json, '\n', length) && !memchr(json, '\r', length);
}

int mh_call_take_structured(mh_call *call, const char *json, char *error, size_t error_size)
{
    size_t length = strlen(json);
    mh_json_parse_opts opts = {length + 1, 0};
    mh_json_error why;
    mh_json_doc *doc = mh_json_parse(json, length, &opts, &why);
    if (!doc) {
        /* Text the strict parser refuses (invalid UTF-8, a duplicate key)
         * but cJSON takes went out as cJSON read it before; so it still
         * does, printed from that tree. */
        cJSON *loose = cJSON_ParseWithLength(json, length);
        if (!cJSON_IsObject(loose)) {
            snprintf(error, error_size, "%s", why.message);
            cJSON_Delete(loose);
            return -1;
        }
        mh_call_drop_structured(call);
        call->structured = loose;
        return 0;
    }
    if (mh_json_typeof(mh_json_root(doc)) != MH_JSON_OBJECT) {
        snprintf(error, error_size, "it is not an object");
        mh_json_free(doc);
        return -1;
    }
    int single = one_line(json, length); /* two scans of a 128 KB result: once is enough */
    char *text = single ? malloc(length + 1) : NULL;
    if (single && !text) {
        snprintf(error, error_size, "out of memory");
        mh_json_free(doc);
        return -1;
    }
    if (text) memcpy(text, json, length + 1);
    mh_call_drop_structured(call);
    call->structured_doc = doc; /* the cJSON view waits until asked for */
    call->structured_text = text;
    call->structured_length = text ? length : 0;
    return 0;
}

int mh_call_has_structured(const mh_call *call)
{
    return call->structured || call->structured_doc;
}

cJSON *mh_call_structured_tree(mh_call *call)
{
    if (!call->structured && call->structured_doc)
        call->structured = mh_cjson_view(mh_json_root(call->structured_doc));
    return call->structured;
}

void mh_call_own_structured(mh_call *call)
{
    if (!call->structured_doc) return;
    /* cJSON_Duplicate copies referenced strings into owned ones */
    const cJSON *view = mh_call_structured_tree(call);
    cJSON *owned = view ? cJSON_Duplicate(view, 1) : NULL;
    cJSON_Delete(call->structured);
    call->structured = owned;
    mh_json_free(call->structured_doc);
    call->structured_doc = NULL;
}

void mh_call_drop_structured(mh_call *call)
{
    cJSON_Delete(call->structured);
    call->structured = NULL;
    mh_json_free(call->structured_doc);
    call->structured_doc = NULL;
    free(call->structured_text);
    call->structured_text = NULL;
    call->structured_length = 0;
}
