/* Suite debug.trace: the debug engine's traces (host/debug/debug_trace.c)
 * through the tools-debug trace tools on the bare6502 machine, called the
 * way a client calls them: cycle counters over a routine (to its return,
 * nested calls included) and between two addresses with their exact
 * cycle counts, a frame trace on a machine without video (it records at
 * once) with its address and PC filters and its capacity, and the
 * arguments the tools refuse. */
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

/* sub runs LDA # (2) + STA abs (4) + JSR (6) + NOP (2) + RTS (6) + RTS
 * (6) = 26 cycles; from loop to the INX after the JSR is 6 + 26 = 32. */
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
    "        RTS\n";            /* $081C */

/* A BRK, then an IRQ through the interrupt port ($F003), both into
 * handler, which releases the line. */
static const char interrupts[] =
    "        *= $0900\n"
    "start   LDA #<handler\n"
    "        STA $FFFE\n"
    "        LDA #>handler\n"
    "        STA $FFFF\n"
    "        BRK\n"
    "        .byte 0\n"
    "        CLI\n"
    "        LDA #1\n"
    "        STA $F003\n"
    "        NOP\n"
    "        LDA #7\n"
    "        STA $F002\n"
    "handler PHA\n"
    "        LDA #0\n"
    "        STA $F003\n"
    "        PLA\n"
    "        RTI\n";
static char irq_prg[128];
static int32_t handler_at = -1;

/* Assembles source into a PRG file at path; label's value into *at (may
 * be NULL). */
static int write_prg(const char *source, const char *path, const char *label, int32_t *at)
{
    mh_asm6502_result result;
    if (mh_asm6502_assemble(source, strlen(source), NULL, &result) != MH_OK ||
        result.chunk_count != 1) {
        mh_asm6502_result_free(&result);
        return -1;
    }
    for (size_t i = 0; label && i < result.symbol_count; i++)
        if (strcmp(result.symbols[i].name, label) == 0) *at = result.symbols[i].value;
    FILE *f = fopen(path, "wb");
    if (!f) {
        mh_asm6502_result_free(&result);
        return -1;
    }
    const mh_asm6502_chunk *chunk = &result.chunks[0];
    uint8_t header[2] = {(uint8_t)(chunk->address & 0xFF), (uint8_t)(chunk->address >> 8)};
    fwrite(header, 1, 2, f);
    fwrite(chunk->bytes, 1, chunk->size, f);
    fclose(f);
    mh_asm6502_result_free(&result);
    return 0;
}

static int suite_init(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/mh_debug_trace_XXXXXX");
    if (!mkdtemp(tmpdir)) return -1;
    if (tdt_setup(&h) != 0 || tdt_allow_dir(&h, tmpdir) != 0) return -1;
    snprintf(prg, sizeof prg, "%s/trace.prg", tmpdir);
    snprintf(irq_prg, sizeof irq_prg, "%s/irq.prg", tmpdir);
    if (write_prg(program, prg, NULL, NULL) != 0 ||
        write_prg(interrupts, irq_prg, "handler", &handler_at) != 0)
        return -1;
    return 0;
}

static int suite_cleanup(void)
{
    tdt_teardown(&h);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static const cJSON *call_ok(const char *tool, const char *args)
{
    const cJSON *r = mh_harness_call_tool(&h, tool, args);
    TDT_OK(r);
    return r;
}

static void expect_error(const char *tool, const char *args, const char *needle)
{
    TDT_ERR(mh_harness_call_tool(&h, tool, args), needle);
}

static const cJSON *member(const cJSON *r, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(tdt_sc(r), key);
}

/* A fresh paused session "tr" with path loaded, starting at start. */
static void fresh_session_with(const char *path, int start)
{
    mh_harness_call_tool(&h, "session_destroy", "{\"session\":\"tr\"}");
    char args[512];
    snprintf(args, sizeof args,
             "{\"machine\":\"bare6502\",\"name\":\"tr\",\"options\":{\"program\":\"%s\","
             "\"exit_port\":\"$F002\",\"irq_port\":\"$F003\",\"start\":%d}}",
             path, start);
    const cJSON *r = mh_harness_call_tool(&h, "session_create", args);
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    CU_ASSERT_FALSE(mh_harness_is_error(mh_harness_call_tool(&h, "session_select",
                                                             "{\"session\":\"tr\"}")));
}

static void fresh_session(void) { fresh_session_with(prg, 0x0800); }

static void run_to_exit(void)
{
    call_ok("execution_run", "{\"warp\":true}");
    call_ok("execution_wait", "{\"timeout_ms\":20000}");
}

static void test_counters_measure_routines_and_spans(void)
{
    fresh_session();
    call_ok("trace_cycles_get", "{\"start\":\"$0812\"}");
    call_ok("trace_cycles_get", "{\"start\":\"$0802\",\"end\":\"$0805\"}");
    call_ok("trace_cycles_get", "{\"start\":\"$0812\"}"); /* the same one again: no new counter */
    run_to_exit();
    const cJSON *r = call_ok("trace_cycles_get", "{}");
    const cJSON *counters = member(r, "counters");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(counters), 2);
    const cJSON *sub = cJSON_GetArrayItem(counters, 0), *span = cJSON_GetArrayItem(counters, 1);
    CU_ASSERT_EQUAL(tdt_num(sub, "start"), 0x0812);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItemCaseSensitive(sub, "end"));
    CU_ASSERT_EQUAL(tdt_num(sub, "runs"), 5);
    CU_ASSERT_EQUAL(tdt_num(sub, "min"), 26); /* the nested JSR sub2 does not end it */
    CU_ASSERT_EQUAL(tdt_num(sub, "max"), 26);
    CU_ASSERT_EQUAL(tdt_num(sub, "avg"), 26);
    CU_ASSERT_EQUAL(tdt_num(span, "end"), 0x0805);
    CU_ASSERT_EQUAL(tdt_num(span, "runs"), 5);
    CU_ASSERT_EQUAL(tdt_num(span, "min"), 32);
    CU_ASSERT_EQUAL(tdt_num(span, "last"), 32);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "5 runs, min 26, max 26"));

    r = call_ok("trace_cycles_reset", "{\"start\":\"$0802\"}");
    counters = member(r, "counters");
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetArrayItem(counters, 0), "runs"), 5);
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetArrayItem(counters, 1), "runs"), 0);
    expect_error("trace_cycles_reset", "{\"start\":\"$1234\"}", "no counter starts at $1234");
    r = call_ok("trace_cycles_reset", "{\"remove\":true}");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(member(r, "counters")), 0);
    expect_error("trace_cycles_get", "{\"end\":\"$0805\"}", "end needs a start");
}

static void test_counters_have_a_limit(void)
{
    fresh_session();
    char args[64];
    for (int i = 0; i < 16; i++) {
        snprintf(args, sizeof args, "{\"start\":%d}", 0x1000 + i);
        call_ok("trace_cycles_get", args);
    }
    expect_error("trace_cycles_get", "{\"start\":\"$2000\"}", "all 16 are in use");
    call_ok("trace_cycles_reset", "{\"remove\":true}");
}

static void test_frame_trace_without_video(void)
{
    fresh_session();
    /* no register-bearing chips: the address range itself is traced, and
     * with no video the trace records at once */
    const cJSON *r = call_ok("trace_frame_start", "{\"address\":\"$0300\",\"end\":\"$0301\"}");
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"), "addresses"), 2);
    run_to_exit();
    r = call_ok("trace_frame_get", "{\"order\":\"oldest\",\"count\":100}");
    const cJSON *writes = member(r, "writes");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(writes), 10);
    /* sub's STA $0301 first, then the loop's STX $0300 with X = 1 */
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetArrayItem(writes, 0), "address"), 0x0301);
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetArrayItem(writes, 0), "pc"), 0x0814);
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetArrayItem(writes, 1), "address"), 0x0300);
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetArrayItem(writes, 1), "value"), 1);
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetArrayItem(writes, 9), "value"), 5);
    CU_ASSERT_TRUE(tdt_num(cJSON_GetArrayItem(writes, 1), "cycle") >
                   tdt_num(cJSON_GetArrayItem(writes, 0), "cycle"));
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(member(r, "state")), "recording");

    /* PC filter and capacity: only sub's writes, the first 3 kept */
    fresh_session();
    call_ok("trace_frame_start",
            "{\"address\":\"$0300\",\"end\":\"$0301\",\"pc_start\":\"$0812\",\"capacity\":3}");
    run_to_exit();
    r = call_ok("trace_frame_stop", "{}");
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(member(r, "state")), "done");
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"), "recorded"), 3);
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"), "dropped"), 2);
    r = call_ok("trace_frame_get", "{}");
    writes = member(r, "writes");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(writes), 3);
    for (int i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(tdt_num(cJSON_GetArrayItem(writes, i), "address"), 0x0301);
}

static void test_events_log_interrupts_taken(void)
{
    fresh_session_with(irq_prg, 0x0900);
    call_ok("trace_events_get", "{\"size\":64}");
    run_to_exit();
    const cJSON *r = call_ok("trace_events_get", "{\"order\":\"oldest\"}");
    const cJSON *events = member(r, "events");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(events), 2);
    for (int i = 0; i < 2; i++) {
        const cJSON *e = cJSON_GetArrayItem(events, i);
        CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(e, "kind")), "taken");
        CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(e, "chip")), "cpu");
        CU_ASSERT_EQUAL(tdt_num(e, "pc"), handler_at);
        CU_ASSERT_EQUAL(tdt_num(e, "detail"), i == 0 ? 2 : 0); /* BRK, then IRQ */
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "took BRK"));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "took IRQ"));
    r = call_ok("trace_events_get", "{\"size\":0}");
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"), "matched"), 0);
}

static void test_trace_arguments_refused(void)
{
    fresh_session();
    expect_error("trace_frame_start", "{}", "no chip register matches");
    expect_error("trace_frame_start", "{\"address\":\"$0400\",\"end\":\"$0300\"}",
                 "address must be <= end");
    expect_error("trace_frame_start", "{\"chip\":\"vic2\"}", "no chip register matches");
    expect_error("trace_frame_start", "{\"frames\":-1,\"address\":0}", "frames");
    expect_error("trace_events_get", "{\"kind\":\"dma\"}", "kind");
    expect_error("trace_events_get", "{\"size\":-5}", "size");
    const cJSON *r = call_ok("trace_events_get", "{}");
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"), "size"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "turn on with size"));
    r = call_ok("trace_events_get", "{\"size\":100}");
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"), "size"), 128);
    r = call_ok("trace_frame_get", "{}");
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(member(r, "state")), "off");
}

MH_SUITE("debug.trace", suite_init, suite_cleanup,
         {"cycle counters over a routine and a span", test_counters_measure_routines_and_spans},
         {"cycle counters have a limit", test_counters_have_a_limit},
         {"a frame trace without video, with filters and capacity",
          test_frame_trace_without_video},
         {"the event log has the interrupts the CPU took", test_events_log_interrupts_taken},
         {"trace arguments are checked", test_trace_arguments_refused});
