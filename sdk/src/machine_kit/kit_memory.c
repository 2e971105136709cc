/* kit_memory.c - the mh.memory/1 skeleton (mcphost/machine_kit.h): a const
 * space table, range and writable checks, peek/poke by space, bank_at,
 * and peek_runs: the bytes as runs in place, found by the map's span()
 * (peek is peek_runs copying into the caller's buffer, so the two cannot
 * disagree). */
#include <string.h>

#include "mcphost/machine_kit.h"

static const mh_kit_space *space_of(const mh_kit_memory *memory, size_t space, uint32_t address,
                                    size_t length)
{
    if (space >= memory->map->count) return NULL;
    const mh_kit_space *s = &memory->map->spaces[space];
    if (address > s->info.size || length > s->info.size - address) return NULL;
    return s;
}

static size_t mem_space_count(void *context)
{
    const mh_kit_memory *memory = context;
    return memory->map->count;
}

static const mh_memory_space *mem_space(void *context, size_t index)
{
    const mh_kit_memory *memory = context;
    return index < memory->map->count ? &memory->map->spaces[index].info : NULL;
}

/* Bytes read one by one through a per-byte peek go out in chunks of this
 * many (a stack buffer). */
#define PEEK_CHUNK 256u

typedef void (*run_fn)(void *user, const uint8_t *bytes, size_t n);

/* [address, address + length) of space s, which has a per-byte peek, as
 * runs: in place where the map's span() finds RAM or ROM, else peeked
 * byte by byte into a chunk buffer. */
static void peek_fn_runs(const mh_kit_memory *memory, const mh_kit_space *s, size_t space,
                         uint32_t address, size_t length, run_fn fn, void *user)
{
    uint8_t chunk[PEEK_CHUNK];
    const mh_kit_memory_map *map = memory->map;
    while (length) {
        uint32_t n = 0;
        const uint8_t *in_place = NULL;
        if (map->span) {
            in_place = map->span(memory->instance, space, address, &n);
            if (n == 0) n = 1; /* a span() that breaks its promise still ends */
        } else {
            n = UINT32_MAX;
        }
        if (n > length) n = (uint32_t)length;
        if (in_place) {
            fn(user, in_place, n);
        } else {
            for (uint32_t done = 0; done < n;) {
                uint32_t step = n - done < PEEK_CHUNK ? n - done : PEEK_CHUNK;
                for (uint32_t i = 0; i < step; i++)
                    chunk[i] = s->peek(memory->instance, address + done + i);
                fn(user, chunk, step);
                done += step;
            }
        }
        address += n;
        length -= n;
    }
}

/* The same for a space of plain bytes: one run, or masked chunks. */
static void plain_runs(const mh_kit_memory *memory, const mh_kit_space *s, uint32_t address,
                       size_t length, run_fn fn, void *user)
{
    const uint8_t *bytes = (const uint8_t *)memory->instance + s->offset + address;
    if (!s->mask || s->mask == 0xFF) {
        if (length) fn(user, bytes, length);
        return;
    }
    uint8_t chunk[PEEK_CHUNK];
    for (size_t done = 0; done < length;) {
        size_t step = length - done < PEEK_CHUNK ? length - done : PEEK_CHUNK;
        for (size_t i = 0; i < step; i++) chunk[i] = bytes[done + i] & s->mask;
        fn(user, chunk, step);
        done += step;
    }
}

static mh_status mem_peek_runs(void *context, size_t space, uint32_t address, size_t length,
                               run_fn fn, void *user)
{
    const mh_kit_memory *memory = context;
    const mh_kit_space *s = space_of(memory, space, address, length);
    if (!s || !fn) return MH_ERR_INVALID_ARGUMENT;
    if (s->peek)
        peek_fn_runs(memory, s, space, address, length, fn, user);
    else
        plain_runs(memory, s, address, length, fn, user);
    return MH_OK;
}

/* peek is peek_runs into the caller's buffer. */
static void copy_run(void *user, const uint8_t *bytes, size_t n)
{
    uint8_t **out = user;
    memcpy(*out, bytes, n);
    *out += n;
}

static mh_status mem_peek(void *context, size_t space, uint32_t address, uint8_t *out,
                          size_t length)
{
    if (length && !out) return MH_ERR_INVALID_ARGUMENT;
    return mem_peek_runs(context, space, address, length, copy_run, &out);
}

static mh_status mem_poke(void *context, size_t space, uint32_t address, const uint8_t *data,
                          size_t length)
{
    const mh_kit_memory *memory = context;
    const mh_kit_space *s = space_of(memory, space, address, length);
    if (!s || (length && !data)) return MH_ERR_INVALID_ARGUMENT;
    if (!s->info.writable || (s->peek && !s->poke)) return MH_ERR_UNSUPPORTED;
    if (s->poke) {
        for (size_t i = 0; i < length; i++)
            s->poke(memory->instance, address + (uint32_t)i, data[i]);
    } else {
        uint8_t *bytes = (uint8_t *)memory->instance + s->offset + address;
        if (!s->mask || s->mask == 0xFF) {
            if (length) memcpy(bytes, data, length);
        } else {
            for (size_t i = 0; i < length; i++) bytes[i] = data[i] & s->mask;
        }
    }
    if (memory->map->after_poke) memory->map->after_poke(memory->instance);
    return MH_OK;
}

static size_t mem_bank_at(void *context, uint16_t address)
{
    const mh_kit_memory *memory = context;
    return memory->map->bank_at ? memory->map->bank_at(memory->instance, address) : 0;
}

const mh_memory_iface mh_kit_memory_iface = {sizeof(mh_memory_iface), mem_space_count, mem_space,
                                             mem_peek, mem_poke, mem_bank_at, mem_peek_runs};

mh_chip mh_kit_memory_chip(mh_kit_memory *memory, const mh_kit_memory_map *map, void *instance,
                           const char *description)
{
    memory->map = map;
    memory->instance = instance;
    mh_chip chip = {sizeof(mh_chip), MH_IFACE_MEMORY, "memory", description,
                    &mh_kit_memory_iface, memory};
    return chip;
}
