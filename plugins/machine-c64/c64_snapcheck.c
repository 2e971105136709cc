/* c64_snapcheck.c - whether the state in a snapshot blob is one this C64
 * can be in, before c64_snapshot_blob_load() restores it.
 *
 * A blob's checksum only proves it is whole, not that mcphost wrote it: a
 * file anyone can write must not make the chips index past their tables
 * (raster line 46051 of 312, a video counter past colour RAM, an audio ring
 * position past the ring). Fields fixed by the model and clock must equal the
 * loading machine's (the header already says both models match); counters
 * and positions must lie in the range the chips keep them in. Found with
 * tests/fuzz/fuzz_snapshot.c. */
#include <stdio.h>

#include "c64.h"

#define FAIL(...)                                   \
    do {                                            \
        snprintf(problem, problem_size, __VA_ARGS__); \
        return -1;                                  \
    } while (0)

static int vic_ok(const m6569 *live, const m6569 *v, char *problem, size_t problem_size)
{
    if (v->model != live->model || v->timing != live->timing ||
        v->cycles_per_line != live->cycles_per_line ||
        v->lines_per_frame != live->lines_per_frame || v->fb_height != live->fb_height ||
        v->fb_first_line != live->fb_first_line)
        FAIL("the VIC-II timing is not this model's");
    if (v->raster >= v->lines_per_frame)
        FAIL("VIC-II raster line %u of %u", (unsigned)v->raster, (unsigned)v->lines_per_frame);
    if (v->cycle < 1 || v->cycle > v->cycles_per_line)
        FAIL("VIC-II cycle %u of %u", (unsigned)v->cycle, (unsigned)v->cycles_per_line);
    if (v->fb_row < -1 || v->fb_row >= (int)v->fb_height)
        FAIL("VIC-II framebuffer row %d", (int)v->fb_row);
    if (v->vc > 1023 || v->vcbase > 1023 || v->rc > 7 || v->vmli > 63)
        FAIL("VIC-II video counters (VC %u, VCBASE %u, RC %u, VMLI %u)", (unsigned)v->vc,
             (unsigned)v->vcbase, (unsigned)v->rc, (unsigned)v->vmli);
    for (unsigned i = 0; i < 8; i++) {
        if (v->mc[i] > 63 || v->mcbase[i] > 63)
            FAIL("VIC-II sprite %u data counter (MC %u, MCBASE %u)", i, (unsigned)v->mc[i],
                 (unsigned)v->mcbase[i]);
        if (v->spr_xtick[i] > v->cycles_per_line || v->spr_xoff[i] > 7)
            FAIL("VIC-II sprite %u position (cycle %u, pixel %u)", i, (unsigned)v->spr_xtick[i],
                 (unsigned)v->spr_xoff[i]);
        /* the held pixel indexes a 4-entry colour table */
        if (v->spr_hold_val[i] > 3)
            FAIL("VIC-II sprite %u held pixel %u", i, (unsigned)v->spr_hold_val[i]);
    }
    return 0;
}

static int cia_ok(const char *name, const m6526 *live, const m6526 *c, char *problem,
                  size_t problem_size)
{
    if (c->model != live->model || c->tod.clock_hz != live->tod.clock_hz ||
        c->tod.pin_hz != live->tod.pin_hz || c->tod.external != live->tod.external)
        FAIL("the %s model or clocks are not this machine's", name);
    return 0;
}

#define OUTPUT_DC_MAX (1 << 28) /* 2^20 sample units: far beyond any real output */

static int sid_ok(const c64_sid *live, const c64_sid *s, char *problem, size_t problem_size)
{
    const m6581 *lc = &live->chip, *c = &s->chip;
    if (s->model != live->model || s->sound != live->sound || c->model != lc->model ||
        c->clock_hz != lc->clock_hz || c->sample_rate != lc->sample_rate ||
        c->wave_zero != lc->wave_zero || c->voice_dc != lc->voice_dc ||
        c->mixer_dc != lc->mixer_dc || c->hp_k != lc->hp_k)
        FAIL("the SID model or clocks are not this machine's");
    if (s->ring_read >= C64_AUDIO_RING || s->ring_count > C64_AUDIO_RING ||
        c->ring_read >= M6581_RING_SIZE || c->ring_count > M6581_RING_SIZE)
        FAIL("SID audio ring position");
    for (unsigned i = 0; i < 3; i++)
        if (c->tap_read[i] >= M6581_TAP_SIZE || c->tap_count[i] > M6581_TAP_SIZE)
            FAIL("SID voice %u tap position", i + 1);
    /* The oscillators' registers keep their chip widths: wider values
     * reach the output multiply (a held output of 2^31 overflowed it;
     * fuzz_snapshot). */
    for (unsigned i = 0; i < 3; i++) {
        const m6581_voice *v = &c->voice[i];
        if (v->acc > 0xFFFFFFu || v->acc_prev > 0xFFFFFFu || v->freq > 0xFFFFu ||
            v->pw > 0xFFFu || v->lfsr > 0x7FFFFFu || v->held_out > 0xFFFu ||
            v->rate_counter > 0x7FFFu || v->rate_period > 0x7FFFu)
            FAIL("SID voice %u oscillator or envelope register out of range", i + 1);
        /* the envelope pipeline's counters stay within their few cycles */
        if (v->env_state > M6581_ENV_RELEASE || v->env_next > M6581_ENV_RELEASE ||
            v->state_pipe > 3 || v->step_pipe > 4 || v->exp_pipe > 2 || v->rate_hit > 1)
            FAIL("SID voice %u envelope pipeline state out of range", i + 1);
    }
    const int32_t state[3] = {c->vhp, c->vbp, c->vlp};
    for (unsigned i = 0; i < 3; i++)
        if (state[i] > M6581_FILTER_STATE_MAX || state[i] < -M6581_FILTER_STATE_MAX)
            FAIL("SID filter state %d", (int)state[i]);
    /* The output high-pass's DC tracker follows the mixed sample (<< 8);
     * near the int32 limits its next update overflows (fuzz_snapshot). */
    if (c->hp_lp > OUTPUT_DC_MAX || c->hp_lp < -OUTPUT_DC_MAX)
        FAIL("SID output DC tracker %d", (int)c->hp_lp);
    /* The resampler averages rs_count cycles per output sample (about
     * clock / rate); a count that wraps to 0 divides by zero. */
    if (c->rs_pos >= c->clock_hz || c->rs_count > c->clock_hz / c->sample_rate + 1 ||
        c->rs_sum > ((int64_t)c->rs_count << 27) || c->rs_sum < -((int64_t)c->rs_count << 27))
        FAIL("SID resampler state (position %u, %u cycles)", (unsigned)c->rs_pos,
             (unsigned)c->rs_count);
    return 0;
}

/* The SID catches up with the VIC-II's clock at its next access. A blob
 * saved between runs has the two equal; far apart, the catch-up would
 * clock the SID for hours (found by fuzz_snapshot as a hang). */
#define MAX_CLOCK_SKEW 1000000u /* about a second of machine time */

static int clocks_ok(const c64_snapshot *snap, char *problem, size_t problem_size)
{
    uint64_t ticks = snap->vic.ticks, sid = snap->sid.cycles;
    uint64_t skew = ticks > sid ? ticks - sid : sid - ticks;
    if (skew > MAX_CLOCK_SKEW)
        FAIL("the SID clock is %llu cycles from the VIC-II's", (unsigned long long)skew);
    return 0;
}

static int plain_ok(const c64_plain *p, char *problem, size_t problem_size)
{
    if (p->fb_back > 1 || p->vic_bank > 3) FAIL("framebuffer or VIC bank number");
    if (p->typed.head >= MH_KERNAL_QUEUE_SIZE || p->typed.count > MH_KERNAL_QUEUE_SIZE)
        FAIL("keyboard queue position");
    return 0;
}

int c64_snapshot_state_ok(const c64 *m, const c64_snapshot *snap, char *problem,
                          size_t problem_size)
{
    if (snap->cpu.model != m->cpu.model) {
        snprintf(problem, problem_size, "the CPU model is not this machine's");
        return 0;
    }
    if (!mh_cpu6502_state_valid(&snap->cpu)) {
        snprintf(problem, problem_size, "the CPU's micro-state");
        return 0;
    }
    return vic_ok(&m->vic, &snap->vic, problem, problem_size) == 0 &&
           cia_ok("CIA 1", &m->cia1, &snap->cia1, problem, problem_size) == 0 &&
           cia_ok("CIA 2", &m->cia2, &snap->cia2, problem, problem_size) == 0 &&
           sid_ok(&m->sid, &snap->sid, problem, problem_size) == 0 &&
           clocks_ok(snap, problem, problem_size) == 0 &&
           plain_ok(&snap->p, problem, problem_size) == 0;
}
