/* confirm.c - confirmation of destructive tool calls (call.h,
 * mh_call_confirm): single-use tokens bound to one connection, one tool,
 * one session and the exact arguments, valid for 60 s; or, where the
 * client can answer an elicitation and the call does not run on a
 * machine's thread, a yes/no question instead. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "call.h"
#include "server_internal.h"
#include "sessions.h"

#define TOKEN_TTL_MS 60000u /* unless --confirm-ttl says otherwise */
#define TOKEN_SLOTS 64

typedef struct token_slot {
    char token[33];  /* "" free */
    uint64_t conn;
    char *key;       /* tool \n session \n arguments */
    uint64_t expires_ms;
    int used;
} token_slot;

struct mh_confirm {
    pthread_mutex_t lock;
    token_slot slots[TOKEN_SLOTS];
};

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

struct mh_confirm *mh_confirm_new(void)
{
    struct mh_confirm *store = calloc(1, sizeof *store);
    if (store) pthread_mutex_init(&store->lock, NULL);
    return store;
}

void mh_confirm_free(struct mh_confirm *store)
{
    if (!store) return;
    for (size_t i = 0; i < TOKEN_SLOTS; i++) free(store->slots[i].key);
    pthread_mutex_destroy(&store->lock);
    free(store);
}

/* What a token is bound to: the tool, the session and the arguments. */
static char *call_key(mh_call *call)
{
    const char *session = call->session ? mh_session_name(call->session) : "";
    size_t size = strlen(call->tool ? call->tool : "") + strlen(session) + strlen(call->args_json) + 3;
    char *key = malloc(size);
    if (key) snprintf(key, size, "%s\n%s\n%s", call->tool ? call->tool : "", session, call->args_json);
    return key;
}

static int random_token(char out[33])
{
    unsigned char bytes[16];
    if (getrandom(bytes, sizeof bytes, 0) != (ssize_t)sizeof bytes) return -1;
    for (size_t i = 0; i < sizeof bytes; i++) snprintf(out + 2 * i, 3, "%02x", bytes[i]);
    return 0;
}

/* A new token for key; the slot of an expired or the oldest token is reused. */
static int issue(struct mh_confirm *store, uint64_t conn, char *key, uint64_t ttl_ms,
                 char out[33])
{
    if (random_token(out) != 0) return -1;
    uint64_t now = now_ms();
    pthread_mutex_lock(&store->lock);
    token_slot *slot = &store->slots[0];
    for (size_t i = 0; i < TOKEN_SLOTS; i++) {
        token_slot *s = &store->slots[i];
        if (!s->token[0] || s->expires_ms <= now) {
            slot = s;
            break;
        }
        if (s->expires_ms < slot->expires_ms) slot = s;
    }
    free(slot->key);
    memcpy(slot->token, out, 33);
    slot->conn = conn;
    slot->key = key;
    slot->expires_ms = now + ttl_ms;
    slot->used = 0;
    pthread_mutex_unlock(&store->lock);
    return 0;
}

/* Checks a token the client sent; NULL when it is good (and now used), else why not. */
static const char *redeem(struct mh_confirm *store, uint64_t conn, const char *key, const char *token)
{
    const char *why = "is unknown";
    uint64_t now = now_ms();
    pthread_mutex_lock(&store->lock);
    for (size_t i = 0; i < TOKEN_SLOTS; i++) {
        token_slot *s = &store->slots[i];
        if (!s->token[0] || strcmp(s->token, token) != 0) continue;
        if (s->conn != conn) why = "belongs to another connection";
        else if (s->used) why = "was already used (a token is good for one call)";
        else if (s->expires_ms <= now) why = "has expired";
        else if (strcmp(s->key, key) != 0)
            why = "was given for another call (the tool, session and arguments must be the same)";
        else {
            s->used = 1;
            why = NULL;
        }
        break;
    }
    pthread_mutex_unlock(&store->lock);
    return why;
}

/* Asks the client through elicitation; 1 yes, 0 no, -1 could not ask. */
static int elicit(mh_call *call, const char *what)
{
    mh_conn *conn = call->req->conn;
    pthread_mutex_lock(&conn->lock);
    int can = cJSON_GetObjectItemCaseSensitive(conn->client_caps, "elicitation") != NULL;
    pthread_mutex_unlock(&conn->lock);
    if (!can || call->session) return -1; /* a machine's thread must not wait */
    char message[600];
    snprintf(message, sizeof message, "%s: %s. Go ahead?", call->tool ? call->tool : "this call",
             what);
    cJSON *params = cJSON_CreateObject();
    cJSON_AddStringToObject(params, "message", message);
    cJSON *schema = cJSON_AddObjectToObject(params, "requestedSchema");
    cJSON_AddStringToObject(schema, "type", "object");
    cJSON *confirm = cJSON_AddObjectToObject(cJSON_AddObjectToObject(schema, "properties"), "confirm");
    cJSON_AddStringToObject(confirm, "type", "boolean");
    cJSON_AddStringToObject(confirm, "title", "Go ahead");
    cJSON_AddItemToArray(cJSON_AddArrayToObject(schema, "required"), cJSON_CreateString("confirm"));
    char error[300];
    cJSON *answer = mh_request_ask_client(call->req, "elicitation/create", params, 0, error,
                                          sizeof error);
    cJSON_Delete(params);
    if (!answer) return -1;
    const cJSON *action = cJSON_GetObjectItemCaseSensitive(answer, "action");
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(answer, "content");
    int yes = cJSON_IsString(action) && strcmp(action->valuestring, "accept") == 0 &&
              cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(content, "confirm"));
    cJSON_Delete(answer);
    return yes;
}

int mh_call_confirm(mh_call *call, const char *what)
{
    if (!call || !call->req) return 1; /* inside the host: no client to ask */
    mh_conn *conn = call->req->conn;
    mh_server *server = conn->server;
    if (server->ctx->no_confirm) return 1;
    if (conn->desc.transport && strcmp(conn->desc.transport, "in-process") == 0) return 1;
    const char *tool = call->tool ? call->tool : "the tool";
    char *key = call_key(call);
    if (!key || !server->confirm) {
        free(key);
        mh_call_errorf(call, "%s: out of memory", tool);
        return 0;
    }
    if (call->confirm) {
        const char *why = redeem(server->confirm, mh_request_owner_id(call->req), key, call->confirm);
        free(key);
        if (!why) return 1;
        mh_call_errorf(call, "%s: the confirm token %s; nothing was done. Call %s again "
                             "without confirm to get a new one.", tool, why, tool);
        return 0;
    }
    int asked = elicit(call, what);
    if (asked >= 0) {
        free(key);
        if (asked) return 1;
        mh_call_errorf(call, "%s: not confirmed (the client declined); nothing was done", tool);
        return 0;
    }
    char token[33];
    uint64_t ttl = server->ctx->confirm_ttl_ms ? server->ctx->confirm_ttl_ms : TOKEN_TTL_MS;
    if (issue(server->confirm, mh_request_owner_id(call->req), key, ttl, token) != 0) {
        free(key);
        mh_call_errorf(call, "%s: cannot make a confirmation token (no randomness)", tool);
        return 0;
    }
    mh_call_errorf(call,
                   "requires_confirmation: %s. Nothing was done yet. To go ahead, call %s again "
                   "with the same arguments plus \"confirm\": \"%s\" (single use, expires in "
                   "%llu s). mcphost --no-confirm turns this off for scripts.",
                   what, tool, token, (unsigned long long)(ttl / 1000u));
    return 0;
}
