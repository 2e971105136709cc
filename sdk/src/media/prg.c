/* prg.c - PRG files: a little-endian load address and the data. */
#include "media_internal.h"

mh_status mh_prg_parse(const uint8_t *bytes, size_t size, mh_prg *prg, mh_media_error *err)
{
    if (!prg || (!bytes && size))
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "PRG: no buffer given");
    if (size < 3)
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                               "PRG: %zu bytes is too short: a PRG is a 2-byte load address "
                               "and at least one data byte", size);
    uint16_t load = mh_media_i_le16(bytes);
    size_t data = size - 2;
    if (data > 0x10000u - load)
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                               "PRG: %zu data bytes loaded at $%04X would end at $%llX, past $FFFF",
                               data, load, (unsigned long long)load + data - 1);
    prg->load_address = load;
    prg->end_address = (uint32_t)(load + data);
    prg->data = bytes + 2;
    prg->size = data;
    mh_media_i_ok(err);
    return MH_OK;
}
