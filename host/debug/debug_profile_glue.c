/* debug_profile_glue.c - the debug engine's side of the profiler
 * (debug_profile.h): what the sync hook hands it at each instruction
 * boundary, and starting, stopping and reading it (mh.debug/1 profile_*).
 * [emu-thread] only. */
#include "debug_internal.h"

static uint8_t peek_byte(void *user, uint16_t address) { return dbg_peek(user, address); }

void dbg_profile_insn(mh_dbg *dbg, uint16_t pc)
{
    const mh_cpu6502 *cpu = dbg->cpu_state;
    dbg_profile_at at = {0};
    at.cycle = cpu->cycles + dbg->cycle_offset;
    at.pc = pc;
    at.s = cpu->s;
    at.x = cpu->x;
    at.y = cpu->y;
    at.peek = peek_byte;
    at.peek_user = dbg;
    dbg->mem->peek(dbg->mem_ctx, 0, pc, at.bytes, 3);
    /* ir is $00 after an interrupt sequence (BRK, IRQ, NMI or reset) */
    if (cpu->ir == 0x00 && dbg->profile->have_last) {
        uint8_t pushed[3];
        dbg->mem->peek(dbg->mem_ctx, 0, (uint16_t)(0x100 + (uint8_t)(cpu->s + 1)), pushed, 1);
        dbg->mem->peek(dbg->mem_ctx, 0, (uint16_t)(0x100 + (uint8_t)(cpu->s + 2)), pushed + 1, 1);
        dbg->mem->peek(dbg->mem_ctx, 0, (uint16_t)(0x100 + (uint8_t)(cpu->s + 3)), pushed + 2, 1);
        uint8_t vector[4]; /* NMI, reset */
        dbg->mem->peek(dbg->mem_ctx, 0, MH_CPU6502_VECTOR_NMI, vector, 4);
        if (pc == (uint16_t)(vector[2] | vector[3] << 8))
            at.reset = 1;
        else if (pushed[0] & MH_CPU6502_FLAG_B)
            at.interrupt = MH_ENTRY_BRK;
        else
            at.interrupt = pc == (uint16_t)(vector[0] | vector[1] << 8) ? MH_ENTRY_NMI
                                                                        : MH_ENTRY_IRQ;
        at.interrupt_cycles = cpu->t;
        at.resume = (uint16_t)(pushed[1] | pushed[2] << 8);
    }
    dbg_profile_step(dbg->profile, &at);
}

mh_status mh_dbg_profile_control(mh_dbg *dbg, int on, int reset)
{
    if (!dbg->profile && on) {
        dbg->profile = dbg_profile_new();
        if (!dbg->profile) return MH_ERR_NO_MEMORY;
    }
    if (dbg->profile) {
        if (reset) dbg_profile_reset(dbg->profile);
        dbg->profile->on = on != 0;
        dbg_profile_pause(dbg->profile);
    }
    dbg->profiling = dbg->profile && dbg->profile->on ? dbg->profile : NULL;
    dbg_arm_hooks(dbg);
    return MH_OK;
}

const mh_profile_view *mh_dbg_profile_view(mh_dbg *dbg)
{
    return dbg->profile ? dbg_profile_view(dbg->profile) : NULL;
}
