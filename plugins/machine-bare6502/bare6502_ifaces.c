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
#include <stdio.h>
#include <string.h>

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
    sizeof(mh_cpu6502_iface), cpu_state, cpu_set_debug_hooks, cpu_model_name};

/* ---- mh.memory/1 ---- */

enum { SPACE_CPU = 0, SPACE_RAM = 1, SPACE_COUNT = 2 };

static const mh_memory_space spaces[SPACE_COUNT] = {
    {"cpu", "What the CPU sees: RAM with the I/O ports over it", 65536, 0, 1},
    {"ram", "The 64 KiB of RAM, also the bytes under the I/O ports", 65536, 0, 1},
};

static size_t mem_space_count(void *context)
{
    (void)context;
    return SPACE_COUNT;
}

static const mh_memory_space *mem_space(void *context, size_t index)
{
    (void)context;
    return index < SPACE_COUNT ? &spaces[index] : NULL;
}

static mh_status mem_peek(void *context, size_t space, uint32_t address, uint8_t *out,
                          size_t length)
{
    const bare6502 *m = context;
    if (!mh_memory_range_ok(spaces, SPACE_COUNT, space, address, length) || (length && !out))
        return MH_ERR_INVALID_ARGUMENT;
    if (space == SPACE_RAM) {
        memcpy(out, m->ram + address, length);
        return MH_OK;
    }
    for (size_t i = 0; i < length; i++) out[i] = bare6502_bus_peek(m, (uint16_t)(address + i));
    return MH_OK;
}

static mh_status mem_poke(void *context, size_t space, uint32_t address, const uint8_t *data,
                          size_t length)
{
    bare6502 *m = context;
    if (!mh_memory_range_ok(spaces, SPACE_COUNT, space, address, length) || (length && !data))
        return MH_ERR_INVALID_ARGUMENT;
    if (space == SPACE_RAM) {
        memcpy(m->ram + address, data, length);
        return MH_OK;
    }
    for (size_t i = 0; i < length; i++) bare6502_bus_poke(m, (uint16_t)(address + i), data[i], 0);
    bare6502_bus_flush(m);
    return MH_OK;
}

static size_t mem_bank_at(void *context, uint16_t address)
{
    /* A port has no space of its own: only "cpu" shows it. */
    return bare6502_bus_port_at(context, address) >= 0 ? SPACE_CPU : SPACE_RAM;
}

static const mh_memory_iface memory_iface = {
    sizeof(mh_memory_iface), mem_space_count, mem_space, mem_peek, mem_poke, mem_bank_at};

/* ---- mh.caps/1 ---- */

static const mh_machine_caps bare_caps = {
    sizeof(mh_machine_caps), "6502", "", "",
    "Bare NMOS 6502: 64 KiB RAM with output, exit and interrupt ports"};

static const mh_machine_caps *caps_caps(void *context)
{
    (void)context;
    return &bare_caps;
}

static const mh_caps_iface caps_iface = {sizeof(mh_caps_iface), caps_caps};

/* ---- registration ---- */

mh_status bare6502_ifaces_register(bare6502 *m, const mh_session_service *sessions,
                                   mh_session *session, char *error, size_t error_size)
{
    const mh_chip chips[] = {
        {sizeof(mh_chip), MH_IFACE_CPU6502, "cpu", "NMOS 6502 CPU", &cpu_iface, m},
        {sizeof(mh_chip), MH_IFACE_MEMORY, "memory",
         "64 KiB RAM with output, exit and interrupt ports", &memory_iface, m},
        {sizeof(mh_chip), MH_IFACE_CAPS, "caps", "What this machine is", &caps_iface, m},
    };
    for (size_t i = 0; i < sizeof chips / sizeof chips[0]; i++) {
        mh_status status = sessions->add_chip(session, &chips[i]);
        if (status != MH_OK) {
            snprintf(error, error_size, "cannot register the %s chip (%s): %s",
                     chips[i].instance, chips[i].interface_id, mh_status_name(status));
            return status;
        }
    }
    return MH_OK;
}
