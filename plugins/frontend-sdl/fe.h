/* fe.h - the SDL window's parts and the state they share (frontend-sdl).
 *
 * One fe_app per loaded plugin. The observer callback (any thread) feeds
 * only the activity model, which has its own lock; stop() sets an atomic
 * flag and pushes an SDL event; the audio callback (SDL's audio thread)
 * touches only fe_audio. Everything else - the window, the renderer, the
 * screen texture, the font, the input state - belongs to the main thread
 * that runs fe_window_run(). `report` (what the test hook tool returns) is
 * written by the main thread and read by the hook under report_lock.
 */
#ifndef FE_H
#define FE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include <SDL.h>

#include "activity.h"
#include "font.h"
#include "keymap.h"
#include "mcphost/mcphost.h"
#include "mcphost/observe.h"

#define FE_TEST_HOOK_TOOL "sdl_window_report"
#define FE_PANEL_COLUMNS 60 /* the right-hand panes' width in characters */
#define FE_CHIP_LINE 64     /* a chip-state line, with its NUL */
#define FE_CHIP_LINES 8
#define FE_MEMORY_BYTES 64  /* the memory view: 8 lines of 8 bytes */

/* What the inspection job read on the session's thread (fe_inspect.c). */
typedef struct fe_inspection {
    int valid;
    char cpu[80];               /* live registers: "PC $E5CF A=$00 X=..." */
    uint32_t memory_address;
    int memory_ok;
    uint8_t memory[FE_MEMORY_BYTES];
    char chips[FE_CHIP_LINES][FE_CHIP_LINE];
    size_t chip_lines;
    uint32_t screen_address;    /* the text screen's codes (mh.textscreen/1); 0: none read */
} fe_inspection;

/* What the test hook reports (main thread writes, hook reads). */
typedef struct fe_report {
    int window_open;
    uint32_t window_id;          /* SDL's window id */
    unsigned long x11_window;    /* the X window (for xdotool/import), 0 unknown */
    SDL_Rect screen;             /* the emulated screen's area in the window */
    int scale;
    uint32_t pixel_width;        /* horizontal pixels per frame pixel, before scale */
    uint32_t frame_width, frame_height;
    uint64_t frame_shown;        /* the frame number on the screen now */
    uint64_t frames_presented;
    double speed;                /* the status bar's speed, percent of real time */
    char session[64];
    int fullscreen;
    int joystick_port;
    /* input latency: the last key press */
    uint64_t key_event_ns, key_frame, key_shown_ns, key_shown_frame;
} fe_report;

/* SDL audio fed from a session's audio stream (fe_audio.c). */
typedef struct fe_audio fe_audio;

typedef struct fe_audio_stats {
    char driver[32];
    uint32_t rate;
    int playing;
    uint64_t played, underruns, skipped, dropped;
    uint32_t prefill_ms;
    /* pacing (pace.h): the fill now and its range since playing last
     * started, the target, the ratio set and its range */
    double fill_ms, fill_min_ms, fill_max_ms, target_ms;
    double ratio, ratio_min, ratio_max;
    int pacing; /* the host offers set_pace() */
} fe_audio_stats;

fe_audio *fe_audio_open(const mh_host *host, const mh_observe_service *observe,
                        const char *session, char *error, size_t error_size);
void fe_audio_close(fe_audio *audio);
void fe_audio_set_muted(fe_audio *audio, int muted); /* warp and pause mute */
void fe_audio_stats_get(fe_audio *audio, fe_audio_stats *out);

typedef struct fe_app {
    const mh_host *host;
    const mh_observe_service *observe;
    const mh_session_service *sessions;
    fe_activity *activity;
    atomic_int stopping;
    atomic_uint wake_event; /* SDL user event type, 0 before SDL is up */

    /* main thread */
    SDL_Window *window;
    SDL_Renderer *renderer;
    SDL_Texture *screen_tex;
    fe_font *font;
    int sdl_up;
    char session[64];          /* the session shown */
    char machine[32];
    const fe_keymap *keymap;
    fe_audio *audio;
    uint8_t *pixels;
    size_t pixels_size;
    uint32_t *rgb;             /* the frame converted, width x height */
    uint32_t frame_w, frame_h;
    uint32_t pixel_w;          /* screen pixels per frame pixel across (wide
                                * VIC-20 pixels: 2), times the scale */
    uint64_t frame_number;
    uint64_t speed_cycles, speed_ns; /* for the speed estimate */
    double speed;                    /* percent of real time */
    uint32_t joystick_mask, pad_mask;
    int joystick_port;
    SDL_GameController *pad;
    int started;               /* the start-up session was set running */
    int fullscreen;
    uint64_t last_draw_ns;
    SDL_Rect disasm_rect; /* where the disassembly lines were drawn */

    const struct mh_debug_service *debug;
    uint64_t inspected_version; /* the activity version of the last inspection */

    pthread_mutex_t report_lock;
    fe_report report;
    fe_inspection inspection;   /* the newest inspection */
    uint32_t memory_address;    /* the memory view's first address (main thread) */
    int memory_follows_screen;  /* until the person scrolls it: the text screen (main thread) */
    uint64_t inspected_ns;      /* when the last inspection was asked for (main thread) */
    /* the session's exec breakpoints, read on its emulation thread */
    struct fe_breakpoint { uint32_t id, address; } breakpoints[64];
    size_t breakpoint_count;
    fe_audio_stats audio_stats; /* copied under report_lock for the hook */
} fe_app;

/* fe_window.c [main-thread] */
mh_status fe_window_open(fe_app *app, char *error, size_t error_size);
mh_status fe_window_run(fe_app *app, const mh_frontend_options *options);
void fe_window_close(fe_app *app);

/* fe_inspect.c [main-thread]: reads what the panes show that no event
 * carries (breakpoints, live registers, the memory view, chip state) on
 * the session's thread in a job: when the activity changed, and four
 * times a second. */
void fe_inspect(fe_app *app);
/* fe_chips.c [emu-thread]: short lines about the session's chips. */
size_t fe_chips_summarize(const mh_session_service *sessions, mh_session *session,
                          char lines[][FE_CHIP_LINE], size_t max);

/* fe_screen.c [main-thread]: reads the newest frame from the mailbox into
 * the screen texture; 1 when a new one arrived. */
int fe_screen_update(fe_app *app);

/* fe_panes.c [main-thread]: the layout and everything drawn beside the
 * emulated screen. */
typedef struct fe_layout {
    SDL_Rect screen;   /* the emulated screen */
    int scale;
    SDL_Rect panel;    /* registers, disassembly, activity */
    SDL_Rect status;   /* the status bar */
    SDL_Rect disasm;   /* the disassembly lines (for clicks) */
    SDL_Rect memory;   /* the memory view, under the screen */
    SDL_Rect chips;    /* the chip state, beside it */
    int line_h;
} fe_layout;
/* The window size that shows a PAL C64 frame at this scale. */
void fe_layout_preferred(int scale, int *width, int *height);
void fe_layout_compute(const fe_app *app, int width, int height, fe_layout *out);
void fe_panes_draw(fe_app *app, const fe_layout *layout);
/* The address of the disassembly line at window point (x, y), or -1. */
int fe_panes_disasm_hit(fe_app *app, int x, int y);

/* fe_input.c [main-thread] */
/* Handles a key event: a hotkey, the joystick keys, or a machine key. */
void fe_input_key(fe_app *app, const SDL_KeyboardEvent *key);
void fe_input_pad(fe_app *app, const SDL_Event *event);
/* Types the clipboard's text into the machine. */
void fe_input_paste(fe_app *app);
/* Releases every key and the joystick (focus lost, session switched). */
void fe_input_release_all(fe_app *app);
/* The person's controls: tools called as the client "window". */
void fe_control(fe_app *app, const char *tool, const char *arguments_json);
void fe_toggle_breakpoint(fe_app *app, uint32_t address);
/* Moves the memory view by bytes (wraps at 64 KiB). */
void fe_memory_scroll(fe_app *app, int bytes);

#endif
