/* cia6526_debug.c - decoded CIA state for debug tools (see cia6526.h). */
#include "cia6526.h"

#include <string.h>

static void timer_info(const mh_cia6526_timer *t, int is_b, mh_cia6526_timer_info *out)
{
    out->counter = t->counter;
    out->latch = t->latch;
    out->running = (t->cr & MH_CIA6526_CR_START) != 0;
    out->oneshot = (t->cr & MH_CIA6526_CR_ONESHOT) != 0;
    out->pb_on = (t->cr & MH_CIA6526_CR_PBON) != 0;
    out->pb_toggle = (t->cr & MH_CIA6526_CR_TOGGLE) != 0;
    out->pb_level = out->pb_toggle ? t->toggle : t->pulse;
    out->input = is_b ? (uint8_t)((t->cr & MH_CIA6526_CRB_INMODE) >> 5)
                      : (uint8_t)((t->cr & MH_CIA6526_CRA_CNT) ? MH_CIA6526_INPUT_CNT
                                                               : MH_CIA6526_INPUT_PHI2);
    out->underflows = t->underflows;
}

static void time_info(const uint8_t bcd[4], mh_cia6526_time *out)
{
    out->tenths = mh_cia6526_bcd(bcd[0]);
    out->seconds = mh_cia6526_bcd(bcd[1]);
    out->minutes = mh_cia6526_bcd(bcd[2]);
    out->hours = mh_cia6526_bcd(bcd[3] & 0x1Fu);
    out->pm = (bcd[3] & 0x80u) != 0;
}

void mh_cia6526_get_info(const mh_cia6526 *cia, mh_cia6526_info *info)
{
    memset(info, 0, sizeof *info);
    info->model = cia->model;
    timer_info(&cia->ta, 0, &info->ta);
    timer_info(&cia->tb, 1, &info->tb);
    time_info(cia->tod.time, &info->tod);
    time_info(cia->tod.alarm, &info->alarm);
    info->tod_running = !cia->tod.stopped;
    info->tod_latched = cia->tod.latched;
    info->tod_50hz = (cia->ta.cr & MH_CIA6526_CRA_TOD50) != 0;
    info->icr_flags = cia->icr.flags;
    info->icr_mask = cia->icr.mask;
    info->irq = cia->icr.irq;
    info->sdr = cia->ser.sdr;
    info->sp_output = (cia->ta.cr & MH_CIA6526_CRA_SPOUT) != 0;
    info->sp_bits_left = (uint8_t)((cia->ser.half_bits + 1u) / 2u);
    info->pra = cia->pr[0];
    info->prb = cia->pr[1];
    info->ddra = cia->ddr[0];
    info->ddrb = cia->ddr[1];
    info->pa_out = mh_cia6526_port_output(cia, MH_CIA6526_PORT_A);
    info->pb_out = mh_cia6526_port_output(cia, MH_CIA6526_PORT_B);
}
