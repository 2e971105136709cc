/* host/debug/debug_history.h - a ring of fixed-size records whose size is a
 * power of two, for the debug engine's instruction history and write log:
 * a push is one masked index and a store, so recording every instruction
 * stays cheap. The ring owns its storage. [emu-thread] only. */
#ifndef MH_HOST_DEBUG_HISTORY_H
#define MH_HOST_DEBUG_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#define DBG_RING_MAX ((size_t)1 << 22)

typedef struct dbg_ring {
    unsigned char *data; /* capacity * record_size bytes; NULL when off */
    size_t record_size;
    size_t mask;         /* capacity - 1 */
    uint64_t next;       /* records pushed since the ring was (re)sized */
} dbg_ring;

/* Sets the capacity to `records` rounded up to a power of two (at most
 * DBG_RING_MAX; 0 frees it: off) and empties the ring. Returns 0, or -1
 * when out of memory (the ring is then off). */
int dbg_ring_resize(dbg_ring *ring, size_t record_size, size_t records);
void dbg_ring_free(dbg_ring *ring);

static inline size_t dbg_ring_capacity(const dbg_ring *ring)
{
    return ring->data ? ring->mask + 1 : 0;
}

/* The records held now (at most the capacity). */
static inline size_t dbg_ring_count(const dbg_ring *ring)
{
    size_t cap = dbg_ring_capacity(ring);
    return ring->next < cap ? (size_t)ring->next : cap;
}

/* The slot for the next record (the ring must be on); overwrites the
 * oldest when full. */
static inline void *dbg_ring_push(dbg_ring *ring)
{
    return ring->data + (size_t)(ring->next++ & ring->mask) * ring->record_size;
}

/* Copies up to max records, newest first, after skipping the `skip`
 * newest, into out; returns how many. */
size_t dbg_ring_copy_newest(const dbg_ring *ring, size_t skip, void *out, size_t max);

#endif
