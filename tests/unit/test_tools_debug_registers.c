/* tools_debug.registers - registers_get and registers_set through the
 * in-process host on a bare6502 session (PC at $0800, at an instruction
 * boundary) and a C64 one (fresh: in the reset sequence): values in every
 * number form, flags as letters and booleans, the instruction at PC, and
 * every kind of bad input with a message that says what to do. */
#include <stdio.h>
#include <string.h>

#include "mh_test.h"
#include "test_tools_debug_common.h"

static mh_harness h;

static int suite_init(void)
{
    if (tdt_setup(&h) != 0) return -1;
    const cJSON *r = mh_harness_call_tool(
        &h, "session_create", "{\"machine\":\"bare6502\",\"name\":\"reg\",\"options\":{\"start\":\"$0800\"}}");
    if (!tdt_ok(r)) return -1;
    r = mh_harness_call_tool(&h, "session_create", "{\"machine\":\"c64\",\"name\":\"reg64\"}");
    if (!tdt_ok(r)) return -1;
    r = mh_harness_call_tool(&h, "session_create", "{\"machine\":\"fixture\",\"name\":\"nocpu\"}");
    return tdt_ok(r) ? 0 : -1;
}

static int suite_cleanup(void)
{
    tdt_teardown(&h);
    return 0;
}

static void test_get_reports_registers_flags_and_instruction(void)
{
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"reg\",\"address\":\"$0800\",\"bytes\":\"A9 42 60\"}"));
    const cJSON *r = tdt_call(&h, "registers_get", "{\"session\":\"reg\"}");
    TDT_OK(r);
    const cJSON *s = tdt_sc(r);
    CU_ASSERT_EQUAL(tdt_num(s, "pc"), 0x0800);
    CU_ASSERT_STRING_EQUAL(tdt_str(s, "pc_hex"), "$0800");
    CU_ASSERT_TRUE(tdt_num(s, "a") >= 0 && tdt_num(s, "a") <= 255);
    CU_ASSERT_EQUAL(strlen(tdt_str(s, "a_hex")), 3);
    CU_ASSERT_TRUE(tdt_bool(s, "at_boundary"));
    CU_ASSERT_FALSE(tdt_bool(s, "jammed"));
    CU_ASSERT_STRING_EQUAL(tdt_str(s, "model"), "6502");
    /* After reset I is set, bit 5 always reads 1. */
    int p = (int)tdt_num(s, "p");
    CU_ASSERT_TRUE(p & 0x20);
    CU_ASSERT_TRUE(p & 0x04);
    CU_ASSERT_EQUAL(tdt_str(s, "flags")[2], '-');
    CU_ASSERT_EQUAL(tdt_str(s, "flags")[5], 'I');
    CU_ASSERT_TRUE(tdt_bool(cJSON_GetObjectItemCaseSensitive(s, "flag"), "i"));
    CU_ASSERT_TRUE(tdt_num(s, "cycles") >= 7); /* the reset sequence ran */
    const cJSON *ins = cJSON_GetObjectItemCaseSensitive(s, "instruction");
    CU_ASSERT_STRING_EQUAL(tdt_str(ins, "text"), "LDA #$42");
    CU_ASSERT_STRING_EQUAL(tdt_str(ins, "bytes"), "A9 42");
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "PC=$0800"));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "LDA #$42"));
}

static void test_set_every_register_in_every_form(void)
{
    const cJSON *r = tdt_call(&h, "registers_set",
                              "{\"session\":\"reg\",\"a\":\"$12\",\"x\":\"0x34\",\"y\":86,\"s\":\"$F0\","
                              "\"pc\":\"$0900\"}");
    TDT_OK(r);
    const cJSON *s = tdt_sc(r);
    CU_ASSERT_EQUAL(tdt_num(s, "a"), 0x12);
    CU_ASSERT_EQUAL(tdt_num(s, "x"), 0x34);
    CU_ASSERT_EQUAL(tdt_num(s, "y"), 86);
    CU_ASSERT_EQUAL(tdt_num(s, "s"), 0xF0);
    CU_ASSERT_EQUAL(tdt_num(s, "pc"), 0x0900);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(s, "changed")), 5);
    /* A later get sees the same values: they were really set. */
    s = tdt_sc(tdt_call(&h, "registers_get", "{\"session\":\"reg\"}"));
    CU_ASSERT_EQUAL(tdt_num(s, "a"), 0x12);
    CU_ASSERT_EQUAL(tdt_num(s, "pc"), 0x0900);
    CU_ASSERT_STRING_EQUAL(tdt_str(s, "y_hex"), "$56");
    TDT_OK(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"pc\":2048}"));
}

static void test_set_flags_by_letters_booleans_and_p(void)
{
    const cJSON *s = tdt_sc(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"flags\":\"nzc\"}"));
    CU_ASSERT_EQUAL(tdt_num(s, "p"), 0xA3);
    CU_ASSERT_STRING_EQUAL(tdt_str(s, "flags"), "Nv-bdiZC");
    s = tdt_sc(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"c\":false,\"v\":true}"));
    CU_ASSERT_EQUAL(tdt_num(s, "p"), 0xE2);
    /* registers_get's own form feeds back: upper case set, lower case or
     * '.' clear. */
    s = tdt_sc(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"flags\":\"N.-..IZC\"}"));
    CU_ASSERT_EQUAL(tdt_num(s, "p"), 0xA7);
    s = tdt_sc(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"flags\":\"nV-bdizC\"}"));
    CU_ASSERT_EQUAL(tdt_num(s, "p"), 0x61);
    CU_ASSERT_STRING_EQUAL(tdt_str(s, "flags"), "nV-bdizC");
    s = tdt_sc(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"flags\":\"NV-BDIZC\"}"));
    CU_ASSERT_EQUAL(tdt_num(s, "p"), 0xEF);
    /* p: bit 5 forced on, B off. */
    s = tdt_sc(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"p\":255}"));
    CU_ASSERT_EQUAL(tdt_num(s, "p"), 0xEF);
    s = tdt_sc(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"p\":0,\"i\":true}"));
    CU_ASSERT_EQUAL(tdt_num(s, "p"), 0x24);
    CU_ASSERT_TRUE(tdt_bool(cJSON_GetObjectItemCaseSensitive(s, "flag"), "i"));
    CU_ASSERT_FALSE(tdt_bool(cJSON_GetObjectItemCaseSensitive(s, "flag"), "z"));
}

static void test_set_refuses_bad_values_and_changes_nothing(void)
{
    const cJSON *before = tdt_sc(tdt_call(&h, "registers_get", "{\"session\":\"reg\"}"));
    int a = (int)tdt_num(before, "a"), pc = (int)tdt_num(before, "pc");
    TDT_ERR(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"a\":256}"), "a: 256 is out of range",
            "0-255", "$00-$FF");
    TDT_ERR(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"x\":-1}"), "x: -1 is out of range");
    TDT_ERR(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"pc\":65536}"), "pc: 65536",
            "0-65535");
    TDT_ERR(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"a\":\"$G0\"}"), "a:", "expected");
    /* One bad value refuses the whole call: a is not set either. */
    TDT_ERR(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"a\":1,\"flags\":\"NQ\"}"),
            "'Q' is not a flag", "\"NZC\"");
    TDT_ERR(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"p\":1,\"flags\":\"N\"}"),
            "either p", "or flags");
    TDT_ERR(tdt_call(&h, "registers_set", "{\"session\":\"reg\"}"), "nothing to set", "pc");
    TDT_ERR(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"q\":1}"), "q");
    TDT_ERR(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"n\":\"yes\"}"), "n");
    TDT_ERR(tdt_call(&h, "registers_set", "{\"session\":\"reg\",\"a\":1.5}"), "'a'");
    const cJSON *after = tdt_sc(tdt_call(&h, "registers_get", "{\"session\":\"reg\"}"));
    CU_ASSERT_EQUAL(tdt_num(after, "a"), a);
    CU_ASSERT_EQUAL(tdt_num(after, "pc"), pc);
}

static void test_set_refuses_mid_instruction(void)
{
    /* A fresh C64 is inside its reset sequence: PC is not yet loaded. */
    const cJSON *r = tdt_call(&h, "registers_get", "{\"session\":\"reg64\"}");
    TDT_OK(r);
    CU_ASSERT_FALSE(tdt_bool(tdt_sc(r), "at_boundary"));
    CU_ASSERT_STRING_EQUAL(tdt_str(tdt_sc(r), "model"), "6510");
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "reset sequence"));
    TDT_ERR(tdt_call(&h, "registers_set", "{\"session\":\"reg64\",\"a\":1}"),
            "middle of an instruction", "step or run");
}

static void test_sessions_without_a_cpu_are_refused(void)
{
    TDT_ERR(tdt_call(&h, "registers_get", "{\"session\":\"nocpu\"}"), "registers_get",
            "not available on session \"nocpu\"", "mh.cpu6502/1");
    TDT_ERR(tdt_call(&h, "registers_set", "{\"session\":\"nocpu\",\"a\":1}"), "mh.cpu6502/1");
    TDT_ERR(tdt_call(&h, "registers_get", "{\"session\":\"nosuch\"}"), "nosuch");
}

MH_SUITE("tools_debug.registers", suite_init, suite_cleanup,
         MH_TEST(test_get_reports_registers_flags_and_instruction),
         MH_TEST(test_set_every_register_in_every_form),
         MH_TEST(test_set_flags_by_letters_booleans_and_p),
         MH_TEST(test_set_refuses_bad_values_and_changes_nothing),
         MH_TEST(test_set_refuses_mid_instruction),
         MH_TEST(test_sessions_without_a_cpu_are_refused))
