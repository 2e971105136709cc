/* mcphost/session.h - machine sessions, the chips a machine registers in
 * them, and the machine type a machine plugin registers, "mh.session/1".
 *
 * A machine session is one emulated machine instance with its own emulation
 * thread. A machine plugin registers a machine type (mh_machine_desc); the
 * host creates sessions of it. During create() the machine registers each of
 * its chips and capabilities as an mh_chip: an interface id ("mh.chip.vic2/1"),
 * an instance name ("vic2", "cia1") and a vtable + context. Toolsets find
 * chips by interface id, never by machine.
 *
 * Ownership: the session and everything it returns are the host's; an
 * mh_chip passed to add_chip() is copied, but its vtable and context belong to
 * the machine and must live until the machine's destroy().
 *
 * Threads: a session's machine functions run [emu-thread] on that session's
 * own thread; so do tool handlers that use the session. Nothing in a machine
 * plugin is global: two sessions of one machine type share no state.
 */
#ifndef MCPHOST_SESSION_H
#define MCPHOST_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/call.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_SESSION_SERVICE_ID "mh.session/1"

/* One chip (or machine capability) instance of a session. */
struct mh_chip {
    uint32_t struct_size;
    const char *interface_id; /* "mh.chip.vic2/1"; versioned */
    const char *instance;     /* "vic2", "cia1"; unique per interface in a session */
    const char *description;  /* "MOS 6569 VIC-II (PAL)" */
    const void *vtable;       /* the interface's vtable; starts with struct_size */
    void *context;            /* passed back to every vtable function */
};

/* Why a machine's run() returned. */
typedef enum mh_run_stop {
    MH_RUN_BUDGET = 0,   /* the cycle budget is used up; keep going */
    MH_RUN_BREAK = 1,    /* something asked the session to stop (breakpoint...) */
    MH_RUN_JAMMED = 2,   /* the CPU jammed; the clock may go on */
    MH_RUN_EXIT = 3      /* the program asked to end the run (debug cart) */
} mh_run_stop;

typedef struct mh_run_result {
    uint32_t struct_size;
    uint64_t cycles;  /* cycles actually run */
    uint32_t stop;    /* mh_run_stop */
    int exit_code;    /* with MH_RUN_EXIT */
} mh_run_result;

typedef struct mh_machine_desc {
    uint32_t struct_size;
    const char *name;        /* the --machine value: "c64", "vic20", "plus4" */
    const char *description; /* "Commodore 64 (PAL/NTSC)" */

    /* Creates an instance for a new session and registers its chips with
     * add_chip(). options_json is a JSON object of configuration values
     * (never NULL). On failure, return an error and leave nothing behind;
     * error is a buffer for a message that says what is wrong. [emu-thread] */
    mh_status (*create)(void *user_data, mh_session *session, const char *options_json,
                        void **instance, char *error, size_t error_size);
    void (*destroy)(void *instance); /* [emu-thread] */

    /* Runs up to max_cycles (it may overshoot by one instruction) and says
     * why it returned. [emu-thread] */
    mh_status (*run)(void *instance, uint64_t max_cycles, mh_run_result *result);

    /* The machine's clock in Hz (for real-time pacing). [emu-thread] */
    uint64_t (*clock_hz)(void *instance);

    void *user_data;
} mh_machine_desc;

typedef struct mh_session_service {
    uint32_t struct_size;
    /* The session's name ("c64-1") and machine type name ("c64"). */
    const char *(*name)(mh_session *session);
    const char *(*machine)(mh_session *session);
    /* The machine instance create() returned. [emu-thread] */
    void *(*instance)(mh_session *session);
    /* Registers a chip; only during the machine's create(). Fails with
     * MH_ERR_EXISTS on a duplicate interface/instance pair. */
    mh_status (*add_chip)(mh_session *session, const mh_chip *chip);
    /* Finds a chip by interface id and instance name; instance NULL finds
     * the first of that interface. NULL when absent. [emu-thread] */
    const mh_chip *(*find_chip)(mh_session *session, const char *interface_id,
                                const char *instance);
    size_t (*chip_count)(mh_session *session);
    const mh_chip *(*chip_at)(mh_session *session, size_t index);
} mh_session_service;

#ifdef __cplusplus
}
#endif
#endif
