/* fe_inspect.c - what the panes show that no event carries, read on the
 * session's emulation thread in a posted job (a consistent snapshot that
 * never pauses the machine): the exec breakpoints (mh.debug/1), the live
 * registers (mh.cpu6502/1), the memory view's bytes (mh.memory/1, the CPU's
 * view) and the chips' state (fe_chips.c). Asked for when the activity
 * model changed and four times a second; the results are stored in the app
 * under report_lock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"
#include "mcphost/debug.h"
#include "mcphost/json.h"
#include "mcphost/machine.h"
#include "mcphost/session.h"
#include "mcphost/text_screen.h"

#define INSPECT_NS 250000000u

typedef struct inspect_job {
    fe_app *app;
    int breakpoints;          /* read the breakpoint list too */
    int screen_address;       /* read where the text screen is too */
    uint32_t memory_address;
} inspect_job;

/* The CPU address of the machine's text screen (the C64's $0400, the
 * VIC-20's $1E00, the Plus/4's $0C00 ...), or 0 when it shows none. */
static uint32_t read_screen_address(fe_app *app, mh_session *session)
{
    const mh_chip *chip = app->sessions->find_chip(session, MH_IFACE_TEXT_SCREEN, NULL);
    if (!chip) return 0;
    const mh_text_screen_iface *text = chip->vtable;
    mh_text_screen *screen = calloc(1, sizeof *screen);
    uint32_t address = 0;
    char error[160];
    if (screen) {
        screen->struct_size = sizeof *screen;
        if (text->read(chip->context, screen, error, sizeof error) == MH_OK) address = screen->address;
    }
    free(screen);
    return address;
}

static void store_breakpoints(fe_app *app, const char *json, size_t length)
{
    mh_json_doc *doc = mh_json_parse(json, length, NULL, NULL);
    const mh_json *list = doc ? mh_json_root(doc) : NULL;
    pthread_mutex_lock(&app->report_lock);
    app->breakpoint_count = 0;
    for (size_t i = 0; i < mh_json_array_size(list); i++) {
        const mh_json *bp = mh_json_array_get(list, i);
        uint64_t id = 0, start = 0;
        if (strcmp(mh_json_get_string(bp, "kind", ""), "exec") != 0) continue;
        if (mh_json_get_uint(bp, "id", &id) != MH_OK || mh_json_get_uint(bp, "start", &start) != MH_OK)
            continue;
        if (app->breakpoint_count == sizeof app->breakpoints / sizeof app->breakpoints[0]) break;
        app->breakpoints[app->breakpoint_count].id = (uint32_t)id;
        app->breakpoints[app->breakpoint_count].address = (uint32_t)start;
        app->breakpoint_count++;
    }
    pthread_mutex_unlock(&app->report_lock);
    mh_json_free(doc);
}

static void read_breakpoints(fe_app *app, mh_session *session)
{
    char small[4096];
    size_t n = app->debug->bp_list_json(session, small, sizeof small);
    if (n < sizeof small) {
        store_breakpoints(app, small, n);
        return;
    }
    char *big = malloc(n + 1);
    if (big) {
        size_t m = app->debug->bp_list_json(session, big, n + 1);
        store_breakpoints(app, big, m < n + 1 ? m : n);
    }
    free(big);
}

static void read_cpu(fe_app *app, mh_session *session, fe_inspection *out)
{
    const mh_chip *chip = app->sessions->find_chip(session, MH_IFACE_CPU6502, NULL);
    if (!chip) return;
    const mh_cpu6502_iface *cpu = chip->vtable;
    const mh_cpu6502 *c = cpu->state(chip->context);
    if (!c) return;
    snprintf(out->cpu, sizeof out->cpu, "PC $%04X A=$%02X X=$%02X Y=$%02X S=$%02X P=$%02X",
             (unsigned)c->pc, (unsigned)c->a, (unsigned)c->x, (unsigned)c->y, (unsigned)c->s,
             (unsigned)c->p);
}

static void read_memory(fe_app *app, mh_session *session, uint32_t address, fe_inspection *out)
{
    const mh_chip *chip = app->sessions->find_chip(session, MH_IFACE_MEMORY, NULL);
    out->memory_address = address;
    if (!chip) return;
    const mh_memory_iface *mem = chip->vtable;
    out->memory_ok = mem->peek(chip->context, 0, address, out->memory, FE_MEMORY_BYTES) == MH_OK;
}

static void run_inspect(void *arg, mh_session *session)
{
    inspect_job *job = arg;
    fe_app *app = job->app;
    if (session) {
        if (job->breakpoints && app->debug) read_breakpoints(app, session);
        fe_inspection in;
        memset(&in, 0, sizeof in);
        in.valid = 1;
        read_cpu(app, session, &in);
        read_memory(app, session, job->memory_address, &in);
        in.chip_lines = fe_chips_summarize(app->sessions, session, in.chips, FE_CHIP_LINES);
        if (job->screen_address) in.screen_address = read_screen_address(app, session);
        pthread_mutex_lock(&app->report_lock);
        app->inspection = in;
        pthread_mutex_unlock(&app->report_lock);
    }
    free(job);
}

void fe_inspect(fe_app *app)
{
    uint64_t version = fe_activity_version(app->activity);
    uint64_t now = fe_now_ns();
    int changed = version != app->inspected_version;
    if (!app->session[0] || (!changed && now - app->inspected_ns < INSPECT_NS)) return;
    app->inspected_version = version;
    app->inspected_ns = now;
    inspect_job *job = calloc(1, sizeof *job);
    if (!job) return;
    job->app = app;
    job->breakpoints = changed;
    /* The memory view starts on the text screen (something moves there)
     * and follows it until the person scrolls. */
    job->screen_address = app->memory_follows_screen;
    if (app->memory_follows_screen) {
        pthread_mutex_lock(&app->report_lock);
        const uint32_t screen = app->inspection.screen_address;
        pthread_mutex_unlock(&app->report_lock);
        if (screen) app->memory_address = screen & 0xFFF8u;
    }
    job->memory_address = app->memory_address;
    if (app->observe->post_job(app->host, app->session, run_inspect, job) != MH_OK) free(job);
}
