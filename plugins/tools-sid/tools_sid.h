/* tools_sid.h - what the files of the tools-sid plugin share: the host
 * services looked up at init, the per-session store of the last capture,
 * the register names and decoders, the capture loop and the analysis.
 *
 * Files, one job each:
 *   tools_sid_plugin.c  entry: services, registration of every group
 *   sid_names.c         register names/numbers/addresses, waveform names,
 *                       envelope times, notes (pure functions)
 *   sid_capture.c       running the machine (mh.debug/1 advance) while
 *                       reading the audio stream and the per-voice tap
 *   sid_analysis.c      peak, RMS, dominant frequency (FFT), step rate
 *   tools_sid_regs.c    sid_registers_get, sid_registers_set
 *   tools_sid_voices.c  sid_voices_get
 *   tools_sid_audio.c   sid_audio_capture, sid_audio_analyze
 *
 * Ownership: one ts_plugin per loaded plugin, freed at deinit; nothing is
 * global. The capture store is the plugin's and locked (handlers of
 * different sessions run on different threads).
 * Threads: tool handlers run [emu-thread] on their session's thread.
 */
#ifndef TOOLS_SID_H
#define TOOLS_SID_H

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
typedef struct ts_audio {
    int16_t *mixed;
    int16_t *voice[3]; /* NULL when not tapped */
    size_t count;      /* samples in each */
    uint32_t sample_rate;
    uint64_t cycles;   /* machine cycles the capture ran */
    uint64_t end_cycles; /* the session's cycle count when it ended (0: unknown) */
    int stopped;       /* a breakpoint ended it early */
} ts_audio;

void ts_audio_free(ts_audio *audio);

#define TS_STORE_SLOTS 8

typedef struct ts_store_slot {
    mh_session *session; /* identity only, never dereferenced */
    char name[64];       /* the session's name when stored */
    ts_audio audio;
} ts_store_slot;

typedef struct ts_plugin {
    const mh_host *host;
    const mh_registry_service *registry;
    const mh_call_service *call;
    const mh_session_service *sessions;
    const mh_debug_service *debug; /* NULL on a host without mh.debug/1 */
    const mh_files_service *files; /* NULL on a host without mh.files/1 */
    const mh_observe_service *observe; /* NULL on a host without mh.observe/1 */
    pthread_mutex_t lock;          /* guards store */
    ts_store_slot store[TS_STORE_SLOTS];
    unsigned store_next;
} ts_plugin;

typedef mh_status (*ts_register_fn)(ts_plugin *plugin);
mh_status ts_register_regs(ts_plugin *plugin);   /* tools_sid_regs.c */
mh_status ts_register_voices(ts_plugin *plugin); /* tools_sid_voices.c */
mh_status ts_register_audio(ts_plugin *plugin);  /* tools_sid_audio.c */

/* ---- shared handler helpers (tools_sid_plugin.c) ---- */

/* The chip's vtable and context of a call (NULL when the host gave none). */
const mh_chip_sid_iface *ts_chip(const ts_plugin *plugin, mh_call *call, void **context);
/* An isError result built like printf (mcphost/toolkit.h). */
#define ts_errorf(plugin, call, ...) mh_toolkit_fail((plugin)->call, (call), __VA_ARGS__)
/* Finishes a writer into structured content (+ text when not NULL), or a
 * tool error naming the writer's failure. Frees the writer. */
void ts_finish(const ts_plugin *plugin, mh_call *call, mh_json_writer *w, const char *text);
/* Writes "state": the session's execution state name, when the host has
 * the debug engine ("unknown" otherwise). */
void ts_write_state(const ts_plugin *plugin, mh_call *call, mh_json_writer *w);

/* The store: keeps a copy-free handover of audio (the store owns it
 * afterwards) as the session's last capture; get copies it out. */
void ts_store_put(ts_plugin *plugin, mh_session *session, const char *name, ts_audio *audio);
int ts_store_get(ts_plugin *plugin, mh_session *session, const char *name, ts_audio *out);

/* ---- sid_names.c ---- */

/* Registers $00-$1C: canonical name ("v1_freq_lo", "fc_hi", "mode_vol"). */
const char *ts_reg_name(unsigned reg);
/* What a register holds, one line. */
const char *ts_reg_description(unsigned reg);
/* A register from text: a canonical name, a Mapping-the-C64 label
 * ("FRELO1", "SIGVOL"; case-insensitive), a register number 0-28 or an
 * address in any address form inside io (the chip's place in the CPU's
 * map, mh.chip.sid/1 io_range: $D400-$D7FF on a C64, 32-byte mirrors; NULL
 * or size 0: numbers only). Composite names "v1_freq", "v1_pw", "fc" give
 * *width 2 (a 16/12/11-bit value written low byte first). Returns 0, or -1
 * with a message. */
int ts_reg_parse(const char *text, const mh_chip_io_range *io, unsigned *reg, unsigned *width,
                 char *err, size_t err_size);
/* The same for an integer (number or address). */
int ts_reg_from_number(int64_t value, const mh_chip_io_range *io, unsigned *reg, char *err,
                       size_t err_size);
/* 1 for POTX, POTY, OSC3, ENV3. */
int ts_reg_read_only(unsigned reg);

/* Waveform bits ($10-$80 of the control register) as names into a JSON
 * array; the joined text ("triangle+pulse", "none") into buf. */
void ts_write_waveforms(mh_json_writer *w, uint8_t control);
void ts_waveform_text(uint8_t control, char *buf, size_t size);

/* Envelope rate periods (cycles per step) of the SID for rate values 0-15. */
uint32_t ts_rate_period(unsigned rate);
/* Times in ms at clock_hz: attack 0 -> 255, decay 255 -> level, release
 * level -> 0 (the exponential decay steps included). */
double ts_attack_ms(unsigned rate, uint32_t clock_hz);
double ts_decay_ms(unsigned rate, unsigned from, unsigned to, uint32_t clock_hz);

/* Frequency register -> Hz at clock_hz. */
double ts_freq_hz(uint32_t freq, uint32_t clock_hz);
/* The nearest equal-tempered note (A4 = 440 Hz) as "A4" and the cents off. */
void ts_note(double hz, char *name, size_t size, double *cents);

/* ---- sid_capture.c ---- */

typedef struct ts_capture_req {
    size_t samples;  /* how many to capture */
    int tap;         /* also record each voice */
} ts_capture_req;

/* Runs the paused machine through mh.debug/1 advance until `samples`
 * samples came out (or a breakpoint stopped it), reading the stream after
 * every frame. On failure writes a message a client can act on. */
mh_status ts_capture(const ts_plugin *plugin, mh_call *call, const mh_chip_sid_iface *sid,
                     void *context, const ts_capture_req *req, ts_audio *out, char *err,
                     size_t err_size);

/* ---- sid_analysis.c ---- */

typedef struct ts_stats {
    int32_t peak;            /* largest |sample| */
    double peak_dbfs;        /* 20 log10(peak / 32768); -INFINITY when silent */
    double rms;              /* of the samples, mean removed */
    double rms_dbfs;
    double mean;
    double dominant_hz;      /* 0 when silent */
    double dominant_db;      /* the peak's height over the median spectrum */
    int tonal;               /* dominant_db >= 30: a clear pitch */
    double step_rate_hz;     /* level steps per second of a sample-and-hold
                                signal (noise); < 0 when the signal is not one */
} ts_stats;

void ts_analyze(const int16_t *x, size_t n, uint32_t rate, ts_stats *out);
/* RMS (mean removed) of x in dBFS; -INFINITY when silent. */
double ts_rms_dbfs(const int16_t *x, size_t n);
/* Writes a finite dB value or null. */
void ts_write_db(mh_json_writer *w, double db);

#endif
