/* debug_service.c - "mh.debug/1" (placeholder until the engine lands). */
#include <stdio.h>

#include "debug_engine.h"

static mh_status d_run(mh_session *s, const mh_run_request *r, char *error, size_t error_size)
{
    (void)s;
    (void)r;
    snprintf(error, error_size, "the debug engine is not available yet");
    return MH_ERR_UNSUPPORTED;
}

const mh_debug_service mh_debug_service_impl = {.struct_size = sizeof(mh_debug_service), .run = d_run};
