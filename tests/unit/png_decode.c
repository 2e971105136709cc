/* tests/unit/png_decode.c - the test-only PNG decoder (png_decode.h). */
#include "png_decode.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static int fail(char *error, size_t size, const char *fmt, ...)
{
    if (error && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(error, size, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static unsigned paeth(int a, int b, int c)
{
    int p = a + b - c;
    int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc) return (unsigned)a;
    if (pb <= pc) return (unsigned)b;
    return (unsigned)c;
}

/* Undoes the filters in place: raw holds height rows of 1 + stride bytes;
 * the result goes to out (height * stride). */
static int unfilter(const uint8_t *raw, uint8_t *out, unsigned height, size_t stride,
                    unsigned bpp, char *error, size_t error_size)
{
    for (unsigned y = 0; y < height; y++) {
        const uint8_t *in = raw + (size_t)y * (stride + 1);
        uint8_t *row = out + (size_t)y * stride;
        const uint8_t *up = y ? row - stride : NULL;
        unsigned type = in[0];
        in++;
        for (size_t x = 0; x < stride; x++) {
            int a = x >= bpp ? row[x - bpp] : 0;
            int b = up ? up[x] : 0;
            int c = (up && x >= bpp) ? up[x - bpp] : 0;
            unsigned v;
            switch (type) {
            case 0: v = in[x]; break;
            case 1: v = in[x] + (unsigned)a; break;
            case 2: v = in[x] + (unsigned)b; break;
            case 3: v = in[x] + (unsigned)((a + b) / 2); break;
            case 4: v = in[x] + paeth(a, b, c); break;
            default: return fail(error, error_size, "row %u has filter type %u", y, type);
            }
            row[x] = (uint8_t)v;
        }
    }
    return 0;
}

int mh_test_png_decode(const uint8_t *png, size_t size, mh_test_png *image, char *error,
                       size_t error_size)
{
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    memset(image, 0, sizeof *image);
    if (size < 8 || memcmp(png, signature, 8) != 0) return fail(error, error_size, "no PNG signature");
    size_t pos = 8;
    int have_ihdr = 0, have_plte = 0, idat_done = 0, have_iend = 0;
    unsigned bit_depth = 0, interlace = 0;
    uint8_t *idat = NULL;
    size_t idat_len = 0;
    int in_idat = 0;
    while (pos < size && !have_iend) {
        if (size - pos < 12) {
            free(idat);
            return fail(error, error_size, "truncated chunk at byte %zu", pos);
        }
        uint32_t len = be32(png + pos);
        const uint8_t *type = png + pos + 4, *data = png + pos + 8;
        if (len > size - pos - 12) {
            free(idat);
            return fail(error, error_size, "chunk at byte %zu is longer than the file", pos);
        }
        uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), type, len + 4);
        if (crc != be32(data + len)) {
            free(idat);
            return fail(error, error_size, "bad CRC on chunk %.4s at byte %zu", (const char *)type, pos);
        }
        int is_idat = memcmp(type, "IDAT", 4) == 0;
        if (in_idat && !is_idat) idat_done = 1;
        in_idat = is_idat;
        if (!have_ihdr && memcmp(type, "IHDR", 4) != 0) {
            free(idat);
            return fail(error, error_size, "first chunk is %.4s, not IHDR", (const char *)type);
        }
        if (memcmp(type, "IHDR", 4) == 0) {
            if (have_ihdr || len != 13) {
                free(idat);
                return fail(error, error_size, "bad or second IHDR");
            }
            have_ihdr = 1;
            image->width = be32(data);
            image->height = be32(data + 4);
            bit_depth = data[8];
            image->color_type = data[9];
            interlace = data[12];
            if (data[10] != 0 || data[11] != 0) {
                free(idat);
                return fail(error, error_size, "unknown compression or filter method");
            }
        } else if (memcmp(type, "PLTE", 4) == 0) {
            if (have_plte || idat_len || len % 3 || len == 0 || len > 768) {
                free(idat);
                return fail(error, error_size, "bad PLTE");
            }
            have_plte = 1;
            memcpy(image->palette, data, len);
            image->palette_size = len / 3;
        } else if (is_idat) {
            if (idat_done) {
                free(idat);
                return fail(error, error_size, "IDAT chunks are not consecutive");
            }
            uint8_t *bigger = realloc(idat, idat_len + len + 1);
            if (!bigger) {
                free(idat);
                return fail(error, error_size, "out of memory");
            }
            idat = bigger;
            memcpy(idat + idat_len, data, len);
            idat_len += len;
        } else if (memcmp(type, "IEND", 4) == 0) {
            have_iend = 1;
        } else if (!(type[0] & 0x20)) {
            free(idat);
            return fail(error, error_size, "unknown critical chunk %.4s", (const char *)type);
        }
        pos += 12 + (size_t)len;
    }
    if (!have_iend || pos != size) {
        free(idat);
        return fail(error, error_size, have_iend ? "bytes after IEND" : "no IEND");
    }
    if (!idat_len) return fail(error, error_size, "no IDAT");
    static const unsigned channels[7] = {1, 0, 3, 1, 2, 0, 4};
    if (bit_depth != 8 || image->color_type > 6 || !channels[image->color_type] || interlace) {
        free(idat);
        return fail(error, error_size, "unsupported: depth %u, colour type %u, interlace %u",
                    bit_depth, image->color_type, interlace);
    }
    if (image->color_type == 3 && !have_plte) {
        free(idat);
        return fail(error, error_size, "indexed image without PLTE");
    }
    if (image->width == 0 || image->height == 0 || image->width > 65536 || image->height > 65536) {
        free(idat);
        return fail(error, error_size, "bad size %ux%u", image->width, image->height);
    }
    image->channels = channels[image->color_type];
    size_t stride = (size_t)image->width * image->channels;
    size_t raw_size = (stride + 1) * image->height;
    uint8_t *raw = malloc(raw_size + 1);
    image->pixels = malloc(stride * image->height);
    if (!raw || !image->pixels) {
        free(idat);
        free(raw);
        mh_test_png_free(image);
        return fail(error, error_size, "out of memory");
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    inflateInit(&z);
    z.next_in = idat;
    z.avail_in = (uInt)idat_len;
    z.next_out = raw;
    z.avail_out = (uInt)raw_size + 1; /* one spare byte to notice extra data */
    int zr = inflate(&z, Z_FINISH);
    size_t got = raw_size + 1 - z.avail_out;
    inflateEnd(&z);
    free(idat);
    if (zr != Z_STREAM_END || got != raw_size) {
        free(raw);
        mh_test_png_free(image);
        return fail(error, error_size, "IDAT inflates to %zu bytes (zlib %d), expected %zu", got,
                    zr, raw_size);
    }
    int r = unfilter(raw, image->pixels, image->height, stride, image->channels, error, error_size);
    free(raw);
    if (r) mh_test_png_free(image);
    return r;
}

void mh_test_png_free(mh_test_png *image)
{
    free(image->pixels);
    image->pixels = NULL;
}
