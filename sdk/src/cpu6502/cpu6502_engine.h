/* cpu6502_engine.h - a machine's own instance of the CPU's cycle engine
 * (cpu6502_core.inc.h) with its bus functions called directly, so the
 * compiler can inline the machine's per-cycle bus into the CPU's loop
 * instead of calling it through links.read/links.write. For in-tree
 * machines whose bus callback is the hot path (the C64); internal to the
 * source tree, not installed with the SDK (the machine's CMake adds this
 * directory for the one file that includes it).
 *
 * Define, then include (no include guard: once per instance):
 *   MH_ENGINE_NAME   name of the static function made:
 *                      uint32_t MH_ENGINE_NAME(mh_cpu6502 *cpu, uint32_t budget)
 *   MH_ENGINE_HOOKS  1: with the links' sync/access hook calls; 0: none
 *   MH_ENGINE_READ_LINK, MH_ENGINE_WRITE_LINK  the machine's bus
 *                    callbacks as its links hold them
 *   MH_ENGINE_READ, MH_ENGINE_WRITE  the same bus, to be called directly
 *                    (static inline functions with the callbacks'
 *                    signatures, so the compiler inlines them)
 *
 * The instance is the same source as the SDK's own bus loops, so it makes
 * the same cycles, bus accesses, hook calls and stops. Each access calls
 * the machine's function directly only while the links still name its
 * callback (a machine may swap its bus mid-run: the machine kit's
 * debug-cart halt); otherwise it calls the links. Use it like mh_cpu6502_run(): clear
 * cpu->stop_reason first (MH_CPU6502_STOP_NONE), use the variant without
 * hooks only while links.sync and links.access are both NULL, and a budget
 * of 0 runs nothing. The machine kit's mh_kit_run_ops.run_cpu is the place
 * to call it from.
 */
#include "cpu6502_internal.h"
#include "cpu6502_ops.h"

#define CORE_NAME MH_ENGINE_NAME
#define CORE_FLAT 0
#define CORE_HOOKS MH_ENGINE_HOOKS
#define CORE_LOCAL 0
#define CORE_READ_FN MH_ENGINE_READ
#define CORE_WRITE_FN MH_ENGINE_WRITE
#define CORE_READ_LINK MH_ENGINE_READ_LINK
#define CORE_WRITE_LINK MH_ENGINE_WRITE_LINK
#include "cpu6502_core.inc.h"

#undef MH_ENGINE_NAME
#undef MH_ENGINE_HOOKS
#undef MH_ENGINE_READ
#undef MH_ENGINE_WRITE
#undef MH_ENGINE_READ_LINK
#undef MH_ENGINE_WRITE_LINK
