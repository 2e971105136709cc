/* server_ask.c - requests the server sends the client (ask_client():
 * sampling, elicitation, roots) and the answers that come back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server_internal.h"

/* Hands a client's response to the ask_client() call waiting for it; an
 * answer nobody waits for (late, or unknown id) is dropped. */
void mh_server_deliver_answer(mh_conn *conn, const cJSON *id, const cJSON *result,
                           const cJSON *error)
{
    if (!cJSON_IsString(id)) return;
    pthread_mutex_lock(&conn->lock);
    for (size_t i = 0; i < conn->outgoing.count; i++) {
        outgoing_request *out = conn->outgoing.items[i];
        if (out->arrived || strcmp(out->id, id->valuestring) != 0) continue;
        out->is_error = result == NULL;
        out->answer = cJSON_Duplicate(result ? result : error, 1);
        out->arrived = 1;
        pthread_cond_broadcast(&conn->answered);
        break;
    }
    pthread_mutex_unlock(&conn->lock);
}

/* The client capability a server-to-client method needs, or NULL. */
static const char *capability_for(const char *method)
{
    if (strncmp(method, "sampling/", 9) == 0) return "sampling";
    if (strncmp(method, "elicitation/", 12) == 0) return "elicitation";
    if (strncmp(method, "roots/", 6) == 0) return "roots";
    return NULL;
}

cJSON *mh_request_ask_client(mh_request *req, const char *method, const cJSON *params,
                             uint32_t timeout_ms, char *error, size_t error_size)
{
    mh_conn *conn = req->conn;
    const char *cap = capability_for(method);
    outgoing_request *out = calloc(1, sizeof *out);
    if (!out) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    pthread_mutex_lock(&conn->lock);
    if (cap && !cJSON_GetObjectItemCaseSensitive(conn->client_caps, cap)) {
        pthread_mutex_unlock(&conn->lock);
        free(out);
        snprintf(error, error_size,
                 "the client did not declare the \"%s\" capability at initialize, so it cannot "
                 "be sent %s",
                 cap, method);
        return NULL;
    }
    snprintf(out->id, sizeof out->id, "mh-%u", ++conn->next_outgoing);
    int pushed = mh_ptrvec_push(&conn->outgoing, out) == 0;
    pthread_mutex_unlock(&conn->lock);
    if (!pushed) {
        free(out);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }

    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
    cJSON_AddStringToObject(msg, "id", out->id);
    cJSON_AddStringToObject(msg, "method", method);
    if (params) cJSON_AddItemToObject(msg, "params", cJSON_Duplicate(params, 1));
    mh_server_send_message(conn, req->exchange, msg);
    cJSON_Delete(msg);

    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    uint64_t ms = timeout_ms ? timeout_ms : 60000;
    deadline.tv_sec += (time_t)(ms / 1000);
    deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    int timed_out = 0;
    pthread_mutex_lock(&conn->lock);
    while (!out->arrived && !atomic_load(&req->cancelled)) {
        /* Wake every 100 ms to see a cancellation. */
        struct timespec slice;
        clock_gettime(CLOCK_REALTIME, &slice);
        slice.tv_nsec += 100000000L;
        if (slice.tv_nsec >= 1000000000L) {
            slice.tv_sec++;
            slice.tv_nsec -= 1000000000L;
        }
        int last = slice.tv_sec > deadline.tv_sec ||
                   (slice.tv_sec == deadline.tv_sec && slice.tv_nsec >= deadline.tv_nsec);
        if (pthread_cond_timedwait(&conn->answered, &conn->lock, last ? &deadline : &slice) != 0 &&
            last && !out->arrived) {
            timed_out = 1;
            break;
        }
    }
    mh_ptrvec_remove(&conn->outgoing, out);
    pthread_mutex_unlock(&conn->lock);

    cJSON *answer = NULL;
    if (out->arrived && !out->is_error) {
        answer = out->answer;
        out->answer = NULL;
    } else if (out->arrived) {
        const cJSON *message = cJSON_GetObjectItemCaseSensitive(out->answer, "message");
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(out->answer, "code");
        snprintf(error, error_size, "the client answered %s with error %d: %s", method,
                 cJSON_IsNumber(code) ? code->valueint : 0,
                 cJSON_IsString(message) ? message->valuestring : "(no message)");
    } else {
        /* Tell the client to stop working on it. */
        cJSON *cancel = cJSON_CreateObject();
        cJSON_AddStringToObject(cancel, "requestId", out->id);
        cJSON_AddStringToObject(cancel, "reason", timed_out ? "timed out" : "cancelled");
        mh_server_send_notification(conn, req->exchange, "notifications/cancelled", cancel);
        snprintf(error, error_size,
                 timed_out ? "the client did not answer %s within %llu ms"
                           : "the call was cancelled while waiting for the client to answer %s",
                 method, (unsigned long long)ms);
    }
    cJSON_Delete(out->answer);
    free(out);
    return answer;
}
