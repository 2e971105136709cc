/* wav.c - 16-bit PCM RIFF/WAVE files. */
#include "mcphost/wav.h"
#include "mcphost/file_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_le16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v & 0xff);
    p[1] = (uint8_t)(v >> 8 & 0xff);
}

static void put_le32(uint8_t *p, uint32_t v)
{
    put_le16(p, v & 0xffff);
    put_le16(p + 2, v >> 16);
}

mh_status mh_wav_header(uint8_t header[MH_WAV_HEADER_SIZE], unsigned channels,
                        unsigned sample_rate, uint64_t data_bytes)
{
    if (!header || (channels != 1 && channels != 2) || sample_rate < 1 ||
        sample_rate > 1000000 || data_bytes % 2 != 0 || data_bytes > UINT32_MAX - 36u)
        return MH_ERR_INVALID_ARGUMENT;
    uint32_t block_align = channels * 2u;
    memcpy(header, "RIFF", 4);
    put_le32(header + 4, (uint32_t)(36u + data_bytes));
    memcpy(header + 8, "WAVE", 4);
    memcpy(header + 12, "fmt ", 4);
    put_le32(header + 16, 16);               /* fmt chunk size */
    put_le16(header + 20, 1);                /* PCM */
    put_le16(header + 22, channels);
    put_le32(header + 24, sample_rate);
    put_le32(header + 28, sample_rate * block_align); /* byte rate */
    put_le16(header + 32, block_align);
    put_le16(header + 34, 16);               /* bits per sample */
    memcpy(header + 36, "data", 4);
    put_le32(header + 40, (uint32_t)data_bytes);
    return MH_OK;
}

mh_status mh_wav_encode(const mh_wav_desc *desc, uint8_t **wav, size_t *size)
{
    if (!desc || !wav || !size || (!desc->samples && desc->frames)) return MH_ERR_INVALID_ARGUMENT;
    *wav = NULL;
    *size = 0;
    if (desc->channels != 1 && desc->channels != 2) return MH_ERR_INVALID_ARGUMENT;
    if (desc->frames > UINT32_MAX) return MH_ERR_INVALID_ARGUMENT; /* more than RIFF can say */
    uint64_t data_bytes = (uint64_t)desc->frames * desc->channels * 2u;
    uint8_t header[MH_WAV_HEADER_SIZE];
    mh_status st = mh_wav_header(header, desc->channels, desc->sample_rate, data_bytes);
    if (st != MH_OK) return st;
    size_t count = desc->frames * desc->channels; /* fits: data_bytes < 4 GiB */
    uint8_t *out = malloc(MH_WAV_HEADER_SIZE + (size_t)data_bytes);
    if (!out) return MH_ERR_NO_MEMORY;
    memcpy(out, header, MH_WAV_HEADER_SIZE);
    uint8_t *p = out + MH_WAV_HEADER_SIZE;
    for (size_t i = 0; i < count; i++) {
        uint16_t v = (uint16_t)desc->samples[i];
        p[2 * i] = (uint8_t)(v & 0xff);
        p[2 * i + 1] = (uint8_t)(v >> 8);
    }
    *wav = out;
    *size = MH_WAV_HEADER_SIZE + (size_t)data_bytes;
    return MH_OK;
}

mh_status mh_wav_write_file(const char *path, const mh_wav_desc *desc)
{
    if (!path) return MH_ERR_INVALID_ARGUMENT;
    uint8_t *wav;
    size_t size;
    mh_status st = mh_wav_encode(desc, &wav, &size);
    if (st != MH_OK) return st;
    st = mh_file_write(path, wav, size, MH_FILE_OVERWRITE, NULL, 0);
    if (st != MH_OK && st != MH_ERR_NO_MEMORY) st = MH_ERR_IO;
    free(wav);
    return st;
}
