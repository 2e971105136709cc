/* tests/unit/png_decode.h - a small, strict PNG decoder for tests only:
 * checks what mh_png_encode() writes (and what machine tests screenshot)
 * by decoding it independently with zlib's inflate.
 *
 * Supports: 8-bit samples of colour types 0 (grey), 2 (RGB), 3 (indexed,
 * PLTE required), 4 (grey + alpha), 6 (RGBA); all five filter types; not
 * interlaced. Checks the signature, every chunk's CRC-32, IHDR first,
 * PLTE before IDAT, consecutive IDATs, IEND last with nothing after it,
 * and that the inflated data is exactly the rows.
 *
 * Ownership: mh_test_png_decode() fills *image with a malloc'ed pixel
 * buffer; mh_test_png_free() releases it.
 */
#ifndef MH_TEST_PNG_DECODE_H
#define MH_TEST_PNG_DECODE_H

#include <stddef.h>
#include <stdint.h>

typedef struct mh_test_png {
    unsigned width, height;
    unsigned color_type;      /* 0, 2, 3, 4 or 6 */
    unsigned channels;        /* bytes per pixel: 1, 3, 1, 2, 4 */
    uint8_t palette[256 * 3]; /* colour type 3 */
    unsigned palette_size;
    uint8_t *pixels;          /* width * height * channels bytes, rows top-down */
} mh_test_png;

/* 0 on success; -1 with a message in error (error_size bytes) otherwise. */
int mh_test_png_decode(const uint8_t *png, size_t size, mh_test_png *image, char *error,
                       size_t error_size);
void mh_test_png_free(mh_test_png *image);

#endif
