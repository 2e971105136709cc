#include "workers.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct work_item {
    mh_work_fn fn;
    void *arg;
    struct work_item *next;
} work_item;

struct mh_workers {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    work_item *head, *tail;
    pthread_t *threads;
    size_t max_threads, started, idle;
    int stopping;
};

static void *worker_main(void *arg)
{
    mh_workers *pool = arg;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->head && !pool->stopping) {
            pool->idle++;
            pthread_cond_wait(&pool->wake, &pool->lock);
            pool->idle--;
        }
        work_item *item = pool->head;
        if (!item) break; /* stopping and nothing left */
        pool->head = item->next;
        if (!pool->head) pool->tail = NULL;
        pthread_mutex_unlock(&pool->lock);
        item->fn(item->arg);
        free(item);
        pthread_mutex_lock(&pool->lock);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

mh_workers *mh_workers_new(size_t threads)
{
    mh_workers *pool = calloc(1, sizeof *pool);
    if (!pool) return NULL;
    pool->max_threads = threads ? threads : 1;
    pool->threads = calloc(pool->max_threads, sizeof *pool->threads);
    if (!pool->threads) {
        free(pool);
        return NULL;
    }
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    return pool;
}

void mh_workers_free(mh_workers *pool)
{
    if (!pool) return;
    pthread_mutex_lock(&pool->lock);
    pool->stopping = 1;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (size_t i = 0; i < pool->started; i++) pthread_join(pool->threads[i], NULL);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->wake);
    free(pool->threads);
    free(pool);
}

int mh_workers_post(mh_workers *pool, mh_work_fn fn, void *arg)
{
    work_item *item = malloc(sizeof *item);
    if (!item || !pool) {
        free(item);
        return -1;
    }
    item->fn = fn;
    item->arg = arg;
    item->next = NULL;
    pthread_mutex_lock(&pool->lock);
    if (pool->stopping) {
        pthread_mutex_unlock(&pool->lock);
        free(item);
        return -1;
    }
    if (pool->tail)
        pool->tail->next = item;
    else
        pool->head = item;
    pool->tail = item;
    /* Start another thread when every started one is busy. */
    if (pool->idle == 0 && pool->started < pool->max_threads &&
        pthread_create(&pool->threads[pool->started], NULL, worker_main, pool) == 0)
        pool->started++;
    pthread_cond_signal(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    return 0;
}
