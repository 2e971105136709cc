/* wav.write: mh_wav_encode() header fields and sample bytes, the header
 * helper's limits, the file writer (mcphost/wav.h). */
#include "mh_test.h"

#include <mcphost/wav.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static unsigned le16(const uint8_t *p) { return p[0] | (unsigned)p[1] << 8; }

static void check_header(const uint8_t *w, unsigned channels, unsigned rate, uint32_t data)
{
    CU_ASSERT(memcmp(w, "RIFF", 4) == 0);
    CU_ASSERT_EQUAL(le32(w + 4), 36 + data);
    CU_ASSERT(memcmp(w + 8, "WAVEfmt ", 8) == 0);
    CU_ASSERT_EQUAL(le32(w + 16), 16);
    CU_ASSERT_EQUAL(le16(w + 20), 1);
    CU_ASSERT_EQUAL(le16(w + 22), channels);
    CU_ASSERT_EQUAL(le32(w + 24), rate);
    CU_ASSERT_EQUAL(le32(w + 28), rate * channels * 2);
    CU_ASSERT_EQUAL(le16(w + 32), channels * 2);
    CU_ASSERT_EQUAL(le16(w + 34), 16);
    CU_ASSERT(memcmp(w + 36, "data", 4) == 0);
    CU_ASSERT_EQUAL(le32(w + 40), data);
}

static void test_mono(void)
{
    const int16_t s[5] = {0, 1, -2, 32767, -32768};
    mh_wav_desc d = {s, 5, 1, 44100};
    uint8_t *w;
    size_t size;
    CU_ASSERT_EQUAL_FATAL(mh_wav_encode(&d, &w, &size), MH_OK);
    CU_ASSERT_EQUAL(size, 44 + 10);
    check_header(w, 1, 44100, 10);
    const uint8_t want[10] = {0, 0, 1, 0, 0xfe, 0xff, 0xff, 0x7f, 0x00, 0x80};
    CU_ASSERT(memcmp(w + 44, want, 10) == 0);
    free(w);
}

static void test_stereo_odd_rate(void)
{
    int16_t s[200];
    for (int i = 0; i < 200; i++) s[i] = (int16_t)(i % 2 ? -i : i * 100);
    mh_wav_desc d = {s, 100, 2, 985248 / 20};
    uint8_t *w;
    size_t size;
    CU_ASSERT_EQUAL_FATAL(mh_wav_encode(&d, &w, &size), MH_OK);
    CU_ASSERT_EQUAL(size, 44 + 400);
    check_header(w, 2, 49262, 400);
    CU_ASSERT_EQUAL((int16_t)le16(w + 44 + 2 * 7), -7);
    CU_ASSERT_EQUAL((int16_t)le16(w + 44 + 2 * 8), 800);
    free(w);
}

static void test_empty(void)
{
    mh_wav_desc d = {NULL, 0, 2, 8000};
    uint8_t *w;
    size_t size;
    CU_ASSERT_EQUAL_FATAL(mh_wav_encode(&d, &w, &size), MH_OK);
    CU_ASSERT_EQUAL(size, 44);
    check_header(w, 2, 8000, 0);
    free(w);
}

static void test_refused(void)
{
    int16_t s[2] = {0, 0};
    uint8_t *w = (uint8_t *)1;
    size_t size = 1;
    mh_wav_desc d = {s, 1, 3, 44100};
    CU_ASSERT_EQUAL(mh_wav_encode(&d, &w, &size), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_PTR_NULL(w);
    d.channels = 0;
    CU_ASSERT_EQUAL(mh_wav_encode(&d, &w, &size), MH_ERR_INVALID_ARGUMENT);
    d.channels = 1;
    d.sample_rate = 0;
    CU_ASSERT_EQUAL(mh_wav_encode(&d, &w, &size), MH_ERR_INVALID_ARGUMENT);
    d.sample_rate = 1000001;
    CU_ASSERT_EQUAL(mh_wav_encode(&d, &w, &size), MH_ERR_INVALID_ARGUMENT);
    d.sample_rate = 44100;
    d.samples = NULL;
    CU_ASSERT_EQUAL(mh_wav_encode(&d, &w, &size), MH_ERR_INVALID_ARGUMENT);
    d.samples = s;
    d.frames = SIZE_MAX / 2; /* more than a RIFF size can say: refused before reading */
    CU_ASSERT_EQUAL(mh_wav_encode(&d, &w, &size), MH_ERR_INVALID_ARGUMENT);
    d.frames = (UINT32_MAX - 36u) / 2u + 1u; /* mono: one frame more than fits */
    CU_ASSERT_EQUAL(mh_wav_encode(&d, &w, &size), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(mh_wav_encode(NULL, &w, &size), MH_ERR_INVALID_ARGUMENT);
    uint8_t h[MH_WAV_HEADER_SIZE];
    CU_ASSERT_EQUAL(mh_wav_header(h, 2, 44100, UINT32_MAX - 36u - 1u), MH_OK); /* even, largest */
    CU_ASSERT_EQUAL(le32(h + 4), UINT32_MAX - 1u);
    CU_ASSERT_EQUAL(mh_wav_header(h, 2, 44100, UINT32_MAX - 35u), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(mh_wav_header(h, 2, 44100, 3), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(mh_wav_header(h, 1, 22050, 4), MH_OK);
    check_header(h, 1, 22050, 4);
}

static void test_write_file(void)
{
    char path[] = "/tmp/mh_wav_test_XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    const int16_t s[4] = {1, 2, 3, 4};
    mh_wav_desc d = {s, 2, 2, 48000};
    CU_ASSERT_EQUAL(mh_wav_write_file(path, &d), MH_OK);
    FILE *f = fopen(path, "rb");
    uint8_t buf[100];
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    CU_ASSERT_EQUAL(n, 52);
    check_header(buf, 2, 48000, 8);
    CU_ASSERT_EQUAL(buf[50], 4);
    unlink(path);
    CU_ASSERT_EQUAL(mh_wav_write_file("/nonexistent-dir/x.wav", &d), MH_ERR_IO);
}

MH_SUITE("wav.write", NULL, NULL, MH_TEST(test_mono), MH_TEST(test_stereo_odd_rate),
         MH_TEST(test_empty), MH_TEST(test_refused), MH_TEST(test_write_file))
