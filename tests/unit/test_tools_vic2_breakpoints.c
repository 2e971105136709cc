/* tools_vic2.breakpoints - the state-based breakpoints of tools-vic2 on the
 * host's debug engine, through tool calls on the real machine-c64.so (with
 * tools-debug for memory_write, registers_set, execution_* and
 * breakpoints_trace): a raster-IRQ split program (border 2 from line 100,
 * 6 from line 200) is stopped by breakpoints_raster on line 100 in the
 * line's first cycles; breakpoints_vic_register_write stops after the
 * handler's $D020 store (through a mirror too) and logs $D020 writes for
 * one frame only; two overlapping sprites stop breakpoints_sprite_collision
 * on their first line; breakpoints_composite fires on raster AND register;
 * bad inputs are refused. Needs /usr/share/open-roms/C64. */
#include <stdio.h>
#include <string.h>

#include "host_harness.h"
#include "loader.h"
#include "mh_test.h"
#include "sessions.h"
#include "test_c64_common.h"

#ifndef MH_PLUGIN_BUILD_DIR
#error "MH_PLUGIN_BUILD_DIR must be defined"
#endif

static mh_harness h;
static unsigned irq_address; /* the handler's entry (PHA; LDA $D012) */

static const char split_program[] =
    "        *= $C000\n"
    "start:  SEI\n"
    "        LDA #$7F\n"
    "        STA $DC0D\n"
    "        STA $DD0D\n"
    "        LDA $DC0D\n"
    "        LDA $DD0D\n"
    "        LDA #$35\n"
    "        STA $01\n"
    "        LDA #<irq\n"
    "        STA $FFFE\n"
    "        LDA #>irq\n"
    "        STA $FFFF\n"
    "        LDA #$1B\n"
    "        STA $D011\n"
    "        LDA #100\n"
    "        STA $D012\n"
    "        LDA #$01\n"
    "        STA $D01A\n"
    "        STA $D019\n"
    "        CLI\n"
    "loop:   JMP loop\n"
    "irq:    PHA\n"
    "        LDA $D012\n"
    "        CMP #200\n"
    "        BCS low\n"
    "        LDA #2\n"
    "        STA $D020\n"
    "        LDA #200\n"
    "        STA $D012\n"
    "        JMP done\n"
    "low:    LDA #6\n"
    "        STA $D060\n" /* a mirror of $D020 */
    "        LDA #100\n"
    "        STA $D012\n"
    "done:   LDA #$01\n"
    "        STA $D019\n"
    "        PLA\n"
    "        RTI\n";

static const cJSON *call(const char *tool, const char *args)
{
    return mh_harness_call_tool(&h, tool, args);
}

static const cJSON *obj(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = obj(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static const cJSON *sc(const cJSON *r) { return obj(r, "structuredContent"); }

static int ok(const cJSON *r)
{
    if (!r || mh_harness_is_error(r)) {
        fprintf(stderr, "  tool error: %s\n", r ? mh_harness_text(r) : "(no result)");
        return 0;
    }
    return 1;
}

static int error_has(const cJSON *r, const char *a, const char *b)
{
    if (!r || !mh_harness_is_error(r)) return 0;
    const char *text = mh_harness_text(r);
    int found = strstr(text, a) && (!b || strstr(text, b));
    if (!found) fprintf(stderr, "  error text: %s\n", text);
    return found;
}

/* Runs and waits for the stop; returns the stop record. */
static const cJSON *run_to_stop(void)
{
    if (!ok(call("execution_run", "{\"session\":\"bp64\",\"warp\":true}"))) return NULL;
    const cJSON *r = call("execution_wait", "{\"session\":\"bp64\",\"timeout_ms\":10000}");
    if (!ok(r)) return NULL;
    const cJSON *stop = obj(sc(r), "stop");
    return stop ? stop : sc(r);
}

static int suite_init(void)
{
    char error[1024];
    if (mh_harness_init(&h, 0) != 0) return -1;
    const char *plugins[] = {MH_C64_PLUGIN, MH_PLUGIN_BUILD_DIR "/tools-vic2.so",
                             MH_PLUGIN_BUILD_DIR "/tools-debug.so"};
    for (size_t i = 0; i < 3; i++)
        if (mh_loader_load_file(&h.ctx, plugins[i], error, sizeof error) != MH_OK) {
            fprintf(stderr, "loading %s: %s\n", plugins[i], error);
            return -1;
        }
    mh_harness_initialize(&h, "2025-11-25");
    if (!ok(call("session_create", "{\"machine\":\"c64\",\"name\":\"bp64\"}"))) return -1;
    /* Boot to READY., then load the split program and start it. */
    if (!ok(call("execution_run_until",
                 "{\"session\":\"bp64\",\"cycles\":3000000,\"warp\":true,\"timeout_ms\":60000}")))
        return -1;
    static uint8_t image[65536];
    int lo = 0, hi = 0;
    if (c64t_assemble(split_program, image, &lo, &hi) != 0) return -1;
    for (int a = lo; a + 3 <= hi && !irq_address; a++)
        if (image[a] == 0x48 && image[a + 1] == 0xAD && image[a + 2] == 0x12 && image[a + 3] == 0xD0)
            irq_address = (unsigned)a;
    static char args[8192];
    int n = snprintf(args, sizeof args, "{\"session\":\"bp64\",\"address\":%d,\"bytes\":\"", lo);
    for (int a = lo; a <= hi; a++) n += snprintf(args + n, sizeof args - (size_t)n, "%02X", image[a]);
    snprintf(args + n, sizeof args - (size_t)n, "\"}");
    if (!ok(call("memory_write", args)) ||
        !ok(call("registers_set", "{\"session\":\"bp64\",\"pc\":\"$C000\"}")) ||
        !ok(call("execution_run_until", "{\"session\":\"bp64\",\"frames\":3,\"warp\":true}")))
        return -1;
    return 0;
}

static int suite_cleanup(void)
{
    mh_harness_free(&h);
    return 0;
}

static void delete_all(void)
{
    CU_ASSERT_TRUE(ok(call("breakpoints_delete", "{\"session\":\"bp64\",\"all\":true}")));
}

static void test_program_splits_the_border(void)
{
    const cJSON *r = call("vic2_borders_get", "{\"session\":\"bp64\"}");
    CU_ASSERT_TRUE_FATAL(ok(r));
    const cJSON *runs = obj(sc(r), "runs");
    /* Lines 0-99 border 6 ... the handler's store lands in line 100. */
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(runs), 3);
    CU_ASSERT_EQUAL(num(cJSON_GetArrayItem(runs, 0), "border"), 6);
    CU_ASSERT_EQUAL(num(cJSON_GetArrayItem(runs, 1), "first"), 100);
    CU_ASSERT_EQUAL(num(cJSON_GetArrayItem(runs, 1), "border"), 2);
    CU_ASSERT_EQUAL(num(cJSON_GetArrayItem(runs, 2), "first"), 200);
    CU_ASSERT_EQUAL(num(cJSON_GetArrayItem(runs, 2), "border"), 6);
}

static void test_raster_stops_on_line_and_cycle(void)
{
    const cJSON *r = call("breakpoints_raster", "{\"session\":\"bp64\",\"line\":100}");
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_TRUE(num(sc(r), "id") >= 1);
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(sc(r), "kind")), "raster");
    for (int i = 0; i < 2; i++) { /* twice: it fires again in the next frame */
        const cJSON *stop = run_to_stop();
        CU_ASSERT_PTR_NOT_NULL_FATAL(stop);
        CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(stop, "state")), "stopped");
        const cJSON *detail = obj(obj(stop, "breakpoint"), "detail");
        CU_ASSERT_EQUAL(num(detail, "line"), 100);
        /* The first instruction boundary in the line: JMP loop is 3 cycles,
         * the IRQ sequence 7, so within the first 10 cycles. */
        CU_ASSERT_TRUE(num(detail, "cycle") >= 1 && num(detail, "cycle") <= 10);
        CU_ASSERT_EQUAL(num(obj(stop, "raster"), "line"), 100);
        CU_ASSERT_EQUAL(num(obj(stop, "raster"), "cycle"), num(detail, "cycle"));
    }
    delete_all();
    /* every_line over a range: consecutive stops on 150, 151. */
    CU_ASSERT_TRUE(ok(call("breakpoints_raster", "{\"session\":\"bp64\",\"line\":150,"
                                                 "\"end_line\":151,\"mode\":\"every_line\"}")));
    const cJSON *stop = run_to_stop();
    CU_ASSERT_EQUAL(num(obj(obj(stop, "breakpoint"), "detail"), "line"), 150);
    stop = run_to_stop();
    CU_ASSERT_EQUAL(num(obj(obj(stop, "breakpoint"), "detail"), "line"), 151);
    stop = run_to_stop();
    CU_ASSERT_EQUAL(num(obj(obj(stop, "breakpoint"), "detail"), "line"), 150);
    delete_all();
}

static void test_register_write_stops_and_logs(void)
{
    const cJSON *r = call("breakpoints_vic_register_write",
                          "{\"session\":\"bp64\",\"register\":\"$D020\",\"value\":6}");
    CU_ASSERT_TRUE_FATAL(ok(r));
    const cJSON *stop = run_to_stop();
    CU_ASSERT_PTR_NOT_NULL_FATAL(stop);
    const cJSON *access = obj(stop, "access");
    CU_ASSERT_EQUAL(num(access, "address"), 0xD060); /* the handler writes the mirror */
    CU_ASSERT_EQUAL(num(access, "value"), 6);
    CU_ASSERT_EQUAL(num(obj(stop, "raster"), "line"), 200);
    delete_all();

    /* Log-only for one frame: at most one write of each colour. */
    r = call("breakpoints_vic_register_write",
             "{\"session\":\"bp64\",\"register\":32,\"frames\":1}");
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_TRUE(cJSON_IsTrue(obj(sc(r), "log_only")));
    double id = num(sc(r), "id");
    CU_ASSERT_TRUE(ok(call("execution_run_until", "{\"session\":\"bp64\",\"frames\":4,\"warp\":true}")));
    r = call("breakpoints_trace", "{\"session\":\"bp64\"}");
    CU_ASSERT_TRUE_FATAL(ok(r));
    const cJSON *entries = obj(sc(r), "entries");
    int writes = 0, twos = 0, sixes = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, entries)
    {
        if (num(e, "breakpoint") != id) continue;
        writes++;
        const cJSON *a = obj(e, "access");
        CU_ASSERT_EQUAL((int)num(a, "address") & 0xFC3F, 0xD020);
        if (num(a, "value") == 2) twos++;
        if (num(a, "value") == 6) sixes++;
    }
    /* 4 frames ran, one frame's worth of cycles was logged: from line 200
     * (stopped after the store there) to line 200 of the next frame. */
    CU_ASSERT_TRUE(writes >= 1 && writes <= 2); /* unlimited, 4 frames make 8 */
    CU_ASSERT_EQUAL(twos, 1);
    CU_ASSERT_TRUE(sixes <= 1); /* line 200 is at the limit's edge */
    delete_all();
}

static void test_sprite_collision(void)
{
    /* Armed before the sprites exist: the latch is clear. */
    const cJSON *r = call("breakpoints_sprite_collision",
                          "{\"session\":\"bp64\",\"kind\":\"sprite_sprite\",\"sprites\":[1]}");
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(sc(r), "kind")), "sprite_sprite");
    /* Sprites 0 and 1: solid blocks, 0 at y 120, 1 at y 125, overlapping. */
    static char args[1024];
    char data[63 * 3 + 1];
    for (int i = 0; i < 63; i++) memcpy(data + i * 3, "FF ", 3);
    data[63 * 3 - 1] = '\0';
    snprintf(args, sizeof args,
             "{\"session\":\"bp64\",\"sprite\":0,\"x\":100,\"y\":120,\"enabled\":true,"
             "\"pointer\":13,\"data\":\"%s\"}", data);
    CU_ASSERT_TRUE(ok(call("vic2_sprites_set", args)));
    CU_ASSERT_TRUE(ok(call("vic2_sprites_set", "{\"session\":\"bp64\",\"sprite\":1,\"x\":110,"
                                               "\"y\":125,\"enabled\":true,\"pointer\":13}")));
    const cJSON *stop = run_to_stop();
    CU_ASSERT_PTR_NOT_NULL_FATAL(stop);
    const cJSON *detail = obj(obj(stop, "breakpoint"), "detail");
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(detail, "collision")), "sprite_sprite");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(obj(detail, "sprites")), 1);
    CU_ASSERT_EQUAL(cJSON_GetArrayItem(obj(detail, "sprites"), 0)->valueint, 1);
    CU_ASSERT_EQUAL((int)num(detail, "latch"), 0x02);
    /* The first line where both show: sprite 1's first line. */
    CU_ASSERT_TRUE(num(detail, "line") >= 125 && num(detail, "line") <= 127);
    CU_ASSERT_EQUAL(num(obj(stop, "raster"), "line"), num(detail, "line"));
    r = call("vic2_sprites_get", "{\"session\":\"bp64\",\"sprite\":1}");
    CU_ASSERT_TRUE(cJSON_IsTrue(obj(cJSON_GetArrayItem(obj(sc(r), "sprites"), 0), "collided_sprite")));
    delete_all();
    /* Sprite-background: sprite 2 over the boot banner's text (top rows). */
    r = call("breakpoints_sprite_collision",
             "{\"session\":\"bp64\",\"kind\":\"sprite_background\",\"sprites\":4}");
    CU_ASSERT_TRUE_FATAL(ok(r));
    CU_ASSERT_TRUE(ok(call("vic2_sprites_set", "{\"session\":\"bp64\",\"sprite\":2,\"x\":120,"
                                               "\"y\":60,\"enabled\":true,\"pointer\":13}")));
    stop = run_to_stop();
    CU_ASSERT_PTR_NOT_NULL_FATAL(stop);
    detail = obj(obj(stop, "breakpoint"), "detail");
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(detail, "collision")), "sprite_background");
    CU_ASSERT_EQUAL(cJSON_GetArrayItem(obj(detail, "sprites"), 0)->valueint, 2);
    CU_ASSERT_TRUE(num(detail, "line") >= 60 && num(detail, "line") < 81);
    delete_all();
    CU_ASSERT_TRUE(ok(call("vic2_sprites_set", "{\"session\":\"bp64\",\"sprite\":2,\"enabled\":false}")));
    CU_ASSERT_TRUE(ok(call("vic2_sprites_set", "{\"session\":\"bp64\",\"sprite\":0,\"enabled\":false}")));
    CU_ASSERT_TRUE(ok(call("vic2_sprites_set", "{\"session\":\"bp64\",\"sprite\":1,\"enabled\":false}")));
}

static void test_composite(void)
{
    /* raster == 200 AND border == 2: true at the start of line 200, before
     * the handler sets 6. */
    const cJSON *r = call("breakpoints_composite",
                          "{\"session\":\"bp64\",\"op\":\"and\",\"terms\":[{\"what\":\"raster\","
                          "\"equals\":200},{\"what\":\"register\",\"register\":\"$D020\","
                          "\"equals\":2}]}");
    CU_ASSERT_TRUE_FATAL(ok(r));
    const cJSON *stop = run_to_stop();
    CU_ASSERT_PTR_NOT_NULL_FATAL(stop);
    const cJSON *values = obj(obj(obj(stop, "breakpoint"), "detail"), "values");
    CU_ASSERT_EQUAL(num(values, "raster"), 200);
    CU_ASSERT_EQUAL(num(values, "register32"), 2); /* a colour register compares as 0-15 */
    CU_ASSERT_EQUAL(num(obj(stop, "raster"), "line"), 200);
    delete_all();
    /* OR with a pc term: stops at the handler's entry. */
    CU_ASSERT_FATAL(irq_address != 0);
    char args[512];
    snprintf(args, sizeof args,
             "{\"session\":\"bp64\",\"op\":\"or\",\"terms\":[{\"what\":\"pc\",\"min\":%u,"
             "\"max\":\"$%04X\"},{\"what\":\"sprite_y\",\"sprite\":7,\"equals\":255}]}",
             irq_address, irq_address);
    CU_ASSERT_TRUE(ok(call("breakpoints_composite", args)));
    stop = run_to_stop();
    CU_ASSERT_PTR_NOT_NULL_FATAL(stop);
    CU_ASSERT_EQUAL(num(obj(obj(obj(stop, "breakpoint"), "detail"), "values"), "pc"), irq_address);
    CU_ASSERT_EQUAL(num(stop, "pc"), irq_address);
    delete_all();
}

static void test_bad_inputs(void)
{
    CU_ASSERT_TRUE(error_has(call("breakpoints_raster", "{\"session\":\"bp64\",\"line\":312}"),
                             "line", "0-311"));
    CU_ASSERT_TRUE(error_has(call("breakpoints_raster", "{\"session\":\"bp64\",\"line\":100,"
                                                        "\"end_line\":50}"), "end_line", NULL));
    CU_ASSERT_TRUE(error_has(call("breakpoints_raster", "{\"session\":\"bp64\",\"line\":1,"
                                                        "\"mode\":\"sometimes\"}"), "mode", NULL));
    CU_ASSERT_TRUE(error_has(call("breakpoints_raster", "{\"session\":\"bp64\",\"line\":1,"
                                                        "\"condition\":\"a ==\"}"), "position", NULL));
    CU_ASSERT_TRUE(error_has(call("breakpoints_sprite_collision",
                                  "{\"session\":\"bp64\",\"sprites\":[8]}"), "sprites[0]", "0-7"));
    CU_ASSERT_TRUE(error_has(call("breakpoints_sprite_collision",
                                  "{\"session\":\"bp64\",\"kind\":\"sprite_border\"}"), "kind", NULL));
    CU_ASSERT_TRUE(error_has(call("breakpoints_vic_register_write",
                                  "{\"session\":\"bp64\",\"register\":\"$D800\"}"),
                             "VIC-II register", NULL));
    CU_ASSERT_TRUE(error_has(call("breakpoints_vic_register_write",
                                  "{\"session\":\"bp64\",\"register\":32,\"value\":300}"),
                             "value", NULL));
    CU_ASSERT_TRUE(error_has(call("breakpoints_composite", "{\"session\":\"bp64\",\"terms\":[]}"),
                             "terms", NULL));
    CU_ASSERT_TRUE(error_has(call("breakpoints_composite",
                                  "{\"session\":\"bp64\",\"terms\":[{\"what\":\"raster\"}]}"),
                             "terms[0]", "equals"));
    CU_ASSERT_TRUE(error_has(call("breakpoints_composite",
                                  "{\"session\":\"bp64\",\"terms\":[{\"what\":\"raster\",\"min\":9,"
                                  "\"max\":3}]}"), "min 9", NULL));
    CU_ASSERT_TRUE(error_has(call("breakpoints_composite",
                                  "{\"session\":\"bp64\",\"terms\":[{\"what\":\"sprite_y\","
                                  "\"equals\":3}]}"), "sprite", NULL));
    /* Nothing was added by the refused calls. */
    const cJSON *r = call("breakpoints_list", "{\"session\":\"bp64\"}");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(obj(sc(r), "breakpoints")), 0);
}

MH_SUITE("tools_vic2.breakpoints", suite_init, suite_cleanup,
         MH_TEST(test_program_splits_the_border), MH_TEST(test_raster_stops_on_line_and_cycle),
         MH_TEST(test_register_write_stops_and_logs), MH_TEST(test_sprite_collision),
         MH_TEST(test_composite), MH_TEST(test_bad_inputs))
