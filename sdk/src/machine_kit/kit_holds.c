/* kit_holds.c - input released by the machine after N frames, and its
 * blob for time travel (mcphost/kit_holds.h). */
#include "mcphost/kit_holds.h"

#include <string.h>

#define HOLDS_MAGIC "HOLD"
#define HOLDS_VERSION 1u

mh_status mh_kit_holds_add_key(mh_kit_holds *holds, uint8_t key, uint32_t frames)
{
    if (frames == 0) return MH_ERR_INVALID_ARGUMENT;
    if (holds->count >= MH_KIT_MAX_HOLDS) return MH_ERR_LIMIT;
    holds->key[holds->count] = key;
    holds->key_left[holds->count] = frames;
    holds->count++;
    return MH_OK;
}

void mh_kit_holds_set_joystick(mh_kit_holds *holds, int port, uint32_t frames)
{
    if (port == 1 || port == 2) holds->joy_left[port] = frames;
}

void mh_kit_holds_frame(mh_kit_holds *holds, const mh_kit_holds_ops *ops, void *machine)
{
    for (uint32_t i = 0; i < holds->count;) {
        if (--holds->key_left[i]) {
            i++;
            continue;
        }
        uint8_t key = holds->key[i];
        holds->count--;
        holds->key[i] = holds->key[holds->count];
        holds->key_left[i] = holds->key_left[holds->count];
        ops->release_key(machine, key);
    }
    for (int port = 1; port <= 2; port++)
        if (holds->joy_left[port] && --holds->joy_left[port] == 0)
            ops->release_joystick(machine, port);
}

static void put32(uint8_t *out, uint32_t v)
{
    for (int i = 0; i < 4; i++) out[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *in)
{
    return (uint32_t)in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 |
           (uint32_t)in[3] << 24;
}

mh_status mh_kit_holds_save(const mh_kit_holds *holds, uint8_t *out, size_t max, size_t *size)
{
    *size = 0;
    if (!mh_kit_holds_pending(holds)) return MH_OK;
    size_t need = 6u + holds->count * 5u + 8u;
    if (max < need) return MH_ERR_LIMIT;
    memcpy(out, HOLDS_MAGIC, 4);
    out[4] = HOLDS_VERSION;
    out[5] = (uint8_t)holds->count;
    size_t at = 6;
    for (uint32_t i = 0; i < holds->count; i++, at += 5) {
        out[at] = holds->key[i];
        put32(out + at + 1, holds->key_left[i]);
    }
    put32(out + at, holds->joy_left[1]);
    put32(out + at + 4, holds->joy_left[2]);
    *size = need;
    return MH_OK;
}

mh_status mh_kit_holds_load(mh_kit_holds *holds, const uint8_t *data, size_t size,
                            unsigned key_count)
{
    mh_kit_holds next;
    memset(&next, 0, sizeof next);
    if (size == 0) {
        *holds = next;
        return MH_OK;
    }
    if (!data || size < 6 || memcmp(data, HOLDS_MAGIC, 4) != 0 || data[4] != HOLDS_VERSION ||
        data[5] > MH_KIT_MAX_HOLDS || size != 6u + data[5] * 5u + 8u)
        return MH_ERR_INVALID_ARGUMENT;
    next.count = data[5];
    size_t at = 6;
    for (uint32_t i = 0; i < next.count; i++, at += 5) {
        next.key[i] = data[at];
        next.key_left[i] = get32(data + at + 1);
        /* a pending hold has a frame to run: 0 would never end */
        if (next.key[i] >= key_count || next.key_left[i] == 0) return MH_ERR_INVALID_ARGUMENT;
    }
    next.joy_left[1] = get32(data + at);
    next.joy_left[2] = get32(data + at + 4);
    *holds = next;
    return MH_OK;
}
