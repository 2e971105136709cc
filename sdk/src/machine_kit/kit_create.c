/* kit_create.c - the machine_create skeleton and the log helper
 * (mcphost/machine_kit.h). */
#include <stdarg.h>
#include <stdio.h>

#include "mcphost/machine_kit.h"

mh_status mh_kit_register_chips(const mh_session_service *sessions, mh_session *session,
                                const mh_chip *chips, size_t count, char *error,
                                size_t error_size)
{
    for (size_t i = 0; i < count; i++) {
        mh_status status = sessions->add_chip(session, &chips[i]);
        if (status != MH_OK) {
            snprintf(error, error_size, "cannot register the %s chip (%s): %s", chips[i].instance,
                     chips[i].interface_id, mh_status_name(status));
            return status;
        }
    }
    return MH_OK;
}

mh_status mh_kit_machine_create(const mh_kit_machine_ops *ops, const mh_host *host,
                                mh_session *session, const char *options_json, void **instance,
                                char *error, size_t error_size)
{
    *instance = NULL;
    if (error_size) error[0] = '\0';
    const mh_session_service *sessions =
        host ? host->get_service(host, MH_SESSION_SERVICE_ID) : NULL;
    if (!sessions) {
        snprintf(error, error_size, "the host has no %s service", MH_SESSION_SERVICE_ID);
        return MH_ERR_UNSUPPORTED;
    }
    void *made = NULL;
    mh_status status = ops->make(host, options_json, &made, error, error_size);
    if (status == MH_OK && !made) status = MH_ERR_NO_MEMORY;
    if (status == MH_OK) {
        mh_chip chips[MH_KIT_MAX_CHIPS];
        size_t count = ops->chips(made, chips, MH_KIT_MAX_CHIPS);
        status = mh_kit_register_chips(sessions, session, chips, count, error, error_size);
        if (status != MH_OK) {
            ops->destroy(made);
            made = NULL;
        }
    }
    if (status != MH_OK) {
        if (error_size && !error[0])
            snprintf(error, error_size, "cannot create the machine: %s", mh_status_name(status));
        return status;
    }
    if (ops->created) ops->created(made);
    *instance = made;
    return MH_OK;
}

void mh_kit_log(const mh_host *host, mh_log_level level, const char *format, ...)
{
    if (!host) return;
    const mh_log_service *log = host->get_service(host, MH_LOG_SERVICE_ID);
    if (!log) return;
    va_list args;
    va_start(args, format);
    log->vwritef(host, level, format, args);
    va_end(args);
}
