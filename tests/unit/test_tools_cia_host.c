/* tools_cia.host - the CIA toolset through the in-process host on the real
 * machine-c64.so: cia1's timer A (the KERNAL's 60 Hz interrupt) moves
 * between two cia_timers_get calls of a running machine; registers of
 * cia1 and cia2 decode as the KERNAL set them; a register write reads
 * back; a key held through mh.input/1 shows in cia_keyboard_matrix; bad
 * inputs and the wrong instance are tool errors that say what to do; on
 * bare6502 the host refuses the tools naming the machine and the chip.
 * Needs /usr/share/open-roms/C64. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "host_harness.h"
#include "loader.h"
#include "mcphost/machine.h"
#include "mh_test.h"
#include "sessions.h"

#ifndef MH_PLUGIN_BUILD_DIR
#error "MH_PLUGIN_BUILD_DIR must be defined"
#endif

static mh_harness h;
static mh_session *c64s;

static const cJSON *call(const char *tool, const char *args)
{
    return mh_harness_call_tool(&h, tool, args);
}

static const cJSON *obj(const cJSON *object, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(object, key);
}

static double num(const cJSON *object, const char *key)
{
    const cJSON *v = obj(object, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static const cJSON *sc(const cJSON *result) { return obj(result, "structuredContent"); }

static int error_has(const cJSON *result, const char *a, const char *b)
{
    if (!result || !mh_harness_is_error(result)) return 0;
    const char *text = mh_harness_text(result);
    int ok = strstr(text, a) && (!b || strstr(text, b));
    if (!ok) fprintf(stderr, "  error text: %s\n", text);
    return ok;
}

typedef struct job {
    const char *key;
    int down;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
} job;

static void key_job(void *arg, mh_session *s)
{
    job *j = arg;
    const mh_chip *chip = s ? mh_session_service_impl.find_chip(s, MH_IFACE_INPUT, NULL) : NULL;
    if (chip) ((const mh_input_iface *)chip->vtable)->key(chip->context, j->key, j->down);
    pthread_mutex_lock(&j->lock);
    j->done = 1;
    pthread_cond_signal(&j->cond);
    pthread_mutex_unlock(&j->lock);
}

static void press(const char *key, int down)
{
    job j = {key, down, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    mh_session_post(c64s, key_job, &j);
    pthread_mutex_lock(&j.lock);
    while (!j.done) pthread_cond_wait(&j.cond, &j.lock);
    pthread_mutex_unlock(&j.lock);
}

static int suite_init(void)
{
    char error[1024];
    if (mh_harness_init(&h, 0) != 0) return -1;
    const char *plugins[] = {MH_C64_PLUGIN, MH_BARE6502_PLUGIN, MH_PLUGIN_BUILD_DIR "/tools-cia.so"};
    for (size_t i = 0; i < 3; i++)
        if (mh_loader_load_file(&h.ctx, plugins[i], error, sizeof error) != MH_OK) {
            fprintf(stderr, "loading %s: %s\n", plugins[i], error);
            return -1;
        }
    mh_harness_initialize(&h, "2025-11-25");
    if (mh_harness_is_error(call("session_create", "{\"machine\":\"c64\",\"name\":\"c64c\"}")) ||
        mh_harness_is_error(call("session_create", "{\"machine\":\"bare6502\",\"name\":\"bare\"}")))
        return -1;
    c64s = mh_sessions_find(h.ctx.sessions, "c64c");
    if (!c64s) return -1;
    mh_session_start(c64s, 1, 3000000);
    mh_session_wait_finished(c64s);
    return 0;
}

static int suite_cleanup(void)
{
    mh_harness_free(&h);
    return 0;
}

static void test_timers_move_while_running(void)
{
    /* Real time: the machine keeps running between the two calls. */
    mh_session_start(c64s, 0, mh_session_cycles(c64s) + 100000000ull);
    const cJSON *r1 = call("cia_timers_get", "{\"session\":\"c64c\",\"instance\":\"cia1\"}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r1));
    double c1 = num(obj(sc(r1), "timer_a"), "counter");
    double u1 = num(obj(sc(r1), "timer_a"), "underflows");
    const cJSON *ta = obj(sc(r1), "timer_a");
    CU_ASSERT_TRUE(cJSON_IsTrue(obj(ta, "running")));
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(ta, "input")), "phi2");
    CU_ASSERT_TRUE(num(ta, "latch") > 0x1000);
    /* Read again until the machine has moved on (real time: 20 ms is
     * about 20000 cycles, more than a 1/60 s timer period); a starved
     * thread only makes it take longer. */
    const cJSON *r2 = NULL;
    double c2 = c1, u2 = u1;
    for (int i = 0; i < 200 && u2 <= u1; i++) {
        struct timespec ts = {0, 20 * 1000000};
        nanosleep(&ts, NULL);
        r2 = call("cia_timers_get", "{\"session\":\"c64c\",\"instance\":\"cia1\"}");
        c2 = num(obj(sc(r2), "timer_a"), "counter");
        u2 = num(obj(sc(r2), "timer_a"), "underflows");
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(r2);
    CU_ASSERT_TRUE(u2 > u1);
    CU_ASSERT_TRUE(c1 != c2 || u1 != u2);
    mh_session_interrupt(c64s, 0);
    mh_session_wait_finished(c64s);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r2), "timer A"));
}

static void test_registers_get(void)
{
    const cJSON *r = call("cia_registers_get", "{\"session\":\"c64c\",\"instance\":\"cia1\"}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    const cJSON *s = sc(r);
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(s, "instance")), "cia1");
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(s, "model")), "6526");
    CU_ASSERT_EQUAL(num(obj(s, "port_a"), "ddr"), 0xFF); /* keyboard columns driven */
    CU_ASSERT_EQUAL(num(obj(s, "port_b"), "ddr"), 0x00);
    CU_ASSERT_TRUE((int)num(obj(s, "icr"), "mask") & 1); /* timer A interrupt enabled */
    CU_ASSERT_EQUAL(cJSON_GetArraySize(obj(s, "registers")), 16);
    CU_ASSERT_PTR_NOT_NULL(obj(obj(s, "tod"), "time"));
    r = call("cia_registers_get", "{\"session\":\"c64c\",\"instance\":\"cia2\"}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    /* VIC bank 0: PA bits 0-1 are outputs driven high. */
    CU_ASSERT_EQUAL((int)num(obj(sc(r), "port_a"), "driven") & 3, 3);
    CU_ASSERT_TRUE((int)num(obj(sc(r), "port_a"), "ddr") & 3);
    /* Default instance: the first CIA. */
    r = call("cia_registers_get", "{\"session\":\"c64c\"}");
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(obj(sc(r), "instance")), "cia1");
}

static void test_registers_set(void)
{
    /* Stop cia2 timer B and load a latch; read back through the decode. */
    const cJSON *r = call("cia_registers_set",
                          "{\"session\":\"c64c\",\"instance\":\"cia2\",\"writes\":["
                          "{\"register\":\"CRB\",\"value\":0},{\"register\":\"$DD06\",\"value\":\"$34\"},"
                          "{\"register\":7,\"value\":18},{\"register\":\"crb\",\"value\":16}]}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    CU_ASSERT_EQUAL(cJSON_GetArraySize(obj(sc(r), "writes")), 4);
    r = call("cia_timers_get", "{\"session\":\"c64c\",\"instance\":\"cia2\"}");
    CU_ASSERT_EQUAL(num(obj(sc(r), "timer_b"), "latch"), 0x1234);
    /* The force load reaches the counter a cycle later, as on the chip. */
    mh_session_start(c64s, 1, mh_session_cycles(c64s) + 100);
    mh_session_wait_finished(c64s);
    r = call("cia_timers_get", "{\"session\":\"c64c\",\"instance\":\"cia2\"}");
    CU_ASSERT_EQUAL(num(obj(sc(r), "timer_b"), "counter"), 0x1234);
    CU_ASSERT_FALSE(cJSON_IsTrue(obj(obj(sc(r), "timer_b"), "running")));

    CU_ASSERT_TRUE(error_has(call("cia_registers_set", "{\"session\":\"c64c\",\"instance\":"
                                  "\"cia1\",\"register\":\"$DD0E\",\"value\":0}"),
                             "other CIA", "cia2"));
    CU_ASSERT_TRUE(error_has(call("cia_registers_set", "{\"session\":\"c64c\",\"register\":16,"
                                  "\"value\":0}"), "not a CIA register", NULL));
    CU_ASSERT_TRUE(error_has(call("cia_registers_set", "{\"session\":\"c64c\",\"register\":"
                                  "\"TIMER\",\"value\":0}"), "register", "CRA"));
    CU_ASSERT_TRUE(error_has(call("cia_registers_set", "{\"session\":\"c64c\",\"register\":1,"
                                  "\"value\":-1}"), "value", NULL));
    CU_ASSERT_TRUE(error_has(call("cia_registers_set", "{\"session\":\"c64c\"}"),
                             "nothing to write", NULL));
    CU_ASSERT_TRUE(error_has(call("cia_timers_get", "{\"session\":\"c64c\",\"instance\":\"cia3\"}"),
                             "cia3", "cia1, cia2"));
}

static void test_keyboard_matrix(void)
{
    const cJSON *r = call("cia_keyboard_matrix", "{\"session\":\"c64c\"}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    CU_ASSERT_EQUAL(cJSON_GetArraySize(obj(sc(r), "keys_down")), 0);
    /* The summary first, then the facts (mh_toolkit_facts_text). */
    CU_ASSERT_EQUAL(strncmp(mh_harness_text(r), "no key is down\n\n", 16), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "keys_down: none"));
    press("A", 1);
    press("SHIFT_LEFT", 1);
    r = call("cia_keyboard_matrix", "{\"session\":\"c64c\",\"instance\":\"cia1\"}");
    const cJSON *keys = obj(sc(r), "keys_down");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(keys), 2);
    CU_ASSERT_STRING_EQUAL(cJSON_GetArrayItem(keys, 0)->valuestring, "A");
    CU_ASSERT_STRING_EQUAL(cJSON_GetArrayItem(keys, 1)->valuestring, "SHIFT_LEFT");
    /* A is column 1, row 2; left SHIFT column 1, row 7. */
    CU_ASSERT_STRING_EQUAL(cJSON_GetArrayItem(obj(sc(r), "matrix"), 1)->valuestring, "00100001");
    press("A", 0);
    press("SHIFT_LEFT", 0);
    r = call("cia_keyboard_matrix", "{\"session\":\"c64c\"}");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(obj(sc(r), "keys_down")), 0);
    CU_ASSERT_TRUE(error_has(call("cia_keyboard_matrix", "{\"session\":\"c64c\",\"instance\":\"cia2\"}"),
                             "cia2", "cia1"));
}

static void test_missing_chip(void)
{
    static const char *const tools[] = {"cia_registers_get", "cia_timers_get",
                                        "cia_registers_set", "cia_keyboard_matrix"};
    for (size_t i = 0; i < 4; i++) {
        const cJSON *r = call(tools[i], "{\"session\":\"bare\"}");
        CU_ASSERT_TRUE(error_has(r, tools[i], "bare6502"));
        CU_ASSERT_TRUE(error_has(r, "mh.chip.cia/1", NULL));
    }
}

MH_SUITE("tools_cia.host", suite_init, suite_cleanup, MH_TEST(test_timers_move_while_running),
         MH_TEST(test_registers_get), MH_TEST(test_registers_set), MH_TEST(test_keyboard_matrix),
         MH_TEST(test_missing_chip))
