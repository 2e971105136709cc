/* analysis.c - measurements of a block of int16 mono samples: peak,
 * RMS (mean removed), dominant frequency and the step rate of a
 * sample-and-hold signal (docs/tools-audio.md, "Analysis").
 *
 * Dominant frequency: the mean is removed, at most MH_AUDIO_FFT_MAX samples are
 * Hann-windowed and zero-padded to a power of two at least twice their
 * number, and the strongest bin from 20 Hz up is refined by a parabola
 * through the log magnitudes of it and its neighbours (error well under a
 * hundredth of the Hann main lobe for a steady tone). Its height over the
 * median bin between half and 1.5 times its frequency says whether there
 * is a pitch at all (a tone: far above, 30 dB or more; noise: not).
 * Step rate: a signal that holds its level between steps (the SID's noise
 * at a steady envelope, as the per-voice tap records it) changes in runs
 * of one or two samples (a step inside a sample averages two levels);
 * counting the runs gives the steps per second. When most samples change,
 * the signal is not of that kind and the rate is -1.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include "mcphost/audio_analysis.h"

#define MH_AUDIO_FFT_MAX 131072u /* samples analysed for the frequency (~3 s at 44.1 kHz) */
#define MH_AUDIO_MIN_HZ 20.0

static void fft(double *re, double *im, size_t n)
{
    for (size_t i = 1, j = 0; i < n; i++) {
        size_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) {
            double t = re[i];
            re[i] = re[j];
            re[j] = t;
            t = im[i];
            im[i] = im[j];
            im[j] = t;
        }
    }
    for (size_t len = 2; len <= n; len <<= 1) {
        double angle = -2.0 * M_PI / (double)len;
        double wr = cos(angle), wi = sin(angle);
        for (size_t i = 0; i < n; i += len) {
            double cr = 1.0, ci = 0.0;
            for (size_t k = 0; k < len / 2; k++) {
                size_t a = i + k, b = i + k + len / 2;
                double xr = re[b] * cr - im[b] * ci;
                double xi = re[b] * ci + im[b] * cr;
                re[b] = re[a] - xr;
                im[b] = im[a] - xi;
                re[a] += xr;
                im[a] += xi;
                double t = cr * wr - ci * wi;
                ci = cr * wi + ci * wr;
                cr = t;
            }
        }
    }
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void dominant(const int16_t *x, size_t n, double mean, uint32_t rate, mh_audio_stats *out)
{
    size_t used = n < MH_AUDIO_FFT_MAX ? n : MH_AUDIO_FFT_MAX;
    size_t size = 1;
    while (size < 2 * used) size <<= 1;
    double *re = calloc(size, sizeof *re), *im = calloc(size, sizeof *im);
    if (!re || !im || used < 16) {
        free(re);
        free(im);
        return;
    }
    for (size_t i = 0; i < used; i++) {
        double w = 0.5 - 0.5 * cos(2.0 * M_PI * (double)i / (double)(used - 1));
        re[i] = ((double)x[i] - mean) * w;
    }
    fft(re, im, size);
    size_t half = size / 2;
    size_t lo = (size_t)ceil(MH_AUDIO_MIN_HZ * (double)size / (double)rate);
    if (lo < 1) lo = 1;
    double *mag = re; /* reuse: log power per bin */
    for (size_t k = 0; k <= half; k++) {
        double p = re[k] * re[k] + im[k] * im[k];
        mag[k] = log(p + 1e-30);
    }
    size_t best = lo;
    for (size_t k = lo; k < half; k++)
        if (mag[k] > mag[best]) best = k;
    double a = mag[best - 1], b = mag[best], c = mag[best + 1];
    double denom = a - 2.0 * b + c;
    double delta = denom < 0.0 ? 0.5 * (a - c) / denom : 0.0;
    if (delta > 0.5) delta = 0.5;
    if (delta < -0.5) delta = -0.5;
    out->dominant_hz = ((double)best + delta) * (double)rate / (double)size;
    /* height over the median bin from half to one and a half times the
     * peak's frequency: a tone stands alone there (its harmonics are
     * further out), noise has neighbours as strong */
    size_t from = best / 2 > lo ? best / 2 : lo, to = best + best / 2;
    if (to > half) to = half;
    size_t band = to - from;
    memcpy(im, mag + from, band * sizeof *im);
    qsort(im, band, sizeof *im, compare_double);
    out->dominant_db = (b - im[band / 2]) * 10.0 / log(10.0);
    out->tonal = out->dominant_db >= 30.0;
    free(re);
    free(im);
}

static double step_rate(const int16_t *x, size_t n, uint32_t rate)
{
    if (n < 2) return -1.0;
    size_t changed = 0, runs = 0;
    int in_run = 0;
    for (size_t i = 1; i < n; i++) {
        if (x[i] != x[i - 1]) {
            changed++;
            if (!in_run) runs++;
            in_run = 1;
        } else {
            in_run = 0;
        }
    }
    if (!changed || changed * 2 > n) return -1.0;
    return (double)runs * (double)rate / (double)n;
}

double mh_audio_rms_dbfs(const int16_t *x, size_t n)
{
    if (!n) return -INFINITY;
    double sum = 0.0, sq = 0.0;
    for (size_t i = 0; i < n; i++) sum += x[i];
    double mean = sum / (double)n;
    for (size_t i = 0; i < n; i++) sq += ((double)x[i] - mean) * ((double)x[i] - mean);
    double rms = sqrt(sq / (double)n);
    return rms > 0.0 ? 20.0 * log10(rms / 32768.0) : -INFINITY;
}

void mh_audio_analyze(const int16_t *x, size_t n, uint32_t rate, mh_audio_stats *out)
{
    memset(out, 0, sizeof *out);
    out->peak_dbfs = out->rms_dbfs = -INFINITY;
    out->step_rate_hz = -1.0;
    if (!n || !x) return;
    double sum = 0.0;
    int32_t peak = 0;
    for (size_t i = 0; i < n; i++) {
        sum += x[i];
        int32_t a = x[i] < 0 ? -(int32_t)x[i] : x[i];
        if (a > peak) peak = a;
    }
    out->peak = peak;
    out->mean = sum / (double)n;
    double sq = 0.0;
    for (size_t i = 0; i < n; i++) sq += ((double)x[i] - out->mean) * ((double)x[i] - out->mean);
    out->rms = sqrt(sq / (double)n);
    if (peak) out->peak_dbfs = 20.0 * log10((double)peak / 32768.0);
    if (out->rms > 0.0) out->rms_dbfs = 20.0 * log10(out->rms / 32768.0);
    if (out->rms > 0.5) dominant(x, n, out->mean, rate, out);
    out->step_rate_hz = step_rate(x, n, rate);
}

void mh_audio_note(double hz, char *name, size_t size, double *cents)
{
    static const char *const names[12] = {"C", "C#", "D", "D#", "E", "F",
                                          "F#", "G", "G#", "A", "A#", "B"};
    if (hz <= 0.0) {
        snprintf(name, size, "-");
        *cents = 0.0;
        return;
    }
    double midi = 69.0 + 12.0 * log2(hz / 440.0);
    long nearest = lround(midi);
    *cents = (midi - (double)nearest) * 100.0;
    long octave = nearest / 12 - 1;
    long index = ((nearest % 12) + 12) % 12;
    if (nearest < 0) octave = (nearest - 11) / 12 - 1;
    snprintf(name, size, "%s%ld", names[index], octave);
}
