/* mcphost/wav.h - the SDK's WAV writer for audio captures (static library
 * mh_image, link target mcphost::image).
 *
 * Offers: mh_wav_encode() builds a complete RIFF/WAVE file (PCM format 1,
 * 16-bit signed little-endian samples, mono or stereo interleaved, any
 * sample rate) in memory; mh_wav_write_file() writes one to a path;
 * mh_wav_header() fills the 44-byte header alone, for a recorder that
 * streams samples to a file and patches the sizes at the end.
 *
 * Ownership: desc and its samples are read during the call only. The file
 * returned in *wav is malloc'ed; the caller frees it with free().
 *
 * Thread-safety: no global state; [thread-safe].
 */
#ifndef MCPHOST_WAV_H
#define MCPHOST_WAV_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_WAV_HEADER_SIZE 44u

typedef struct mh_wav_desc {
    const int16_t *samples;  /* frames * channels native-endian samples, interleaved L, R */
    size_t frames;           /* sample frames (may be 0) */
    unsigned channels;       /* 1 or 2 */
    unsigned sample_rate;    /* Hz, 1 - 1000000 (e.g. 44100, or a SID's 985248 / 20) */
} mh_wav_desc;

/* Fills header[0..43] for data_bytes bytes of 16-bit PCM. Returns
 * MH_ERR_INVALID_ARGUMENT for bad channels/rate or when the RIFF size
 * (36 + data_bytes, data_bytes even) would not fit in 32 bits. */
mh_status mh_wav_header(uint8_t header[MH_WAV_HEADER_SIZE], unsigned channels,
                        unsigned sample_rate, uint64_t data_bytes);

/* Header + samples in a malloc'ed buffer (*wav, *size). Errors:
 * MH_ERR_INVALID_ARGUMENT (as mh_wav_header, or samples NULL with frames
 * > 0), MH_ERR_NO_MEMORY. */
mh_status mh_wav_encode(const mh_wav_desc *desc, uint8_t **wav, size_t *size);

/* Encodes and writes to path through mh_file_write() (mcphost/file_write.h)
 * with MH_FILE_OVERWRITE: an existing regular file is replaced, anything
 * else is refused. MH_ERR_IO when the file cannot be written. To refuse an
 * existing file, or for the message, call mh_wav_encode() and
 * mh_file_write() yourself. */
mh_status mh_wav_write_file(const char *path, const mh_wav_desc *desc);

#ifdef __cplusplus
}
#endif
#endif
