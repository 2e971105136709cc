/* fuzz_jsonrpc: feeds arbitrary bytes to the MCP server as one incoming
 * message on an initialized connection with the core tools loaded. Every
 * message the server sends back must be strictly valid JSON (RFC 8259,
 * valid UTF-8: what a client's parser takes) with "jsonrpc":"2.0", and
 * nothing may crash, leak or trip UBSan. */
#include <cjson/cJSON.h>
#include <mcphost/json.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core_tools.h"
#include "hostctx.h"
#include "loader.h"
#include "log.h"
#include "observe.h"
#include "server.h"
#include "sessions.h"

static void check_send(void *user, void *exchange, const char *json, size_t length)
{
    (void)user;
    (void)exchange;
    mh_json_doc *doc = mh_json_parse(json, length, NULL, NULL);
    if (!doc) abort();
    mh_json_free(doc);
    cJSON *msg = cJSON_ParseWithLength(json, length);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(msg, "jsonrpc");
    if (!cJSON_IsString(v) || strcmp(v->valuestring, "2.0") != 0) abort();
    cJSON_Delete(msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char init[] =
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
        "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"f\",\"version\":\"1\"}}}";
    mh_hostctx ctx;
    memset(&ctx, 0, sizeof ctx);
    mh_log_open(NULL, MH_LOG_EMERGENCY);
    ctx.observe = mh_observe_new(&ctx);
    ctx.sessions = mh_sessions_new(&ctx);
    ctx.server = mh_server_new(&ctx);
    char error[256];
    mh_loader_add_builtin(&ctx, &mh_core_tools_entry, error, sizeof error);
    mh_conn_desc desc = {sizeof desc, "fuzz", NULL, check_send, NULL};
    mh_conn *conn = mh_server_open(ctx.server, &desc);
    mh_server_service_impl.handle(conn, NULL, init, sizeof init - 1);
    mh_server_service_impl.handle(conn, NULL, (const char *)data, size);
    mh_server_service_impl.close(conn);
    mh_sessions_free(ctx.sessions);
    mh_loader_unload_all(&ctx);
    mh_registry_free(&ctx.registry);
    mh_server_free(ctx.server);
    mh_observe_free(ctx.observe);
    return 0;
}
