/* fe_screen.c - the emulated screen: the newest frame from the session's
 * mailbox (mh.observe/1 read_frame), through its palette, into a
 * streaming texture the size of the machine's frame. [main-thread] */
#include <stdlib.h>
#include <string.h>

#include "fe.h"

static int ensure_buffers(fe_app *app, uint32_t width, uint32_t height)
{
    size_t size = (size_t)width * height;
    if (app->pixels_size < size) {
        free(app->pixels);
        free(app->rgb);
        app->pixels = malloc(size);
        app->rgb = malloc(size * sizeof *app->rgb);
        app->pixels_size = app->pixels && app->rgb ? size : 0;
        if (!app->pixels_size) return 0;
    }
    if (!app->screen_tex || app->frame_w != width || app->frame_h != height) {
        if (app->screen_tex) SDL_DestroyTexture(app->screen_tex);
        app->screen_tex = SDL_CreateTexture(app->renderer, SDL_PIXELFORMAT_ARGB8888,
                                            SDL_TEXTUREACCESS_STREAMING, (int)width, (int)height);
        app->frame_w = width;
        app->frame_h = height;
    }
    return app->screen_tex != NULL;
}

int fe_screen_update(fe_app *app)
{
    if (!app->session[0]) return 0;
    mh_observe_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.struct_size = sizeof frame;
    frame.pixels = app->pixels;
    frame.pixels_size = app->pixels_size;
    mh_status st = app->observe->read_frame(app->host, app->session, app->frame_number, &frame);
    if (st == MH_ERR_LIMIT || (st == MH_OK && (frame.width != app->frame_w ||
                                                frame.height != app->frame_h))) {
        if (!ensure_buffers(app, frame.width, frame.height)) return 0;
        if (st == MH_ERR_LIMIT) return 0; /* the next loop reads it */
    }
    if (st != MH_OK || !app->screen_tex) return 0;
    size_t size = (size_t)frame.width * frame.height;
    uint32_t palette[256];
    for (uint32_t i = 0; i < 256; i++)
        palette[i] = 0xFF000000u | (i < frame.palette_size ? frame.palette[i] : 0);
    int changed = app->frame_number == 0;
    for (size_t i = 0; i < size; i++) {
        uint32_t c = palette[app->pixels[i]];
        changed |= c != app->rgb[i];
        app->rgb[i] = c;
    }
    app->frame_number = frame.frame_number;
    /* The nearest whole number of pixels across for the machine's pixel
     * aspect (VIC-20: 1.66 PAL, 1.50 NTSC -> 2; the C64's 0.94 -> 1). */
    uint32_t pixel_w = frame.pixel_aspect >= 1.5 ? (uint32_t)(frame.pixel_aspect + 0.5) : 1u;
    if (pixel_w != app->pixel_w) {
        app->pixel_w = pixel_w;
        changed = 1;
    }
    if (!changed) return 0; /* the same picture: nothing to redraw */
    SDL_UpdateTexture(app->screen_tex, NULL, app->rgb, (int)(frame.width * sizeof *app->rgb));
    return 1;
}
