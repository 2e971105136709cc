/* pace.h - the window's sound card as the emulation's clock: a small
 * damped controller (plain C, no SDL) that turns the fill level of the
 * audio queue into a pacing trim for mh.observe/1 set_pace(). The
 * emulation makes samples at ratio x its nominal rate and the device
 * consumes them at its own (slightly different) clock; the controller
 * keeps the fill near the target, so the emulation runs exactly as fast
 * as the sound card plays: no drift, no underruns, no growing delay.
 *
 * Proportional on the (low-passed) fill error in seconds, with a slow
 * integral that learns the clocks' difference (critically damped: the
 * fill settles in a few seconds). The ratio is clamped to
 * FE_PACE_MIN .. FE_PACE_MAX, and the integral stops growing while
 * clamped (no wind-up).
 * Ownership: the caller's struct, no allocation. Threads: one caller at a
 * time (the audio callback). */
#ifndef FE_PACE_H
#define FE_PACE_H

#define FE_PACE_MIN 0.95
#define FE_PACE_MAX 1.05

typedef struct fe_pace {
    double target_s;   /* the fill to hold, seconds */
    double kp, ki;     /* per second of error: ratio offset; and per s^2 */
    double filtered_s; /* the fill, low-passed */
    double integral;   /* the learnt ratio offset (the clocks' difference) */
    double ratio;      /* the last output */
    int primed;
} fe_pace;

/* Starts at ratio 1.0 with a target fill of target_s seconds. */
void fe_pace_init(fe_pace *pace, double target_s);
/* Forgets the filter (not the learnt clock difference): after a pause or
 * warp, when playing starts again. The ratio goes back to 1.0 + integral. */
void fe_pace_restart(fe_pace *pace);
/* One measurement: fill_s seconds of sound queued, dt_s since the last
 * one. Returns the ratio to set. */
double fe_pace_update(fe_pace *pace, double fill_s, double dt_s);

#endif
