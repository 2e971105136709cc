/* png.write: mh_png_encode() round trips through the independent test
 * decoder (png_decode.c): indexed with scale 1, 2 and 3x2, RGB24, RGBA32,
 * XRGB32/ARGB32, strides, chunk layout, refused arguments, the file
 * writer (mcphost/png.h). */
#include "mh_test.h"
#include "png_decode.h"

#include <mcphost/png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The C64's 16 colours (any palette will do: they are bytes here). */
static const uint8_t palette16[16 * 3] = {
    0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0x88, 0x39, 0x32, 0x67, 0xb6, 0xbd,
    0x8b, 0x3f, 0x96, 0x55, 0xa0, 0x49, 0x40, 0x31, 0x8d, 0xbf, 0xce, 0x72,
    0x8b, 0x54, 0x29, 0x57, 0x42, 0x00, 0xb8, 0x69, 0x62, 0x50, 0x50, 0x50,
    0x78, 0x78, 0x78, 0x94, 0xe0, 0x89, 0x78, 0x69, 0xc4, 0x9f, 0x9f, 0x9f};

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void indexed_round_trip(unsigned sx, unsigned sy)
{
    enum { W = 40, H = 25 };
    uint8_t pixels[W * H];
    for (int i = 0; i < W * H; i++) pixels[i] = (uint8_t)((i * 7 + i / W) % 16);
    mh_png_desc d = {0};
    d.format = MH_PNG_INDEXED8;
    d.width = W;
    d.height = H;
    d.pixels = pixels;
    d.palette = palette16;
    d.palette_size = 16;
    d.scale_x = sx;
    d.scale_y = sy;
    uint8_t *png;
    size_t size;
    CU_ASSERT_EQUAL_FATAL(mh_png_encode(&d, &png, &size), MH_OK);
    /* Layout: signature, IHDR, PLTE, IDAT, IEND. */
    CU_ASSERT(memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0);
    CU_ASSERT_EQUAL(be32(png + 8), 13);
    CU_ASSERT(memcmp(png + 12, "IHDR", 4) == 0);
    unsigned ux = sx ? sx : 1, uy = sy ? sy : 1;
    CU_ASSERT_EQUAL(be32(png + 16), W * ux);
    CU_ASSERT_EQUAL(be32(png + 20), H * uy);
    CU_ASSERT_EQUAL(png[24], 8);
    CU_ASSERT_EQUAL(png[25], 3);
    CU_ASSERT(memcmp(png + 33 + 4, "PLTE", 4) == 0);
    CU_ASSERT_EQUAL(be32(png + 33), 48);
    CU_ASSERT(memcmp(png + size - 12, "\0\0\0\0IEND\xae\x42\x60\x82", 12) == 0);
    mh_test_png img;
    char err[200];
    int r = mh_test_png_decode(png, size, &img, err, sizeof err);
    if (r) fprintf(stderr, "\ndecode: %s\n", err);
    CU_ASSERT_EQUAL_FATAL(r, 0);
    CU_ASSERT_EQUAL(img.width, W * ux);
    CU_ASSERT_EQUAL(img.height, H * uy);
    CU_ASSERT_EQUAL(img.color_type, 3);
    CU_ASSERT_EQUAL(img.palette_size, 16);
    CU_ASSERT(memcmp(img.palette, palette16, sizeof palette16) == 0);
    int same = 1;
    for (unsigned y = 0; y < H * uy; y++)
        for (unsigned x = 0; x < W * ux; x++)
            same &= img.pixels[y * W * ux + x] == pixels[(y / uy) * W + x / ux];
    CU_ASSERT(same);
    mh_test_png_free(&img);
    free(png);
}

static void test_indexed_scale1(void) { indexed_round_trip(0, 0); indexed_round_trip(1, 1); }
static void test_indexed_scale2(void) { indexed_round_trip(2, 2); }
static void test_indexed_scale_xy(void) { indexed_round_trip(3, 2); indexed_round_trip(1, 4); }

static void test_rgb_formats(void)
{
    enum { W = 7, H = 5 };
    uint8_t rgb[W * H * 3], rgba[W * H * 4];
    uint32_t xrgb[W * H];
    for (int i = 0; i < W * H; i++) {
        rgb[3 * i] = rgba[4 * i] = (uint8_t)(i * 5);
        rgb[3 * i + 1] = rgba[4 * i + 1] = (uint8_t)(255 - i);
        rgb[3 * i + 2] = rgba[4 * i + 2] = (uint8_t)(i * 31);
        rgba[4 * i + 3] = (uint8_t)(i * 7);
        xrgb[i] = (uint32_t)rgba[4 * i + 3] << 24 | (uint32_t)rgb[3 * i] << 16 | (uint32_t)rgb[3 * i + 1] << 8 | rgb[3 * i + 2];
    }
    struct { mh_png_format f; const void *px; unsigned type, ch; const uint8_t *want; } cases[] = {
        {MH_PNG_RGB24, rgb, 2, 3, rgb},
        {MH_PNG_RGBA32, rgba, 6, 4, rgba},
        {MH_PNG_XRGB32, xrgb, 2, 3, rgb},
        {MH_PNG_ARGB32, xrgb, 6, 4, rgba},
    };
    for (size_t c = 0; c < 4; c++)
        for (unsigned s = 1; s <= 2; s++) {
            mh_png_desc d = {0};
            d.format = cases[c].f;
            d.width = W;
            d.height = H;
            d.pixels = cases[c].px;
            d.scale_x = d.scale_y = s;
            d.level = 9;
            uint8_t *png;
            size_t size;
            CU_ASSERT_EQUAL_FATAL(mh_png_encode(&d, &png, &size), MH_OK);
            mh_test_png img;
            char err[200];
            CU_ASSERT_EQUAL_FATAL(mh_test_png_decode(png, size, &img, err, sizeof err), 0);
            CU_ASSERT_EQUAL(img.color_type, cases[c].type);
            CU_ASSERT_EQUAL(img.channels, cases[c].ch);
            int same = 1;
            for (unsigned y = 0; y < H * s; y++)
                for (unsigned x = 0; x < W * s; x++)
                    same &= memcmp(img.pixels + (y * W * s + x) * cases[c].ch,
                                   cases[c].want + ((y / s) * W + x / s) * cases[c].ch, cases[c].ch) == 0;
            CU_ASSERT(same);
            mh_test_png_free(&img);
            free(png);
        }
}

static void test_stride(void)
{
    /* A 3x2 window of a 10-wide buffer. */
    uint8_t buf[10 * 4];
    for (int i = 0; i < 40; i++) buf[i] = (uint8_t)(i % 4);
    mh_png_desc d = {0};
    d.width = 3;
    d.height = 2;
    d.pixels = buf + 11;
    d.stride = 10;
    d.palette = palette16;
    d.palette_size = 4;
    uint8_t *png;
    size_t size;
    CU_ASSERT_EQUAL_FATAL(mh_png_encode(&d, &png, &size), MH_OK);
    mh_test_png img;
    CU_ASSERT_EQUAL_FATAL(mh_test_png_decode(png, size, &img, NULL, 0), 0);
    const uint8_t want[6] = {3, 0, 1, 1, 2, 3};
    CU_ASSERT(memcmp(img.pixels, want, 6) == 0);
    CU_ASSERT_EQUAL(img.palette_size, 4);
    mh_test_png_free(&img);
    free(png);
}

static void test_big_screen(void)
{
    /* A full PAL C64 frame (384x272) at 2x: the size a screenshot tool sends. */
    enum { W = 384, H = 272 };
    uint8_t *px = malloc(W * H);
    for (int i = 0; i < W * H; i++) px[i] = (uint8_t)((i / W) / 8 % 16);
    mh_png_desc d = {0};
    d.width = W;
    d.height = H;
    d.pixels = px;
    d.palette = palette16;
    d.palette_size = 16;
    d.scale_x = d.scale_y = 2;
    uint8_t *png;
    size_t size;
    CU_ASSERT_EQUAL_FATAL(mh_png_encode(&d, &png, &size), MH_OK);
    CU_ASSERT(size < 20000); /* stripes compress well */
    mh_test_png img;
    CU_ASSERT_EQUAL_FATAL(mh_test_png_decode(png, size, &img, NULL, 0), 0);
    CU_ASSERT_EQUAL(img.width, 768);
    CU_ASSERT_EQUAL(img.pixels[543 * 768 + 767], px[(543 / 2) * W + 383]);
    mh_test_png_free(&img);
    free(png);
    free(px);
}

static void test_refused(void)
{
    uint8_t px[4] = {0, 1, 2, 16};
    mh_png_desc d = {0};
    d.width = 2;
    d.height = 2;
    d.pixels = px;
    d.palette = palette16;
    d.palette_size = 16;
    uint8_t *png = (uint8_t *)1;
    size_t size = 1;
    CU_ASSERT_EQUAL(mh_png_encode(&d, &png, &size), MH_ERR_INVALID_ARGUMENT); /* index 16 */
    CU_ASSERT_PTR_NULL(png);
    CU_ASSERT_EQUAL(size, 0);
    px[3] = 15;
    CU_ASSERT_EQUAL(mh_png_encode(&d, &png, &size), MH_OK);
    free(png);
    mh_png_desc b = d;
    b.palette_size = 0;
    CU_ASSERT_EQUAL(mh_png_encode(&b, &png, &size), MH_ERR_INVALID_ARGUMENT);
    b.palette_size = 257;
    CU_ASSERT_EQUAL(mh_png_encode(&b, &png, &size), MH_ERR_INVALID_ARGUMENT);
    b = d;
    b.palette = NULL;
    CU_ASSERT_EQUAL(mh_png_encode(&b, &png, &size), MH_ERR_INVALID_ARGUMENT);
    b = d;
    b.width = 0;
    CU_ASSERT_EQUAL(mh_png_encode(&b, &png, &size), MH_ERR_INVALID_ARGUMENT);
    b = d;
    b.height = 0;
    CU_ASSERT_EQUAL(mh_png_encode(&b, &png, &size), MH_ERR_INVALID_ARGUMENT);
    b = d;
    b.scale_x = 17;
    CU_ASSERT_EQUAL(mh_png_encode(&b, &png, &size), MH_ERR_INVALID_ARGUMENT);
    b = d;
    b.stride = 1;
    CU_ASSERT_EQUAL(mh_png_encode(&b, &png, &size), MH_ERR_INVALID_ARGUMENT);
    b = d;
    b.level = 10;
    CU_ASSERT_EQUAL(mh_png_encode(&b, &png, &size), MH_ERR_INVALID_ARGUMENT);
    b.level = -1;
    CU_ASSERT_EQUAL(mh_png_encode(&b, &png, &size), MH_ERR_INVALID_ARGUMENT);
    b = d;
    b.format = (mh_png_format)9;
    CU_ASSERT_EQUAL(mh_png_encode(&b, &png, &size), MH_ERR_INVALID_ARGUMENT);
    b = d;
    b.width = 16385; /* the pixels are never read: size is checked first */
    CU_ASSERT_EQUAL(mh_png_encode(&b, &png, &size), MH_ERR_INVALID_ARGUMENT);
    b = d;
    b.width = 8193;
    b.scale_x = 2;
    CU_ASSERT_EQUAL(mh_png_encode(&b, &png, &size), MH_ERR_INVALID_ARGUMENT);
    b = d;
    b.pixels = NULL;
    CU_ASSERT_EQUAL(mh_png_encode(&b, &png, &size), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(mh_png_encode(NULL, &png, &size), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(mh_png_encode(&d, NULL, &size), MH_ERR_INVALID_ARGUMENT);
}

static void test_decoder_checks(void)
{
    /* The decoder must catch what a broken writer would produce. */
    uint8_t px[4] = {0, 1, 2, 3};
    mh_png_desc d = {0};
    d.width = 2;
    d.height = 2;
    d.pixels = px;
    d.palette = palette16;
    d.palette_size = 4;
    uint8_t *png;
    size_t size;
    CU_ASSERT_EQUAL_FATAL(mh_png_encode(&d, &png, &size), MH_OK);
    mh_test_png img;
    char err[200];
    png[30] ^= 1; /* inside IHDR: CRC mismatch */
    CU_ASSERT_EQUAL(mh_test_png_decode(png, size, &img, err, sizeof err), -1);
    CU_ASSERT(strstr(err, "bad CRC on chunk IHDR") != NULL);
    png[30] ^= 1;
    CU_ASSERT_EQUAL(mh_test_png_decode(png, size - 1, &img, err, sizeof err), -1);
    CU_ASSERT_EQUAL(mh_test_png_decode(png, 7, &img, err, sizeof err), -1);
    CU_ASSERT_EQUAL(mh_test_png_decode(png, size, &img, err, sizeof err), 0);
    mh_test_png_free(&img);
    free(png);
}

static void test_write_file(void)
{
    char path[] = "/tmp/mh_png_test_XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    uint8_t px[4] = {0, 1, 2, 3};
    mh_png_desc d = {0};
    d.width = 2;
    d.height = 2;
    d.pixels = px;
    d.palette = palette16;
    d.palette_size = 4;
    CU_ASSERT_EQUAL(mh_png_write_file(path, &d), MH_OK);
    FILE *f = fopen(path, "rb");
    uint8_t buf[4096];
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    uint8_t *png;
    size_t size;
    CU_ASSERT_EQUAL(mh_png_encode(&d, &png, &size), MH_OK);
    CU_ASSERT_EQUAL(n, size);
    CU_ASSERT(memcmp(buf, png, size) == 0);
    free(png);
    unlink(path);
    CU_ASSERT_EQUAL(mh_png_write_file("/nonexistent-dir/x.png", &d), MH_ERR_IO);
    CU_ASSERT_EQUAL(mh_png_write_file(NULL, &d), MH_ERR_INVALID_ARGUMENT);
}

MH_SUITE("png.write", NULL, NULL, MH_TEST(test_indexed_scale1), MH_TEST(test_indexed_scale2),
         MH_TEST(test_indexed_scale_xy), MH_TEST(test_rgb_formats), MH_TEST(test_stride),
         MH_TEST(test_big_screen), MH_TEST(test_refused), MH_TEST(test_decoder_checks),
         MH_TEST(test_write_file))
