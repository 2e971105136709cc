/* host/protocol/window_client.h - tool calls made inside the process (a
 * frontend's buttons, mh.observe/1 call_tool()): an internal MCP
 * connection of the client "window" that sends tools/call requests through
 * the server like any client, so validation, sessions, chips and observers
 * work exactly as for an agent.
 *
 * Ownership: the server creates it on first use and frees it first in
 * mh_server_free(). Threads: [thread-safe]; done() runs on the thread that
 * answers (a worker or an emulation thread). */
#ifndef MH_HOST_WINDOW_CLIENT_H
#define MH_HOST_WINDOW_CLIENT_H

#include "mcphost/observe.h"

struct mh_server;
typedef struct mh_window_client mh_window_client;

mh_window_client *mh_window_client_new(struct mh_server *server);
/* Answers what is still pending with an error, then closes the connection. */
void mh_window_client_free(mh_window_client *wc);
/* Sends tools/call {name: tool, arguments: arguments_json + session}. */
mh_status mh_window_client_call(mh_window_client *wc, const char *session, const char *tool,
                                const char *arguments_json, mh_observe_result_fn done,
                                void *user);

#endif
