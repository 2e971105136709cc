/* tools_vic_raster.c - vic_breakpoints_raster: a check breakpoint on the
 * host's debug engine (mh.debug/1) whose callback reads the VIC's beam()
 * at every instruction boundary, as tools-vic2's breakpoints_raster does
 * for the VIC-II. It stops with the engine's stop record (detail: line,
 * cycle); list, delete and toggle are tools-debug's breakpoints_* tools. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools_vic.h"

/* What the check callback needs; the engine owns it once added. */
typedef struct raster_bp {
    const mh_chip_vic_iface *vic;
    void *chip;
    mh_toolkit_raster state;
} raster_bp;

static int check_raster(void *user, mh_session *session, char *detail, size_t size)
{
    (void)session;
    raster_bp *b = user;
    uint16_t line = 0, cycle = 0;
    b->vic->beam(b->chip, &line, &cycle);
    if (!mh_toolkit_raster_step(&b->state, line)) return 0;
    snprintf(detail, size, "\"line\":%u,\"cycle\":%u", line, cycle);
    return 1;
}

/* Reads line, end_line and mode into b; returns 0 or -1 after an error. */
static int read_lines(tvic_ctx *c, raster_bp *b, char *what, size_t size)
{
    const int64_t lines = c->view.lines_per_frame ? c->view.lines_per_frame : MH_CHIP_VIC_MAX_LINES;
    int64_t first = 0, last = 0;
    mh_status st = mh_args_int(c->args, "line", 0, lines - 1, &first, c->err, sizeof c->err);
    if (st != MH_OK) {
        tvic_fail(c, "%s (this VIC %s has lines 0-%lld)", c->err, c->view.model ? c->view.model : "",
                  (long long)lines - 1);
        return -1;
    }
    last = first;
    st = mh_args_int(c->args, "end_line", first, lines - 1, &last, c->err, sizeof c->err);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        tvic_fail(c, "%s (end_line is the last line of the range, %lld-%lld)", c->err,
                  (long long)first, (long long)lines - 1);
        return -1;
    }
    static const char *const modes[] = {"entry", "every_line"};
    size_t mode = 0;
    st = mh_args_choice(c->args, "mode", modes, 2, &mode, c->err, sizeof c->err);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        tvic_fail(c, "%s", c->err);
        return -1;
    }
    mh_toolkit_raster_init(&b->state, (unsigned)first, (unsigned)last, mode == 1, c->view.raster_line);
    if (first == last)
        snprintf(what, size, "VIC raster line %lld%s", (long long)first,
                 mode ? " (every time)" : "");
    else
        snprintf(what, size, "VIC raster lines %lld-%lld (%s)", (long long)first,
                 (long long)last, mode ? "every line" : "on entry");
    return 0;
}

static void answer(tvic_ctx *c, const mh_breakpoint_spec *spec, uint32_t id, const char *what)
{
    const mh_debug_service *debug = c->services->debug;
    mh_session *s = c->services->call->session(c->call);
    const char *state = mh_exec_state_name(debug->state(s));
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "id");
    mh_json_write_uint(w, id);
    mh_json_write_key(w, "kind");
    mh_json_write_string(w, "raster");
    mh_json_write_key(w, "label");
    mh_json_write_string(w, spec->label ? spec->label : what);
    mh_json_write_key(w, "state");
    mh_json_write_string(w, state);
    mh_json_write_object_end(w);
    char text[512];
    snprintf(text, sizeof text,
             "breakpoint #%u: %s%s%s (the machine is %s; execution_run then execution_wait "
             "returns the stop record)",
             id, spec->label ? spec->label : what, spec->condition ? " if " : "",
             spec->condition ? spec->condition : "", state);
    tvic_send(c, w, text);
}

static void bp_raster(void *user, mh_call *call)
{
    tvic_ctx c;
    raster_bp *b = NULL;
    if (tvic_begin(user, call, &c) != 0) goto done;
    if (!c.services->debug) {
        tvic_fail(&c, "vic_breakpoints_raster needs the host's debug engine (%s)",
                  MH_DEBUG_SERVICE_ID);
        goto done;
    }
    mh_breakpoint_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.struct_size = sizeof spec;
    spec.kinds = MH_BP_CHECK;
    spec.check = check_raster;
    if (mh_toolkit_breakpoint_options(c.args, &spec, c.err, sizeof c.err) != MH_OK) {
        tvic_fail(&c, "%s", c.err);
        goto done;
    }
    b = calloc(1, sizeof *b);
    if (!b) {
        tvic_fail(&c, "out of memory");
        goto done;
    }
    b->vic = c.vic;
    b->chip = c.chip;
    char what[96];
    if (read_lines(&c, b, what, sizeof what) != 0) goto done;
    if (!spec.label) spec.label = what;
    spec.check_user = b;
    spec.check_free = free;
    uint32_t id = 0;
    char error[512];
    mh_status st = c.services->debug->bp_add(c.services->call->session(call), &spec, &id, error,
                                              sizeof error);
    if (st != MH_OK) {
        tvic_fail(&c, "%s", error);
        goto done; /* the engine owns check_user only after a successful add */
    }
    b = NULL;
    answer(&c, &spec, id, what);
done:
    free(b);
    tvic_end(&c);
}

static const mh_tool_desc tools[] = {
    {0, "vic_breakpoints_raster", "VIC raster breakpoint",
     "Stops when the VIC's beam reaches a raster line or range; the stop record gives line and "
     "cycle.",
     "{\"type\":\"object\",\"properties\":{\"line\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Raster line\"},\"end_line\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Last line of a range\"},\"mode\":{\"type\":\"string\","
     "\"description\":\"entry (default) or every_line\",\"enum\":[\"entry\",\"every_line\"]},"
     "\"condition\":{\"type\":\"string\",\"description\":\"Also require this (breakpoints_set "
     "syntax)\"}," MH_TOOLKIT_BREAKPOINT_OPTIONS_SCHEMA
     "},\"required\":[\"line\"],\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"id\",\"kind\"]}", 0, 0, NULL, "vice.breakpoints.raster",
     bp_raster, NULL},
};

mh_status tvic_register_raster(mh_toolkit_services *services)
{
    return mh_toolkit_register_tools(services->host, services->registry, tools, 1,
                                     MH_CHIP_VIC_IFACE, services);
}
