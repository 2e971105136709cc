/* host/protocol/tools_listed.h - which tools tools/list shows: the tools
 * that can run on some live session. A tool whose `requires` interface
 * (a chip or capability) no live session registered is left out - a C64
 * host does not list the VIA, VIC and TED tools, a VIC-20 host not the
 * VIC-II, SID and CIA ones - so the catalogue a model reads on every turn
 * holds what it can use (docs/tools.md). With no live session every tool
 * is listed (nothing to choose by). tools/call still finds every tool and
 * answers one for a missing chip with what the machine has instead.
 * When a session is created or destroyed and the set changes, the server
 * sends notifications/tools/list_changed (server_events.c).
 * [thread-safe]: reads the registry (fixed after loading) and the live
 * sessions' chip lists (fixed after creation). */
#ifndef MH_HOST_TOOLS_LISTED_H
#define MH_HOST_TOOLS_LISTED_H

#include <stddef.h>
#include <stdint.h>

#include "hostctx.h"
#include "registry.h"

/* The listed tools in registry order into out (capacity cap, may be NULL);
 * returns how many are listed. skip_session: a session to count as gone
 * (being destroyed), or NULL. */
size_t mh_tools_listed(mh_hostctx *ctx, const char *skip_session, const mh_reg_tool **out,
                       size_t cap);

/* A hash of the listed set, to tell whether it changed. */
uint64_t mh_tools_listed_hash(mh_hostctx *ctx, const char *skip_session);

#endif
