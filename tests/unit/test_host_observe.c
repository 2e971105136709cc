/* host.observe: the frame mailbox and the audio stream behind mh.observe/1
 * (host/observe/session_media.c). The observers themselves are proven through
 * the binary in tests/e2e/observe.test.mjs. */
#include <stdlib.h>
#include <string.h>

#include "mh_test.h"
#include "session_media.h"

static mh_video_frame make_frame(uint8_t *pixels, uint32_t w, uint32_t h, uint32_t pitch,
                                 uint64_t number, const uint32_t *palette)
{
    mh_video_frame f;
    memset(&f, 0, sizeof f);
    f.struct_size = sizeof f;
    f.width = w;
    f.height = h;
    f.pitch = pitch;
    f.pixels = pixels;
    f.palette = palette;
    f.palette_size = 2;
    f.frame_number = number;
    return f;
}

static void test_mailbox_newest_frame_packed(void)
{
    mh_frame_mailbox mb;
    mh_frame_mailbox_init(&mb);
    uint32_t palette[2] = {0x000000, 0xFFFFFF};
    uint8_t src[4 * 3]; /* 3x3 pixels in rows of pitch 4: the 4th byte is not the frame's */
    for (int i = 0; i < 12; i++) src[i] = (uint8_t)i;
    uint8_t dst[9];
    mh_observe_frame out;
    memset(&out, 0, sizeof out);
    out.struct_size = sizeof out;
    out.pixels = dst;
    out.pixels_size = sizeof dst;
    CU_ASSERT_EQUAL(mh_frame_mailbox_read(&mb, 0, &out), MH_ERR_STATE); /* nothing yet */

    for (uint64_t n = 1; n <= 5; n++) {
        src[0] = (uint8_t)(100 + n);
        mh_video_frame f = make_frame(src, 3, 3, 4, n, palette);
        CU_ASSERT_EQUAL(mh_frame_mailbox_put(&mb, &f), MH_OK);
    }
    CU_ASSERT_EQUAL(mh_frame_mailbox_read(&mb, 0, &out), MH_OK);
    CU_ASSERT_EQUAL(out.frame_number, 5);
    CU_ASSERT_EQUAL(out.width, 3);
    CU_ASSERT_EQUAL(out.height, 3);
    const uint8_t expect[9] = {105, 1, 2, 4, 5, 6, 8, 9, 10};
    CU_ASSERT_EQUAL(memcmp(dst, expect, 9), 0);
    CU_ASSERT_EQUAL(out.palette_size, 2);
    CU_ASSERT_EQUAL(out.palette[1], 0xFFFFFF);
    CU_ASSERT_EQUAL(mh_frame_mailbox_read(&mb, 5, &out), MH_ERR_STATE); /* none newer */

    out.pixels_size = 8; /* too small: says how big */
    out.width = out.height = 0;
    CU_ASSERT_EQUAL(mh_frame_mailbox_read(&mb, 0, &out), MH_ERR_LIMIT);
    CU_ASSERT_EQUAL(out.width * out.height, 9);
    mh_video_frame bad = make_frame(src, 3, 3, 2, 6, palette); /* pitch below width */
    CU_ASSERT_EQUAL(mh_frame_mailbox_put(&mb, &bad), MH_ERR_INVALID_ARGUMENT);
    mh_frame_mailbox_destroy(&mb);
}

static void test_audio_readers_and_overrun(void)
{
    mh_audio_stream st;
    mh_audio_stream_init(&st);
    int16_t chunk[1000];
    for (int i = 0; i < 1000; i++) chunk[i] = (int16_t)i;
    mh_audio_stream_put(&st, chunk, 1000); /* nobody reads: not kept */
    uint64_t a = 0, b = 0, dropped_a = 0, dropped_b = 0;
    CU_ASSERT_EQUAL(mh_audio_stream_join(&st, &a), 0);
    CU_ASSERT_EQUAL(a, 0);
    mh_audio_stream_put(&st, chunk, 1000);
    CU_ASSERT_EQUAL(mh_audio_stream_join(&st, &b), 0);
    CU_ASSERT_EQUAL(b, 1000); /* a second reader starts now */
    mh_audio_stream_put(&st, chunk, 500);

    int16_t out[2000];
    CU_ASSERT_EQUAL(mh_audio_stream_read(&st, &a, &dropped_a, out, 2000), 1500);
    CU_ASSERT_EQUAL(out[0], 0);
    CU_ASSERT_EQUAL(out[999], 999);
    CU_ASSERT_EQUAL(out[1000], 0);
    CU_ASSERT_EQUAL(mh_audio_stream_read(&st, &b, &dropped_b, out, 2000), 500);
    CU_ASSERT_EQUAL(out[499], 499);

    /* b falls more than the ring behind: it loses the oldest, counted */
    size_t total = 0;
    while (total < MH_AUDIO_STREAM_SAMPLES + 3000) {
        mh_audio_stream_put(&st, chunk, 1000);
        total += 1000;
        CU_ASSERT_EQUAL(mh_audio_stream_read(&st, &a, &dropped_a, out, 2000), 1000);
    }
    CU_ASSERT_EQUAL(dropped_a, 0);
    size_t got = 0, n;
    while ((n = mh_audio_stream_read(&st, &b, &dropped_b, out, 2000)) > 0) got += n;
    CU_ASSERT_EQUAL(got, MH_AUDIO_STREAM_SAMPLES);
    CU_ASSERT_EQUAL(dropped_b, total - MH_AUDIO_STREAM_SAMPLES);
    mh_audio_stream_leave(&st);
    mh_audio_stream_leave(&st);
    CU_ASSERT_EQUAL(atomic_load(&st.readers), 0);
    mh_audio_stream_destroy(&st);
}

MH_SUITE("host.observe", NULL, NULL, MH_TEST(test_mailbox_newest_frame_packed),
         MH_TEST(test_audio_readers_and_overrun))
