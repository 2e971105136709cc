#include "ptrvec.h"

#include <stdlib.h>
#include <string.h>

int mh_ptrvec_push(mh_ptrvec *vec, void *item)
{
    if (vec->count == vec->capacity) {
        size_t capacity = vec->capacity ? vec->capacity * 2 : 8;
        void **items = realloc(vec->items, capacity * sizeof *items);
        if (!items) return -1;
        vec->items = items;
        vec->capacity = capacity;
    }
    vec->items[vec->count++] = item;
    return 0;
}

void mh_ptrvec_remove_at(mh_ptrvec *vec, size_t index)
{
    if (index >= vec->count) return;
    memmove(&vec->items[index], &vec->items[index + 1],
            (vec->count - index - 1) * sizeof *vec->items);
    vec->count--;
}

int mh_ptrvec_remove(mh_ptrvec *vec, const void *item)
{
    for (size_t i = 0; i < vec->count; i++) {
        if (vec->items[i] == item) {
            mh_ptrvec_remove_at(vec, i);
            return 0;
        }
    }
    return -1;
}

void mh_ptrvec_free(mh_ptrvec *vec)
{
    free(vec->items);
    vec->items = NULL;
    vec->count = vec->capacity = 0;
}
