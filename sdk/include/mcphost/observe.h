/* mcphost/observe.h - watching and driving the host from inside the
 * process, "mh.observe/1".
 *
 * Offers what a frontend (the SDL window), a recorder or a test needs
 * without being an MCP client:
 *   - observers: a callback told about sessions created, destroyed and
 *     focused, every execution event MCP clients can subscribe to, every
 *     tool call begun and ended (by any MCP client or through call_tool()),
 *     and completed frames;
 *   - sessions: their names, machine types and states, and the focused one
 *     (the session a window shows);
 *   - frames: a per-session mailbox holding a copy of the last completed
 *     frame, filled at frame end on the emulation thread while someone
 *     watches it; reading it never stops or slows the emulation;
 *   - audio: the session's machine audio (mh.audio/1) as a stream with any
 *     number of readers, each with its own position;
 *   - jobs: running a function on a session's emulation thread between
 *     instructions, from any thread (input, a consistent read);
 *   - call_tool(): calling any registered tool as the client "window"
 *     (observers see those calls like any other);
 *   - set_pace(): a trim of a session's real-time pacing, so a window can
 *     make its sound card the clock (appended in ABI 1.3).
 * The MCP server is one subscriber among others: it forwards execution
 * events to the connections that called events_subscribe.
 *
 * Ownership: every string and pointer in an mh_observation lives only
 * during the callback. Handles (observer ids, audio readers) belong to the
 * caller until removed or closed; close them before the plugin's deinit().
 * Threads: every service function is [thread-safe]. Observer callbacks run
 * on the thread where the thing happened (a session's emulation thread for
 * execution events and frames, a transport or worker thread for tool
 * calls, the caller's thread for session changes), possibly on several
 * threads at once: keep them short, never block in them, and never call
 * remove_observer() or a blocking service call from inside one.
 */
#ifndef MCPHOST_OBSERVE_H
#define MCPHOST_OBSERVE_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_OBSERVE_SERVICE_ID "mh.observe/1"

typedef struct mh_session mh_session;

/* What an observation reports. New kinds are only appended. */
typedef enum mh_observe_kind {
    MH_OBSERVE_SESSION_CREATED = 1,
    MH_OBSERVE_SESSION_DESTROYED = 2,
    MH_OBSERVE_SESSION_FOCUSED = 3, /* focus_session() chose another session */
    MH_OBSERVE_EXEC_EVENT = 4,      /* an execution event (event_type, detail_json) */
    MH_OBSERVE_TOOL_BEGIN = 5,
    MH_OBSERVE_TOOL_END = 6,
    MH_OBSERVE_FRAME = 7            /* a frame completed (frame_number) */
} mh_observe_kind;

#define MH_OBSERVE_KIND_COUNT 7
/* Bit of a kind in add_observer()'s mask. */
#define MH_OBSERVE_BIT(kind) (1u << (kind))
#define MH_OBSERVE_ALL 0xFFFFFFFEu

typedef struct mh_observation {
    uint32_t struct_size;
    uint32_t kind;            /* mh_observe_kind */
    const char *session;      /* the session's name; NULL for a tool call without one */
    const char *machine;      /* its machine type ("c64"), or NULL */
    uint32_t event_type;      /* EXEC_EVENT: mh_event_type (events.h) */
    const char *detail_json;  /* EXEC_EVENT: the event's detail object (the
                                 stop record for stops); TOOL_*: the
                                 arguments object; else NULL */
    uint64_t call_id;         /* TOOL_*: pairs a begin with its end */
    const char *client;       /* TOOL_*: "claude-code 2.0.1 (stdio)", "window" */
    const char *tool;         /* TOOL_*: the tool's name */
    uint64_t duration_ns;     /* TOOL_END: from begin to end */
    int is_error;             /* TOOL_END: the result is an error */
    const char *summary;      /* TOOL_END: the result's first line (text or
                                 error), at most ~200 bytes, whole UTF-8 characters */
    uint64_t frame_number;    /* FRAME: frames completed since power-on */
    uint64_t cycles;          /* FRAME: the session's machine cycles then */
} mh_observation;

/* [any thread, see above] */
typedef void (*mh_observer_fn)(void *user, const mh_observation *observation);

/* One session as list_sessions() reports it. */
typedef struct mh_observe_session_info {
    uint32_t struct_size;
    char name[64];
    char machine[32];
    char state[16];     /* "paused", "running", "stopped", "jammed", "exited" */
    uint64_t cycles;    /* machine cycles run since power-on */
    uint64_t clock_hz;  /* the machine's clock */
} mh_observe_session_info;

/* A copy of a frame out of the mailbox. The caller provides pixels (at
 * least width x height bytes, given in pixels_size); the rest is filled. */
typedef struct mh_observe_frame {
    uint32_t struct_size;
    uint8_t *pixels;          /* caller's buffer: width x height indexed pixels, rows packed */
    size_t pixels_size;       /* its size in bytes */
    uint32_t width, height;   /* filled (also when pixels_size is too small) */
    uint32_t palette[256];    /* 0xRRGGBB per index */
    uint32_t palette_size;
    uint64_t frame_number;
    double pixel_aspect;      /* the machine's mh_video_frame.pixel_aspect (0: square) */
} mh_observe_frame;

typedef struct mh_observe_audio mh_observe_audio; /* one reader of a session's audio */

/* Receives a call_tool() result: the MCP CallToolResult object as JSON
 * text, and whether it is an error. [a host worker or emulation thread] */
typedef void (*mh_observe_result_fn)(void *user, const char *result_json, int is_error);

/* A job on a session's emulation thread; session is NULL when the session
 * ended before it could run (then it runs on the thread that ended it). */
typedef void (*mh_observe_job_fn)(void *arg, mh_session *session);

/* The range set_pace() accepts: a trim of real time, not a speed control. */
#define MH_OBSERVE_PACE_MIN 0.95
#define MH_OBSERVE_PACE_MAX 1.05

typedef struct mh_observe_service {
    uint32_t struct_size;

    /* Calls fn for every observation whose kind bit is in mask
     * (MH_OBSERVE_BIT(kind) ..., or MH_OBSERVE_ALL). Returns an id for
     * remove_observer(), 0 on failure. FRAME observations cost a call per
     * frame on the emulation thread: ask for them only when needed. */
    uint64_t (*add_observer)(const mh_host *host, uint32_t mask, mh_observer_fn fn, void *user);
    /* After it returns fn is not running and will not be called again.
     * Never from inside an observer callback. */
    void (*remove_observer)(const mh_host *host, uint64_t id);

    /* Fills up to max entries and returns how many sessions there are. */
    size_t (*list_sessions)(const mh_host *host, mh_observe_session_info *out, size_t max);
    /* The focused session's name (what a window shows): the one chosen
     * with focus_session(), else the first live one. MH_ERR_NOT_FOUND when
     * there is no session. */
    mh_status (*focused_session)(const mh_host *host, char *out, size_t out_size);
    mh_status (*focus_session)(const mh_host *host, const char *session);

    /* Frames: watch_frames(1) starts filling the session's mailbox at every
     * frame end (counted: every watcher calls watch_frames(0) once when
     * done). read_frame() copies the newest frame if its number is above
     * newer_than: MH_OK; MH_ERR_STATE when there is none newer yet;
     * MH_ERR_LIMIT when pixels_size is too small (width/height filled);
     * MH_ERR_NOT_FOUND for no such session; MH_ERR_UNSUPPORTED for a
     * machine without video. */
    mh_status (*watch_frames)(const mh_host *host, const char *session, int on);
    mh_status (*read_frame)(const mh_host *host, const char *session, uint64_t newer_than,
                            mh_observe_frame *out);

    /* Audio: a reader of the session's machine audio from now on, mono
     * signed 16-bit at *sample_rate. NULL when the session is missing or
     * its machine has no audio (error says which). A reader that falls
     * more than about two seconds behind loses the oldest samples
     * (audio_dropped counts them). */
    mh_observe_audio *(*audio_open)(const mh_host *host, const char *session,
                                    uint32_t *sample_rate, char *error, size_t error_size);
    size_t (*audio_read)(mh_observe_audio *reader, int16_t *out, size_t max);
    uint64_t (*audio_dropped)(mh_observe_audio *reader);
    void (*audio_close)(mh_observe_audio *reader);

    /* Runs fn(arg, session) on the session's emulation thread between
     * instructions. MH_ERR_NOT_FOUND (fn not called) for no such session. */
    mh_status (*post_job)(const mh_host *host, const char *session, mh_observe_job_fn fn,
                          void *arg);

    /* Calls a tool as the client "window" on session (NULL: the focused
     * one), exactly as an MCP tools/call would (validation, session,
     * chips); done gets the result. Returns at once. MH_ERR_NOT_FOUND for
     * an unknown tool (done not called). */
    mh_status (*call_tool)(const mh_host *host, const char *session, const char *tool,
                           const char *arguments_json, mh_observe_result_fn done, void *user);

    /* Appended in ABI 1.3 (check struct_size before use). Trims the
     * session's real-time pacing: it runs ratio times as fast as real time
     * (1.0 normal, 1.01 one percent faster), so a window can let its sound
     * card be the clock (docs/frontend-sdl.md). The emulation thread reads
     * it once per slice and counts on at the new rate from that slice's
     * due time (no catching up, no jump); warp is not affected. MH_ERR_INVALID_ARGUMENT outside MH_OBSERVE_PACE_MIN ..
     * MAX (or not a number), MH_ERR_NOT_FOUND for no such session. The
     * ratio stays until set again: set 1.0 when done. */
    mh_status (*set_pace)(const mh_host *host, const char *session, double ratio);
} mh_observe_service;

#ifdef __cplusplus
}
#endif
#endif
