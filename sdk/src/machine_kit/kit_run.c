/* kit_run.c - the machine kit's run loop and debug-cart exit
 * (mcphost/machine_kit.h).
 *
 * Exit: the debug-cart write must stop the CPU right after its cycle, but
 * the core's run() has no "stop now" input in its hook-free loops. So the
 * request switches the CPU to the kit's halted bus: reads pull RDY low and
 * tick nothing (the CPU stalls at its next read, as a hardware single-step
 * circuit does), writes still in flight are real cycles through the
 * machine's bus. The core then counts stalled cycles until its chunk ends;
 * mh_kit_undo_exit_stall() takes those back off the CPU's clock, leaving the
 * CPU exactly where the writing instruction ended.
 */
#include "mcphost/machine_kit.h"

void mh_kit_init(mh_machine_kit *kit, mh_cpu6502 *cpu, mh_kit_state *state,
                 const mh_kit_run_ops *ops, void *machine, mh_cpu6502_read_fn bus_read,
                 mh_cpu6502_write_fn bus_write, void *bus_user, uint32_t chunk)
{
    kit->cpu = cpu;
    kit->state = state;
    kit->ops = ops;
    kit->machine = machine;
    kit->chunk = chunk ? chunk : MH_KIT_DEFAULT_CHUNK;
    kit->bus_read = bus_read;
    kit->bus_write = bus_write;
    kit->bus_user = bus_user;
    kit->halted_sync = NULL;
    kit->run_cpu = NULL;
}

void mh_kit_set_run_cpu(mh_machine_kit *kit, uint32_t (*run_cpu)(void *machine, uint32_t cycles))
{
    kit->run_cpu = run_cpu;
}

void mh_kit_state_reset(mh_kit_state *state)
{
    state->cycles = 0;
    state->exit_end = 0;
    state->exit_code = 0;
    state->exit_pending = 0;
    state->exit_from_cpu = 0;
}

/* ---- the halted bus ---- */

static uint8_t halted_read(void *user, uint16_t addr)
{
    mh_machine_kit *kit = user;
    (void)addr;
    kit->cpu->rdy = 0;
    return 0xFF;
}

static void halted_write(void *user, uint16_t addr, uint8_t value)
{
    mh_machine_kit *kit = user;
    kit->state->exit_end = kit->cpu->cycles + 1; /* a real cycle */
    kit->bus_write(kit->bus_user, addr, value);
    kit->cpu->rdy = 0;
}

int mh_kit_halted(const mh_machine_kit *kit) { return kit->state->exit_from_cpu; }

void mh_kit_request_exit(mh_machine_kit *kit, uint8_t code, int from_cpu)
{
    mh_kit_state *state = kit->state;
    if (state->exit_pending) {
        if (state->exit_from_cpu && from_cpu) state->exit_end = kit->cpu->cycles + 1;
        return;
    }
    state->exit_pending = 1;
    state->exit_code = code;
    if (!from_cpu) return;
    state->exit_from_cpu = 1;
    state->exit_end = kit->cpu->cycles + 1; /* the core counts this cycle after the callback */
    mh_cpu6502_set_bus(kit->cpu, halted_read, halted_write, kit);
    /* The halted fetch must not reach a debugger's sync hook: that
     * instruction does not run in this run. */
    kit->halted_sync = kit->cpu->links.sync;
    kit->cpu->links.sync = NULL;
}

uint32_t mh_kit_undo_exit_stall(mh_machine_kit *kit)
{
    mh_kit_state *state = kit->state;
    mh_cpu6502 *cpu = kit->cpu;
    if (!state->exit_from_cpu) return 0;
    uint64_t stalled = cpu->cycles - state->exit_end;
    cpu->cycles = state->exit_end;
    cpu->rdy = kit->ops->rdy_level ? kit->ops->rdy_level(kit->machine) : 1;
    cpu->stalled = 0;
    mh_cpu6502_set_bus(cpu, kit->bus_read, kit->bus_write, kit->bus_user);
    cpu->links.sync = kit->halted_sync;
    state->exit_from_cpu = 0;
    return (uint32_t)stalled;
}

/* ---- the loop ---- */

/* Why the CPU stopped early, as a run stop; MH_RUN_BUDGET when it did not. */
static uint32_t cpu_stop(const mh_cpu6502 *cpu)
{
    switch (cpu->stop_reason) {
    case MH_CPU6502_STOP_NONE: return MH_RUN_BUDGET;
    case MH_CPU6502_STOP_JAM: return MH_RUN_JAMMED;
    default: return MH_RUN_BREAK;
    }
}

/* A chunk of CPU cycles: the machine's own engine when it has one. */
static uint32_t run_cpu(const mh_machine_kit *kit, uint32_t cycles)
{
    return kit->run_cpu ? kit->run_cpu(kit->machine, cycles) : mh_cpu6502_run(kit->cpu, cycles);
}

/* Counts cycles the core ran (less a debug-cart halt's stall). */
static uint32_t count(mh_machine_kit *kit, uint32_t ran, uint64_t *done)
{
    if (kit->state->exit_pending) ran -= mh_kit_undo_exit_stall(kit);
    *done += ran;
    kit->state->cycles += ran;
    return ran;
}

mh_status mh_kit_run(mh_machine_kit *kit, uint64_t max_cycles, mh_run_result *result)
{
    mh_cpu6502 *cpu = kit->cpu;
    mh_kit_state *state = kit->state;
    const mh_kit_run_ops *ops = kit->ops;
    const int boundary = (ops->flags & MH_KIT_RUN_BOUNDARY) != 0;
    uint64_t done = 0;
    uint32_t stop = MH_RUN_BUDGET;
    int finishing = 0; /* the budget is used: finish the instruction */
    while (!state->exit_pending) {
        uint32_t chunk;
        if (done >= max_cycles) {
            if (!boundary || mh_cpu6502_at_boundary(cpu) || cpu->jammed) break;
            finishing = 1;
            chunk = 1;
        } else {
            uint64_t left = max_cycles - done;
            chunk = left < kit->chunk ? (uint32_t)left : kit->chunk;
            if (ops->chunk_limit) chunk = ops->chunk_limit(kit->machine, chunk);
            if (!chunk) chunk = 1;
        }
        uint32_t ran = count(kit, run_cpu(kit, chunk), &done);
        if (state->exit_pending) break;
        if ((stop = cpu_stop(cpu)) != MH_RUN_BUDGET) break;
        if (boundary && !finishing && !mh_cpu6502_at_boundary(cpu) && !cpu->jammed) {
            /* End the chunk at an instruction boundary (service needs one). */
            count(kit, mh_cpu6502_step(cpu), &done);
            if (state->exit_pending) break;
            if ((stop = cpu_stop(cpu)) != MH_RUN_BUDGET) break;
        }
        if (ops->service) ops->service(kit->machine, ran);
    }
    if (state->exit_pending) {
        stop = MH_RUN_EXIT;
        result->exit_code = state->exit_code;
        state->exit_pending = 0;
    } else if (cpu->jammed) {
        stop = MH_RUN_JAMMED;
    }
    if (ops->run_end) ops->run_end(kit->machine);
    result->cycles = done;
    result->stop = stop;
    return MH_OK;
}
