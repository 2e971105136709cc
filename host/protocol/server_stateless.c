/* server_stateless.c - the stateless MCP revision 2026-07-28 beside the
 * initialize era: a request whose params._meta carries
 * "io.modelcontextprotocol/protocolVersion" is served on its own, without
 * initialize, in the version it names; server/discover tells a client what
 * the server is before anything else (docs/protocol-2026.md).
 *
 * What the revision removed is refused for such a request (ping,
 * logging/setLevel, resources/subscribe and unsubscribe, initialize
 * itself), so a stateless client never believes in a session it has not
 * got. Requests without that _meta key keep the initialize era's rules. */
#include <stdio.h>
#include <string.h>

#include <mcphost/json.h>

#include "methods.h"
#include "server_internal.h"

#define MH_META_VERSION "io.modelcontextprotocol/protocolVersion"
#define MH_META_CAPABILITIES "io.modelcontextprotocol/clientCapabilities"

/* JSON-RPC error of the revision for a version the server does not serve. */
#define MH_ERR_CODE_UNSUPPORTED_VERSION (-32022)

/* The stateless revisions served, newest first. */
static const char *const stateless_versions[] = {"2026-07-28", NULL};

/* Methods of the initialize era that the stateless revision removed. */
static const char *const removed_methods[] = {
    "initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe",
    NULL,
};

static int listed(const char *const *list, const char *name)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], name) == 0) return 1;
    return 0;
}

static void fail_unsupported(mh_request *req, const char *requested)
{
    char message[256];
    snprintf(message, sizeof message,
             "Unsupported protocol version \"%.*s\": this server serves %s statelessly and "
             "2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05 through initialize",
             mh_utf8_prefix(requested, 40), requested, stateless_versions[0]);
    cJSON *data = cJSON_CreateObject();
    cJSON *supported = cJSON_AddArrayToObject(data, "supported");
    for (size_t i = 0; stateless_versions[i]; i++)
        cJSON_AddItemToArray(supported, cJSON_CreateString(stateless_versions[i]));
    for (size_t i = 0; mh_protocol_versions[i]; i++)
        cJSON_AddItemToArray(supported, cJSON_CreateString(mh_protocol_versions[i]));
    cJSON_AddStringToObject(data, "requested", requested);
    mh_request_fail_data(req, MH_ERR_CODE_UNSUPPORTED_VERSION, message, data);
}

int mh_server_stateless_request(mh_request *req, const char *method, const cJSON *params)
{
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(params, "_meta");
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(meta, MH_META_VERSION);
    if (!version) return 0;
    if (!cJSON_IsString(version)) {
        mh_request_fail(req, -32602,
                        "Invalid params: _meta[\"" MH_META_VERSION "\"] must be a protocol "
                        "version string such as \"2026-07-28\"");
        return -1;
    }
    if (!listed(stateless_versions, version->valuestring)) {
        fail_unsupported(req, version->valuestring);
        return -1;
    }
    if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(meta, MH_META_CAPABILITIES))) {
        mh_request_fail(req, -32602,
                        "Invalid params: a " "2026-07-28 request carries its client capabilities "
                        "in _meta[\"" MH_META_CAPABILITIES "\"] (an object, {} for none)");
        return -1;
    }
    if (listed(removed_methods, method)) {
        char message[320];
        snprintf(message, sizeof message,
                 "Method not found: %s is not part of the stateless revision %s; send it "
                 "without _meta[\"" MH_META_VERSION "\"] on a connection opened with "
                 "initialize to use it",
                 method, version->valuestring);
        mh_request_fail(req, -32601, message);
        return -1;
    }
    snprintf(req->modern_version, sizeof req->modern_version, "%s", version->valuestring);
    return 1;
}

void mh_method_server_discover(mh_request *req, const cJSON *params)
{
    (void)params;
    cJSON *result = mh_initialize_result(stateless_versions[0]);
    cJSON_DeleteItemFromObjectCaseSensitive(result, "protocolVersion");
    cJSON *caps = cJSON_GetObjectItemCaseSensitive(result, "capabilities");
    /* The revision has no logging/setLevel and no resources/subscribe. */
    cJSON_DeleteItemFromObjectCaseSensitive(caps, "logging");
    cJSON *resources = cJSON_GetObjectItemCaseSensitive(caps, "resources");
    cJSON_ReplaceItemInObjectCaseSensitive(resources, "subscribe", cJSON_CreateFalse());
    cJSON *supported = cJSON_CreateArray();
    for (size_t i = 0; stateless_versions[i]; i++)
        cJSON_AddItemToArray(supported, cJSON_CreateString(stateless_versions[i]));
    cJSON_AddItemToObject(result, "supportedVersions", supported);
    if (!cJSON_HasObjectItem(result, "resultType"))
        cJSON_AddStringToObject(result, "resultType", "complete");
    mh_request_respond(req, result);
}
