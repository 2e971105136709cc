/* host/core/ptrvec.h - a growable array of pointers (the host's one container).
 * Not thread-safe; the owner locks. */
#ifndef MH_HOST_PTRVEC_H
#define MH_HOST_PTRVEC_H

#include <stddef.h>

typedef struct mh_ptrvec {
    void **items;
    size_t count;
    size_t capacity;
} mh_ptrvec;

int mh_ptrvec_push(mh_ptrvec *vec, void *item); /* 0, or -1 when out of memory */
void mh_ptrvec_remove_at(mh_ptrvec *vec, size_t index); /* keeps order */
int mh_ptrvec_remove(mh_ptrvec *vec, const void *item); /* 0 if found */
void mh_ptrvec_free(mh_ptrvec *vec);

#endif
