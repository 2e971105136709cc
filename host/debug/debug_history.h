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
    uint64_t first;      /* the oldest record still held after dbg_ring_drop_newest()
                          * (time travel: the slots above next hold no past) */
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
    uint64_t oldest = ring->next > cap ? ring->next - cap : 0;
    if (oldest < ring->first) oldest = ring->first;
    return (size_t)(ring->next - oldest);
}

/* Forgets the n newest records: time travel went back before them.
 * Record numbers (next) go back by n too, also past what is held. */
static inline void dbg_ring_drop_newest(dbg_ring *ring, uint64_t n)
{
    uint64_t oldest = ring->next - dbg_ring_count(ring);
    if (n > ring->next) n = ring->next;
    ring->next -= n;
    ring->first = oldest < ring->next ? oldest : ring->next;
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

/* A set of (pc, address) pairs: which instructions ever wrote which
 * addresses since the write log started. Open addressing over a fixed
 * table; when three quarters full it takes no more and says so (full). */
#define DBG_PAIRS_CAPACITY ((size_t)1 << 18)
#define DBG_PAIRS_EMPTY 0xFFFFFFFFu

typedef struct dbg_pairset {
    uint32_t *keys; /* pc << 16 | address; DBG_PAIRS_EMPTY when free */
    size_t used;
    int full;       /* a pair was left out */
} dbg_pairset;

/* Allocates (or empties) the set; -1 when out of memory. */
int dbg_pairs_reset(dbg_pairset *set);
void dbg_pairs_free(dbg_pairset *set);

static inline void dbg_pairs_add(dbg_pairset *set, uint16_t pc, uint16_t address)
{
    uint32_t key = (uint32_t)pc << 16 | address;
    size_t i = (size_t)((key * 2654435761u) >> 14) & (DBG_PAIRS_CAPACITY - 1);
    for (;;) {
        uint32_t at = set->keys[i];
        if (at == key) return;
        if (at == DBG_PAIRS_EMPTY) break;
        i = (i + 1) & (DBG_PAIRS_CAPACITY - 1);
    }
    if (set->used >= DBG_PAIRS_CAPACITY / 4 * 3 || key == DBG_PAIRS_EMPTY) {
        set->full = 1;
        return;
    }
    set->keys[i] = key;
    set->used++;
}

/* The distinct PCs that wrote any address in [start, end], ascending, up
 * to max into pcs; returns how many there are in all. */
size_t dbg_pairs_writers(const dbg_pairset *set, uint16_t start, uint16_t end, uint16_t *pcs,
                         size_t max);

#endif
