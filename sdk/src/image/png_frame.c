/* png_frame.c - a machine's video frame ("mh.video/1") as a PNG
 * description (mcphost/png.h). */
#include "mcphost/png.h"

#include <string.h>

#include "mcphost/machine.h"

void mh_png_palette_rgb(const uint32_t *xrgb, unsigned count, uint8_t *rgb)
{
    for (unsigned i = 0; i < count; i++) {
        rgb[i * 3] = (uint8_t)(xrgb[i] >> 16 & 0xffu);
        rgb[i * 3 + 1] = (uint8_t)(xrgb[i] >> 8 & 0xffu);
        rgb[i * 3 + 2] = (uint8_t)(xrgb[i] & 0xffu);
    }
}

mh_status mh_png_desc_from_frame(const struct mh_video_frame *frame, unsigned scale,
                                 uint8_t rgb[768], mh_png_desc *desc)
{
    if (!frame || !frame->pixels || !frame->palette || frame->palette_size == 0 || !rgb || !desc)
        return MH_ERR_INVALID_ARGUMENT;
    unsigned colors = frame->palette_size > 256 ? 256u : (unsigned)frame->palette_size;
    mh_png_palette_rgb(frame->palette, colors, rgb);
    memset(desc, 0, sizeof *desc);
    desc->format = MH_PNG_INDEXED8;
    desc->width = frame->width;
    desc->height = frame->height;
    desc->pixels = frame->pixels;
    desc->stride = frame->pitch;
    desc->palette = rgb;
    desc->palette_size = colors;
    desc->scale_x = desc->scale_y = scale;
    return MH_OK;
}
