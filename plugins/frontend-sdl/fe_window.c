/* fe_window.c - the window's life on the main thread: opening SDL (before
 * the transport serves, so a missing display fails at once), the event
 * loop, following the focused session, and closing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL_syswm.h>

#include "fe.h"

#define LOOP_WAIT_MS 5          /* the loop's sleep: a quarter of a PAL frame */
#define DEFAULT_SCALE 2
#define DEFAULT_MEMORY_VIEW 0x0400 /* the C64's screen: something moves there */
#define REDRAW_NS 250000000u    /* redraw at least this often (the speed readout) */

static int is_headless_driver(const char *driver)
{
    static const char *const headless[] = {"offscreen", "dummy", "evdev"};
    for (size_t i = 0; i < sizeof headless / sizeof headless[0]; i++)
        if (strcmp(driver, headless[i]) == 0) return 1;
    return 0;
}

mh_status fe_window_open(fe_app *app, char *error, size_t error_size)
{
    if (app->sdl_up) return MH_OK;
    const char *display = getenv("DISPLAY");
    const char *wayland = getenv("WAYLAND_DISPLAY");
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) != 0) {
        snprintf(error, error_size,
                 "--gui: cannot open a window: %s (DISPLAY=%s%s%s). Run mcphost without --gui "
                 "for a headless host, or start it where a display is available (xvfb-run for "
                 "tests)",
                 SDL_GetError(), display ? display : "unset", wayland ? ", WAYLAND_DISPLAY=" : "",
                 wayland ? wayland : "");
        return MH_ERR_UNSUPPORTED;
    }
    /* SDL falls back to drivers without a screen (offscreen, dummy): a
     * person would see nothing, so that is no display, unless asked for
     * by name with SDL_VIDEODRIVER. */
    const char *driver = SDL_GetCurrentVideoDriver();
    const char *asked = getenv("SDL_VIDEODRIVER");
    if (driver && !(asked && *asked) && is_headless_driver(driver)) {
        snprintf(error, error_size,
                 "--gui: cannot open a window: no display (DISPLAY=%s%s%s; SDL found only its "
                 "\"%s\" video driver). Run mcphost without --gui for a headless host, or "
                 "start it where a display is available (xvfb-run for tests)",
                 display ? display : "unset", wayland ? ", WAYLAND_DISPLAY=" : "",
                 wayland ? wayland : "", driver);
        SDL_Quit();
        return MH_ERR_UNSUPPORTED;
    }
    SDL_InitSubSystem(SDL_INIT_AUDIO);        /* without sound the window still works */
    SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER); /* and without gamepads */
    int width, height;
    fe_layout_preferred(DEFAULT_SCALE, &width, &height);
    app->memory_address = DEFAULT_MEMORY_VIEW;
    app->memory_follows_screen = 1; /* fe_inspect.c */
    app->window = SDL_CreateWindow("mcphost", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                   width, height, SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (app->window)
        app->renderer = SDL_CreateRenderer(app->window, -1, SDL_RENDERER_ACCELERATED);
    if (app->window && !app->renderer)
        app->renderer = SDL_CreateRenderer(app->window, -1, SDL_RENDERER_SOFTWARE);
    if (!app->window || !app->renderer) {
        snprintf(error, error_size, "--gui: cannot create the window: %s", SDL_GetError());
        fe_window_close(app);
        return MH_ERR_UNSUPPORTED;
    }
    app->font = fe_font_new(app->renderer, error, error_size);
    if (!app->font) {
        fe_window_close(app);
        return MH_ERR_NOT_FOUND;
    }
    app->sdl_up = 1;
    atomic_store(&app->wake_event, SDL_RegisterEvents(1));
    SDL_SysWMinfo wm;
    SDL_VERSION(&wm.version);
    unsigned long x11 = 0;
#if defined(SDL_VIDEO_DRIVER_X11)
    if (SDL_GetWindowWMInfo(app->window, &wm) && wm.subsystem == SDL_SYSWM_X11)
        x11 = (unsigned long)wm.info.x11.window;
#endif
    pthread_mutex_lock(&app->report_lock);
    app->report.window_open = 1;
    app->report.window_id = SDL_GetWindowID(app->window);
    app->report.x11_window = x11;
    pthread_mutex_unlock(&app->report_lock);
    return MH_OK;
}

void fe_window_close(fe_app *app)
{
    fe_audio_close(app->audio);
    app->audio = NULL;
    if (app->session[0]) app->observe->watch_frames(app->host, app->session, 0);
    app->session[0] = '\0';
    if (app->pad) SDL_GameControllerClose(app->pad);
    app->pad = NULL;
    fe_font_free(app->font);
    app->font = NULL;
    if (app->screen_tex) SDL_DestroyTexture(app->screen_tex);
    app->screen_tex = NULL;
    if (app->renderer) SDL_DestroyRenderer(app->renderer);
    app->renderer = NULL;
    if (app->window) SDL_DestroyWindow(app->window);
    app->window = NULL;
    atomic_store(&app->wake_event, 0);
    if (app->sdl_up || SDL_WasInit(0)) SDL_Quit();
    app->sdl_up = 0;
    pthread_mutex_lock(&app->report_lock);
    app->report.window_open = 0;
    pthread_mutex_unlock(&app->report_lock);
}

/* Shows the focused session: frames, audio, keyboard map, status. */
static void follow_focus(fe_app *app, const mh_frontend_options *options)
{
    char focused[64];
    if (app->observe->focused_session(app->host, focused, sizeof focused) != MH_OK) focused[0] = 0;
    if (strcmp(focused, app->session) == 0) return;
    fe_input_release_all(app);
    fe_audio_close(app->audio);
    app->audio = NULL;
    if (app->session[0]) app->observe->watch_frames(app->host, app->session, 0);
    snprintf(app->session, sizeof app->session, "%s", focused);
    app->machine[0] = '\0';
    app->frame_number = 0;
    app->speed_ns = 0;
    if (!focused[0]) return;
    mh_observe_session_info info[16];
    size_t n = app->observe->list_sessions(app->host, info, 16);
    const char *state = "";
    for (size_t i = 0; i < n && i < 16; i++)
        if (strcmp(info[i].name, focused) == 0) {
            snprintf(app->machine, sizeof app->machine, "%s", info[i].machine);
            state = info[i].state;
        }
    fe_activity_follow(app->activity, focused, app->machine);
    fe_activity_initial_state(app->activity, focused, state);
    /* A person opening the window expects the machine to run: the
     * start-up session is set running (as the client "window", so the
     * agent sees it) unless something already ran or stopped it. */
    if (!app->started && options->session && strcmp(options->session, focused) == 0 &&
        strcmp(state, "paused") == 0) {
        fe_status st;
        fe_activity_status(app->activity, &st);
        if (!st.stop_count) fe_control(app, "execution_run", options->warp ? "{\"warp\":true}" : "{}");
    }
    app->started = 1;
    app->keymap = fe_keymap_for(app->machine);
    app->observe->watch_frames(app->host, focused, 1);
    char error[256] = "";
    app->audio = fe_audio_open(app->host, app->observe, focused, error, sizeof error);
    if (!app->audio) fprintf(stderr, "frontend-sdl: no sound for %s: %s\n", focused, error);
    char title[128];
    snprintf(title, sizeof title, "mcphost - %s (%s)", focused, app->machine);
    SDL_SetWindowTitle(app->window, title);
    pthread_mutex_lock(&app->report_lock);
    snprintf(app->report.session, sizeof app->report.session, "%s", focused);
    pthread_mutex_unlock(&app->report_lock);
}

/* The speed in percent of real time, from the cycles run twice a second. */
static void measure_speed(fe_app *app)
{
    uint64_t now = fe_now_ns();
    if (app->speed_ns && now - app->speed_ns < 500000000u) return;
    mh_observe_session_info info[16];
    size_t n = app->observe->list_sessions(app->host, info, 16);
    for (size_t i = 0; i < n && i < 16; i++) {
        if (strcmp(info[i].name, app->session) != 0) continue;
        if (app->speed_ns && info[i].clock_hz)
            app->speed = 100.0 * (double)(info[i].cycles - app->speed_cycles) /
                         ((double)info[i].clock_hz * (double)(now - app->speed_ns) / 1e9);
        app->speed_cycles = info[i].cycles;
    }
    app->speed_ns = now;
}

static void handle_event(fe_app *app, const SDL_Event *e)
{
    switch (e->type) {
    case SDL_QUIT: atomic_store(&app->stopping, 1); break;
    case SDL_KEYDOWN:
    case SDL_KEYUP: fe_input_key(app, &e->key); break;
    case SDL_CONTROLLERDEVICEADDED:
    case SDL_CONTROLLERDEVICEREMOVED:
    case SDL_CONTROLLERBUTTONDOWN:
    case SDL_CONTROLLERBUTTONUP:
    case SDL_CONTROLLERAXISMOTION: fe_input_pad(app, e); break;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_FOCUS_LOST) fe_input_release_all(app);
        break;
    case SDL_MOUSEWHEEL: fe_memory_scroll(app, e->wheel.y > 0 ? -8 : 8); break;
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button == SDL_BUTTON_LEFT) {
            int address = fe_panes_disasm_hit(app, e->button.x, e->button.y);
            if (address >= 0) fe_toggle_breakpoint(app, (uint32_t)address);
        }
        break;
    default: break;
    }
}

mh_status fe_window_run(fe_app *app, const mh_frontend_options *options)
{
    char error[512];
    if (fe_window_open(app, error, sizeof error) != MH_OK) {
        fprintf(stderr, "frontend-sdl: %s\n", error);
        return MH_ERR_UNSUPPORTED;
    }
    uint64_t drawn_version = UINT64_MAX;
    while (!atomic_load(&app->stopping)) {
        SDL_Event e;
        if (SDL_WaitEventTimeout(&e, LOOP_WAIT_MS)) {
            do handle_event(app, &e);
            while (SDL_PollEvent(&e));
        }
        follow_focus(app, options);
        measure_speed(app);
        fe_inspect(app);
        fe_status st;
        fe_activity_status(app->activity, &st);
        if (app->audio) fe_audio_set_muted(app->audio, st.warp || strcmp(st.state, "running") != 0);
        int fresh = fe_screen_update(app);
        uint64_t version = fe_activity_version(app->activity);
        uint64_t now = fe_now_ns();
        if (!fresh && version == drawn_version && now - app->last_draw_ns < REDRAW_NS) continue;
        app->last_draw_ns = now;
        drawn_version = version;
        int width = 0, height = 0;
        SDL_GetRendererOutputSize(app->renderer, &width, &height);
        fe_layout layout;
        fe_layout_compute(app, width, height, &layout);
        fe_panes_draw(app, &layout);
        SDL_RenderPresent(app->renderer);
        fe_audio_stats as;
        memset(&as, 0, sizeof as);
        if (app->audio) fe_audio_stats_get(app->audio, &as);
        pthread_mutex_lock(&app->report_lock);
        app->report.screen = layout.screen;
        app->report.scale = layout.scale;
        app->report.pixel_width = app->pixel_w ? app->pixel_w : 1;
        app->report.frame_width = app->frame_w;
        app->report.frame_height = app->frame_h;
        app->report.frame_shown = app->frame_number;
        app->report.frames_presented++;
        app->report.speed = app->speed;
        app->report.fullscreen = app->fullscreen;
        app->report.joystick_port = app->joystick_port;
        if (app->report.key_event_ns && !app->report.key_shown_ns && fresh &&
            app->frame_number > app->report.key_frame) {
            app->report.key_shown_ns = now;
            app->report.key_shown_frame = app->frame_number;
        }
        app->audio_stats = as;
        pthread_mutex_unlock(&app->report_lock);
    }
    fe_input_release_all(app);
    fe_window_close(app);
    return MH_OK;
}
