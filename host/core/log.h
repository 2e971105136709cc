/* host/core/log.h - the host's log: one sink (stderr or --log-file, never
 * stdout) with a level, plus a hook that forwards messages to MCP clients.
 * Thread: every function is [thread-safe]. */
#ifndef MH_HOST_LOG_H
#define MH_HOST_LOG_H

#include <stdarg.h>
#include "mcphost/log.h"

/* Opens the sink; path NULL means stderr. Returns 0 or -1 (errno kept). */
int mh_log_open(const char *path, mh_log_level level);
void mh_log_close(void);
void mh_log_set_level(mh_log_level level);

/* Parses "debug", "info", ... "emergency"; returns -1 when unknown. */
int mh_log_level_parse(const char *name);
const char *mh_log_level_name(mh_log_level level);

/* Writes "time level [source] message". source may be NULL. */
void mh_log(mh_log_level level, const char *source, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
void mh_logv(mh_log_level level, const char *source, const char *format, va_list args);

/* Called for every message at or above the sink's level and also for those
 * below it, so MCP clients that asked for debug logs get them. */
typedef void (*mh_log_forward_fn)(void *user, mh_log_level level, const char *source,
                                  const char *message);
void mh_log_set_forward(mh_log_forward_fn fn, void *user);

#endif
