#include "window_client.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/transport.h"
#include "ptrvec.h"
#include "server.h"

typedef struct pending_call {
    uint64_t id;
    mh_observe_result_fn done;
    void *user;
} pending_call;

struct mh_window_client {
    mh_conn *conn;
    pthread_mutex_t lock;
    mh_ptrvec pending; /* pending_call* */
    uint64_t next_id;
};

static pending_call *take_pending(mh_window_client *wc, uint64_t id)
{
    pending_call *found = NULL;
    pthread_mutex_lock(&wc->lock);
    for (size_t i = 0; i < wc->pending.count && !found; i++) {
        pending_call *p = wc->pending.items[i];
        if (p->id == id) {
            found = p;
            mh_ptrvec_remove_at(&wc->pending, i);
        }
    }
    pthread_mutex_unlock(&wc->lock);
    return found;
}

/* The server's answers: a response to one of ours ends that call;
 * notifications (progress, log) are not a window's business. */
static void on_send(void *user, void *exchange, const char *json, size_t length)
{
    (void)exchange;
    mh_window_client *wc = user;
    cJSON *msg = cJSON_ParseWithLength(json, length);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
    pending_call *p = cJSON_IsNumber(id) ? take_pending(wc, (uint64_t)id->valuedouble) : NULL;
    if (p) {
        const cJSON *result = cJSON_GetObjectItemCaseSensitive(msg, "result");
        const cJSON *error = cJSON_GetObjectItemCaseSensitive(msg, "error");
        if (cJSON_IsObject(result)) {
            char *text = cJSON_PrintUnformatted(result);
            p->done(p->user, text ? text : "{}",
                    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "isError")));
            cJSON_free(text);
        } else {
            /* a protocol error (unknown tool ...) as a tool error result */
            const cJSON *message = cJSON_GetObjectItemCaseSensitive(error, "message");
            cJSON *r = cJSON_CreateObject();
            cJSON *item = cJSON_CreateObject();
            cJSON_AddStringToObject(item, "type", "text");
            cJSON_AddStringToObject(item, "text", cJSON_IsString(message) ? message->valuestring
                                                                          : "the call failed");
            cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "content"), item);
            cJSON_AddBoolToObject(r, "isError", 1);
            char *text = cJSON_PrintUnformatted(r);
            p->done(p->user, text ? text : "{}", 1);
            cJSON_free(text);
            cJSON_Delete(r);
        }
        free(p);
    }
    cJSON_Delete(msg);
}

mh_window_client *mh_window_client_new(mh_server *server)
{
    mh_window_client *wc = calloc(1, sizeof *wc);
    if (!wc) return NULL;
    pthread_mutex_init(&wc->lock, NULL);
    wc->next_id = 1;
    mh_conn_desc desc = {sizeof desc, "in-process", wc, on_send, NULL};
    wc->conn = mh_server_open(server, &desc);
    if (!wc->conn || mh_server_mark_initialized(wc->conn, "window") != 0) {
        if (wc->conn) mh_server_service_impl.close(wc->conn);
        pthread_mutex_destroy(&wc->lock);
        free(wc);
        return NULL;
    }
    return wc;
}

void mh_window_client_free(mh_window_client *wc)
{
    if (!wc) return;
    mh_server_service_impl.close(wc->conn); /* running calls answer or are cancelled */
    for (size_t i = 0; i < wc->pending.count; i++) {
        pending_call *p = wc->pending.items[i];
        p->done(p->user,
                "{\"content\":[{\"type\":\"text\",\"text\":\"the host is shutting down\"}],"
                "\"isError\":true}",
                1);
        free(p);
    }
    mh_ptrvec_free(&wc->pending);
    pthread_mutex_destroy(&wc->lock);
    free(wc);
}

mh_status mh_window_client_call(mh_window_client *wc, const char *session, const char *tool,
                                const char *arguments_json, mh_observe_result_fn done, void *user)
{
    cJSON *args = arguments_json && *arguments_json ? cJSON_Parse(arguments_json)
                                                    : cJSON_CreateObject();
    if (!cJSON_IsObject(args)) {
        cJSON_Delete(args);
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (session && *session && !cJSON_GetObjectItemCaseSensitive(args, "session"))
        cJSON_AddStringToObject(args, "session", session);
    pending_call *p = calloc(1, sizeof *p);
    if (!p) {
        cJSON_Delete(args);
        return MH_ERR_NO_MEMORY;
    }
    p->done = done;
    p->user = user;
    pthread_mutex_lock(&wc->lock);
    p->id = wc->next_id++;
    int pushed = mh_ptrvec_push(&wc->pending, p) == 0;
    pthread_mutex_unlock(&wc->lock);
    if (!pushed) {
        free(p);
        cJSON_Delete(args);
        return MH_ERR_NO_MEMORY;
    }
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
    cJSON_AddNumberToObject(msg, "id", (double)p->id);
    cJSON_AddStringToObject(msg, "method", "tools/call");
    cJSON *params = cJSON_AddObjectToObject(msg, "params");
    cJSON_AddStringToObject(params, "name", tool);
    cJSON_AddItemToObject(params, "arguments", args);
    char *text = cJSON_PrintUnformatted(msg);
    cJSON_Delete(msg);
    if (!text) {
        free(take_pending(wc, p->id));
        return MH_ERR_NO_MEMORY;
    }
    mh_server_service_impl.handle(wc->conn, NULL, text, strlen(text));
    cJSON_free(text);
    return MH_OK;
}
