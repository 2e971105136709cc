/* host/core/workers.h - a small pool of host threads for work that must not
 * run on a transport's reader thread (host tools), so reading goes on while
 * they work. Jobs run in the order posted, several at once.
 * Thread: every function is [thread-safe]. */
#ifndef MH_HOST_WORKERS_H
#define MH_HOST_WORKERS_H

#include <stddef.h>

typedef struct mh_workers mh_workers;
typedef void (*mh_work_fn)(void *arg);

/* A pool of up to `threads` threads, started when work first arrives. */
mh_workers *mh_workers_new(size_t threads);
/* Runs the queued jobs to the end, stops the threads and frees the pool. */
void mh_workers_free(mh_workers *pool);
/* Queues fn(arg); returns 0, or -1 when it could not (the caller runs it). */
int mh_workers_post(mh_workers *pool, mh_work_fn fn, void *arg);

#endif
