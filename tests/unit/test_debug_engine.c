/* Suites debug.execution and debug.breakpoints: the host's debug engine
 * through the tools-debug tools, on the bare6502 machine, called the way a
 * client calls them (tools/call through the in-process host). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_harness.h"
#include "mcphost/asm6502.h"
#include "mh_test.h"
#include "test_tools_debug_common.h"

static mh_harness h;
static char tmpdir[64];
static char prg[128];

/* start: a loop that calls sub five times and counts in $0300, then exits
 * through the exit port with code 7. */
static const char program[] =
    "        *= $0800\n"
    "start   LDX #0\n"          /* $0800 */
    "loop    JSR sub\n"         /* $0802 */
    "        INX\n"             /* $0805 */
    "        STX $0300\n"       /* $0806 */
    "        CPX #5\n"          /* $0809 */
    "        BNE loop\n"        /* $080B */
    "        LDA #7\n"          /* $080D */
    "        STA $F002\n"       /* $080F */
    "sub     LDA #$42\n"        /* $0812 */
    "        STA $0301\n"       /* $0814 */
    "        JSR sub2\n"        /* $0817 */
    "        RTS\n"             /* $081A */
    "sub2    NOP\n"             /* $081B */
    "        RTS\n"             /* $081C */
    /* irqtest: points the IRQ vector at handler, asserts IRQ through the
     * interrupt port; the CPU runs one more instruction (nop1), then the
     * handler, which releases the line. */
    "irqtest LDA #<handler\n"
    "        STA $FFFE\n"
    "        LDA #>handler\n"
    "        STA $FFFF\n"
    "        CLI\n"
    "        LDA #1\n"
    "        STA $F003\n"
    "nop1    NOP\n"
    "nop2    NOP\n"
    "nop3    NOP\n"
    "        LDA #7\n"
    "        STA $F002\n"
    "handler PHA\n"
    "        LDA #0\n"
    "        STA $F003\n"
    "        PLA\n"
    "        RTI\n"
    /* sled: one-byte instructions, so every address from sled to sled+5
     * is an instruction the CPU executes once, then the exit. */
    "sled    NOP\n"
    "        NOP\n"
    "        NOP\n"
    "        NOP\n"
    "        NOP\n"
    "        NOP\n"
    "        LDA #7\n"
    "        STA $F002\n";

/* Addresses of the irqtest and sled labels, from the assembler. */
static int32_t irqtest_at, nop1_at, nop2_at, handler_at, sled_at;

static int suite_init(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/mh_debug_engine_XXXXXX");
    if (!mkdtemp(tmpdir)) return -1;
    /* The program lives in the temp dir: allow it, as --allow-dir does. */
    if (tdt_setup(&h) != 0 || tdt_allow_dir(&h, tmpdir) != 0) return -1;
    mh_asm6502_result result;
    if (mh_asm6502_assemble(program, strlen(program), NULL, &result) != MH_OK ||
        result.chunk_count != 1) {
        mh_asm6502_result_free(&result);
        return -1;
    }
    snprintf(prg, sizeof prg, "%s/loop.prg", tmpdir);
    FILE *f = fopen(prg, "wb");
    if (!f) return -1;
    const struct {
        const char *name;
        int32_t *value;
    } labels[] = {{"irqtest", &irqtest_at}, {"nop1", &nop1_at}, {"nop2", &nop2_at},
                  {"handler", &handler_at}, {"sled", &sled_at}};
    for (size_t i = 0; i < result.symbol_count; i++)
        for (size_t k = 0; k < sizeof labels / sizeof labels[0]; k++)
            if (strcmp(result.symbols[i].name, labels[k].name) == 0)
                *labels[k].value = result.symbols[i].value;
    const mh_asm6502_chunk *chunk = &result.chunks[0];
    uint8_t header[2] = {(uint8_t)(chunk->address & 0xFF), (uint8_t)(chunk->address >> 8)};
    fwrite(header, 1, 2, f);
    fwrite(chunk->bytes, 1, chunk->size, f);
    fclose(f);
    mh_asm6502_result_free(&result);
    return 0;
}

static int suite_cleanup(void)
{
    tdt_teardown(&h);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A fresh paused session "dbg" with the program loaded at $0800, starting
 * at start. */
static void fresh_session_at(int32_t start)
{
    mh_harness_call_tool(&h, "session_destroy", "{\"session\":\"dbg\"}");
    char args[512];
    snprintf(args, sizeof args,
             "{\"machine\":\"bare6502\",\"name\":\"dbg\",\"options\":{\"program\":\"%s\","
             "\"exit_port\":\"$F002\",\"start\":%d}}",
             prg, (int)start);
    TDT_OK(mh_harness_call_tool(&h, "session_create", args));
    CU_ASSERT_TRUE(tdt_ok(mh_harness_call_tool(&h, "session_select", "{\"session\":\"dbg\"}")));
}

static void fresh_session(void) { fresh_session_at(0x0800); }

static const cJSON *stop_of(const cJSON *result)
{
    return cJSON_GetObjectItemCaseSensitive(tdt_sc(result), "stop");
}

static const cJSON *call_ok(const char *tool, const char *args)
{
    const cJSON *r = mh_harness_call_tool(&h, tool, args);
    TDT_OK(r);
    return r;
}

static void expect_error(const char *tool, const char *args, const char *needle)
{
    int refused = tdt_error_has(mh_harness_call_tool(&h, tool, args), needle, (const char *)NULL);
    if (!refused) fprintf(stderr, "  (%s %s, wanted \"%s\")\n", tool, args, needle);
    CU_ASSERT_TRUE(refused);
}

/* Runs and waits for the stop; returns the stop record. */
static const cJSON *run_to_stop(void)
{
    const cJSON *r = call_ok("execution_run", "{\"warp\":true}");
    r = call_ok("execution_wait", "{\"timeout_ms\":20000}"); /* a bound against hangs */
    CU_ASSERT_STRING_NOT_EQUAL(tdt_str(tdt_sc(r), "state"), "running");
    return stop_of(r);
}

static void test_new_session_is_paused(void)
{
    fresh_session();
    const cJSON *r = call_ok("execution_get_state", "{}");
    CU_ASSERT_STRING_EQUAL(tdt_str(tdt_sc(r), "state"), "paused");
}

static void test_breakpoint_before_run_is_hit(void)
{
    fresh_session();
    const cJSON *r = call_ok("breakpoints_set", "{\"address\":\"$0812\"}");
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "id"), 1);
    const cJSON *stop = run_to_stop();
    CU_ASSERT_STRING_EQUAL(tdt_str(stop, "state"), "stopped");
    CU_ASSERT_STRING_EQUAL(tdt_str(stop, "reason"), "breakpoint");
    CU_ASSERT_EQUAL(tdt_num(stop, "pc"), 0x0812);
    CU_ASSERT_STRING_EQUAL(tdt_str(stop, "pc_hex"), "$0812");
    CU_ASSERT_STRING_EQUAL(tdt_str(stop, "instruction"), "LDA #$42");
    const cJSON *bp = cJSON_GetObjectItemCaseSensitive(stop, "breakpoint");
    CU_ASSERT_EQUAL(tdt_num(bp, "id"), 1);
    CU_ASSERT_EQUAL(tdt_num(bp, "hits"), 1);
    const cJSON *regs = cJSON_GetObjectItemCaseSensitive(stop, "registers");
    CU_ASSERT_EQUAL(tdt_num(regs, "x"), 0);
    CU_ASSERT_EQUAL(tdt_num(regs, "s"), 0xFD - 2); /* one JSR deep */
    /* The disassembly around PC marks the current line. */
    const cJSON *lines = cJSON_GetObjectItemCaseSensitive(stop, "disassembly");
    int current = 0;
    const cJSON *line;
    cJSON_ArrayForEach(line, lines)
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(line, "current"))) {
            current = (int)tdt_num(line, "address");
            /* every byte of the instruction, two hex digits each */
            CU_ASSERT_STRING_EQUAL(tdt_str(line, "bytes"), "A9 42");
        }
    CU_ASSERT_EQUAL(current, 0x0812);
    /* Running on does not re-fire at the same PC: the next hit is the
     * second call (X = 1). */
    stop = run_to_stop();
    CU_ASSERT_EQUAL(tdt_num(stop, "pc"), 0x0812);
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetObjectItemCaseSensitive(stop, "registers"), "x"), 1);
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetObjectItemCaseSensitive(stop, "breakpoint"), "hits"), 2);
}

static void test_steps(void)
{
    fresh_session();
    call_ok("breakpoints_set", "{\"address\":\"$0812\",\"temporary\":true}");
    const cJSON *stop = run_to_stop();
    CU_ASSERT_EQUAL(tdt_num(stop, "pc"), 0x0812);
    /* The temporary breakpoint is gone. */
    const cJSON *r = call_ok("breakpoints_list", "{}");
    CU_ASSERT_EQUAL(
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(tdt_sc(r), "breakpoints")), 0);

    r = call_ok("execution_step", "{\"count\":2}"); /* LDA, STA */
    CU_ASSERT_STRING_EQUAL(tdt_str(stop_of(r), "reason"), "step");
    CU_ASSERT_EQUAL(tdt_num(stop_of(r), "pc"), 0x0817);
    r = call_ok("execution_step", "{\"over\":true}"); /* JSR sub2 as one */
    CU_ASSERT_STRING_EQUAL(tdt_str(stop_of(r), "reason"), "step_over");
    CU_ASSERT_EQUAL(tdt_num(stop_of(r), "pc"), 0x081A);
    r = call_ok("execution_step", "{}"); /* into: RTS back to the loop */
    CU_ASSERT_EQUAL(tdt_num(stop_of(r), "pc"), 0x0805);
    r = call_ok("execution_step", "{\"count\":4}"); /* INX STX CPX BNE -> loop */
    CU_ASSERT_EQUAL(tdt_num(stop_of(r), "pc"), 0x0802);
    r = call_ok("execution_step", "{\"count\":2}"); /* JSR, LDA */
    CU_ASSERT_EQUAL(tdt_num(stop_of(r), "pc"), 0x0814);
    r = call_ok("execution_step_out", "{}");
    CU_ASSERT_STRING_EQUAL(tdt_str(stop_of(r), "reason"), "step_out");
    CU_ASSERT_EQUAL(tdt_num(stop_of(r), "pc"), 0x0805);
    r = call_ok("execution_run_until", "{\"address\":\"$080D\"}");
    CU_ASSERT_STRING_EQUAL(tdt_str(stop_of(r), "reason"), "until_address");
    CU_ASSERT_EQUAL(tdt_num(stop_of(r), "pc"), 0x080D);
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetObjectItemCaseSensitive(stop_of(r), "registers"), "x"), 5);
    double before = tdt_num(stop_of(r), "cycles");
    r = call_ok("execution_step_cycle", "{\"cycles\":3}"); /* LDA # (2) + STA abs (4) */
    CU_ASSERT_STRING_EQUAL(tdt_str(stop_of(r), "reason"), "cycles");
    if (tdt_num(stop_of(r), "cycles") - before != 6)
        fprintf(stderr, "step_cycle: %s\n", cJSON_PrintUnformatted(tdt_sc(r)));
    CU_ASSERT_EQUAL(tdt_num(stop_of(r), "cycles") - before, 6);
}

static void test_watchpoint_with_condition(void)
{
    fresh_session();
    const cJSON *r =
        call_ok("breakpoints_memory_watch", "{\"address\":\"$0300\",\"condition\":\"value == 3\"}");
    const cJSON *stop = run_to_stop();
    CU_ASSERT_STRING_EQUAL(tdt_str(stop, "reason"), "watchpoint");
    const cJSON *access = cJSON_GetObjectItemCaseSensitive(stop, "access");
    CU_ASSERT_STRING_EQUAL(tdt_str(access, "kind"), "write");
    CU_ASSERT_EQUAL(tdt_num(access, "address"), 0x0300);
    CU_ASSERT_EQUAL(tdt_num(access, "value"), 3);
    CU_ASSERT_EQUAL(tdt_num(access, "by_pc"), 0x0806);
    CU_ASSERT_EQUAL(tdt_num(stop, "pc"), 0x0809); /* after the STX */
    /* A change watchpoint on $0301 fires once (the first write of $42). */
    r = call_ok("breakpoints_delete", "{\"all\":true}");
    r = call_ok("breakpoints_memory_watch", "{\"address\":\"$0301\",\"on\":\"change\"}");
    stop = run_to_stop();
    CU_ASSERT_STRING_EQUAL(tdt_str(stop, "state"), "exited"); /* $42 was there since call 1 */
    CU_ASSERT_EQUAL(tdt_num(stop, "exit_code"), 7);
    (void)r;
}

/* The access hook runs for reads only while a read watchpoint is armed,
 * and then only for the watched addresses: one set after a run without
 * any (exec breakpoint and write log on, so the hook was on for writes
 * only) must see the very next read, and so must a second one. */
static void test_read_watchpoint_after_writes_only(void)
{
    fresh_session();
    call_ok("breakpoints_set", "{\"address\":\"$0812\"}");
    call_ok("breakpoints_memory_watch", "{\"address\":\"$0300\",\"on\":\"write\"}");
    const cJSON *stop = run_to_stop();
    CU_ASSERT_EQUAL(tdt_num(stop, "pc"), 0x0812); /* before LDA #$42 */
    call_ok("breakpoints_delete", "{\"all\":true}");
    /* the LDA's operand read is the next data-path read of $0813 */
    call_ok("breakpoints_memory_watch", "{\"address\":\"$0813\",\"on\":\"read\"}");
    stop = run_to_stop();
    CU_ASSERT_STRING_EQUAL(tdt_str(stop, "reason"), "watchpoint");
    const cJSON *access = cJSON_GetObjectItemCaseSensitive(stop, "access");
    CU_ASSERT_STRING_EQUAL(tdt_str(access, "kind"), "read");
    CU_ASSERT_EQUAL(tdt_num(access, "address"), 0x0813);
    CU_ASSERT_EQUAL(tdt_num(access, "value"), 0x42);
    CU_ASSERT_EQUAL(tdt_num(stop, "pc"), 0x0814); /* after the LDA */
    /* a second one: the reads the hook is called for now include it (the
     * opcode fetch of sub2's NOP, next after STA $0301 and JSR sub2) */
    call_ok("breakpoints_memory_watch", "{\"address\":\"$081B\",\"on\":\"read\"}");
    stop = run_to_stop();
    CU_ASSERT_STRING_EQUAL(tdt_str(stop, "reason"), "watchpoint");
    access = cJSON_GetObjectItemCaseSensitive(stop, "access");
    CU_ASSERT_STRING_EQUAL(tdt_str(access, "kind"), "read");
    CU_ASSERT_EQUAL(tdt_num(access, "address"), 0x081B);
    CU_ASSERT_EQUAL(tdt_num(access, "value"), 0xEA);
    /* deleted again, reads are off: the program runs to its exit */
    call_ok("breakpoints_delete", "{\"all\":true}");
    stop = run_to_stop();
    CU_ASSERT_STRING_EQUAL(tdt_str(stop, "state"), "exited");
}

static void test_ignore_count_and_tracepoint(void)
{
    fresh_session();
    call_ok("breakpoints_set", "{\"address\":\"$0805\",\"log_only\":true}");
    call_ok("breakpoints_set", "{\"address\":\"$0812\",\"ignore_count\":3}");
    const cJSON *stop = run_to_stop();
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetObjectItemCaseSensitive(stop, "registers"), "x"), 3);
    const cJSON *r = call_ok("breakpoints_trace", "{}");
    const cJSON *entries = cJSON_GetObjectItemCaseSensitive(tdt_sc(r), "entries");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(entries), 3);
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetArrayItem(entries, 0), "pc"), 0x0805);
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "next"), 3);
    r = call_ok("breakpoints_trace", "{\"since\":3}");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(tdt_sc(r), "entries")), 0);
}

static void test_toggle_group_and_condition(void)
{
    fresh_session();
    call_ok("breakpoints_set", "{\"address\":\"$0812\",\"group\":\"g\"}");
    call_ok("breakpoints_set", "{\"address\":\"$081B\",\"group\":\"g\"}");
    call_ok("breakpoints_toggle", "{\"group\":\"g\",\"enabled\":false}");
    call_ok("breakpoints_set", "{\"address\":\"$0806\",\"condition\":\"x == 4\"}");
    const cJSON *stop = run_to_stop();
    CU_ASSERT_EQUAL(tdt_num(stop, "pc"), 0x0806);
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetObjectItemCaseSensitive(stop, "registers"), "x"), 4);
    call_ok("breakpoints_condition", "{\"id\":3}"); /* removed: fires at once on the next pass */
    call_ok("breakpoints_toggle", "{\"id\":1}");     /* flips group member 1 back on */
    stop = run_to_stop();
    CU_ASSERT_EQUAL(tdt_num(stop, "pc"), 0x0812);
}

static void test_bad_inputs(void)
{
    fresh_session();
    expect_error("breakpoints_set", "{\"address\":\"$0812\",\"condition\":\"A == $\"}",
                 "position 6");
    expect_error("breakpoints_set", "{\"address\":\"$0812\",\"condition\":\"foo > 1\"}",
                 "unknown name");
    expect_error("breakpoints_set", "{\"address\":\"$10000\"}", "$FFFF");
    expect_error("breakpoints_set", "{\"address\":\"$G000\"}", "address");
    expect_error("breakpoints_set", "{}", "address");
    expect_error("breakpoints_set", "{\"address\":1,\"kind\":\"jump\"}", "kind");
    expect_error("breakpoints_memory_watch", "{\"address\":\"$FFFF\",\"length\":2}", "address");
    expect_error("breakpoints_delete", "{\"id\":99}", "no breakpoint #99");
    expect_error("breakpoints_delete", "{}", "exactly one of id, group or all");
    expect_error("breakpoints_toggle", "{\"group\":\"nope\"}", "enabled");
    expect_error("breakpoints_condition", "{\"id\":42,\"condition\":\"a\"}", "no breakpoint 42");
    expect_error("execution_step", "{\"count\":0}", "count");
    expect_error("execution_run_until", "{}", "exactly one of address");
    expect_error("execution_run_until", "{\"address\":1,\"frames\":2}", "exactly one of address");
    expect_error("execution_run_until", "{\"address\":\"$1FFFF\"}", "$FFFF");
    expect_error("execution_wait", "{\"timeout_ms\":-1}", "timeout_ms");
    expect_error("execution_step", "{\"session\":\"nope\"}", "no machine session named \"nope\"");
    expect_error("execution_wait", "{\"session\":\"nope\"}", "no machine session named \"nope\"");
    expect_error("execution_run", "{\"warp\":\"fast\"}", "warp");
    expect_error("execution_pause", "{\"now\":true}", "now");
    expect_error("execution_get_state", "{\"verbose\":1}", "verbose");
    expect_error("execution_step_out", "{\"timeout_ms\":0}", "timeout_ms");
    expect_error("execution_step_cycle", "{\"cycles\":0}", "cycles");
    expect_error("execution_run_until", "{\"frames\":0}", "frames");
    expect_error("execution_run_until", "{\"frames\":2}", "has no video");
    expect_error("breakpoints_trace", "{\"since\":-1}", "since");
    expect_error("breakpoints_list", "{\"all\":true}", "all");
    expect_error("breakpoints_memory_watch", "{\"address\":1,\"on\":\"exec-ish\"}", "on");
    expect_error("breakpoints_set", "{\"address\":1,\"condition\":\"(a\"}", "position");
    expect_error("breakpoints_set", "{\"address\":1,\"ignore_count\":-3}", "ignore_count");
    expect_error("breakpoints_toggle", "{\"id\":77}", "no breakpoint #77");
    /* Nothing was left behind by the refused calls. */
    const cJSON *r = call_ok("breakpoints_list", "{}");
    CU_ASSERT_EQUAL(
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(tdt_sc(r), "breakpoints")), 0);
}

static void test_wait_times_out_while_running(void)
{
    fresh_session();
    /* Real time: $0800.. runs long enough? No: it exits quickly. Use a
     * breakpoint that never fires and a run_until far away instead. */
    const cJSON *r = call_ok("execution_run_until", "{\"address\":\"$0900\",\"timeout_ms\":20000}");
    const char *state = tdt_str(tdt_sc(r), "state");
    /* The program ends (exit port) before reaching $0900. */
    CU_ASSERT_STRING_EQUAL(state, "exited");
    r = call_ok("execution_wait", "{\"timeout_ms\":0}");
    CU_ASSERT_STRING_EQUAL(tdt_str(tdt_sc(r), "state"), "exited");
}

/* A JAM opcode stops an interactive session in state jammed; steps are
 * refused with advice, a reset would be the way out. */
static void test_jam_stops_the_machine(void)
{
    fresh_session();
    call_ok("memory_write", "{\"address\":\"$0812\",\"bytes\":\"02\"}"); /* JAM in sub */
    const cJSON *stop = run_to_stop();
    CU_ASSERT_STRING_EQUAL(tdt_str(stop, "state"), "jammed");
    CU_ASSERT_STRING_EQUAL(tdt_str(stop, "reason"), "jam");
    CU_ASSERT_EQUAL(tdt_num(stop, "pc"), 0x0812);
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(stop, "jammed")));
    expect_error("execution_step", "{}", "the CPU is jammed");
    const cJSON *r = call_ok("execution_get_state", "{}");
    CU_ASSERT_STRING_EQUAL(tdt_str(tdt_sc(r), "state"), "jammed");
}

/* An interrupt taken during a step over runs through and counts as no
 * step; a step into enters the handler. */
static void test_step_over_an_interrupt(void)
{
    char args[96];
    for (int over = 0; over <= 1; over++) {
        fresh_session_at(irqtest_at);
        snprintf(args, sizeof args, "{\"address\":%d}", (int)nop1_at);
        call_ok("breakpoints_set", args);
        const cJSON *stop = run_to_stop();
        CU_ASSERT_EQUAL(tdt_num(stop, "pc"), nop1_at);
        const cJSON *r = call_ok("execution_step", over ? "{\"over\":true}" : "{}");
        CU_ASSERT_EQUAL(tdt_num(stop_of(r), "pc"), over ? nop2_at : handler_at);
        if (over)
            CU_ASSERT_EQUAL(
                tdt_num(cJSON_GetObjectItemCaseSensitive(stop_of(r), "registers"), "a"), 1);
    }
}

/* An execution breakpoint over sled+2..sled+4 stops at its first and its
 * last address and at none outside: not at sled+1 (one before) nor at
 * sled+5 (one past the end). Given both as length and as end. */
static void test_exec_range_ends(void)
{
    static const char *const ranges[] = {"\"length\":3", "\"end\":%d"};
    for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; k++) {
        fresh_session_at(sled_at);
        char range[32], args[128];
        snprintf(range, sizeof range, ranges[k], (int)sled_at + 4);
        snprintf(args, sizeof args, "{\"address\":%d,%s}", (int)sled_at + 2, range);
        call_ok("breakpoints_set", args);
        for (int32_t pc = sled_at + 2; pc <= sled_at + 4; pc++) {
            const cJSON *stop = run_to_stop();
            CU_ASSERT_STRING_EQUAL(tdt_str(stop, "reason"), "breakpoint");
            if (tdt_num(stop, "pc") != pc)
                fprintf(stderr, "\n  range %s: stopped at %.0f, want %d\n", args,
                        tdt_num(stop, "pc"), (int)pc);
            CU_ASSERT_EQUAL(tdt_num(stop, "pc"), pc);
        }
        /* past the last address the program runs to its exit */
        const cJSON *stop = run_to_stop();
        CU_ASSERT_STRING_EQUAL(tdt_str(stop, "state"), "exited");
    }
}

MH_SUITE("debug.execution", suite_init, suite_cleanup,
         {"step over runs an interrupt through", test_step_over_an_interrupt},
         {"a JAM opcode leaves the machine jammed", test_jam_stops_the_machine},
         {"a new session is paused", test_new_session_is_paused},
         {"a breakpoint set before the run is hit", test_breakpoint_before_run_is_hit},
         {"step, step over, step out, run until, step cycles", test_steps},
         {"run_until on an exiting program", test_wait_times_out_while_running});

MH_SUITE("debug.breakpoints", suite_init, suite_cleanup,
         {"watchpoint with a condition, change watchpoint", test_watchpoint_with_condition},
         {"a read watchpoint set after a run without one", test_read_watchpoint_after_writes_only},
         {"ignore count and tracepoint", test_ignore_count_and_tracepoint},
         {"toggle, group and condition", test_toggle_group_and_condition},
         {"an exec range stops at its first and last address only", test_exec_range_ends},
         {"bad inputs", test_bad_inputs});
