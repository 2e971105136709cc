/* kit_memory.c - the mh.memory/1 skeleton (mcphost/machine_kit.h): a const
 * space table, range and writable checks, peek/poke by space, bank_at. */
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

static mh_status mem_peek(void *context, size_t space, uint32_t address, uint8_t *out,
                          size_t length)
{
    const mh_kit_memory *memory = context;
    const mh_kit_space *s = space_of(memory, space, address, length);
    if (!s || (length && !out)) return MH_ERR_INVALID_ARGUMENT;
    if (s->peek) {
        for (size_t i = 0; i < length; i++)
            out[i] = s->peek(memory->instance, address + (uint32_t)i);
        return MH_OK;
    }
    const uint8_t *bytes = (const uint8_t *)memory->instance + s->offset + address;
    if (!s->mask || s->mask == 0xFF) {
        if (length) memcpy(out, bytes, length);
    } else {
        for (size_t i = 0; i < length; i++) out[i] = bytes[i] & s->mask;
    }
    return MH_OK;
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
                                             mem_peek, mem_poke, mem_bank_at};

mh_chip mh_kit_memory_chip(mh_kit_memory *memory, const mh_kit_memory_map *map, void *instance,
                           const char *description)
{
    memory->map = map;
    memory->instance = instance;
    mh_chip chip = {sizeof(mh_chip), MH_IFACE_MEMORY, "memory", description,
                    &mh_kit_memory_iface, memory};
    return chip;
}
