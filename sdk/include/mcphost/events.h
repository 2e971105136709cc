/* mcphost/events.h - machine session events, "mh.events/1".
 *
 * Offers: the event types a session reports (stops, breakpoint hits, jams,
 * resets, frames, the end of a run) and the service a machine or toolset
 * posts them through. The host sends each event as an MCP notification,
 * method "notifications/mcphost/event", params {"session", "type", "detail"},
 * to every connection that subscribed to that session and type
 * (events_subscribe).
 *
 * Ownership: detail_json is copied before post() returns.
 * Thread: post() is [thread-safe]; it never blocks on a slow client.
 */
#ifndef MCPHOST_EVENTS_H
#define MCPHOST_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_EVENTS_SERVICE_ID "mh.events/1"

typedef struct mh_session mh_session;

/* New types are only appended. */
typedef enum mh_event_type {
    MH_EVENT_STOPPED = 1,    /* execution stopped (pause, step done, ...) */
    MH_EVENT_RESUMED = 2,    /* execution started or resumed */
    MH_EVENT_BREAKPOINT = 3, /* a breakpoint or watchpoint fired */
    MH_EVENT_JAMMED = 4,     /* the CPU executed a JAM opcode */
    MH_EVENT_RESET = 5,      /* the machine was reset */
    MH_EVENT_FRAME = 6,      /* a video frame completed; the host posts it (after
                                the slice the frame ended in) while anyone subscribed */
    MH_EVENT_EXITED = 7,     /* a run ended (exit port, cycle limit) */
    MH_EVENT_LOG = 8         /* a tracepoint or program message */
} mh_event_type;

#define MH_EVENT_TYPE_COUNT 8

/* "stopped", "resumed", ... ; NULL for an unknown type. */
static inline const char *mh_event_type_name(uint32_t type)
{
    static const char *const names[] = {NULL,       "stopped", "resumed", "breakpoint", "jammed",
                                        "reset",    "frame",   "exited",  "log"};
    return type >= 1 && type <= MH_EVENT_TYPE_COUNT ? names[type] : NULL;
}

typedef struct mh_events_service {
    uint32_t struct_size;
    /* Reports an event of a session; detail_json is a JSON object text with
     * whatever describes it (pc, reason, breakpoint id ...), or NULL. */
    void (*post)(mh_session *session, uint32_t type, const char *detail_json);
} mh_events_service;

#ifdef __cplusplus
}
#endif
#endif
