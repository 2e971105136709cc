/* cia6526_debug.c - decoded CIA state for debug tools (see cia6526.h). */
#include "cia6526.h"

#include <string.h>

static void timer_info(const m6526_timer *t, int is_b, m6526_timer_info *out)
{
    out->counter = t->counter;
    out->latch = t->latch;
    out->running = (t->cr & M6526_CR_START) != 0;
    out->oneshot = (t->cr & M6526_CR_ONESHOT) != 0;
    out->pb_on = (t->cr & M6526_CR_PBON) != 0;
    out->pb_toggle = (t->cr & M6526_CR_TOGGLE) != 0;
    out->pb_level = out->pb_toggle ? t->toggle : t->pulse;
    out->input = is_b ? (uint8_t)((t->cr & M6526_CRB_INMODE) >> 5)
                      : (uint8_t)((t->cr & M6526_CRA_CNT) ? M6526_INPUT_CNT
                                                               : M6526_INPUT_PHI2);
    out->underflows = t->underflows;
}

static void time_info(const uint8_t bcd[4], m6526_time *out)
{
    out->tenths = m6526_bcd(bcd[0]);
    out->seconds = m6526_bcd(bcd[1]);
    out->minutes = m6526_bcd(bcd[2]);
    out->hours = m6526_bcd(bcd[3] & 0x1Fu);
    out->pm = (bcd[3] & 0x80u) != 0;
}

void m6526_get_info(const m6526 *cia, m6526_info *info)
{
    memset(info, 0, sizeof *info);
    info->model = cia->model;
    timer_info(&cia->ta, 0, &info->ta);
    timer_info(&cia->tb, 1, &info->tb);
    time_info(cia->tod.time, &info->tod);
    time_info(cia->tod.alarm, &info->alarm);
    info->tod_running = !cia->tod.stopped;
    info->tod_latched = cia->tod.latched;
    info->tod_50hz = (cia->ta.cr & M6526_CRA_TOD50) != 0;
    info->icr_flags = cia->icr.flags;
    info->icr_mask = cia->icr.mask;
    info->irq = cia->icr.irq;
    info->sdr = cia->ser.sdr;
    info->sp_output = (cia->ta.cr & M6526_CRA_SPOUT) != 0;
    info->sp_bits_left = (uint8_t)((cia->ser.half_bits + 1u) / 2u);
    info->pra = cia->pr[0];
    info->prb = cia->pr[1];
    info->ddra = cia->ddr[0];
    info->ddrb = cia->ddr[1];
    info->pa_out = m6526_port_output(cia, M6526_PORT_A);
    info->pb_out = m6526_port_output(cia, M6526_PORT_B);
}
