/* tools_vic2.host - the VIC-II toolset and tools-screen through the
 * in-process host on the real machine-c64.so: after booting the Open ROMs,
 * screen_text reads "READY." (through the C64's mh.textscreen/1); a
 * screen_capture PNG decodes to exactly the mh.video/1 framebuffer it was
 * taken from; registers and sprites are read, written
 * and read back; the border record shows a colour written between frames;
 * bad inputs are tool errors that say what to do; on bare6502 (no VIC-II,
 * no video, no text screen) the host refuses the tools naming the tool, the
 * machine and the missing interface.
 * Needs /usr/share/open-roms/C64. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_harness.h"
#include "loader.h"
#include "mcphost/json.h"
#include "mcphost/machine.h"
#include "mh_test.h"
#include "png_decode.h"
#include "sessions.h"

#ifndef MH_PLUGIN_BUILD_DIR
#error "MH_PLUGIN_BUILD_DIR must be defined"
#endif

static mh_harness h;
static mh_session *c64s;

static const cJSON *call(const char *tool, const char *args)
{
    return mh_harness_call_tool(&h, tool, args);
}

static const cJSON *sc(const cJSON *result)
{
    return cJSON_GetObjectItemCaseSensitive(result, "structuredContent");
}

static double num(const cJSON *object, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(object, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static const cJSON *obj(const cJSON *object, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(object, key);
}

/* The result is a tool error whose text holds every needle. */
static int error_has(const cJSON *result, const char *a, const char *b)
{
    if (!result || !mh_harness_is_error(result)) return 0;
    const char *text = mh_harness_text(result);
    int ok = strstr(text, a) && (!b || strstr(text, b));
    if (!ok) fprintf(stderr, "  error text: %s\n", text);
    return ok;
}

/* ---- jobs on the session thread ---- */

typedef struct job {
    void (*fn)(void *arg, mh_session *s);
    void *arg;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
} job;

static void trampoline(void *arg, mh_session *s)
{
    job *j = arg;
    if (s) j->fn(j->arg, s);
    pthread_mutex_lock(&j->lock);
    j->done = 1;
    pthread_cond_signal(&j->cond);
    pthread_mutex_unlock(&j->lock);
}

static void on_session(mh_session *s, void (*fn)(void *, mh_session *), void *arg)
{
    job j = {fn, arg, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    mh_session_post(s, trampoline, &j);
    pthread_mutex_lock(&j.lock);
    while (!j.done) pthread_cond_wait(&j.cond, &j.lock);
    pthread_mutex_unlock(&j.lock);
}

typedef struct frame_copy {
    uint8_t pixels[384 * 272];
    uint32_t palette[16];
    uint32_t width, height;
    uint64_t number;
} frame_copy;

static void copy_frame(void *arg, mh_session *s)
{
    frame_copy *f = arg;
    const mh_chip *chip = mh_session_service_impl.find_chip(s, MH_IFACE_VIDEO, NULL);
    if (!chip) return;
    const mh_video_iface *video = chip->vtable;
    mh_video_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.struct_size = sizeof frame;
    if (video->frame(chip->context, &frame) != MH_OK || frame.width > 384 || frame.height > 272)
        return;
    f->width = frame.width;
    f->height = frame.height;
    f->number = frame.frame_number;
    for (uint32_t y = 0; y < frame.height; y++)
        memcpy(f->pixels + y * frame.width, frame.pixels + (size_t)y * frame.pitch, frame.width);
    memcpy(f->palette, frame.palette, sizeof f->palette);
}

/* Runs the stopped machine for `cycles` more cycles. */
static void run_cycles(uint64_t cycles)
{
    mh_session_start(c64s, 1, mh_session_cycles(c64s) + cycles);
    mh_session_wait_finished(c64s);
}

static int suite_init(void)
{
    char error[1024];
    if (mh_harness_init(&h, 0) != 0) return -1;
    const char *plugins[] = {MH_C64_PLUGIN, MH_BARE6502_PLUGIN,
                             MH_PLUGIN_BUILD_DIR "/tools-vic2.so",
                             MH_PLUGIN_BUILD_DIR "/tools-screen.so"};
    for (size_t i = 0; i < sizeof plugins / sizeof plugins[0]; i++)
        if (mh_loader_load_file(&h.ctx, plugins[i], error, sizeof error) != MH_OK) {
            fprintf(stderr, "loading %s: %s\n", plugins[i], error);
            return -1;
        }
    mh_harness_initialize(&h, "2025-11-25");
    if (mh_harness_is_error(call("session_create", "{\"machine\":\"c64\",\"name\":\"v64\"}")) ||
        mh_harness_is_error(call("session_create", "{\"machine\":\"bare6502\",\"name\":\"bare\"}")))
        return -1;
    c64s = mh_sessions_find(h.ctx.sessions, "v64");
    if (!c64s) return -1;
    run_cycles(3000000); /* the Open ROMs boot to READY. */
    return 0;
}

static int suite_cleanup(void)
{
    mh_harness_free(&h);
    return 0;
}

static void test_screen_text_ready(void)
{
    const cJSON *r = call("screen_text", "{\"session\":\"v64\"}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "READY."));
    const cJSON *lines = obj(sc(r), "lines");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(lines), 25);
    int ready = 0;
    const cJSON *line;
    cJSON_ArrayForEach(line, lines)
    {
        size_t chars = 0; /* UTF-8 characters: graphics are several bytes */
        for (const char *c = line->valuestring; *c; c++) chars += ((unsigned char)*c & 0xC0) != 0x80;
        CU_ASSERT_EQUAL(chars, 40);
        if (strncmp(line->valuestring, "READY.", 6) == 0) ready = 1;
    }
    CU_ASSERT_TRUE(ready);
    CU_ASSERT_EQUAL(num(sc(r), "screen"), 0x0400);
    CU_ASSERT_PTR_NULL(obj(sc(r), "colors"));
    /* With colours: 25 rows of 40 hex digits and the cursor in reverse. */
    r = call("screen_text", "{\"session\":\"v64\",\"colors\":true}");
    const cJSON *colors = obj(sc(r), "colors");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(obj(colors, "foreground")), 25);
    CU_ASSERT_EQUAL(strlen(cJSON_GetArrayItem(obj(colors, "foreground"), 0)->valuestring), 40);
    CU_ASSERT_TRUE(num(colors, "border") >= 0 && num(colors, "border") < 16);
    CU_ASSERT_TRUE(error_has(call("screen_text", "{\"session\":\"v64\",\"colors\":\"yes\"}"),
                             "colors", NULL));
}

static void test_screen_capture_matches_framebuffer(void)
{
    static frame_copy before, after;
    on_session(c64s, copy_frame, &before);
    const cJSON *r = call("screen_capture", "{\"session\":\"v64\"}");
    on_session(c64s, copy_frame, &after);
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    CU_ASSERT_EQUAL_FATAL(before.number, after.number); /* the machine is stopped */
    const cJSON *item, *image = NULL;
    cJSON_ArrayForEach(item, obj(r, "content"))
    if (strcmp(cJSON_GetStringValue(obj(item, "type")), "image") == 0) image = item;
    CU_ASSERT_PTR_NOT_NULL_FATAL(image);
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(image, "mimeType")), "image/png");
    const char *b64 = cJSON_GetStringValue(obj(image, "data"));
    size_t size = strlen(b64);
    uint8_t *png = malloc(size);
    size_t n = mh_base64_decode(png, size, b64, size);
    CU_ASSERT_FATAL(n != SIZE_MAX);
    mh_test_png img;
    char error[256];
    CU_ASSERT_EQUAL_FATAL(mh_test_png_decode(png, n, &img, error, sizeof error), 0);
    CU_ASSERT_EQUAL(img.width, 384);
    CU_ASSERT_EQUAL(img.height, 272);
    CU_ASSERT_EQUAL(img.width, before.width);
    CU_ASSERT_EQUAL(img.color_type, 3);
    size_t mismatches = 0;
    for (uint32_t i = 0; i < before.width * before.height && img.color_type == 3; i++) {
        uint8_t idx = img.pixels[i];
        uint32_t rgb = (uint32_t)img.palette[idx * 3] << 16 | (uint32_t)img.palette[idx * 3 + 1] << 8 |
                       img.palette[idx * 3 + 2];
        if (rgb != before.palette[before.pixels[i] & 15]) mismatches++;
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT_EQUAL(num(sc(r), "width"), 384);
    CU_ASSERT_EQUAL(num(sc(r), "frame"), (double)before.number);
    mh_test_png_free(&img);
    free(png);

    /* Scale 2: twice the size, each source pixel a 2x2 block. */
    r = call("screen_capture", "{\"session\":\"v64\",\"scale\":2}");
    image = NULL;
    cJSON_ArrayForEach(item, obj(r, "content"))
    if (strcmp(cJSON_GetStringValue(obj(item, "type")), "image") == 0) image = item;
    CU_ASSERT_PTR_NOT_NULL_FATAL(image);
    b64 = cJSON_GetStringValue(obj(image, "data"));
    size = strlen(b64);
    png = malloc(size);
    n = mh_base64_decode(png, size, b64, size);
    CU_ASSERT_EQUAL_FATAL(mh_test_png_decode(png, n, &img, error, sizeof error), 0);
    CU_ASSERT_EQUAL(img.width, 768);
    CU_ASSERT_EQUAL(img.height, 544);
    CU_ASSERT_EQUAL(img.pixels[(100 * 2 + 1) * 768 + 50 * 2 + 1], img.pixels[100 * 2 * 768 + 50 * 2]);
    mh_test_png_free(&img);
    free(png);
    CU_ASSERT_TRUE(error_has(call("screen_capture", "{\"session\":\"v64\",\"scale\":5}"),
                             "scale", NULL));
    CU_ASSERT_TRUE(error_has(call("screen_capture", "{\"session\":\"v64\",\"scale\":0}"),
                             "scale", NULL));
}

static void test_registers(void)
{
    const cJSON *r = call("vic2_registers_get", "{\"session\":\"v64\"}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    const cJSON *s = sc(r);
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(s, "mode")), "standard text");
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(s, "model")), "6569");
    CU_ASSERT_EQUAL(num(obj(s, "memory"), "screen"), 0x0400);
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(obj(s, "memory"), "screen_hex")), "$0400");
    CU_ASSERT_TRUE(cJSON_IsTrue(obj(obj(s, "memory"), "charset_in_rom")));
    CU_ASSERT_TRUE(cJSON_IsTrue(obj(obj(s, "control"), "den")));
    CU_ASSERT_EQUAL(num(obj(s, "control"), "rows"), 25);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(obj(s, "registers")), 0x2F);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "screen $0400"));

    /* Write the border through an address and a mirror, then read back. */
    r = call("vic2_registers_set", "{\"session\":\"v64\",\"register\":\"$D020\",\"value\":2}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    const cJSON *w = cJSON_GetArrayItem(obj(sc(r), "writes"), 0);
    CU_ASSERT_EQUAL(num(w, "register"), 0x20);
    CU_ASSERT_EQUAL(num(w, "read_back"), 0xF2);
    r = call("vic2_registers_set", "{\"session\":\"v64\",\"writes\":[{\"register\":53345,"
                                   "\"value\":\"$05\"},{\"register\":33,\"value\":0}]}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r)); /* 53345 = $D061, a mirror of $D021 */
    r = call("vic2_registers_get", "{\"session\":\"v64\"}");
    CU_ASSERT_EQUAL(num(obj(sc(r), "colors"), "border"), 2);
    CU_ASSERT_EQUAL(num(obj(sc(r), "colors"), "background0"), 0);
    r = call("vic2_registers_set", "{\"session\":\"v64\",\"register\":30,\"value\":255}");
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "ignores writes"));

    /* Bad inputs change nothing. */
    CU_ASSERT_TRUE(error_has(call("vic2_registers_set",
                                  "{\"session\":\"v64\",\"register\":\"$D400\",\"value\":1}"),
                             "$D400", "not a VIC-II register"));
    CU_ASSERT_TRUE(error_has(call("vic2_registers_set",
                                  "{\"session\":\"v64\",\"register\":32,\"value\":256}"),
                             "value", NULL));
    CU_ASSERT_TRUE(error_has(call("vic2_registers_set", "{\"session\":\"v64\",\"register\":32}"),
                             "value is missing", NULL));
    CU_ASSERT_TRUE(error_has(call("vic2_registers_set", "{\"session\":\"v64\"}"),
                             "nothing to write", NULL));
    CU_ASSERT_TRUE(error_has(call("vic2_registers_set",
                                  "{\"session\":\"v64\",\"writes\":[{\"register\":32,\"value\":1},"
                                  "{\"register\":\"$G0\",\"value\":1}]}"),
                             "writes[1]", NULL));
    CU_ASSERT_TRUE(mh_harness_is_error(call("vic2_registers_set",
                                            "{\"session\":\"v64\",\"writes\":[]}")));
    r = call("vic2_registers_get", "{\"session\":\"v64\"}");
    CU_ASSERT_EQUAL(num(obj(sc(r), "colors"), "border"), 2); /* writes[0] did not happen */

    r = call("vic2_raster_get", "{\"session\":\"v64\"}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    CU_ASSERT_TRUE(num(sc(r), "line") >= 0 && num(sc(r), "line") < 312);
    CU_ASSERT_TRUE(num(sc(r), "cycle") >= 1 && num(sc(r), "cycle") <= 63);
    CU_ASSERT_EQUAL(num(sc(r), "lines_per_frame"), 312);

    r = call("vic2_memory_map", "{\"session\":\"v64\"}");
    CU_ASSERT_EQUAL(num(sc(r), "bank"), 0);
    const cJSON *screen = cJSON_GetArrayItem(obj(sc(r), "regions"), 0);
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(screen, "name")), "screen");
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(screen, "address_hex")), "$0400");
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(screen, "end_hex")), "$07E7");
}

static void test_borders_record(void)
{
    /* The border is 2 and the background 0 since test_registers; one more
     * frame makes them the last complete frame's colours. */
    call("vic2_registers_set", "{\"session\":\"v64\",\"writes\":[{\"register\":32,\"value\":2},"
                               "{\"register\":33,\"value\":0}]}");
    run_cycles(2 * 63 * 312);
    const cJSON *r = call("vic2_borders_get", "{\"session\":\"v64\"}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    const cJSON *runs = obj(sc(r), "runs");
    CU_ASSERT_EQUAL(num(sc(r), "lines_per_frame"), 312);
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(runs), 1);
    CU_ASSERT_EQUAL(num(cJSON_GetArrayItem(runs, 0), "first"), 0);
    CU_ASSERT_EQUAL(num(cJSON_GetArrayItem(runs, 0), "last"), 311);
    CU_ASSERT_EQUAL(num(cJSON_GetArrayItem(runs, 0), "border"), 2);
    CU_ASSERT_EQUAL(num(cJSON_GetArrayItem(runs, 0), "background"), 0);
    r = call("vic2_borders_get", "{\"session\":\"v64\",\"first_line\":10,\"last_line\":20}");
    CU_ASSERT_EQUAL(num(cJSON_GetArrayItem(obj(sc(r), "runs"), 0), "first"), 10);
    CU_ASSERT_EQUAL(num(cJSON_GetArrayItem(obj(sc(r), "runs"), 0), "last"), 20);
    CU_ASSERT_TRUE(error_has(call("vic2_borders_get", "{\"session\":\"v64\",\"first_line\":400}"),
                             "first_line", "0-311"));
    CU_ASSERT_TRUE(error_has(call("vic2_borders_get",
                                  "{\"session\":\"v64\",\"first_line\":20,\"last_line\":10}"),
                             "last_line", NULL));
    /* The screen capture shows the border colour in its corner. */
    static frame_copy f;
    on_session(c64s, copy_frame, &f);
    CU_ASSERT_EQUAL(f.pixels[0], 2);
}

static void test_sprites(void)
{
    char args[1024];
    snprintf(args, sizeof args,
             "{\"session\":\"v64\",\"sprite\":1,\"x\":300,\"y\":100,\"enabled\":true,"
             "\"color\":7,\"pointer\":13,\"data\":\"FF 00 81%s\"}",
             " 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
             " 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
             " 00 00 00 00 00 18");
    const cJSON *r = call("vic2_sprites_set", args);
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    const cJSON *s = obj(sc(r), "sprite");
    CU_ASSERT_EQUAL(num(s, "x"), 300);
    CU_ASSERT_EQUAL(num(s, "y"), 100);
    CU_ASSERT_EQUAL(num(s, "color"), 7);
    CU_ASSERT_TRUE(cJSON_IsTrue(obj(s, "enabled")));
    CU_ASSERT_EQUAL(num(s, "data_address"), 13 * 64);
    CU_ASSERT_EQUAL(num(sc(r), "data_bytes_written"), 63);

    r = call("vic2_sprites_get", "{\"session\":\"v64\"}");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(obj(sc(r), "sprites")), 8);
    s = cJSON_GetArrayItem(obj(sc(r), "sprites"), 1);
    CU_ASSERT_EQUAL(num(s, "x"), 300);
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(s, "pointer_hex")), "$0D");
    r = call("vic2_sprites_get", "{\"session\":\"v64\",\"sprite\":1}");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(obj(sc(r), "sprites")), 1);

    r = call("vic2_sprite_image", "{\"session\":\"v64\",\"sprite\":1,\"scale\":2}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    const char *ascii = cJSON_GetStringValue(obj(sc(r), "ascii"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(ascii);
    CU_ASSERT_EQUAL(strncmp(ascii, "########........#......#\n", 25), 0);
    CU_ASSERT_EQUAL(strncmp(ascii + 20 * 25, "...................##...\n", 25), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "########........#......#"));
    int images = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, obj(r, "content"))
    if (strcmp(cJSON_GetStringValue(obj(item, "type")), "image") == 0) {
        images++;
        const char *b64 = cJSON_GetStringValue(obj(item, "data"));
        size_t size = strlen(b64);
        uint8_t *png = malloc(size);
        size_t n = mh_base64_decode(png, size, b64, size);
        mh_test_png img;
        char error[256];
        CU_ASSERT_EQUAL_FATAL(mh_test_png_decode(png, n, &img, error, sizeof error), 0);
        CU_ASSERT_EQUAL(img.width, 48);
        CU_ASSERT_EQUAL(img.height, 42);
        /* Pixel (0,0) is yellow (7), (8,0) the background (0). */
        CU_ASSERT_EQUAL(img.palette[img.pixels[0] * 3 + 2], 0x6F);
        CU_ASSERT_EQUAL(img.palette[img.pixels[16] * 3], 0x00);
        mh_test_png_free(&img);
        free(png);
    }
    CU_ASSERT_EQUAL(images, 1);

    CU_ASSERT_TRUE(error_has(call("vic2_sprites_get", "{\"session\":\"v64\",\"sprite\":8}"),
                             "sprite", "0-7"));
    CU_ASSERT_TRUE(error_has(call("vic2_sprites_set", "{\"session\":\"v64\",\"sprite\":0}"),
                             "nothing to change", NULL));
    CU_ASSERT_TRUE(error_has(call("vic2_sprites_set",
                                  "{\"session\":\"v64\",\"sprite\":0,\"x\":512}"), "x", NULL));
    CU_ASSERT_TRUE(error_has(call("vic2_sprites_set",
                                  "{\"session\":\"v64\",\"sprite\":0,\"enabled\":1}"),
                             "enabled", NULL));
    CU_ASSERT_TRUE(mh_harness_is_error(call("vic2_sprites_set", "{\"session\":\"v64\",\"x\":5}")));
    CU_ASSERT_TRUE(error_has(call("vic2_sprite_image", "{\"session\":\"v64\",\"sprite\":-1}"),
                             "sprite", NULL));
    CU_ASSERT_TRUE(error_has(call("vic2_sprite_image",
                                  "{\"session\":\"v64\",\"sprite\":0,\"scale\":9}"),
                             "scale", NULL));
}

static void test_missing_chip(void)
{
    static const char *const tools[] = {"vic2_registers_get", "vic2_borders_get"};
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
        const cJSON *r = call(tools[i], "{\"session\":\"bare\"}");
        CU_ASSERT_TRUE(error_has(r, tools[i], "bare6502"));
        CU_ASSERT_TRUE(error_has(r, "VIC-II", "mh.chip.vic2/1"));
    }
    const cJSON *r = call("screen_text", "{\"session\":\"bare\"}");
    CU_ASSERT_TRUE(error_has(r, "screen_text is not available", "bare6502"));
    CU_ASSERT_TRUE(error_has(r, "text screen", "mh.textscreen/1"));
    r = call("screen_capture", "{\"session\":\"bare\"}");
    CU_ASSERT_TRUE(error_has(r, "screen_capture is not available", "video output (mh.video/1)"));
    /* A wrong instance name on the C64 names the instances there are. */
    CU_ASSERT_TRUE(error_has(call("vic2_registers_get", "{\"session\":\"v64\",\"instance\":\"vic3\"}"),
                             "vic3", "vic2"));
}

MH_SUITE("tools_vic2.host", suite_init, suite_cleanup, MH_TEST(test_screen_text_ready),
         MH_TEST(test_screen_capture_matches_framebuffer), MH_TEST(test_registers),
         MH_TEST(test_borders_record), MH_TEST(test_sprites), MH_TEST(test_missing_chip))
