/* screen_capture.c - screen_capture: the last complete frame of any
 * machine's "mh.video/1" as a PNG image, optionally also written to a file
 * inside the allowed directories (mh.files/1) through the SDK's file writer
 * (mcphost/file_write.h: an existing file only with overwrite: true). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <mcphost/args.h>
#include <mcphost/file_write.h>
#include <mcphost/json.h>
#include <mcphost/machine.h>
#include <mcphost/png.h>

#include "tools_screen.h"

typedef struct capture_args {
    int64_t scale;
    const char *path; /* NULL: no file */
    bool overwrite;   /* path may replace an existing file */
    char resolved[4096];
} capture_args;

/* Reads scale and path (resolved for writing). Returns 0, or -1 with err. */
static int parse_args(const mh_toolkit_services *p, const mh_json *args, capture_args *a,
                      char *err, size_t err_size)
{
    a->scale = 1;
    a->path = NULL;
    a->overwrite = false;
    mh_status st = mh_args_int(args, "scale", 1, 4, &a->scale, err, err_size);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) return -1;
    st = mh_args_bool(args, "overwrite", &a->overwrite, err, err_size);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) return -1;
    st = mh_args_string(args, "path", &a->path, NULL, err, err_size);
    if (st == MH_ERR_NOT_FOUND) {
        a->path = NULL;
        return 0;
    }
    if (st != MH_OK) return -1;
    if (!a->path[0]) {
        snprintf(err, err_size, "path: empty; give a file name such as \"screen.png\" or leave "
                                "`path` out");
        return -1;
    }
    if (!p->files || !p->files->resolve) {
        snprintf(err, err_size, "path: this host has no file service (mh.files/1); leave "
                                "`path` out and use the returned image");
        return -1;
    }
    char why[1024] = "";
    if (p->files->resolve(p->host, a->path, MH_FILES_WRITE, a->resolved, sizeof a->resolved, why,
                          sizeof why) != MH_OK) {
        snprintf(err, err_size, "%.1000s", why[0] ? why : "path refused");
        return -1;
    }
    return 0;
}

static void send_result(mh_toolkit_services *p, mh_call *call, const mh_video_frame *frame,
                        const char *standard, unsigned scale, size_t size, const char *written)
{
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "width");
    mh_json_write_uint(w, frame->width * scale);
    mh_json_write_key(w, "height");
    mh_json_write_uint(w, frame->height * scale);
    mh_json_write_key(w, "scale");
    mh_json_write_uint(w, scale);
    mh_json_write_key(w, "frame");
    mh_json_write_uint(w, frame->frame_number);
    mh_json_write_key(w, "bytes");
    mh_json_write_uint(w, size);
    if (written) {
        mh_json_write_key(w, "path");
        mh_json_write_string(w, written);
    }
    mh_json_write_object_end(w);
    char text[4352];
    snprintf(text, sizeof text,
             "frame %llu: %ux%u pixels (%s, the visible area with borders)%s, %zu bytes of "
             "PNG%s%s",
             (unsigned long long)frame->frame_number, frame->width * scale, frame->height * scale,
             standard, scale > 1 ? ", scaled" : "", size, written ? "; written to " : "",
             written ? written : "");
    if (mh_toolkit_send_facts(p->call, call, w, text) != MH_OK)
        mh_toolkit_fail(p->call, call, "internal error: the result could not be written (%s)",
                        mh_json_writer_error(w));
    mh_json_writer_free(w);
}

static void screen_capture(void *user, mh_call *call)
{
    mh_toolkit_services *p = user;
    char err[MH_ARGS_ERROR_SIZE + 1100];
    mh_json_doc *doc = NULL;
    const mh_json *args = mh_toolkit_args(p->call, call, &doc, err, sizeof err);
    if (!args) return;
    capture_args a;
    if (parse_args(p, args, &a, err, sizeof err) != 0) {
        mh_toolkit_fail(p->call, call, "%s", err);
        mh_json_free(doc);
        return;
    }
    struct stat replaced; /* replacing a file is confirmed (docs/sessions.md) */
    if (a.path && a.overwrite && lstat(a.resolved, &replaced) == 0 && S_ISREG(replaced.st_mode)) {
        snprintf(err, sizeof err, "%.900s exists and would be replaced", a.resolved);
        if (!mh_toolkit_confirm(p->call, call, err)) {
            mh_json_free(doc);
            return;
        }
    }
    const mh_chip *chip = mh_toolkit_chip(p->call, call, sizeof(mh_video_iface));
    const mh_video_iface *video = chip ? chip->vtable : NULL;
    mh_video_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.struct_size = sizeof frame;
    if (!video || video->frame(chip->context, &frame) != MH_OK || !frame.pixels ||
        !frame.palette) {
        mh_toolkit_fail(p->call, call, "the machine has no complete frame to show (%s); run it "
                                       "for a frame first", MH_IFACE_VIDEO);
        mh_json_free(doc);
        return;
    }
    uint8_t rgb[256 * 3];
    mh_png_desc desc;
    uint8_t *png = NULL;
    size_t size = 0;
    char why[1024] = "";
    mh_status written = MH_OK;
    if (mh_png_desc_from_frame(&frame, (unsigned)a.scale, rgb, &desc) != MH_OK ||
        mh_png_encode(&desc, &png, &size) != MH_OK) {
        mh_toolkit_fail(p->call, call, "internal error: the frame could not be encoded as PNG");
    } else if (a.path && (written = mh_file_write(a.resolved, png, size,
                                                  a.overwrite ? MH_FILE_OVERWRITE : 0, why,
                                                  sizeof why)) != MH_OK) {
        mh_toolkit_fail(p->call, call, "path: %s%s (nothing was written; leave `path` out to get "
                                       "the image in the result)",
                        why[0] ? why : a.resolved,
                        written == MH_ERR_EXISTS ? "; pass overwrite: true to replace it" : "");
    } else {
        p->call->image(call, "image/png", png, size);
        send_result(p, call, &frame, video->standard ? video->standard(chip->context) : "video",
                    (unsigned)a.scale, size, a.path ? a.resolved : NULL);
    }
    free(png);
    mh_json_free(doc);
}

static const mh_tool_desc tools[] = {
    {0, "screen_capture", "Screen capture",
     "The last complete frame as a PNG: the visible area with borders, as the machine draws "
     "it.",
     "{\"type\":\"object\",\"properties\":{\"scale\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Pixel repetition 1-4 (default 1)\"},\"path\":{\"type\":\"string\","
     "\"description\":\"Also write the PNG to this file (in an allowed directory)\"},"
     "\"overwrite\":{\"type\":\"boolean\",\"description\":\"Replace an existing file at "
     "path\"}},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"width\",\"height\",\"scale\",\"frame\",\"bytes\"],"
     "\"properties\":{\"path\":{}}}",
     0, 0, NULL,
     "vice.vic2.screen.capture", screen_capture, NULL},
};

mh_status tsc_register_capture(mh_toolkit_services *plugin)
{
    return mh_toolkit_register_tools(plugin->host, plugin->registry, tools,
                                     sizeof tools / sizeof tools[0], MH_IFACE_VIDEO, plugin);
}
