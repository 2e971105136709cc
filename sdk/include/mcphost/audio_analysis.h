/* mcphost/audio_analysis.h - static helper library mcphost::audio:
 * measurements of a block of signed 16-bit mono samples, as the audio
 * tools report them (docs/tools-audio.md, "Analysis"): peak and RMS in
 * dBFS, the dominant frequency with how far it stands out, the step rate
 * of a sample-and-hold signal (noise), and the nearest note.
 *
 * Pure functions: no allocation kept, no state; [thread-safe].
 */
#ifndef MCPHOST_AUDIO_ANALYSIS_H
#define MCPHOST_AUDIO_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mh_audio_stats {
    int32_t peak;            /* largest |sample| */
    double peak_dbfs;        /* 20 log10(peak / 32768); -INFINITY when silent */
    double rms;              /* of the samples, mean removed */
    double rms_dbfs;
    double mean;
    double dominant_hz;      /* 0 when silent */
    double dominant_db;      /* the peak's height over the median spectrum */
    int tonal;               /* dominant_db >= 30: a clear pitch */
    double step_rate_hz;     /* level steps per second of a sample-and-hold
                                signal (noise); < 0 when the signal is not one */
} mh_audio_stats;

void mh_audio_analyze(const int16_t *x, size_t n, uint32_t rate, mh_audio_stats *out);
/* RMS (mean removed) of x in dBFS; -INFINITY when silent. */
double mh_audio_rms_dbfs(const int16_t *x, size_t n);
/* The nearest equal-tempered note (A4 = 440 Hz) as "A4" and the cents
 * off; "-" and 0 for hz <= 0. */
void mh_audio_note(double hz, char *name, size_t size, double *cents);

#ifdef __cplusplus
}
#endif
#endif
