/* session_owner.c - who a machine session belongs to (sessions.h,
 * "ownership"), its idle time, and the reaper: a thread that destroys the
 * sessions of ended connections once their grace period is over. The
 * reaper starts with the first orphan, so a host whose clients never leave
 * sessions behind has no such thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "debug_engine.h"
#include "log.h"
#include "session_internal.h"

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void mh_session_set_owner(mh_session *s, uint64_t owner, const char *label)
{
    pthread_mutex_lock(&s->lock);
    s->owner = owner;
    snprintf(s->owner_label, sizeof s->owner_label, "%s", label ? label : "");
    s->orphan_deadline_ms = 0;
    pthread_mutex_unlock(&s->lock);
}

uint64_t mh_session_owner(mh_session *s, char *label, size_t size, int *orphaned)
{
    pthread_mutex_lock(&s->lock);
    uint64_t owner = s->owner;
    if (label && size) snprintf(label, size, "%s", s->owner_label);
    if (orphaned) *orphaned = s->orphan_deadline_ms != 0;
    pthread_mutex_unlock(&s->lock);
    return owner;
}

void mh_session_touch(mh_session *s) { atomic_store(&s->last_used_ms, now_ms()); }

uint64_t mh_session_idle_ms(mh_session *s)
{
    uint64_t now = now_ms(), last = atomic_load(&s->last_used_ms);
    return now > last ? now - last : 0;
}

void mh_session_changed(mh_session *s) { atomic_fetch_add(&s->change_gen, 1); }

void mh_session_mark_saved(mh_session *s)
{
    pthread_mutex_lock(&s->lock);
    s->saved_gen = atomic_load(&s->change_gen);
    s->saved_cycles = atomic_load(&s->cycles);
    s->saved_valid = 1;
    pthread_mutex_unlock(&s->lock);
}

int mh_session_is_saved(mh_session *s, uint64_t own)
{
    pthread_mutex_lock(&s->lock);
    int saved = s->saved_valid && s->saved_gen + own == atomic_load(&s->change_gen) &&
                s->saved_cycles == atomic_load(&s->cycles) && s->exec_state != MH_EXEC_RUNNING;
    pthread_mutex_unlock(&s->lock);
    return saved;
}

/* Takes expired orphans out of the set (under set->lock); returns how many
 * went into out, and the earliest deadline still ahead in *next (0: none). */
static size_t take_expired(mh_sessions *set, mh_session **out, size_t max, uint64_t *next)
{
    uint64_t now = now_ms();
    size_t n = 0;
    *next = 0;
    for (size_t i = 0; i < set->live.count;) {
        mh_session *s = set->live.items[i];
        pthread_mutex_lock(&s->lock);
        uint64_t deadline = s->orphan_deadline_ms;
        pthread_mutex_unlock(&s->lock);
        if (deadline && deadline <= now && n < max) {
            out[n++] = s;
            mh_ptrvec_remove_at(&set->live, i);
            continue;
        }
        if (deadline && (!*next || deadline < *next)) *next = deadline;
        i++;
    }
    return n;
}

static void *reaper_main(void *arg)
{
    mh_sessions *set = arg;
    pthread_mutex_lock(&set->lock);
    while (!set->reaper_quit) {
        mh_session *expired[16];
        uint64_t next = 0;
        size_t n = take_expired(set, expired, 16, &next);
        if (n) {
            pthread_mutex_unlock(&set->lock);
            for (size_t i = 0; i < n; i++) {
                mh_log(MH_LOG_NOTICE, NULL,
                       "session %s: its client's connection ended and nobody took it over "
                       "within the grace period; destroying it", mh_session_name(expired[i]));
                mh_session_stop_and_release(expired[i]);
            }
            pthread_mutex_lock(&set->lock);
            continue;
        }
        if (!next) {
            pthread_cond_wait(&set->reaper_wake, &set->lock);
            continue;
        }
        struct timespec ts = {(time_t)(next / 1000u), (long)(next % 1000u) * 1000000L};
        pthread_cond_timedwait(&set->reaper_wake, &set->lock, &ts);
    }
    pthread_mutex_unlock(&set->lock);
    return NULL;
}

size_t mh_sessions_orphan(mh_sessions *set, uint64_t owner, uint64_t grace_ms)
{
    if (!set || !owner) return 0;
    mh_session **list = NULL;
    size_t n = mh_sessions_list(set, &list), orphaned = 0;
    for (size_t i = 0; i < n; i++) {
        mh_session *s = list[i];
        pthread_mutex_lock(&s->lock);
        int mine = s->owner == owner && !s->orphan_deadline_ms;
        pthread_mutex_unlock(&s->lock);
        if (mine) {
            /* Paused first: an orphan left running (in warp) used a whole core. */
            mh_debug_service_impl.pause(s);
            pthread_mutex_lock(&s->lock);
            if (s->owner == owner) s->orphan_deadline_ms = now_ms() + (grace_ms ? grace_ms : 1);
            pthread_mutex_unlock(&s->lock);
            mh_log(MH_LOG_NOTICE, NULL,
                   "session %s: its client's connection ended; paused, destroyed in %llu ms "
                   "unless a client takes it over (session_attach)",
                   s->name, (unsigned long long)grace_ms);
            orphaned++;
        }
        mh_session_unref(s);
    }
    free(list);
    if (!orphaned) return 0;
    pthread_mutex_lock(&set->lock);
    if (!set->reaper_started && !set->reaper_quit &&
        pthread_create(&set->reaper, NULL, reaper_main, set) == 0)
        set->reaper_started = 1;
    pthread_cond_signal(&set->reaper_wake);
    pthread_mutex_unlock(&set->lock);
    return orphaned;
}

void mh_sessions_stop_reaper(mh_sessions *set)
{
    pthread_mutex_lock(&set->lock);
    set->reaper_quit = 1;
    int started = set->reaper_started;
    pthread_cond_signal(&set->reaper_wake);
    pthread_mutex_unlock(&set->lock);
    if (started) pthread_join(set->reaper, NULL);
}
