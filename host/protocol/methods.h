/* host/protocol/methods.h - the table of JSON-RPC methods the MCP server answers,
 * and the helpers method handlers use to answer. Each handler takes the
 * request and its params object (may be NULL) and must answer it exactly
 * once, now or later, with mh_request_respond() or mh_request_fail().
 * Thread: handlers run on the transport's thread; tools/call hands the tool
 * to its session's thread, or to the server's workers for host tools
 * (a quick host tool, MH_TOOL_QUICK, runs on the transport's thread). */
#ifndef MH_HOST_METHODS_H
#define MH_HOST_METHODS_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include "server.h"

typedef struct mh_method {
    const char *name;
    void (*fn)(mh_request *req, const cJSON *params);
    int before_initialize; /* allowed before initialize */
} mh_method;

const mh_method *mh_method_find(const char *name);

/* Answering (server.c). respond takes ownership of result. */
void mh_request_respond(mh_request *req, cJSON *result);
/* Answers a tools/call with call's result, the whole message written once
 * into one buffer (mh_call_write_tool_result); call stays the caller's. */
struct mh_call;
void mh_request_respond_tool(mh_request *req, struct mh_call *call);
void mh_request_fail(mh_request *req, int code, const char *message);
/* Like fail, with the error's "data" (taken over; may be NULL). */
void mh_request_fail_data(mh_request *req, int code, const char *message, cJSON *data);
void mh_request_set_log_level(mh_request *req, int level);
mh_server *mh_request_server(mh_request *req);
const char *mh_request_protocol(mh_request *req);
size_t mh_server_page_size(const mh_server *server);
struct mh_workers *mh_server_workers(mh_server *server);

/* Lifecycle (server.c and methods.c). */
void mh_method_initialize(mh_request *req, const cJSON *params);
cJSON *mh_initialize_result(const char *version);
/* server/discover (2026-07-28, server_stateless.c). */
void mh_method_server_discover(mh_request *req, const cJSON *params);

/* Method groups, one file each. */
void mh_method_ping(mh_request *req, const cJSON *params);
void mh_method_logging_set_level(mh_request *req, const cJSON *params);
void mh_method_tools_list(mh_request *req, const cJSON *params);
void mh_method_tools_call(mh_request *req, const cJSON *params);
void mh_method_resources_list(mh_request *req, const cJSON *params);
void mh_method_resource_templates_list(mh_request *req, const cJSON *params);
void mh_method_resources_read(mh_request *req, const cJSON *params);
/* Subscriptions; server_resources.c sends notifications/resources/updated. */
void mh_method_resources_subscribe(mh_request *req, const cJSON *params);
void mh_method_resources_unsubscribe(mh_request *req, const cJSON *params);
void mh_method_prompts_list(mh_request *req, const cJSON *params);
void mh_method_prompts_get(mh_request *req, const cJSON *params);
void mh_method_completion_complete(mh_request *req, const cJSON *params);

/* Pagination over a list of n items: reads params.cursor, sets *start and *end,
 * and adds "nextCursor" to result when more remain. Returns 0 and answers
 * the request with -32602 when the cursor is invalid. */
int mh_paginate(mh_request *req, const cJSON *params, size_t n, size_t *start, size_t *end,
                cJSON *result);

#endif
