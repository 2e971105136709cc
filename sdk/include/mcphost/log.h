/* mcphost/log.h - the host's log service, "mh.log/1".
 *
 * Offers: levels that match MCP's logging levels (RFC 5424 names) and a
 * service that writes to the host's log (stderr or --log-file, never stdout)
 * and forwards to MCP clients that asked for notifications/message.
 * Ownership: the message is copied before the call returns.
 * Thread: [thread-safe].
 */
#ifndef MCPHOST_LOG_H
#define MCPHOST_LOG_H

#include <stdarg.h>
#include <stdint.h>
#include "mcphost/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_LOG_SERVICE_ID "mh.log/1"

typedef enum mh_log_level {
    MH_LOG_DEBUG = 0,
    MH_LOG_INFO = 1,
    MH_LOG_NOTICE = 2,
    MH_LOG_WARNING = 3,
    MH_LOG_ERROR = 4,
    MH_LOG_CRITICAL = 5,
    MH_LOG_ALERT = 6,
    MH_LOG_EMERGENCY = 7
} mh_log_level;

typedef struct mh_log_service {
    uint32_t struct_size;
    /* Logs one message tagged with the calling plugin's name. */
    void (*write)(const mh_host *host, mh_log_level level, const char *message);
    void (*vwritef)(const mh_host *host, mh_log_level level, const char *format, va_list args);
} mh_log_service;

#ifdef __cplusplus
}
#endif
#endif
