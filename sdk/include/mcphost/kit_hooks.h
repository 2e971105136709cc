/* mcphost/kit_hooks.h - the debugger hook chain every machine plugin with
 * KERNAL glue repeats (static helper library mh_machine_kit, link target
 * mcphost::machine_kit; docs/machine-kit.md).
 *
 * Offers: the CPU has one sync hook and one access hook. A debugger sets
 * its own through the machine (mh_kit_hooks_set()); while the machine needs
 * a sync hook of its own (autostart waiting for READY, the LOAD trap of a
 * virtual drive) the kit installs a chain that calls the machine's hook
 * first and then the debugger's with the pc the machine gives back (the
 * instruction a trap returned to). Otherwise the debugger's hooks go onto
 * the CPU directly, so a machine with nothing to trap pays nothing.
 *
 * Ownership: mh_kit_hooks is embedded in the machine instance and must not
 * move while its chain is on the CPU (the CPU's hook user points at it);
 * nothing is allocated. Threads: [emu-thread] (the session's thread).
 */
#ifndef MCPHOST_KIT_HOOKS_H
#define MCPHOST_KIT_HOOKS_H

#include <stdint.h>

#include "mcphost/cpu6502.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The machine's own sync step: runs at an instruction boundary at pc and
 * returns the pc the debugger should see (pc, or the CPU's new pc after a
 * trap moved it). */
typedef uint16_t (*mh_kit_own_sync_fn)(void *machine, uint16_t pc);

typedef struct mh_kit_hooks {
    mh_cpu6502 *cpu;
    mh_kit_own_sync_fn own_sync;   /* the machine's step */
    void *machine;                 /* passed to own_sync */
    mh_cpu6502_sync_fn dbg_sync;   /* the debugger's hooks (NULL: none) */
    mh_cpu6502_access_fn dbg_access;
    void *dbg_user;
} mh_kit_hooks;

/* Sets up the chain (no debugger hooks) and installs nothing yet. */
void mh_kit_hooks_init(mh_kit_hooks *hooks, mh_cpu6502 *cpu, mh_kit_own_sync_fn own_sync,
                       void *machine);

/* Puts the hooks onto the CPU: the chain when own is non-zero (the
 * debugger's access hook behind it, if any), else the debugger's hooks
 * alone (user NULL when there are none). */
void mh_kit_hooks_install(mh_kit_hooks *hooks, int own);

/* Keeps the debugger's hooks (NULL: none); mh_kit_hooks_install() puts
 * them onto the CPU. */
void mh_kit_hooks_set(mh_kit_hooks *hooks, mh_cpu6502_sync_fn sync, mh_cpu6502_access_fn access,
                      void *user);

#ifdef __cplusplus
}
#endif
#endif
