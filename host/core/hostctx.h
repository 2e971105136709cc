/* host/core/hostctx.h - the host's state: one per process, created by main()
 * and passed explicitly (no globals besides the log sink). */
#ifndef MH_HOST_HOSTCTX_H
#define MH_HOST_HOSTCTX_H

#include <stdint.h>
#include "ptrvec.h"
#include "registry.h"

#define MH_HOST_VERSION "0.1.0"

struct mh_sessions;
struct mh_server;
struct mh_observe;
struct mh_stop_annotators;

typedef struct mh_hostctx {
    mh_registry registry;
    mh_ptrvec plugins; /* mh_plugin_record*, in load order */
    struct mh_sessions *sessions;
    struct mh_server *server;
    struct mh_observe *observe; /* mh.observe/1 (observe.c); created first, freed last */
    struct mh_stop_annotators *annotators; /* mh.debug/1 stop annotators (stop_annotators.c) */
    mh_ptrvec allowed_dirs;  /* char*, realpath'd: --allow-dir (files.c) */
    mh_ptrvec allowed_files; /* char*, realpath'd: files named on the command line (files.c) */
    uint64_t orphan_grace_ms; /* --orphan-grace: an ended client's sessions live this long */
    int no_confirm;           /* --no-confirm: destructive calls need no confirmation token */
    uint64_t confirm_ttl_ms;  /* --confirm-ttl: a token's life (0: 60 s) */
    /* --time-travel (1 on, -1 off, 0 not given: MCPHOST_TRAVEL, else on),
     * --time-travel-seconds and --time-travel-mib (0: the defaults) for
     * every session's snapshot ring (debug_travel.c) */
    int travel;
    uint32_t travel_seconds;
    uint32_t travel_mib;
} mh_hostctx;

/* The services a plugin can look up (services.c). */
const void *mh_host_get_service(const mh_host *host, const char *service_id);

#endif
