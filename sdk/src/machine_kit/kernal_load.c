/* kernal_load.c - the virtual drive behind the KERNAL's LOAD entry
 * (mcphost/kernal.h): the load is done at that instruction boundary in zero
 * cycles, with no serial bus, so it works with any KERNAL that keeps the
 * documented variables. The trap prints no SEARCHING/LOADING messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/kernal.h"
#include "mcphost/media.h"
#include "mcphost/media_d64.h"

#include "kernal_trap.h"

int mh_kernal_load_trap(const mh_kernal *k, uint8_t device, const struct mh_d64 *disk,
                        char *message, size_t message_size)
{
    const mh_kernal_layout *l = k->layout;
    uint8_t *ram = k->ram;
    if (!disk || ram[l->device] != device) return 0;
    uint8_t name[256];
    size_t length = ram[l->file_name_length];
    uint16_t name_at = kernal_word_at(ram, l->file_name);
    /* The name is read as the KERNAL would: through the CPU's banking. */
    for (size_t i = 0; i < length; i++) {
        uint16_t at = (uint16_t)(name_at + i);
        name[i] = kernal_peek(k, at);
    }
    uint8_t sa = ram[l->secondary_address];
    int verify = k->cpu->a != 0;
    uint16_t xy = (uint16_t)(k->cpu->x | k->cpu->y << 8);
    ram[l->verify_flag] = k->cpu->a;
    char shown[64];
    size_t n = length < sizeof shown - 1 ? length : sizeof shown - 1;
    for (size_t i = 0; i < n; i++)
        shown[i] = name[i] >= 0x20 && name[i] < 0x7F ? (char)name[i] : '?';
    shown[n] = '\0';
    if (length == 0) {
        snprintf(message, message_size, "LOAD without a file name");
        kernal_return_error(k, 8);
        return 1;
    }
    uint16_t dir_address = sa == 0 ? xy : l->directory_address;
    uint8_t *data = NULL;
    size_t size = 0;
    mh_media_error err;
    mh_status status = mh_d64_load(disk, name, length, dir_address, &data, &size, NULL, &err);
    if (status == MH_OK && size < 2) {
        status = MH_ERR_NOT_FOUND;
        snprintf(err.message, sizeof err.message, "the file has no load address");
    }
    if (status != MH_OK) {
        free(data);
        snprintf(message, message_size, "%s \"%s\": %s", verify ? "VERIFY" : "LOAD", shown,
                 err.message);
        kernal_return_error(k, status == MH_ERR_NOT_FOUND ? 4 : 5);
        return 1;
    }
    uint16_t start = xy;
    if (sa != 0) start = (uint16_t)(data[0] | data[1] << 8);
    size_t count = size - 2;
    if (start + count > 0x10000u) count = 0x10000u - start;
    uint8_t st = 0x40; /* EOF */
    if (verify) {
        if (memcmp(ram + start, data + 2, count) != 0) st |= 0x10;
    } else {
        memcpy(ram + start, data + 2, count);
    }
    free(data);
    uint32_t end = start + (uint32_t)count; /* end address + 1 */
    ram[l->status] = st;
    kernal_set_word(ram, l->load_end, end);
    kernal_set_word(ram, l->load_start, start);
    k->cpu->x = (uint8_t)end;
    k->cpu->y = (uint8_t)(end >> 8);
    k->cpu->p &= (uint8_t)~MH_CPU6502_FLAG_C;
    kernal_return(k);
    snprintf(message, message_size, "%s \"%s\" $%04X-$%04X%s", verify ? "verified" : "loaded",
             shown, start, (unsigned)(end - 1), (st & 0x10) ? " (differs)" : "");
    return 1;
}
