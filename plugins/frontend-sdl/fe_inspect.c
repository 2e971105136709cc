/* fe_inspect.c - the breakpoint list for the disassembly pane, read with
 * mh.debug/1 on the session's emulation thread (a posted job) whenever the
 * activity model changed (a tool call or a stop may have changed it), and
 * stored in the app under report_lock. */
#include <stdlib.h>
#include <string.h>

#include "fe.h"
#include "mcphost/debug.h"
#include "mcphost/json.h"

typedef struct inspect_job {
    fe_app *app;
} inspect_job;

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

static void run_inspect(void *arg, mh_session *session)
{
    inspect_job *job = arg;
    fe_app *app = job->app;
    if (session && app->debug) {
        char small[4096];
        size_t n = app->debug->bp_list_json(session, small, sizeof small);
        if (n < sizeof small) {
            store_breakpoints(app, small, n);
        } else {
            char *big = malloc(n + 1);
            if (big) {
                size_t m = app->debug->bp_list_json(session, big, n + 1);
                store_breakpoints(app, big, m < n + 1 ? m : n);
            }
            free(big);
        }
    }
    free(job);
}

void fe_inspect(fe_app *app)
{
    uint64_t version = fe_activity_version(app->activity);
    if (!app->session[0] || version == app->inspected_version) return;
    app->inspected_version = version;
    inspect_job *job = calloc(1, sizeof *job);
    if (!job) return;
    job->app = app;
    if (app->observe->post_job(app->host, app->session, run_inspect, job) != MH_OK) free(job);
}
