#include "host_harness.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core_tools.h"
#include "loader.h"
#include "observe.h"
#include "server.h"
#include "sessions.h"

static pthread_mutex_t capture_lock = PTHREAD_MUTEX_INITIALIZER;

static void capture_send(void *user, void *exchange, const char *json, size_t length)
{
    (void)exchange;
    mh_harness *h = user;
    cJSON *msg = cJSON_ParseWithLength(json, length);
    pthread_mutex_lock(&capture_lock);
    cJSON_AddItemToArray(h->sent, msg ? msg : cJSON_CreateString("(unparsable output)"));
    pthread_mutex_unlock(&capture_lock);
}

static void capture_done(void *user, void *exchange)
{
    (void)exchange;
    mh_harness *h = user;
    pthread_mutex_lock(&capture_lock);
    h->done_count++;
    pthread_mutex_unlock(&capture_lock);
}

int mh_harness_init(mh_harness *h, int fixtures)
{
    memset(h, 0, sizeof *h);
    char error[1024];
    h->sent = cJSON_CreateArray();
    h->ctx.observe = mh_observe_new(&h->ctx);
    h->ctx.sessions = mh_sessions_new(&h->ctx);
    h->ctx.server = mh_server_new(&h->ctx);
    if (mh_loader_add_builtin(&h->ctx, &mh_core_tools_entry, error, sizeof error) != MH_OK)
        return -1;
    if (fixtures && mh_loader_load_dir(&h->ctx, MH_FIXTURE_DIR) != 2) return -1;
    mh_conn_desc desc = {sizeof desc, "test", h, capture_send, capture_done};
    h->conn = mh_server_open(h->ctx.server, &desc);
    return h->conn ? 0 : -1;
}

void mh_harness_free(mh_harness *h)
{
    if (h->conn) mh_server_service_impl.close(h->conn);
    mh_sessions_free(h->ctx.sessions);
    mh_loader_unload_all(&h->ctx);
    mh_registry_free(&h->ctx.registry);
    mh_server_free(h->ctx.server);
    mh_observe_free(h->ctx.observe);
    cJSON_Delete(h->sent);
    memset(h, 0, sizeof *h);
}

const cJSON *mh_harness_send(mh_harness *h, const char *json)
{
    pthread_mutex_lock(&capture_lock);
    int before_done = h->done_count;
    pthread_mutex_unlock(&capture_lock);
    mh_server_service_impl.handle(h->conn, NULL, json, strlen(json));
    for (int i = 0; i < 2000; i++) {
        pthread_mutex_lock(&capture_lock);
        int finished = h->done_count > before_done;
        pthread_mutex_unlock(&capture_lock);
        if (finished) break;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    pthread_mutex_lock(&capture_lock);
    int n = cJSON_GetArraySize(h->sent);
    const cJSON *last = n ? cJSON_GetArrayItem(h->sent, n - 1) : NULL;
    pthread_mutex_unlock(&capture_lock);
    return last;
}

const cJSON *mh_harness_initialize(mh_harness *h, const char *version)
{
    char msg[512];
    snprintf(msg, sizeof msg,
             "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{"
             "\"protocolVersion\":\"%s\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\","
             "\"version\":\"1\"}}}",
             version);
    const cJSON *response = mh_harness_send(h, msg);
    return cJSON_GetObjectItemCaseSensitive(response, "result");
}

int mh_harness_error_code(const cJSON *response)
{
    const cJSON *code =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(response, "error"), "code");
    return cJSON_IsNumber(code) ? code->valueint : 0;
}

const char *mh_harness_error_message(const cJSON *response)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(response, "error"), "message");
    return cJSON_IsString(m) ? m->valuestring : "";
}

const cJSON *mh_harness_call_tool(mh_harness *h, const char *name, const char *args)
{
    size_t size = strlen(name) + strlen(args) + 128;
    char *msg = malloc(size);
    if (!msg) return NULL;
    snprintf(msg, size,
             "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\","
             "\"arguments\":%s}}",
             name, args);
    const cJSON *result = cJSON_GetObjectItemCaseSensitive(mh_harness_send(h, msg), "result");
    free(msg);
    return result;
}

int mh_harness_is_error(const cJSON *result)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "isError"));
}

const char *mh_harness_text(const cJSON *result)
{
    const cJSON *item = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(result, "content"), 0);
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(item, "text");
    return cJSON_IsString(text) ? text->valuestring : "";
}

int mh_harness_has_chip(const cJSON *chips, const char *interface_id, const char *instance)
{
    const cJSON *chip;
    cJSON_ArrayForEach(chip, chips)
    {
        const cJSON *i = cJSON_GetObjectItemCaseSensitive(chip, "interface");
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(chip, "instance");
        if (cJSON_IsString(i) && cJSON_IsString(n) && strcmp(i->valuestring, interface_id) == 0 &&
            strcmp(n->valuestring, instance) == 0)
            return 1;
    }
    return 0;
}
