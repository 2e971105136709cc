/* tests/unit/host_harness.h - an in-process host for unit tests: a host
 * context with the built-in core tools, and a connection whose outgoing
 * messages are captured as parsed cJSON values. */
#ifndef MH_TEST_HOST_HARNESS_H
#define MH_TEST_HOST_HARNESS_H

#include <cjson/cJSON.h>
#include "hostctx.h"

typedef struct mh_harness {
    mh_hostctx ctx;
    struct mh_conn *conn;
    cJSON *sent;      /* array of every message sent, in order */
    cJSON *sent_on;   /* the exchange number each message of `sent` came on
                         (0: none, e.g. a log line or an event) */
    cJSON *done;      /* exchange numbers reported done */
    double next_exchange;
    double next_id;   /* ids of mh_harness_call_tool's requests */
    const cJSON *last_response; /* of the last mh_harness_call_tool */
} mh_harness;

/* How long a send waits for its answer before it fails the test. A bound
 * against hangs, not a speed check. */
#define MH_HARNESS_TIMEOUT_S 60

/* Sets up a host with the core tools; fixtures 1 also loads the fixture
 * plugins from MH_FIXTURE_DIR. Returns 0 on success. */
int mh_harness_init(mh_harness *h, int fixtures);
void mh_harness_free(mh_harness *h);
/* Sends one raw message on an exchange of its own and waits until the
 * host reports that exchange done. For a request (a "method" and a string
 * or number "id") it returns the response with that id, sent on that
 * exchange; for anything else the last message sent on the exchange (a
 * -32700 or -32600 answer), or NULL when there was none (a notification or
 * a response). Both owned by the harness. When no answer comes within
 * MH_HARNESS_TIMEOUT_S, or a request is done without a response to its id,
 * the current test fails and it returns NULL. */
const cJSON *mh_harness_send(mh_harness *h, const char *json);
/* Sends initialize for version and returns the result object. */
const cJSON *mh_harness_initialize(mh_harness *h, const char *version);
/* The error code of a response, or 0 when it is not an error. */
int mh_harness_error_code(const cJSON *response);
/* Calls a tool (args: a JSON object text) with a request id of its own and
 * returns the result object (owned by the harness; NULL for a JSON-RPC
 * error or no answer). */
const cJSON *mh_harness_call_tool(mh_harness *h, const char *name, const char *args);
/* The whole response to the last mh_harness_call_tool (NULL: none). */
const cJSON *mh_harness_last_response(const mh_harness *h);
/* Whether a tool result has isError: true. */
int mh_harness_is_error(const cJSON *result);
/* The text of a tool result's first content item ("" when none). */
const char *mh_harness_text(const cJSON *result);
/* Whether a "chips" array (session_list, host_info) holds interface/instance. */
int mh_harness_has_chip(const cJSON *chips, const char *interface_id, const char *instance);
const char *mh_harness_error_message(const cJSON *response);

#endif
