/* cpu6502.c - the public CPU API: init, reset, tick/run/step, links,
 * snapshot restore and the I/O port helpers. The cycle engine itself is in
 * cpu6502_core.inc.h (instantiated by cpu6502_exec.c). */
#include <stddef.h>
#include <string.h>

#include "cpu6502_internal.h"
#include "cpu6502_ops.h"

/* Pins each model's port has (bit n = Pn). */
static const uint8_t port_pins[3] = {
    0x00, /* 6502: no port */
    0x3F, /* 6510: P0-P5 */
    0xDF, /* 7501/8501: P0-P4, P6, P7 (no P5) */
};

/* Cycles a pinless port bit keeps its charge. The 6510's bits 6-7 fade
 * after "some hundred milliseconds" (VICE testprogs CPU/cpuport: about
 * 200 ms measured on a C64C; VICE uses 350000 cycles for the 6510). The
 * 7501's missing P5 is not modelled (0). */
static const uint32_t port_fade_cycles[3] = {0, 350000u, 0};

mh_status mh_cpu6502_init(mh_cpu6502 *cpu, const mh_cpu6502_desc *desc)
{
    if (!cpu || !desc) return MH_ERR_INVALID_ARGUMENT;
    if ((unsigned)desc->model > MH_CPU6502_MODEL_7501) return MH_ERR_INVALID_ARGUMENT;
    if ((desc->read == NULL) != (desc->write == NULL)) return MH_ERR_INVALID_ARGUMENT;
    if (!desc->read && !desc->memory) return MH_ERR_INVALID_ARGUMENT;

    memset(cpu, 0, sizeof *cpu);
    cpu->model = (uint8_t)desc->model;
    cpu->links.read = desc->read;
    cpu->links.write = desc->write;
    cpu->links.user = desc->user;
    cpu->links.memory = desc->memory;
    cpu->links.port_input = desc->port_input;
    cpu->port.pins = port_pins[desc->model];
    cpu->port.input = cpu->port.pins; /* inputs pulled up */
    cpu->port.fade_cycles = port_fade_cycles[desc->model];
    cpu->rdy = 1;
    cpu->p = MH_CPU6502_FLAG_U | MH_CPU6502_FLAG_I;
    mh_cpu6502_reset(cpu);
    return MH_OK;
}

void mh_cpu6502_reset(mh_cpu6502 *cpu)
{
    cpu->state = S_RST0;
    cpu->t = 0;
    cpu->jammed = 0;
    cpu->stalled = 0;
    cpu->p = (uint8_t)(cpu->p | MH_CPU6502_FLAG_U | MH_CPU6502_FLAG_I);
    cpu->p = (uint8_t)(cpu->p & ~MH_CPU6502_FLAG_B);
    cpu->nmi_pending = 0;
    cpu->nmi_seen = cpu->nmi != 0;
    cpu->poll_prev = cpu->poll_cur = 0;
    cpu->stop_request = 0;
    cpu->sync_skip = 0;
    mh_port_store(cpu, 0, 0); /* pinless output bits keep their charge */
    cpu->port.data = 0;
}

uint32_t mh_cpu6502_tick(mh_cpu6502 *cpu)
{
    return mh_cpu6502_exec(cpu, 1);
}

uint32_t mh_cpu6502_run(mh_cpu6502 *cpu, uint32_t cycles)
{
    if (cycles == 0) {
        cpu->stop_reason = MH_CPU6502_STOP_NONE;
        return 0;
    }
    return mh_cpu6502_exec(cpu, cycles);
}

/* Upper bound for step, so a RDY line held low forever cannot hang it. */
#define STEP_LIMIT 65536u

uint32_t mh_cpu6502_step(mh_cpu6502 *cpu)
{
    uint32_t total = 0;
    do {
        uint32_t ran = mh_cpu6502_exec(cpu, 1);
        total += ran;
        if (ran == 0 || cpu->stop_reason != MH_CPU6502_STOP_NONE || cpu->jammed) break;
    } while (cpu->state != MH_CPU6502_STATE_FETCH && total < STEP_LIMIT);
    return total;
}

void mh_cpu6502_set_bus(mh_cpu6502 *cpu, mh_cpu6502_read_fn read, mh_cpu6502_write_fn write,
                        void *user)
{
    cpu->links.read = read;
    cpu->links.write = write;
    cpu->links.user = user;
}

void mh_cpu6502_set_memory(mh_cpu6502 *cpu, uint8_t *memory)
{
    cpu->links.memory = memory;
    cpu->links.read = NULL;
    cpu->links.write = NULL;
}

void mh_cpu6502_set_hooks(mh_cpu6502 *cpu, mh_cpu6502_sync_fn sync, mh_cpu6502_access_fn access,
                          void *hook_user)
{
    cpu->links.sync = sync;
    cpu->links.access = access;
    cpu->links.hook_user = hook_user;
}

void mh_cpu6502_restore(mh_cpu6502 *cpu, const mh_cpu6502 *saved)
{
    mh_cpu6502_links links = cpu->links;
    memmove(cpu, saved, sizeof *cpu);
    cpu->links = links;
}

int mh_cpu6502_state_valid(const mh_cpu6502 *saved)
{
    if (!saved || saved->state >= S_COUNT) return 0;
    return (saved->state == S_JAMMED) == (saved->jammed != 0);
}

uint8_t mh_cpu6502_port_pins(const mh_cpu6502 *cpu)
{
    uint8_t out = (uint8_t)(cpu->port.data & cpu->port.ddr);
    uint8_t in = (uint8_t)(cpu->port.input & ~cpu->port.ddr);
    return (uint8_t)((out | in) & cpu->port.pins);
}

uint8_t mh_cpu6502_port_read(const mh_cpu6502 *cpu, uint16_t addr)
{
    if (!cpu->port.pins || addr > 1) return 0;
    uint8_t input = cpu->links.port_input ? cpu->links.port_input(cpu->links.user) : cpu->port.input;
    return mh_port_value(cpu, addr, input);
}

void mh_cpu6502_port_write(mh_cpu6502 *cpu, uint16_t addr, uint8_t value)
{
    if (!cpu->port.pins || addr > 1) return;
    mh_port_store(cpu, addr, value);
}
