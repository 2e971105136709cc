/* Tests of mcphost/kit_hooks.h: the debugger's hooks go onto the CPU alone
 * when the machine needs none, behind the machine's sync step (with the pc
 * it gives back) when it does (kit.hooks). */
#include "mh_test.h"

#include <mcphost/kit_hooks.h>
#include <string.h>

typedef struct record {
    int own_calls;
    uint16_t own_pc;
    uint16_t moved_to; /* 0: own_sync keeps the pc */
    int dbg_calls;
    uint16_t dbg_pc;
    int access_calls;
} record;

static uint16_t own_sync(void *machine, uint16_t pc)
{
    record *r = machine;
    r->own_calls++;
    r->own_pc = pc;
    return r->moved_to ? r->moved_to : pc;
}

static int dbg_sync(void *user, uint16_t pc)
{
    record *r = user;
    r->dbg_calls++;
    r->dbg_pc = pc;
    return 7;
}

static int dbg_access(void *user, uint16_t addr, uint8_t value, int write)
{
    record *r = user;
    (void)addr;
    (void)value;
    (void)write;
    r->access_calls++;
    return 3;
}

static void test_direct(void)
{
    mh_cpu6502 cpu;
    memset(&cpu, 0, sizeof cpu);
    record own = {0}, dbg = {0};
    mh_kit_hooks hooks;
    mh_kit_hooks_init(&hooks, &cpu, own_sync, &own);
    mh_kit_hooks_install(&hooks, 0);
    CU_ASSERT_PTR_NULL(cpu.links.sync);
    CU_ASSERT_PTR_NULL(cpu.links.access);
    CU_ASSERT_PTR_NULL(cpu.links.hook_user);
    mh_kit_hooks_set(&hooks, dbg_sync, dbg_access, &dbg);
    mh_kit_hooks_install(&hooks, 0);
    CU_ASSERT_PTR_EQUAL(cpu.links.sync, dbg_sync);
    CU_ASSERT_PTR_EQUAL(cpu.links.access, dbg_access);
    CU_ASSERT_PTR_EQUAL(cpu.links.hook_user, &dbg);
    mh_kit_hooks_set(&hooks, NULL, NULL, &dbg);
    mh_kit_hooks_install(&hooks, 0);
    CU_ASSERT_PTR_NULL(cpu.links.sync);
    CU_ASSERT_PTR_NULL(cpu.links.hook_user);
}

static void test_chained(void)
{
    mh_cpu6502 cpu;
    memset(&cpu, 0, sizeof cpu);
    record own = {0}, dbg = {0};
    mh_kit_hooks hooks;
    mh_kit_hooks_init(&hooks, &cpu, own_sync, &own);
    mh_kit_hooks_install(&hooks, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cpu.links.sync);
    CU_ASSERT_PTR_NULL(cpu.links.access);
    CU_ASSERT_EQUAL(cpu.links.sync(cpu.links.hook_user, 0xE5CD), 0);
    CU_ASSERT_EQUAL(own.own_calls, 1);
    CU_ASSERT_EQUAL(own.own_pc, 0xE5CD);

    mh_kit_hooks_set(&hooks, dbg_sync, dbg_access, &dbg);
    mh_kit_hooks_install(&hooks, 1);
    own.moved_to = 0xA000; /* a trap returned the CPU elsewhere */
    CU_ASSERT_EQUAL(cpu.links.sync(cpu.links.hook_user, 0xFFD5), 7);
    CU_ASSERT_EQUAL(own.own_pc, 0xFFD5);
    CU_ASSERT_EQUAL(dbg.dbg_calls, 1);
    CU_ASSERT_EQUAL(dbg.dbg_pc, 0xA000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cpu.links.access);
    CU_ASSERT_EQUAL(cpu.links.access(cpu.links.hook_user, 0xD020, 1, 1), 3);
    CU_ASSERT_EQUAL(dbg.access_calls, 1);
}

MH_SUITE("kit.hooks", NULL, NULL, MH_TEST(test_direct), MH_TEST(test_chained))
