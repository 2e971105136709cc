/* td_stepline.c - stepping by source line (td_stepline.h). */
#include "td_stepline.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mcphost/json.h>

#include "td_lines.h"
#include "td_store.h"

typedef struct line_key {
    int has_line;
    uint32_t file, line, start;
} line_key;

static line_key key_of(td_plugin *p, const char *session, uint32_t pc)
{
    line_key k = {0, 0, 0, 0};
    td_session_state *state = td_store_lock(p->store, session, 0);
    const td_line *l = state ? td_lines_at(&state->lines, pc) : NULL;
    if (l) k = (line_key){1, l->file, l->line, l->start};
    td_store_unlock(p->store);
    return k;
}

static int has_lines(td_plugin *p, const char *session)
{
    td_session_state *state = td_store_lock(p->store, session, 0);
    int has = state && state->lines.count > 0;
    td_store_unlock(p->store);
    return has;
}

/* The stopped machine's PC and stop reason; 0 when it is not stopped. */
static int position(td_plugin *p, mh_session *session, uint32_t *pc, char *reason, size_t size)
{
    char *json = td_fetch_json(p->debug->state_json, session);
    mh_json_doc *doc = json ? mh_json_parse(json, strlen(json), NULL, NULL) : NULL;
    const mh_json *root = doc ? mh_json_root(doc) : NULL;
    const mh_json *stop = root ? mh_json_object_get(root, "stop") : NULL;
    const char *state = root ? mh_json_get_string(root, "state", "") : "";
    int64_t value = -1;
    int ok = stop && strcmp(state, "running") != 0 && mh_json_get_int(stop, "pc", &value) == MH_OK;
    if (ok) {
        *pc = (uint32_t)value;
        snprintf(reason, size, "%s", mh_json_get_string(stop, "reason", ""));
    }
    mh_json_free(doc);
    free(json);
    return ok;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int wait_cancelled(void *user)
{
    void **pair = user;
    const td_plugin *p = pair[0];
    return p->call->cancelled(pair[1]);
}

/* One run toward goal; 0 stopped as asked, 1 stopped for another reason
 * (breakpoint, jam ...), -1 error or timeout (note set). */
static int run_one(td_plugin *p, mh_call *call, uint32_t goal, int64_t deadline, uint32_t *pc,
                   const char **note)
{
    mh_session *session = p->call->session(call);
    mh_run_request request = {sizeof request, goal, 1, 0, -1};
    char error[300], reason[32];
    if (p->debug->run(session, &request, error, sizeof error) != MH_OK) {
        p->call->error(call, error);
        return -2;
    }
    int64_t left = deadline - now_ms();
    void *pair[2] = {p, call};
    mh_status status = p->debug->wait(session, (uint32_t)(left > 1 ? left : 1), wait_cancelled, pair);
    if (status == MH_ERR_TIMEOUT) {
        *note = "stepping by line ran past timeout_ms: the machine is still running "
                "(execution_pause stops it)";
        return -1;
    }
    if (status == MH_ERR_CANCELLED) {
        *note = "cancelled: the machine is still running";
        return -1;
    }
    if (!position(p, session, pc, reason, sizeof reason)) return -1;
    return strcmp(reason, goal == MH_GOAL_STEP_OUT ? "step_out"
                          : goal == MH_GOAL_STEP_OVER ? "step_over" : "step") != 0;
}

void td_step_line(td_plugin *p, mh_call *call, int over, int64_t timeout_ms,
                  void (*report)(td_plugin *, mh_call *, mh_session *, const char *note))
{
    mh_session *session = p->call->session(call);
    const char *name = p->sessions->name(session);
    uint32_t pc = 0;
    char reason[32];
    if (!name || !p->store || !has_lines(p, name)) {
        p->call->error(call, "execution_step unit \"line\" needs source lines: symbols_load a "
                             "debug info file with lines (ca65 --dbgfile .dbg, KickAssembler .dbg)");
        return;
    }
    if (!position(p, session, &pc, reason, sizeof reason)) {
        p->call->error(call, "execution_step: the machine is running; execution_pause first");
        return;
    }
    line_key from = key_of(p, name, pc);
    int64_t deadline = now_ms() + timeout_ms;
    const char *note = NULL;
    for (int steps = 0;; steps++) {
        if (steps == TD_STEPLINE_MAX_STEPS) {
            note = "no new source line within the step limit; stopped where it was";
            break;
        }
        int r = run_one(p, call, over ? MH_GOAL_STEP_OVER : MH_GOAL_STEP, deadline, &pc, &note);
        if (r == -2) return;
        if (r != 0) break; /* a breakpoint or other stop, an error or the timeout */
        line_key at = key_of(p, name, pc);
        if (!at.has_line) {
            /* code without lines: come back out of it */
            r = run_one(p, call, MH_GOAL_STEP_OUT, deadline, &pc, &note);
            if (r == -2) return;
            if (r != 0) break;
            at = key_of(p, name, pc);
            if (!at.has_line) continue;
        }
        if (pc == at.start && (!from.has_line || at.file != from.file || at.line != from.line))
            break;
    }
    report(p, call, session, note);
}
