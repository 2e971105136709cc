/* mcphost/status.h - status codes shared by every call across the plugin ABI.
 *
 * Offers: mh_status and mh_status_name(). Plain values, no ownership.
 * Thread: [thread-safe].
 */
#ifndef MCPHOST_STATUS_H
#define MCPHOST_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Zero is success; every failure is negative. New codes are only appended. */
typedef enum mh_status {
    MH_OK = 0,
    MH_ERR_INVALID_ARGUMENT = -1, /* a caller passed something malformed */
    MH_ERR_NOT_FOUND = -2,        /* a named thing does not exist */
    MH_ERR_EXISTS = -3,           /* a name is already taken */
    MH_ERR_NO_MEMORY = -4,
    MH_ERR_UNSUPPORTED = -5,      /* not available on this machine/plugin */
    MH_ERR_STATE = -6,            /* not possible in the current state */
    MH_ERR_IO = -7,
    MH_ERR_INTERNAL = -8,
    MH_ERR_CANCELLED = -9,
    MH_ERR_TIMEOUT = -10,
    MH_ERR_VERSION = -11,         /* ABI or interface version mismatch */
    MH_ERR_LIMIT = -12,           /* a size or count limit was reached */
    MH_ERR_DENIED = -13           /* not allowed (a path outside the allowed directories) */
} mh_status;

static inline const char *mh_status_name(mh_status status)
{
    switch (status) {
    case MH_OK: return "ok";
    case MH_ERR_INVALID_ARGUMENT: return "invalid argument";
    case MH_ERR_NOT_FOUND: return "not found";
    case MH_ERR_EXISTS: return "already exists";
    case MH_ERR_NO_MEMORY: return "out of memory";
    case MH_ERR_UNSUPPORTED: return "unsupported";
    case MH_ERR_STATE: return "wrong state";
    case MH_ERR_IO: return "I/O error";
    case MH_ERR_INTERNAL: return "internal error";
    case MH_ERR_CANCELLED: return "cancelled";
    case MH_ERR_TIMEOUT: return "timed out";
    case MH_ERR_VERSION: return "version mismatch";
    case MH_ERR_LIMIT: return "limit reached";
    case MH_ERR_DENIED: return "denied";
    }
    return "unknown status";
}

#ifdef __cplusplus
}
#endif
#endif
