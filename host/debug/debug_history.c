/* debug_history.c - the power-of-two record ring (debug_history.h). */
#include "debug_history.h"

#include <stdlib.h>
#include <string.h>

int dbg_ring_resize(dbg_ring *ring, size_t record_size, size_t records)
{
    dbg_ring_free(ring);
    ring->record_size = record_size;
    if (records == 0) return 0;
    if (records > DBG_RING_MAX) records = DBG_RING_MAX;
    size_t capacity = 1;
    while (capacity < records) capacity <<= 1;
    ring->data = calloc(capacity, record_size);
    if (!ring->data) return -1;
    ring->mask = capacity - 1;
    return 0;
}

void dbg_ring_free(dbg_ring *ring)
{
    free(ring->data);
    ring->data = NULL;
    ring->mask = 0;
    ring->next = 0;
}

size_t dbg_ring_copy_newest(const dbg_ring *ring, size_t skip, void *out, size_t max)
{
    size_t count = dbg_ring_count(ring);
    if (skip >= count) return 0;
    size_t n = count - skip < max ? count - skip : max;
    unsigned char *to = out;
    for (size_t i = 0; i < n; i++) {
        uint64_t index = ring->next - 1 - skip - i;
        memcpy(to + i * ring->record_size,
               ring->data + (size_t)(index & ring->mask) * ring->record_size, ring->record_size);
    }
    return n;
}
