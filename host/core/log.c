#include "log.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The host process has one log sink; plugins reach it only through the
 * mh.log/1 service. */
static struct {
    pthread_mutex_t lock;
    FILE *sink;
    int owns_sink;
    mh_log_level level;
    /* The forward hook is read-locked while it runs, so clearing it waits
     * for running forwards to end before the target goes away. */
    pthread_rwlock_t forward_lock;
    mh_log_forward_fn forward;
    void *forward_user;
} host_log = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, MH_LOG_INFO, PTHREAD_RWLOCK_INITIALIZER, NULL,
              NULL};

static const char *const level_names[] = {"debug",    "info",  "notice", "warning",
                                          "error",    "critical", "alert", "emergency"};

int mh_log_level_parse(const char *name)
{
    for (int i = 0; i < (int)(sizeof level_names / sizeof level_names[0]); i++)
        if (strcmp(name, level_names[i]) == 0) return i;
    return -1;
}

const char *mh_log_level_name(mh_log_level level)
{
    if ((int)level < 0 || level > MH_LOG_EMERGENCY) return "unknown";
    return level_names[level];
}

int mh_log_open(const char *path, mh_log_level level)
{
    FILE *sink = stderr;
    if (path) {
        sink = fopen(path, "a");
        if (!sink) return -1;
        setvbuf(sink, NULL, _IOLBF, 0);
    }
    pthread_mutex_lock(&host_log.lock);
    if (host_log.owns_sink && host_log.sink) fclose(host_log.sink);
    host_log.sink = sink;
    host_log.owns_sink = path != NULL;
    host_log.level = level;
    pthread_mutex_unlock(&host_log.lock);
    return 0;
}

void mh_log_close(void)
{
    pthread_mutex_lock(&host_log.lock);
    if (host_log.owns_sink && host_log.sink) fclose(host_log.sink);
    host_log.sink = NULL;
    host_log.owns_sink = 0;
    pthread_mutex_unlock(&host_log.lock);
    mh_log_set_forward(NULL, NULL);
}

void mh_log_set_level(mh_log_level level)
{
    pthread_mutex_lock(&host_log.lock);
    host_log.level = level;
    pthread_mutex_unlock(&host_log.lock);
}

void mh_log_set_forward(mh_log_forward_fn fn, void *user)
{
    pthread_rwlock_wrlock(&host_log.forward_lock);
    host_log.forward = fn;
    host_log.forward_user = user;
    pthread_rwlock_unlock(&host_log.forward_lock);
}

void mh_logv(mh_log_level level, const char *source, const char *format, va_list args)
{
    char message[2048];
    vsnprintf(message, sizeof message, format, args);

    pthread_mutex_lock(&host_log.lock);
    FILE *sink = host_log.sink ? host_log.sink : stderr;
    if (level >= host_log.level) {
        char stamp[32];
        struct timespec now;
        struct tm tm;
        clock_gettime(CLOCK_REALTIME, &now);
        gmtime_r(&now.tv_sec, &tm);
        strftime(stamp, sizeof stamp, "%H:%M:%S", &tm);
        fprintf(sink, "%s.%03ld %-7s [%s] %s\n", stamp, now.tv_nsec / 1000000L,
                mh_log_level_name(level), source ? source : "host", message);
    }
    pthread_mutex_unlock(&host_log.lock);
    pthread_rwlock_rdlock(&host_log.forward_lock);
    if (host_log.forward)
        host_log.forward(host_log.forward_user, level, source ? source : "host", message);
    pthread_rwlock_unlock(&host_log.forward_lock);
}

void mh_log(mh_log_level level, const char *source, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    mh_logv(level, source, format, args);
    va_end(args);
}
