#include "call.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "mcphost/json.h"
#include "mcphost/toolkit.h"
#include "log.h"
#include "sessions.h"
#include "textbuf.h"

mh_call *mh_call_new(mh_request *req, const cJSON *args)
{
    mh_call *call = calloc(1, sizeof *call);
    if (!call) return NULL;
    call->req = req;
    call->args_json = args ? cJSON_PrintUnformatted(args) : strdup("{}");
    call->content = cJSON_CreateArray();
    if (!call->args_json || !call->content) {
        mh_call_free(call);
        return NULL;
    }
    return call;
}

void mh_call_free(mh_call *call)
{
    if (!call) return;
    free(call->args_json);
    if (call->session) mh_session_unref(call->session);
    cJSON_Delete(call->content);
    mh_call_drop_structured(call);
    cJSON_Delete(call->messages);
    cJSON_Delete(call->completions);
    free(call->error);
    cJSON_free(call->client_answer);
    free(call->confirm);
    cJSON_Delete(call->forward_args);
    free(call);
}

static const char *c_args(mh_call *call) { return call->args_json; }
static mh_session *c_session(mh_call *call) { return call->session; }
static const mh_chip *c_chip(mh_call *call) { return call->chip; }

static void c_text(mh_call *call, const char *text)
{
    cJSON *item = cJSON_CreateObject();
    if (call->resource_uri) cJSON_AddStringToObject(item, "uri", call->resource_uri);
    if (!call->resource_uri) cJSON_AddStringToObject(item, "type", "text");
    cJSON_AddStringToObject(item, "text", text ? text : "");
    cJSON_AddItemToArray(call->content, item);
}

static void add_binary(mh_call *call, const char *type, const char *field, const char *mime,
                       const void *data, size_t size)
{
    char *encoded = mh_base64_encode_alloc(data, size);
    if (!encoded) {
        mh_call_errorf(call, "out of memory encoding %zu bytes of %s", size, type ? type : "a blob");
        return;
    }
    cJSON *item = cJSON_CreateObject();
    if (type) cJSON_AddStringToObject(item, "type", type);
    if (call->resource_uri) cJSON_AddStringToObject(item, "uri", call->resource_uri);
    cJSON_AddStringToObject(item, field, encoded);
    cJSON_AddStringToObject(item, "mimeType", mime ? mime : "application/octet-stream");
    cJSON_AddItemToArray(call->content, item);
    free(encoded);
}

static void c_image(mh_call *call, const char *mime, const void *data, size_t size)
{
    add_binary(call, "image", "data", mime, data, size);
}

static void c_audio(mh_call *call, const char *mime, const void *data, size_t size)
{
    add_binary(call, "audio", "data", mime, data, size);
}

static void c_blob(mh_call *call, const char *mime, const void *data, size_t size)
{
    if (call->resource_uri) {
        add_binary(call, NULL, "blob", mime, data, size);
        return;
    }
    /* In a tool result a blob is an embedded resource. */
    call->resource_uri = "mcphost://blob";
    add_binary(call, NULL, "blob", mime, data, size);
    call->resource_uri = NULL;
    cJSON *blob = cJSON_DetachItemFromArray(call->content, cJSON_GetArraySize(call->content) - 1);
    if (!blob) return;
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "type", "resource");
    cJSON_AddItemToObject(item, "resource", blob);
    cJSON_AddItemToArray(call->content, item);
}

static void c_structured(mh_call *call, const char *json)
{
    char why[200];
    if (mh_call_take_structured(call, json ? json : "", why, sizeof why) != 0)
        mh_call_errorf(call, "internal error: the tool produced structured content that is "
                             "not a JSON object");
}

static void c_error(mh_call *call, const char *message)
{
    free(call->error);
    call->error = strdup(message && *message ? message : "the tool failed");
}

void mh_call_errorf(mh_call *call, const char *format, ...)
{
    char message[2048];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    c_error(call, message);
}

static void c_prompt_message(mh_call *call, const char *role, const char *text)
{
    if (!call->messages) call->messages = cJSON_CreateArray();
    cJSON *message = cJSON_CreateObject();
    int assistant = role && strcmp(role, "assistant") == 0;
    cJSON_AddStringToObject(message, "role", assistant ? "assistant" : "user");
    cJSON *content = cJSON_AddObjectToObject(message, "content");
    cJSON_AddStringToObject(content, "type", "text");
    cJSON_AddStringToObject(content, "text", text ? text : "");
    cJSON_AddItemToArray(call->messages, message);
}

static void c_completion(mh_call *call, const char *value)
{
    if (!call->completions) call->completions = cJSON_CreateArray();
    if (value) cJSON_AddItemToArray(call->completions, cJSON_CreateString(value));
}

static void c_progress(mh_call *call, double progress, double total, const char *message)
{
    if (call->req) mh_request_progress(call->req, progress, total, message);
}

static int c_cancelled(mh_call *call) { return call->req ? mh_request_cancelled(call->req) : 0; }

static void c_log(mh_call *call, mh_log_level level, const char *message)
{
    /* With a request, the host log gets the line and only the requesting
     * connection is notified. */
    if (call->req)
        mh_request_log(call->req, (int)level, "tool", message ? message : "");
    else
        mh_log(level, "tool", "%s", message ? message : "");
}

/* A content block from a plugin: an object with a string "type". */
static cJSON *parse_block(mh_call *call, const char *json, const char *what)
{
    cJSON *block = cJSON_Parse(json ? json : "");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(block, "type");
    if (!cJSON_IsObject(block) || !cJSON_IsString(type)) {
        cJSON_Delete(block);
        mh_call_errorf(call, "internal error: the plugin gave %s that is not a JSON object with "
                             "a string \"type\"", what);
        return NULL;
    }
    return block;
}

static void c_content(mh_call *call, const char *content_json)
{
    cJSON *block = parse_block(call, content_json, "a content block");
    if (block) cJSON_AddItemToArray(call->content, block);
}

static void c_prompt_content(mh_call *call, const char *role, const char *content_json)
{
    cJSON *block = parse_block(call, content_json, "prompt message content");
    if (!block) return;
    if (!call->messages) call->messages = cJSON_CreateArray();
    cJSON *message = cJSON_CreateObject();
    int assistant = role && strcmp(role, "assistant") == 0;
    cJSON_AddStringToObject(message, "role", assistant ? "assistant" : "user");
    cJSON_AddItemToObject(message, "content", block);
    cJSON_AddItemToArray(call->messages, message);
}

static _Thread_local const char *current_client;

void mh_call_set_current_client(const char *client) { current_client = client; }

const char *mh_call_current_client(void) { return current_client; }

static const char *c_ask_client(mh_call *call, const char *method, const char *params_json,
                                uint32_t timeout_ms, char *error, size_t error_size)
{
    char scratch[16];
    if (!error || error_size == 0) {
        error = scratch;
        error_size = sizeof scratch;
    }
    error[0] = '\0';
    if (!call->req) {
        snprintf(error, error_size, "there is no client to ask: the call did not come over a "
                                    "connection");
        return NULL;
    }
    if (call->session) {
        snprintf(error, error_size, "a tool that runs on a machine session's thread cannot wait "
                                    "for the client (emulation would stop)");
        return NULL;
    }
    cJSON *params = NULL;
    if (params_json && !(params = cJSON_Parse(params_json))) {
        snprintf(error, error_size, "internal error: the params of %s are not JSON",
                 method ? method : "the request");
        return NULL;
    }
    cJSON *result = mh_request_ask_client(call->req, method ? method : "", params, timeout_ms,
                                          error, error_size);
    cJSON_Delete(params);
    if (!result) return NULL;
    cJSON_free(call->client_answer);
    call->client_answer = cJSON_PrintUnformatted(result);
    cJSON_Delete(result);
    if (!call->client_answer) snprintf(error, error_size, "out of memory");
    return call->client_answer;
}

static int c_state_saved(mh_call *call, int mark)
{
    if (!call->session) return 0;
    if (mark) mh_session_mark_saved(call->session);
    /* a tool that changes the machine counted itself as a change (session_access.c) */
    return mh_session_is_saved(call->session, mark ? 0 : 1);
}

const mh_call_service mh_call_service_impl = {
    sizeof(mh_call_service), c_args,  c_session,    c_chip,           c_text,
    c_image,                 c_audio, c_blob,       c_structured,     c_error,
    c_prompt_message,        c_completion, c_progress, c_cancelled,   c_log,
    c_content,               c_prompt_content, c_ask_client,
    mh_call_confirm,         c_state_saved,
};

static cJSON *text_item(const char *text)
{
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "type", "text");
    cJSON_AddStringToObject(item, "text", text);
    return item;
}

void mh_call_finish_content(mh_call *call)
{
    if (call->content_finished) return;
    call->content_finished = 1;
    if (call->error) {
        cJSON_Delete(call->content);
        call->content = cJSON_CreateArray();
        cJSON_AddItemToArray(call->content, text_item(call->error));
        return;
    }
    int has_text = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, call->content)
    {
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(item, "type");
        has_text |= cJSON_IsString(type) && strcmp(type->valuestring, "text") == 0;
    }
    if (mh_call_has_structured(call) && !has_text) {
        /* Many clients show the model only text content: the facts as
         * readable text (mh_toolkit_facts_text), the JSON when that fails. */
        const cJSON *tree = call->structured_text ? NULL : mh_call_structured_tree(call);
        char *printed = tree ? cJSON_PrintUnformatted(tree) : NULL;
        const char *json = call->structured_text ? call->structured_text : printed;
        char *facts = json ? mh_toolkit_facts_text(json, NULL, 0) : NULL;
        cJSON_InsertItemInArray(call->content, 0, text_item(facts ? facts : json ? json : "{}"));
        free(facts);
        cJSON_free(printed);
    }
}

cJSON *mh_call_tool_result(mh_call *call)
{
    mh_call_finish_content(call);
    cJSON *result = cJSON_CreateObject();
    cJSON_AddItemToObject(result, "content", call->content);
    call->content = cJSON_CreateArray();
    if (call->error) {
        cJSON_AddBoolToObject(result, "isError", 1);
        return result;
    }
    if (mh_call_has_structured(call)) {
        mh_call_own_structured(call); /* the result may outlive the call */
        if (call->structured) cJSON_AddItemToObject(result, "structuredContent", call->structured);
        call->structured = NULL;
    }
    cJSON_AddBoolToObject(result, "isError", 0);
    return result;
}

/* Where a run of bytes that need no escaping may end: sixteen at a time
 * with SSE2 while none is '"', '\\' or below 0x20 (bytes from 0x80 stop
 * the fast step too; the byte loop after takes them), else s. At most
 * `left` bytes are read. */
static const unsigned char *plain_run_end(const unsigned char *s, size_t left)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    while (left >= 16) {
        __m128i w = _mm_loadu_si128((const __m128i *)(const void *)s);
        __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(w, quote), _mm_cmpeq_epi8(w, backslash));
        hit = _mm_or_si128(hit, _mm_cmplt_epi8(w, space));
        if (_mm_movemask_epi8(hit)) break;
        s += 16;
        left -= 16;
    }
#else
    (void)left;
#endif
    return s;
}

/* text as a JSON string the way cJSON prints one (the same bytes): runs
 * of plain bytes copied whole, '"', '\\' and control characters escaped,
 * UTF-8 as it is. */
static void put_json_string(mh_textbuf *out, const char *text)
{
    static const char hex[] = "0123456789abcdef";
    mh_textbuf_append(out, "\"", 1);
    const unsigned char *s = (const unsigned char *)text;
    size_t left = strlen(text);
    while (*s) {
        const unsigned char *run = s;
        s = plain_run_end(s, left);
        while (*s >= 0x20 && *s != '"' && *s != '\\') s++;
        left -= (size_t)(s - run);
        if (s > run) mh_textbuf_append(out, (const char *)run, (size_t)(s - run));
        if (!*s) break;
        char esc[6] = {'\\', 0, 0, 0, 0, 0};
        size_t n = 2;
        switch (*s) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            esc[1] = 'u';
            esc[2] = esc[3] = '0';
            esc[4] = hex[*s >> 4];
            esc[5] = hex[*s & 15];
            n = 6;
        }
        mh_textbuf_append(out, esc, n);
        s++;
        left--;
    }
    mh_textbuf_append(out, "\"", 1);
}

/* A plain text block, {"type":"text","text":...} and nothing else: the
 * common content of a tool result, written without cJSON's printer. */
static int is_plain_text_item(const cJSON *item)
{
    const cJSON *type = item->child, *text = type ? type->next : NULL;
    return cJSON_IsObject(item) && type && text && !text->next && cJSON_IsString(type) &&
           cJSON_IsString(text) && strcmp(type->string, "type") == 0 &&
           strcmp(type->valuestring, "text") == 0 && strcmp(text->string, "text") == 0;
}

/* One other content item: printed into out when a guess of its size is
 * enough (no second copy), else printed and copied. */
static void write_item(const cJSON *item, mh_textbuf *out)
{
    size_t guess = 64;
    const cJSON *field;
    cJSON_ArrayForEach(field, item)
    {
        guess += 16 + (field->string ? strlen(field->string) : 0);
        if (cJSON_IsString(field)) guess += strlen(field->valuestring) * 9 / 8 + 8;
    }
    char *at = guess < INT_MAX ? mh_textbuf_reserve(out, guess) : NULL;
    if (at && cJSON_PrintPreallocated((cJSON *)item, at, (int)guess, 0)) {
        out->length += strlen(at);
        return;
    }
    char *printed = cJSON_PrintUnformatted(item);
    if (!printed) {
        out->failed = 1;
        return;
    }
    mh_textbuf_puts(out, printed);
    cJSON_free(printed);
}

/* The content array as cJSON would print it, text blocks by hand. */
static void write_content(const cJSON *content, mh_textbuf *out)
{
    mh_textbuf_append(out, "[", 1);
    const cJSON *item;
    int first = 1;
    cJSON_ArrayForEach(item, content)
    {
        if (!first) mh_textbuf_append(out, ",", 1);
        first = 0;
        if (is_plain_text_item(item)) {
            mh_textbuf_append(out, "{\"type\":\"text\",\"text\":", 22);
            put_json_string(out, item->child->next->valuestring);
            mh_textbuf_append(out, "}", 1);
        } else {
            write_item(item, out);
        }
    }
    mh_textbuf_append(out, "]", 1);
}

void mh_call_write_tool_result(mh_call *call, mh_textbuf *out, int complete)
{
    mh_call_finish_content(call);
    mh_textbuf_puts(out, "{\"content\":");
    write_content(call->content, out);
    if (!call->error && mh_call_has_structured(call)) {
        mh_textbuf_puts(out, ",\"structuredContent\":");
        if (call->structured_text) {
            mh_textbuf_append(out, call->structured_text, call->structured_length);
        } else {
            const cJSON *tree = mh_call_structured_tree(call);
            char *printed = tree ? cJSON_PrintUnformatted(tree) : NULL;
            if (printed) mh_textbuf_puts(out, printed);
            else out->failed = 1;
            cJSON_free(printed);
        }
    }
    mh_textbuf_puts(out, call->error ? ",\"isError\":true" : ",\"isError\":false");
    if (complete) mh_textbuf_puts(out, ",\"resultType\":\"complete\"");
    mh_textbuf_puts(out, "}");
}
