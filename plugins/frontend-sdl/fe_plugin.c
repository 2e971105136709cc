/* fe_plugin.c - the frontend-sdl plugin: registers the frontend "sdl"
 * (mcphost --gui), feeds the activity model from mh.observe/1, and - only
 * when the environment sets MH_SDL_TEST_HOOK=1 - the tool
 * sdl_window_report, the test hook through which the e2e tests read what
 * the window shows (its activity model, status, screen area, audio). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"
#include "mcphost/debug.h"
#include "mcphost/json.h"

typedef struct fe_plugin {
    fe_app app;
    const mh_call_service *call;
    uint64_t observer;
} fe_plugin;

/* Wakes the window's loop (SDL_PushEvent is thread-safe). [any thread] */
static void wake(fe_app *app)
{
    unsigned type = atomic_load(&app->wake_event);
    if (!type) return;
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = type;
    SDL_PushEvent(&e);
}

/* [any thread] */
static void on_observation(void *user, const mh_observation *o)
{
    fe_app *app = user;
    fe_activity_observe(app->activity, o);
    wake(app); /* redraw now, not at the next loop turn */
}

static mh_status fe_open(void *user, const mh_host *host, const mh_frontend_options *options,
                         char *error, size_t error_size)
{
    (void)host;
    (void)options;
    return fe_window_open(user, error, error_size);
}

static mh_status fe_run(void *user, const mh_host *host, const mh_frontend_options *options)
{
    (void)host;
    fe_app *app = user;
    atomic_store(&app->stopping, 0);
    return fe_window_run(app, options);
}

/* [thread-safe] */
static void fe_stop(void *user)
{
    fe_app *app = user;
    atomic_store(&app->stopping, 1);
    wake(app);
}

/* ---- the test hook ---- */

static void key_u(mh_json_writer *w, const char *key, uint64_t value)
{
    mh_json_write_key(w, key);
    mh_json_write_uint(w, value);
}

static void key_s(mh_json_writer *w, const char *key, const char *value)
{
    mh_json_write_key(w, key);
    mh_json_write_string(w, value);
}

static void write_entries(mh_json_writer *w, fe_app *app)
{
    fe_entry *entries = malloc(FE_ACTIVITY_MAX * sizeof *entries);
    size_t n = entries ? fe_activity_entries(app->activity, entries, FE_ACTIVITY_MAX) : 0;
    mh_json_write_key(w, "entries");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < n; i++) {
        const fe_entry *e = &entries[i];
        mh_json_write_object_begin(w);
        key_u(w, "seq", e->seq);
        key_s(w, "kind", e->kind == FE_ENTRY_CALL ? "call" : "event");
        key_s(w, "session", e->session);
        key_s(w, "client", e->client);
        key_s(w, "tool", e->tool);
        key_s(w, "args", e->args);
        key_s(w, "summary", e->summary);
        mh_json_write_key(w, "pending");
        mh_json_write_bool(w, e->pending);
        mh_json_write_key(w, "isError");
        mh_json_write_bool(w, e->is_error);
        key_u(w, "durationNs", e->duration_ns);
        key_u(w, "seenNs", e->begun_ns);
        key_u(w, "endedNs", e->ended_ns);
        mh_json_write_object_end(w);
    }
    mh_json_write_array_end(w);
    free(entries);
}

static void write_status(mh_json_writer *w, fe_app *app)
{
    fe_status st;
    fe_activity_status(app->activity, &st);
    mh_json_write_key(w, "status");
    mh_json_write_object_begin(w);
    key_s(w, "session", st.session);
    key_s(w, "state", st.state);
    mh_json_write_key(w, "warp");
    mh_json_write_bool(w, st.warp);
    key_u(w, "stops", st.stop_count);
    key_u(w, "stopNs", st.stop_ns);
    key_s(w, "reason", st.reason);
    key_s(w, "requestedBy", st.requested_by);
    key_u(w, "breakpoint", st.breakpoint);
    key_u(w, "pc", st.pc);
    key_s(w, "instruction", st.instruction);
    key_u(w, "disassemblyLines", st.disasm_count);
    mh_json_write_object_end(w);
}

static void write_window(mh_json_writer *w, fe_app *app)
{
    pthread_mutex_lock(&app->report_lock);
    fe_report r = app->report;
    fe_audio_stats a = app->audio_stats;
    size_t breakpoints = app->breakpoint_count;
    size_t chip_lines = app->inspection.chip_lines;
    char chips[FE_CHIP_LINES][FE_CHIP_LINE];
    memcpy(chips, app->inspection.chips, sizeof chips);
    pthread_mutex_unlock(&app->report_lock);
    mh_json_write_key(w, "window");
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "open");
    mh_json_write_bool(w, r.window_open);
    key_u(w, "x11Window", r.x11_window);
    key_s(w, "session", r.session);
    mh_json_write_key(w, "screen");
    mh_json_write_object_begin(w);
    key_u(w, "x", (uint64_t)r.screen.x);
    key_u(w, "y", (uint64_t)r.screen.y);
    key_u(w, "width", (uint64_t)r.screen.w);
    key_u(w, "height", (uint64_t)r.screen.h);
    key_u(w, "scale", (uint64_t)r.scale);
    key_u(w, "pixelWidth", r.pixel_width);
    key_u(w, "frameWidth", r.frame_width);
    key_u(w, "frameHeight", r.frame_height);
    key_u(w, "frameShown", r.frame_shown);
    mh_json_write_object_end(w);
    key_u(w, "framesPresented", r.frames_presented);
    mh_json_write_key(w, "speedPercent");
    mh_json_write_double(w, r.speed);
    key_u(w, "joystickPort", (uint64_t)r.joystick_port);
    key_u(w, "breakpointsKnown", breakpoints);
    mh_json_write_key(w, "lastKey");
    mh_json_write_object_begin(w);
    key_u(w, "eventNs", r.key_event_ns);
    key_u(w, "frame", r.key_frame);
    key_u(w, "shownNs", r.key_shown_ns);
    key_u(w, "shownFrame", r.key_shown_frame);
    mh_json_write_object_end(w);
    /* the chip pane's lines (fe_chips.c), as last inspected */
    mh_json_write_key(w, "chips");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < chip_lines && i < FE_CHIP_LINES; i++) mh_json_write_string(w, chips[i]);
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    mh_json_write_key(w, "audio");
    mh_json_write_object_begin(w);
    key_s(w, "driver", a.driver);
    key_u(w, "rate", a.rate);
    mh_json_write_key(w, "playing");
    mh_json_write_bool(w, a.playing);
    key_u(w, "played", a.played);
    key_u(w, "underruns", a.underruns);
    key_u(w, "skipped", a.skipped);
    key_u(w, "prefillMs", a.prefill_ms);
    key_u(w, "dropped", a.dropped);
    mh_json_write_key(w, "pacing");
    mh_json_write_bool(w, a.pacing);
    static const char *const names[] = {"fillMs", "fillMinMs", "fillMaxMs", "targetMs",
                                        "paceRatio", "paceMin", "paceMax"};
    const double values[] = {a.fill_ms, a.fill_min_ms, a.fill_max_ms, a.target_ms,
                             a.ratio, a.ratio_min, a.ratio_max};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        mh_json_write_key(w, names[i]);
        mh_json_write_double(w, values[i]);
    }
    mh_json_write_object_end(w);
}

static void report_tool(void *user, mh_call *call)
{
    fe_plugin *p = user;
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    key_u(w, "nowNs", fe_now_ns());
    write_status(w, &p->app);
    write_window(w, &p->app);
    write_entries(w, &p->app);
    mh_json_write_object_end(w);
    char *json = mh_json_writer_finish(w, NULL);
    mh_json_writer_free(w);
    if (json)
        p->call->structured(call, json);
    else
        p->call->error(call, "sdl_window_report: out of memory");
    free(json);
}

/* ---- plugin ---- */

static void plugin_free(fe_plugin *p)
{
    if (!p) return;
    if (p->observer) p->app.observe->remove_observer(p->app.host, p->observer);
    fe_activity_free(p->app.activity);
    pthread_mutex_destroy(&p->app.report_lock);
    free(p->app.pixels);
    free(p->app.rgb);
    free(p);
}

static mh_status init(const mh_host *host, void **data)
{
    const mh_registry_service *registry = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    const mh_observe_service *observe = host->get_service(host, MH_OBSERVE_SERVICE_ID);
    const mh_session_service *sessions = host->get_service(host, MH_SESSION_SERVICE_ID);
    const mh_call_service *call = host->get_service(host, MH_CALL_SERVICE_ID);
    if (!registry || !observe || !sessions || !call ||
        registry->struct_size < offsetof(mh_registry_service, add_frontend) + sizeof(void *))
        return MH_ERR_VERSION;
    fe_plugin *p = calloc(1, sizeof *p);
    if (!p) return MH_ERR_NO_MEMORY;
    pthread_mutex_init(&p->app.report_lock, NULL);
    p->call = call;
    p->app.host = host;
    p->app.observe = observe;
    p->app.sessions = sessions;
    p->app.debug = host->get_service(host, MH_DEBUG_SERVICE_ID);
    p->app.joystick_port = 2;
    const char *hook = getenv("MH_SDL_TEST_HOOK");
    int test_hook = hook && strcmp(hook, "1") == 0;
    p->app.activity = fe_activity_new(test_hook ? FE_TEST_HOOK_TOOL : NULL);
    if (!p->app.activity) {
        plugin_free(p);
        return MH_ERR_NO_MEMORY;
    }
    p->observer = observe->add_observer(
        host,
        MH_OBSERVE_BIT(MH_OBSERVE_TOOL_BEGIN) | MH_OBSERVE_BIT(MH_OBSERVE_TOOL_END) |
            MH_OBSERVE_BIT(MH_OBSERVE_EXEC_EVENT) | MH_OBSERVE_BIT(MH_OBSERVE_SESSION_DESTROYED) |
            MH_OBSERVE_BIT(MH_OBSERVE_SESSION_FOCUSED),
        on_observation, &p->app);
    mh_frontend_desc fe = {sizeof fe, "sdl",
                           "SDL2 window: the screen, keyboard, sound, the agent's activity and "
                           "the person's debugger controls",
                           fe_run, fe_stop, &p->app, fe_open};
    mh_status st = p->observer ? registry->add_frontend(host, &fe) : MH_ERR_NO_MEMORY;
    if (st == MH_OK && test_hook) {
        mh_tool_desc tool = {sizeof tool, FE_TEST_HOOK_TOOL, "SDL window report",
                             "Test hook (MH_SDL_TEST_HOOK=1): what the SDL window shows - its "
                             "activity model, status, screen area and audio.",
                             NULL, "{\"type\":\"object\",\"required\":[\"nowNs\"]}",
                             MH_TOOL_READ_ONLY, 0, NULL, NULL, report_tool, p};
        st = registry->add_tool(host, &tool);
    }
    if (st != MH_OK) {
        plugin_free(p);
        return st;
    }
    *data = p;
    return MH_OK;
}

static void deinit(void *data) { plugin_free(data); }

MH_PLUGIN_DEFINE("org.mcphost.frontend-sdl", "frontend-sdl", "1.0.0",
                 "SDL2 window: screen, keyboard, sound, the agent's activity and the person's "
                 "debugger controls",
                 MH_PLUGIN_FRONTEND, init, deinit);
