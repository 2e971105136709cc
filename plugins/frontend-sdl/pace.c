/* pace.c - the controller of pace.h. */
#include "pace.h"

#define FILTER_S 0.2 /* the fill's low-pass time constant */
#define KP 0.5       /* 1/s: 10 ms below the target runs 0.5% faster */

void fe_pace_init(fe_pace *p, double target_s)
{
    p->target_s = target_s;
    p->kp = KP;
    p->ki = KP * KP / 4; /* critically damped: s^2 + kp s + ki */
    p->integral = 0;
    fe_pace_restart(p);
}

void fe_pace_restart(fe_pace *p)
{
    p->primed = 0;
    p->filtered_s = p->target_s;
    p->ratio = 1.0 + p->integral;
}

static double clamp(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

double fe_pace_update(fe_pace *p, double fill_s, double dt_s)
{
    if (!(dt_s > 0) || dt_s > 1.0) dt_s = 0.01; /* a first or a late call */
    if (!p->primed) {
        p->filtered_s = fill_s;
        p->primed = 1;
    } else {
        double a = dt_s / (FILTER_S + dt_s);
        p->filtered_s += a * (fill_s - p->filtered_s);
    }
    double error = p->target_s - p->filtered_s; /* positive: too little queued, run faster */
    double out = 1.0 + p->kp * error + p->integral;
    double next = p->integral + p->ki * error * dt_s;
    /* integrate only when it does not push further into the clamp */
    if ((out < FE_PACE_MAX || next < p->integral) && (out > FE_PACE_MIN || next > p->integral))
        p->integral = clamp(next, FE_PACE_MIN - 1.0, FE_PACE_MAX - 1.0);
    p->ratio = clamp(out, FE_PACE_MIN, FE_PACE_MAX);
    return p->ratio;
}
