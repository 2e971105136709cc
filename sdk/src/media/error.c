/* error.c - filling mh_media_error. */
#include "media_internal.h"

#include <stdarg.h>
#include <stdio.h>

mh_status mh_media_i_fail(mh_media_error *err, mh_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}

void mh_media_i_ok(mh_media_error *err)
{
    if (err) {
        err->status = MH_OK;
        err->message[0] = '\0';
    }
}
