/* c64_cpu.c - the 6510 with the C64's bus inlined: the machine's own
 * instances of the SDK's cycle engine (cpu6502_engine.h), one without and
 * one with the debugger's hooks, each calling the bus (c64.h) directly
 * instead of through the links' function pointers. Both defer the
 * VIC-II's quiet cycles (c64_bus_read_deferring; synced at the end of a
 * run, however it ends: budget, stop request, sync stop, JAM). The hooks
 * see the VIC current: the machine syncs it before every call into the
 * debugger's hooks (c64_machine.c, the hook trampolines) and before its
 * own hook step acts.
 * Same source as the SDK's bus loops: the same cycles, accesses, hooks
 * and stops (the --hash guard of bench_c64, the VICE test programs and
 * c64.defer check it); only the call into the bus is cheaper.
 */
#include "c64.h"

#define MH_ENGINE_NAME c64_exec
#define MH_ENGINE_HOOKS 0
#define MH_ENGINE_READ c64_bus_read_deferring
#define MH_ENGINE_WRITE c64_bus_write_deferring
#define MH_ENGINE_READ_LINK c64_bus_read
#define MH_ENGINE_WRITE_LINK c64_bus_write
#include "cpu6502_engine.h"

#define MH_ENGINE_NAME c64_exec_hooks
#define MH_ENGINE_HOOKS 1
#define MH_ENGINE_READ c64_bus_read_deferring
#define MH_ENGINE_WRITE c64_bus_write_deferring
#define MH_ENGINE_READ_LINK c64_bus_read
#define MH_ENGINE_WRITE_LINK c64_bus_write
#include "cpu6502_engine.h"

uint32_t c64_run_cpu(void *machine, uint32_t cycles)
{
    c64 *m = machine;
    mh_cpu6502 *cpu = &m->cpu;
    /* Another bus linked (the kit's debug-cart halt) or none to run: the
     * SDK's loops, as mh_cpu6502_run would. */
    if (cpu->links.read != c64_bus_read || cpu->links.write != c64_bus_write || cycles == 0)
        return mh_cpu6502_run(cpu, cycles);
    cpu->stop_reason = MH_CPU6502_STOP_NONE;
    const uint32_t ran = cpu->links.sync || cpu->links.access ? c64_exec_hooks(cpu, cycles)
                                                              : c64_exec(cpu, cycles);
    m6569_sync(&m->vic); /* nothing deferred outside these engines */
    return ran;
}
