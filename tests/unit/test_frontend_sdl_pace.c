/* frontend_sdl.pace: the window's audio pacing controller (pace.c) against
 * a simulated sound card whose clock is off by up to 0.5% and an
 * emulation that makes its 5 ms slices of sound at the rate the
 * controller asks for. Simulated time only: nothing here waits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "mh_test.h"
#include "pace.h"

#define RATE 44100.0
#define WANT 441.0         /* the device takes 10 ms per callback */
#define TARGET_S 0.070     /* prefill 60 ms + one callback, as fe_audio.c */
#define SLICE_SAMPLES 220.5 /* 5 ms of machine time */

typedef struct sim_result {
    unsigned long underruns;
    double fill_min_s, fill_max_s;     /* after settling */
    double ratio_min, ratio_max;       /* after settling */
    double ratio_mean;                 /* over the last minute */
} sim_result;

/* Runs `seconds` of simulated time with the device at RATE x (1 + drift);
 * without `controlled` the emulation keeps ratio 1.0 (its own clock). An
 * underrun empties the queue and the device plays on. */
static sim_result simulate(double drift, double seconds, double settle_s, int controlled)
{
    fe_pace pace;
    fe_pace_init(&pace, TARGET_S);
    sim_result r = {0, 1e9, -1e9, 1e9, -1e9, 0};
    double queued = TARGET_S * RATE; /* prefilled */
    double ratio = 1.0;
    double machine_s = 0, slice_due = 0.005;
    double callback_period = WANT / (RATE * (1.0 + drift));
    double next_callback = callback_period, last_callback = 0;
    double sum = 0;
    unsigned long count = 0;
    const double step = 0.0005;
    for (double t = step; t < seconds; t += step) {
        machine_s += ratio * step; /* the emulation follows the ratio */
        while (machine_s >= slice_due) {
            queued += SLICE_SAMPLES;
            slice_due += 0.005;
        }
        if (t < next_callback) continue;
        double fill = queued / RATE;
        double out = fe_pace_update(&pace, fill, t - last_callback);
        if (controlled) ratio = out;
        last_callback = t;
        next_callback += callback_period;
        if (queued < WANT) {
            r.underruns++;
            queued = 0;
        } else {
            queued -= WANT;
        }
        if (t > settle_s) {
            if (fill < r.fill_min_s) r.fill_min_s = fill;
            if (fill > r.fill_max_s) r.fill_max_s = fill;
            if (ratio < r.ratio_min) r.ratio_min = ratio;
            if (ratio > r.ratio_max) r.ratio_max = ratio;
        }
        if (t > seconds - 60) {
            sum += ratio;
            count++;
        }
    }
    r.ratio_mean = count ? sum / (double)count : 0;
    return r;
}

static void check_drift(double drift)
{
    sim_result r = simulate(drift, 300, 20, 1);
    if (getenv("MH_PACE_VERBOSE"))
        fprintf(stderr, "drift %+.3f: %lu underruns, fill %.1f..%.1f ms, ratio %.4f..%.4f, mean %.5f\n",
                drift, r.underruns, r.fill_min_s * 1000, r.fill_max_s * 1000, r.ratio_min,
                r.ratio_max, r.ratio_mean);
    CU_ASSERT_EQUAL(r.underruns, 0);
    /* the fill stays near the target: at most a slice and a callback off */
    CU_ASSERT_TRUE(r.fill_min_s > TARGET_S - 0.020);
    CU_ASSERT_TRUE(r.fill_max_s < TARGET_S + 0.020);
    /* the emulation runs exactly as fast as the device consumes */
    CU_ASSERT_DOUBLE_EQUAL(r.ratio_mean, 1.0 + drift, 0.0005);
    CU_ASSERT_TRUE(r.ratio_min >= FE_PACE_MIN && r.ratio_max <= FE_PACE_MAX);
}

static void test_device_slower(void) { check_drift(-0.005); }
static void test_device_faster(void) { check_drift(0.005); }
static void test_device_exact(void) { check_drift(0.0); }

/* Without the controller (ratio 1.0) the same devices drain the queue
 * (underruns) or fill it (a growing delay): what the controller is for. */
static void test_without_controller_drifts(void)
{
    sim_result fast = simulate(0.005, 300, 20, 0);
    CU_ASSERT_TRUE(fast.underruns > 0);
    sim_result slow = simulate(-0.005, 300, 20, 0);
    CU_ASSERT_EQUAL(slow.underruns, 0);
    CU_ASSERT_TRUE(slow.fill_max_s > 1.0); /* 1.5 s of delay after 5 minutes */
    if (getenv("MH_PACE_VERBOSE"))
        fprintf(stderr, "uncontrolled: %lu underruns (device +0.5%%), fill up to %.2f s (-0.5%%)\n",
                fast.underruns, slow.fill_max_s);
}

/* A device far off (10%) pins the ratio at the clamp; it does not wind
 * up: once the clocks agree again it comes back at once. */
static void test_clamp_without_windup(void)
{
    fe_pace pace;
    fe_pace_init(&pace, TARGET_S);
    double ratio = 1.0;
    for (int i = 0; i < 60000; i++) ratio = fe_pace_update(&pace, 0.0, 0.01); /* empty */
    CU_ASSERT_DOUBLE_EQUAL(ratio, FE_PACE_MAX, 1e-9);
    for (int i = 0; i < 200; i++) ratio = fe_pace_update(&pace, TARGET_S, 0.01);
    CU_ASSERT_TRUE(ratio < 1.03); /* the integral stayed within the clamp */
    for (int i = 0; i < 60000; i++) ratio = fe_pace_update(&pace, 1.0, 0.01); /* far too full */
    CU_ASSERT_DOUBLE_EQUAL(ratio, FE_PACE_MIN, 1e-9);
    fe_pace_restart(&pace);
    CU_ASSERT_TRUE(pace.ratio >= FE_PACE_MIN && pace.ratio <= FE_PACE_MAX);
    /* a nonsense interval is taken as one callback */
    ratio = fe_pace_update(&pace, TARGET_S, -1);
    CU_ASSERT_TRUE(ratio >= FE_PACE_MIN && ratio <= FE_PACE_MAX && !isnan(ratio));
}

MH_SUITE("frontend_sdl.pace", NULL, NULL, MH_TEST(test_device_slower),
         MH_TEST(test_device_faster), MH_TEST(test_device_exact),
         MH_TEST(test_without_controller_drifts), MH_TEST(test_clamp_without_windup))
