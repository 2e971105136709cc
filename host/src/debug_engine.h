/* host/src/debug_engine.h - the per-session debug engine behind
 * "mh.debug/1" (mcphost/debug.h): execution goals, breakpoints, the CPU
 * hooks, stop records. sessions.c owns one engine per session and calls the
 * mh_dbg_* functions from the session thread. */
#ifndef MH_HOST_DEBUG_ENGINE_H
#define MH_HOST_DEBUG_ENGINE_H

#include "mcphost/debug.h"

extern const mh_debug_service mh_debug_service_impl;

#endif
