/* session_set.c - the set of machine sessions: creating one (its thread
 * runs the machine's create(), session_thread.c), finding, listing and
 * destroying them, and their reference counts. */
#include "sessions.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug_engine.h"
#include "mcphost/machine.h"
#include "hostctx.h"
#include "session_internal.h"
#include "log.h"
#include "ptrvec.h"
#include "observe.h"
#include "registry.h"

mh_sessions *mh_sessions_new(mh_hostctx *ctx)
{
    mh_sessions *set = calloc(1, sizeof *set);
    if (!set) return NULL;
    set->ctx = ctx;
    pthread_mutex_init(&set->lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&set->reaper_wake, &attr);
    pthread_condattr_destroy(&attr);
    set->next_number = 1;
    return set;
}

void mh_session_ref(mh_session *s) { atomic_fetch_add(&s->refs, 1); }

void mh_session_unref(mh_session *s)
{
    if (!s || atomic_fetch_sub(&s->refs, 1) != 1) return;
    mh_session_free_chips(s);
    free(s->stop_json);
    mh_frame_mailbox_destroy(&s->frames);
    mh_audio_stream_destroy(&s->audio);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->wake);
    pthread_cond_destroy(&s->finished);
    free(s);
}

const char *mh_session_name(const mh_session *s) { return s->name; }
const char *mh_session_machine_name(const mh_session *s) { return s->machine->name; }

int mh_session_alive(mh_session *s)
{
    pthread_mutex_lock(&s->lock);
    int alive = s->alive;
    pthread_mutex_unlock(&s->lock);
    return alive;
}

uint64_t mh_session_cycles(mh_session *s) { return atomic_load(&s->cycles); }

static int name_taken(mh_sessions *set, const char *name)
{
    for (size_t i = 0; i < set->live.count; i++)
        if (strcmp(((mh_session *)set->live.items[i])->name, name) == 0) return 1;
    return 0;
}

mh_status mh_sessions_create(mh_sessions *set, const char *machine, const char *name,
                             const char *options_json, mh_session **out, char *error,
                             size_t error_size)
{
    *out = NULL;
    error[0] = '\0';
    const mh_reg_machine *rm = mh_registry_machine(&set->ctx->registry, machine);
    if (!rm) {
        char known[256] = "";
        for (size_t i = 0; i < set->ctx->registry.machines.count; i++) {
            size_t len = strlen(known);
            snprintf(known + len, sizeof known - len, "%s%s", len ? ", " : "",
                     ((mh_reg_machine *)set->ctx->registry.machines.items[i])->name);
        }
        snprintf(error, error_size, "unknown machine \"%s\"; loaded machines: %s", machine,
                 known[0] ? known : "none (no machine plugin was found)");
        return MH_ERR_NOT_FOUND;
    }
    mh_session *s = calloc(1, sizeof *s);
    if (!s) return MH_ERR_NO_MEMORY;
    atomic_init(&s->refs, 1);
    atomic_init(&s->cycles, 0);
    atomic_init(&s->created, 0);
    mh_session_touch(s); /* idle from its creation on */
    s->set = set;
    s->observe = set->ctx->observe;
    s->machine = rm;
    mh_frame_mailbox_init(&s->frames);
    mh_audio_stream_init(&s->audio);
    s->accepting_chips = 1;
    pthread_mutex_init(&s->lock, NULL);
    /* The wake condition times real-time pacing on the monotonic clock. */
    pthread_condattr_t wake_attr;
    pthread_condattr_init(&wake_attr);
    pthread_condattr_setclock(&wake_attr, CLOCK_MONOTONIC);
    pthread_cond_init(&s->wake, &wake_attr);
    pthread_condattr_destroy(&wake_attr);
    pthread_cond_init(&s->finished, NULL);

    pthread_mutex_lock(&set->lock);
    if (name && *name) {
        if (strlen(name) >= sizeof s->name || !mh_tool_name_valid(name)) {
            pthread_mutex_unlock(&set->lock);
            snprintf(error, error_size,
                     "session name \"%s\" is invalid: use 1-63 characters of a-z, A-Z, 0-9, _ and -",
                     name);
            mh_session_unref(s);
            return MH_ERR_INVALID_ARGUMENT;
        }
        if (name_taken(set, name)) {
            pthread_mutex_unlock(&set->lock);
            snprintf(error, error_size, "a session named \"%s\" already exists", name);
            mh_session_unref(s);
            return MH_ERR_EXISTS;
        }
        snprintf(s->name, sizeof s->name, "%s", name);
    } else {
        do
            snprintf(s->name, sizeof s->name, "%s-%u", machine, set->next_number++);
        while (name_taken(set, s->name));
    }
    /* Reserve the name while the machine is created. */
    if (mh_ptrvec_push(&set->live, s) != 0) {
        pthread_mutex_unlock(&set->lock);
        mh_session_unref(s);
        return MH_ERR_NO_MEMORY;
    }
    pthread_mutex_unlock(&set->lock);

    mh_session_create_args ca = {s, options_json ? options_json : "{}", error, error_size};
    if (pthread_create(&s->thread, NULL, mh_session_thread_main, &ca) != 0) {
        snprintf(error, error_size, "cannot start the session's emulation thread");
        pthread_mutex_lock(&set->lock);
        mh_ptrvec_remove(&set->live, s);
        pthread_mutex_unlock(&set->lock);
        mh_session_unref(s);
        return MH_ERR_INTERNAL;
    }
    pthread_mutex_lock(&s->lock);
    while (!atomic_load(&s->created)) pthread_cond_wait(&s->finished, &s->lock);
    int ok = atomic_load(&s->created) > 0;
    pthread_mutex_unlock(&s->lock);
    if (!ok) {
        pthread_join(s->thread, NULL);
        if (!error[0]) snprintf(error, error_size, "machine %s failed to start", machine);
        pthread_mutex_lock(&set->lock);
        mh_ptrvec_remove(&set->live, s);
        pthread_mutex_unlock(&set->lock);
        mh_session_unref(s);
        return MH_ERR_INTERNAL;
    }
    mh_log(MH_LOG_INFO, NULL, "session %s (%s) created", s->name, machine);
    mh_observe_session(s->observe, MH_OBSERVE_SESSION_CREATED, s->name, machine);
    mh_session_ref(s);
    *out = s;
    return MH_OK;
}

mh_session *mh_sessions_find(mh_sessions *set, const char *name)
{
    mh_session *found = NULL;
    pthread_mutex_lock(&set->lock);
    for (size_t i = 0; i < set->live.count && !found; i++) {
        mh_session *s = set->live.items[i];
        if (strcmp(s->name, name) == 0 && atomic_load(&s->created) > 0) found = s;
    }
    if (found) mh_session_ref(found);
    pthread_mutex_unlock(&set->lock);
    return found;
}

mh_session *mh_sessions_default(mh_sessions *set)
{
    mh_session *found = NULL;
    pthread_mutex_lock(&set->lock);
    for (size_t i = 0; i < set->live.count && !found; i++) {
        mh_session *s = set->live.items[i];
        if (atomic_load(&s->created) > 0) found = s;
    }
    if (found) mh_session_ref(found);
    pthread_mutex_unlock(&set->lock);
    return found;
}

size_t mh_sessions_list(mh_sessions *set, mh_session ***out)
{
    pthread_mutex_lock(&set->lock);
    size_t n = 0;
    mh_session **list = calloc(set->live.count ? set->live.count : 1, sizeof *list);
    for (size_t i = 0; list && i < set->live.count; i++) {
        mh_session *s = set->live.items[i];
        if (atomic_load(&s->created) <= 0) continue;
        mh_session_ref(s);
        list[n++] = s;
    }
    pthread_mutex_unlock(&set->lock);
    *out = list;
    return n;
}

void mh_session_stop_and_release(mh_session *s)
{
    pthread_mutex_lock(&s->lock);
    s->quitting = 1;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    mh_log(MH_LOG_INFO, NULL, "session %s destroyed", s->name);
    mh_observe_session(s->observe, MH_OBSERVE_SESSION_DESTROYED, s->name, s->machine->name);
    mh_session_unref(s);
}

mh_status mh_sessions_destroy(mh_sessions *set, const char *name)
{
    mh_session *victim = NULL;
    pthread_mutex_lock(&set->lock);
    for (size_t i = 0; i < set->live.count && !victim; i++) {
        mh_session *s = set->live.items[i];
        if (strcmp(s->name, name) == 0 && atomic_load(&s->created) > 0) {
            victim = s;
            mh_ptrvec_remove_at(&set->live, i);
        }
    }
    pthread_mutex_unlock(&set->lock);
    if (!victim) return MH_ERR_NOT_FOUND;
    mh_session_stop_and_release(victim);
    return MH_OK;
}

void mh_sessions_free(mh_sessions *set)
{
    if (!set) return;
    mh_sessions_stop_reaper(set);
    for (;;) {
        pthread_mutex_lock(&set->lock);
        mh_session *s = set->live.count ? set->live.items[set->live.count - 1] : NULL;
        if (s) set->live.count--;
        pthread_mutex_unlock(&set->lock);
        if (!s) break;
        mh_session_stop_and_release(s);
    }
    mh_ptrvec_free(&set->live);
    pthread_cond_destroy(&set->reaper_wake);
    pthread_mutex_destroy(&set->lock);
    free(set);
}
