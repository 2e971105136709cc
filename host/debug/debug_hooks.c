/* debug_hooks.c - the debug engine's CPU hooks: exec breakpoints, check
 * breakpoints and run goals in the sync hook (before each instruction),
 * watchpoints in the access hook (after each bus access), and the names a
 * condition can use. [emu-thread], inside the machine's run(). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "debug_internal.h"
#include "debug_trace.h"
#include "mcphost/disasm6502.h"

#define OP_JSR 0x20
#define OP_RTS 0x60
#define OP_RTI 0x40
#define OP_BRK_OR_INTERRUPT 0x00 /* ir after BRK, IRQ, NMI or reset */

uint8_t dbg_peek(mh_dbg *dbg, uint16_t address)
{
    uint8_t byte = 0;
    dbg->mem->peek(dbg->mem_ctx, 0, address, &byte, 1);
    return byte;
}

/* ---- condition names ---- */

typedef enum name_id {
    N_A, N_X, N_Y, N_S, N_P, N_PC,
    N_FC, N_FZ, N_FI, N_FD, N_FV, N_FN,
    N_VALUE, N_ADDRESS, N_WRITE, N_CYCLES, N_FRAME, N_RASTER, N_RASTER_CYCLE, N_MEM, N_OPCODE
} name_id;

static const struct {
    const char *name;
    name_id id;
    int indexed;
} names[] = {
    {"a", N_A, 0},           {"x", N_X, 0},          {"y", N_Y, 0},
    {"s", N_S, 0},           {"sp", N_S, 0},         {"p", N_P, 0},
    {"pc", N_PC, 0},         {"c", N_FC, 0},         {"z", N_FZ, 0},
    {"i", N_FI, 0},          {"d", N_FD, 0},         {"v", N_FV, 0},
    {"n", N_FN, 0},          {"value", N_VALUE, 0},  {"address", N_ADDRESS, 0},
    {"write", N_WRITE, 0},   {"cycles", N_CYCLES, 0}, {"frame", N_FRAME, 0},
    {"raster", N_RASTER, 0}, {"raster_cycle", N_RASTER_CYCLE, 0},
    {"mem", N_MEM, 1},       {"opcode", N_OPCODE, 0},
};

int dbg_resolve_name(void *user, const char *name, size_t length, int32_t *id, int *indexed)
{
    mh_dbg *dbg = user;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strlen(names[i].name) != length || strncasecmp(names[i].name, name, length) != 0)
            continue;
        if ((names[i].id == N_RASTER || names[i].id == N_RASTER_CYCLE || names[i].id == N_FRAME) &&
            !dbg->video)
            return 0; /* no video chip: the name is unknown here */
        *id = (int32_t)names[i].id;
        *indexed = names[i].indexed;
        return 1;
    }
    return 0;
}

static uint64_t cycles_now(const mh_dbg *dbg, const mh_cpu6502 *cpu)
{
    return cpu->cycles + dbg->cycle_offset;
}

int64_t dbg_fetch_name(void *user, int32_t id, int64_t index)
{
    mh_dbg *dbg = user;
    const mh_cpu6502 *cpu = dbg->cpu_state;
    uint32_t line = 0, cycle = 0;
    switch ((name_id)id) {
    case N_A: return cpu->a;
    case N_X: return cpu->x;
    case N_Y: return cpu->y;
    case N_S: return cpu->s;
    case N_P: return cpu->p;
    case N_PC: return dbg->in_access ? dbg->current.pc : cpu->pc;
    case N_FC: return (cpu->p & MH_CPU6502_FLAG_C) != 0;
    case N_FZ: return (cpu->p & MH_CPU6502_FLAG_Z) != 0;
    case N_FI: return (cpu->p & MH_CPU6502_FLAG_I) != 0;
    case N_FD: return (cpu->p & MH_CPU6502_FLAG_D) != 0;
    case N_FV: return (cpu->p & MH_CPU6502_FLAG_V) != 0;
    case N_FN: return (cpu->p & MH_CPU6502_FLAG_N) != 0;
    case N_VALUE: return dbg->in_access ? dbg->current.value : 0;
    case N_ADDRESS: return dbg->in_access ? dbg->current.address : 0;
    case N_WRITE: return dbg->in_access ? dbg->current.write : 0;
    case N_CYCLES: return (int64_t)cycles_now(dbg, cpu);
    case N_FRAME: {
        mh_video_frame frame = {sizeof frame, 0, 0, 0, NULL, NULL, 0, 0, 0.0};
        return dbg->video->frame(dbg->video_ctx, &frame) == MH_OK ? (int64_t)frame.frame_number
                                                                   : 0;
    }
    case N_RASTER:
    case N_RASTER_CYCLE:
        dbg->video->beam(dbg->video_ctx, &line, &cycle);
        return id == N_RASTER ? line : cycle;
    case N_MEM: return dbg_peek(dbg, (uint16_t)index);
    case N_OPCODE: return dbg_peek(dbg, cpu->pc);
    }
    return 0;
}

/* ---- firing ---- */

/* Whether bp fires now (condition true, ignore count used up); counts the
 * hit, logs a tracepoint (which never stops) and marks a temporary one. */
static int fires(mh_dbg *dbg, dbg_bp *bp, mh_dbg_reason reason, const char *detail)
{
    if (bp->condition && mh_expr_eval(bp->condition, dbg_fetch_name, dbg) == 0) return 0;
    bp->hits++;
    if (bp->hits <= bp->ignore_count) return 0;
    bp->fired++;
    if (bp->flags & MH_BP_TEMPORARY) bp->dead = 1;
    if (bp->flags & MH_BP_LOG_ONLY) {
        dbg_trace_add(dbg, bp, detail, dbg->in_access);
        return 0;
    }
    if (dbg->pending == MH_DBG_NONE) {
        dbg->pending = reason;
        dbg->pending_bp = bp;
        dbg->pending_bp_id = bp->id;
        snprintf(dbg->pending_detail, sizeof dbg->pending_detail, "%s", detail ? detail : "");
        dbg->pending_has_access = dbg->in_access;
        if (dbg->in_access) dbg->pending_access = dbg->current;
    }
    return 1;
}

static int check_exec(mh_dbg *dbg, uint16_t pc)
{
    int stop = 0;
    for (size_t i = 0; i < dbg->bps.count; i++) {
        dbg_bp *bp = dbg->bps.items[i];
        if ((bp->kinds & MH_BP_EXEC) && bp->enabled && !bp->dead && pc >= bp->start &&
            pc <= bp->end)
            stop |= fires(dbg, bp, MH_DBG_BREAKPOINT, NULL);
    }
    return stop;
}

static int check_plugins(mh_dbg *dbg)
{
    int stop = 0;
    for (size_t i = 0; i < dbg->bps.count; i++) {
        dbg_bp *bp = dbg->bps.items[i];
        if (!(bp->kinds & MH_BP_CHECK) || !bp->enabled || bp->dead) continue;
        char detail[256] = "";
        if (bp->check(bp->check_user, dbg->session, detail, sizeof detail))
            stop |= fires(dbg, bp, MH_DBG_CHECK, detail);
    }
    return stop;
}

/* ---- goals ---- */

/* A run to an address stops only where an instruction starts: when the one
 * that just ran (it started at last_boundary) covered the goal address, say
 * so once (execution_run_until warns; the same bytes may still start an
 * instruction on another path, as in the BIT-skip trick, so the run goes
 * on). */
static void note_straddle(mh_dbg *dbg, uint16_t goal)
{
    const uint16_t start = dbg->last_boundary;
    const unsigned into = (uint16_t)(goal - start);
    if (into == 0 || into > 2 || atomic_load_explicit(&dbg->goal_straddle, memory_order_relaxed))
        return;
    if (into < mh_op6502_get(dbg_peek(dbg, start))->length)
        atomic_store(&dbg->goal_straddle, 1ull << 32 | (uint64_t)goal << 16 | start);
}

/* Called at every instruction boundary of a run with a goal; cpu->ir and
 * cpu->ipc still describe the instruction just completed. */
static int goal_reached(mh_dbg *dbg, const mh_cpu6502 *cpu, uint16_t pc)
{
    switch (dbg->goal.goal) {
    case MH_GOAL_STEP:
        return --dbg->goal_left == 0;
    case MH_GOAL_STEP_OVER:
        if (dbg->step_over_waiting) {
            if (pc != dbg->step_over_pc || cpu->s != dbg->step_over_s) return 0;
            dbg->step_over_waiting = 0;
            /* A JSR counts as the instruction it is; an interrupt came
             * between instructions and counts as none. */
            return dbg->step_over_counts && --dbg->goal_left == 0;
        }
        if (cpu->ir == OP_JSR) {
            /* Entered a subroutine: it counts as one instruction when it
             * returns past the JSR with the stack as before. */
            dbg->step_over_waiting = 1;
            dbg->step_over_counts = 1;
            dbg->step_over_pc = (uint16_t)(cpu->ipc + 3);
            dbg->step_over_s = (uint8_t)(cpu->s + 2);
            return 0;
        }
        if (cpu->ir == OP_BRK_OR_INTERRUPT) {
            /* An interrupt (or BRK) was taken: run its handler through. It
             * returns to the instruction it interrupted; if that is not the
             * one this step stood on, an instruction ran before it and
             * counts once the handler is done. */
            uint8_t s = cpu->s;
            dbg->step_over_waiting = 1;
            dbg->step_over_pc = (uint16_t)(dbg_peek(dbg, (uint16_t)(0x100 + (uint8_t)(s + 2))) |
                                           dbg_peek(dbg, (uint16_t)(0x100 + (uint8_t)(s + 3))) << 8);
            dbg->step_over_s = (uint8_t)(s + 3);
            dbg->step_over_counts = dbg->step_over_pc != dbg->last_boundary;
            return 0;
        }
        return --dbg->goal_left == 0;
    case MH_GOAL_STEP_OUT:
        /* S above the level the step started at: the current subroutine (or
         * interrupt handler) has returned. An interrupt taken meanwhile
         * returns to the starting level, not above it. */
        return (cpu->ir == OP_RTS || cpu->ir == OP_RTI) &&
               (uint8_t)(cpu->s - dbg->step_out_s) >= 1 && (uint8_t)(cpu->s - dbg->step_out_s) < 0x80;
    case MH_GOAL_ADDRESS:
        if (pc == dbg->goal.address) return 1;
        note_straddle(dbg, dbg->goal.address);
        return 0;
    case MH_GOAL_FRAMES: {
        uint32_t line = 0, cycle = 0;
        if (!dbg->video) return 0;
        dbg->video->beam(dbg->video_ctx, &line, &cycle);
        int wrapped = line < dbg->last_line;
        dbg->last_line = line;
        return wrapped && --dbg->goal_left == 0;
    }
    default:
        return 0;
    }
}

/* ---- history ---- */

void dbg_record_insn(mh_dbg *dbg, uint16_t pc)
{
    const mh_cpu6502 *cpu = dbg->cpu_state;
    mh_insn_record *r = dbg_ring_push(&dbg->history);
    r->cycle = cycles_now(dbg, cpu);
    r->pc = pc;
    r->a = cpu->a;
    r->x = cpu->x;
    r->y = cpu->y;
    r->s = cpu->s;
    r->p = cpu->p;
    dbg->mem->peek(dbg->mem_ctx, 0, pc, r->bytes, 3);
}

static void record_write(mh_dbg *dbg, uint16_t address, uint8_t old, uint8_t value)
{
    const mh_cpu6502 *cpu = dbg->cpu_state;
    mh_write_record *r = dbg_ring_push(&dbg->writes);
    r->cycle = cycles_now(dbg, cpu);
    r->pc = cpu->ipc;
    r->address = address;
    r->old_value = old;
    r->value = value;
    uint32_t line = 0, cycle = 0;
    if (dbg->video) dbg->video->beam(dbg->video_ctx, &line, &cycle);
    r->line = (uint16_t)line;
    r->line_cycle = (uint16_t)cycle;
    dbg_pairs_add(&dbg->writers, r->pc, address);
}

/* ---- the hooks ---- */

/* Whether the address reads back the byte just written to it: a read of
 * it reaches RAM (where the write went), so the peek-back can be spared.
 * Not at $00/$01 (a 6510's port answers there in the CPU), nor where a
 * read reaches I/O, ROM or anything else. */
static int reads_back_written(const mh_dbg *dbg, uint16_t address)
{
    return dbg->ram_space != DBG_NO_SPACE && address >= 2 &&
           dbg->mem->bank_at(dbg->mem_ctx, address) == dbg->ram_space;
}

int dbg_sync_hook(void *user, uint16_t pc)
{
    mh_dbg *dbg = user;
    const mh_cpu6502 *cpu = dbg->cpu_state;
    int stop = 0;
    if (dbg->exec_map[pc]) stop |= check_exec(dbg, pc);
    if (dbg->armed_check) stop |= check_plugins(dbg);
    if (dbg->goal_active && goal_reached(dbg, cpu, pc) && !stop) {
        dbg->pending = MH_DBG_GOAL;
        stop = 1;
    }
    dbg->last_boundary = pc;
    /* An instruction stopped before is recorded when the next run starts
     * it (mh_dbg_begin), since this hook is not called again for it. */
    if (dbg->history.data && !stop) dbg_record_insn(dbg, pc);
    if (dbg->trace_sync && !stop) dbg_trace_sync(dbg, pc);
    if (dbg->profiling && !stop) dbg_profile_insn(dbg, pc);
    return stop;
}

int dbg_access_hook(void *user, uint16_t address, uint8_t value, int write)
{
    mh_dbg *dbg = user;
    if (write && dbg->profiling) dbg_profile_write(dbg->profiling, address);
    uint8_t watch = dbg->watch_map[address];
    if (!watch && !(write && (dbg->writes.data || dbg->trace_writes))) return 0;
    int changed = 0;
    uint8_t old = dbg->shadow[address];
    if (write) {
        /* The shadow holds what a read of every write- or change-watched
         * byte gave before this write (the hook runs after it). Read it
         * back now for the next one: an I/O register may read otherwise
         * than the byte written ($D020 reads $F0 | colour), and a change
         * is a change of what the address reads. */
        uint8_t now = value;
        if (!reads_back_written(dbg, address)) dbg->mem->peek(dbg->mem_ctx, 0, address, &now, 1);
        changed = (watch & WATCH_CHANGE) && old != now;
        dbg->shadow[address] = now;
        if (dbg->writes.data) record_write(dbg, address, old, value);
        if (dbg->trace_writes) dbg_trace_write(dbg, address, old, value);
        if (!(watch & WATCH_WRITE) && !changed) return 0;
    } else if (!(watch & WATCH_READ)) {
        return 0;
    }
    dbg->current.address = address;
    dbg->current.value = value;
    dbg->current.old_value = old;
    dbg->current.write = write;
    dbg->current.pc = dbg->cpu_state->ipc;
    dbg->in_access = 1;
    int stop = 0;
    for (size_t i = 0; i < dbg->bps.count; i++) {
        dbg_bp *bp = dbg->bps.items[i];
        if (!bp->enabled || bp->dead || address < bp->start || address > bp->end) continue;
        int match = write ? ((bp->kinds & MH_BP_WRITE) || ((bp->kinds & MH_BP_CHANGE) && changed))
                          : (bp->kinds & MH_BP_READ) != 0;
        if (match) stop |= fires(dbg, bp, MH_DBG_WATCHPOINT, NULL);
    }
    dbg->in_access = 0;
    return stop;
}
