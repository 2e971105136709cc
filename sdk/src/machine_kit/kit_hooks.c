/* kit_hooks.c - the machine's sync hook chained in front of a debugger's
 * (mcphost/kit_hooks.h). */
#include "mcphost/kit_hooks.h"

#include <stddef.h>

static int chain_sync(void *user, uint16_t pc)
{
    mh_kit_hooks *hooks = user;
    pc = hooks->own_sync(hooks->machine, pc);
    return hooks->dbg_sync ? hooks->dbg_sync(hooks->dbg_user, pc) : 0;
}

static int chain_access(void *user, uint16_t addr, uint8_t value, int write)
{
    mh_kit_hooks *hooks = user;
    return hooks->dbg_access ? hooks->dbg_access(hooks->dbg_user, addr, value, write) : 0;
}

void mh_kit_hooks_init(mh_kit_hooks *hooks, mh_cpu6502 *cpu, mh_kit_own_sync_fn own_sync,
                       void *machine)
{
    hooks->cpu = cpu;
    hooks->own_sync = own_sync;
    hooks->machine = machine;
    hooks->dbg_sync = NULL;
    hooks->dbg_access = NULL;
    hooks->dbg_user = NULL;
}

void mh_kit_hooks_install(mh_kit_hooks *hooks, int own)
{
    if (own)
        mh_cpu6502_set_hooks(hooks->cpu, chain_sync, hooks->dbg_access ? chain_access : NULL,
                             hooks);
    else
        mh_cpu6502_set_hooks(hooks->cpu, hooks->dbg_sync, hooks->dbg_access,
                             hooks->dbg_sync || hooks->dbg_access ? hooks->dbg_user : NULL);
}

void mh_kit_hooks_set(mh_kit_hooks *hooks, mh_cpu6502_sync_fn sync, mh_cpu6502_access_fn access,
                      void *user)
{
    hooks->dbg_sync = sync;
    hooks->dbg_access = access;
    hooks->dbg_user = user;
}
