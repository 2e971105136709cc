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
    ring->first = 0;
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

int dbg_pairs_reset(dbg_pairset *set)
{
    if (!set->keys) set->keys = malloc(DBG_PAIRS_CAPACITY * sizeof *set->keys);
    if (!set->keys) return -1;
    memset(set->keys, 0xFF, DBG_PAIRS_CAPACITY * sizeof *set->keys);
    set->used = 0;
    set->full = 0;
    return 0;
}

void dbg_pairs_free(dbg_pairset *set)
{
    free(set->keys);
    set->keys = NULL;
    set->used = 0;
    set->full = 0;
}

size_t dbg_pairs_writers(const dbg_pairset *set, uint16_t start, uint16_t end, uint16_t *pcs,
                         size_t max)
{
    if (!set->keys) return 0;
    uint8_t *seen = calloc(65536 / 8, 1);
    if (!seen) return 0;
    for (size_t i = 0; i < DBG_PAIRS_CAPACITY; i++) {
        uint32_t key = set->keys[i];
        uint16_t address = (uint16_t)key;
        if (key == DBG_PAIRS_EMPTY || address < start || address > end) continue;
        seen[key >> 19] = (uint8_t)(seen[key >> 19] | 1u << (key >> 16 & 7));
    }
    size_t n = 0;
    for (uint32_t pc = 0; pc < 65536; pc++)
        if (seen[pc >> 3] & 1u << (pc & 7)) {
            if (n < max) pcs[n] = (uint16_t)pc;
            n++;
        }
    free(seen);
    return n;
}
