/* tools_audio.h - what the files of the tools-audio plugin share: the
 * host services looked up at init, the sound a call records from, the
 * per-session store of the last capture, and the capture loop.
 *
 * Files, one job each:
 *   tools_audio_plugin.c  entry: services, helpers, the store, registration
 *   ta_capture.c          running the machine (mh.debug/1 advance) while
 *                         reading the session's audio stream (mh.observe/1)
 *                         and, on a SID, the per-voice tap
 *   tools_audio.c         audio_capture, audio_analyze
 * The measurements are the SDK's (mcphost/audio_analysis.h).
 *
 * The tools work on every machine that registers "mh.audio/1" (its
 * sound); where the machine also has a SID ("mh.chip.sid/1"), each voice
 * can be recorded alone.
 *
 * Ownership: one ta_plugin per loaded plugin, freed at deinit; nothing is
 * global. The capture store is the plugin's and locked (handlers of
 * different sessions run on different threads).
 * Threads: tool handlers run [emu-thread] on their session's thread.
 */
#ifndef TOOLS_AUDIO_H
#define TOOLS_AUDIO_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <mcphost/args.h>
#include <mcphost/chip_sid.h>
#include <mcphost/debug.h>
#include <mcphost/files.h>
#include <mcphost/json.h>
#include <mcphost/mcphost.h>
#include <mcphost/observe.h>
#include <mcphost/toolkit.h>

/* A capture: the mixed stream and, when tapped, each voice's samples. */
typedef struct ta_audio {
    int16_t *mixed;
    int16_t *voice[3]; /* NULL when not tapped */
    size_t count;      /* samples in each */
    uint32_t sample_rate;
    uint64_t cycles;   /* machine cycles the capture ran */
    uint64_t end_cycles; /* the session's cycle count when it ended (0: unknown) */
    int stopped;       /* a breakpoint ended it early */
} ta_audio;

void ta_audio_free(ta_audio *audio);

#define TA_STORE_SLOTS 8

typedef struct ta_store_slot {
    mh_session *session; /* identity only, never dereferenced */
    char name[64];       /* the session's name when stored */
    ta_audio audio;
} ta_store_slot;

typedef struct ta_plugin {
    mh_toolkit_services svc;           /* host, registry, call, sessions, debug, files */
    const mh_observe_service *observe; /* NULL on a host without mh.observe/1 */
    pthread_mutex_t lock;              /* guards store */
    ta_store_slot store[TA_STORE_SLOTS];
    unsigned store_next;
} ta_plugin;

/* What a call records: the machine's sound and, on a SID, its voices. */
typedef struct ta_source {
    const mh_audio_iface *audio;
    void *audio_context;
    const mh_chip_sid_iface *sid; /* NULL: the machine has no per-voice tap */
    void *sid_context;
} ta_source;

/* The call's sound source; -1 (and the call answered with an error) when
 * the host gave no usable mh.audio/1 chip. */
int ta_source_of(const ta_plugin *plugin, mh_call *call, const char *tool, ta_source *out);

/* An isError result built like printf (mcphost/toolkit.h). */
#define ta_errorf(plugin, call, ...) mh_toolkit_fail((plugin)->svc.call, (call), __VA_ARGS__)
/* Finishes a writer into structured content (+ text when not NULL), or a
 * tool error naming the writer's failure. Frees the writer. */
void ta_finish(const ta_plugin *plugin, mh_call *call, mh_json_writer *w, const char *text);
/* Writes "state": the session's execution state name. */
void ta_write_state(const ta_plugin *plugin, mh_call *call, mh_json_writer *w);
/* Writes a finite dB value or null. */
void ta_write_db(mh_json_writer *w, double db);

/* The store: keeps a copy-free handover of audio (the store owns it
 * afterwards) as the session's last capture; get copies it out. */
void ta_store_put(ta_plugin *plugin, mh_session *session, const char *name, ta_audio *audio);
int ta_store_get(ta_plugin *plugin, mh_session *session, const char *name, ta_audio *out);

mh_status ta_register_tools(ta_plugin *plugin); /* tools_audio.c */

/* ---- ta_capture.c ---- */

typedef struct ta_capture_req {
    size_t samples;  /* how many to capture */
    int tap;         /* also record each voice (needs a SID) */
} ta_capture_req;

/* Runs the paused machine through mh.debug/1 advance until `samples`
 * samples came out (or a breakpoint stopped it), reading the stream after
 * every frame. On failure writes a message a client can act on. */
mh_status ta_capture(const ta_plugin *plugin, mh_call *call, const ta_source *src,
                     const ta_capture_req *req, ta_audio *out, char *err, size_t err_size);

#endif
