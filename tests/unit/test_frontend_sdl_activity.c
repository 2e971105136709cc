/* frontend_sdl.activity - the SDL window's activity model (activity.c)
 * without SDL: tool calls begun and ended (client, tool, short arguments,
 * duration, summary, error), execution events, the followed session's
 * status from stop records (reason, requested_by, breakpoint, PC,
 * registers, disassembly), the hidden test-hook tool, the ring's limit,
 * and observations from several threads at once. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "activity.h"
#include "mcphost/events.h"
#include "mh_test.h"

static mh_observation call_obs(uint32_t kind, uint64_t id, const char *tool, const char *args)
{
    mh_observation o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.kind = kind;
    o.session = "c64-1";
    o.call_id = id;
    o.client = "claude-code 2.0.1 (stdio)";
    o.tool = tool;
    o.detail_json = args;
    return o;
}

static mh_observation event_obs(uint32_t type, const char *detail)
{
    mh_observation o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.kind = MH_OBSERVE_EXEC_EVENT;
    o.session = "c64-1";
    o.event_type = type;
    o.detail_json = detail;
    return o;
}

static void test_call_begin_end(void)
{
    fe_activity *a = fe_activity_new(NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    uint64_t v0 = fe_activity_version(a);
    mh_observation b = call_obs(MH_OBSERVE_TOOL_BEGIN, 7, "memory_read",
                                "{\"address\":\"$C000\",\"length\":16}");
    fe_activity_observe(a, &b);
    fe_entry e[4];
    CU_ASSERT_EQUAL_FATAL(fe_activity_entries(a, e, 4), 1);
    CU_ASSERT_TRUE(e[0].pending);
    CU_ASSERT_EQUAL(e[0].kind, FE_ENTRY_CALL);
    CU_ASSERT_STRING_EQUAL(e[0].tool, "memory_read");
    CU_ASSERT_STRING_EQUAL(e[0].client, "claude-code 2.0.1 (stdio)");
    CU_ASSERT_STRING_EQUAL(e[0].args, "address=$C000 length=16");
    CU_ASSERT_TRUE(e[0].begun_ns > 0);
    mh_observation end = call_obs(MH_OBSERVE_TOOL_END, 7, "memory_read", NULL);
    end.duration_ns = 1500000;
    end.is_error = 1;
    end.summary = "memory_read: address: \"nowhere\" is not an address";
    fe_activity_observe(a, &end);
    CU_ASSERT_EQUAL_FATAL(fe_activity_entries(a, e, 4), 1);
    CU_ASSERT_FALSE(e[0].pending);
    CU_ASSERT_TRUE(e[0].is_error);
    CU_ASSERT_EQUAL(e[0].duration_ns, 1500000);
    CU_ASSERT_TRUE(e[0].ended_ns >= e[0].begun_ns);
    CU_ASSERT_STRING_EQUAL(e[0].summary, "memory_read: address: \"nowhere\" is not an address");
    CU_ASSERT_TRUE(fe_activity_version(a) > v0);
    fe_activity_free(a);
}

static void test_end_without_begin(void)
{
    fe_activity *a = fe_activity_new(NULL);
    mh_observation end = call_obs(MH_OBSERVE_TOOL_END, 3, "registers_get", NULL);
    end.summary = "PC=$E5CF";
    fe_activity_observe(a, &end);
    fe_entry e[2];
    CU_ASSERT_EQUAL_FATAL(fe_activity_entries(a, e, 2), 1);
    CU_ASSERT_FALSE(e[0].pending);
    CU_ASSERT_STRING_EQUAL(e[0].tool, "registers_get");
    CU_ASSERT_STRING_EQUAL(e[0].summary, "PC=$E5CF");
    fe_activity_free(a);
}

static void test_hidden_tool(void)
{
    fe_activity *a = fe_activity_new("sdl_window_report");
    mh_observation b = call_obs(MH_OBSERVE_TOOL_BEGIN, 1, "sdl_window_report", "{}");
    fe_activity_observe(a, &b);
    b.kind = MH_OBSERVE_TOOL_END;
    fe_activity_observe(a, &b);
    fe_entry e[2];
    CU_ASSERT_EQUAL(fe_activity_entries(a, e, 2), 0);
    fe_activity_free(a);
}

static void test_short_args(void)
{
    char out[32];
    fe_activity_short_args("{\"warp\":true,\"count\":3,\"bytes\":[1,2,3],\"opts\":{\"a\":1}}", out,
                           sizeof out);
    CU_ASSERT_STRING_EQUAL(out, "warp=true count=3 bytes=[3] ...");
    fe_activity_short_args("{}", out, sizeof out);
    CU_ASSERT_STRING_EQUAL(out, "");
    fe_activity_short_args(NULL, out, sizeof out);
    CU_ASSERT_STRING_EQUAL(out, "");
    fe_activity_short_args("not json", out, sizeof out);
    CU_ASSERT_STRING_EQUAL(out, "not json");
    char tiny[8];
    fe_activity_short_args("{\"address\":\"$C000\"}", tiny, sizeof tiny);
    CU_ASSERT_STRING_EQUAL(tiny, "addr...");
}

static const char *stop_record =
    "{\"state\":\"stopped\",\"reason\":\"breakpoint\",\"stop_id\":4,"
    "\"breakpoint\":{\"id\":2,\"kind\":\"exec\"},\"pc\":49152,\"pc_hex\":\"$C000\","
    "\"instruction\":\"LDA #$00\",\"registers\":{\"a\":0,\"text\":\"A=$00 X=$01 Y=$02 S=$F3 "
    "P=nv-bdIzc\"},\"raster\":{\"line\":48,\"cycle\":12},\"cycles\":123456,"
    "\"disassembly\":[{\"address\":49150,\"bytes\":\"EA\",\"text\":\"NOP\"},"
    "{\"address\":49152,\"bytes\":\"A9 00\",\"text\":\"LDA #$00\",\"current\":true}]}";

static void test_stop_status(void)
{
    fe_activity *a = fe_activity_new(NULL);
    fe_activity_follow(a, "c64-1", "c64");
    fe_activity_initial_state(a, "c64-1", "paused");
    fe_status st;
    fe_activity_status(a, &st);
    CU_ASSERT_STRING_EQUAL(st.state, "paused");
    mh_observation r = event_obs(MH_EVENT_RESUMED, "{\"goal\":\"continue\",\"warp\":true}");
    fe_activity_observe(a, &r);
    fe_activity_status(a, &st);
    CU_ASSERT_STRING_EQUAL(st.state, "running");
    CU_ASSERT_TRUE(st.warp);
    fe_activity_initial_state(a, "c64-1", "paused"); /* an event set it already */
    fe_activity_status(a, &st);
    CU_ASSERT_STRING_EQUAL(st.state, "running");
    mh_observation bp = event_obs(MH_EVENT_BREAKPOINT, stop_record);
    fe_activity_observe(a, &bp);
    mh_observation s = event_obs(MH_EVENT_STOPPED, stop_record);
    fe_activity_observe(a, &s);
    fe_activity_status(a, &st);
    CU_ASSERT_STRING_EQUAL(st.state, "stopped");
    CU_ASSERT_STRING_EQUAL(st.reason, "breakpoint");
    CU_ASSERT_EQUAL(st.breakpoint, 2);
    CU_ASSERT_EQUAL(st.pc, 0xC000);
    CU_ASSERT_EQUAL(st.stop_count, 1);
    CU_ASSERT_STRING_EQUAL(st.instruction, "LDA #$00");
    CU_ASSERT_STRING_EQUAL(st.registers, "A=$00 X=$01 Y=$02 S=$F3 P=nv-bdIzc");
    CU_ASSERT_EQUAL(st.raster_line, 48);
    CU_ASSERT_EQUAL(st.cycles, 123456);
    CU_ASSERT_EQUAL_FATAL(st.disasm_count, 2);
    CU_ASSERT_FALSE(st.disasm[0].current);
    CU_ASSERT_TRUE(st.disasm[1].current);
    CU_ASSERT_STRING_EQUAL(st.disasm[1].bytes, "A9 00");
    /* the list: resumed, then the stop once (the breakpoint event is not doubled) */
    fe_entry e[8];
    size_t n = fe_activity_entries(a, e, 8);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_STRING_EQUAL(e[0].tool, "resumed");
    CU_ASSERT_STRING_EQUAL(e[1].tool, "stopped");
    CU_ASSERT_STRING_EQUAL(e[1].args, "breakpoint #2 at $C000");
    fe_activity_free(a);
}

static void test_pause_by_window(void)
{
    fe_activity *a = fe_activity_new(NULL);
    fe_activity_follow(a, "c64-1", "c64");
    mh_observation s = event_obs(MH_EVENT_STOPPED,
                                 "{\"state\":\"paused\",\"reason\":\"pause\",\"requested_by\":"
                                 "\"window\",\"pc\":58831}");
    fe_activity_observe(a, &s);
    fe_status st;
    fe_activity_status(a, &st);
    CU_ASSERT_STRING_EQUAL(st.state, "paused");
    CU_ASSERT_STRING_EQUAL(st.requested_by, "window");
    fe_entry e[2];
    CU_ASSERT_EQUAL_FATAL(fe_activity_entries(a, e, 2), 1);
    CU_ASSERT_STRING_EQUAL(e[0].args, "pause by window at $E5CF");
    /* another session's stop is listed but does not change the status */
    mh_observation other = event_obs(MH_EVENT_STOPPED, stop_record);
    other.session = "c64-2";
    fe_activity_observe(a, &other);
    fe_activity_status(a, &st);
    CU_ASSERT_STRING_EQUAL(st.reason, "pause");
    CU_ASSERT_EQUAL(fe_activity_entries(a, e, 2), 2);
    /* following another session starts its status afresh */
    fe_activity_follow(a, "c64-2", "c64");
    fe_activity_status(a, &st);
    CU_ASSERT_EQUAL(st.stop_count, 0);
    CU_ASSERT_STRING_EQUAL(st.session, "c64-2");
    fe_activity_free(a);
}

static void test_bad_stop_record(void)
{
    fe_activity *a = fe_activity_new(NULL);
    fe_activity_follow(a, "c64-1", "c64");
    mh_observation s = event_obs(MH_EVENT_STOPPED, "{not json");
    fe_activity_observe(a, &s);
    s.detail_json = NULL;
    fe_activity_observe(a, &s);
    fe_status st;
    fe_activity_status(a, &st);
    CU_ASSERT_EQUAL(st.stop_count, 2);
    CU_ASSERT_STRING_EQUAL(st.reason, "");
    fe_activity_observe(a, NULL);
    fe_activity_free(a);
}

static void test_ring_keeps_newest(void)
{
    fe_activity *a = fe_activity_new(NULL);
    for (uint64_t i = 1; i <= FE_ACTIVITY_MAX + 10; i++) {
        mh_observation b = call_obs(MH_OBSERVE_TOOL_BEGIN, i, "registers_get", "{}");
        fe_activity_observe(a, &b);
    }
    fe_entry *e = calloc(FE_ACTIVITY_MAX + 10, sizeof *e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    size_t n = fe_activity_entries(a, e, FE_ACTIVITY_MAX + 10);
    CU_ASSERT_EQUAL(n, FE_ACTIVITY_MAX);
    CU_ASSERT_EQUAL(e[0].call_id, 11);
    CU_ASSERT_EQUAL(e[n - 1].call_id, FE_ACTIVITY_MAX + 10);
    CU_ASSERT_EQUAL(fe_activity_entries(a, e, 3), 3);
    CU_ASSERT_EQUAL(e[2].call_id, FE_ACTIVITY_MAX + 10);
    /* the end of a call that scrolled away comes in as a new entry */
    mh_observation end = call_obs(MH_OBSERVE_TOOL_END, 1, "registers_get", NULL);
    fe_activity_observe(a, &end);
    CU_ASSERT_EQUAL(fe_activity_entries(a, e, 1), 1);
    CU_ASSERT_EQUAL(e[0].call_id, 1);
    CU_ASSERT_FALSE(e[0].pending);
    free(e);
    fe_activity_free(a);
}

typedef struct thread_arg {
    fe_activity *a;
    uint64_t base;
} thread_arg;

static void *observe_thread(void *arg)
{
    thread_arg *t = arg;
    for (uint64_t i = 0; i < 500; i++) {
        mh_observation b = call_obs(MH_OBSERVE_TOOL_BEGIN, t->base + i, "memory_read", "{}");
        fe_activity_observe(t->a, &b);
        b.kind = MH_OBSERVE_TOOL_END;
        fe_activity_observe(t->a, &b);
    }
    return NULL;
}

static void test_threads(void)
{
    fe_activity *a = fe_activity_new(NULL);
    pthread_t threads[4];
    thread_arg args[4];
    for (int i = 0; i < 4; i++) {
        args[i] = (thread_arg){a, (uint64_t)(i + 1) * 100000};
        pthread_create(&threads[i], NULL, observe_thread, &args[i]);
    }
    fe_entry e[16];
    for (int i = 0; i < 100; i++) fe_activity_entries(a, e, 16);
    for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
    fe_entry *all = calloc(FE_ACTIVITY_MAX, sizeof *all);
    size_t n = fe_activity_entries(a, all, FE_ACTIVITY_MAX);
    CU_ASSERT_EQUAL(n, FE_ACTIVITY_MAX);
    for (size_t i = 0; i < n; i++) CU_ASSERT_FALSE(all[i].pending);
    for (size_t i = 1; i < n; i++) CU_ASSERT_EQUAL(all[i].seq, all[i - 1].seq + 1);
    free(all);
    fe_activity_free(a);
}

MH_SUITE("frontend_sdl.activity", NULL, NULL, MH_TEST(test_call_begin_end),
         MH_TEST(test_end_without_begin), MH_TEST(test_hidden_tool), MH_TEST(test_short_args),
         MH_TEST(test_stop_status), MH_TEST(test_pause_by_window), MH_TEST(test_bad_stop_record),
         MH_TEST(test_ring_keeps_newest), MH_TEST(test_threads))
