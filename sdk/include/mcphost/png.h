/* mcphost/png.h - the SDK's PNG writer for screenshots (static library
 * mh_image, link target mcphost::image; it links zlib).
 *
 * Offers: mh_png_encode() turns a pixel buffer into a complete PNG file in
 * memory: 8-bit indexed (palette) for the machines' native framebuffers,
 * or 8-bit-per-channel RGB/RGBA from RGB24, RGBA32 or 32-bit native-endian
 * XRGB/ARGB pixels (SDL-style framebuffers), with optional integer
 * scaling (pixel repetition, separately in x and y: a 2x1 scale gives a
 * VIC-20 or multicolour screen square pixels). The file is: signature,
 * IHDR, PLTE (indexed only), one IDAT (zlib deflate, every row filter type
 * 0), IEND, each chunk with its CRC-32. Non-interlaced.
 * mh_png_write_file() writes the same to a path.
 * mh_png_desc_from_frame() describes a machine's video frame ("mh.video/1",
 * mcphost/machine.h) for them; mh_png_palette_rgb() converts 0xRRGGBB
 * palettes.
 *
 * Ownership: desc and its pixels/palette are read during the call only;
 * a desc from mh_png_desc_from_frame() points into the frame and the
 * caller's rgb buffer, valid as long as both.
 * The PNG returned in *png is malloc'ed; the caller frees it with free().
 *
 * Thread-safety: no global state; [thread-safe].
 */
#ifndef MCPHOST_PNG_H
#define MCPHOST_PNG_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_PNG_MAX_DIMENSION 16384u /* width * scale_x and height * scale_y */
#define MH_PNG_MAX_SCALE 16u

typedef enum mh_png_format {
    MH_PNG_INDEXED8 = 0, /* 1 byte per pixel: a palette index (< palette_size) */
    MH_PNG_RGB24,        /* 3 bytes per pixel: R, G, B */
    MH_PNG_RGBA32,       /* 4 bytes per pixel: R, G, B, A */
    MH_PNG_XRGB32,       /* one uint32_t per pixel, native-endian 0xXXRRGGBB; written as RGB */
    MH_PNG_ARGB32        /* one uint32_t per pixel, native-endian 0xAARRGGBB; written as RGBA */
} mh_png_format;

/* Zero means the default for every field but width/height/pixels. */
typedef struct mh_png_desc {
    mh_png_format format;
    unsigned width, height;     /* source pixels, 1 or more */
    const void *pixels;         /* first row; 4-byte aligned for XRGB32/ARGB32 */
    size_t stride;              /* bytes from one source row to the next; 0: packed */
    const uint8_t *palette;     /* MH_PNG_INDEXED8: palette_size R,G,B triples */
    unsigned palette_size;      /* 1-256 */
    unsigned scale_x, scale_y;  /* 0 or 1: none; at most MH_PNG_MAX_SCALE */
    int level;                  /* zlib level 1-9; 0: Z_DEFAULT_COMPRESSION (6) */
} mh_png_desc;

/* Encodes a PNG into a malloc'ed buffer (*png, *size). Errors:
 * MH_ERR_INVALID_ARGUMENT (NULL pointers, a zero or too large size, a bad
 * format, scale, level or palette size, a stride shorter than a row, an
 * index outside the palette), MH_ERR_NO_MEMORY, MH_ERR_INTERNAL (zlib). */
mh_status mh_png_encode(const mh_png_desc *desc, uint8_t **png, size_t *size);

/* Encodes and writes to path through mh_file_write() (mcphost/file_write.h)
 * with MH_FILE_OVERWRITE: an existing regular file is replaced, anything
 * else is refused. MH_ERR_IO when the file cannot be written. To refuse an
 * existing file, or for the message, call mh_png_encode() and
 * mh_file_write() yourself. */
mh_status mh_png_write_file(const char *path, const mh_png_desc *desc);

/* count palette entries 0xRRGGBB (as machines give them) as the R,G,B
 * triples mh_png_desc.palette takes, into rgb (3 * count bytes). */
void mh_png_palette_rgb(const uint32_t *xrgb, unsigned count, uint8_t *rgb);

struct mh_video_frame; /* mcphost/machine.h */

/* Fills *desc for a video frame: indexed pixels with the frame's pitch,
 * its palette converted into rgb (the first 256 entries at most: rgb holds
 * 768 bytes), scale in x and y (0 or 1: none). Returns MH_OK, or
 * MH_ERR_INVALID_ARGUMENT (desc untouched) for a frame without pixels or
 * palette or with an empty palette. */
mh_status mh_png_desc_from_frame(const struct mh_video_frame *frame, unsigned scale,
                                 uint8_t rgb[768], mh_png_desc *desc);

#ifdef __cplusplus
}
#endif
#endif
