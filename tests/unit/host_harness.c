#include "host_harness.h"

#include <CUnit/CUnit.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core_tools.h"
#include "loader.h"
#include "observe.h"
#include "server.h"
#include "sessions.h"

/* Guards every harness's capture arrays; capture_changed is broadcast when
 * a message or a done arrives (on whichever thread the host sends it). */
static pthread_mutex_t capture_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t capture_changed = PTHREAD_COND_INITIALIZER;

/* Each send gets an exchange of its own: its number, as the pointer the
 * host hands back with every message and the done of that exchange. */
static void *exchange_ptr(double number) { return (void *)(uintptr_t)number; }
static double exchange_number(void *exchange) { return (double)(uintptr_t)exchange; }

static void capture_send(void *user, void *exchange, const char *json, size_t length)
{
    mh_harness *h = user;
    cJSON *msg = cJSON_ParseWithLength(json, length);
    pthread_mutex_lock(&capture_lock);
    cJSON_AddItemToArray(h->sent, msg ? msg : cJSON_CreateString("(unparsable output)"));
    cJSON_AddItemToArray(h->sent_on, cJSON_CreateNumber(exchange_number(exchange)));
    pthread_cond_broadcast(&capture_changed);
    pthread_mutex_unlock(&capture_lock);
}

static void capture_done(void *user, void *exchange)
{
    mh_harness *h = user;
    pthread_mutex_lock(&capture_lock);
    cJSON_AddItemToArray(h->done, cJSON_CreateNumber(exchange_number(exchange)));
    pthread_cond_broadcast(&capture_changed);
    pthread_mutex_unlock(&capture_lock);
}

int mh_harness_init(mh_harness *h, int fixtures)
{
    memset(h, 0, sizeof *h);
    char error[1024];
    h->sent = cJSON_CreateArray();
    h->sent_on = cJSON_CreateArray();
    h->done = cJSON_CreateArray();
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
    cJSON_Delete(h->sent_on);
    cJSON_Delete(h->done);
    memset(h, 0, sizeof *h);
}

/* Whether the host reported exchange done. [capture_lock held] */
static int exchange_done(const mh_harness *h, double exchange)
{
    const cJSON *n;
    cJSON_ArrayForEach(n, h->done)
        if (n->valuedouble == exchange) return 1;
    return 0;
}

/* The answer on exchange: the response to id (a request), else the last
 * message. [capture_lock held] */
static const cJSON *exchange_answer(const mh_harness *h, double exchange, const cJSON *id)
{
    const cJSON *answer = NULL;
    for (int i = 0; i < cJSON_GetArraySize(h->sent); i++) {
        if (cJSON_GetArrayItem(h->sent_on, i)->valuedouble != exchange) continue;
        const cJSON *msg = cJSON_GetArrayItem(h->sent, i);
        if (!id)
            answer = msg;
        else if (cJSON_Compare(cJSON_GetObjectItemCaseSensitive(msg, "id"), id, 1) &&
                 (cJSON_HasObjectItem(msg, "result") || cJSON_HasObjectItem(msg, "error")))
            return msg;
    }
    return answer;
}

const cJSON *mh_harness_send(mh_harness *h, const char *json)
{
    cJSON *message = cJSON_ParseWithOpts(json, NULL, 1);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(message, "id");
    if (!cJSON_HasObjectItem(message, "method") || !(cJSON_IsString(id) || cJSON_IsNumber(id)))
        id = NULL; /* not a request the host can answer by id */

    pthread_mutex_lock(&capture_lock);
    double exchange = ++h->next_exchange;
    pthread_mutex_unlock(&capture_lock);
    mh_server_service_impl.handle(h->conn, exchange_ptr(exchange), json, strlen(json));

    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += MH_HARNESS_TIMEOUT_S;
    pthread_mutex_lock(&capture_lock);
    int done;
    while (!(done = exchange_done(h, exchange)))
        if (pthread_cond_timedwait(&capture_changed, &capture_lock, &deadline) == ETIMEDOUT) {
            done = exchange_done(h, exchange);
            break;
        }
    const cJSON *answer = done ? exchange_answer(h, exchange, id) : NULL;
    pthread_mutex_unlock(&capture_lock);

    if (!done) {
        fprintf(stderr, "\n  harness: no answer within %d s to %.300s\n", MH_HARNESS_TIMEOUT_S,
                json);
        CU_FAIL("the host did not finish the message within MH_HARNESS_TIMEOUT_S");
    } else if (id && !answer) {
        fprintf(stderr, "\n  harness: the host finished %.300s without a response to its id\n",
                json);
        CU_FAIL("the host finished a request without a response to its id");
    }
    cJSON_Delete(message);
    return answer;
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
             "{\"jsonrpc\":\"2.0\",\"id\":%.0f,\"method\":\"tools/call\",\"params\":{\"name\":"
             "\"%s\",\"arguments\":%s}}",
             ++h->next_id, name, args);
    h->last_response = mh_harness_send(h, msg);
    free(msg);
    return cJSON_GetObjectItemCaseSensitive(h->last_response, "result");
}

const cJSON *mh_harness_last_response(const mh_harness *h) { return h->last_response; }

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
