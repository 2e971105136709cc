/* png.c - PNG encoding (indexed and RGB/RGBA, 8 bits per sample, filter
 * type 0, one IDAT) with zlib's deflate and crc32. */
#include "mcphost/png.h"
#include "mcphost/file_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16 & 0xff);
    p[2] = (uint8_t)(v >> 8 & 0xff);
    p[3] = (uint8_t)(v & 0xff);
}

/* Frames the chunk whose data (length bytes) already sits at p + 8:
 * writes length and type before it and the CRC after it. Returns the
 * chunk's total size. */
static size_t finish_chunk(uint8_t *p, const char type[4], uint32_t length)
{
    put_be32(p, length);
    memcpy(p + 4, type, 4);
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, p + 4, (uInt)length + 4u);
    put_be32(p + 8 + length, (uint32_t)crc);
    return (size_t)length + 12u;
}

static unsigned source_bytes(mh_png_format f)
{
    switch (f) {
    case MH_PNG_INDEXED8: return 1;
    case MH_PNG_RGB24: return 3;
    case MH_PNG_RGBA32:
    case MH_PNG_XRGB32:
    case MH_PNG_ARGB32: return 4;
    }
    return 0;
}

static unsigned output_bytes(mh_png_format f)
{
    return f == MH_PNG_INDEXED8 ? 1 : (f == MH_PNG_RGB24 || f == MH_PNG_XRGB32) ? 3 : 4;
}

/* One output row (without the filter byte) from one source row. */
static void expand_row(const mh_png_desc *d, const uint8_t *src, uint8_t *out, unsigned sx)
{
    for (unsigned x = 0; x < d->width; x++) {
        uint8_t px[4];
        unsigned n;
        switch (d->format) {
        case MH_PNG_INDEXED8:
            px[0] = src[x];
            n = 1;
            break;
        case MH_PNG_RGB24:
            memcpy(px, src + 3u * x, 3);
            n = 3;
            break;
        case MH_PNG_RGBA32:
            memcpy(px, src + 4u * x, 4);
            n = 4;
            break;
        default: { /* XRGB32, ARGB32: native-endian uint32_t */
            uint32_t v;
            memcpy(&v, src + 4u * x, 4);
            px[0] = (uint8_t)(v >> 16 & 0xff);
            px[1] = (uint8_t)(v >> 8 & 0xff);
            px[2] = (uint8_t)(v & 0xff);
            px[3] = (uint8_t)(v >> 24);
            n = d->format == MH_PNG_ARGB32 ? 4 : 3;
            break;
        }
        }
        for (unsigned k = 0; k < sx; k++) {
            memcpy(out, px, n);
            out += n;
        }
    }
}

static mh_status check(const mh_png_desc *d, unsigned *sx, unsigned *sy, size_t *stride)
{
    if (!d->pixels || d->width == 0 || d->height == 0) return MH_ERR_INVALID_ARGUMENT;
    unsigned in = source_bytes(d->format);
    if (in == 0) return MH_ERR_INVALID_ARGUMENT;
    *sx = d->scale_x ? d->scale_x : 1;
    *sy = d->scale_y ? d->scale_y : 1;
    if (*sx > MH_PNG_MAX_SCALE || *sy > MH_PNG_MAX_SCALE) return MH_ERR_INVALID_ARGUMENT;
    if (d->width > MH_PNG_MAX_DIMENSION / *sx || d->height > MH_PNG_MAX_DIMENSION / *sy)
        return MH_ERR_INVALID_ARGUMENT;
    if (d->level < 0 || d->level > 9) return MH_ERR_INVALID_ARGUMENT;
    size_t row = (size_t)d->width * in;
    *stride = d->stride ? d->stride : row;
    if (*stride < row) return MH_ERR_INVALID_ARGUMENT;
    if (d->format == MH_PNG_INDEXED8) {
        if (!d->palette || d->palette_size < 1 || d->palette_size > 256) return MH_ERR_INVALID_ARGUMENT;
        const uint8_t *p = d->pixels;
        for (unsigned y = 0; y < d->height; y++, p += *stride)
            for (unsigned x = 0; x < d->width; x++)
                if (p[x] >= d->palette_size) return MH_ERR_INVALID_ARGUMENT;
    }
    return MH_OK;
}

mh_status mh_png_encode(const mh_png_desc *d, uint8_t **png, size_t *size)
{
    if (!d || !png || !size) return MH_ERR_INVALID_ARGUMENT;
    *png = NULL;
    *size = 0;
    unsigned sx, sy;
    size_t stride;
    mh_status st = check(d, &sx, &sy, &stride);
    if (st != MH_OK) return st;

    uint32_t out_w = d->width * sx, out_h = d->height * sy;
    unsigned out_bpp = output_bytes(d->format);
    size_t row_bytes = 1 + (size_t)out_w * out_bpp;
    size_t raw_size = row_bytes * out_h;

    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit(&z, d->level ? d->level : Z_DEFAULT_COMPRESSION) != Z_OK) return MH_ERR_NO_MEMORY;
    size_t bound = deflateBound(&z, (uLong)raw_size);
    size_t plte = d->format == MH_PNG_INDEXED8 ? 12u + 3u * d->palette_size : 0;
    size_t cap = 8 + 25 + plte + 12 + bound + 12;
    uint8_t *out = malloc(cap);
    uint8_t *row = malloc(row_bytes);
    if (!out || !row) {
        deflateEnd(&z);
        free(out);
        free(row);
        return MH_ERR_NO_MEMORY;
    }

    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    memcpy(out, signature, 8);
    size_t pos = 8;
    uint8_t *ihdr = out + pos + 8;
    put_be32(ihdr, out_w);
    put_be32(ihdr + 4, out_h);
    ihdr[8] = 8; /* bits per sample */
    ihdr[9] = d->format == MH_PNG_INDEXED8 ? 3 : out_bpp == 3 ? 2 : 6; /* colour type */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filtering (all rows use type 0) */
    ihdr[12] = 0; /* not interlaced */
    pos += finish_chunk(out + pos, "IHDR", 13);
    if (plte) {
        memcpy(out + pos + 8, d->palette, 3u * d->palette_size);
        pos += finish_chunk(out + pos, "PLTE", 3u * d->palette_size);
    }

    size_t idat = pos;
    z.next_out = out + idat + 8;
    z.avail_out = (uInt)bound;
    row[0] = 0; /* filter type 0: none */
    const uint8_t *src = d->pixels;
    int zr = Z_OK;
    for (unsigned y = 0; y < d->height && zr == Z_OK; y++, src += stride) {
        expand_row(d, src, row + 1, sx);
        for (unsigned k = 0; k < sy && zr == Z_OK; k++) {
            z.next_in = row;
            z.avail_in = (uInt)row_bytes;
            zr = deflate(&z, Z_NO_FLUSH);
            if (zr == Z_OK && z.avail_in != 0) zr = Z_BUF_ERROR; /* cannot happen within the bound */
        }
    }
    if (zr == Z_OK) zr = deflate(&z, Z_FINISH);
    size_t compressed = bound - z.avail_out;
    deflateEnd(&z);
    free(row);
    if (zr != Z_STREAM_END || compressed > 0x7fffffffu) {
        free(out);
        return MH_ERR_INTERNAL;
    }
    pos += finish_chunk(out + idat, "IDAT", (uint32_t)compressed);
    pos += finish_chunk(out + pos, "IEND", 0);
    uint8_t *fit = realloc(out, pos);
    *png = fit ? fit : out;
    *size = pos;
    return MH_OK;
}

mh_status mh_png_write_file(const char *path, const mh_png_desc *desc)
{
    if (!path) return MH_ERR_INVALID_ARGUMENT;
    uint8_t *png;
    size_t size;
    mh_status st = mh_png_encode(desc, &png, &size);
    if (st != MH_OK) return st;
    st = mh_file_write(path, png, size, MH_FILE_OVERWRITE, NULL, 0);
    if (st != MH_OK && st != MH_ERR_NO_MEMORY) st = MH_ERR_IO;
    free(png);
    return st;
}
