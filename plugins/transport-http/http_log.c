/* http_log.c - the transport's log lines, and the rate limit of the ones a
 * flood of bad connections would repeat. */
#include "http_internal.h"




void http_log(http_transport *t, mh_log_level level, const char *format, ...)
{
    if (!t->log) return;
    va_list args;
    va_start(args, format);
    t->log->vwritef(t->host, level, format, args);
    va_end(args);
}

#define NOISE_LINES 5

/* Starts a new noise window when the current one is over; returns how many
 * lines the ended one left out. Lock held. */
static unsigned long noise_roll_locked(http_transport *t, double now)
{
    if (now - t->noise_window < NOISE_WINDOW_SECONDS) return 0;
    unsigned long left_out = t->noise_left_out;
    t->noise_window = now;
    t->noise_lines = 0;
    t->noise_left_out = 0;
    return left_out;
}

static void report_left_out(http_transport *t, unsigned long left_out)
{
    if (left_out)
        http_log(t, MH_LOG_NOTICE,
                 "%lu more lines about refused or dropped connections were left out in %.0f s",
                 left_out, NOISE_WINDOW_SECONDS);
}

void http_log_noise(http_transport *t, mh_log_level level, const char *format, ...)
{
    pthread_mutex_lock(&t->noise_lock);
    unsigned long left_out = noise_roll_locked(t, http_now());
    int write = t->noise_lines < NOISE_LINES;
    if (write)
        t->noise_lines++;
    else
        t->noise_left_out++;
    pthread_mutex_unlock(&t->noise_lock);
    report_left_out(t, left_out);
    if (!write || !t->log) return;
    va_list args;
    va_start(args, format);
    t->log->vwritef(t->host, level, format, args);
    va_end(args);
}

/* Reports what a noise window left out once it is over, even when no new
 * line comes. [main-thread] */
void http_flush_noise(http_transport *t)
{
    pthread_mutex_lock(&t->noise_lock);
    unsigned long left_out = noise_roll_locked(t, http_now());
    pthread_mutex_unlock(&t->noise_lock);
    report_left_out(t, left_out);
}
