/* fe_input.c - what the person's hands do: hotkeys (the person's own
 * debugger controls, called as tools of the client "window" so they go
 * through the same engine as the agent's calls and show up in its event
 * stream), machine keys by position (keymap.h), the joystick from the
 * keypad or a gamepad, and clipboard paste. Machine input is applied on
 * the session's emulation thread through mh.input/1 in a posted job.
 * [main-thread] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"
#include "mcphost/machine.h"
#include "mcphost/session.h"

/* ---- jobs on the emulation thread ---- */

typedef enum input_op { OP_KEY, OP_KEY_RELEASE, OP_JOYSTICK, OP_TYPE, OP_RELEASE_ALL } input_op;

typedef struct input_job {
    fe_app *app;
    input_op op;
    int down, port;
    uint32_t mask;
    char key[24];
    char text[]; /* OP_TYPE */
} input_job;

/* A released key stays down this many more frames, so the machine's
 * keyboard scan (once a frame) sees even the shortest press. */
#define MIN_KEY_FRAMES 2

static void run_input(void *arg, mh_session *session)
{
    input_job *job = arg;
    fe_app *app = job->app;
    const mh_chip *chip =
        session ? app->sessions->find_chip(session, MH_IFACE_INPUT, NULL) : NULL;
    const mh_input_iface *in = chip ? chip->vtable : NULL;
    if (in) {
        char error[160] = "";
        switch (job->op) {
        case OP_KEY: in->key(chip->context, job->key, 1); break;
        case OP_KEY_RELEASE:
            /* presses are counted: the hold's press, then this key's release,
             * leave the key down until the hold ends */
            if (in->struct_size >= offsetof(mh_input_iface, key_hold) + sizeof(void *))
                in->key_hold(chip->context, job->key, MIN_KEY_FRAMES);
            in->key(chip->context, job->key, 0);
            break;
        case OP_JOYSTICK: in->joystick(chip->context, job->port, job->mask); break;
        case OP_TYPE:
            if (in->type_text(chip->context, job->text, error, sizeof error) != MH_OK)
                fprintf(stderr, "frontend-sdl: paste: %s\n", error);
            break;
        case OP_RELEASE_ALL: in->release_all(chip->context); break;
        }
    }
    free(job);
}

static void post(fe_app *app, input_job *job)
{
    if (!app->session[0] || app->observe->post_job(app->host, app->session, run_input, job) != MH_OK)
        free(job);
}

static input_job *new_job(fe_app *app, input_op op, size_t text_size)
{
    input_job *job = calloc(1, sizeof *job + text_size);
    if (job) {
        job->app = app;
        job->op = op;
    }
    return job;
}

void fe_input_release_all(fe_app *app)
{
    app->joystick_mask = 0;
    input_job *job = new_job(app, OP_RELEASE_ALL, 0);
    if (job) post(app, job);
}

void fe_input_paste(fe_app *app)
{
    char *clip = SDL_GetClipboardText();
    if (!clip || !*clip) {
        SDL_free(clip);
        return;
    }
    size_t n = strlen(clip);
    input_job *job = new_job(app, OP_TYPE, n + 1);
    if (job) {
        /* the clipboard's line ends become RETURN ("\n") */
        size_t j = 0;
        for (size_t i = 0; i < n; i++)
            if (!(clip[i] == '\r' && clip[i + 1] == '\n')) job->text[j++] = clip[i] == '\r' ? '\n' : clip[i];
        job->text[j] = '\0';
        post(app, job);
    }
    SDL_free(clip);
}

static void set_joystick(fe_app *app, uint32_t mask)
{
    if (mask == app->joystick_mask) return;
    app->joystick_mask = mask;
    input_job *job = new_job(app, OP_JOYSTICK, 0);
    if (!job) return;
    job->port = app->joystick_port;
    job->mask = mask;
    post(app, job);
}

/* ---- the person's controls ---- */

static void ignore_result(void *user, const char *result_json, int is_error)
{
    (void)user;
    (void)result_json;
    (void)is_error; /* the activity pane shows it through the observer */
}

void fe_control(fe_app *app, const char *tool, const char *arguments_json)
{
    if (!app->session[0]) return;
    mh_status st = app->observe->call_tool(app->host, app->session, tool, arguments_json,
                                           ignore_result, NULL);
    if (st != MH_OK)
        fprintf(stderr, "frontend-sdl: %s: %s (is tools-debug loaded?)\n", tool,
                mh_status_name(st));
}

void fe_toggle_breakpoint(fe_app *app, uint32_t address)
{
    char args[96];
    uint32_t id = 0;
    pthread_mutex_lock(&app->report_lock);
    for (size_t i = 0; i < app->breakpoint_count; i++)
        if (app->breakpoints[i].address == address) id = app->breakpoints[i].id;
    pthread_mutex_unlock(&app->report_lock);
    if (id) {
        snprintf(args, sizeof args, "{\"id\":%u}", (unsigned)id);
        fe_control(app, "breakpoints_delete", args);
    } else {
        snprintf(args, sizeof args, "{\"address\":\"$%04X\"}", (unsigned)address);
        fe_control(app, "breakpoints_set", args);
    }
}

typedef enum hotkey_action {
    ACT_PAUSE_RESUME = 1,
    ACT_STEP,
    ACT_STEP_OVER,
    ACT_WARP,
    ACT_FULLSCREEN,
    ACT_PASTE,
    ACT_NEXT_SESSION,
    ACT_JOYSTICK_PORT,
    ACT_MEMORY_UP,
    ACT_MEMORY_DOWN,
    ACT_MEMORY_PAGE_UP,
    ACT_MEMORY_PAGE_DOWN
} hotkey_action;

typedef struct hotkey {
    SDL_Keycode key;
    int alt; /* needs Alt held */
    hotkey_action action;
} hotkey;

/* Documented in docs/frontend-sdl.md. Alt-less hotkeys use keys the
 * machines do not have (F9-F12, Pause). */
static const hotkey hotkeys[] = {
    {SDLK_F9, 0, ACT_PAUSE_RESUME},   {SDLK_PAUSE, 0, ACT_PAUSE_RESUME},
    {SDLK_F10, 0, ACT_STEP},          {SDLK_F11, 0, ACT_STEP_OVER},
    {SDLK_F12, 0, ACT_WARP},          {SDLK_RETURN, 1, ACT_FULLSCREEN},
    {SDLK_v, 1, ACT_PASTE},           {SDLK_s, 1, ACT_NEXT_SESSION},
    {SDLK_j, 1, ACT_JOYSTICK_PORT},   {SDLK_UP, 1, ACT_MEMORY_UP},
    {SDLK_DOWN, 1, ACT_MEMORY_DOWN},  {SDLK_PAGEUP, 1, ACT_MEMORY_PAGE_UP},
    {SDLK_PAGEDOWN, 1, ACT_MEMORY_PAGE_DOWN},
};

void fe_memory_scroll(fe_app *app, int bytes)
{
    app->memory_address = (uint32_t)((int)app->memory_address + bytes) & 0xFFF8u;
    app->memory_follows_screen = 0;
    app->inspected_ns = 0; /* read the new place now */
}

static void next_session(fe_app *app)
{
    mh_observe_session_info info[16];
    size_t n = app->observe->list_sessions(app->host, info, 16);
    if (n > 16) n = 16;
    for (size_t i = 0; i < n; i++)
        if (strcmp(info[i].name, app->session) == 0) {
            app->observe->focus_session(app->host, info[(i + 1) % n].name);
            return;
        }
    if (n) app->observe->focus_session(app->host, info[0].name);
}

static void do_action(fe_app *app, hotkey_action action)
{
    fe_status st;
    fe_activity_status(app->activity, &st);
    int running = strcmp(st.state, "running") == 0;
    switch (action) {
    case ACT_PAUSE_RESUME:
        if (running)
            fe_control(app, "execution_pause", "{}");
        else
            fe_control(app, "execution_run", st.warp ? "{\"warp\":true}" : "{}");
        break;
    case ACT_STEP:
        if (!running) fe_control(app, "execution_step", "{}");
        break;
    case ACT_STEP_OVER:
        if (!running) fe_control(app, "execution_step", "{\"over\":true}");
        break;
    case ACT_WARP:
        fe_control(app, "execution_run", st.warp ? "{\"warp\":false}" : "{\"warp\":true}");
        break;
    case ACT_FULLSCREEN:
        app->fullscreen = !app->fullscreen;
        SDL_SetWindowFullscreen(app->window, app->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
        break;
    case ACT_PASTE: fe_input_paste(app); break;
    case ACT_NEXT_SESSION: next_session(app); break;
    case ACT_JOYSTICK_PORT:
        set_joystick(app, 0);
        app->joystick_port = app->joystick_port == 1 ? 2 : 1;
        break;
    case ACT_MEMORY_UP: fe_memory_scroll(app, -8); break;
    case ACT_MEMORY_DOWN: fe_memory_scroll(app, 8); break;
    case ACT_MEMORY_PAGE_UP: fe_memory_scroll(app, -FE_MEMORY_BYTES); break;
    case ACT_MEMORY_PAGE_DOWN: fe_memory_scroll(app, FE_MEMORY_BYTES); break;
    }
}

/* ---- keys ---- */

/* The joystick from the keypad: 8 4 6 2 (and 7 9 1 3 diagonals), fire on
 * keypad 0 or Right Ctrl. */
static const struct { SDL_Scancode code; uint32_t mask; } joy_keys[] = {
    {SDL_SCANCODE_KP_8, MH_JOY_UP},   {SDL_SCANCODE_KP_2, MH_JOY_DOWN},
    {SDL_SCANCODE_KP_4, MH_JOY_LEFT}, {SDL_SCANCODE_KP_6, MH_JOY_RIGHT},
    {SDL_SCANCODE_KP_7, MH_JOY_UP | MH_JOY_LEFT},   {SDL_SCANCODE_KP_9, MH_JOY_UP | MH_JOY_RIGHT},
    {SDL_SCANCODE_KP_1, MH_JOY_DOWN | MH_JOY_LEFT}, {SDL_SCANCODE_KP_3, MH_JOY_DOWN | MH_JOY_RIGHT},
    {SDL_SCANCODE_KP_0, MH_JOY_FIRE}, {SDL_SCANCODE_RCTRL, MH_JOY_FIRE},
};

static int joystick_key(fe_app *app, const SDL_KeyboardEvent *key)
{
    const Uint8 *state = SDL_GetKeyboardState(NULL);
    int hit = 0;
    uint32_t mask = 0;
    for (size_t i = 0; i < sizeof joy_keys / sizeof joy_keys[0]; i++) {
        if (joy_keys[i].code == key->keysym.scancode) hit = 1;
        if (state[joy_keys[i].code]) mask |= joy_keys[i].mask;
    }
    if (hit) set_joystick(app, mask | app->pad_mask);
    return hit;
}

void fe_input_key(fe_app *app, const SDL_KeyboardEvent *key)
{
    int alt = (key->keysym.mod & KMOD_ALT) != 0;
    for (size_t i = 0; i < sizeof hotkeys / sizeof hotkeys[0]; i++)
        if (hotkeys[i].key == key->keysym.sym && hotkeys[i].alt == alt) {
            if (key->type == SDL_KEYDOWN && !key->repeat) do_action(app, hotkeys[i].action);
            return;
        }
    if (alt || key->repeat || joystick_key(app, key)) return;
    const char *name = fe_keymap_key(app->keymap, key->keysym.scancode);
    if (!name) return;
    input_job *job = new_job(app, key->type == SDL_KEYDOWN ? OP_KEY : OP_KEY_RELEASE, 0);
    if (!job) return;
    snprintf(job->key, sizeof job->key, "%s", name);
    if (key->type == SDL_KEYDOWN) {
        pthread_mutex_lock(&app->report_lock);
        app->report.key_event_ns = fe_now_ns();
        app->report.key_frame = app->frame_number;
        app->report.key_shown_ns = 0;
        app->report.key_shown_frame = 0;
        pthread_mutex_unlock(&app->report_lock);
    }
    post(app, job);
}

/* ---- gamepads (SDL_GameController) ---- */

#define AXIS_DEAD 12000

void fe_input_pad(fe_app *app, const SDL_Event *e)
{
    if (e->type == SDL_CONTROLLERDEVICEADDED) {
        if (!app->pad) app->pad = SDL_GameControllerOpen(e->cdevice.which);
        return;
    }
    if (e->type == SDL_CONTROLLERDEVICEREMOVED) {
        if (app->pad &&
            SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(app->pad)) == e->cdevice.which) {
            SDL_GameControllerClose(app->pad);
            app->pad = NULL;
            app->pad_mask = 0;
            set_joystick(app, 0);
        }
        return;
    }
    if (!app->pad) return;
    SDL_GameController *p = app->pad;
    int x = SDL_GameControllerGetAxis(p, SDL_CONTROLLER_AXIS_LEFTX);
    int y = SDL_GameControllerGetAxis(p, SDL_CONTROLLER_AXIS_LEFTY);
    uint32_t mask = 0;
    if (y < -AXIS_DEAD || SDL_GameControllerGetButton(p, SDL_CONTROLLER_BUTTON_DPAD_UP)) mask |= MH_JOY_UP;
    if (y > AXIS_DEAD || SDL_GameControllerGetButton(p, SDL_CONTROLLER_BUTTON_DPAD_DOWN)) mask |= MH_JOY_DOWN;
    if (x < -AXIS_DEAD || SDL_GameControllerGetButton(p, SDL_CONTROLLER_BUTTON_DPAD_LEFT)) mask |= MH_JOY_LEFT;
    if (x > AXIS_DEAD || SDL_GameControllerGetButton(p, SDL_CONTROLLER_BUTTON_DPAD_RIGHT)) mask |= MH_JOY_RIGHT;
    if (SDL_GameControllerGetButton(p, SDL_CONTROLLER_BUTTON_A) ||
        SDL_GameControllerGetButton(p, SDL_CONTROLLER_BUTTON_B))
        mask |= MH_JOY_FIRE;
    app->pad_mask = mask;
    set_joystick(app, mask);
}
