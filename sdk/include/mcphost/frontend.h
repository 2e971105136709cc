/* mcphost/frontend.h - what a frontend plugin (a window a person uses)
 * registers: a descriptor whose run() the host calls on the main thread.
 *
 * With `--gui` (or `--frontend NAME`) the host starts the transport on a
 * thread of its own and hands the process's main thread to the frontend's
 * run() (SDL and most GUI toolkits want the main thread). run() returns
 * when the person closes the window or the host calls stop() (the
 * transport's input ended, a signal, the run's cycle limit); then the host
 * stops the transport and exits. The frontend watches and drives sessions
 * through "mh.observe/1" (observe.h).
 *
 * Ownership: the descriptor is copied at registration; its strings, run,
 * stop and user_data must live until the plugin's deinit(). The options
 * passed to run() live until run() returns.
 */
#ifndef MCPHOST_FRONTEND_H
#define MCPHOST_FRONTEND_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mh_frontend_options {
    uint32_t struct_size;
    const char *session; /* the start-up session's name, or NULL (none) */
    int warp;            /* --warp was given */
    const char *transport; /* the transport serving beside the window ("stdio", "http", "none") */
} mh_frontend_options;

typedef struct mh_frontend_desc {
    uint32_t struct_size;
    const char *name;        /* the --frontend value: "sdl" */
    const char *description;
    /* Runs the frontend until it is closed or stop() is called; MH_OK on
     * a clean end. [main-thread] */
    mh_status (*run)(void *user_data, const mh_host *host, const mh_frontend_options *options);
    /* Makes run() return soon. [thread-safe] */
    void (*stop)(void *user_data);
    void *user_data;

    /* ---- later additions: the host checks struct_size ---- */

    /* Optional (NULL: nothing to open): opens the frontend (the window)
     * before the transport starts serving, so a frontend that cannot run
     * - no display - ends mcphost at once, before any client connects.
     * error gets what is wrong and what to do. [main-thread] */
    mh_status (*open)(void *user_data, const mh_host *host, const mh_frontend_options *options,
                      char *error, size_t error_size);
} mh_frontend_desc;

#ifdef __cplusplus
}
#endif
#endif
