/* cpu6502_exec.c - instantiates the cycle engine (cpu6502_core.inc.h) in
 * four loop variants and picks the one that fits the CPU's links:
 *
 *   bus + no hooks    per-cycle callbacks, state kept in the struct
 *   bus + hooks       the same with sync/access hook calls
 *   flat + no hooks   the fast path: memory inlined, state in locals
 *   flat + hooks      flat memory with hook calls
 *
 * Unused hooks therefore cost nothing: the no-hook variants contain no
 * hook code. All variants share the same micro-states, so they make the
 * same bus accesses and leave the same state.
 */
#include "cpu6502_internal.h"
#include "cpu6502_ops.h"

#define CORE_NAME exec_bus
#define CORE_FLAT 0
#define CORE_HOOKS 0
#define CORE_LOCAL 0
#include "cpu6502_core.inc.h"

#define CORE_NAME exec_bus_hooks
#define CORE_FLAT 0
#define CORE_HOOKS 1
#define CORE_LOCAL 0
#include "cpu6502_core.inc.h"

#define CORE_NAME exec_flat
#define CORE_FLAT 1
#define CORE_HOOKS 0
#define CORE_LOCAL 1
#include "cpu6502_core.inc.h"

#define CORE_NAME exec_flat_hooks
#define CORE_FLAT 1
#define CORE_HOOKS 1
#define CORE_LOCAL 0
#include "cpu6502_core.inc.h"

uint32_t mh_cpu6502_exec(mh_cpu6502 *cpu, uint32_t budget)
{
    int hooks = cpu->links.sync != NULL || cpu->links.access != NULL;
    cpu->stop_reason = MH_CPU6502_STOP_NONE;
    if (cpu->links.read) return hooks ? exec_bus_hooks(cpu, budget) : exec_bus(cpu, budget);
    if (cpu->links.memory) return hooks ? exec_flat_hooks(cpu, budget) : exec_flat(cpu, budget);
    return 0;
}
