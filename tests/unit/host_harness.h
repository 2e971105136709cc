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
    cJSON *sent;     /* array of every message sent, in order */
    int done_count;  /* exchanges reported done */
} mh_harness;

/* Sets up a host with the core tools; fixtures 1 also loads the fixture
 * plugins from MH_FIXTURE_DIR. Returns 0 on success. */
int mh_harness_init(mh_harness *h, int fixtures);
void mh_harness_free(mh_harness *h);
/* Sends one raw message and returns the last message sent in answer (owned
 * by the harness), or NULL when nothing was sent. Waits up to 2 s for
 * answers that come from another thread. */
const cJSON *mh_harness_send(mh_harness *h, const char *json);
/* Sends initialize for version and returns the result object. */
const cJSON *mh_harness_initialize(mh_harness *h, const char *version);
/* The error code of a response, or 0 when it is not an error. */
int mh_harness_error_code(const cJSON *response);
/* Calls a tool (args: a JSON object text) and returns the result object
 * (owned by the harness; NULL for a JSON-RPC error). */
const cJSON *mh_harness_call_tool(mh_harness *h, const char *name, const char *args);
/* Whether a tool result has isError: true. */
int mh_harness_is_error(const cJSON *result);
/* The text of a tool result's first content item ("" when none). */
const char *mh_harness_text(const cJSON *result);
/* Whether a "chips" array (session_list, host_info) holds interface/instance. */
int mh_harness_has_chip(const cJSON *chips, const char *interface_id, const char *instance);
const char *mh_harness_error_message(const cJSON *response);

#endif
