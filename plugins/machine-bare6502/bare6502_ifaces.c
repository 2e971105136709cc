/* bare6502_ifaces.c - the capability interfaces (mcphost/machine.h) the
 * machine registers as chips in its session, so machine-independent
 * toolsets (disassembler, memory, breakpoints ...) work on it:
 *
 *   "mh.cpu6502/1" instance "cpu"     the SDK core's state, the debugger's
 *                                     hook slot, the model name;
 *   "mh.memory/1"  instance "memory"  space 0 "cpu": what the CPU sees,
 *                                     ports included (peek reads a port's
 *                                     value without side effects, poke acts
 *                                     like a CPU write); space 1 "ram": the
 *                                     plain 64 KiB, the bytes under the
 *                                     ports too.
 *   "mh.caps/1"    instance "caps"    what the machine is: a 6502, no
 *                                     video, no media.
 *
 * The vtables are constant and shared by every instance; the context is
 * the instance, so sessions still share no mutable state.
 */
#include <stddef.h>

#include "bare6502.h"

/* ---- mh.cpu6502/1 ---- */

static mh_cpu6502 *cpu_state(void *context) { return &((bare6502 *)context)->cpu; }

static void cpu_set_debug_hooks(void *context, mh_cpu6502_sync_fn sync,
                                mh_cpu6502_access_fn access, void *user)
{
    /* The machine has no traps of its own, so the debugger's hooks go
     * straight into the core (a machine with traps would chain them). */
    bare6502 *m = context;
    mh_cpu6502_set_hooks(&m->cpu, sync, access, sync || access ? user : NULL);
}

static const char *cpu_model_name(void *context)
{
    (void)context;
    return "6502";
}

static const mh_cpu6502_iface cpu_iface = {
    sizeof(mh_cpu6502_iface), cpu_state, cpu_set_debug_hooks, cpu_model_name, NULL};

/* ---- mh.memory/1 (the machine kit's skeleton) ---- */

enum { SPACE_CPU = 0, SPACE_RAM = 1, SPACE_COUNT = 2 };

static uint8_t cpu_peek(const void *m, uint32_t address)
{
    return bare6502_bus_peek(m, (uint16_t)address);
}

static void cpu_poke(void *m, uint32_t address, uint8_t value)
{
    bare6502_bus_poke(m, (uint16_t)address, value, 0);
}

static const mh_kit_space spaces[SPACE_COUNT] = {
    {{"cpu", "What the CPU sees: RAM with the I/O ports over it", 65536, 0, 1}, 0, 0, cpu_peek,
     cpu_poke},
    {{"ram", "The 64 KiB of RAM, also the bytes under the I/O ports", 65536, 0, 1},
     offsetof(bare6502, ram), 0, NULL, NULL},
};

static size_t mem_bank_at(const void *m, uint16_t address)
{
    /* A port has no space of its own: only "cpu" shows it. */
    return bare6502_bus_port_at(m, address) >= 0 ? SPACE_CPU : SPACE_RAM;
}

static void mem_after_poke(void *m) { bare6502_bus_flush(m); }

/* RAM runs of "cpu" between the ports, read in place. */
static const uint8_t *mem_span(const void *m, size_t space, uint32_t address, uint32_t *length)
{
    if (space != SPACE_CPU) {
        *length = UINT32_MAX;
        return NULL;
    }
    return bare6502_bus_span(m, (uint16_t)address, length);
}

static const mh_kit_memory_map memory_map = {spaces, SPACE_COUNT, mem_bank_at, mem_after_poke,
                                             mem_span};

/* ---- mh.caps/1 ---- */

static const mh_machine_caps bare_caps = {
    sizeof(mh_machine_caps), "6502", "", "",
    "Bare NMOS 6502: 64 KiB RAM with output, exit and interrupt ports", NULL /* no BASIC */};

static const mh_machine_caps *caps_caps(void *context)
{
    (void)context;
    return &bare_caps;
}

static const mh_caps_iface caps_iface = {sizeof(mh_caps_iface), caps_caps};

/* ---- registration ---- */

size_t bare6502_ifaces_chips(bare6502 *m, mh_chip *chips, size_t max)
{
    if (max < 3) return 0;
    chips[0] = (mh_chip){sizeof(mh_chip), MH_IFACE_CPU6502, "cpu", "NMOS 6502 CPU", &cpu_iface, m};
    chips[1] = mh_kit_memory_chip(&m->memory, &memory_map, m,
                                  "64 KiB RAM with output, exit and interrupt ports");
    chips[2] = (mh_chip){sizeof(mh_chip), MH_IFACE_CAPS, "caps", "What this machine is",
                         &caps_iface, m};
    return 3;
}
