/* host/observe/observe.h - the host side of "mh.observe/1" (observe.c): the
 * observer list and the emit calls the rest of the host makes when a
 * session is created or destroyed, an execution event happens, a tool call
 * begins or ends, or a frame completes.
 *
 * Ownership: one mh_observe per host (mh_hostctx.observe), created before
 * the server and sessions and freed after them.
 * Threads: everything is [thread-safe]; emit calls run the observers on the
 * calling thread. */
#ifndef MH_HOST_OBSERVE_H
#define MH_HOST_OBSERVE_H

#include <stdint.h>
#include "mcphost/observe.h"

struct mh_hostctx;
typedef struct mh_observe mh_observe;

mh_observe *mh_observe_new(struct mh_hostctx *ctx);
void mh_observe_free(mh_observe *obs);

uint64_t mh_observe_add(mh_observe *obs, uint32_t mask, mh_observer_fn fn, void *user);
void mh_observe_remove(mh_observe *obs, uint64_t id);
/* Whether any observer wants kind: one atomic load, for hot paths. */
int mh_observe_wants(const mh_observe *obs, uint32_t kind);
/* Runs every observer that wants o->kind. */
void mh_observe_emit(mh_observe *obs, const mh_observation *o);

void mh_observe_session(mh_observe *obs, uint32_t kind, const char *session, const char *machine);
void mh_observe_exec_event(mh_observe *obs, const char *session, const char *machine,
                           uint32_t type, const char *detail_json);
uint64_t mh_observe_next_call_id(mh_observe *obs);

/* The session a window shows: chosen by focus, else the first live one. */
void mh_observe_focused(mh_observe *obs, char *out, size_t size);

/* The service's session parts (session_observe.c) and call_tool()
 * (window_client.c), as mh_observe_service documents them. */
size_t mh_observe_list_sessions(const mh_host *host, mh_observe_session_info *out, size_t max);
mh_status mh_observe_watch_frames(const mh_host *host, const char *session, int on);
mh_status mh_observe_read_frame(const mh_host *host, const char *session, uint64_t newer_than,
                                mh_observe_frame *out);
mh_observe_audio *mh_observe_audio_open(const mh_host *host, const char *session,
                                        uint32_t *sample_rate, char *error, size_t error_size);
size_t mh_observe_audio_read(mh_observe_audio *reader, int16_t *out, size_t max);
uint64_t mh_observe_audio_dropped(mh_observe_audio *reader);
void mh_observe_audio_close(mh_observe_audio *reader);
mh_status mh_observe_post_job(const mh_host *host, const char *session, mh_observe_job_fn fn,
                              void *arg);
mh_status mh_observe_set_pace(const mh_host *host, const char *session, double ratio);
mh_status mh_observe_call_tool(const mh_host *host, const char *session, const char *tool,
                               const char *arguments_json, mh_observe_result_fn done, void *user);

extern const mh_observe_service mh_observe_service_impl;

#endif
