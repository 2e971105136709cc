/* activity.h - the window's model of what is happening: the agent's (and
 * the person's) tool calls, the focused session's execution state and its
 * last stop record. Plain C, no SDL: the activity pane, the status bar and
 * the debugger panes render it, the test hook reports it, and the unit
 * suite frontend_sdl.activity tests it alone.
 *
 * Threads: fe_activity_observe() is called from mh.observe/1 observer
 * callbacks (any thread, several at once); the snapshot calls from the
 * window's main thread. Everything is under one mutex owned by the model.
 * Strings are copied in (truncated to the field sizes); the model owns all
 * of its memory.
 */
#ifndef FE_ACTIVITY_H
#define FE_ACTIVITY_H

#include <stddef.h>
#include <stdint.h>

#include "mcphost/observe.h"

#define FE_ACTIVITY_MAX 256   /* entries kept; the oldest go first */
#define FE_DISASM_LINES 9

typedef enum fe_entry_kind {
    FE_ENTRY_CALL = 1, /* a tool call: pending until its end arrives */
    FE_ENTRY_EVENT     /* an execution event (stop, resume, jam ...) */
} fe_entry_kind;

typedef struct fe_entry {
    uint64_t seq;         /* 1, 2, ... in the order the model saw them */
    fe_entry_kind kind;
    uint64_t call_id;     /* CALL: the observation's call id */
    int pending;          /* CALL: begun, not ended yet */
    int is_error;         /* CALL: the result is an error */
    uint64_t duration_ns; /* CALL: from begin to end */
    uint64_t begun_ns;    /* CLOCK_MONOTONIC when the model saw the begin (or the event) */
    uint64_t ended_ns;    /* CALL: CLOCK_MONOTONIC when the model saw the end */
    char session[48];
    char client[64];      /* "window" for the person's own controls */
    char tool[48];        /* CALL: the tool; EVENT: the event ("stopped", "resumed") */
    char args[96];        /* CALL: short arguments; EVENT: a short detail */
    char summary[160];    /* CALL: the result's first line or the error */
} fe_entry;

typedef struct fe_disasm_line {
    uint32_t address;
    int current;          /* the line at PC */
    char text[40];        /* "LDA #$00" */
    char bytes[12];       /* "A9 00" */
} fe_disasm_line;

/* The focused session's state as the window shows it. */
typedef struct fe_status {
    char session[48];
    char machine[16];
    char state[16];        /* "running", "paused", "stopped", "jammed", "exited", "" unknown */
    int warp;              /* the last resume asked for warp */
    uint64_t stop_count;   /* stops seen so far */
    uint64_t stop_ns;      /* CLOCK_MONOTONIC of the last stop */
    /* the last stop record (valid when stop_count > 0) */
    char reason[24];       /* "pause", "breakpoint", "step", ... */
    char requested_by[64]; /* a pause: the client that asked ("window" is the person) */
    uint64_t breakpoint;   /* its id, 0 for none */
    uint32_t pc;
    char instruction[40];
    char registers[64];    /* "A=$00 X=$00 Y=$0A S=$F3 P=nv-bdIzc" */
    uint64_t cycles;
    uint32_t raster_line, raster_cycle;
    fe_disasm_line disasm[FE_DISASM_LINES];
    size_t disasm_count;
} fe_status;

typedef struct fe_activity fe_activity;

/* A new empty model; NULL when out of memory. hide_tool (may be NULL) is a
 * tool whose calls are not listed (the test hook's own). */
fe_activity *fe_activity_new(const char *hide_tool);
void fe_activity_free(fe_activity *a);

/* Takes in one observation (tool begin/end, execution event, session
 * focused/destroyed); others are ignored. [any thread] */
void fe_activity_observe(fe_activity *a, const mh_observation *o);

/* Makes `session` the one whose state and stops the status follows (the
 * focused session); clears the status when it changes. [any thread] */
void fe_activity_follow(fe_activity *a, const char *session, const char *machine);

/* Sets the followed session's state when no event has set it yet (at
 * start-up the state comes from list_sessions). [any thread] */
void fe_activity_initial_state(fe_activity *a, const char *session, const char *state);

/* Copies up to max of the newest entries, oldest first, into out and
 * returns how many were copied. [any thread] */
size_t fe_activity_entries(fe_activity *a, fe_entry *out, size_t max);
/* Copies the status. [any thread] */
void fe_activity_status(fe_activity *a, fe_status *out);
/* Increases with every change (to redraw only when needed). [any thread] */
uint64_t fe_activity_version(fe_activity *a);

/* Builds the short argument text of a call from its arguments object:
 * "address=$C000 length=16" (strings unquoted, objects as {...}), at most
 * size - 1 bytes, cut with "...". Exposed for the unit tests. */
void fe_activity_short_args(const char *args_json, char *out, size_t size);

/* Monotonic clock in ns (CLOCK_MONOTONIC, the clock the model stamps with). */
uint64_t fe_now_ns(void);

#endif
